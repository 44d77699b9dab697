"""Cubeful n-ply: every node of the lookahead makes its own cube decision.

The player on roll's cubeful value at depth 0 is the cube model's (``cube_decision`` at 0
plies: Janowski in money, MET interpolation in a match, exact two-sided bear-offs in
money). At depth n it is the better of No double and the taker's best answer to a double:
No double averages the 21 rolls, each with the play best by the mover's 0-ply cubeful value
after it (the leaf model, the cube as it is: money or match value, not cubeless money
equity), then the opponent's value at depth n - 1 with the cube as it is; Double/Take does
the same with the cube doubled and owned by the opponent. The cube's value and owner are
carried down. Values are money equity per current cube, or match winning chance.

The move choice values every play of every roll by the leaf model in C, in one call per
node (bgcore._cube_janowski.money_best_values, MatchCubeReferee.position_values: the
arithmetic of ``janowski`` and ``MatchCubeModel`` step by step, each board's x by its
class), so at the last ply the value averaged is the best play's by that very value; the
leaves reuse those values and the 0-ply evaluations behind them (bit for bit what
``cube_decision`` gives at each leaf; bear-offs, where the two-sided table may give exact
values or x, are chosen by the class's x and the chosen play valued as a leaf).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from bgcore import _cube_efficiency
from bgcore._cube_janowski import money_best_value, money_best_values
from bgcore._cube_match import MatchCubeReferee
from bgengine.cube.bearoff_exact import exact_money_doubling_functions
from bgengine.cube.decision import TIE
from bgengine.cube.efficiency import efficiency_for, efficiency_rule
from bgengine.cube.match_equity import MatchScore, mwc_after_game
from bgengine.cube.match_model import match_cube_spec
from bgengine.cube.met import MatchEquityTable, default_met
from bgengine.game.record import ROLLS
from bgengine.match_state import CubeOwner, MatchState
from bgengine.move import Move, Roll, legal_children_batch, legal_moves
from bgengine.position import Position, checked_position
from bgengine.probabilities import GameProbabilities, equity

_DICE = np.array(ROLLS, dtype=np.int8)
_WEIGHTS = np.array([1.0 if a == b else 2.0 for a, b in ROLLS]) / 36.0
#: The C match cube's owner codes, seen from the player on roll.
_OWNER_CODES = {CubeOwner.CENTRED: 0, CubeOwner.PLAYER: 1, CubeOwner.OPPONENT: -1}
#: The C match cube's own x, unused where each board brings its x (``position_values``).
_ANY_EFFICIENCY = (0.0, 0.0, 0.0)


class CubefulSearch:
    """Cubeful values by lookahead with ``evaluator`` (an ``Evaluator`` with ``evaluate_batch``);
    ``cube_efficiency`` None: the leaves' own classes."""

    def __init__(self, evaluator: Any, met: MatchEquityTable | None = None, cube_efficiency: float | None = None) -> None:
        self.evaluator = evaluator
        self.met = met or default_met()
        self.cube_efficiency = cube_efficiency
        self._match_cubes: dict[tuple[object, ...], MatchCubeReferee | None] = {}

    def equities(self, position: Position, match: MatchState, depth: int) -> tuple[float, float | None, float | None]:
        """(No double, Double/Take, Double/Pass) of the player on roll, searched ``depth`` plies
        (>= 1); the doubling ones None when the player may not double."""
        match = match.with_changes(double_offered=False)  # the search turns the cube itself
        no_double = self._after_rolls(position, match, depth)
        if match.why_no_double():
            return no_double, None, None
        # valid: the rules allow this double
        doubled = match._with_trusted_changes(cube_value=2 * match.cube_value, cube_owner=1 - match.on_roll)
        double_take = self._after_rolls(position, doubled, depth)
        if match.is_money:
            return no_double, 2.0 * double_take, 1.0
        score = MatchScore.from_match_state(match)
        return no_double, double_take, mwc_after_game(self.met, score, match.cube_value, 0)

    def value(self, position: Position, match: MatchState, depth: int, probabilities: Any = None) -> float:
        """The player on roll's cubeful value with the best cube action now; at depth 0 from
        ``probabilities`` (the evaluator's 5-vector of ``position``) when given."""
        if depth == 0:
            return self._leaf(position, match, self.evaluator.evaluate(position) if probabilities is None else probabilities)
        return _best(match, *self.equities(position, match, depth))

    def _leaf(self, position: Position, match: MatchState, probabilities: Any) -> float:
        """The model's value at a leaf from the evaluator's 5-vector, as ``cube_decision(position,
        match, evaluator=...)`` would give it: exact bear-off tables (money), else the model
        in C (bgcore._cube_janowski, bgcore._cube_match: bit for bit the Python models), or in
        Python where the x are exact (the C models know the classes' x only)."""
        chances = GameProbabilities.from_vector(probabilities)  # the checks cube_decision makes
        owner = match.relative_cube_owner()
        exact = exact_money_doubling_functions(position, match, owner) if match.is_money else None
        if exact is not None:
            take = None if exact.double_take is None else exact.double_take(chances.win)
            return _best(match, exact.no_double(chances.win), take, exact.double_pass)
        states = efficiency_for(position, self.cube_efficiency, match).states
        if match.is_money:
            if not states.exact:
                return float(money_best_value(probabilities, match.cube_value, _OWNER_CODES[owner], states.in_c(),
                                              match.jacoby, match.beavers, match.max_cube))
        elif not states.exact and (cube := self._match_cube(match, states.in_c())) is not None:
            return float(cube.position_value(probabilities, match.cube_value, _OWNER_CODES[owner], True))
        from bgengine.cube.decision import cube_decision

        decision = cube_decision(position, match, probabilities=chances, met=self.met, cube_efficiency=self.cube_efficiency)
        return _best(match, decision.no_double, decision.double_take, decision.double_pass)

    def _match_cube(self, match: MatchState, efficiency: tuple[float, float, float]) -> MatchCubeReferee | None:
        """The C match model at this score (cached), None beyond the aways it holds."""
        key = (match.away(match.on_roll), match.away(1 - match.on_roll), match.crawford, match.max_cube, efficiency)
        if key not in self._match_cubes:
            spec = match_cube_spec(match, self.met)
            self._match_cubes[key] = None if spec is None else MatchCubeReferee(spec, efficiency)
        return self._match_cubes[key]

    def _after_rolls(self, position: Position, match: MatchState, depth: int) -> float:
        """The player's value (unit of ``match``) averaged over the 21 rolls, no double now:
        each roll's play the best by the mover's 0-ply cubeful value (the leaf model after it,
        the cube as it is; ties by cubeless equity), then searched ``depth - 1`` plies. At the
        last ply that is the best play by the very values averaged (bear-offs: by the class's
        x, the chosen play then valued as a leaf, by the table's exact values or x)."""
        boards = np.repeat(np.frombuffer(position.to_bytes(), dtype=np.int8)[None, :], len(ROLLS), axis=0)
        children, offsets = legal_children_batch(boards, _DICE)
        probabilities = np.ascontiguousarray(self.evaluator.evaluate_batch(children), dtype=np.float64)
        values, bearoffs = self._mover_leaf_values(children, probabilities, match)
        opponent_equity = equity(probabilities)  # lower: better for the mover
        total = 0.0
        for roll, weight in enumerate(_WEIGHTS):
            start, stop = int(offsets[roll]), int(offsets[roll + 1])
            ours = values[start:stop]
            tied = start + np.flatnonzero(ours >= ours.max() - TIE)
            best = int(tied[np.argmin(opponent_equity[tied])])
            if depth == 1 and not bearoffs[best]:
                GameProbabilities.from_vector(probabilities[best])  # the checks a leaf makes
                total += weight * values[best]
            else:
                child = Position._trusted(children[best].tobytes())
                total += weight * self.mover_value(child, match, depth - 1, probabilities[best])
        return float(total)

    def _mover_leaf_values(self, children: np.ndarray, probabilities: np.ndarray,
                           match: MatchState) -> tuple[np.ndarray, np.ndarray]:
        """``mover_value`` at depth 0 of every play in ``children`` (their 0-ply 5-vectors in
        ``probabilities``), the models in C with each board's x by its class, and which are
        bear-offs (last rolls included): their values are the class's, where ``_leaf`` may take
        the two-sided table's exact values or x. Finished games by ``mover_value``."""
        opponent = match._with_trusted_changes(on_roll=1 - match.on_roll)
        owner = _OWNER_CODES[opponent.relative_cube_owner()]
        rule = efficiency_rule(self.cube_efficiency, opponent)
        values = np.full(len(children), np.nan)
        classes = np.full(len(children), _cube_efficiency.OVER, dtype=np.int8)
        if match.is_money:
            money_best_values(children, probabilities, rule, match.cube_value, owner, opponent.jacoby,
                              opponent.beavers, match.max_cube, values, classes)
            values = -values
        elif (cube := self._match_cube(opponent, _ANY_EFFICIENCY)) is not None:
            cube.position_values(children, probabilities, rule, match.cube_value, owner, values, classes)
            values = 1.0 - values
        for i in np.flatnonzero(classes == _cube_efficiency.OVER):  # finished, or beyond the C table's aways
            values[i] = self.mover_value(Position._trusted(children[i].tobytes()), match, 0, probabilities[i])
        return values, (classes == _cube_efficiency.BEAROFF) | (classes == _cube_efficiency.LAST_ROLL)

    def mover_value(self, child: Position, match: MatchState, depth: int, probabilities: Any = None) -> float:
        """The mover's value after a play (``child`` seen from the opponent, whose cube
        decision is searched ``depth`` plies; ``probabilities``: the child's 0-ply
        5-vector, if known); ``match`` is the mover's, before the roll."""
        finished = child.winner_and_result()
        if finished is not None:
            points = match.game_points(int(finished[1]))
            if match.is_money:
                return points / match.cube_value
            return mwc_after_game(self.met, MatchScore.from_match_state(match), points, 0)
        # valid: the turn passes (no dice, no double offered)
        opponent_match = match._with_trusted_changes(on_roll=1 - match.on_roll)
        opponent = self.value(child, opponent_match, depth, probabilities)
        return -opponent if match.is_money else 1.0 - opponent


def _best(match: MatchState, no_double: float, take: float | None, drop: float | None) -> float:
    """No double or the taker's best answer to a double (take, pass, beaver when allowed)."""
    if take is None or drop is None:
        return no_double
    response = min(take, drop, 2.0 * take) if match.may_beaver() else min(take, drop)
    return max(no_double, response)


@dataclass(frozen=True)
class CubefulMove:
    """A legal play with the mover's cubeful value after it (money per current cube, or MWC)."""

    move: Move
    position: Position  # after the play, seen from the opponent
    equity: float


def cubeful_equity(
    position: Position,
    match: MatchState | None = None,
    *,
    plies: int = 0,
    evaluator: Any = None,
    met: MatchEquityTable | None = None,
) -> float:
    """The player on roll's cubeful value before rolling, taking the best cube action now
    (money per current cube, or match winning chance), searched ``plies`` deep."""
    from bgengine.cube.decision import _checked_plies

    match = _before_roll(match)
    return _search(evaluator, met).value(checked_position(position), match, _checked_plies(plies, None, None))


def rank_moves_cubeful(
    position: Position,
    dice: Roll,
    match: MatchState | None = None,
    *,
    plies: int = 0,
    evaluator: Any = None,
    met: MatchEquityTable | None = None,
) -> list[CubefulMove]:
    """Every legal play of ``dice`` with the mover's cubeful value after it, best first: the
    opponent's cubeful value (its cube decision included) searched ``plies`` deep, the cube
    as in ``match`` (checker play at a score depends on the cube)."""
    from bgengine.cube.decision import _checked_plies

    match = _before_roll(match)
    plies = _checked_plies(plies, None, None)
    search = _search(evaluator, met)
    legal = legal_moves(checked_position(position), dice)
    ranked = [
        CubefulMove(legal.moves[i], legal.position_after(i), search.mover_value(legal.position_after(i), match, plies))
        for i in range(len(legal))
    ]
    ranked.sort(key=lambda choice: -choice.equity)
    return ranked


def _before_roll(match: MatchState | None) -> MatchState:
    """The match state (money by default) without dice: cube decisions come before the roll."""
    from bgengine.errors import InvalidCubeSettingsError

    match = match if match is not None else MatchState()
    if not isinstance(match, MatchState):
        raise InvalidCubeSettingsError(f"match must be a MatchState, got {type(match).__name__}")
    return match.with_changes(dice=None, double_offered=False)


def _search(evaluator: Any, met: MatchEquityTable | None) -> CubefulSearch:
    from bgengine.evaluation.evaluator import default_evaluator

    return CubefulSearch(evaluator or default_evaluator(), met)

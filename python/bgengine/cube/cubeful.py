"""Cubeful n-ply: every node of the lookahead makes its own cube decision.

The player on roll's cubeful value at depth 0 is the cube model's (``cube_decision`` at 0
plies: Janowski in money, MET interpolation in a match, exact two-sided bear-offs in
money). At depth n it is the better of No double and the taker's best answer to a double:
No double averages the 21 rolls, each with the move best by 0-ply cubeless equity, then
the opponent's value at depth n - 1 with the cube as it is; Double/Take does the same with
the cube doubled and owned by the opponent. The cube's value and owner are carried down.
Values are money equity per current cube, or match winning chance.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from bgengine.cube.match_equity import MatchScore, mwc_after_game
from bgengine.cube.met import MatchEquityTable, default_met
from bgengine.game.record import ROLLS
from bgengine.match_state import MatchState
from bgengine.move import Move, Roll, legal_children_batch, legal_moves
from bgengine.position import Position, checked_position
from bgengine.probabilities import equity

_DICE = np.array(ROLLS, dtype=np.int8)
_WEIGHTS = np.array([1.0 if a == b else 2.0 for a, b in ROLLS]) / 36.0


class CubefulSearch:
    """Cubeful values by lookahead with ``evaluator`` (an ``Evaluator`` with ``evaluate_batch``);
    ``cube_efficiency`` None: the leaves' own classes."""

    def __init__(self, evaluator: Any, met: MatchEquityTable | None = None, cube_efficiency: float | None = None) -> None:
        self.evaluator = evaluator
        self.met = met or default_met()
        self.cube_efficiency = cube_efficiency

    def equities(self, position: Position, match: MatchState, depth: int) -> tuple[float, float | None, float | None]:
        """(No double, Double/Take, Double/Pass) of the player on roll, searched ``depth`` plies
        (>= 1); the doubling ones None when the player may not double."""
        no_double = self._after_rolls(position, match, depth)
        if match.why_no_double():
            return no_double, None, None
        doubled = match.with_changes(cube_value=2 * match.cube_value, cube_owner=1 - match.on_roll)
        double_take = self._after_rolls(position, doubled, depth)
        if match.is_money:
            return no_double, 2.0 * double_take, 1.0
        score = MatchScore.from_match_state(match)
        return no_double, double_take, mwc_after_game(self.met, score, match.cube_value, 0)

    def value(self, position: Position, match: MatchState, depth: int) -> float:
        """The player on roll's cubeful value with the best cube action now."""
        if depth == 0:
            from bgengine.cube.decision import cube_decision

            decision = cube_decision(
                position, match, evaluator=self.evaluator, met=self.met, cube_efficiency=self.cube_efficiency
            )
            no_double, take, drop = decision.no_double, decision.double_take, decision.double_pass
        else:
            no_double, take, drop = self.equities(position, match, depth)
        if take is None or drop is None:
            return no_double
        response = min(take, drop, 2.0 * take) if match.may_beaver() else min(take, drop)
        return max(no_double, response)

    def _after_rolls(self, position: Position, match: MatchState, depth: int) -> float:
        """The player's value (unit of ``match``) averaged over the 21 rolls, no double now."""
        boards = np.repeat(np.frombuffer(position.to_bytes(), dtype=np.int8)[None, :], len(ROLLS), axis=0)
        children, offsets = legal_children_batch(boards, _DICE)
        opponent_equity = equity(np.asarray(self.evaluator.evaluate_batch(children)))  # lower: better for the mover
        after = match.with_changes(on_roll=1 - match.on_roll)
        total = 0.0
        for roll, weight in enumerate(_WEIGHTS):
            start, stop = int(offsets[roll]), int(offsets[roll + 1])
            best = start + int(np.argmin(opponent_equity[start:stop]))
            child = Position._trusted(children[best].tobytes())
            total += weight * self.mover_value(child, match, depth - 1)
        return float(total)

    def mover_value(self, child: Position, match: MatchState, depth: int) -> float:
        """The mover's value after a play (``child`` seen from the opponent, whose cube
        decision is searched ``depth`` plies); ``match`` is the mover's, before the roll."""
        finished = child.winner_and_result()
        if finished is not None:
            points = match.game_points(int(finished[1]))
            if match.is_money:
                return points / match.cube_value
            return mwc_after_game(self.met, MatchScore.from_match_state(match), points, 0)
        opponent = self.value(child, match.with_changes(on_roll=1 - match.on_roll), depth)
        return -opponent if match.is_money else 1.0 - opponent


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

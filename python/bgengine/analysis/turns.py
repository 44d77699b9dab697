"""One turn of a recorded match analysed on its own: the cube decision, the roll's luck, the play.

A ``TurnTask`` holds everything a turn needs (the position before the roll from the
player on roll, the match state, what was done), so turns are independent of each other:
``analyse_turn`` is a pure function that any executor (threads, processes, a cluster) can
run in any order with the same answers. Equities are the player on roll's view, per unit
of the current cube (EMG), by one of ``EQUITY_MEASURES`` (``PlayValue``): "cubeful" at the
score (the default), cubeless "match" winning chance at the score, or cubeless "money"
equity. The last two are linear in the probabilities (``EquityWeights``); the match layer
converts EMG to MWC.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from bgengine.cube.decision import CubeDecision, cube_decision
from bgengine.cube.cubeful import CubefulSearch
from bgengine.cube.match_equity import MatchScore, emg_reference, mwc_after_game
from bgengine.cube.met import MatchEquityTable, default_met
from bgengine.evaluation.evaluator import (
    ROOT_FILTER, Evaluator, RankedMove, choose_candidates, default_evaluator, evaluate, rank_legal_moves,
)
from bgengine.match_state import MatchState
from bgengine.move import Move, legal_moves
from bgengine.probabilities import GameProbabilities, flipped
from bgengine.position import Phase, Position

#: The 21 distinct rolls with their weights out of 36.
ROLL_WEIGHTS: tuple[tuple[tuple[int, int], int], ...] = tuple(
    ((high, low), 1 if high == low else 2) for high in range(1, 7) for low in range(1, high + 1)
)
#: The opening throw is never a double: 15 distinct rolls, each 2 of 30.
OPENING_ROLL_WEIGHTS: tuple[tuple[tuple[int, int], int], ...] = tuple(
    (dice, weight) for dice, weight in ROLL_WEIGHTS if dice[0] != dice[1]
)
#: Ranked plays kept per checker play for reports (the played one is always kept too).
KEPT_CANDIDATES = 5
#: EMG by which not doubling must beat doubling at 0-ply for a turn rolled without doubling to
#: keep its 0-ply cube decision (it is then not close, and not searched deeper).
CLEARLY_NO_DOUBLE = 0.2
#: How equities are measured: cubeless money equity, cubeless match winning chance as EMG, or
#: cubeful at the score (the opponent's cube decision after each play, by the cube model).
EQUITY_MEASURES = ("money", "match", "cubeful")


@dataclass(frozen=True)
class EquityWeights:
    """A cubeless equity linear in the 5-vector: ``constant + weights . probabilities`` (EMG).

    Money: -1 + 2 win + win_g + win_bg - lose_g - lose_bg. Match: the MWC of the results at
    the score and cube (W1..W3 winning single/gammon/backgammon, L1..L3 losing), rescaled
    so that W1 is +1 and L1 is -1, which is money equity when the W and L are 1, 2, 3.
    """

    constant: float
    weights: tuple[float, float, float, float, float]

    @classmethod
    def money(cls) -> EquityWeights:
        return cls(-1.0, (2.0, 1.0, 1.0, -1.0, -1.0))

    @classmethod
    def at_score(cls, match: MatchState, met: MatchEquityTable | None = None) -> EquityWeights:
        table = met or default_met()
        score = MatchScore.from_match_state(match)
        cube = score.cube_value
        win = [mwc_after_game(table, score, points * cube, 0) for points in (1, 2, 3)]
        lose = [mwc_after_game(table, score, 0, points * cube) for points in (1, 2, 3)]
        scale = 2.0 / (win[0] - lose[0])
        weights = (2.0, scale * (win[1] - win[0]), scale * (win[2] - win[1]),
                   scale * (lose[1] - lose[0]), scale * (lose[2] - lose[1]))
        return cls(-1.0, weights)

    @classmethod
    def of(cls, measure: str, match: MatchState, met: MatchEquityTable | None = None) -> EquityWeights:
        """The linear measure: money equity for "money" (and for money sessions), else at the score."""
        return cls.money() if measure == "money" or match.is_money else cls.at_score(match, met)

    def equity(self, probabilities: Any) -> Any:
        """The equity of one 5-vector, or of each row of an (n, 5) array."""
        vectors = probabilities if isinstance(probabilities, np.ndarray) else tuple(probabilities)
        return self.constant + np.asarray(vectors, dtype=np.float64) @ np.asarray(self.weights)


@dataclass(frozen=True)
class PlayValue:
    """The mover's equity (EMG) after a play, by one of ``EQUITY_MEASURES``.

    "money" and "match" are linear in the probabilities (``linear``). "cubeful" puts them
    through the cube model at the score (``cube_decision``'s model at 0-ply, in C as the
    cubeful search's leaves: the opponent on roll, the cube as it is, the position's cube
    efficiency) and takes the opponent's best cube action, as a player on roll values a
    position; the mover's MWC is then rescaled to EMG as the linear measures are.
    """

    linear: EquityWeights
    mover: MatchState  # the mover's state before its roll
    cube: CubefulSearch | None = field(compare=False)  # the cube model's values (cubeful only)
    emg_reference: tuple[float, float]  # the mover's MWC after winning and losing a single game

    @classmethod
    def of(cls, measure: str, match: MatchState, met: MatchEquityTable | None = None) -> PlayValue:
        table = met or default_met()
        mover = match.with_changes(dice=None, double_offered=False)
        # The model's values at depth 0 come from the probabilities given: no evaluator is asked.
        cube = CubefulSearch(None, table) if measure == "cubeful" else None
        reference = (1.0, -1.0) if match.is_money else emg_reference(table, MatchScore.from_match_state(match))
        return cls(EquityWeights.of(measure, match, met), mover, cube, reference)

    def after(self, child: Position, mover_probabilities: Any) -> float:
        """The mover's equity after the play leading to ``child`` (the opponent's view)."""
        if self.cube is None or child.phase is Phase.OVER:
            # A finished game has no cube left: its cubeless value is exact.
            return float(self.linear.equity(mover_probabilities))
        theirs = flipped(tuple(GameProbabilities.from_estimate(tuple(float(v) for v in mover_probabilities))))
        mine = self.cube.mover_value(child, self.mover, 0, theirs)
        if self.mover.is_money:
            return mine
        win, lose = self.emg_reference
        return 2.0 * (mine - lose) / (win - lose) - 1.0

    def of_plays(self, position_after: Callable[[int], Position], mover_probabilities: np.ndarray) -> np.ndarray:
        """The mover's equity after each of n plays from their (n, 5) probabilities; play i
        leads to ``position_after(i)`` (read only by the cubeful measure)."""
        if self.cube is None:
            return np.asarray(self.linear.equity(mover_probabilities), dtype=np.float64)
        return np.array([self.after(position_after(i), row) for i, row in enumerate(mover_probabilities)])


@dataclass(frozen=True)
class Candidate:
    """A play with its equity (the measure's, the mover's view) and the depth it was searched."""

    move: Move
    equity: float
    plies: int


class CubeAction(enum.Enum):
    """What the player with access to the cube did, and how the opponent answered."""

    NO_DOUBLE = "no double"
    DOUBLE_TAKE = "double, take"
    DOUBLE_PASS = "double, pass"
    DOUBLE_ONLY = "double"  # the record ends before the answer (e.g. a match file cut short)


@dataclass(frozen=True)
class TurnTask:
    """A turn as recorded: the position before the roll (player on roll's view) and what happened.

    ``match`` is the state before the roll (no dice, no offer). ``cube_action`` is None
    when the player had no access to the cube; ``dice`` and ``played`` are None when the
    turn ended before a checker play (a pass of a double, a resignation).
    """

    game: int  # 0-based index of the game in the match
    turn: int  # 0-based turn of the game
    player: int
    position: Position
    match: MatchState
    opening: bool
    cube_action: CubeAction | None
    dice: tuple[int, int] | None
    played: Move | None
    checker_match: MatchState | None = None  # the state at the checker play (dice set; cube as turned)
    equity: str = "cubeful"  # one of EQUITY_MEASURES
    met: MatchEquityTable | None = None  # for the measures at the score (None: the default table)


@dataclass(frozen=True)
class CheckerResult:
    """The play of a turn against the best, in EMG by the turn's equity measure (mover's view)."""

    played: Move
    best: Move
    played_equity: float
    best_equity: float
    forced: bool
    legal_moves: int
    candidates: tuple[Candidate, ...]  # best first; the played one included

    @property
    def error(self) -> float:
        return max(0.0, self.best_equity - self.played_equity)


@dataclass(frozen=True)
class LuckResult:
    """The roll's equity (its best play at 0-ply) against the average over all rolls."""

    equity: float
    average: float

    @property
    def luck(self) -> float:
        return self.equity - self.average


@dataclass(frozen=True)
class TurnResult:
    task: TurnTask
    cube: CubeDecision | None  # at the match score (MWC), from the player on roll's probabilities
    checker: CheckerResult | None
    luck: LuckResult | None


def analyse_turn(task: TurnTask, plies: int, evaluator: Evaluator | None = None) -> TurnResult:
    """Analyse one turn at ``plies``: the cube decision (if the cube was there), luck, the play."""
    cube = None
    if task.cube_action is not None:
        cube = _cube(task, plies, evaluator)
    checker = luck = None
    if task.dice is not None and task.played is not None and task.checker_match is not None:
        measure = PlayValue.of(task.equity, task.checker_match, task.met)
        checker = _checker(task.position, task.dice, task.played, plies, evaluator, measure)
        luck = _luck(task.position, task.dice, task.opening, evaluator, measure)
    return TurnResult(task, cube, checker, luck)


def _cube(task: TurnTask, plies: int, evaluator: Evaluator | None) -> CubeDecision | None:
    """The cube decision at the score from cubeless probabilities (None: no cube action).

    The 0-ply decision stands when the player rolled and not doubling beats doubling there
    by more than ``CLEARLY_NO_DOUBLE`` (such a decision is neither close nor an error);
    otherwise the probabilities are searched ``plies`` deep. ``decision.plies`` says which.
    """
    decision = _cube_at(task, 0, evaluator)
    if decision is None or plies == 0:
        return decision
    emg = decision.to_emg()
    assert emg.double_take is not None and emg.double_pass is not None
    if task.cube_action is CubeAction.NO_DOUBLE and emg.no_double - min(emg.double_take, emg.double_pass) > CLEARLY_NO_DOUBLE:
        return decision
    return _cube_at(task, plies, evaluator)


def _cube_at(task: TurnTask, plies: int, evaluator: Evaluator | None) -> CubeDecision | None:
    chances = evaluate(task.position, plies=plies, evaluator=evaluator).probabilities
    decision = cube_decision(task.position, task.match, probabilities=chances)
    return replace(decision, plies=plies) if decision.errors is not None else None


def _checker(
    position: Position, dice: tuple[int, int], played: Move, plies: int, evaluator: Evaluator | None,
    measure: PlayValue,
) -> CheckerResult:
    legal = legal_moves(position, dice)
    if len(legal) == 1:
        only = legal.move(0)
        return CheckerResult(only, only, 0.0, 0.0, True, 1, ())
    # The candidates searched deep are the best at 0-ply by the measure itself (at the score).
    ranked = rank_legal_moves(legal, plies=plies, evaluator=evaluator,
                              candidate_equity=lambda mover_view: measure.of_plays(legal.position_after, mover_view))
    played = legal.move(legal.index(played))  # as the generator lists it
    index = next(i for i, m in enumerate(ranked) if m.move == played)
    deep = ranked[index]
    if deep.plies < plies:  # the played move was not a candidate: search it as deep as the best
        mover_view = evaluate(deep.position, plies=plies, evaluator=evaluator).probabilities.flipped()
        deep = replace(deep, probabilities=mover_view, plies=plies)
    others = [ranked[i] for i in sorted(_compared(ranked, measure, plies) - {index})]
    # Ties go to the played move (listed first): an equal play is no error.
    searched = sorted((Candidate(m.move, measure.after(m.position, m.probabilities), plies) for m in [deep, *others]),
                      key=lambda c: -c.equity)
    mine = next(c for c in searched if c.move == played)
    best = searched[0]
    kept = {c.move: c for c in searched[:KEPT_CANDIDATES]}
    kept.setdefault(mine.move, mine)
    return CheckerResult(mine.move, best.move, mine.equity, best.equity, False, len(legal), tuple(kept.values()))


def _compared(ranked: list[RankedMove], measure: PlayValue, plies: int) -> set[int]:
    """The plays compared with the played one (indices into ``ranked``): the ones searched
    ``plies`` deep; at 0-ply the candidates a deeper search would take (``ROOT_FILTER`` by
    the measure)."""
    if plies > 0:
        return {i for i, m in enumerate(ranked) if m.plies == plies}
    values = measure.of_plays(lambda i: ranked[i].position, np.array([tuple(m.probabilities) for m in ranked]))
    return set(choose_candidates(values, ROOT_FILTER).tolist())


def _luck(
    position: Position, dice: tuple[int, int], opening: bool, evaluator: Evaluator | None, measure: PlayValue
) -> LuckResult:
    """Equity of the best 0-ply play of ``dice`` against the weighted average over every roll.

    The best play of each roll is the best by the linear measure; with "cubeful" its
    equity is then the cubeful one.
    """
    rolls = OPENING_ROLL_WEIGHTS if opening else ROLL_WEIGHTS
    children = [np.ascontiguousarray(legal_moves(position, roll).positions) for roll, _ in rolls]
    static: Any = evaluator or default_evaluator()
    values = static.evaluate_batch(np.concatenate(children))
    mover_view = flipped(np.asarray(values))  # children are the opponent's view
    equities = measure.linear.equity(mover_view)
    best_by_roll = {}
    start = 0
    for (roll, _), block in zip(rolls, children, strict=True):
        best = start + int(np.argmax(equities[start : start + len(block)]))
        best_by_roll[roll] = measure.after(Position._trusted(block[best - start].tobytes()), mover_view[best])
        start += len(block)
    total_weight = sum(weight for _, weight in rolls)
    average = sum(best_by_roll[roll] * weight for roll, weight in rolls) / total_weight
    high_first = (max(dice), min(dice))
    return LuckResult(best_by_roll[high_first], average)

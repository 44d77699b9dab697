"""Race evaluation (no contact left) from the bear-off tables, and the classic race counts.

Probabilities are the cumulative 5-vector (win, win gammon, win backgammon, lose gammon,
lose backgammon) from the player on roll's view before the roll. Exact from the
two-sided table where it applies; from the one-sided distributions otherwise (exact
distributions when each side is on the table's points, an approximation for checkers
beyond them; see docs/bearoff.md for the method and its measured error).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bgcore import _race

from bgengine.evaluation import bearoff
from bgengine.errors import InvalidPositionError, NotARaceError
from bgengine.position import NUM_CHECKERS, NUM_SLOTS, Phase, Position, checked_position

HOME_POINTS = bearoff.HOME_POINTS


class RaceEvaluator:
    """Cubeless race probabilities from the bear-off tables; only for non-contact positions.

    ``two_sided_checkers``: per-side size of the exact two-sided table (None: one-sided
    formula only); ``wide_points``: also use a one-sided table on that many points (7..10)
    for checkers outside the home board. The choice belongs to this evaluator alone:
    evaluators with different choices can be used from any threads at once.
    """

    def __init__(
        self,
        *,
        two_sided_checkers: int | None = bearoff.DEFAULT_TWO_SIDED_CHECKERS,
        wide_points: int | None = None,
        cache: bool = True,
    ) -> None:
        widest = bearoff.MAX_ONE_SIDED_POINTS
        if wide_points is not None and not HOME_POINTS < wide_points <= widest:
            raise ValueError(f"wide_points must be 7..{widest} or None, got {wide_points!r}")
        self.two_sided_checkers = two_sided_checkers
        self.wide_points = wide_points
        self.cache = cache

    def tables(self) -> _race.RaceTables:
        """The core's tables for this evaluator's choice (loaded or built on first use)."""
        return bearoff.race_tables(
            two_sided_checkers=self.two_sided_checkers, wide_points=self.wide_points, cache=self.cache
        )

    def evaluate(self, position: Position) -> np.ndarray:
        """The 5-vector of one race position (player on roll's view, before the roll)."""
        checked_position(position)
        values = self.tables().race_probabilities_of(position.to_bytes())
        if values is None:
            raise NotARaceError("the position still has contact; race evaluation needs none")
        return np.array(values, dtype=np.float32)

    def evaluate_batch(self, boards: Any, *, first_roll_exact: bool = False) -> np.ndarray:
        """An (n, 5) float32 array for n race boards: Positions or an (n, 26) int8 array.

        ``first_roll_exact``: a side bearing in with all 15 on the board gets the chance to
        bear a checker off with its next roll exact (the 21 rolls tried) instead of the pip
        bank's guess, the rest of its first-off distribution scaled to fit (the race
        network's base from its inputs' version 2 on)."""
        checked = _int8_boards(boards)
        tables = self.tables()
        out = np.empty((checked.shape[0], 5), dtype=np.float32)
        try:
            done = tables.race_probabilities_batch(checked, out, first_roll_exact)
        except ValueError as error:  # the core's check: not a possible position
            raise InvalidPositionError(str(error)) from None
        if not done.all():
            row = int(np.flatnonzero(~done)[0])
            raise NotARaceError(f"board {row} still has contact; race evaluation needs none")
        return out


_DEFAULT = RaceEvaluator()


def evaluate(position: Position) -> np.ndarray:
    """Cubeless 5-vector of a race position, player on roll's view, default tables."""
    return _DEFAULT.evaluate(position)


def _int8_boards(boards: Any) -> np.ndarray:
    """An (n, 26) C-contiguous int8 array (the core checks that each is a position)."""
    if isinstance(boards, Position):
        raise TypeError("evaluate_batch takes a sequence of boards; use evaluate for one Position")
    if isinstance(boards, Sequence) and len(boards) == 0:
        return np.empty((0, NUM_SLOTS), dtype=np.int8)
    if isinstance(boards, Sequence) and all(isinstance(b, Position) for b in boards):
        return np.frombuffer(b"".join(b.to_bytes() for b in boards), dtype=np.int8).reshape(-1, NUM_SLOTS)
    array = np.asarray(boards)
    if array.ndim != 2 or array.shape[1] != NUM_SLOTS:
        raise InvalidPositionError(f"boards must have shape (n, {NUM_SLOTS}), got {array.shape}")
    if array.dtype.kind not in "iu":
        raise InvalidPositionError(f"checker counts must be integers, got dtype {array.dtype}")
    outside = np.flatnonzero(np.abs(array.astype(np.int64)).max(axis=1, initial=0) > NUM_CHECKERS)
    if outside.size:
        raise InvalidPositionError(f"board {outside[0]}: a slot holds more than 15 checkers")
    return np.ascontiguousarray(array, dtype=np.int8)


# ----- race counts for teaching output -----------------------------------------------------


@dataclass(frozen=True)
class RaceCounts:
    """Classic race counts, each a pair (player on roll, opponent).

    ``keith`` and ``thorp`` include the on-roll adjustment of the player on roll (Keith:
    + one seventh, rounded down; Thorp: + 10% when above 30). ``epc`` is exact when a
    side is home, else from the race approximation.
    """

    pips: tuple[int, int]
    epc: tuple[float, float]
    keith: tuple[float, float]
    thorp: tuple[float, float]


def keith_count(home: Sequence[int], pips: int) -> int:
    """Keith count of one side before the on-roll adjustment: pips plus wastage penalties.

    ``home[p - 1]`` is the count on point p (1..6). Adds 2 per checker beyond one on the
    1-point, 1 per checker beyond one on the 2-point, 1 per checker beyond three on the
    3-point, and 1 per empty point among the 4, 5 and 6 points.
    """
    return (
        pips
        + 2 * max(0, home[0] - 1)
        + max(0, home[1] - 1)
        + max(0, home[2] - 3)
        + sum(1 for p in (3, 4, 5) if home[p] == 0)
    )


def thorp_count(home: Sequence[int], pips: int, on_board: int) -> int:
    """Thorp count of one side before the on-roll adjustment.

    Pips, plus 2 per checker on the board, plus 1 per checker on the 1-point, minus 1 per
    occupied home-board point.
    """
    return pips + 2 * on_board + home[0] - sum(1 for n in home[:HOME_POINTS] if n > 0)


def race_counts(position: Position, evaluator: RaceEvaluator | None = None) -> RaceCounts:
    """Pip count, EPC, Keith and Thorp counts of both sides of a race position.

    The EPCs come from the one-sided tables of ``evaluator`` (default: the default one).
    """
    if position.phase not in (Phase.RACE, Phase.BEAROFF):
        raise NotARaceError("race counts need a position without contact that is not over")
    tables = (evaluator or _DEFAULT).tables()
    pips = position.pip_counts()
    own, theirs, _, _ = position.points()
    board = position.to_bytes()
    epcs, keiths, thorps = [], [], []
    for side, (points, side_pips) in enumerate(((own, pips[0]), (theirs, pips[1]))):
        home = [points.get(p, 0) for p in range(1, HOME_POINTS + 1)]
        distributions = tables.side_roll_distributions(board, side == 0)
        rolls = distributions[0]
        epcs.append(float(bearoff.PIPS_PER_ROLL * np.dot(np.arange(rolls.size), rolls)))
        keiths.append(keith_count(home, side_pips))
        thorps.append(thorp_count(home, side_pips, sum(points.values())))
    keith_on_roll = keiths[0] + keiths[0] // 7
    thorp_on_roll = thorps[0] * 1.1 if thorps[0] > 30 else thorps[0]
    return RaceCounts(
        pips=pips,
        epc=(epcs[0], epcs[1]),
        keith=(float(keith_on_roll), float(keiths[1])),
        thorp=(float(thorp_on_roll), float(thorps[1])),
    )

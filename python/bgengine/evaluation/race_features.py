"""Inputs of the race network: hand-made race features of many boards at once (numpy).

Boards are the core's (n, 26) int8 layout, player on roll's view before the roll, without
contact. Training and inference both call ``race_features``, so the network always sees
the same numbers. Each side is described from its own numbering (point 1 is where it bears
off; its bar counts as point 25), first the player on roll's side, then the opponent's.

Per side (``SIDE_FEATURES`` names them, in order):

* 4 units for each point 1..24: >= 1, >= 2, >= 3 checkers, and (n - 3) / 2 above three;
* ``off``: checkers borne off / 15; ``any_off``: 1 once a checker is off (no gammon to lose);
* ``pips``: pip count / 150;
* ``expected_rolls``: expected rolls to bear off / 20, as the race model computes it (the
  one-sided table exactly when the side is home, its pip-bank approximation otherwise);
* ``home``: 1 when every checker on the board is on points 1..6;
* ``home_rolls``: the one-sided table's expected rolls / 10 when home, else 0;
* ``wastage``: the table's effective pips (49/6 x rolls) minus pips, / 10, when home, else 0;
* ``first_off_rolls``: the table's expected rolls to the first checker off / 5 when home with
  all 15 on the board, else 0 (how long the side needs to save the gammon once home);
* ``outside``: checkers outside the home board (points 7..25) / 15;
* ``crossovers``: quadrant crossings still needed to bring every checker home / 30 (a
  checker on point p > 6 needs ceil((p - 6) / 6));
* ``pips_to_home``: pips needed to bring every checker to the 6-point / 100;
* ``furthest``: the furthest checker's point / 25 (0 when all are off);
* ``finish_within{k}``, k = 1..6: the race model's chance that the side is done within k
  rolls (exact from the one-sided table when home);
* ``first_off_within{k}``, k = 1..6: its chance to have a checker off within k rolls (1 once
  one is off; within one roll exact, the 21 rolls tried, when the side bears in with all 15
  on the board): with the other side's ``finish_within``, the timing of a gammon race, which
  the expected rolls alone do not give (two rolls left or three; double sixes or any double).

Then, for the position: ``pip_lead`` (opponent's pips minus the mover's) / 100, and the race
approximation's 5-vector (``bgengine.evaluation.race``; from version 2 on with
``first_roll_exact``, so its gammon chances see the same exact next roll), so the network
learns a correction to it. ``ENCODING`` and ``ENCODING_VERSION`` name this list; change the version whenever a
feature changes. Version 1 (networks made before 2026-12-02's seventh session) is the same
list without the within-k chances and with the plain approximation; ``race_features(boards,
1)`` computes it.
"""

from __future__ import annotations

import math

import numpy as np

from bgcore import _race

from bgengine.evaluation import bearoff, race

ENCODING = "race-features"
ENCODING_VERSION = 2
POINTS = 24
HOME = bearoff.HOME_POINTS
CHECKERS = 15
POINT_UNITS = 4
WITHIN = _race.race_within()  # rolls ahead of the within-k chances
SIDE_FEATURES = (
    [f"point{p}_{unit}" for p in range(1, POINTS + 1) for unit in ("ge1", "ge2", "ge3", "over3")]
    + ["off", "any_off", "pips", "expected_rolls", "home", "home_rolls", "wastage", "first_off_rolls",
       "outside", "crossovers", "pips_to_home", "furthest"]
    + [f"finish_within{k}" for k in range(1, WITHIN + 1)] + [f"first_off_within{k}" for k in range(1, WITHIN + 1)]
)
POSITION_FEATURES = ["pip_lead", "approx_win", "approx_win_gammon", "approx_win_backgammon",
                     "approx_lose_gammon", "approx_lose_backgammon"]
FEATURE_NAMES = ([f"mover_{name}" for name in SIDE_FEATURES] + [f"opponent_{name}" for name in SIDE_FEATURES]
                 + POSITION_FEATURES)
NUM_FEATURES = len(FEATURE_NAMES)
VERSIONS = (1, 2)


def feature_names(version: int = ENCODING_VERSION) -> list[str]:
    """The input names of an encoding version (1: without the within-k chances)."""
    if version not in VERSIONS:
        raise ValueError(f"race encoding versions are {VERSIONS}, got {version!r}")
    return FEATURE_NAMES if version == ENCODING_VERSION else [name for name in FEATURE_NAMES if "_within" not in name]


_VERSION_1_COLUMNS = np.array([i for i, name in enumerate(FEATURE_NAMES) if "_within" not in name])

_SLOT_POINTS = np.arange(1, POINTS + 2)  # a side's slots 1..24 and its bar (25)
#: Quadrant crossings a checker on point p (index p - 1) needs to reach the home board.
_CROSSINGS = np.array([max(0, math.ceil((p - HOME) / HOME)) for p in _SLOT_POINTS])
#: Binomial coefficients of the one-sided table's rank (see ``one_sided_rank`` in the core).
_BINOMIAL = np.array([[math.comb(n, k) for k in range(HOME + 1)] for n in range(CHECKERS + HOME + 1)],
                     dtype=np.int64)


def side_slots(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n, 25) checker counts of each side on its own points 1..24 and bar (column 24)."""
    signed = np.asarray(boards, dtype=np.int16)
    mover = np.maximum(signed[:, 1:26], 0)
    opponent = np.maximum(-signed[:, 24::-1], 0)
    return mover, opponent


def home_ranks(home_counts: np.ndarray) -> np.ndarray:
    """Ranks in the six-point one-sided table of (n, 6) counts on points 1..6."""
    counts = np.asarray(home_counts, dtype=np.int64)
    zeros = np.cumsum(counts[:, ::-1] + 1, axis=1) - 1  # the core's running "zero" index
    return _BINOMIAL[zeros, np.arange(1, HOME + 1)].sum(axis=1)


def _side_features(slots: np.ndarray, summaries: np.ndarray, table: bearoff.OneSidedTable) -> np.ndarray:
    """(n, len(SIDE_FEATURES)) features of one side's (n, 25) slot counts and its race-model
    summaries ((n, 1 + 2 * WITHIN): ``RaceTables.side_summaries_batch``)."""
    model_rolls = summaries[:, 0]
    n = len(slots)
    points = slots[:, :POINTS]
    units = np.stack([points >= 1, points >= 2, points >= 3, np.maximum(points - 3, 0) / 2.0], axis=2)
    on_board = slots.sum(axis=1)
    off = CHECKERS - on_board
    pips = slots @ _SLOT_POINTS
    outside_counts = slots[:, HOME:]
    home = outside_counts.sum(axis=1) == 0
    ranks = home_ranks(np.where(home[:, None], slots[:, :HOME], 0))
    home_rolls = np.where(home, table.expected[ranks], 0.0)
    wastage = np.where(home, bearoff.PIPS_PER_ROLL * home_rolls - pips, 0.0)
    full_home = home & (on_board == CHECKERS)
    first_index = np.where(full_home, ranks - table.first_rank, 0)
    first_off = np.where(full_home, table.first_expected[first_index], 0.0)
    occupied = slots > 0
    furthest = np.where(occupied.any(axis=1), POINTS + 1 - np.argmax(occupied[:, ::-1], axis=1), 0)
    columns = [
        off / CHECKERS, off > 0, pips / 150.0, model_rolls / 20.0, home, home_rolls / 10.0, wastage / 10.0,
        first_off / 5.0, outside_counts.sum(axis=1) / CHECKERS, slots @ _CROSSINGS / 30.0,
        outside_counts @ np.arange(1, POINTS + 2 - HOME) / 100.0, furthest / 25.0,
    ]
    return np.concatenate([units.reshape(n, -1), np.stack(columns, axis=1).astype(np.float64), summaries[:, 1:]],
                          axis=1)


def race_features(boards: np.ndarray, version: int = ENCODING_VERSION) -> np.ndarray:
    """(n, len(feature_names(version))) float32 features of (n, 26) race boards (no contact)."""
    feature_names(version)  # ValueError on an unknown version
    features = _features(boards, first_roll_exact=version >= 2)
    return features if version == ENCODING_VERSION else features[:, _VERSION_1_COLUMNS]


def _features(boards: np.ndarray, first_roll_exact: bool) -> np.ndarray:
    """The current version's features (``race_features``), the approximation's first-off
    chances for the next roll exact or not."""
    boards = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 26)
    if len(boards) == 0:
        return np.zeros((0, NUM_FEATURES), dtype=np.float32)
    evaluator = race.RaceEvaluator()
    approximation = evaluator.evaluate_batch(boards, first_roll_exact=first_roll_exact)  # NotARaceError on contact
    tables = evaluator.tables()
    table = bearoff.one_sided_table(HOME)
    mover, opponent = side_slots(boards)
    mover_summaries = tables.side_summaries_batch(boards, False)
    opponent_summaries = tables.side_summaries_batch(boards, True)
    pip_lead = (opponent @ _SLOT_POINTS - mover @ _SLOT_POINTS) / 100.0
    features = np.concatenate([
        _side_features(mover, mover_summaries, table),
        _side_features(opponent, opponent_summaries, table),
        pip_lead[:, None], approximation,
    ], axis=1)
    return features.astype(np.float32)

"""Position classes (contact / crashed / race / exact) and hard-class tags of the training
database, decided from a board alone (core layout, player on roll's view), so that every
stage of the pipeline and every later reader agree on them.

Definitions (a "side" is either player; each numbers its own points 1..24):

* exact: no contact, nobody on the bar, both sides entirely on their points 1..6 with 1..6
  checkers each: the two-sided bear-off table (6 checkers a side) values these exactly, so
  they are never labelled.
* race: no contact and not exact.
* crashed: contact, and a side has at most ``CRASHED_IN_PLAY`` (6) checkers in play, where
  checkers borne off or buried on its own 1- and 2-points are out of play (the bar and
  points 3..24 count).
* contact: every other position with contact.

Contact, crashed and race are the engine's own classes, decided in C
(``bgcore._engine.position_classes``, which the engine's dispatch uses to pick a network):
``classify`` calls it, so the pipeline and the engine cannot disagree.

Tags (bit flags, any class):

* BACK_GAME: contact, and a side holds two or more points (2+ checkers each) in the other's
  home board (its own points 19..24) while trailing the race by at least 30 pips.
* CLOSED_OUT: contact, and a side has a checker on the bar against five or six home-board
  points of the other side.
* GAMMONISH: the 0-ply evaluation gives either side at least 25% gammons (set by the
  caller, who has the evaluation).
* GAMMON_SAVE: race in which one side has all its checkers home (or off) and the other has
  none off and at least one checker outside its home board.
* LONG_RACE: race with both pip counts at least 65.
"""

from __future__ import annotations

import enum

import numpy as np

from bgcore import _engine
from bgengine.position import NUM_CHECKERS

CRASHED_IN_PLAY = _engine.CHECKERS_IN_PLAY_WHEN_CRASHED
EXACT_MAX_CHECKERS = 6
BACK_GAME_DEFICIT = 30
LONG_RACE_PIPS = 65
GAMMONISH_RATE = 0.25
_POINT_PIPS = np.arange(26)


class PositionClass(enum.IntEnum):
    """Which evaluator a position belongs to (the stored int8 code; the first three are
    ``bgcore._engine``'s codes)."""

    CONTACT = _engine.CONTACT
    CRASHED = _engine.CRASHED
    RACE = _engine.RACE
    EXACT = 3


class Tag(enum.IntFlag):
    """Hard or interesting kinds of position, stored as a uint8 bit mask."""

    NONE = 0
    BACK_GAME = 1
    CLOSED_OUT = 2
    GAMMONISH = 4
    GAMMON_SAVE = 8
    LONG_RACE = 16


def side_counts(board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Checkers per own point (index 1..24, index 25 the bar) of the player on roll and of
    the opponent, each numbered from its own side."""
    board = np.asarray(board, dtype=np.int16)
    mover = np.maximum(board, 0)
    mover[0] = 0
    opponent = np.maximum(-board[::-1], 0)
    opponent[0] = 0
    return mover, opponent


def possible_outcomes(boards: np.ndarray) -> np.ndarray:
    """(n, 5) of 1.0 where an outcome (win, win gammon, win backgammon, lose gammon, lose
    backgammon) can still happen on these (n, 26) boards and 0.0 where the rules exclude it:
    a side that has borne off a checker can no longer lose a gammon or a backgammon. The
    engine's networks have their excluded outputs cleared by the same rule (``bgcore._nn``),
    so a fit leaves them out of its loss."""
    boards = np.asarray(boards, dtype=np.int16).reshape(-1, 26)
    mover_all_on = np.maximum(boards, 0).sum(axis=1) == NUM_CHECKERS
    opponent_all_on = np.maximum(-boards, 0).sum(axis=1) == NUM_CHECKERS
    possible = np.ones((len(boards), 5))
    possible[:, 1:3] = opponent_all_on[:, None]
    possible[:, 3:5] = mover_all_on[:, None]
    return possible


def has_contact(board: np.ndarray) -> bool:
    """True while some checker of the player on roll still has to pass one of the opponent's."""
    board = np.asarray(board)
    mover_slots = np.nonzero(board[1:] > 0)[0] + 1
    opponent_slots = np.nonzero(board[:25] < 0)[0]
    if len(mover_slots) == 0 or len(opponent_slots) == 0:
        return False
    return bool(mover_slots.max() > opponent_slots.min())


def pips(counts: np.ndarray) -> int:
    """The pip count of one side's counts (``side_counts``; the bar counts 25)."""
    return int(counts @ _POINT_PIPS)


def _is_exact(mover: np.ndarray, opponent: np.ndarray) -> bool:
    for counts in (mover, opponent):
        on_board = int(counts.sum())
        if counts[7:].any() or not 1 <= on_board <= EXACT_MAX_CHECKERS:
            return False
    return True


def classify(board: np.ndarray) -> PositionClass:
    """The class of one board (see the module docstring)."""
    found = PositionClass(int(_engine.position_classes(board)[0]))
    if found == PositionClass.RACE and _is_exact(*side_counts(board)):
        return PositionClass.EXACT
    return found


def tags(board: np.ndarray, probabilities: np.ndarray | None = None) -> Tag:
    """The tags of one board; GAMMONISH only when its 0-ply ``probabilities`` are given."""
    mover, opponent = side_counts(board)
    found = Tag.NONE
    contact = has_contact(board)
    sides = ((mover, opponent), (opponent, mover))
    if contact:
        for own, other in sides:
            anchors = int((own[19:25] >= 2).sum())
            if anchors >= 2 and pips(own) - pips(other) >= BACK_GAME_DEFICIT:
                found |= Tag.BACK_GAME
            if own[25] > 0 and int((other[1:7] >= 2).sum()) >= 5:
                found |= Tag.CLOSED_OUT
    else:
        for own, other in sides:
            if not other[7:].any() and own.sum() == 15 and own[7:].any():
                found |= Tag.GAMMON_SAVE
        if min(pips(mover), pips(opponent)) >= LONG_RACE_PIPS:
            found |= Tag.LONG_RACE
    if probabilities is not None and max(probabilities[1], probabilities[3]) >= GAMMONISH_RATE:
        found |= Tag.GAMMONISH
    return found

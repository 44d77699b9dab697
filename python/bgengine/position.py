"""The Position value type: a backgammon board seen from the player on roll.

A position is 26 signed counts (the core's layout): slot 0 the opponent's bar (<= 0),
slots 1..24 the points numbered from the player on roll's side (their checkers > 0, the
opponent's < 0), slot 25 the bar of the player on roll (>= 0). Borne-off counts are
derived: 15 minus the checkers still on the board.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from bgcore import _board

from bgengine.errors import InvalidPositionError

if TYPE_CHECKING:
    from bgengine.match_state import MatchState
    from bgengine.move import Move, MoveList, Roll

NUM_SLOTS = 26
NUM_CHECKERS = 15
MOVER_BAR = 25
OPPONENT_BAR = 0

_INITIAL_POINTS = {24: 2, 13: 5, 8: 3, 6: 5}


class Phase(enum.Enum):
    """Stage of the game, decided by the position alone."""

    CONTACT = "contact"  # some checker can still hit or block one of the other side
    RACE = "race"  # no contact, some checker still outside its home board
    BEAROFF = "bearoff"  # no contact and every checker of both sides home or off
    OVER = "over"  # one side has borne off all fifteen


_PHASES = (Phase.CONTACT, Phase.RACE, Phase.BEAROFF, Phase.OVER)


class GameResult(enum.IntEnum):
    """How a finished game was won; the value is the multiple of the cube."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


class Position:
    """An immutable backgammon position, always seen from the player on roll.

    Build one with ``Position.initial()``, ``Position.from_points(...)``,
    ``Position.from_xgid(...)``, ``Position.from_gnubg_id(...)`` or
    ``Position.from_array(...)``; ``numpy.asarray(p)`` gives the 26 int8 slots.
    """

    __slots__ = ("_board", "_hash")
    _board: bytes
    _hash: int

    def __init__(self, board: Any) -> None:
        """Validate 26 signed counts (bytes, a sequence or an array) in the core's layout."""
        object.__setattr__(self, "_board", _board_bytes(board))
        problem = _board.board_problem(self._board)
        if problem is not None:
            raise InvalidPositionError(problem)
        object.__setattr__(self, "_hash", hash(self._board))

    @classmethod
    def _trusted(cls, board: bytes) -> Position:
        """Wrap 26 bytes that the core produced; skips validation (never for user input)."""
        position = object.__new__(cls)
        object.__setattr__(position, "_board", board)
        object.__setattr__(position, "_hash", hash(board))
        return position

    # ----- constructors -------------------------------------------------------------

    @classmethod
    def initial(cls) -> Position:
        """The starting position: 2 on the 24-point, 5 on the 13, 3 on the 8, 5 on the 6."""
        return cls.from_points(_INITIAL_POINTS, opponent=_INITIAL_POINTS)

    @classmethod
    def from_array(cls, array: Any) -> Position:
        """Validate and wrap 26 integer slots in the core's layout."""
        return cls(array)

    @classmethod
    def from_points(
        cls,
        points: Mapping[int, int],
        opponent: Mapping[int, int] | None = None,
        *,
        bar: int = 0,
        opponent_bar: int = 0,
    ) -> Position:
        """Build a position from checker counts by point, each side numbering its own points.

        ``points`` are the player on roll's checkers (24 is their back point, 1 the last
        point before bearing off); ``opponent`` the opponent's, numbered from the
        opponent's side; checkers not placed anywhere are borne off.
        """
        slots = [0] * NUM_SLOTS
        for point, count in _checked_points(points, "player on roll"):
            slots[point] = count
        for point, count in _checked_points(opponent or {}, "opponent"):
            mover_point = NUM_SLOTS - 1 - point
            if slots[mover_point] > 0:
                raise InvalidPositionError(
                    f"point {mover_point} of the player on roll (the opponent's {point}-point)"
                    " is held by both sides"
                )
            slots[mover_point] = -count
        slots[MOVER_BAR] = _checked_count(bar, "checkers of the player on roll on the bar")
        slots[OPPONENT_BAR] = -_checked_count(opponent_bar, "opponent checkers on the bar")
        return cls(slots)

    @classmethod
    def from_xgid(cls, text: str) -> Position:
        """The position part of an XGID (the match fields are checked but dropped)."""
        from bgengine.formats.xgid import parse_xgid

        return parse_xgid(text)[0]

    @classmethod
    def from_gnubg_id(cls, text: str) -> Position:
        """A GNU Backgammon Position ID (14 characters), or the position of ``posid:matchid``."""
        from bgengine.formats.gnubg_id import parse_gnubg_ids

        return parse_gnubg_ids(text)[0]

    # ----- formats ------------------------------------------------------------------

    def gnubg_id(self) -> str:
        """The 14-character GNU Backgammon Position ID."""
        from bgengine.formats.gnubg_id import encode_position_id

        return encode_position_id(self)

    def xgid(self, match: MatchState | None = None) -> str:
        """The full XGID of this position with ``match`` (money, centred cube by default)."""
        from bgengine.match_state import MatchState
        from bgengine.formats.xgid import format_xgid

        return format_xgid(self, match if match is not None else MatchState())

    def __repr__(self) -> str:
        return f"Position.from_gnubg_id({self.gnubg_id()!r})"

    def __str__(self) -> str:
        from bgengine.formats.text_board import text_board

        return text_board(self)

    # ----- value semantics ----------------------------------------------------------

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._board == other._board

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        return (Position._trusted, (self._board,))

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        array = np.frombuffer(self._board, dtype=np.int8)
        if dtype is not None and np.dtype(dtype) != array.dtype:
            return array.astype(dtype)
        return array.copy() if copy else array

    def to_bytes(self) -> bytes:
        """The 26 slots as signed bytes (the core's input format)."""
        return self._board

    def __getitem__(self, slot: int) -> int:
        """The signed count in one slot (0 opponent's bar, 1..24 points, 25 own bar)."""
        return int(np.frombuffer(self._board, dtype=np.int8)[slot])

    # ----- derived facts ------------------------------------------------------------

    def flip(self) -> Position:
        """The same position seen from the opponent's side."""
        return Position._trusted(_board.flipped(self._board))

    def pip_counts(self) -> tuple[int, int]:
        """(pips of the player on roll, pips of the opponent); a bar checker counts 25."""
        mover, opponent = _board.pip_counts(self._board)
        return mover, opponent

    def checkers_off(self) -> tuple[int, int]:
        """(checkers borne off by the player on roll, by the opponent)."""
        mover, opponent = _board.checkers_on_board(self._board)
        return NUM_CHECKERS - mover, NUM_CHECKERS - opponent

    @property
    def phase(self) -> Phase:
        """Contact, race, bear-off or over (see ``Phase``)."""
        return _PHASES[_board.phase(self._board)]

    def is_game_over(self) -> bool:
        return self.phase is Phase.OVER

    def winner_and_result(self) -> tuple[int, GameResult] | None:
        """For a finished game: (0 if the player on roll won else 1, single/gammon/backgammon).

        None while the game goes on. A loser who has borne off nothing loses a gammon,
        and a backgammon if a checker is still on the bar or in the winner's home board.
        """
        mover_off, opponent_off = self.checkers_off()
        if NUM_CHECKERS not in (mover_off, opponent_off):
            return None
        slots = np.frombuffer(self._board, dtype=np.int8)
        if opponent_off == NUM_CHECKERS:
            winner, loser_off = 1, mover_off
            loser_in_winner_home = int(slots[19:26].clip(min=0).sum())
        else:
            winner, loser_off = 0, opponent_off
            loser_in_winner_home = int(-slots[0:7].clip(max=0).sum())
        if loser_off > 0:
            return winner, GameResult.SINGLE
        if loser_in_winner_home > 0:
            return winner, GameResult.BACKGAMMON
        return winner, GameResult.GAMMON

    def points(self) -> tuple[dict[int, int], dict[int, int], int, int]:
        """(own points, opponent points in the opponent's numbering, own bar, opponent bar)."""
        slots = np.frombuffer(self._board, dtype=np.int8)
        own = {p: int(slots[p]) for p in range(1, 25) if slots[p] > 0}
        theirs = {25 - p: int(-slots[p]) for p in range(1, 25) if slots[p] < 0}
        return own, theirs, int(slots[MOVER_BAR]), int(-slots[OPPONENT_BAR])

    # ----- moves (see move.py) ------------------------------------------------------

    def legal_moves(self, dice: Roll) -> MoveList:
        """Every distinct legal play of `dice` (two dice 1..6, any order, or text "31")."""
        return _move.legal_moves(self, dice)

    def play(self, move: Move | str, dice: Roll) -> Position:
        """The position after playing `move` with `dice`, seen from the next player on roll.

        The dice are needed because text such as "13/5" does not say which dice moved the
        checker; raises IllegalMoveError when the move is not a legal play of the roll.
        """
        return _move.legal_moves(self, dice).play(move)

    # ----- notebooks ----------------------------------------------------------------

    def _repr_svg_(self) -> str:
        """The board as an SVG picture, so Jupyter shows a Position as a board."""
        from bgengine.formats.svg import board

        return board(self)


def checked_position(position: object, what: str = "position") -> Position:
    """``position`` itself when it is a ``Position``; else ``InvalidPositionError`` naming the type.

    The one check of a position argument: evaluate, rank_moves, best_move, rollouts, cube
    decisions and the race evaluator all use it.
    """
    if not isinstance(position, Position):
        raise InvalidPositionError(f"{what} must be a Position, got {type(position).__name__}")
    return position


def _board_bytes(board: Any) -> bytes:
    """26 int8 slots as bytes, refusing wrong shapes and values outside -15..15."""
    if isinstance(board, Position):
        return board._board
    if isinstance(board, bytes):
        if len(board) != NUM_SLOTS:
            raise InvalidPositionError(f"a position has {NUM_SLOTS} slots, got {len(board)} bytes")
        return board  # signed bytes; the core checks every slot's range
    try:
        array = np.asarray(board)
    except (TypeError, ValueError) as error:
        raise InvalidPositionError(f"not an array of checker counts: {error}") from None
    if array.shape != (NUM_SLOTS,):
        raise InvalidPositionError(f"a position has {NUM_SLOTS} slots, got shape {array.shape}")
    if array.dtype.kind not in "iu":
        if array.dtype.kind == "f" and np.all(np.isfinite(array)) and np.all(array == np.round(array)):
            array = array.astype(np.int64)
        else:
            raise InvalidPositionError(f"checker counts must be integers, got dtype {array.dtype}")
    if array.size and (array.min() < -NUM_CHECKERS or array.max() > NUM_CHECKERS):
        slot = int(np.argmax(np.abs(array.astype(np.int64))))
        raise InvalidPositionError(
            f"slot {slot} holds {int(array[slot])} checkers; a slot holds at most 15"
        )
    return array.astype(np.int8).tobytes()


def _checked_count(count: object, what: str) -> int:
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)):
        raise InvalidPositionError(f"{what}: count must be an integer, got {count!r}")
    if count < 0:
        raise InvalidPositionError(f"{what}: negative count {count}")
    if count > NUM_CHECKERS:
        raise InvalidPositionError(f"{what}: {count} is more than 15 checkers")
    return int(count)


def _checked_points(points: Mapping[int, int], side: str) -> Iterable[tuple[int, int]]:
    if not isinstance(points, Mapping):
        raise InvalidPositionError(f"{side}: points must be a mapping point -> count")
    for point, count in points.items():
        if isinstance(point, bool) or not isinstance(point, (int, np.integer)) or not 1 <= point <= 24:
            raise InvalidPositionError(f"{side}: point must be 1..24, got {point!r}")
        yield int(point), _checked_count(count, f"{side} point {point}")


from bgengine import move as _move  # noqa: E402 - move.py builds on Position, defined above

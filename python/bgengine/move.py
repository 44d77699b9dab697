"""Checker plays: the ``Move`` notation type and ``MoveList``, the legal moves of a roll.

Points are numbered from the player on roll (24 their back point, 1 the last before
bearing off), 25 is their bar and 0 "off". Text follows GNU Backgammon and eXtreme
Gammon: ``24/18 13/11``, ``bar/22*``, ``6/off``, ``8/5(2)``, ``13/7*/5``.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from bgcore import _movegen

from bgengine.dice import checked_roll
from bgengine.errors import (
    DiceError,
    IllegalMoveError,
    InvalidNotationError,
    InvalidPositionError,
    MoveIndexError,
    checked_text,
    quoted,
)
from bgengine.position import NUM_SLOTS, Position

BAR = 25
OFF = 0
_STEP_FIELDS = 3
_MOVE_SLOTS = _movegen.MOVE_RECORD_SLOTS
_PASS_WORDS = ("pass", "cannot move", "no move")

Step = tuple[int, int, bool]
"""One checker hop: (from point, to point, whether it hit a blot), the mover's numbering."""

Roll = Sequence[int] | str
_MAX_HOPS = 4  # a play uses at most four dice, so names at most four hops
_MAX_HOP_PIPS = 24  # a play moves at most 6-6 four times, one checker or several


class Move:
    """An immutable checker play: hops (from, to, hit) of the player on roll's checkers.

    ``Move.parse("13/7*/5 6/5")`` reads text; ``str(move)`` writes the canonical form
    (a checker's hops joined into one path, "(n)" for repeats, highest points first).
    The text keeps every landing the hops name, because a named landing decides the path
    (``13/7/5`` hits a blot on 7, ``13/5`` passes it); only the moves the generator lists
    leave out the landings it passed without hitting, as GNU Backgammon writes them
    (``24/13``). Two moves are equal when their canonical texts are, so equal moves play
    the same wherever they are legal. An empty move is a pass.
    """

    __slots__ = ("_steps", "_text", "_landings_named")
    _steps: tuple[Step, ...]
    _text: str
    _landings_named: bool

    def __init__(self, steps: Iterable[Sequence[Any]] = ()) -> None:
        """Build from hops (from, to) or (from, to, hit); checks each hop's points."""
        checked = tuple(_checked_step(step) for step in steps)
        if len(checked) > _MAX_HOPS:
            raise InvalidNotationError(f"a play moves checkers at most {_MAX_HOPS} times (one per die), got {len(checked)}")
        pips = sum(source - target for source, target, _hit in checked)
        if pips > _MAX_HOP_PIPS:  # else hops joined into one checker's path could name more (bar/23/off)
            raise InvalidNotationError(f"a play moves checkers at most {_MAX_HOP_PIPS} pips in all (four sixes), got {pips}")
        object.__setattr__(self, "_steps", checked)
        object.__setattr__(self, "_landings_named", True)
        object.__setattr__(self, "_text", _canonical_text(checked, landings_named=True))

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read move text leniently: spaces, ``bar``/``25``, ``off``/``0``, optional ``*``."""
        return cls(_parse_steps(text))

    @classmethod
    def _from_record(cls, record: bytes) -> Move:
        """The move the core recorded: up to four (from, to, hit) triples, from 0 = unused."""
        steps = []
        for i in range(0, _MOVE_SLOTS, _STEP_FIELDS):
            if record[i] == 0:
                break
            steps.append((record[i], record[i + 1], bool(record[i + 2])))
        return cls._from_hops(tuple(steps), landings_named=False)

    @classmethod
    def _from_hops(cls, steps: tuple[Step, ...], landings_named: bool) -> Move:
        """A move of checked hops; the text is written when first needed."""
        move = object.__new__(cls)
        object.__setattr__(move, "_steps", steps)
        object.__setattr__(move, "_landings_named", landings_named)
        return move

    def _canonical(self) -> str:
        """The canonical text, written once on first use (moves the core lists may never need it)."""
        try:
            return self._text
        except AttributeError:
            object.__setattr__(self, "_text", _canonical_text(self._steps, self._landings_named))
            return self._text

    @property
    def steps(self) -> tuple[Step, ...]:
        """The hops in playing order, each (from, to, hit)."""
        return self._steps

    def is_pass(self) -> bool:
        return not self._steps

    def __str__(self) -> str:
        return self._canonical()

    def __repr__(self) -> str:
        return f"Move.parse({self._canonical()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self is other or self._canonical() == other._canonical()

    def __hash__(self) -> int:
        return hash(self._canonical())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Move is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Move._from_hops, (self._steps, self._landings_named))


class LegalMove(NamedTuple):
    """One legal play and the position it leads to (seen from the next player on roll)."""

    move: Move
    position: Position


class MoveList:
    """The legal plays of one roll in one position; a pass is a single empty move.

    ``len``, iteration over ``LegalMove(move, position)``, and ``in`` for a ``Move``, move
    text or resulting ``Position``. ``moves[i]``, ``moves.move(i)`` and
    ``moves.position_after(i)`` give one play without building the others: moves and
    positions are built only when asked for, each at most once (so ``moves.move(i) is
    moves.moves[i]``).
    """

    __slots__ = ("_built", "_children", "_dice", "_index_by_id", "_moves", "_position", "_records")

    def __init__(self, position: Position, dice: tuple[int, int], children: bytes, records: bytes) -> None:
        self._position = position
        self._dice = dice
        self._children = children
        self._records = records
        self._moves: tuple[Move, ...] | None = None
        self._built: list[Move | None] | None = None  # the moves built so far, by index
        self._index_by_id: dict[int, int] = {}  # id of each built move -> its index

    @property
    def position(self) -> Position:
        """The position the moves are played from."""
        return self._position

    @property
    def dice(self) -> tuple[int, int]:
        """The roll, larger die first."""
        return self._dice

    def __len__(self) -> int:
        return len(self._children) // NUM_SLOTS

    def is_pass(self) -> bool:
        """True when no checker can move and the turn passes."""
        return not any(self._records[:_STEP_FIELDS])

    @property
    def moves(self) -> tuple[Move, ...]:
        """One canonical move per distinct resulting position, in generation order."""
        if self._moves is None:
            self._moves = tuple(self._built_move(index) for index in range(len(self)))
        return self._moves

    def move(self, index: int) -> Move:
        """The index-th legal move (negative counts from the end), built alone.

        Raises ``MoveIndexError`` (an ``IllegalMoveError`` and an ``IndexError``) when
        ``index`` is not a whole number within ``-len(self) .. len(self) - 1``.
        """
        return self._built_move(self._checked_index(index))

    @property
    def positions(self) -> np.ndarray:
        """The resulting positions as a read-only (N, 26) int8 array, next player's view."""
        return np.frombuffer(self._children, dtype=np.int8).reshape(-1, NUM_SLOTS)

    def position_after(self, index: int) -> Position:
        """The position after the index-th move, seen from the next player on roll."""
        start = self._checked_index(index) * NUM_SLOTS
        return Position._trusted(self._children[start : start + NUM_SLOTS])

    def __getitem__(self, index: int) -> LegalMove:
        """The index-th legal play and its position; the other moves are not built."""
        index = self._checked_index(index)
        return LegalMove(self._built_move(index), self.position_after(index))

    def __iter__(self) -> Iterator[LegalMove]:
        for index, move in enumerate(self.moves):
            yield LegalMove(move, self.position_after(index))

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Position):
            return any(item.to_bytes() == self._children[i : i + NUM_SLOTS] for i in self._starts())
        if isinstance(item, (Move, str)):
            try:
                self.index(item)
            except (IllegalMoveError, InvalidNotationError):
                return False
            return True
        return False

    def index(self, move: Move | str) -> int:
        """Which legal move `move` is (text is parsed); raises IllegalMoveError if none.

        A move taken from this list is recognised at once. Otherwise a move matches when
        it leaves the player's checkers where that legal move does and hits every blot it
        names or lands on; ``*`` may be left out when only one legal move fits.
        """
        listed = self._index_by_id.get(id(move))
        if listed is not None and self._built is not None and self._built[listed] is move:
            return listed  # the very move this list holds at that index
        if isinstance(move, str):
            move = Move.parse(move)
        elif not isinstance(move, Move):
            raise InvalidNotationError(f"a move is a Move or move text, got {type(move).__name__}")
        if move.is_pass() or self.is_pass():
            if move.is_pass() and self.is_pass():
                return 0
            raise IllegalMoveError(self._pass_problem(move))
        reached = self._reached_index(move)
        return reached if reached is not None else self._matching_index(move)

    def play(self, move: Move | str) -> Position:
        """The position after `move` (text is parsed), seen from the next player on roll."""
        return self.position_after(self.index(move))

    def __repr__(self) -> str:
        shown = ", ".join(str(self._built_move(index)) for index in range(min(6, len(self))))
        more = ", ..." if len(self) > 6 else ""
        return f"<MoveList {self._dice[0]}-{self._dice[1]}: {len(self)} moves [{shown}{more}]>"

    # ----- one move at a time ----------------------------------------------------------

    def _checked_index(self, index: int) -> int:
        """`index` as 0..len-1 (negative counts from the end); MoveIndexError if it is none."""
        count = len(self._children) // NUM_SLOTS
        if type(index) is int and 0 <= index < count:  # the common case, checked cheaply
            return index
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise MoveIndexError(f"a move is picked by a whole-number index, got {index!r}")
        if not -count <= index < count:
            roll = f"{self._dice[0]}-{self._dice[1]}"
            raise MoveIndexError(f"move index {index} is out of range: {roll} has {count} legal play(s) here")
        return int(index) % count

    def _built_move(self, index: int) -> Move:
        """The index-th move (index already checked), built from the core's record once."""
        built = self._built
        if built is None:
            built = self._built = [None] * len(self)
        move = built[index]
        if move is None:
            start = index * _MOVE_SLOTS
            move = built[index] = Move._from_record(self._records[start : start + _MOVE_SLOTS])
            self._index_by_id[id(move)] = index
        return move

    # ----- matching a move against the legal ones --------------------------------------

    def _starts(self) -> range:
        return range(0, len(self._children), NUM_SLOTS)

    def _pass_problem(self, move: Move) -> str:
        roll = f"{self._dice[0]}-{self._dice[1]}"
        if self.is_pass():
            return f"no checker can move with {roll}: the only play is a pass, not {move}"
        return f"{roll} has legal moves here (for example {self._built_move(0)}); passing is not allowed"

    def _reached_index(self, move: Move) -> int | None:
        """The listed child that `move` reaches, hitting exactly the blots it lands on.

        None when it reaches none, or marks a hit where no blot stands: then the lenient
        matching below decides (and explains). When found, that matching would pick the
        same child: the same checkers of the mover and the same blots hit.
        """
        child = _child_reached(self._position.to_bytes(), move.steps)
        if child is None:
            return None
        start = self._children.find(child)
        while start > 0 and start % NUM_SLOTS:  # a match must start on a child's first slot
            start = self._children.find(child, start + 1)
        return None if start < 0 else start // NUM_SLOTS

    def _matching_index(self, move: Move) -> int:
        board = np.frombuffer(self._position.to_bytes(), dtype=np.int8).astype(np.int64)
        target, named_hits = _mover_checkers_after(board, move)
        roll = f"{self._dice[0]}-{self._dice[1]}"
        if target is None:
            raise IllegalMoveError(f"{move} moves checkers the player on roll does not have")
        after = -self.positions[:, ::-1].astype(np.int64)  # back to the mover's numbering
        mover_after = np.clip(after, 0, None)
        blots = board == -1
        blots[[0, BAR]] = False  # bars hold no blots
        hit = blots & (after != -1)  # a blot that is gone was hit
        candidates = [
            i
            for i in range(len(after))
            if np.array_equal(mover_after[i], target) and all(hit[i, p] for p in named_hits)
        ]
        if len(candidates) > 1:
            exact = [i for i in candidates if set(np.flatnonzero(hit[i])) == named_hits]
            if len(exact) == 1:
                return exact[0]
            plays = " or ".join(str(self._built_move(i)) for i in candidates)
            raise IllegalMoveError(f"{move} is ambiguous with {roll}: it could be {plays}")
        if not candidates:
            raise IllegalMoveError(f"{move} is not a legal play of {roll} in this position")
        return candidates[0]


def legal_moves(position: Position, dice: Roll) -> MoveList:
    """All distinct legal plays of `dice` (two dice, any order) from `position`.

    A finished game (a side has borne off all 15 checkers) has no moves: that raises
    InvalidPositionError, so a game can never be played past its end.
    """
    roll = _roll(dice)
    if position.is_game_over():
        raise InvalidPositionError("the game is over (a side has borne off all 15 checkers): there is nothing to play")
    children, records = _movegen.children_and_moves(position._board, roll[0], roll[1])
    return MoveList(position, roll, children, records)


def legal_children_batch(
    boards: Any, dice: Any, with_moves: bool = False
) -> tuple[np.ndarray, ...]:
    """The children of many (board, roll) pairs in one call, for rollouts and training.

    ``boards`` (N, 26) integers in the core's layout, ``dice`` (N, 2) integers 1..6.
    Returns ``(children, offsets)``: children (M, 26) int8 seen from the next player,
    pair i's being ``children[offsets[i]:offsets[i + 1]]``; with ``with_moves`` also the
    (M, 12) int8 move records (up to four (from, to, hit) triples, from 0 = unused).
    """
    try:
        return tuple(_movegen.legal_children_batch(boards, dice, with_moves))
    except _movegen.BoardInputError as error:
        raise InvalidPositionError(str(error)) from None
    except _movegen.DiceInputError as error:
        raise DiceError(str(error)) from None


# ----- dice ------------------------------------------------------------------------------


def _roll(dice: Roll) -> tuple[int, int]:
    """Two dice 1..6 in any order (or text like "31", "3-1"), larger first."""
    first, second = checked_roll(dice)
    return (first, second) if first >= second else (second, first)


# ----- notation --------------------------------------------------------------------------

#: Longer than any legal move text however it is spaced ("bar/24* 24/23* 23/22* 22/21*" is 28).
MOVE_TEXT_LIMIT = 200
_SPACING = ((re.compile(r"\s*/\s*"), "/"), (re.compile(r"\s+\*"), "*"), (re.compile(r"\s*\(\s*([0-9]+)\s*\)"), r"(\1)"))
_POINT = r"(?:bar|off|[0-9]{1,2})\*?"
_TOKEN = re.compile(rf"({_POINT}(?:/{_POINT})+)(?:\(([0-9]{{1,2}})\))?")


def _point_number(text: str) -> int:
    return BAR if text == "bar" else OFF if text == "off" else int(text)


def _parse_steps(text: str) -> list[Step]:
    cleaned = checked_text(text, "move text", MOVE_TEXT_LIMIT).strip().lower()
    for spacing, replacement in _SPACING:
        cleaned = spacing.sub(replacement, cleaned)
    if cleaned in _PASS_WORDS:
        return []
    if not cleaned:
        raise InvalidNotationError("empty move text (write 'pass' for no move)")
    steps: list[Step] = []
    for token in re.split(r"[\s,]+", cleaned):
        match = _TOKEN.fullmatch(token)
        if not match:
            raise InvalidNotationError(
                f"cannot read {quoted(token)} in {quoted(text)}: expected e.g. 24/18, bar/22*, 6/off, 8/5(2)"
            )
        path, repeat = match[1], int(match[2] or 1)
        if not 1 <= repeat <= 4:
            raise InvalidNotationError(f"{token!r}: a checker move repeats 1 to 4 times, got ({repeat})")
        points = [(_point_number(part.rstrip("*")), part.endswith("*")) for part in path.split("/")]
        if points[0][1]:
            raise InvalidNotationError(f"{token!r}: '*' marks a hit where a checker lands, not where it starts")
        hops = [(points[i][0], points[i + 1][0], points[i + 1][1]) for i in range(len(points) - 1)]
        for hop in hops:
            _checked_step(hop, token)
        steps.extend(hops * repeat)
    return steps


def _checked_step(step: Sequence[Any], where: str | None = None) -> Step:
    where = f"{where!r}: " if where else ""
    if len(step) not in (2, 3):
        raise InvalidNotationError(f"{where}a hop is (from, to) or (from, to, hit), got {step!r}")
    source, target = step[0], step[1]
    hit = bool(step[2]) if len(step) == 3 else False
    for value in (source, target):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise InvalidNotationError(f"{where}points are whole numbers, got {value!r}")
    if not 1 <= source <= BAR:
        raise InvalidNotationError(f"{where}a checker moves from a point 1..24 or the bar, not {source}")
    if not OFF <= target < source:
        raise InvalidNotationError(f"{where}a checker moves forward: {_point_text(source)} to {target} is not")
    if target == BAR:
        raise InvalidNotationError(f"{where}a checker cannot move to its own bar")
    if source - target > _MAX_HOP_PIPS:
        raise InvalidNotationError(f"{where}a checker moves at most {_MAX_HOP_PIPS} pips in one play: {_point_text(source)} to {_point_text(target)} is {source - target}")
    if hit and target == OFF:
        raise InvalidNotationError(f"{where}a checker bearing off cannot hit")
    return int(source), int(target), hit


def _point_text(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _checker_paths(steps: Sequence[Step]) -> list[list[tuple[int, bool]]]:
    """Join hops into one path per checker: [(start, False), (landing, hit), ...].

    Hops are taken from the highest starting point down, so a hop from where another one
    landed continues that checker whatever order they were played in (24/23 23/17 is 24/17).
    Among hops from one point the hitting one comes first, so when two checkers land on a
    point the one that hit goes on: the paths depend on the hops, not on their order, and
    the text parses back to the same move.
    """
    paths: list[list[tuple[int, bool]]] = []
    for source, target, hit in sorted(steps, key=lambda step: (-step[0], -step[1], not step[2])):
        for path in paths:
            if path[-1][0] == source:
                path.append((target, hit))
                break
        else:
            paths.append([(source, False), (target, hit)])
    return paths


def _path_text(path: list[tuple[int, bool]], landings_named: bool) -> str:
    """A checker's path: every landing when they were named, else (the generator's moves)
    only the start, the hit points and the end, as GNU writes it."""
    shown = path if landings_named else [path[0]] + [landing for landing in path[1:-1] if landing[1]] + [path[-1]]
    return "/".join(_point_text(point) + ("*" if hit else "") for point, hit in shown)


def _canonical_text(steps: Sequence[Step], landings_named: bool) -> str:
    if not steps:
        return "pass"
    paths = sorted(_checker_paths(steps), key=lambda path: (path[0][0], path[-1][0]), reverse=True)
    texts = [_path_text(path, landings_named) for path in paths]
    parts: list[str] = []
    for text in dict.fromkeys(texts):
        count = texts.count(text)
        parts.append(f"{text}({count})" if count > 1 else text)
    return " ".join(parts)


def _child_reached(board: bytes, steps: Sequence[Step]) -> bytes | None:
    """The position after `steps` (hops taken highest source first, any blot landed on
    hit), seen from the next player; None if a hop has no checker to move, lands on a
    point of two or more opposing checkers, or marks a hit where no blot stands."""
    slots = array("b", board).tolist()
    for source, target, hit in sorted(steps, key=lambda step: -step[0]):
        if slots[source] <= 0:
            return None
        slots[source] -= 1
        if target == OFF:
            continue
        if slots[target] == -1:  # a blot: hit, to its owner's bar (slot 0 from our side)
            slots[target] = 1
            slots[0] -= 1
        elif slots[target] < -1 or hit:
            return None
        else:
            slots[target] += 1
    return array("b", [-count for count in reversed(slots)]).tobytes()


def _mover_checkers_after(board: np.ndarray, move: Move) -> tuple[np.ndarray | None, set[int]]:
    """The mover's checker counts (index = point) after `move`, and the points it must hit.

    None when the move takes a checker from a point that has none at that moment.
    """
    mover = np.clip(board, 0, None)
    named_hits: set[int] = set()
    for source, target, hit in sorted(move.steps, key=lambda step: -step[0]):  # any order
        if mover[source] == 0:
            return None, named_hits
        mover[source] -= 1
        if target != OFF:
            mover[target] += 1
            if hit or board[target] == -1:
                named_hits.add(target)
    return mover, named_hits

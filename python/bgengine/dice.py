"""Where dice come from: a seeded random source by default, a fixed list for tests.

A source hands out throws of two dice as ``(first, second)`` pairs. Games use the same
kind of throw for the opening, where ``first`` is player 0's die and ``second`` player 1's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Protocol, runtime_checkable

import numpy as np

from bgengine.errors import DiceError, InvalidSettingsError, quoted

Dice = tuple[int, int]
#: A roll as callers may give it: two faces ``(3, 1)`` (any pair of whole numbers) or text ``"31"``.
RollInput = tuple[int, int] | Iterable[int] | str

_ROLL_TEXT = re.compile(r"\s*([0-9])\s*[-,/ ]?\s*([0-9])\s*")  # ASCII digits only

#: Throws drawn from the generator at a time; any block size gives the same sequence.
_BLOCK = 256


@runtime_checkable
class DiceSource(Protocol):
    """Anything that throws two dice."""

    def roll(self) -> Dice:
        """The next throw: two faces 1..6."""
        ...


def seeded_generator(seed: int | np.random.SeedSequence | np.random.Generator | None) -> np.random.Generator:
    """A numpy Generator from ``seed`` (a whole number >= 0, a SeedSequence, a Generator or None)."""
    if isinstance(seed, np.random.Generator):
        return seed
    is_whole = isinstance(seed, (int, np.integer)) and not isinstance(seed, bool)
    if not (seed is None or isinstance(seed, np.random.SeedSequence) or (is_whole and seed >= 0)):
        raise InvalidSettingsError(f"seed must be a whole number >= 0 or None, got {seed!r}")
    return np.random.default_rng(seed)


class RandomDice:
    """Fair dice from a numpy ``Generator``; the same seed gives the same throws."""

    def __init__(self, seed: int | np.random.SeedSequence | np.random.Generator | None = None) -> None:
        self._rng = seeded_generator(seed)
        self._block: list[list[int]] = []
        self._next = 0

    def roll(self) -> Dice:
        if self._next == len(self._block):
            self._block = self._rng.integers(1, 7, size=(_BLOCK, 2)).tolist()
            self._next = 0
        first, second = self._block[self._next]
        self._next += 1
        return first, second


class FixedDice:
    """A given list of throws, handed out in order; for tests and replays.

    Running out raises ``DiceError``; call ``check_all_used()`` at the end of a test to
    make sure every throw given was consumed.
    """

    def __init__(self, throws: Iterable[Iterable[int]]) -> None:
        self._throws = [checked_roll(throw, f"throw {index}") for index, throw in enumerate(throws)]
        self._next = 0

    def roll(self) -> Dice:
        if self._next >= len(self._throws):
            raise DiceError(f"all {len(self._throws)} fixed throws have been used")
        throw = self._throws[self._next]
        self._next += 1
        return throw

    @property
    def remaining(self) -> int:
        """Throws not handed out yet."""
        return len(self._throws) - self._next

    def check_all_used(self) -> None:
        """Raise ``DiceError`` if some throws were never handed out."""
        if self.remaining:
            unused = self._throws[self._next :]
            raise DiceError(f"{self.remaining} fixed throw(s) never used: {unused}")


def checked_roll(dice: Any, what: str = "a roll") -> Dice:
    """Two dice ``(first, second)`` in the order given, from ``(3, 1)`` or text such as ``"31"``,
    ``"3-1"``, ``"3 1"``; anything else raises ``DiceError`` (``what`` names the dice in its message).

    The one check of dice: games, moves, rollouts, match states, formats and the CLI use it.
    """
    if type(dice) is tuple and len(dice) == 2:  # the usual roll, checked without copying
        first, second = dice
        if type(first) is int and type(second) is int and 1 <= first <= 6 and 1 <= second <= 6:
            return dice  # type: ignore[return-value]
    faces: Any = dice
    if isinstance(dice, str):
        digits = _ROLL_TEXT.fullmatch(dice)
        faces = (int(digits[1]), int(digits[2])) if digits else ()
    try:
        faces = tuple(faces)
    except TypeError:
        faces = ()
    if len(faces) != 2 or not all(_is_face(face) for face in faces):
        shown = quoted(dice) if isinstance(dice, str) else repr(dice)
        raise DiceError(f"{what} must be two dice, each a whole number 1..6, such as (3, 1) or '31'; got {shown}")
    return int(faces[0]), int(faces[1])


def _is_face(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 1 <= int(value) <= 6

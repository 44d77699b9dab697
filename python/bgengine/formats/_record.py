"""What a match file writes of a game: each roll with its play, and the cube actions, by player.

Resignations are written by each format in its own way (a result line or property) and
rejected resignation offers not at all; anything else a format cannot hold (a beaver) is
refused with ``MatchFileError``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from bgengine.errors import MatchFileError
from bgengine.game.actions import Accept, Decision, Double, Pass, Play, Reject, Resign, Roll, Take
from bgengine.game.record import Game
from bgengine.move import Move


@dataclass(frozen=True)
class Entry:
    """One entry: ``kind`` "play" (with ``dice``, higher first, and ``move``), "double" (``cube``
    offered), "take" or "pass", by ``player``."""

    player: int
    kind: str
    dice: tuple[int, int] = (0, 0)
    move: Move = Move()
    cube: int = 0


def entries(game: Game, file_format: str) -> Iterator[Entry]:
    dice = (0, 0)
    for before, action in game.history:
        if isinstance(action, Roll):
            dice = (max(action.dice), min(action.dice))
        elif isinstance(action, Play):
            yield Entry(before.on_roll, "play", dice, action.move)
        elif isinstance(action, Double):
            yield Entry(before.on_roll, "double", cube=before.cube_value * 2)
        elif isinstance(action, (Take, Pass)):
            yield Entry(1 - before.on_roll, "take" if isinstance(action, Take) else "pass")
        elif not isinstance(action, (Resign, Accept, Reject)):
            raise MatchFileError(0, f"{action} cannot be written in the {file_format} format")


def read_dice(game: Game, player: int, first: int, second: int, line: int, where: str) -> tuple[int, int]:
    """The ``Roll`` dice of a recorded roll of ``player``: at the opening (player 0's die, player
    1's die) with the mover's die the higher; later as written. A double at the opening is refused."""
    if game.decision is not Decision.OPENING_ROLL:
        return first, second
    if first == second:
        raise MatchFileError(line, f"{where}: the opening roll cannot be a double")
    high, low = max(first, second), min(first, second)
    return (high, low) if player == 0 else (low, high)

"""The actions of a game record and the decisions they answer.

A game is a sequence of actions, each answering the decision the game is waiting for:
throw the opening dice, double or roll, move the checkers, take or pass, accept or reject
a resignation. Actions are small immutable values, so records compare and copy cheaply.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bgengine.move import LegalMove, Move
from bgengine.position import GameResult


class Decision(enum.Enum):
    """What the game waits for next, and (with ``Game.turn``) from whom."""

    OPENING_ROLL = "opening roll"  # one die each; the higher die moves first with both
    CUBE_OR_ROLL = "cube or roll"  # the player on roll may double (or resign) before rolling
    ROLL = "roll"  # the player on roll has no access to the cube: roll (or resign)
    CHECKER_PLAY = "checker play"  # the player on roll moves the dice rolled
    TAKE_OR_PASS = "take or pass"  # the opponent answers a double
    ACCEPT_OR_REJECT = "accept or reject"  # the opponent answers a resignation
    GAME_OVER = "game over"


@dataclass(frozen=True)
class Roll:
    """A throw of the dice. At the opening, ``dice`` is (player 0's die, player 1's die)."""

    dice: tuple[int, int]

    def __str__(self) -> str:
        return f"roll {self.dice[0]}{self.dice[1]}"


@dataclass(frozen=True)
class Play:
    """The checker play of the player on roll: a ``Move``, a ``LegalMove`` from the game's
    ``legal_moves()`` (its move is kept) or move text (``"pass"`` when nothing can be
    played). The record keeps the ``Move`` as the generator lists it."""

    move: Move

    def __post_init__(self) -> None:
        if isinstance(self.move, str):
            object.__setattr__(self, "move", Move.parse(self.move))
        elif isinstance(self.move, LegalMove):
            object.__setattr__(self, "move", self.move.move)

    def __str__(self) -> str:
        return f"play {self.move}"


@dataclass(frozen=True)
class Double:
    """The player on roll offers the cube at twice its value."""

    def __str__(self) -> str:
        return "double"


@dataclass(frozen=True)
class Take:
    """The opponent accepts the double, owns the cube, and the game goes on."""

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True)
class Pass:
    """The opponent refuses the double and loses the stake before it was doubled."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Beaver:
    """Money play with beavers: take and redouble at once, keeping the cube (value x4)."""

    def __str__(self) -> str:
        return "beaver"


@dataclass(frozen=True)
class Resign:
    """A player offers to lose a single game, a gammon or a backgammon (not while a
    double is pending).

    ``player`` is the one resigning: None (the default) for the player on roll.
    """

    result: GameResult
    player: int | None = None

    def __str__(self) -> str:
        by = "" if self.player is None else f" (player {self.player})"
        return f"resign {GameResult(self.result).name.lower()}{by}"


@dataclass(frozen=True)
class Accept:
    """The resigner's opponent accepts the resignation offered; the game ends."""

    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True)
class Reject:
    """The resigner's opponent refuses the resignation; play goes on where it stopped."""

    def __str__(self) -> str:
        return "reject"


Action = Roll | Play | Double | Take | Pass | Beaver | Resign | Accept | Reject

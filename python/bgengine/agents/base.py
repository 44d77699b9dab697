"""Agents: who decides in a game. The protocol and two simple built-in agents.

An agent answers two kinds of question: which checker play to make with the dice
rolled, and the cube questions (double? take?). Positions are always seen from the
player on roll. The engine's own evaluator-driven agent comes with later issues.

Pointless doubles: a double is pointless when the doubler already wins the match by
winning the game at the current stake (``rules.double_is_pointless``). The rules allow
it, ``play_game`` passes it on; the built-in agents never offer it.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from bgengine.dice import seeded_generator
from bgengine.errors import InvalidSettingsError
from bgengine.match_state import MatchState
from bgengine.position import Phase, Position
from bgengine.game.rules import double_is_pointless

if TYPE_CHECKING:
    from bgengine.move import LegalMove, Move, MoveList


class CubeQuestion(enum.Enum):
    """The two cube questions an agent is asked."""

    DOUBLE = "double"  # asked of the player on roll, before rolling: double now?
    TAKE = "take"  # asked of the opponent of the player on roll, who has doubled: take?


@runtime_checkable
class Agent(Protocol):
    """Anything that can play one side of a game."""

    def choose_move(
        self, position: Position, dice: tuple[int, int], match: MatchState, legal: MoveList
    ) -> Move | LegalMove | int:
        """The play for ``dice`` in ``position`` (seen from the agent, on roll).

        A ``Move`` (``legal.move(i)`` is fastest), a ``LegalMove`` (``legal[i]``) or the
        index ``i`` itself; text-equal moves built elsewhere are matched too, more slowly.
        """
        ...

    def cube_decision(self, position: Position, match: MatchState, question: CubeQuestion) -> bool:
        """True to double (``DOUBLE``) or to take (``TAKE``).

        ``position`` is seen from the player on roll: the agent itself for ``DOUBLE``,
        its opponent (the doubler) for ``TAKE``.
        """
        ...


class RandomAgent:
    """Plays a uniformly random legal move; doubles and takes by coin flips.

    Before rolling it doubles with probability ``double_probability`` (0 by default)
    when it may and the double is not pointless; it takes a double with probability
    ``take_probability`` (one half by default). Same seed, same choices.
    """

    def __init__(
        self,
        seed: int | np.random.SeedSequence | None = None,
        *,
        double_probability: float = 0.0,
        take_probability: float = 0.5,
    ) -> None:
        for name, value in (("double_probability", double_probability), ("take_probability", take_probability)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise InvalidSettingsError(f"{name} must be a number between 0 and 1, got {value!r}")
        self._rng = seeded_generator(seed)
        self.double_probability = double_probability
        self.take_probability = take_probability

    def choose_move(self, position: Position, dice: tuple[int, int], match: MatchState, legal: MoveList) -> Move:
        return legal.move(int(self._rng.integers(len(legal))))

    def cube_decision(self, position: Position, match: MatchState, question: CubeQuestion) -> bool:
        if question is CubeQuestion.TAKE:
            return bool(self._rng.random() < self.take_probability)
        if double_is_pointless(match, match.on_roll) or self.double_probability == 0.0:
            return False
        return bool(self._rng.random() < self.double_probability)


class HeuristicAgent:
    """A simple rule-of-thumb player: never doubles, always takes.

    For its checker play it ranks the legal moves by, in order: most opposing checkers
    hit; while there is contact, fewest own blots left (single checkers on points
    1..24); most own checkers borne off; fewest own pips left (so in a race it moves by pip count and never wastes
    pips it need not); then the rearmost own checker as far forward as possible. Ties
    go to the first move listed. Deterministic: no seed needed.
    """

    def choose_move(self, position: Position, dice: tuple[int, int], match: MatchState, legal: MoveList) -> Move:
        if len(legal) == 1:  # a forced play or a pass: nothing to rank
            return legal.move(0)
        return legal.move(int(heuristic_ranking(position, legal.positions)[0]))

    def cube_decision(self, position: Position, match: MatchState, question: CubeQuestion) -> bool:
        return question is CubeQuestion.TAKE


_DISTANCE_LEFT = 25 - np.arange(26)  # slot s of the next player is the mover's point 25 - s


def heuristic_ranking(position: Position, children: np.ndarray) -> np.ndarray:
    """Indices of ``children`` best first by the ``HeuristicAgent``'s rules.

    ``children`` are the (N, 26) legal children of ``position``, seen from the next
    player: the mover's checkers are negative there and its bar is slot 0.
    """
    boards = children.astype(np.int16)
    mover = np.maximum(-boards, 0)  # the mover's checkers, in the next player's slots
    hits = boards[:, 25] + position[0]  # next player's bar now, minus the opponent's bar before
    blots = (mover[:, 1:25] == 1).sum(axis=1) if position.phase is Phase.CONTACT else np.zeros(len(boards))
    borne_off = 15 - mover.sum(axis=1)
    pips = mover @ _DISTANCE_LEFT
    occupied = mover > 0
    rearmost = np.where(occupied.any(axis=1), _DISTANCE_LEFT[np.argmax(occupied, axis=1)], 0)
    # lexsort sorts by the last key first; negate the keys where larger is better.
    return np.lexsort((rearmost, pips, -borne_off, blots, -hits))

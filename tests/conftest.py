"""Shared seeded samplers of positions for the tests (and the benchmarks, which import this file).

Each is reproducible from its seed and gives positions seen from the player on roll:
random play from the opening (``random_play_positions``, ``random_game_turns``), random
races (``random_race``) and random positions of the two-sided bear-off database
(``random_bearoff_positions``). Import them with ``from conftest import ...``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np

from bgengine import Position


def random_play_positions(count: int, seed: int) -> list[Position]:
    """``count`` positions from seeded, uniformly random play (a new game when one ends).

    A cheap, reproducible sample of positions that occur in games: each one is the
    position after a random legal play of random dice, never a finished game.
    """
    rng = np.random.default_rng(seed)
    positions: list[Position] = []
    position = Position.initial()
    while len(positions) < count:
        moves = position.legal_moves((int(rng.integers(1, 7)), int(rng.integers(1, 7))))
        position = moves.position_after(int(rng.integers(len(moves))))
        if position.is_game_over():
            position = Position.initial()
            continue
        positions.append(position)
    return positions


def random_game_turns(seed: int, games: int) -> Iterator[tuple[Position, tuple[int, int]]]:
    """(position, roll) at every turn of ``games`` seeded games played uniformly among legal children."""
    rng = random.Random(seed)
    for _ in range(games):
        position = Position.initial()
        while not position.is_game_over():
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            yield position, dice
            moves = position.legal_moves(dice)
            position = moves.position_after(rng.randrange(len(moves)))


def random_race(
    rng: np.random.Generator,
    highest: int = 12,
    checkers: tuple[int, int] = (1, 15),
    opponent_highest: int | None = None,
) -> Position:
    """A random race: each side's ``checkers`` (a range) on its own points 1..``highest``
    (the opponent's 1..``opponent_highest``, default the same); no contact while the two
    highest points add up to 24 at most."""
    sides = []
    for side_highest in (highest, highest if opponent_highest is None else opponent_highest):
        n = int(rng.integers(checkers[0], checkers[1] + 1))
        points = rng.integers(1, side_highest + 1, size=n)
        sides.append({int(p): int((points == p).sum()) for p in np.unique(points)})
    return Position.from_points(sides[0], sides[1])


def random_bearoff_positions(count: int, seed: int = 11, max_checkers: int = 6) -> list[Position]:
    """Random positions with 1..``max_checkers`` checkers per side on the home points
    (the two-sided bear-off database's positions)."""
    rng = random.Random(seed)

    def side() -> dict[int, int]:
        counts: dict[int, int] = {}
        for _ in range(rng.randint(1, max_checkers)):
            point = rng.randint(1, 6)
            counts[point] = counts.get(point, 0) + 1
        return counts

    return [Position.from_points(side(), opponent=side()) for _ in range(count)]

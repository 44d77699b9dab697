"""Seeded positions from games the engine plays against itself, for comparisons with other engines.

Each turn records (position before the roll, the roll); the move played is the engine's
0-ply best, or with probability ``random_share`` a random legal move, so the sample also
reaches the odd positions weaker players create. Same seed, same sample.
"""

from __future__ import annotations

import random

from bgengine import Position
from bgengine.evaluation.evaluator import default_evaluator, rank_legal_moves


def sampled_turns(seed: int, count: int, random_share: float = 0.1) -> list[tuple[Position, tuple[int, int]]]:
    """``count`` (position, roll) pairs from consecutive self-play games started at the opening."""
    rng = random.Random(seed)
    evaluator = default_evaluator()
    turns: list[tuple[Position, tuple[int, int]]] = []
    position = Position.initial()
    while len(turns) < count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        turns.append((position, dice))
        legal = position.legal_moves(dice)
        if rng.random() < random_share:
            position = legal.position_after(rng.randrange(len(legal)))
        else:
            position = rank_legal_moves(legal, evaluator=evaluator)[0].position
        if position.is_game_over():
            position = Position.initial()
    return turns

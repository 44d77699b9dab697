"""The fixed move-generation workload shared by bench_movegen.py and peers_movegen.py.

1000 positions from seeded random games (children picked uniformly after sorting them,
so the set does not depend on the order the generator returns them in) x the 21 rolls.
"""

from __future__ import annotations

import numpy as np
from bgengine import Position

from bgcore import _movegen

SEED = 20261130
NUM_POSITIONS = 1000
ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]
# Total distinct children over the 21000 pairs, counted by tests/reference_movegen.py.
EXPECTED_TOTAL_CHILDREN = 422_969


def workload_boards(count: int = NUM_POSITIONS, seed: int = SEED) -> np.ndarray:
    """(count, 26) int8: every position of seeded random games from the start, in order."""
    rng = np.random.default_rng(seed)
    boards: list[bytes] = []
    while len(boards) < count:
        board = Position.initial().to_bytes()
        while len(boards) < count:
            boards.append(board)
            dice = rng.integers(1, 7, size=2)
            children, _ = _movegen.children_and_moves(board, int(dice[0]), int(dice[1]))
            rows = sorted(children[i : i + 26] for i in range(0, len(children), 26))
            board = rows[int(rng.integers(len(rows)))]
            if Position._trusted(board).is_game_over():
                break
    return np.frombuffer(b"".join(boards), dtype=np.int8).reshape(count, 26)


def workload_pairs() -> tuple[np.ndarray, np.ndarray]:
    """(boards (21000, 26) int8, dice (21000, 2) int8): each position with each roll."""
    boards = workload_boards()
    return np.repeat(boards, len(ROLLS), axis=0), np.tile(np.array(ROLLS, dtype=np.int8), (len(boards), 1))

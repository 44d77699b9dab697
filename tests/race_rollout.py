"""A seeded race rollout through the general move generator, for measuring race evaluation.

Both sides play every roll to the child that minimises their own expected rolls as the
race evaluation models them (exact when home, the documented approximation otherwise).
"""

from __future__ import annotations

import numpy as np

from bgcore import _movegen
from bgengine.evaluation import bearoff


def play_race(board: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The settled 5-vector of one game from ``board`` (first player on roll's view)."""
    turn = 0
    board = np.ascontiguousarray(board, dtype=np.int8)
    while True:
        dice = rng.integers(1, 7, size=(1, 2))
        children, _ = _movegen.legal_children_batch(board[None, :], dice)
        finished = np.flatnonzero((children < 0).sum(axis=1) == 0)  # the mover bore off all
        if finished.size:
            loser = children[finished[0]]  # seen from the loser, now on roll
            gammon = loser.clip(min=0).sum() == 15
            backgammon = gammon and loser[19:26].clip(min=0).sum() > 0
            outcome = np.array([1.0, gammon, backgammon, 0.0, 0.0])
            return outcome if turn == 0 else np.array([0.0, 0.0, 0.0, gammon, backgammon])
        # In each child the side that just moved is the opponent.
        board = children[int(np.argmin(bearoff.race_tables().expected_rolls_batch(children, True)))]
        turn = 1 - turn


def rollout_race(board: np.ndarray, games: int, seed: int) -> np.ndarray:
    """Outcomes (games x 5) of ``games`` seeded games of a race, first player's view."""
    rng = np.random.default_rng(seed)
    return np.stack([play_race(board, rng) for _ in range(games)])

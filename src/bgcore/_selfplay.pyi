"""Whole games in C: TD(lambda) self-play training and duels between fixed players."""

import numpy as np
import numpy.typing as npt

from bgcore._evaluator import CEvaluator
from bgcore._nn import NeuralNet
from bgcore._pubeval import PubEval

class EnginePlayer:
    def __init__(
        self,
        evaluator: CEvaluator | NeuralNet,
        plies: int = 0,
        root_keep: int = 8,
        root_margin: float = 0.16,
        keep: int = 2,
        margin: float = 0.04,
    ) -> None: ...

Player = NeuralNet | CEvaluator | EnginePlayer | PubEval

def duel(player_a: Player, player_b: Player, games: int, bit_generator: np.random.BitGenerator,
         paired: bool = False) -> np.ndarray: ...
def train_games(
    network: NeuralNet,
    games: int,
    first_game: int,
    alpha: float,
    half_life: float,
    min_alpha: float,
    lam: float,
    bit_generator: np.random.BitGenerator,
    starts: npt.ArrayLike | None = None,
) -> int: ...

"""The rollout trial loop, without the GIL."""

from typing import Any

import numpy as np

from bgcore._evaluator import CEvaluator, COracle

def run_block(
    board: bytes,
    evaluator: CEvaluator,
    oracle: COracle,
    bit_generator: np.random.BitGenerator,
    forced_first: np.ndarray,
    forced_second: np.ndarray,
    first_die1: int,
    first_die2: int,
    truncate_plies: int,
    variance_reduction: bool,
    first_roll_no_doubles: bool,
    referee: Any = None,
    *,
    checker_plies: int = 0,
    cube_plies: int = 0,
    later_plies: int = 0,
    later_from: int = 0,
    luck_plies: int = 0,
    keep: int = 2,
    margin: float = 0.04,
    trial_values: np.ndarray | None = None,
) -> tuple[np.ndarray, int]: ...

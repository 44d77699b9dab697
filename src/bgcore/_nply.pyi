"""n-ply lookahead over the 21 rolls with move filters, on any C evaluator."""

from typing import Any

import numpy as np

from bgcore._evaluator import CEvaluator

def nply_evaluate(evaluator: CEvaluator, boards: Any, plies: int, keep: int = 1, margin: float = 0.0) -> np.ndarray: ...

"""How far estimated 5-vectors are from labels: mean absolute errors of equity and rates.

Both arrays are (n, 5) cumulative 5-vectors of the player on roll (win, win gammon, win
backgammon, lose gammon, lose backgammon); equity is cubeless money equity.
"""

from __future__ import annotations

import numpy as np

from bgengine.probabilities import equity


def signed_errors(estimates: np.ndarray, labels: np.ndarray) -> dict[str, np.ndarray]:
    """Per position, estimate - label of the equity, the win rate and each gammon rate: their
    means are an estimator's bias (too many gammons, too few wins, ...)."""
    estimates, labels = np.asarray(estimates, np.float64), np.asarray(labels, np.float64)
    difference = estimates - labels
    return {"equity": equity(estimates) - equity(labels), "win": difference[:, 0],
            "win_gammon": difference[:, 1], "lose_gammon": difference[:, 3]}


def absolute_errors(estimates: np.ndarray, labels: np.ndarray) -> dict[str, np.ndarray]:
    """Per position, |estimate - label| of the equity, the win rate and each gammon rate."""
    return {name: np.abs(values) for name, values in signed_errors(estimates, labels).items()}


def mean_absolute_errors(estimates: np.ndarray, labels: np.ndarray) -> dict[str, float]:
    """Mean |estimate - label| of the equity, the win rate, each gammon rate and both
    gammon rates together (the mean of the win-gammon and lose-gammon errors)."""
    errors = absolute_errors(estimates, labels)
    return {"n": int(len(errors["equity"])), **{name: float(values.mean()) for name, values in errors.items()},
            "gammon": float((errors["win_gammon"].mean() + errors["lose_gammon"].mean()) / 2)}

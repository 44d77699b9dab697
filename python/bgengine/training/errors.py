"""How far estimated 5-vectors are from labels: mean absolute errors of equity and rates.

Both arrays are (n, 5) cumulative 5-vectors of the player on roll (win, win gammon, win
backgammon, lose gammon, lose backgammon); equity is cubeless money equity.
"""

from __future__ import annotations

import numpy as np

from bgengine.probabilities import equity


def mean_absolute_errors(estimates: np.ndarray, labels: np.ndarray) -> dict[str, float]:
    """Mean |estimate - label| of the equity, the win rate, each gammon rate and both
    gammon rates together (the mean of the win-gammon and lose-gammon errors)."""
    estimates, labels = np.asarray(estimates, np.float64), np.asarray(labels, np.float64)
    difference = np.abs(estimates - labels)
    return {
        "n": int(len(labels)),
        "equity": float(np.abs(equity(estimates) - equity(labels)).mean()),
        "win": float(difference[:, 0].mean()),
        "win_gammon": float(difference[:, 1].mean()),
        "lose_gammon": float(difference[:, 3].mean()),
        "gammon": float(difference[:, [1, 3]].mean()),
    }

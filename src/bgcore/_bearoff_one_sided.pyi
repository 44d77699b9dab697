"""The one-sided bear-off table build."""

from collections.abc import Callable

import numpy as np

def build_one_sided(
    points: int = 6, progress: Callable[[int, int], None] | None = None, through_movegen: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...

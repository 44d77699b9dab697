"""The two-sided (cubeful) bear-off table build."""

import numpy as np

def build_two_sided(max_checkers: int = 6) -> tuple[np.ndarray, np.ndarray]: ...

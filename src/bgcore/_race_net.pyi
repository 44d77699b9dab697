"""The race network in C: its inputs and forward pass, for the engine's kernels."""

from typing import Any

import numpy as np

from bgcore._race import RaceTables

class RaceNet:
    hidden_weights: np.ndarray
    hidden_bias: np.ndarray
    output_weights: np.ndarray
    output_bias: np.ndarray
    tables: RaceTables
    first_expected: np.ndarray
    encoding_version: int
    def __init__(
        self,
        hidden_weights: Any,
        hidden_bias: Any,
        output_weights: Any,
        output_bias: Any,
        tables: RaceTables,
        first_expected: Any,
        encoding_version: int = 2,
    ) -> None: ...
    @property
    def num_hidden(self) -> int: ...
    def inputs(self, boards: Any) -> np.ndarray: ...
    def evaluate(self, boards: Any) -> np.ndarray: ...

def num_inputs(encoding_version: int = 2) -> int: ...

"""Single-position calls from Python: one board's probabilities, one roll's ranked children."""

from collections.abc import Iterable
from typing import Any

import numpy as np

from bgcore._engine import EngineCEvaluator

Vector5 = tuple[float, float, float, float, float]

class Ranking:
    @property
    def count(self) -> int: ...
    @property
    def searched(self) -> int: ...
    @property
    def plies(self) -> int: ...
    @property
    def order(self) -> list[int]: ...
    def __len__(self) -> int: ...
    def probabilities(self, index: int) -> Vector5: ...
    def lazy_items(self, cls: type[Any], source: object) -> list[Any]: ...

def evaluation(
    evaluator: EngineCEvaluator,
    board: bytes,
    plies: int,
    keep: int,
    margin: float,
    probabilities_class: type[Any],
    evaluation_class: type[Any],
    source: str,
) -> Any: ...
def probabilities(
    evaluator: EngineCEvaluator, board: bytes, plies: int, keep: int = 1, margin: float = 0.0
) -> Vector5 | None: ...
def probabilities_of_boards(
    evaluator: EngineCEvaluator, boards: np.ndarray, plies: int, keep: int = 1, margin: float = 0.0
) -> np.ndarray: ...
def rank_children(
    evaluator: EngineCEvaluator,
    children: bytes,
    plies: int,
    keep: int = 1,
    margin: float = 0.0,
    candidates_keep: int = 8,
    candidates_margin: float = 0.16,
    chosen: Iterable[int] | None = None,
) -> Ranking | None: ...

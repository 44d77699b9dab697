from collections.abc import Sequence
from typing import Any

def money_best_value(
    p5: Sequence[float], cube_value: int, owner: int, efficiency: float | tuple[float, float, float], jacoby: bool, beavers: bool, max_cube: int
) -> float: ...
def money_best_values(
    boards: Any, p5: Any, rule: tuple[object, ...], cube_value: int, owner: int, jacoby: bool, beavers: bool,
    max_cube: int, out: Any, classes: Any,
) -> None: ...

from collections.abc import Sequence

def money_best_value(
    p5: Sequence[float], cube_value: int, owner: int, efficiency: float | tuple[float, float, float], jacoby: bool, beavers: bool, max_cube: int
) -> float: ...

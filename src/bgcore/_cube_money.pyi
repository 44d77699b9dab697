from collections.abc import Sequence

def decide(
    p5: Sequence[float], cube_value: int, owner: int, efficiency: float | tuple[float, float, float], jacoby: bool = ..., beavers: bool = ...,
    max_cube: int = ...,
) -> int: ...
def best_value(
    p5: Sequence[float], cube_value: int, owner: int, efficiency: float | tuple[float, float, float], jacoby: bool = ..., beavers: bool = ...,
    max_cube: int = ...,
) -> float: ...

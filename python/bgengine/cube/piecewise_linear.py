"""PiecewiseLinear: continuous piecewise-linear functions on [0, 1].

Cube models express every equity as such a function of the doubler's cubeless winning
chance (gammon shares held fixed), so equities are evaluations and take points are roots.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from itertools import pairwise


class PiecewiseLinear:
    """A continuous function on [0, 1], linear between its knots (x strictly increasing)."""

    __slots__ = ("xs", "ys")
    xs: tuple[float, ...]
    ys: tuple[float, ...]

    def __init__(self, knots: Iterable[tuple[float, float]]) -> None:
        points = sorted(knots)
        if not points or points[0][0] != 0.0 or points[-1][0] != 1.0:
            raise ValueError("a piecewise-linear function on [0, 1] needs knots at 0 and 1")
        xs = tuple(float(x) for x, _ in points)
        if any(b <= a for a, b in pairwise(xs)):
            raise ValueError(f"knots must have distinct x values, got {xs}")
        self.xs = xs
        self.ys = tuple(float(y) for _, y in points)

    @classmethod
    def line(cls, at_zero: float, at_one: float) -> PiecewiseLinear:
        return cls([(0.0, at_zero), (1.0, at_one)])

    @classmethod
    def constant(cls, value: float) -> PiecewiseLinear:
        return cls.line(value, value)

    def __call__(self, x: float) -> float:
        x = min(max(x, 0.0), 1.0)
        i = min(bisect.bisect_right(self.xs, x), len(self.xs) - 1)
        x0, x1 = self.xs[i - 1], self.xs[i]
        y0, y1 = self.ys[i - 1], self.ys[i]
        return y0 + (y1 - y0) * (x - x0) / (x1 - x0)

    def __repr__(self) -> str:
        knots = ", ".join(f"({x:.6g}, {y:.6g})" for x, y in zip(self.xs, self.ys, strict=True))
        return f"PiecewiseLinear([{knots}])"

    # ----- arithmetic -----------------------------------------------------------------

    def scaled(self, factor: float) -> PiecewiseLinear:
        return PiecewiseLinear((x, factor * y) for x, y in zip(self.xs, self.ys, strict=True))

    def blend(self, other: PiecewiseLinear, weight_of_other: float) -> PiecewiseLinear:
        """(1 - w) * self + w * other, knot by knot."""
        w = weight_of_other
        return self._combined(other, lambda a, b: (1.0 - w) * a + w * b, crossings=False)

    def minimum(self, other: PiecewiseLinear) -> PiecewiseLinear:
        return self._combined(other, min, crossings=True)

    def maximum(self, other: PiecewiseLinear) -> PiecewiseLinear:
        return self._combined(other, max, crossings=True)

    def _combined(
        self, other: PiecewiseLinear, op: Callable[[float, float], float], *, crossings: bool
    ) -> PiecewiseLinear:
        xs = sorted(set(self.xs) | set(other.xs))
        if crossings:
            xs = sorted(set(xs) | set(_crossings(self, other, xs)))
        return PiecewiseLinear((x, op(self(x), other(x))) for x in xs)

    # ----- inverse --------------------------------------------------------------------

    def solve(self, target: float) -> float:
        """The smallest x where a non-decreasing function reaches ``target`` (0 or 1 beyond its range)."""
        if self.ys[0] >= target:
            return 0.0
        for i in range(1, len(self.xs)):
            if self.ys[i] >= target:
                x0, x1 = self.xs[i - 1], self.xs[i]
                y0, y1 = self.ys[i - 1], self.ys[i]
                return x0 + (x1 - x0) * (target - y0) / (y1 - y0)
        return 1.0


def _crossings(f: PiecewiseLinear, g: PiecewiseLinear, xs: list[float]) -> list[float]:
    """x values strictly inside merged segments where f - g changes sign."""
    found = []
    for a, b in pairwise(xs):
        da, db = f(a) - g(a), f(b) - g(b)
        if da * db < 0.0:
            found.append(a + (b - a) * da / (da - db))
    return found

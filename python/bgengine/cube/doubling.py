"""What every cube model hands to the decision: its equities as functions of the doubler's chances.

Money (Janowski) and match (MET interpolation) models both describe No double,
Double/Take, Double/Pass (and Double/Beaver) as piecewise-linear functions of the
doubler's cubeless winning chance with the gammon shares held fixed, so the decision,
the errors and the take and cash points are computed once, here and in ``cube``.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgengine.cube.piecewise_linear import PiecewiseLinear


@dataclass(frozen=True)
class DoublingFunctions:
    """The doubler's equities in one unit; ``double_*`` are None when doubling is not allowed."""

    no_double: PiecewiseLinear
    double_take: PiecewiseLinear | None
    double_pass: float | None
    double_beaver: PiecewiseLinear | None = None
    note: str = ""
    exact: bool = False  # the values are exact (tables), not a model with take points to solve


def with_immediate_redouble(
    double_take: PiecewiseLinear, doubler_takes_redouble: PiecewiseLinear, doubler_passes: float
) -> PiecewiseLinear:
    """Double/Take when the taker may redouble at once: the taker picks the worse for the doubler.

    After an immediate redouble the doubler takes or passes, whichever is better for them.
    """
    redoubled = doubler_takes_redouble.maximum(PiecewiseLinear.constant(doubler_passes))
    return double_take.minimum(redoubled)

"""How well Janowski's money model matches exact cube decisions in short bear-offs.

The two-sided bear-off table holds exact cubeful money equities; Janowski's model (x of the
bear-off class by cube state, or each position's own x from the table's values) sees only
the cubeless race probabilities of the same positions.
The benchmark reports the agreement of the proper actions and the mean gap of No double,
over 1000 random positions (seeded), and times the pair of decisions.

Run: .venv/bin/python -m pytest benchmarks/bench_cube_accuracy.py --benchmark-enable -s
"""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from conftest import random_bearoff_positions  # noqa: E402

from bgengine import Position, cube_decision  # noqa: E402
from bgengine.cube.efficiency import BEAROFF  # noqa: E402
from bgengine.evaluation import race  # noqa: E402

SEED = 5
POSITIONS = 1000


def _positions() -> list[Position]:
    return random_bearoff_positions(POSITIONS, seed=SEED)


def _compare(positions: list[Position], exact_x: bool = False) -> tuple[float, float]:
    """(share of positions with the same proper action, mean |No double gap|); the model with
    the bear-off class's x, or with each position's x from the table (``exact_x``)."""
    same, gaps = 0, []
    for position in positions:
        exact = cube_decision(position)
        model = cube_decision(position, probabilities=race.evaluate(position), exact_bearoff_efficiency=exact_x)
        assert exact.note == "exact two-sided bear-off equities" and model.note == ""
        same += exact.action is model.action
        gaps.append(abs(exact.no_double - model.no_double))
    return same / len(positions), float(np.mean(gaps))


def test_janowski_against_exact_bearoff_cube_decisions(benchmark):
    positions = _positions()
    agreement, mean_gap = _compare(positions)
    print(f"\nJanowski (x = {BEAROFF}) vs exact: same action {agreement:.1%}, mean |No double gap| {mean_gap:.4f}")
    assert agreement > 0.9 and mean_gap < 0.07
    agreement, mean_gap = _compare(positions, exact_x=True)
    print(f"Janowski, x from the table's values, vs exact: same action {agreement:.1%}, "
          f"mean |No double gap| {mean_gap:.4f}")
    benchmark.pedantic(_compare, args=(positions[:100],), rounds=3, iterations=1)

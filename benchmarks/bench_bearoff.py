"""Bear-off speed: table builds, race lookups through the batch kernel and through Python.

Run: ``nice python -m pytest benchmarks/bench_bearoff.py --benchmark-enable``.
Each benchmark checks exact results first, so a faster wrong answer cannot pass; rates
land in each benchmark's ``extra_info``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from bgcore import _bearoff_index, _bearoff_one_sided, _bearoff_two_sided
from bgengine.evaluation import bearoff, race
from bgengine.position import Position

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from conftest import random_race  # noqa: E402  (the tests' shared samplers)

os.environ.setdefault(bearoff.CACHE_DIR_ENV, tempfile.mkdtemp(prefix="bgengine-bench-"))

RACE_BOARDS = 20_000


def check_one_sided(tables) -> None:
    rolls, expected, first_off, _ = tables
    assert rolls.shape[0] == 54264
    assert rolls[_bearoff_index.one_sided_rank_of([0, 0, 0, 0, 0, 2]), 1] == pytest.approx(1 / 9, abs=1e-15)
    assert np.abs(rolls.sum(axis=1) - 1).max() < 1e-12
    assert expected[-1] == pytest.approx(12.266187171764624, abs=1e-12)  # 15 on the 6-point
    assert first_off[-1, 1] == pytest.approx(17 / 36, abs=1e-15)


def test_build_one_sided_six_points(benchmark):
    tables = benchmark.pedantic(_bearoff_one_sided.build_one_sided, args=(6,), rounds=7, iterations=1)
    check_one_sided(tables)


def test_build_one_sided_six_points_through_legal_children(benchmark):
    """The same table from every roll's children (legal_children): why the step build exists."""
    tables = benchmark.pedantic(
        _bearoff_one_sided.build_one_sided, args=(6,), kwargs={"through_movegen": True}, rounds=5, iterations=1
    )
    check_one_sided(tables)


def test_build_two_sided_six_by_six(benchmark):
    win, cubeful = benchmark.pedantic(_bearoff_two_sided.build_two_sided, args=(6,), rounds=5, iterations=1)
    assert win.shape == (924, 924)
    six_two = _bearoff_index.one_sided_rank_of([0, 0, 0, 0, 0, 2])
    assert win[six_two, 1] == pytest.approx(1 / 9, abs=1e-15)
    assert cubeful[0, six_two, six_two] == pytest.approx(0.9612593989737338, abs=1e-12)


def random_race_boards(count: int, seed: int) -> np.ndarray:
    """Non-contact boards: each side on its own points 1..12."""
    rng = np.random.default_rng(seed)
    return np.array([np.asarray(random_race(rng)) for _ in range(count)], dtype=np.int8)


@pytest.fixture(scope="module")
def boards() -> np.ndarray:
    return random_race_boards(RACE_BOARDS, seed=5)


def test_race_batch_kernel_boards_per_second(benchmark, boards):
    out = np.empty((len(boards), 5), dtype=np.float32)
    tables = bearoff.race_tables()
    assert tables.race_probabilities_batch(boards, out).all()
    first = Position(boards[0])
    assert np.array_equal(out[0], race.evaluate(first))
    benchmark(tables.race_probabilities_batch, boards, out)
    benchmark.extra_info["boards_per_second"] = len(boards) / benchmark.stats.stats.median


def test_race_evaluator_batch_boards_per_second(benchmark, boards):
    evaluator = race.RaceEvaluator()
    values = evaluator.evaluate_batch(boards)
    assert values.shape == (len(boards), 5)
    benchmark(evaluator.evaluate_batch, boards)
    benchmark.extra_info["boards_per_second"] = len(boards) / benchmark.stats.stats.median


def test_race_evaluate_python_calls_per_second(benchmark, boards):
    positions = [Position(b) for b in boards[:2000]]
    expected = race.RaceEvaluator().evaluate_batch(boards[:2000])

    def one_call_each() -> np.ndarray:
        return np.stack([race.evaluate(p) for p in positions])

    assert np.array_equal(one_call_each(), expected)
    benchmark(one_call_each)
    benchmark.extra_info["calls_per_second"] = len(positions) / benchmark.stats.stats.median


def test_two_sided_python_lookups_per_second(benchmark):
    table = bearoff.two_sided_table()
    rng = np.random.default_rng(8)
    pairs = [(table_counts(a), table_counts(b)) for a, b in rng.integers(1, 924, size=(2000, 2))]
    assert table.win_probability([0, 0, 0, 0, 0, 2], [1]) == pytest.approx(1 / 9, abs=1e-15)

    def lookups() -> float:
        return sum(table.win_probability(a, b) for a, b in pairs)

    benchmark(lookups)
    benchmark.extra_info["lookups_per_second"] = len(pairs) / benchmark.stats.stats.median


def table_counts(rank: int) -> list[int]:
    return list(_bearoff_index.one_sided_counts_of(int(rank), 6))

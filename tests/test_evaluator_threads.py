"""Evaluators with different table choices used from many threads at once give exactly
their single-threaded answers: which tables an evaluator reads travels with it (issue 16,
item 1: the race-table choice used to be one process-wide setting)."""

from __future__ import annotations

import concurrent.futures as cf
import threading
from collections.abc import Callable

import numpy as np

from bgengine import Position, evaluate
from bgengine.evaluation import race
from bgengine.evaluation.evaluator import NetworkEvaluator, default_evaluator
from bgengine.rollouts.monte_carlo import RolloutSettings, rollout

BEAROFF = Position.from_points({6: 2, 5: 2, 4: 1}, {6: 2, 4: 2, 2: 1})  # the repro of issue 16
OUTSIDE = Position.from_points({9: 2, 8: 3, 6: 5, 5: 3, 3: 2}, {10: 2, 7: 3, 6: 4, 4: 4, 2: 2})
ROLLOUT = RolloutSettings(trials=36, seed=4, block_size=12)
ROUNDS = 25


def answers_by_task() -> dict[str, Callable[[], np.ndarray]]:
    """Calls whose answers depend on the tables each evaluator chose."""
    one_sided_only = race.RaceEvaluator(two_sided_checkers=None)
    wide = race.RaceEvaluator(wide_points=7)
    network_only = NetworkEvaluator(default_evaluator().network, race_tables=False)

    def seeded_rollout() -> np.ndarray:
        with cf.ThreadPoolExecutor(1) as pool:
            result = rollout(BEAROFF, settings=ROLLOUT, executor=pool)
        return np.array([*result.probabilities, result.equity_standard_error])

    return {
        "default race": lambda: np.stack([race.evaluate(BEAROFF), race.evaluate(OUTSIDE)]),
        "one-sided race": lambda: one_sided_only.evaluate_batch([BEAROFF, OUTSIDE]),
        "wide race": lambda: wide.evaluate_batch([BEAROFF, OUTSIDE]),
        "engine 0-ply": lambda: np.array([evaluate(BEAROFF).probabilities, evaluate(OUTSIDE).probabilities]),
        "network only": lambda: network_only.evaluate_batch([BEAROFF, OUTSIDE]),
        "seeded rollout": seeded_rollout,
    }


def test_table_choices_give_different_answers():
    answers = {name: task() for name, task in answers_by_task().items()}
    assert not np.array_equal(answers["default race"][0], answers["one-sided race"][0])
    assert not np.array_equal(answers["default race"][1], answers["wide race"][1])
    assert not np.array_equal(answers["engine 0-ply"], answers["network only"])


def test_differently_configured_evaluators_in_threads_give_single_threaded_answers():
    tasks = answers_by_task()
    expected = {name: task() for name, task in tasks.items()}
    names = [name for name in tasks for _ in range(2)]  # two threads per evaluator
    start = threading.Barrier(len(names))

    def hammer(name: str) -> list[str]:
        start.wait()
        wrong = []
        for round_ in range(ROUNDS):
            if not np.array_equal(tasks[name](), expected[name]):
                wrong.append(f"{name}, round {round_}")
        return wrong

    with cf.ThreadPoolExecutor(len(names)) as pool:
        wrong = [w for found in pool.map(hammer, names) for w in found]
    assert wrong == []

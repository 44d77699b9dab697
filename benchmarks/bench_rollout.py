"""Rollout speed: opening position, cubeless, 0-ply policy, games per second and standard
error per second, on one thread with and without variance reduction, and on two threads.

Run: ``nice python -m pytest benchmarks/bench_rollout.py --benchmark-enable``.
The default evaluator is the shipped network with race tables
(``bgengine.evaluation.evaluator.default_evaluator``); ``BGENGINE_BENCH_EVALUATOR=pipcount`` times the
pip-count test evaluator instead. Each benchmark first checks the exact
trial count and that the seeded result repeats bit for bit, so a faster wrong answer
cannot pass. Rates land in each benchmark's ``extra_info``.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import time

import pytest

from bgcore._testing import PipCountEvaluator
from bgengine import Position
from bgengine import cube_referee
from bgengine.rollouts.monte_carlo import RolloutResult, RolloutSettings, default_kernel_evaluator, rollout

OPENING = Position.initial()
PLAIN = RolloutSettings(trials=1296, seed=11, variance_reduction=False, block_size=72)
REDUCED = RolloutSettings(trials=144, seed=11, variance_reduction=True, block_size=12)
CUBEFUL = RolloutSettings(trials=288, seed=11, variance_reduction=False, block_size=24)


@pytest.fixture(scope="module")
def evaluator():
    if os.environ.get("BGENGINE_BENCH_EVALUATOR") == "pipcount":
        return PipCountEvaluator()
    return default_kernel_evaluator()


def run(settings: RolloutSettings, evaluator, workers: int, referee=None) -> RolloutResult:
    with cf.ThreadPoolExecutor(workers) as pool:
        return rollout(OPENING, settings=settings, evaluator=evaluator, executor=pool, opening=True, referee=referee)


def checked_benchmark(benchmark, settings: RolloutSettings, evaluator, workers: int, referee=None) -> None:
    reference = run(settings, evaluator, workers, referee)
    assert reference.trials == settings.trials
    result = benchmark.pedantic(run, args=(settings, evaluator, workers, referee), rounds=3, iterations=1)
    assert result.trials == settings.trials
    assert (result.probabilities, result.equity_standard_error) == (
        reference.probabilities,
        reference.equity_standard_error,
    )
    seconds = benchmark.stats.stats.median
    cpu_started = time.process_time()
    run(settings, evaluator, workers, referee)
    cpu_seconds = time.process_time() - cpu_started
    # CPU time over all threads: games per core-second, immune to other load on the machine.
    benchmark.extra_info["games_per_cpu_second"] = round(settings.trials / cpu_seconds, 1)
    benchmark.extra_info["evaluator"] = type(evaluator).__name__
    benchmark.extra_info["games_per_second"] = round(settings.trials / seconds, 1)
    benchmark.extra_info["equity_standard_error"] = round(result.equity_standard_error, 5)
    # SE scales as 1/sqrt(time): the SE reached after one second (wall) and one core-second.
    benchmark.extra_info["standard_error_after_1s"] = round(result.equity_standard_error * seconds**0.5, 5)
    benchmark.extra_info["standard_error_after_1_cpu_second"] = round(
        result.equity_standard_error * cpu_seconds**0.5, 5
    )
    benchmark.extra_info["average_plies"] = round(result.average_plies, 2)


def test_opening_games_per_second_one_thread(benchmark, evaluator):
    checked_benchmark(benchmark, PLAIN, evaluator, 1)


def test_opening_games_per_second_one_thread_variance_reduction(benchmark, evaluator):
    checked_benchmark(benchmark, REDUCED, evaluator, 1)


def test_opening_games_per_second_two_threads(benchmark, evaluator):
    checked_benchmark(benchmark, PLAIN, evaluator, 2)


def test_opening_games_per_second_two_threads_variance_reduction(benchmark, evaluator):
    checked_benchmark(benchmark, REDUCED, evaluator, 2)


def test_opening_cubeful_money_games_per_second_one_thread(benchmark, evaluator):
    checked_benchmark(benchmark, CUBEFUL, evaluator, 1, cube_referee())

"""Measure the race approximation (checkers outside the table) against exact values and rollouts.

Run: ``nice python benchmarks/measure_race_approximation.py [--games 1500 --positions 30]``
(a few minutes on one core). Prints the error of P(win) and of the gammon chances:
1. against the exact one-sided distributions of 7- and 8-point tables (races within 8 points);
2. against seeded rollouts of long races (checkers up to the 18-point), both sides playing
   to minimise their modelled expected rolls (tests/race_rollout.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from conftest import random_race  # noqa: E402
from race_rollout import rollout_race  # noqa: E402

from bgengine import Position  # noqa: E402
from bgengine.evaluation import race  # noqa: E402
from bgengine.probabilities import equity as cubeless_equity  # noqa: E402


def against_wide_tables(rng: np.random.Generator, count: int) -> None:
    for wide in (7, 8):
        positions = [random_race(rng, wide) for _ in range(count)]
        positions = [p for p in positions if max(p.points()[0]) > 6 or max(p.points()[1]) > 6]
        approximate = race.RaceEvaluator(two_sided_checkers=None).evaluate_batch(positions)
        exact = race.RaceEvaluator(two_sided_checkers=None, wide_points=wide).evaluate_batch(positions)
        error = approximate - exact
        win = np.abs(error[:, 0])
        equity = np.abs(cubeless_equity(approximate) - cubeless_equity(exact))
        print(
            f"vs exact {wide}-point table, {len(positions)} races: P(win) bias {error[:, 0].mean():+.4f}"
            f" mean abs {win.mean():.4f} p50 {np.percentile(win, 50):.4f} p90 {np.percentile(win, 90):.4f}"
            f" p99 {np.percentile(win, 99):.4f} max {win.max():.4f};"
            f" gammon mean abs win {np.abs(error[:, 1]).mean():.4f} lose {np.abs(error[:, 3]).mean():.4f};"
            f" cubeless equity mean abs {equity.mean():.4f} max {equity.max():.4f}"
        )


def against_rollouts(rng: np.random.Generator, count: int, games: int) -> None:
    rows = []
    started = time.perf_counter()
    for index in range(count):
        mover_highest = int(rng.integers(7, 18))
        position = random_race(rng, mover_highest, opponent_highest=int(rng.integers(7, 25 - mover_highest)))
        outcomes = rollout_race(np.asarray(position), games, seed=1000 + index)
        mean = outcomes.mean(axis=0)
        standard_error = outcomes.std(axis=0, ddof=1) / np.sqrt(games)
        rows.append((race.evaluate(position), mean, standard_error))
    evaluated = np.array([r[0] for r in rows])
    rolled = np.array([r[1] for r in rows])
    errors = np.array([r[2] for r in rows])
    difference = evaluated - rolled
    within = np.mean(np.abs(difference[:, 0]) <= 2 * errors[:, 0])
    print(
        f"vs rollouts, {count} long races x {games} games ({time.perf_counter() - started:.0f} s):"
        f" P(win) bias {difference[:, 0].mean():+.4f} mean abs {np.abs(difference[:, 0]).mean():.4f}"
        f" max {np.abs(difference[:, 0]).max():.4f} (rollout SE ~{errors[:, 0].mean():.4f};"
        f" {within:.0%} within 2 SE); win gammon mean abs {np.abs(difference[:, 1]).mean():.4f},"
        f" lose gammon {np.abs(difference[:, 3]).mean():.4f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=2026)
    arguments = parser.parse_args()
    rng = np.random.default_rng(arguments.seed)
    against_wide_tables(rng, 3000)
    against_rollouts(rng, arguments.positions, arguments.games)


if __name__ == "__main__":
    main()

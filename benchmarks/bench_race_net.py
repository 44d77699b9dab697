"""CPU cost of one race evaluation in C by hidden-layer size: the race network (inputs, forward
pass) against the race approximation alone, on the same seeded race boards.

    python benchmarks/bench_race_net.py --hidden 16 32 64 --boards 20000 --rounds 7 --seed 5
    python benchmarks/bench_race_net.py --hidden 64 --encodings 1 2   # the inputs' versions side by side
    python benchmarks/bench_race_net.py --hidden 64 --encodings 1 2 --late-gammon   # bearing in, 15 on the board

Weights are seeded random values of each size (the cost does not depend on their values);
every round times each evaluator once, in turn, so all see the same machine load; the
figures are medians over rounds of process CPU time per board (a shared machine's wall time
is noise). The boards are random races outside the exact two-sided table (the ones the
network answers), each side 1..15 checkers on its points 1..12.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bgcore import _race_net
from bgengine.evaluation import bearoff
from bgengine.evaluation.race_network import outside_exact_table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from conftest import random_race  # noqa: E402  (the tests' shared samplers)


def race_boards(count: int, seed: int) -> np.ndarray:
    """``count`` random race boards outside the two-sided table."""
    rng = np.random.default_rng(seed)
    boards: list[np.ndarray] = []
    while len(boards) < count:
        board = np.asarray(random_race(rng), dtype=np.int8)
        if outside_exact_table(board[None])[0]:
            boards.append(board)
    return np.array(boards, dtype=np.int8)


def late_gammon_boards(count: int, seed: int) -> np.ndarray:
    """``count`` seeded late gammon-saving race starts (``scenarios.late_gammon_save``): a side
    bearing in with all 15 on the board, where version 2 tries the next roll's 21 rolls."""
    from bgengine.training.scenarios import late_gammon_save

    rng = np.random.default_rng(seed)
    return np.array([np.asarray(late_gammon_save(rng), dtype=np.int8) for _ in range(count)], dtype=np.int8)


def random_net(hidden: int, seed: int, encoding: int = 2) -> _race_net.RaceNet:
    """A race network of ``hidden`` units with seeded small random weights, for the inputs
    of an encoding version."""
    rng = np.random.default_rng(seed)
    inputs = _race_net.num_inputs(encoding)
    return _race_net.RaceNet(rng.normal(0, 0.1, (inputs, hidden)), rng.normal(0, 0.1, hidden),
                             rng.normal(0, 0.1, (5, hidden)), rng.normal(0, 0.1, 5), bearoff.race_tables(),
                             bearoff.one_sided_table(bearoff.HOME_POINTS).first_expected, encoding)


def cpu_seconds(run: Callable[[], object]) -> float:
    """Process CPU time of one call."""
    started = time.process_time()
    run()
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hidden", type=int, nargs="+", default=[16, 32, 64])
    parser.add_argument("--boards", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--encodings", type=int, nargs="+", default=[2], help="race-features versions (1, 2)")
    parser.add_argument("--late-gammon", action="store_true",
                        help="late gammon-saving races instead (a side bearing in with all 15 on the board)")
    args = parser.parse_args()
    boards = (late_gammon_boards if args.late_gammon else race_boards)(args.boards, args.seed)
    tables = bearoff.race_tables()
    out = np.empty((len(boards), 5), dtype=np.float32)
    runs: dict[str, Callable[[], object]] = {"race approximation": lambda: tables.race_probabilities_batch(boards, out)}
    for hidden in args.hidden:
        for encoding in args.encodings:
            net = random_net(hidden, args.seed, encoding)
            runs[f"race network v{encoding}, {hidden} hidden"] = lambda net=net: net.evaluate(boards)
    for run in runs.values():
        run()  # warm up: tables built, pages touched
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            times[name].append(cpu_seconds(run))
    base = statistics.median(times["race approximation"])
    print(f"{len(boards)} {'late gammon-saving' if args.late_gammon else 'race'} boards (seed {args.seed}), median of {args.rounds} rounds, CPU time per board:")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:28} {1e6 * median / len(boards):7.3f} us   ({median / base:4.2f} x the approximation)")


if __name__ == "__main__":
    main()

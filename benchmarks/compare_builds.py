"""Two builds of the network kernel side by side in one process: batched 0-ply on contact boards.

    python benchmarks/compare_builds.py OTHER_NN_SO [--rounds 40] [--boards 10000]

``OTHER_NN_SO`` is another build's ``bgcore/_nn`` extension module (for instance a worktree of
an earlier commit, built with ``python setup.py build_ext --inplace``). It is loaded beside this
checkout's, both are handed the shipped contact network's weights, and each round times both
on the same contact boards (CPU time). This shared 2-core host switches between two speeds
about 1.5x apart, so timings from separate processes differ by more than most changes: the
median of the rounds' ratios (this build over the other) is the figure to read. Prints the
largest output difference as well (0.0 when the builds give the same floats).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_evaluator import CONTACT_BOARDS, SAMPLE_SEED, contact_boards, shipped_network_in  # noqa: E402


def other_build(path: Path) -> ModuleType:
    """The extension module at ``path`` under a name of its own (its init function is _nn's)."""
    spec = importlib.util.spec_from_file_location("other_build._nn", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load an extension module from {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compare(path: Path, rounds: int, boards: int) -> dict[str, float]:
    """Both builds timed in turn each round on the same boards: medians, minimums, ratio."""
    this = shipped_network_in(3)
    weights = this.arrays()
    other = other_build(path).NeuralNet(weights["hidden_weights"], weights["hidden_bias"],
                                        weights["output_weights"], weights["output_bias"], this.encoding)
    board_array = contact_boards(boards, SAMPLE_SEED)
    difference = float(np.abs(other.evaluate_trusted(board_array) - this.evaluate_trusted(board_array)).max())
    seconds: dict[str, list[float]] = {"other": [], "this": []}
    for _ in range(rounds):
        for name, network in (("other", other), ("this", this)):
            started = time.process_time()
            network.evaluate_trusted(board_array)
            seconds[name].append(time.process_time() - started)
    other_times, this_times = np.array(seconds["other"]), np.array(seconds["this"])
    return {
        "largest_difference": difference,
        "other_median_ms": float(np.median(other_times) * 1e3), "other_min_ms": float(other_times.min() * 1e3),
        "this_median_ms": float(np.median(this_times) * 1e3), "this_min_ms": float(this_times.min() * 1e3),
        "median_ratio": float(np.median(this_times / other_times)),
        "this_rate": float(boards / np.median(this_times)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other build's bgcore/_nn extension module")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--boards", type=int, default=CONTACT_BOARDS)
    args = parser.parse_args(argv)
    result = compare(args.other, args.rounds, args.boards)
    print(f"largest output difference between the builds: {result['largest_difference']:.3g}")
    print(f"other build: median {result['other_median_ms']:.2f} ms, min {result['other_min_ms']:.2f} ms")
    print(f"this build:  median {result['this_median_ms']:.2f} ms, min {result['this_min_ms']:.2f} ms"
          f" ({result['this_rate'] / 1e6:.3f} M contact evaluations per CPU second)")
    print(f"this / other: {result['median_ratio']:.3f} (median of {args.rounds} rounds' ratios, {args.boards} boards)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

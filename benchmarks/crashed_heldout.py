"""Crashed networks' held-out errors per label set: mean absolute cubeless equity and win
error of each network's 0-ply values against the labels of the crashed positions in each
set's test shards (shard index % 10 == 9, never trained on).

    python benchmarks/crashed_heldout.py --weights A.npz B.npz --data DIR [DIR ...]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from bgengine.evaluation.evaluator import NetworkEvaluator, crashed_network_of, default_evaluator
from bgengine.training.classes import PositionClass
from bgengine.training.corpus import shard_index
from bgengine.training.dataset import load_shard, shard_paths


def cubeless_equities(probabilities: np.ndarray) -> np.ndarray:
    """Money cubeless equity of (n, 5) probabilities (win, win gammon, win backgammon, lose gammon, lose backgammon)."""
    p = np.asarray(probabilities, dtype=float)
    return 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]


def test_rows(directory: Path) -> tuple[np.ndarray, np.ndarray]:
    """The crashed boards and labels of a label directory's test shards."""
    boards, labels = [], []
    for path in shard_paths(directory):
        if shard_index(path) % 10 != 9:
            continue
        shard = load_shard(path)
        keep = shard.classes == PositionClass.CRASHED
        boards.append(shard.boards[keep])
        labels.append(shard.probabilities[keep])
    return np.concatenate(boards), np.concatenate(labels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, nargs="+", required=True, help="crashed networks (.npz)")
    parser.add_argument("--data", type=Path, nargs="+", required=True, help="label directories")
    args = parser.parse_args()
    shipped = default_evaluator()
    evaluators = {str(path): NetworkEvaluator(shipped.network, race_network=shipped.race_network,
                                              crashed_network=crashed_network_of(path)) for path in args.weights}
    print(f"{'set':<40} {'n':>6} " + " ".join(f"{'equity':>8} {'win':>6}" for _ in evaluators) + "   (" + ", ".join(evaluators) + ")")
    for directory in args.data:
        boards, labels = test_rows(directory)
        cells = []
        for evaluator in evaluators.values():
            values = evaluator.evaluate_batch(boards)
            cells.append(f"{np.abs(cubeless_equities(values) - cubeless_equities(labels)).mean():8.4f}"
                         f" {np.abs(values[:, 0] - labels[:, 0]).mean():6.4f}")
        print(f"{str(directory.parent.name + '/' + directory.name):<40} {len(boards):>6} " + " ".join(cells))


if __name__ == "__main__":
    main()

"""Batched 0-ply speed of several weights files side by side, on the contact boards of self-play.

    python benchmarks/network_speed.py python/bgengine/data/evaluator_weights.npz D/cand/avg256.npz

``--boards turns`` (the default): the positions of self-play turns, each a different position;
``--boards children``: every legal play of each turn, siblings together, as a 0-ply move choice
evaluates them (``bench_evaluator.self_play_contact_children``: they share most of their rows).

Rounds alternate between the networks (the machine is shared and noisy); each network's median
rate in evaluations per CPU second, and each one's median ratio to the first, are printed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sample_positions import sampled_turns  # noqa: E402

from bgcore import _engine  # noqa: E402
from bgengine.evaluation.network_weights import load_network  # noqa: E402


def contact_boards(seed: int, turns: int, at_least: int) -> np.ndarray:
    """The contact boards of ``turns`` self-play turns, repeated to at least ``at_least`` rows."""
    boards = np.array([np.asarray(position, dtype=np.int8) for position, _ in sampled_turns(seed, turns)])
    boards = boards[_engine.position_classes(boards) == _engine.CONTACT]
    return np.ascontiguousarray(np.tile(boards, (max(1, -(-at_least // len(boards))), 1)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("weights", type=Path, nargs="+")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--boards", choices=("turns", "children"), default="turns")
    args = parser.parse_args()
    if args.boards == "children":
        from bench_evaluator import self_play_contact_children
        boards = self_play_contact_children(20000, args.seed)
    else:
        boards = contact_boards(args.seed, 6000, 20000)
    networks = [load_network(path) for path in args.weights]
    rates = np.zeros((args.rounds, len(networks)))
    for round_ in range(args.rounds):
        for column, network in enumerate(networks):
            started = time.process_time()
            network.evaluate(boards)
            rates[round_, column] = len(boards) / (time.process_time() - started)
    for column, path in enumerate(args.weights):
        print(f"{path} ({networks[column].num_hidden} hidden units): median {np.median(rates[:, column]) / 1e6:.2f} M "
              f"evaluations per CPU second over {len(boards)} contact boards ({args.boards}), "
              f"ratio to the first {np.median(rates[:, column] / rates[:, 0]):.3f}")


if __name__ == "__main__":
    main()

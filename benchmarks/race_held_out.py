"""Race networks against held-out labels: mean absolute errors on the test shards of label
directories (``corpus`` roles), each directory scored on its own, so that networks trained
on different data are compared on the same positions.

    python benchmarks/race_held_out.py --data /work/data/bgengine/race/labels --split-every 10 \
        --network shipped python/bgengine/data/race_weights.npz --network new DIR/race_weights.npz

Scores the race approximation too. ``--role validation`` scores the validation shards
instead (to choose between networks without looking at the test shards).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bgengine.evaluation.race import RaceEvaluator
from bgengine.evaluation.race_network import RaceNetwork
from bgengine.training.classes import PositionClass
from bgengine.training.corpus import SPLIT_EVERY, TEST, VALIDATION, gather, truth_boards
from bgengine.training.errors import mean_absolute_errors
from bgengine.training.fit_job import DEFAULT_TRUTH


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, action="append", required=True,
                        help="a label directory (repeat; each scored alone, then all together)")
    parser.add_argument("--network", nargs=2, action="append", metavar=("NAME", "WEIGHTS"), default=[])
    parser.add_argument("--split-every", type=int, default=SPLIT_EVERY)
    parser.add_argument("--role", choices=(TEST, VALIDATION), default=TEST)
    parser.add_argument("--truth", type=Path, default=DEFAULT_TRUTH)
    args = parser.parse_args()
    networks = {name: RaceNetwork.from_file(path) for name, path in args.network}
    truth = truth_boards(args.truth)
    groups = [[directory] for directory in args.data] + ([args.data] if len(args.data) > 1 else [])
    print(f"{args.role} shards (index % {args.split_every}), mean absolute error: equity, win, win gammon, lose gammon")
    for group in groups:
        split = gather(group, (PositionClass.RACE,), truth, args.split_every)[args.role]
        print(f"\n{' + '.join(str(d) for d in group)}: {len(split)} positions")
        estimates = {"race approximation": RaceEvaluator().evaluate_batch(split.boards)}
        estimates.update({name: network.evaluate_batch(split.boards) for name, network in networks.items()})
        for name, values in estimates.items():
            e = mean_absolute_errors(values, split.targets)
            print(f"  {name:30} {e['equity']:.4f}  {e['win']:.4f}  {e['win_gammon']:.4f}  {e['lose_gammon']:.4f}")


if __name__ == "__main__":
    main()

"""How sharp a cubeful rollout's cube decision is: the spread over seeds of Double/Take minus
No double, and of No double alone (money, cube centred). With common dice trial by trial the
difference's spread is well below what two independent lines would give.

    python benchmarks/cube_rollout_pairing.py XGID --trials 144 --seeds 1 31
"""

from __future__ import annotations

import argparse
import statistics

from bgengine import Position, RolloutSettings, cube_decision


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("xgid", help="the position (XGID; the cube is centred, money)")
    parser.add_argument("--trials", type=int, default=144)
    parser.add_argument("--seeds", type=int, nargs=2, default=(1, 31), metavar=("FIRST", "END"))
    args = parser.parse_args()
    position = Position.from_xgid(args.xgid)
    no_doubles, differences = [], []
    for seed in range(*args.seeds):
        decision = cube_decision(position, rollout=RolloutSettings(trials=args.trials, seed=seed))
        no_doubles.append(decision.no_double)
        differences.append(decision.double_take - decision.no_double)
    print(f"{args.xgid}: {len(differences)} seeds of {args.trials} trials; No double mean "
          f"{statistics.mean(no_doubles):+.4f} sd {statistics.stdev(no_doubles):.4f}; Double/Take minus No double "
          f"mean {statistics.mean(differences):+.4f} sd {statistics.stdev(differences):.4f}")


if __name__ == "__main__":
    main()

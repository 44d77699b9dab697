"""Containment endings and the closed-out example: 0-ply win chances against the engine's own
rollout (issues 13 and 14).

    python benchmarks/containment_examples.py --seed 1 [--trials 1296] [--crashed-weights C.npz]

The cube judge's largest gaps (benchmarks/results/judge_cube_2ply_worst30.txt) are endings in
which one side has 13 off and its last two checkers, one trapped behind the other's prime;
issue 13's closed-out example is a side with two checkers on the bar against a closed board.
For each, the win chance of the side on roll (as the cube judge shows it; in the three
endings the priming side, in the closed-out example the trapped side) at 0-ply and by a cubeless rollout (0-ply play,
variance reduction, full games, seed + index), both by the engine (the shipped networks, or
another crashed network with ``--crashed-weights``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hard_positions import engine_evaluator  # noqa: E402

from bgengine import Position, RolloutSettings, evaluate, rollout  # noqa: E402
from bgengine.training.classes import classify, side_counts  # noqa: E402

EXAMPLES = (
    "XGID=-aABCBBB---a----------A-B-:0:0:1:00:5:5:0:7:6",
    "XGID=--aBBBBBBA----A-------A-a-:1:1:1:00:2:4:0:7:6",
    "XGID=--aBBBBBB-----B-------A-a-:0:0:1:00:3:6:0:7:6",
    "27YBAAAAAGAAAA",
)


def example_position(text: str) -> Position:
    """An example given as an XGID or a GNU Backgammon Position ID."""
    return Position.from_xgid(text) if text.startswith("XGID=") else Position.from_gnubg_id(text)


def trapped_side_on_roll(position: Position) -> bool:
    """True when the side with fewer checkers on the board (the trapped one) is on roll."""
    mover, opponent = side_counts(np.asarray(position))
    return int(mover.sum()) < int(opponent.sum())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--trials", type=int, default=1296)
    parser.add_argument("--crashed-weights", type=Path, help="value crashed positions with this crashed network")
    parser.add_argument("--json", type=Path, help="write the rows as JSON")
    args = parser.parse_args(argv)
    evaluator = engine_evaluator(None, False, args.crashed_weights)
    rows = []
    print(f"{'position':<52} {'class':<8} {'on roll':<8} {'0-ply':>7} {'rollout':>15}   (wins of the side on roll)")
    for index, text in enumerate(EXAMPLES):
        position = example_position(text)
        on_roll = "trapped" if trapped_side_on_roll(position) else "primer"
        zero = evaluate(position, evaluator=evaluator).probabilities.win
        settings = RolloutSettings(trials=args.trials, seed=args.seed + index, variance_reduction=True, checker_plies=0)
        started = time.process_time()
        done = rollout(position, settings=settings, evaluator=evaluator)
        rolled, error = done.probabilities.win, done.probability_standard_errors[0]
        rows.append({"position": text, "class": classify(np.asarray(position)).name.lower(),
                     "on_roll": on_roll, "zero_ply_win": zero, "rollout_win": rolled, "rollout_win_se": error,
                     "seed": args.seed + index, "trials": args.trials, "cpu_seconds": round(time.process_time() - started, 1)})
        print(f"{text:<52} {rows[-1]['class']:<8} {on_roll:<8} {zero:7.1%} {rolled:8.1%} ± {error:4.1%}")
    if args.json:
        args.json.write_text(json.dumps({"command": " ".join(sys.argv), "crashed_weights": str(args.crashed_weights),
                                         "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()

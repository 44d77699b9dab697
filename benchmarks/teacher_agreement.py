"""How often a network's 0-ply play is the engine's own 2-ply play, on the judge set's decisions.

    python benchmarks/teacher_agreement.py W1.npz W2.npz ...   # the shipped network is always listed first

A distilled network (trained towards the engine's 2-ply values) should agree with the 2-ply
teacher more often than the network it started from. Only the judge set's positions and
rolls are used, never gnubg's verdicts; the teacher is the shipped network at 2-ply
(``--teacher`` for another), so the count has no judge noise in it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge_data import CHECKER_SET, read_judge_set  # noqa: E402

from bgengine import Position, rank_moves  # noqa: E402
from bgengine.evaluation.evaluator import NetworkEvaluator  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("weights", type=Path, nargs="*", help="networks to compare with the shipped one")
    parser.add_argument("--teacher", type=Path, help="the 2-ply teacher's weights (default: shipped)")
    parser.add_argument("--class", dest="only_class", default="contact", choices=("contact", "race", "all"))
    args = parser.parse_args()
    _, decisions = read_judge_set(CHECKER_SET)
    chosen = [d for d in decisions if args.only_class == "all" or d["class"] == args.only_class]
    problems = [(Position.from_gnubg_id(d["position_id"]), tuple(d["dice"])) for d in chosen]
    teacher = NetworkEvaluator.from_file(args.teacher) if args.teacher else None
    taught = [rank_moves(p, dice, plies=2, evaluator=teacher)[0].position for p, dice in problems]
    for name in [None, *args.weights]:
        evaluator = NetworkEvaluator.from_file(name) if name else None
        same = sum(rank_moves(p, dice, evaluator=evaluator)[0].position == t for (p, dice), t in zip(problems, taught))
        print(f"{name or 'shipped network'}: 0-ply play = 2-ply teacher's play in {same} of {len(problems)}"
              f" {args.only_class} decisions ({same / len(problems):.1%})")


if __name__ == "__main__":
    main()

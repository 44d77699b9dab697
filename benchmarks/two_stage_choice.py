"""The checker judge for a two-stage 0-ply move choice: one engine ranks every play, a second
re-ranks only the first's best K.

A wide network (two networks side by side, ``side_by_side.py``) plays better than the shipped
one but costs more per evaluation; it changes the shipped engine's choice in about one
decision in twenty. If the second engine need only look at the first's best few plays, the
gain costs a fraction of its price. This scores that choice on the judge sets against the
shipped engine alone, paired decision by decision (mEMG given up in gnubg 2-ply's eyes):

    python benchmarks/two_stage_choice.py --second-weights D/s23/x18-b.npz \\
        --crashed-weights python/bgengine/data/crashed_weights.npz --keep 2 3 4 6 --sets large xl

The first engine is the shipped one without its choice network (one stage); ``--keep`` 0
stands for every play (the second engine alone). The engine itself chooses this way with a
choice network (``NetworkEvaluator(choice_network=...)``, docs/evaluator.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_networks import chosen_evaluator  # noqa: E402
from judge_compare import mean, standard_error  # noqa: E402
from judge_data import CHECKER_SETS, read_judge_set  # noqa: E402

from bgengine import Position, rank_moves  # noqa: E402
from bgengine.evaluation.evaluator import default_evaluator  # noqa: E402

EVERY_PLAY = 0


def given_up_by_keep(decision: dict[str, Any], second: Any, keeps: list[int], first: Any = None) -> dict[int, float]:
    """For each K of ``keeps``: what the play gives up (mEMG) that ``second`` ranks best among
    ``first``'s best K at 0-ply (K = 0: among all plays). ``None`` is the shipped engine."""
    position = Position.from_gnubg_id(decision["position_id"])
    dice = tuple(decision["dice"])
    equities = {play["position_id"]: play["equity"] for play in decision["plays"]}
    best = max(equities.values())
    first_order = [ranked.position.gnubg_id() for ranked in rank_moves(position, dice, evaluator=first)]
    second_rank = {ranked.position.gnubg_id(): index
                   for index, ranked in enumerate(rank_moves(position, dice, evaluator=second))}
    results = {}
    for keep in keeps:
        shortlist = first_order if keep == EVERY_PLAY else first_order[:keep]
        chosen = min(shortlist, key=second_rank.__getitem__)
        results[keep] = 1000 * (best - equities[chosen])
    return results


def paired_summary(base: list[float], other: list[float]) -> tuple[float, float, float]:
    """(mean of ``other``, mean difference from ``base``, its standard error)."""
    differences = [b - a for a, b in zip(base, other)]
    return mean(other), mean(differences), standard_error(differences)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--second-weights", type=Path, required=True, help="the second engine's contact network")
    parser.add_argument("--crashed-weights", type=Path, help="the second engine's crashed network (default: shipped)")
    parser.add_argument("--keep", type=int, nargs="+", default=[2, 3, 4, 6, EVERY_PLAY])
    parser.add_argument("--sets", nargs="+", default=["large", "xl"], choices=tuple(CHECKER_SETS))
    args = parser.parse_args()
    if any(keep < 0 for keep in args.keep):
        parser.error("--keep takes play counts (0: every play)")
    second, _ = chosen_evaluator(args.second_weights, args.crashed_weights)
    first = default_evaluator(use_choice_network=False)  # one stage: every play by the shipped networks
    keeps = sorted(set([1, *args.keep]) - {EVERY_PLAY}) + ([EVERY_PLAY] if EVERY_PLAY in args.keep else [])
    for name in args.sets:
        _, decisions = read_judge_set(CHECKER_SETS[name])
        scores = [given_up_by_keep(decision, second, keeps, first) for decision in decisions]
        base = [score[1] for score in scores]
        print(f"{name}: {len(decisions)} decisions; the shipped engine alone {mean(base):.3f} mEMG")
        for keep in keeps[1:]:
            average, difference, error = paired_summary(base, [score[keep] for score in scores])
            what = "every play" if keep == EVERY_PLAY else f"its best {keep}"
            print(f"  {args.second_weights.name} re-ranking {what}: {average:.3f} ({difference:+.3f} ± {error:.3f})")


if __name__ == "__main__":
    main()

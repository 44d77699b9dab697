"""Networks against the truth set: mean absolute errors per category against long rollouts.

The truth set (``python -m bgengine.training truth``; positions of its own seed, never
trained on) holds back games, closed-out positions, crashed positions, races and other
contact positions, each rolled out to the end of the game by the engine. This scores the
engine (the shipped networks, or others named as in the judge) on the labelled shards:

    python benchmarks/truth_set.py --out F.json          # the set kept in benchmarks/data/truth
    python benchmarks/truth_set.py --truth DIR --weights W --crashed-weights C --race-network R --out G.json
    python benchmarks/truth_set.py --compare F.json G.json      # paired differences per category

Errors: cubeless money equity, the win rate and the two gammon rates (player on roll),
against the rollouts; the rollouts' own noise (root mean square equity standard error) is
printed beside them, since a mean absolute error cannot fall below about 0.8 of it. A second
table gives each measure's bias (the mean of engine minus rollout): a network that sees too
few gammons has a mean absolute error of gammons that is mostly bias.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_networks import chosen_evaluator  # noqa: E402
from judge_data import git_commit  # noqa: E402

from bgengine.evaluation.evaluator import default_evaluator, evaluator_identity  # noqa: E402
from bgengine.training.dataset import load_shard, shard_paths  # noqa: E402
from bgengine.training.errors import signed_errors  # noqa: E402

#: The truth set lives in the repository (2,000 positions and their labels are well under a
#: megabyte), so that its costly rollouts survive any machine; the job writes elsewhere and
#: finished shards are copied here.
DEFAULT_TRUTH = Path(__file__).resolve().parent / "data" / "truth"
MEASURES = ("equity", "win", "win_gammon", "lose_gammon")


def truth_labels(root: Path) -> tuple[np.ndarray, np.ndarray, list[str], np.ndarray, list[int]]:
    """(boards, rollout 5-vectors, categories, equity standard errors, contact trials) of
    every labelled shard under ``root/labels``."""
    shards = [load_shard(path) for path in shard_paths(root / "labels")]
    if not shards:
        raise SystemExit(f"no labelled truth shards under {root / 'labels'}")
    categories = [category for shard in shards for category in shard.meta["categories"]]
    trials = sorted({int(shard.meta["plan"]["contact"]["trials"]) for shard in shards})
    return (np.concatenate([s.boards for s in shards]), np.concatenate([s.probabilities for s in shards]),
            categories, np.concatenate([s.equity_standard_errors for s in shards]), trials)


def score(evaluator, boards: np.ndarray, plies: int) -> np.ndarray:
    """The engine's cubeless 5-vectors of ``boards`` at ``plies``."""
    if plies == 0:
        return np.asarray(evaluator.evaluate_batch(boards), dtype=np.float64)
    return np.asarray(evaluator.evaluate_plies(boards, plies), dtype=np.float64)


def summary_by_category(signed: dict[str, np.ndarray], categories: list[str],
                        noise: np.ndarray) -> dict[str, dict[str, float]]:
    """Per category and over all: the mean absolute error of each measure, its bias (the mean
    signed error, ``bias_<measure>``: engine minus rollout) and the rollouts' RMS equity se."""
    groups = {name: [i for i, c in enumerate(categories) if c == name] for name in dict.fromkeys(categories)}
    groups["all"] = list(range(len(categories)))
    return {name: {"n": len(rows), **{m: float(np.abs(signed[m][rows]).mean()) for m in MEASURES},
                   **{f"bias_{m}": float(signed[m][rows].mean()) for m in MEASURES},
                   "rollout_equity_se": float(np.sqrt(np.mean(noise[rows] ** 2)))}
            for name, rows in groups.items()}


def print_summary(summary: dict[str, dict[str, float]]) -> None:
    header = f"{'n':>5}  {'equity':>7} {'win':>7} {'w gam':>7} {'l gam':>7}"
    print(f"mean absolute error\n{'category':12} {header}   rollout se")
    for name, row in summary.items():
        print(f"{name:12} {row['n']:5d}  " + " ".join(f"{row[m]:7.4f}" for m in MEASURES)
              + f"   {row['rollout_equity_se']:.4f}")
    print(f"bias (mean of engine - rollout)\n{'category':12} {header}")
    for name, row in summary.items():
        print(f"{name:12} {row['n']:5d}  " + " ".join(f"{row['bias_' + m]:+7.4f}" for m in MEASURES))


def compare(first: Path, second: Path) -> None:
    """Paired differences (second - first) of the absolute errors, per category, with se."""
    a, b = (json.loads(Path(p).read_text()) for p in (first, second))
    if a["boards_digest"] != b["boards_digest"]:
        raise SystemExit("the two runs scored different truth positions (more shards labelled since?)")
    categories = a["categories"]
    print(f"{second} - {first}: mean difference of absolute errors (negative: the second is closer)")
    for name in [*dict.fromkeys(categories), "all"]:
        rows = [i for i, c in enumerate(categories) if name in ("all", c)]
        cells = []
        for m in MEASURES:
            d = np.asarray(b["errors"][m])[rows] - np.asarray(a["errors"][m])[rows]
            spread = d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else float("nan")
            cells.append(f"{d.mean():+.4f} ± {spread:.4f}")
        print(f"  {name:12} {len(rows):5d}  " + "  ".join(f"{m} {c}" for m, c in zip(MEASURES, cells)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--truth", type=Path, default=DEFAULT_TRUTH, help="truth-set directory (positions, labels/)")
    parser.add_argument("--plies", type=int, default=0)
    parser.add_argument("--weights", type=Path, help="the engine's contact network from this weights file")
    crashed = parser.add_mutually_exclusive_group()
    crashed.add_argument("--crashed-weights", type=Path, help="the crashed network from this weights file")
    crashed.add_argument("--no-crashed-network", action="store_true", help="crashed positions by the contact network")
    parser.add_argument("--race-network", type=Path, help="races by this race network")
    parser.add_argument("--race-approximation", action="store_true", help="races by the race approximation")
    parser.add_argument("--out", type=Path, help="write the summary and every position's errors as JSON")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("A.json", "B.json"),
                        help="paired differences of two --out runs, score nothing")
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    evaluator, engine = chosen_evaluator(args.weights, args.crashed_weights, args.race_network,
                                         args.race_approximation, args.no_crashed_network)
    evaluator = evaluator or default_evaluator()
    boards, labels, categories, noise, trials = truth_labels(args.truth)
    signed = signed_errors(score(evaluator, boards, args.plies), labels)
    errors = {m: np.abs(v) for m, v in signed.items()}
    summary = summary_by_category(signed, categories, noise)
    print(f"{engine} at {args.plies}-ply against {len(boards)} truth positions of {args.truth} "
          f"(contact rollouts of {trials} full-game trials)")
    print_summary(summary)
    if args.out:
        record = {"command": " ".join(["python", *sys.argv]), "bgengine_commit": git_commit(),
                  "date": datetime.date.today().isoformat(), "engine": engine,
                  "networks": evaluator_identity(evaluator), "plies": args.plies, "truth": str(args.truth),
                  "contact_trials": trials, "boards_digest": hashlib.sha256(boards.tobytes()).hexdigest()[:16],
                  "summary": summary, "categories": categories,
                  "errors": {m: np.round(v, 5).tolist() for m, v in errors.items()}}
        args.out.write_text(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()

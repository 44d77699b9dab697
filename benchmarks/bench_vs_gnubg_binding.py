"""Single-position calls from Python, side by side with GNU Backgammon's own binding, in one run.

The three calls a Python user makes most (issue 18), on the checker judge set's decisions
(benchmarks/data/judge_checker.jsonl: 440 decisions from gnubg self-play, seed 13) and
their distinct child positions, every position once:

* 0-ply evaluation of one position: ``bgengine.evaluate(p)`` / ``gnubg.evaluate``;
* every legal play ranked at 0-ply: ``bgengine.rank_moves(p, dice)`` / ``gnubg.findbestmoves``;
* the best play at 2-ply (first 40 decisions): ``bgengine.best_move(p, dice, plies=2)`` /
  ``gnubg.findbestmove`` at 2 plies (gnubg's default move filters), with the equity each
  choice gives up in the judge set's gnubg 2-ply full-width figures (mEMG).

gnubg runs in its own environment (the PyPI ``gnubg`` binding; ``--gnubg-python`` or
``$BGENGINE_GNUBG_PYTHON``), one fresh process per round, so its evaluation cache never
sees a position twice. Timings are medians over rounds of the mean CPU time per call
(``time.process_time`` in each process, so other work on a shared machine weighs less);
the rounds alternate bgengine, gnubg, bgengine, ... so both see the same load. Read the
ratios. Run from the repository root:

    python benchmarks/bench_vs_gnubg_binding.py --gnubg-python /path/to/venv/bin/python --rounds 5

``--weights W.npz`` measures another network; ``--encoding 2`` widens the network to that
input encoding (zero rows for the new inputs: the same plays, the encoding's cost).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_networks import chosen_evaluator  # noqa: E402
from judge_data import CHECKER_SET, read_judge_set  # noqa: E402

from bgengine import Move, Position, best_move, evaluate, rank_moves  # noqa: E402
from bgengine.evaluation.evaluator import NetworkEvaluator, default_evaluator  # noqa: E402
from bgengine.evaluation.network_weights import widened  # noqa: E402

TWO_PLY_DECISIONS = 40

#: Runs inside the gnubg binding's environment: times the three calls on the workload
#: read from standard input and writes the mean seconds per call of each as JSON.
GNUBG_ROUND = r"""
import json, sys, time
import gnubg
work = json.load(sys.stdin)
cube = gnubg.cube_info()
zero = gnubg.eval_context(0, 0, 1, 0, 0.0)
two = gnubg.eval_context(0, 2, 1, 0, 0.0)
boards = [gnubg.position_from_id(i) for i in work["positions"]]
decisions = [(gnubg.position_from_id(i), tuple(d)) for i, d in work["decisions"]]
out = {}
t = time.process_time()
for b in boards:
    gnubg.evaluate(b, cube, zero)
out["evaluate"] = (time.process_time() - t) / len(boards)
t = time.process_time()
for b, d in decisions:
    gnubg.findbestmoves(b, cube, zero, d)
out["rank_moves"] = (time.process_time() - t) / len(decisions)
chosen = []
deep = decisions[: work["two_ply"]]
t = time.process_time()
for b, d in deep:
    chosen.append(gnubg.findbestmove(b, cube, two, d))
out["best_move_2ply"] = (time.process_time() - t) / len(deep)
out["chosen_2ply"] = [list(m) for m in chosen]
print(json.dumps(out))
"""


def workload() -> tuple[list[dict[str, Any]], list[Position]]:
    """The judge set's decisions and their distinct child positions (each once, in file order)."""
    _, decisions = read_judge_set(CHECKER_SET)
    seen: dict[str, None] = {}
    for decision in decisions:
        for play in decision["plays"]:
            seen.setdefault(play["position_id"], None)
    return decisions, [Position.from_gnubg_id(i) for i in seen]


def mean_seconds(call: Callable[[Any], object], items: Sequence[Any]) -> float:
    """Mean CPU seconds per call over ``items``, each called once."""
    started = time.process_time()
    for item in items:
        call(item)
    return (time.process_time() - started) / len(items)


def bgengine_round(decisions: list[dict[str, Any]], children: list[Position],
                   evaluator: NetworkEvaluator | None = None) -> dict[str, Any]:
    """One round of the three calls in this process (the tables and weights loaded first, as
    gnubg loads its own when the binding is imported); ``evaluator``: None for the default."""
    evaluate(children[0], evaluator=evaluator)
    rank_moves(Position.from_gnubg_id(decisions[0]["position_id"]), tuple(decisions[0]["dice"]), evaluator=evaluator)
    turns = [(Position.from_gnubg_id(d["position_id"]), tuple(d["dice"])) for d in decisions]
    deep = turns[:TWO_PLY_DECISIONS]
    chosen: list[str] = []
    result = {
        "evaluate": mean_seconds(lambda position: evaluate(position, evaluator=evaluator), children),
        "rank_moves": mean_seconds(lambda turn: rank_moves(*turn, evaluator=evaluator), turns),
        "best_move_2ply": mean_seconds(
            lambda turn: chosen.append(best_move(*turn, plies=2, evaluator=evaluator).position.gnubg_id()), deep),
    }
    result["chosen_2ply"] = chosen
    return result


def gnubg_round(python: str, decisions: list[dict[str, Any]], children: list[Position]) -> dict[str, Any]:
    """One round in a fresh gnubg-binding process (its cache starts empty)."""
    work = {
        "positions": [p.gnubg_id() for p in children],
        "decisions": [(d["position_id"], d["dice"]) for d in decisions],
        "two_ply": TWO_PLY_DECISIONS,
    }
    done = subprocess.run([python, "-c", GNUBG_ROUND], input=json.dumps(work), capture_output=True, text=True,
                          check=True, timeout=3600)
    return json.loads(done.stdout)


def _hops(move: Move) -> list[int]:
    """A play as the binding writes it: flat 1-based (from, to) pairs, 25 the bar, 0 off,
    cut at the first 0 (the binding's tuples end there: a bear-off hides what follows)."""
    flat = [point for start, end, _hit in move.steps for point in (start, end)]
    return flat[: flat.index(0)] if 0 in flat else flat


def gnubg_play_id(decision: dict[str, Any], hops: Sequence[int]) -> str | None:
    """The Position ID after gnubg's play; None when its cut tuple fits several plays."""
    position = Position.from_gnubg_id(decision["position_id"])
    legal = position.legal_moves(tuple(decision["dice"]))
    fits = [i for i, move in enumerate(legal.moves) if _hops(move) == list(hops)]
    return legal.position_after(fits[0]).gnubg_id() if len(fits) == 1 else None


def equity_given_up(decisions: list[dict[str, Any]], chosen_ids: Sequence[str]) -> float:
    """Mean equity (mEMG) the chosen plays give up in the judge's figures."""
    losses = []
    for decision, chosen in zip(decisions, chosen_ids):
        by_id = {play["position_id"]: play["equity"] for play in decision["plays"]}
        losses.append(max(by_id.values()) - by_id[chosen])
    return 1000 * statistics.fmean(losses)


def measured_evaluator(weights: str | None, encoding: int | None, race_approximation: bool,
                       no_choice_network: bool = False) -> NetworkEvaluator | None:
    """The evaluator the rounds use: None (the default one) unless another network, encoding
    or race valuation is asked for, or the shipped engine without its choice network. The
    networks are chosen by the judge's rule (``engine_networks.chosen_evaluator``: the
    shipped crashed network stays; another contact network goes without the choice network)."""
    evaluator, _ = chosen_evaluator(Path(weights) if weights else None, race_approximation=race_approximation,
                                    no_choice_network=no_choice_network)
    if encoding is None:
        return evaluator
    base = evaluator or default_evaluator()
    return NetworkEvaluator(widened(base.network, encoding), race_network=base.race_network,
                            crashed_network=base.crashed_network, choice_network=base.choice_network)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gnubg-python", default=os.environ.get("BGENGINE_GNUBG_PYTHON"),
                        help="python of an environment with the PyPI gnubg binding")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--race-approximation", action="store_true",
                        help="value races by the race approximation instead of the default race network")
    parser.add_argument("--weights", help="network weights to measure (default: the shipped weights)")
    parser.add_argument("--encoding", type=int, help="widen the network to this input encoding first")
    parser.add_argument("--no-choice-network", action="store_true",
                        help="the shipped engine without its choice network (plays ranked by the contact network)")
    args = parser.parse_args(argv)
    evaluator = measured_evaluator(args.weights, args.encoding, args.race_approximation, args.no_choice_network)
    decisions, children = workload()
    load_before = f"{os.getloadavg()[0]:.2f}"
    network = evaluator.network if evaluator else default_evaluator().network
    print(f"workload: {len(decisions)} decisions, {len(children)} distinct positions, "
          f"2-ply on the first {TWO_PLY_DECISIONS}; {args.rounds} rounds; network {args.weights or 'shipped'}"
          f"{' with' if (evaluator or default_evaluator()).choice_network is not None else ' without'} a choice network,"
          f" encoding {network.encoding}, {network.num_hidden} hidden")
    ours: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    for _ in range(args.rounds):  # alternating, so both sides see the same load
        ours.append(bgengine_round(decisions, children, evaluator))
        if args.gnubg_python:
            theirs.append(gnubg_round(args.gnubg_python, decisions, children))
    print(f"load average before/after: {load_before} / {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; CPU time per call")
    print(f"{'call':<34}{'bgengine':>12}{'gnubg':>12}{'speed-up':>10}")
    for name, label in (("evaluate", "0-ply evaluation, one position"), ("rank_moves", "rank every play, 0-ply"),
                        ("best_move_2ply", "best play, 2-ply")):
        mine = statistics.median(r[name] for r in ours)
        line = f"{label:<34}{mine * 1e6:>10.1f}us"
        if theirs:
            other = statistics.median(r[name] for r in theirs)
            line += f"{other * 1e6:>10.1f}us{other / mine:>9.2f}x"
        print(line)
    deep = decisions[:TWO_PLY_DECISIONS]
    mine_ids = ours[0]["chosen_2ply"]
    if not theirs:
        print(f"2-ply equity given up (judge: gnubg 2-ply full width): bgengine {equity_given_up(deep, mine_ids):.2f} mEMG")
        return 0
    gnubg_ids = [gnubg_play_id(d, hops) for d, hops in zip(deep, theirs[0]["chosen_2ply"])]
    known = [i for i, chosen in enumerate(gnubg_ids) if chosen is not None]
    both = [deep[i] for i in known]
    print(f"2-ply equity given up (judge: gnubg 2-ply full width), on the {len(known)} of {len(deep)} decisions"
          f" where the binding's play is unambiguous: bgengine {equity_given_up(both, [mine_ids[i] for i in known]):.2f}"
          f" mEMG, gnubg {equity_given_up(both, [gnubg_ids[i] for i in known]):.2f} mEMG")
    return 0


if __name__ == "__main__":
    sys.exit(main())

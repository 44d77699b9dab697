"""Score bgengine against the committed judge sets (gnubg's verdicts; gnubg itself is not needed).

    python benchmarks/judge.py checker --plies 0   # equity given up per decision, best move found
    python benchmarks/judge.py cube --plies 2      # same verdict family, |ND diff| + |DT diff|
    python benchmarks/judge.py checker --plies 0 --class race --race-network W.npz   # races valued by a race network
    python benchmarks/judge.py checker --plies 0 --weights W.npz   # another evaluator network (all in C)
    python benchmarks/judge.py checker --plies 0 --weights W.npz --crashed-weights C.npz   # a contact + crashed pair
    python benchmarks/judge.py checker --plies 0 --no-crashed-network   # crashed positions by the contact network
    python benchmarks/judge.py checker --plies 0 --set large --out A.json   # the 2,000-decision set
    python benchmarks/judge.py checker --compare A.json B.json   # paired difference of two --out runs

Checker play: bgengine's best play at ``--plies`` is looked up among the stored plays by the
position it leads to; what it gives up against gnubg's best is in millipoints (mEMG, cubeless
money equity x 1000). Cube: ``cube_decision`` at ``--plies`` against gnubg's equities (money
per cube, EMG in matches); gnubg's "Optional double" accepts "no double" as well.
``--set large`` (checker play) scores on the larger set, ``--judge-file`` on any set file; the
default stays the 440-decision set so old figures stay comparable. ``--compare`` prints the
paired differences of two ``--out`` runs (judge_compare.py), to tell networks apart beyond noise.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_networks import chosen_evaluator  # noqa: E402
from judge_compare import compare_runs, mean, print_comparison, standard_error, write_run  # noqa: E402
from judge_data import (  # noqa: E402
    CHECKER_SET, CUBE_SET, add_set_option, chosen_set, git_commit, read_judge_set, verdict_family)

import numpy as np  # noqa: E402

from bgcore import _engine  # noqa: E402
from bgengine import CubeAction, Position, cube_decision, parse_xgid, rank_moves  # noqa: E402
from bgengine.evaluation.evaluator import default_evaluator, evaluator_identity  # noqa: E402

Row = dict[str, Any]
ENGINE_CLASSES = {_engine.CONTACT: "contact", _engine.CRASHED: "crashed", _engine.RACE: "race"}


def engine_class(position: Position) -> str:
    """The class the engine's dispatch gives a position: "contact", "crashed" or "race"."""
    return ENGINE_CLASSES[int(_engine.position_classes(np.asarray(position, dtype=np.int8))[0])]


def score_checker_decision(decision: Row, plies: int, evaluator: Any = None) -> Row:
    """What bgengine's best play at ``plies`` gives up in gnubg's eyes (mEMG), and whether it is gnubg's best."""
    position = Position.from_gnubg_id(decision["position_id"])
    ours = rank_moves(position, tuple(decision["dice"]), plies=plies, evaluator=evaluator)[0]
    equities = {play["position_id"]: play["equity"] for play in decision["plays"]}
    given_up = 1000 * (max(equities.values()) - equities[ours.position.gnubg_id()])
    return {"position_id": decision["position_id"], "dice": decision["dice"], "class": decision["class"],
            "engine_class": engine_class(position), "ours": str(ours.move), "gnubg": decision["plays"][0]["move"], "given_up": given_up,
            "best": given_up < 1e-6}


def our_family(action: CubeAction) -> str:
    """Our verdict's family (see judge_data.FAMILIES); "no cube action" matches none of gnubg's."""
    return "no cube action" if action is CubeAction.NO_CUBE_ACTION else verdict_family(action.value)


def same_family(family: str, decision: Row) -> bool:
    """Is ``family`` the judge's verdict family? (Where gnubg's double is optional, no double is right too.)"""
    optional = decision["verdict"].lower().startswith("optional")
    return family == decision["family"] or (optional and family == "no double")


def score_cube_decision(decision: Row, plies: int, evaluator: Any = None) -> Row:
    """bgengine's cube decision at ``plies`` against gnubg's: same family, |ND diff| + |DT diff|."""
    position, match = parse_xgid(decision["xgid"])
    ours = cube_decision(position, match, plies=plies, evaluator=evaluator)
    if not match.is_money:
        ours = ours.to_emg()
    return {
        "xgid": decision["xgid"], "scenario": decision["scenario"], "kind": decision["kind"],
        "ours": ours.action.value, "gnubg": decision["verdict"],
        "ours_no_double": ours.no_double, "ours_double_take": ours.double_take,
        "same_family": same_family(our_family(ours.action), decision),
        "equity_gap": abs(ours.no_double - decision["no_double"]) + abs(ours.double_take - decision["double_take"]),
    }


def summarise(scores: list[Row], group: str, measures: dict[str, Callable[[list[Row]], float]]) -> dict[str, Row]:
    """Per value of ``group`` and "all": the count and each measure."""
    groups: dict[str, list[Row]] = defaultdict(list)
    for score in scores:
        groups[score[group]].append(score)
    groups["all"] = scores
    return {name: {"n": len(rows), **{key: measure(rows) for key, measure in measures.items()}}
            for name, rows in groups.items()}


CHECKER_MEASURES = {
    "mean_mEMG_given_up": lambda rows: mean([r["given_up"] for r in rows]),
    "standard_error": lambda rows: standard_error([r["given_up"] for r in rows]),
    "best_move_found": lambda rows: mean([r["best"] for r in rows]),
}
CUBE_MEASURES = {
    "same_family": lambda rows: mean([r["same_family"] for r in rows]),
    "mean_abs_nd_plus_dt_diff": lambda rows: mean([r["equity_gap"] for r in rows]),
}


def judge(kind: str, plies: int, limit: int | None = None, race_network: Path | None = None,
          only_class: str | None = None, contact_network: Path | None = None,
          weights: Path | None = None, race_approximation: bool = False,
          judge_file: Path | None = None, crashed_weights: Path | None = None,
          no_crashed_network: bool = False, choice_weights: Path | None = None,
          shortlist: int = 3, no_choice_network: bool = False) -> tuple[dict[str, Any], list[Row]]:
    """Score every decision of a judge set (``judge_file``, else the kind's committed set; the
    first ``limit``; checker decisions of ``only_class``); (summary, per-decision scores).
    ``race_network`` / ``contact_network``: weights of networks valuing races / contact
    positions (checker play only); ``weights``: the engine's network instead of the shipped
    one; ``race_approximation``: races by the race approximation instead of the shipped race
    network; ``crashed_weights``: crashed positions by that network instead of the shipped
    one (if any); ``no_crashed_network``: by the contact network; ``choice_weights``: the
    move choice's second stage (re-valuing ``shortlist`` plays; ``no_choice_network``: none,
    not even a shipped one). The summary names the networks by digest (``networks``)."""
    path, score, measures = {
        "checker": (CHECKER_SET, score_checker_decision, CHECKER_MEASURES),
        "cube": (CUBE_SET, score_cube_decision, CUBE_MEASURES),
    }[kind]
    header, decisions = read_judge_set(judge_file or path)
    started = time.perf_counter()
    if kind != "checker" and (race_network is not None or contact_network is not None):
        raise SystemExit("--race-network and --contact-network apply to checker play only")
    evaluator, engine = chosen_evaluator(weights, crashed_weights, race_network, race_approximation,
                                         no_crashed_network, contact_network, choice_weights, shortlist,
                                         no_choice_network)
    chosen = [d for d in decisions[:limit] if only_class is None or d["class"] == only_class
              or (only_class == "crashed" and engine_class(Position.from_gnubg_id(d["position_id"])) == "crashed")]
    scores = [score(decision, plies, evaluator) for decision in chosen]
    seconds = time.perf_counter() - started
    summary: dict[str, Any] = {"set": (judge_file or path).name, "engine": engine, "judge": header["judge"],
                               "networks": evaluator_identity(evaluator or default_evaluator()),
                               "plies": plies, "seconds": round(seconds, 1)}
    if kind == "checker":
        summary["by_class"] = summarise(scores, "class", measures)
        summary["by_engine_class"] = summarise(scores, "engine_class", measures)
    else:
        summary["by_scenario"] = summarise(scores, "scenario", measures)
        summary["by_kind"] = summarise(scores, "kind", measures)
    return summary, scores


def print_summary(summary: dict[str, Any]) -> None:
    """The summary as small tables."""
    print(f"{summary['set']}: {summary['engine']} at {summary['plies']}-ply, judged by {summary['judge']} "
          f"({summary['seconds']} s)")
    for key in ("by_class", "by_engine_class", "by_scenario", "by_kind"):
        if key not in summary:
            continue
        table = summary[key]
        columns = [c for c in next(iter(table.values())) if c != "n"]
        print(f"\n  {key[3:]:30}{'n':>5}" + "".join(f"{c:>26}" for c in columns))
        for name, row in table.items():
            cells = "".join(f"{row[c]:>26.1%}" if c in ("best_move_found", "same_family") else f"{row[c]:>26.3f}"
                            for c in columns)
            print(f"  {name:30}{row['n']:>5}{cells}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("checker", "cube"))
    parser.add_argument("--plies", type=int, default=0, help="bgengine's depth")
    parser.add_argument("--limit", type=int, help="score only the first N decisions (a quick look)")
    parser.add_argument("--out", type=Path, help="write the summary and every decision's score as JSON")
    parser.add_argument("--race-network", type=Path, help="value races with this race network's weights (.npz)")
    parser.add_argument("--contact-network", type=Path, help="value contact positions with this contact network (.npz)")
    parser.add_argument("--weights", type=Path, help="the engine's network from this weights file (.npz)")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--choice-weights", type=Path,
                        help="the move choice re-values its best --shortlist plays with this contact network (.npz;"
                             " default: the shipped choice network, if any, unless --weights)")
    choice.add_argument("--no-choice-network", action="store_true", help="every play valued by the first stage alone")
    parser.add_argument("--shortlist", type=int, default=3, help="plays --choice-weights re-values")
    crashed = parser.add_mutually_exclusive_group()
    crashed.add_argument("--crashed-weights", type=Path,
                         help="value crashed positions with this crashed network's weights (.npz)")
    crashed.add_argument("--no-crashed-network", action="store_true",
                         help="value crashed positions with the contact network (as without a crashed network)")
    parser.add_argument("--class", dest="only_class", choices=("contact", "race", "crashed"),
                        help="checker decisions of one class (the set's contact or race; crashed: the contact"
                             " decisions the engine's dispatch calls crashed)")
    parser.add_argument("--race-approximation", action="store_true",
                        help="value races by the race approximation instead of the shipped race network")
    which = parser.add_mutually_exclusive_group()
    add_set_option(which)
    which.add_argument("--judge-file", type=Path, help="score against this judge-set file instead")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("A.json", "B.json"),
                        help="print the paired differences of two --out runs on the same set, score nothing")
    args = parser.parse_args()
    if args.compare:
        first, second = args.compare
        print_comparison(compare_runs(first, second, args.kind), args.kind, first, second)
        return
    judge_file = args.judge_file or chosen_set(args.kind, args.checker_set)
    summary, scores = judge(args.kind, args.plies, args.limit, args.race_network, args.only_class,
                            args.contact_network, args.weights, args.race_approximation, judge_file,
                            args.crashed_weights, args.no_crashed_network, args.choice_weights, args.shortlist,
                            args.no_choice_network)
    print_summary(summary)
    if args.out:
        write_run(args.out, sys.argv, git_commit(), summary, scores)


if __name__ == "__main__":
    main()

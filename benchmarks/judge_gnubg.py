"""gnubg's own shallower play scored on the judge sets, the yardstick beside bgengine's (needs gnubg).

    nice -n 10 python benchmarks/judge_gnubg.py checker --plies 0
    nice -n 10 python benchmarks/judge_gnubg.py checker --plies 0 --set large --out G.json
    nice -n 10 python benchmarks/judge_gnubg.py cube --plies 0

The same measures as judge.py, for gnubg at ``--plies`` with its default move filters and
pruning nets (as a player would use it) against the sets' 2-ply full-width verdicts. An
``--out`` file of checker play pairs with judge.py's (``judge.py checker --compare G.json
B.json``): bgengine against gnubg decision by decision.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gnubg_bridge import gnubg_best_moves, gnubg_cube_actions  # noqa: E402
from judge import CHECKER_MEASURES, CUBE_MEASURES, Row, print_summary, same_family, summarise  # noqa: E402
from judge_compare import write_run  # noqa: E402
from judge_data import add_set_option, chosen_set, git_commit, read_judge_set, verdict_family  # noqa: E402

from bgengine import Position, parse_xgid  # noqa: E402


def checker_scores(decisions: list[Row], plies: int) -> list[Row]:
    """What gnubg's best play at ``plies`` gives up against the set's best (mEMG)."""
    turns = [(Position.from_gnubg_id(d["position_id"]), (d["dice"][0], d["dice"][1])) for d in decisions]
    scores = []
    for decision, moves in zip(decisions, gnubg_best_moves(turns, plies=plies), strict=True):
        equities = {play["position_id"]: play["equity"] for play in decision["plays"]}
        given_up = 1000 * (max(equities.values()) - equities[moves[0].position.gnubg_id()])
        scores.append({"position_id": decision["position_id"], "dice": decision["dice"], "class": decision["class"],
                       "theirs": moves[0].text, "given_up": given_up, "best": given_up < 1e-6})
    return scores


def cube_scores(decisions: list[Row], plies: int) -> list[Row]:
    """gnubg's cube decisions at ``plies`` against the set's: same family, |ND diff| + |DT diff|."""
    verdicts = gnubg_cube_actions([parse_xgid(d["xgid"]) for d in decisions], plies=plies)
    return [{
        "xgid": d["xgid"], "scenario": d["scenario"], "kind": d["kind"],
        "same_family": same_family(verdict_family(theirs.recommendation), d),
        "equity_gap": abs(theirs.no_double - d["no_double"]) + abs(theirs.double_take - d["double_take"]),
    } for d, theirs in zip(decisions, verdicts, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("checker", "cube"))
    parser.add_argument("--plies", type=int, default=0, help="gnubg's depth")
    add_set_option(parser)
    parser.add_argument("--out", type=Path, help="also write the per-decision scores here (JSON, as judge.py's)")
    args = parser.parse_args()
    path = chosen_set(args.kind, args.checker_set)
    header, decisions = read_judge_set(path)
    summary: dict[str, Any] = {"set": path.name,
                               "engine": "gnubg (default move filters, pruning nets)", "judge": header["judge"],
                               "plies": args.plies, "seconds": "-"}
    if args.kind == "checker":
        scores = checker_scores(decisions, args.plies)
        summary["by_class"] = summarise(scores, "class", CHECKER_MEASURES)
    else:
        scores = cube_scores(decisions, args.plies)
        summary["by_scenario"] = summarise(scores, "scenario", CUBE_MEASURES)
        summary["by_kind"] = summarise(scores, "kind", CUBE_MEASURES)
    print_summary(summary)
    if args.out:
        write_run(args.out, sys.argv, git_commit(), summary, scores)


if __name__ == "__main__":
    main()

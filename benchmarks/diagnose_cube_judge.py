"""Why bgengine's cube decisions differ from the judge's: our evaluator or our cube model?

    nice -n 10 python benchmarks/diagnose_cube_judge.py gather     # gnubg's cubeless chances (needs gnubg)
    python benchmarks/diagnose_cube_judge.py analyse --ours 0 benchmarks/results/judge_cube_0ply.json
    python benchmarks/diagnose_cube_judge.py analyse --ours 2 benchmarks/results/judge_cube_2ply.json
    python benchmarks/diagnose_cube_judge.py breakdown   # our model on gnubg's 2-ply chances, where its gap sits
    python benchmarks/diagnose_cube_judge.py breakdown --scores benchmarks/results/judge_cube_2ply.json  # our own run
    python benchmarks/diagnose_cube_judge.py worst benchmarks/results/judge_cube_2ply.json --count 30  # model, chances or search?

``gather`` asks GNU Backgammon, for every decision of the cube judge set, for its cubeless
0-ply and 2-ply probabilities (no pruning nets) and its own 0-ply cubeful decision, and
keeps them in ``benchmarks/results/judge_cube_gnubg_inputs.json``. These are a measuring
stick only: nothing is fitted on them, nothing in the package reads them.

``analyse`` reads a judge run's per-decision scores (``judge.py cube --plies N --out F``) and
puts each decision through bgengine's 0-ply cube model three more ways:

* **model on gnubg's 2-ply chances** against the judge (gnubg 2-ply cubeful): what is left
  when our evaluator is replaced by gnubg's;
* **model on gnubg's 0-ply chances** against gnubg's 0-ply cubeful decision: the two cube
  models alone, same inputs, same depth;
* the same with **Janowski's efficiencies** (x = 0.68 in contact, 0.6 in bear-offs, races
  0.6..0.7 by pips, as GNU Backgammon documents its use of his formula; last rolls 0): what is left when
  the efficiency choice is the same too, i.e. structural differences of the model (match
  equity handling, Crawford rules, gammons, owned cubes, ...).

``breakdown`` takes the first of these (our model on gnubg's 2-ply chances against the judge)
apart: by scenario and cube state, by the judge's verdict family, by the efficiency class
our model used, each with the mean |ND| and |DT| differences and their signs (ours minus the
judge's), and the scenario's share of the overall mean.

``worst`` lists a 2-ply judge run's largest gaps, each split three ways: what our 0-ply model
leaves on gnubg's 2-ply chances (**model**: the cube model, and a 0-ply model against a
2-ply cubeful search), what our own 2-ply cubeless chances add through the same model
(**probabilities**: the network), and what our cubeful search adds or takes away on top
(**search**), with both engines' winning and gammon chances.

A decision that ours gets wrong (family) is blamed on the **evaluator** when our model on
gnubg's 2-ply chances gets it right, else on the **model**; model misses that disappear
with Janowski's efficiencies are **efficiency** misses (a deliberate choice: ours come from
our own rollouts), the rest **structure**.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge import our_family, same_family  # noqa: E402
from judge_data import CUBE_SET, read_judge_set, verdict_family  # noqa: E402

from bgengine import GameProbabilities, Position, cube_decision, parse_xgid  # noqa: E402
from bgengine.cube.efficiency import is_last_roll  # noqa: E402
from bgengine.position import Phase  # noqa: E402

INPUTS = Path(__file__).resolve().parent / "results" / "judge_cube_gnubg_inputs.json"
Row = dict[str, Any]


def gather() -> None:
    """gnubg's cubeless 0-ply and 2-ply chances and 0-ply cubeful decisions of the judge set."""
    from gnubg_bridge import cube_actions_query, evaluations_query, gnubg_version, run_queries

    header, decisions = read_judge_set(CUBE_SET)
    pairs = [parse_xgid(d["xgid"]) for d in decisions]
    positions = [position for position, _ in pairs]
    zero, two, cube0 = run_queries(evaluations_query(positions, 0), evaluations_query(positions, 2),
                                   cube_actions_query(pairs, 0))
    rows = [{"xgid": d["xgid"], "gnubg_0ply": list(e0.probabilities), "gnubg_2ply": list(e2.probabilities),
             "gnubg_class": e0.position_class,
             "gnubg_0ply_cube": {"no_double": c.no_double, "double_take": c.double_take,
                                 "double_pass": c.double_pass, "verdict": c.recommendation}}
            for d, e0, e2, c in zip(decisions, zero, two, cube0, strict=True)]
    INPUTS.write_text(json.dumps({"gnubg": gnubg_version(), "set": CUBE_SET.name,
                                  "command": "python benchmarks/diagnose_cube_judge.py gather",
                                  "what": "gnubg's cubeless probabilities (no pruning nets) and 0-ply cubeful "
                                          "decisions of the cube judge set: a measuring stick only",
                                  "rows": rows}, indent=0))
    print(f"{len(rows)} decisions -> {INPUTS}")


def janowski_efficiency(position: Position) -> float:
    """Janowski's suggested x as GNU Backgammon documents using it (a diagnostic, not ours);
    a last roll keeps x = 0 (the rules' dead cube, not an efficiency choice)."""
    if is_last_roll(position):
        return 0.0
    phase = position.phase
    if phase is Phase.CONTACT:
        return 0.68
    if phase is Phase.BEAROFF:
        return 0.6
    pips = position.pip_counts()[0]
    return min(max(0.6 + 0.1 * (pips - 40) / 80, 0.6), 0.7)


def model_decision(xgid: str, probabilities: list[float], efficiency: float | None = None) -> tuple[str, float, float]:
    """Our 0-ply model's (family, no double, double/take) on given chances, EMG in matches."""
    position, match = parse_xgid(xgid)
    decision = cube_decision(position, match, probabilities=GameProbabilities.from_estimate(probabilities),
                             cube_efficiency=efficiency)
    if not match.is_money:
        decision = decision.to_emg()
    return our_family(decision.action), decision.no_double, decision.double_take or 0.0


def gap(no_double: float, double_take: float, reference: Row) -> float:
    return abs(no_double - reference["no_double"]) + abs(double_take - reference["double_take"])


def analyse(ours_path: Path, ours_plies: int) -> dict[str, Any]:
    """Per scenario and class: our misses, and how many stay with gnubg's chances or Janowski's x."""
    _, decisions = read_judge_set(CUBE_SET)
    ours = {row["xgid"]: row for row in json.loads(ours_path.read_text())["scores"]}
    inputs = {row["xgid"]: row for row in json.loads(INPUTS.read_text())["rows"]}
    rows = []
    for d in decisions:
        x, mine, given = d["xgid"], ours[d["xgid"]], inputs[d["xgid"]]
        position, _ = parse_xgid(x)
        g2 = model_decision(x, given["gnubg_2ply"])
        g2j = model_decision(x, given["gnubg_2ply"], janowski_efficiency(position))
        g0 = model_decision(x, given["gnubg_0ply"])
        g0j = model_decision(x, given["gnubg_0ply"], janowski_efficiency(position))
        cube0 = dict(given["gnubg_0ply_cube"], family=verdict_family(given["gnubg_0ply_cube"]["verdict"]))
        row = {
            "xgid": x, "scenario": d["scenario"], "kind": d["kind"], "class": position.phase.name.lower(),
            "gnubg": d["verdict"], "ours": mine["ours"], "ours_ok": mine["same_family"], "ours_gap": mine["equity_gap"],
            "g2_family": g2[0], "g2_ok": same_family(g2[0], d), "g2_gap": gap(g2[1], g2[2], d),
            "g2j_ok": same_family(g2j[0], d), "g2j_gap": gap(g2j[1], g2j[2], d),
            "g0_ok": same_family(g0[0], cube0), "g0_gap": gap(g0[1], g0[2], cube0),
            "g0j_ok": same_family(g0j[0], cube0), "g0j_gap": gap(g0j[1], g0j[2], cube0),
        }
        if not row["ours_ok"]:
            row["cause"] = ("evaluator" if row["g2_ok"] else "model: efficiency" if row["g2j_ok"]
                            else "model: structure")
        rows.append(row)
    return {"ours_plies": ours_plies, "rows": rows}


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def print_report(result: dict[str, Any]) -> None:
    rows = result["rows"]
    groups: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        groups[row["scenario"]].append(row)
        groups[f"  class {row['class']}"].append(row)
        groups[f"  kind {row['kind']}"].append(row)
    groups["all"] = rows
    print(f"ours at {result['ours_plies']}-ply; same family % / mean |ND|+|DT| gap; misses by cause")
    print(f"{'group':32}{'n':>4}{'ours':>15}{'model@g2':>15}{'+Janowski x':>15}"
          f"{'g0 vs g0cube':>15}{'+Janowski x':>15}   evaluator / efficiency / structure")
    for name, group in groups.items():
        causes = Counter(r.get("cause") for r in group if not r["ours_ok"])

        def cell(ok: str, gap_key: str) -> str:
            return f"{_mean([r[ok] for r in group]):6.1%} /{_mean([r[gap_key] for r in group]):6.3f}"

        print(f"{name:32}{len(group):>4}{cell('ours_ok', 'ours_gap'):>15}{cell('g2_ok', 'g2_gap'):>15}"
              f"{cell('g2j_ok', 'g2j_gap'):>15}{cell('g0_ok', 'g0_gap'):>15}{cell('g0j_ok', 'g0j_gap'):>15}"
              f"   {causes['evaluator']:3} / {causes['model: efficiency']:3} / {causes['model: structure']:3}")


def breakdown(scores: Path | None = None) -> list[Row]:
    """Our 0-ply model on gnubg's 2-ply chances (or, with ``scores``, that judge run's own
    decisions) against the judge, one row per decision, with the signed No double and
    Double/Take differences (ours minus the judge's)."""
    _, decisions = read_judge_set(CUBE_SET)
    inputs = {row["xgid"]: row for row in json.loads(INPUTS.read_text())["rows"]}
    ours = {row["xgid"]: row for row in json.loads(scores.read_text())["scores"]} if scores else {}
    rows = []
    for d in decisions:
        position, match = parse_xgid(d["xgid"])
        chances = GameProbabilities.from_estimate(inputs[d["xgid"]]["gnubg_2ply"])
        decision = cube_decision(position, match, probabilities=chances)
        if not match.is_money:
            decision = decision.to_emg()
        row = {"xgid": d["xgid"], "scenario": d["scenario"], "cube": d["cube_owner"], "family": d["family"],
               "class": decision.cube_efficiency_class, "ok": same_family(our_family(decision.action), d),
               "nd": decision.no_double - d["no_double"], "dt": (decision.double_take or 0.0) - d["double_take"]}
        if scores:
            run = ours[d["xgid"]]
            row.update(ok=run["same_family"], nd=run["ours_no_double"] - d["no_double"],
                       dt=(run["ours_double_take"] or 0.0) - d["double_take"])
        rows.append(row)
    return rows


def print_breakdown(rows: list[Row]) -> None:
    total = len(rows)
    for title, key in (("scenario, cube", lambda r: f"{r['scenario']}, cube {r['cube']}"),
                       ("judge's verdict family", lambda r: r["family"]), ("efficiency class", lambda r: r["class"])):
        groups: dict[str, list[Row]] = defaultdict(list)
        for row in rows:
            groups[key(row)].append(row)
        groups["all"] = rows
        print(f"\n{title:44}{'n':>4}{'same':>8}{'gap':>7}{'share':>7}{'|ND|':>7}{'|DT|':>7}{'ND':>8}{'DT':>8}")
        for name, group in sorted(groups.items()):
            gaps = [abs(r["nd"]) + abs(r["dt"]) for r in group]
            print(f"{name:44}{len(group):>4}{_mean([r['ok'] for r in group]):8.1%}{_mean(gaps):7.3f}"
                  f"{sum(gaps) / total:7.3f}{_mean([abs(r['nd']) for r in group]):7.3f}"
                  f"{_mean([abs(r['dt']) for r in group]):7.3f}{_mean([r['nd'] for r in group]):+8.3f}"
                  f"{_mean([r['dt'] for r in group]):+8.3f}")


def worst(scores: Path, count: int) -> list[Row]:
    """The ``count`` largest gaps of a 2-ply judge run (with its ND/DT), each split into what
    our model leaves on gnubg's 2-ply chances (**model**), what our 2-ply cubeless chances add
    through the same model (**probabilities**) and what the cubeful search adds or takes
    away on top (**search**); "carried by" names the largest part."""
    from bgengine import evaluate

    _, decisions = read_judge_set(CUBE_SET)
    by_xgid = {d["xgid"]: d for d in decisions}
    inputs = {row["xgid"]: row for row in json.loads(INPUTS.read_text())["rows"]}
    runs = sorted(json.loads(scores.read_text())["scores"], key=lambda row: -row["equity_gap"])[:count]
    rows = []
    for run in runs:
        d, given = by_xgid[run["xgid"]], inputs[run["xgid"]]
        position, match = parse_xgid(d["xgid"])
        ours_2ply = list(evaluate(position, plies=2).probabilities)
        ours_0ply = list(evaluate(position).probabilities)
        on_ours = model_decision(d["xgid"], ours_2ply)
        on_gnubg = model_decision(d["xgid"], given["gnubg_2ply"])
        parts = {"model": gap(on_gnubg[1], on_gnubg[2], d),
                 "probabilities": gap(on_ours[1], on_ours[2], d) - gap(on_gnubg[1], on_gnubg[2], d),
                 "search": run["equity_gap"] - gap(on_ours[1], on_ours[2], d)}
        rows.append({"xgid": d["xgid"], "scenario": d["scenario"], "cube": d["cube_owner"], "judge": d["verdict"],
                     "judge_nd": d["no_double"], "judge_dt": d["double_take"], "ours": run["ours"],
                     "ours_nd": run["ours_no_double"], "ours_dt": run["ours_double_take"], "gap": run["equity_gap"],
                     "parts": parts, "carried_by": max(parts, key=lambda k: parts[k]),
                     "ours_0ply": ours_0ply, "ours_2ply": ours_2ply, "gnubg_0ply": given["gnubg_0ply"],
                     "gnubg_2ply": given["gnubg_2ply"], "model_on_gnubg_2ply": on_gnubg[0]})
    return rows


def print_worst(rows: list[Row]) -> None:
    def chances(values: list[float]) -> str:
        return f"{values[0]:.3f} {values[1]:.3f} {values[3]:.3f}"

    print(f"{'gap':>6} {'model':>6} {'prob':>6} {'search':>6}  carried by     scenario / cube / judge -> ours"
          "   (win, win gammon, lose gammon: ours 0-ply | ours 2-ply | gnubg 2-ply)")
    for r in rows:
        parts = r["parts"]
        print(f"{r['gap']:6.3f} {parts['model']:6.3f} {parts['probabilities']:+6.3f} {parts['search']:+6.3f}  "
              f"{r['carried_by']:13}  {r['scenario']}, {r['cube']}: {r['judge']} ({r['judge_nd']:+.3f} "
              f"{r['judge_dt']:+.3f}) -> {r['ours']} ({r['ours_nd']:+.3f} {r['ours_dt']:+.3f})\n"
              f"{'':44}{chances(r['ours_0ply'])} | {chances(r['ours_2ply'])} | {chances(r['gnubg_2ply'])}"
              f"   {r['xgid']}")
    carried = Counter(r["carried_by"] for r in rows)
    print(f"{len(rows)} decisions, {sum(r['gap'] for r in rows):.2f} of gap: carried by "
          + ", ".join(f"{k} {v}" for k, v in carried.most_common())
          + "; parts summed: " + ", ".join(f"{k} {sum(r['parts'][k] for r in rows):+.2f}"
                                           for k in ("model", "probabilities", "search")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("gather")
    b = sub.add_parser("breakdown")
    b.add_argument("--scores", type=Path, help="break down this judge.py cube --out run instead (needs its ND/DT)")
    w = sub.add_parser("worst")
    w.add_argument("scores", type=Path, help="a judge.py cube --plies 2 --out file (with ND/DT)")
    w.add_argument("--count", type=int, default=30)
    a = sub.add_parser("analyse")
    a.add_argument("scores", type=Path, help="a judge.py cube --out file")
    a.add_argument("--ours", type=int, required=True, help="the plies of that judge run")
    a.add_argument("--out", type=Path, help="write every decision's row as JSON")
    args = parser.parse_args()
    if args.command == "gather":
        gather()
        return
    if args.command == "breakdown":
        what = (f"the judge run {args.scores}" if args.scores
                else "our 0-ply model on gnubg's 2-ply cubeless chances")
        print(f"{what} against gnubg 2-ply cubeful (EMG in matches); share: the group's part of the overall"
              " mean gap; ND, DT: mean signed differences, ours - judge's; class: our model's at the root")
        print_breakdown(breakdown(args.scores))
        return
    if args.command == "worst":
        print_worst(worst(args.scores, args.count))
        return
    result = analyse(args.scores, args.ours)
    print_report(result)
    if args.out:
        args.out.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()

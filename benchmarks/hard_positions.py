"""Rollouts of hard positions by the engine against rollouts with GNU Backgammon's own 0-ply play (issue 13).

Both sides of a rollout are played by the engine, so where it plays badly the rollout is
wrong however many trials it runs. This measures how far: every position of a fixed set
(``hard_position_set.py``) is rolled out cubeless (money) with the engine's 0-ply play and
with gnubg's, and the equities are compared per category. gnubg's side is run once and
committed, so the engine side (any network) compares without gnubg:

    python benchmarks/hard_positions.py make --seed 1                # the set (no gnubg)
    nice -n 10 python benchmarks/hard_positions.py gnubg --seed 1 --workers 2
    python benchmarks/hard_positions.py engine --seed 1 [--weights W.npz] [--crashed-weights C.npz] [--race-approximation] [--json OUT]
    python benchmarks/hard_positions.py opening --seed 1             # 0-ply gammon rates vs a long rollout

gnubg is a measuring stick only: nothing here trains on its output.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import datetime
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hard_position_set import (  # noqa: E402
    BACK_OR_HOLDING, CATEGORIES, GNUBG_FILE, MIN_PLIES, POSITIONS_FILE, QUOTAS, RULES, make_set, read_positions,
)
from engine_networks import chosen_evaluator  # noqa: E402
from judge_data import git_commit  # noqa: E402

from bgengine import Position, RolloutSettings, evaluate, rollout  # noqa: E402
from bgengine.evaluation.evaluator import NetworkEvaluator  # noqa: E402

Row = dict[str, Any]
#: An equity difference above this counts as a miss (issue 13: "none above 0.15").
MISS = 0.15
CLOSED_OUT_EXAMPLE = "27YBAAAAAGAAAA"
#: gnubg's trials and variance reduction per category. Its 0-ply variance reduction costs
#: about 20x a plain trial; in back and holding games it shrinks the variance by far less
#: than that (docs/gnubg-comparison.md, "Hard positions"), so there more plain trials win.
GNUBG_PLAN = {"back_game": (False, 3888), "deep_holding": (False, 3888)}
GNUBG_DEFAULT_PLAN = (True, 324)
ENGINE_TRIALS = 648
OPENING_TRIALS = 5184


def _stamp(command: Sequence[str]) -> Row:
    return {"command": " ".join(["python", *command]), "bgengine_commit": git_commit(),
            "date": datetime.date.today().isoformat()}


# ----- make -----------------------------------------------------------------------------


def command_make(args: argparse.Namespace) -> None:
    """Choose the set and write positions.json."""
    rows = make_set(args.seed)
    back = sum(row["category"] in BACK_OR_HOLDING for row in rows)
    document = {**_stamp(sys.argv), "seed": args.seed, "rules": RULES, "min_plies": MIN_PLIES, "quotas": QUOTAS,
                "counts": {kind: sum(r["category"] == kind for r in rows) for kind in CATEGORIES},
                "back_or_holding": back, "positions": rows}
    POSITIONS_FILE.parent.mkdir(parents=True, exist_ok=True)
    POSITIONS_FILE.write_text(json.dumps(document, indent=1) + "\n")
    print(f"{len(rows)} positions ({back} back or deep holding games) -> {POSITIONS_FILE}")


# ----- gnubg ----------------------------------------------------------------------------


def gnubg_plan(kind: str) -> tuple[bool, int]:
    """(variance reduction, trials) of gnubg's rollout of a position of category ``kind``."""
    return GNUBG_PLAN.get(kind, GNUBG_DEFAULT_PLAN)


def _gnubg_batch(batch: list[tuple[int, Row]], seed: int) -> list[Row]:
    from gnubg_bridge import gnubg_rollouts

    results = []
    for index, row in batch:
        reduce, trials = gnubg_plan(row["category"])
        done = gnubg_rollouts([(Position.from_gnubg_id(row["position_id"]), 0, trials, seed + index)],
                              variance_reduction=reduce)[0]
        results.append({"position_id": row["position_id"], "category": row["category"], "seed": seed + index,
                        "trials": trials, "variance_reduction": reduce, "equity": done.equity,
                        "equity_standard_error": done.equity_standard_error,
                        "probabilities": list(done.probabilities),
                        "probability_standard_errors": list(done.probability_standard_errors),
                        "play": done.play, "cpu_seconds": round(done.cpu_seconds, 2)})
    return results


def command_gnubg(args: argparse.Namespace) -> None:
    """Roll out every position with gnubg's own 0-ply play; results written as they come (resumable)."""
    from gnubg_bridge import gnubg_version

    rows = read_positions()[: args.limit]
    done: dict[str, Row] = {}
    if GNUBG_FILE.exists() and not args.restart:
        previous = json.loads(GNUBG_FILE.read_text())
        if previous["settings"]["seed"] == args.seed:
            done = {r["position_id"]: r for r in previous["results"]}
    todo = [(i, row) for i, row in enumerate(rows) if row["position_id"] not in done]
    header = {**_stamp(sys.argv), "gnubg_version": gnubg_version(), "settings": {
        "seed": args.seed, "seed_of_position_i": "seed + i (i: its index in positions.json)",
        "play": "gnubg 0-ply checker play for both sides (its default filters), cubeless money, no truncation,"
                " quasi-random dice (mersenne), one thread, bear-off database at the end",
        "plan": {kind: dict(zip(("variance_reduction", "trials"), gnubg_plan(kind))) for kind in CATEGORIES}}}
    started = time.perf_counter()
    # one position per gnubg process: each finished position is saved at once
    with cf.ThreadPoolExecutor(args.workers) as pool:
        futures = [pool.submit(_gnubg_batch, [item], args.seed) for item in todo]
        for future in cf.as_completed(futures):
            for result in future.result():
                done[result["position_id"]] = result
                print(f"{len(done)}/{len(rows)} {result['position_id']} {result['category']}: "
                      f"{result['equity']:+.3f} ± {result['equity_standard_error']:.3f} "
                      f"({result['cpu_seconds']:.0f} s CPU)", flush=True)
            order = [r["position_id"] for r in rows if r["position_id"] in done]
            GNUBG_FILE.write_text(json.dumps({**header, "wall_seconds": round(time.perf_counter() - started),
                                              "results": [done[i] for i in order]}, indent=1) + "\n")


# ----- engine ---------------------------------------------------------------------------


def engine_evaluator(weights: Path | None, race_approximation: bool,
                     crashed_weights: Path | None = None) -> NetworkEvaluator | None:
    """The engine's evaluator: the shipped one (None), or another contact network
    (``weights``, without the shipped choice network made for the shipped one) and/or crashed
    network (``crashed_weights``; else the shipped crashed network), or races by the race
    approximation."""
    return chosen_evaluator(weights, crashed_weights, race_approximation=race_approximation)[0]


def engine_rollouts(rows: Sequence[Row], trials: int, seed: int, evaluator: Any = None) -> list[Row]:
    """Roll out each row's position with the engine (0-ply play, variance reduction, cubeless, seed + index)."""
    results = []
    for index, row in enumerate(rows):
        settings = RolloutSettings(trials=trials, seed=seed + index, variance_reduction=True, checker_plies=0)
        done = rollout(Position.from_gnubg_id(row["position_id"]), settings=settings, evaluator=evaluator)
        results.append({"position_id": row["position_id"], "category": row["category"], "seed": seed + index,
                        "trials": done.trials, "equity": done.equity,
                        "equity_standard_error": done.equity_standard_error,
                        "probabilities": list(done.probabilities.as_tuple()),
                        "probability_standard_errors": list(done.probability_standard_errors),
                        "seconds": round(done.seconds, 2)})
    return results


def _summary(pairs: list[tuple[Row, Row]]) -> Row:
    differences = [abs(ours["equity"] - theirs["equity"]) for ours, theirs in pairs]
    # what mean |difference| noise alone would give if the two agreed: E|N(0, s)| = s sqrt(2/pi)
    noise = [math.sqrt(2 / math.pi) * math.hypot(ours["equity_standard_error"], theirs["equity_standard_error"])
             for ours, theirs in pairs]
    return {"n": len(pairs), "mean_abs_difference": statistics.fmean(differences), "max_abs_difference": max(differences),
            "above_0.15": sum(d > MISS for d in differences),
            "mean_engine_se": statistics.fmean(o["equity_standard_error"] for o, _ in pairs),
            "mean_gnubg_se": statistics.fmean(t["equity_standard_error"] for _, t in pairs),
            "noise_floor": statistics.fmean(noise)}


def compare(engine: Sequence[Row], gnubg: Sequence[Row]) -> dict[str, Row]:
    """Per category (in CATEGORIES order, then "back or holding" and "all"): mean and max |equity
    difference|, how many above 0.15, both mean standard errors and the noise floor."""
    theirs = {row["position_id"]: row for row in gnubg}
    missing = [row["position_id"] for row in engine if row["position_id"] not in theirs]
    if missing:
        raise SystemExit(f"no gnubg rollout of {', '.join(missing)}: run the gnubg subcommand")
    pairs = [(row, theirs[row["position_id"]]) for row in engine]
    groups = {kind: [p for p in pairs if p[0]["category"] == kind] for kind in CATEGORIES}
    groups["back or holding"] = [p for p in pairs if p[0]["category"] in BACK_OR_HOLDING]
    groups["all"] = pairs
    return {name: _summary(members) for name, members in groups.items() if members}


def closed_out_check(engine: Sequence[Row], gnubg: Sequence[Row], evaluator: Any = None) -> Row | None:
    """The closed-out example's win chance: 0-ply, the engine's rollout, gnubg's rollout (None if not in the set)."""
    ours = next((r for r in engine if r["position_id"] == CLOSED_OUT_EXAMPLE), None)
    theirs = next((r for r in gnubg if r["position_id"] == CLOSED_OUT_EXAMPLE), None)
    if ours is None:
        return None
    zero = evaluate(Position.from_gnubg_id(CLOSED_OUT_EXAMPLE), evaluator=evaluator).probabilities.win
    return {"position_id": CLOSED_OUT_EXAMPLE, "zero_ply_win": zero, "rollout_win": ours["probabilities"][0],
            "rollout_win_se": ours["probability_standard_errors"][0],
            "gnubg_rollout_win": None if theirs is None else theirs["probabilities"][0]}


def print_table(table: dict[str, Row]) -> None:
    """The comparison as a small table."""
    print(f"{'category':<18}{'n':>4}{'mean |diff|':>13}{'max':>8}{'> 0.15':>8}{'engine se':>11}{'gnubg se':>10}"
          f"{'noise floor':>13}")
    for name, row in table.items():
        print(f"{name:<18}{row['n']:>4}{row['mean_abs_difference']:>13.3f}{row['max_abs_difference']:>8.3f}"
              f"{row['above_0.15']:>8}{row['mean_engine_se']:>11.3f}{row['mean_gnubg_se']:>10.3f}"
              f"{row['noise_floor']:>13.3f}")


def command_engine(args: argparse.Namespace) -> None:
    """Roll out the set with the engine (or read an earlier run's rollouts) and compare with gnubg.json."""
    evaluator = engine_evaluator(args.weights, args.race_approximation, args.crashed_weights)
    engine_name = (f"bgengine, network {args.weights or 'shipped'}, crashed network {args.crashed_weights or 'shipped'},"
                   f" races by "
                   f"{'the race approximation' if args.race_approximation else 'the race network'}")
    if args.rollouts is not None:
        document = json.loads(args.rollouts.read_text())
        engine_name, engine = document["engine"], document["rollouts"]
    else:
        rows = read_positions()[: args.limit]
        started = time.process_time()
        engine = engine_rollouts(rows, args.trials, args.seed, evaluator)
        document = {**_stamp(sys.argv), "engine": engine_name, "trials": args.trials, "seed": args.seed,
                    "cpu_seconds": round(time.process_time() - started), "rollouts": engine}
        if args.json:  # the rollouts first: they are the expensive part
            args.json.write_text(json.dumps(document, indent=1) + "\n")
    gnubg = json.loads(GNUBG_FILE.read_text())["results"]
    table = compare(engine, gnubg)
    closed = closed_out_check(engine, gnubg, evaluator)
    print(f"{engine_name}: {document['trials']} trials a position, 0-ply play, variance reduction,"
          f" seed {document['seed']} + index; {document['cpu_seconds']} s CPU")
    print_table(table)
    if closed is not None:
        gnubg_win = closed["gnubg_rollout_win"]
        print(f"closed out {CLOSED_OUT_EXAMPLE}: 0-ply wins {closed['zero_ply_win']:.1%}, engine rollout "
              f"{closed['rollout_win']:.1%} ± {closed['rollout_win_se']:.1%}"
              + ("" if gnubg_win is None else f", gnubg rollout {gnubg_win:.1%}")
              + f" (goal: 0-ply within 5 points of the rollout: "
                f"{'met' if abs(closed['zero_ply_win'] - closed['rollout_win']) <= 0.05 else 'not met'})")
    if args.json:
        args.json.write_text(json.dumps({**document, "table": table, "closed_out": closed}, indent=1) + "\n")


# ----- opening --------------------------------------------------------------------------


def command_opening(args: argparse.Namespace) -> None:
    """The engine's 0-ply gammon rates at the opening against its own long rollout of the opening.

    Both value the starting position before any roll, doubles included (``evaluate``'s
    question), so the rollout is not told that it is the first roll of a game."""
    evaluator = engine_evaluator(args.weights, args.race_approximation, args.crashed_weights)
    start = Position.initial()
    zero = evaluate(start, evaluator=evaluator).probabilities
    settings = RolloutSettings(trials=args.trials, seed=args.seed, variance_reduction=True, checker_plies=args.plies)
    long = rollout(start, settings=settings, evaluator=evaluator)
    print(f"opening: {args.trials} trials, {args.plies}-ply play, variance reduction, any first roll,"
          f" seed {args.seed}, {long.seconds:.0f} s")
    names = ("win", "win gammon", "win backgammon", "lose gammon", "lose backgammon")
    for i, name in enumerate(names):
        ours, rolled, error = zero.as_tuple()[i], long.probabilities.as_tuple()[i], long.probability_standard_errors[i]
        verdict = "" if i not in (1, 3) else f"  goal |diff| <= 1.5 points: {'met' if abs(ours - rolled) <= 0.015 else 'not met'}"
        print(f"  {name:<16} 0-ply {ours:6.1%}  rollout {rolled:6.1%} ± {error:.1%}{verdict}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("make", help="choose the set (positions.json)")
    make.add_argument("--seed", type=int, default=1)
    gnubg = commands.add_parser("gnubg", help="gnubg's rollouts of the set (gnubg.json)")
    gnubg.add_argument("--seed", type=int, default=1)
    gnubg.add_argument("--workers", type=int, default=1, help="gnubg processes at once")
    gnubg.add_argument("--limit", type=int, help="only the first N positions")
    gnubg.add_argument("--restart", action="store_true", help="ignore results already in gnubg.json")
    engine = commands.add_parser("engine", help="the engine's rollouts, compared with gnubg.json")
    opening = commands.add_parser("opening", help="0-ply opening gammon rates against a long rollout")
    for sub, trials in ((engine, ENGINE_TRIALS), (opening, OPENING_TRIALS)):
        sub.add_argument("--seed", type=int, default=1)
        sub.add_argument("--trials", type=int, default=trials)
        sub.add_argument("--weights", type=Path, help="the engine's network from this weights file (.npz)")
        sub.add_argument("--crashed-weights", type=Path,
                         help="crashed positions by this crashed network's weights (.npz; default the shipped one)")
        sub.add_argument("--race-approximation", action="store_true",
                         help="value races by the race approximation instead of the shipped race network")
    engine.add_argument("--limit", type=int, help="only the first N positions")
    engine.add_argument("--json", type=Path, help="write every rollout and the table as JSON")
    engine.add_argument("--rollouts", type=Path, help="compare the rollouts of an earlier --json instead of rolling out")
    opening.add_argument("--plies", type=int, default=0, help="the rollout's checker-play depth")
    args = parser.parse_args(argv)
    {"make": command_make, "gnubg": command_gnubg, "engine": command_engine, "opening": command_opening}[args.command](args)


if __name__ == "__main__":
    main()

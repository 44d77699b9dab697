"""How the engine's choices compare with GNU Backgammon's (gnubg as a measuring stick only).

Over seeded positions from self-play (sample_positions.py): checker play (same best move,
and the equity our choice gives up in gnubg's eyes) and cubeless probabilities at 0-ply
(or --plies), cube decisions at 0-ply at a few scores (same proper action, equity gaps).
Skips when gnubg is absent.

Full run, printing a table and writing the raw results:
    nice .venv/bin/python benchmarks/bench_vs_gnubg.py --turns 400 --seed 1 \
        --out benchmarks/results/vs_gnubg_0ply.json
    (the same with --plies 1 --out benchmarks/results/vs_gnubg_1ply.json)
Quick check and timing of the bridge under pytest:
    .venv/bin/python -m pytest benchmarks/bench_vs_gnubg.py --benchmark-enable -s
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gnubg_bridge import (  # noqa: E402
    doubler_choice,
    gnubg_available,
    gnubg_best_moves,
    gnubg_cube_actions,
    gnubg_evaluations,
    gnubg_version,
)
from sample_positions import sampled_turns  # noqa: E402

from bgengine import MatchState, Position, cube_decision, evaluate  # noqa: E402
from bgengine.evaluation.evaluator import default_evaluator, rank_legal_moves  # noqa: E402
from bgengine.probabilities import FIELD_NAMES  # noqa: E402

#: Scores for the cube comparison, each seen from player 0 on roll.
CUBE_STATES = {
    "money, centred": MatchState(),
    "money, roller owns 2": MatchState(cube_value=2, cube_owner=0),
    "7-point, 0-0": MatchState(match_length=7),
    "7-point, 4-away 2-away": MatchState(match_length=7, score=(3, 5)),
    "7-point, 2-away 4-away": MatchState(match_length=7, score=(5, 3)),
}


def compare_checker_play(turns: list[tuple[Position, tuple[int, int]]], plies: int = 0) -> list[dict[str, Any]]:
    """One row per turn with a real choice (two or more legal moves): our best vs gnubg's, gnubg's equities.

    At ``plies`` > 0 both engines search only their own candidates that deep: a move outside
    gnubg's candidates keeps its 0-ply equity (``gnubg_plies_of_our_move`` says which).
    """
    evaluator = default_evaluator()
    rows = []
    for (position, dice), gnubg_moves in zip(turns, gnubg_best_moves(turns, plies=plies), strict=True):
        legal = position.legal_moves(dice)
        if len(legal) < 2:
            continue
        if len(gnubg_moves) != len(legal):
            raise AssertionError(f"{position.gnubg_id()} {dice}: gnubg lists {len(gnubg_moves)} moves, we {len(legal)}")
        ranked = rank_legal_moves(legal, plies=plies, evaluator=evaluator)
        ours = ranked[0]
        gnubg_rated = {m.position: m for m in gnubg_moves}
        our_equity = {m.position: m.equity for m in ranked}
        best = gnubg_moves[0]
        rows.append({
            "position_id": position.gnubg_id(), "dice": list(dice), "legal_moves": len(legal),
            "ours": str(ours.move), "gnubg": best.text, "same": ours.position == best.position,
            "gnubg_equity_of_gnubg_move": best.equity, "gnubg_equity_of_our_move": gnubg_rated[ours.position].equity,
            "gnubg_plies_of_our_move": gnubg_rated[ours.position].plies,
            "our_equity_of_our_move": ours.equity, "our_equity_of_gnubg_move": our_equity[best.position],
        })
    return rows


def compare_probabilities(positions: list[Position], plies: int = 0) -> list[dict[str, Any]]:
    """One row per position: our 5-vector and gnubg's at ``plies`` (player on roll, before the roll)."""
    evaluator = default_evaluator()
    return [
        {"position_id": p.gnubg_id(), "phase": p.phase.value, "gnubg_class": theirs.position_class,
         "ours": list(evaluate(p, plies=plies, evaluator=evaluator).probabilities), "gnubg": list(theirs.probabilities)}
        for p, theirs in zip(positions, gnubg_evaluations(positions, plies=plies), strict=True)
    ]


def _gnubg_value_of(choice: str, no_double: float, double_take: float, double_pass: float) -> float:
    """The doubler's equity (gnubg's figures) of a doubler choice, the taker answering right."""
    return no_double if choice != "double" else min(double_take, double_pass)


def compare_cube(positions: list[Position]) -> list[dict[str, Any]]:
    """One row per (position, score): our 0-ply cube decision and gnubg's, in gnubg's units."""
    evaluator = default_evaluator()
    requests = [(p, state) for p in positions for state in CUBE_STATES.values()]
    names = [name for _ in positions for name in CUBE_STATES]
    rows = []
    for (position, state), name, theirs in zip(requests, names, gnubg_cube_actions(requests, plies=0), strict=True):
        ours = cube_decision(position, state, evaluator=evaluator)
        if not state.is_money:
            ours = ours.to_emg()
        our_choice, gnubg_choice = doubler_choice(ours.action.value), theirs.doubler_choice
        best = max(theirs.no_double, min(theirs.double_take, theirs.double_pass))
        taker_best = min(theirs.double_take, theirs.double_pass)
        our_taker_value = theirs.double_take if ours.action.response == "take" else theirs.double_pass
        rows.append({
            "position_id": position.gnubg_id(), "score": name,
            "ours": ours.action.value, "gnubg": theirs.recommendation,
            "same_action": our_choice == gnubg_choice and ours.action.response == theirs.response,
            "same_doubler_choice": our_choice == gnubg_choice,
            "either_doubles": our_choice != "no double" or gnubg_choice != "no double",
            "our_no_double": ours.no_double, "gnubg_no_double": theirs.no_double,
            "our_double_take": ours.double_take, "gnubg_double_take": theirs.double_take,
            "doubler_error_in_gnubg_eyes": best - _gnubg_value_of(our_choice, theirs.no_double, theirs.double_take,
                                                                  theirs.double_pass),
            "taker_error_in_gnubg_eyes": our_taker_value - taker_best,
        })
    return rows


def _mean(values: list[float]) -> float:
    return float(np.mean(values)) if values else float("nan")


def summarise(checker: list[dict], probabilities: list[dict], cube: list[dict]) -> dict[str, Any]:
    """The headline figures: agreement rates with their sample sizes, mean differences."""
    errors = [r["gnubg_equity_of_gnubg_move"] - r["gnubg_equity_of_our_move"] for r in checker]
    ours = np.array([r["ours"] for r in probabilities])
    theirs = np.array([r["gnubg"] for r in probabilities])
    contact = np.array([r["phase"] == "contact" for r in probabilities])
    summary: dict[str, Any] = {
        "checker_play": {
            "turns_with_a_choice": len(checker),
            "same_best_move": _mean([r["same"] for r in checker]),
            "within_0.01_in_gnubg_eyes": _mean([e <= 0.01 for e in errors]),
            "mean_equity_given_up_in_gnubg_eyes": _mean(errors),
            "largest_equity_given_up_in_gnubg_eyes": max(errors, default=float("nan")),
        },
        "probabilities": {
            "positions": len(probabilities), "contact_positions": int(contact.sum()),
            "mean_abs_difference": dict(zip(FIELD_NAMES, np.abs(ours - theirs).mean(axis=0).tolist())),
            "mean_abs_difference_contact": dict(
                zip(FIELD_NAMES, np.abs(ours[contact] - theirs[contact]).mean(axis=0).tolist())),
            "mean_abs_difference_no_contact": dict(
                zip(FIELD_NAMES, np.abs(ours[~contact] - theirs[~contact]).mean(axis=0).tolist())),
        },
        "cube": {},
    }
    for name in [*CUBE_STATES, "all"]:
        rows = [r for r in cube if name in ("all", r["score"])]
        close = [r for r in rows if r["either_doubles"]]
        summary["cube"][name] = {
            "decisions": len(rows), "same_action": _mean([r["same_action"] for r in rows]),
            "same_doubler_choice": _mean([r["same_doubler_choice"] for r in rows]),
            "decisions_where_either_doubles": len(close),
            "same_action_where_either_doubles": _mean([r["same_action"] for r in close]),
            "mean_abs_no_double_difference": _mean([abs(r["our_no_double"] - r["gnubg_no_double"]) for r in rows]),
            "mean_abs_double_take_difference": _mean(
                [abs(r["our_double_take"] - r["gnubg_double_take"]) for r in rows]),
            "mean_doubler_error_in_gnubg_eyes": _mean([r["doubler_error_in_gnubg_eyes"] for r in rows]),
            "mean_taker_error_in_gnubg_eyes": _mean([r["taker_error_in_gnubg_eyes"] for r in rows]),
        }
    return summary


def print_table(summary: dict[str, Any], plies: int = 0) -> None:
    play, probs = summary["checker_play"], summary["probabilities"]
    print(f"\nChecker play, {plies}-ply, {play['turns_with_a_choice']} turns with a choice:")
    print(f"  same best move as gnubg        {play['same_best_move']:.1%}")
    print(f"  within 0.01 in gnubg's eyes    {play['within_0.01_in_gnubg_eyes']:.1%}")
    print(f"  mean equity given up (gnubg)   {play['mean_equity_given_up_in_gnubg_eyes']:.4f}"
          f"  (largest {play['largest_equity_given_up_in_gnubg_eyes']:.3f})")
    print(f"\nCubeless probabilities, {plies}-ply, {probs['positions']} positions "
          f"({probs['contact_positions']} contact): mean |ours - gnubg|")
    print(f"  {'':14}" + "".join(f"{n:>16}" for n in FIELD_NAMES))
    for label, key in (("all", "mean_abs_difference"), ("contact", "mean_abs_difference_contact"),
                       ("no contact", "mean_abs_difference_no_contact")):
        print(f"  {label:14}" + "".join(f"{probs[key][n]:16.4f}" for n in FIELD_NAMES))
    if not summary["cube"]["all"]["decisions"]:
        return
    print("\nCube decisions, 0-ply (equities per cube in money, EMG in matches):")
    print(f"  {'score':24}{'n':>5}{'same action':>13}{'n (either D)':>14}{'same there':>12}"
          f"{'|ND diff|':>11}{'|DT diff|':>11}{'D err':>8}{'T err':>8}")
    for name, row in summary["cube"].items():
        print(f"  {name:24}{row['decisions']:5d}{row['same_action']:13.1%}{row['decisions_where_either_doubles']:14d}"
              f"{row['same_action_where_either_doubles']:12.1%}{row['mean_abs_no_double_difference']:11.4f}"
              f"{row['mean_abs_double_take_difference']:11.4f}{row['mean_doubler_error_in_gnubg_eyes']:8.4f}"
              f"{row['mean_taker_error_in_gnubg_eyes']:8.4f}")


def _pre_roll_positions(turns: list[tuple[Position, tuple[int, int]]], limit: int) -> list[Position]:
    """Distinct positions of the sample, in order, at most ``limit``."""
    return list(dict.fromkeys(p for p, _ in turns))[:limit]


def run(seed: int, turns_count: int, cube_positions: int, plies: int = 0) -> dict[str, Any]:
    """Checker play and probabilities at ``plies``; cube decisions at 0-ply (ours have no other depth yet)."""
    turns = sampled_turns(seed, turns_count)
    positions = _pre_roll_positions(turns, turns_count)
    checker = compare_checker_play(turns, plies)
    probabilities = compare_probabilities(positions, plies)
    cube = compare_cube(positions[:cube_positions])
    return {"summary": summarise(checker, probabilities, cube), "checker_play": checker,
            "probabilities": probabilities, "cube": cube}


def _commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          cwd=Path(__file__).parent)
    return done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turns", type=int, default=400, help="self-play turns sampled")
    parser.add_argument("--cube-positions", type=int, default=200, help="positions for the cube comparison")
    parser.add_argument("--plies", type=int, default=0, help="depth of checker play and probabilities (both engines)")
    parser.add_argument("--out", type=Path, help="write the raw results as JSON here")
    args = parser.parse_args()
    if not gnubg_available():
        sys.exit("gnubg is not installed (Debian: apt-get install gnubg): nothing to compare")
    started = time.perf_counter()
    results = run(args.seed, args.turns, args.cube_positions, args.plies)
    print_table(results["summary"], args.plies)
    print(f"\n{time.perf_counter() - started:.0f} s")
    if args.out:
        results = {
            "command": " ".join(["python", *sys.argv]),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "gnubg": gnubg_version(), "bgengine_commit": _commit(), "seed": args.seed, "plies": args.plies,
            **results,
        }
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(_json_text(results))


ROW_LISTS = ("checker_play", "probabilities", "cube")


def _rounded(value: Any) -> Any:
    """Floats to 6 decimals (gnubg's are float32 anyway), recursively."""
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, dict):
        return {key: _rounded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_rounded(item) for item in value]
    return value


def _json_text(results: dict[str, Any]) -> str:
    """The results as JSON: header and summary indented, then one line per raw row."""
    head = {key: value for key, value in results.items() if key not in ROW_LISTS}
    text = json.dumps(_rounded(head), indent=1)[:-2]
    for key in ROW_LISTS:
        rows = ",\n  ".join(json.dumps(_rounded(row)) for row in results[key])
        text += f',\n "{key}": [\n  {rows}\n ]'
    return text + "\n}\n"


needs_gnubg = pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon (gnubg) is not installed")


@needs_gnubg
def test_small_sample_compares_every_turn_and_times_the_bridge(benchmark):
    turns = sampled_turns(seed=2, count=40)
    checker = compare_checker_play(turns)
    assert checker and all(r["gnubg_equity_of_gnubg_move"] >= r["gnubg_equity_of_our_move"] - 1e-6 for r in checker)
    assert len(checker) == sum(len(p.legal_moves(d)) >= 2 for p, d in turns)
    benchmark.pedantic(gnubg_best_moves, args=(turns,), rounds=3, iterations=1)


if __name__ == "__main__":
    main()

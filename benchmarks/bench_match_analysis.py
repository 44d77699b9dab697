"""analyze_match against GNU Backgammon's own match analysis (gnubg as a measuring stick only).

Matches are played by two gnubg players of different strength (evaluation noise, see
gnubg_matches.py), then analysed by gnubg (``analyse match`` on one thread) and by
bgengine at the same depth. Compared per player: the checker-play error rate (mEMG per
unforced move; goal within 25% of gnubg's), which player is rated worse, and the overlap
of the checker plays gnubg marks very bad with the ones bgengine marks.

Error rates and overlap over several matches, writing the raw figures:
    python benchmarks/bench_match_analysis.py compare --plies 2 \
        --out benchmarks/results/match_analysis_vs_gnubg.json
Time of a 15-point match (tests/data/gnubg_match_15.mat, 348 checker plays, played by gnubg)
on one and two workers, with gnubg's time in the same run:
    python benchmarks/bench_match_analysis.py time --plies 2 --repeat 2
Quick timing under pytest (0-ply, the committed 5-point match, counts checked first):
    python -m pytest benchmarks/bench_match_analysis.py --benchmark-enable
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gnubg_matches import analyse_with_gnubg, play_match_with_gnubg  # noqa: E402

import bgengine as bg  # noqa: E402
from bgengine.analysis.match_analysis import Mark  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
#: (length, seed) of the matches compared; player 0 plays with noise 0.005, player 1 with 0.05.
MATCHES = ((5, 1), (7, 2), (7, 3), (9, 21), (15, 9))
NOISE = (0.005, 0.05)
#: The equity measures of checker plays and luck compared (analyze_match's ``equity``).
MEASURES = ("money", "match")


def marked_checker_plays(analysis: bg.MatchAnalysis, at_least: Mark) -> set[tuple[int, int]]:
    """(game, ordinal of the checker play in its game), as gnubg_matches numbers gnubg's marks."""
    found = set()
    for game_index, game in enumerate(analysis.games):
        for ordinal, play in enumerate(game.checker_plays):
            if play.mark.severity >= at_least.severity:
                found.add((game_index, ordinal))
    return found


def compare_match(sgf: Path, plies: int) -> dict[str, Any]:
    """gnubg's and bgengine's analyses of one match, side by side, per player, for both equity measures."""
    gnubg = analyse_with_gnubg(sgf, plies)
    match = bg.read_sgf(sgf)
    ours, seconds = {}, {}
    for measure in MEASURES:
        started = time.perf_counter()
        ours[measure] = bg.analyze_match(match, plies, equity=measure)
        seconds[measure] = round(time.perf_counter() - started, 2)
    players = []
    for player in (0, 1):
        theirs = gnubg.players[player]
        entry: dict[str, Any] = {"player": player, "gnubg": {
            "unforced_moves": theirs.unforced_moves, "checker_rate": theirs.checker_rate,
            "very_bad": theirs.very_bad_moves, "overall_rate": theirs.overall_rate, "luck": theirs.luck}}
        for measure, analysis in ours.items():
            mine = analysis.players[player]
            entry[measure] = {
                "unforced_moves": mine.unforced_moves, "checker_rate": round(mine.checker_rate, 2),
                "ratio": round(mine.checker_rate / theirs.checker_rate, 3) if theirs.checker_rate else None,
                "very_bad": mine.checker_marks["very bad"], "overall_rate": round(mine.overall_rate, 2),
                "luck": round(mine.luck, 3)}
        players.append(entry)
    result: dict[str, Any] = {"file": sgf.name, "length": match.length, "checker_plays": len(ours["money"].checker_plays),
                              "players": players, "gnubg_very_bad": len(gnubg.very_bad_checker_plays),
                              "seconds": {"gnubg": round(gnubg.seconds, 2), **seconds}}
    worse_gnubg = max((0, 1), key=lambda p: gnubg.players[p].checker_rate)
    for measure, analysis in ours.items():
        very_bad = marked_checker_plays(analysis, Mark.VERY_BAD)
        result[measure] = {
            "same_player_rated_worse": worse_gnubg == max((0, 1), key=lambda p: analysis.players[p].checker_rate),
            "very_bad": len(very_bad),
            "gnubg_very_bad_also_very_bad": len(gnubg.very_bad_checker_plays & very_bad),
            "gnubg_very_bad_marked_bad_or_worse": len(
                gnubg.very_bad_checker_plays & marked_checker_plays(analysis, Mark.BAD)),
        }
    return result


def compare(plies: int, folder: Path) -> dict[str, Any]:
    results = []
    for length, seed in MATCHES:
        sgf, _ = play_match_with_gnubg(length, seed, NOISE, folder, f"match_{length}_{seed}")
        result = compare_match(sgf, plies)
        results.append(result)
        print(json.dumps(result), flush=True)
    totals: dict[str, Any] = {"plies": plies, "noise": NOISE, "matches": results}
    for player in (0, 1):
        pooled = {}
        for source in ("gnubg", *MEASURES):
            figures = [r["players"][player][source] for r in results]
            error = sum(f["checker_rate"] * f["unforced_moves"] for f in figures)
            pooled[source] = round(error / sum(f["unforced_moves"] for f in figures), 2)
        totals[f"player_{player}_pooled_checker_rate"] = pooled
    totals["gnubg_very_bad"] = sum(r["gnubg_very_bad"] for r in results)
    for measure in MEASURES:
        totals[f"{measure}_overlap"] = {
            key: sum(r[measure][key] for r in results)
            for key in ("very_bad", "gnubg_very_bad_also_very_bad", "gnubg_very_bad_marked_bad_or_worse")
        }
        totals[f"{measure}_same_player_rated_worse"] = sum(r[measure]["same_player_rated_worse"] for r in results)
    return totals


def time_match(file: Path, plies: int, repeat: int = 1) -> dict[str, Any]:
    """bgengine on one and on two workers, then gnubg on one thread, on the same match, ``repeat`` rounds.

    Wall-clock seconds (the best of the rounds) are the figure; CPU seconds are recorded
    beside them, since other work on a shared machine stretches wall-clock times.
    """
    match = bg.read_sgf(file) if file.suffix == ".sgf" else bg.read_mat(file)
    bg.evaluate(bg.Position.initial(), plies=0)  # load the weights and tables before timing
    rounds: list[dict[str, float]] = []
    answers = []
    for _ in range(repeat):
        timing: dict[str, float] = {}
        for workers in (1, 2):
            with cf.ThreadPoolExecutor(max_workers=workers) as pool:
                wall, cpu = time.perf_counter(), time.process_time()
                answers.append(bg.analyze_match(match, plies, executor=pool))
                timing[f"bgengine_{workers}_worker_seconds"] = round(time.perf_counter() - wall, 2)
                timing[f"bgengine_{workers}_worker_cpu_seconds"] = round(time.process_time() - cpu, 2)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        timing["gnubg_1_thread_seconds"] = round(analyse_with_gnubg(file, plies).seconds, 2)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        timing["gnubg_1_thread_cpu_seconds"] = round(
            after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2)
        rounds.append(timing)
        print(json.dumps(timing), flush=True)
    assert all(answer == answers[0] for answer in answers), "the answers must not depend on the number of workers"
    best = {key: min(r[key] for r in rounds) for key in rounds[0]}
    return {"file": file.name, "length": match.length, "plies": plies,
            "checker_plays": len(answers[0].checker_plays), "rounds": rounds, "best": best,
            "speed_up_vs_gnubg": {workers: round(best["gnubg_1_thread_seconds"] / best[f"bgengine_{workers}_worker_seconds"], 2)
                                  for workers in (1, 2)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["compare", "time"])
    parser.add_argument("--plies", type=int, default=2)
    parser.add_argument("--file", type=Path, default=DATA / "gnubg_match_15.mat", help="time: the match (.mat or .sgf)")
    parser.add_argument("--repeat", type=int, default=1, help="time: rounds (the best of each is kept)")
    parser.add_argument("--out", type=Path, help="write the results as JSON")
    parser.add_argument("--folder", type=Path, help="keep the generated matches here (default: a temporary folder)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bgengine-matches-") as scratch:
        folder = arguments.folder or Path(scratch)
        if arguments.mode == "compare":
            result = compare(arguments.plies, folder)
        else:
            result = time_match(arguments.file, arguments.plies, arguments.repeat)
    print(json.dumps(result, indent=2))
    if arguments.out:
        arguments.out.write_text(json.dumps(result, indent=2) + "\n")


# ----- pytest-benchmark ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def five_point_match() -> bg.Match:
    return bg.read_sgf(DATA / "gnubg_match_5.sgf")


def test_analysis_of_a_5_point_match_at_0_ply(benchmark, five_point_match):
    analysis = bg.analyze_match(five_point_match, 0)
    assert len(analysis.checker_plays) == 58 and len(analysis.games) == 2
    result = benchmark(bg.analyze_match, five_point_match, 0)
    assert result == analysis


if __name__ == "__main__":
    main()

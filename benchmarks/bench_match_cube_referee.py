"""Cubeful rollouts: the cube referee in C against the Python one and against cubeless, side by side.

For each position and score: trials per CPU second (one worker thread; CPU time, which the
machine's other load does not inflate) of a cubeless rollout, a cubeful one with the Python
referee (``cube_referee(in_c=False)``: every cube decision through ``cube_decision`` with
the GIL) and a cubeful one with the C referee (the default), interleaved round by round;
medians over the rounds. Each pair of cubeful runs is checked to give the same result
first, so a faster wrong answer cannot pass.

Run: nice python benchmarks/bench_match_cube_referee.py [--trials 144] [--rounds 3]
[--no-variance-reduction] [--only opening] [--score money] [--no-python]
(``--no-python`` leaves the slow Python referee out: cubeless against C only.)
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import statistics
import time

from bgengine import MatchState, Position, cube_referee
from bgengine.rollouts.monte_carlo import RolloutSettings, rollout

POSITIONS = {
    "opening": "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "blitz": "XGID=-BBBB-C-----bC-A-b-bbcb---:0:0:1:00:0:0:0:0:10",
    "holding": "XGID=-a---BDB-B---dA---d-c-b-A-:0:0:1:00:0:0:0:0:10",
    "race": "XGID=----CCC-BBB---c---bccbb---:0:0:1:00:0:0:0:0:10",
}
SCORES = {
    "money": MatchState(),
    "7pt 3-away/5-away": MatchState(match_length=7, score=(4, 2)),
    "7pt 5-away/3-away": MatchState(match_length=7, score=(2, 4)),
    "7pt 2-away/1-away post-Crawford": MatchState(match_length=7, score=(5, 6)),
}


def cpu_rate(position: Position, match: MatchState, settings: RolloutSettings, referee) -> tuple[float, float | None]:
    """(trials per CPU second, cubeful equity) of one rollout on one worker thread."""
    with cf.ThreadPoolExecutor(1) as pool:
        started = time.process_time()
        result = rollout(position, match, settings=settings, referee=referee, executor=pool)
        seconds = time.process_time() - started
    return result.trials / seconds, result.cubeful_equity


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=144)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--no-variance-reduction", action="store_true")
    parser.add_argument("--only", choices=sorted(POSITIONS), help="one position")
    parser.add_argument("--score", choices=sorted(SCORES), help="one score")
    parser.add_argument("--no-python", action="store_true", help="leave out the Python referee")
    args = parser.parse_args()
    settings = RolloutSettings(trials=args.trials, seed=args.seed, block_size=24,
                               variance_reduction=not args.no_variance_reduction)
    print(f"{'position':<10} {'score':<34} {'cubeless':>9} {'Python':>8} {'C':>8}  C/Python  C/cubeless (trials per CPU s)")
    for name, xgid in POSITIONS.items():
        if args.only and name != args.only:
            continue
        position = Position.from_xgid(xgid)
        for label, match in SCORES.items():
            if args.score and label != args.score:
                continue
            rates: dict[str, list[float]] = {"cubeless": [], "python": [], "c": []}
            for _ in range(args.rounds):
                rates["cubeless"].append(cpu_rate(position, match, settings, None)[0])
                c_rate, c_value = cpu_rate(position, match, settings, cube_referee())
                rates["c"].append(c_rate)
                if not args.no_python:
                    python_rate, python_value = cpu_rate(position, match, settings, cube_referee(in_c=False))
                    assert c_value is not None and python_value is not None and abs(c_value - python_value) < 1e-12
                    rates["python"].append(python_rate)
            cubeless, c = statistics.median(rates["cubeless"]), statistics.median(rates["c"])
            python = statistics.median(rates["python"]) if rates["python"] else float("nan")
            print(f"{name:<10} {label:<34} {cubeless:9.1f} {python:8.1f} {c:8.1f}  {c / python:8.2f}  {c / cubeless:10.2f}",
                  flush=True)


if __name__ == "__main__":
    main()

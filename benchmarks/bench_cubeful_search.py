"""CPU time of cubeful n-ply cube decisions (``cube_decision(position, match, plies=n)``).

Prints, per position and match state, the median CPU seconds of one decision over the
rounds, and the decision itself (so two builds timed side by side can be checked to
answer the same). Compare builds by running this file under each one's PYTHONPATH in
alternation, e.g. ``for i in 1 2 3; do PYTHONPATH=A python bench_cubeful_search.py;
PYTHONPATH=B python bench_cubeful_search.py; done``.

Run: nice python benchmarks/bench_cubeful_search.py [--plies 2] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from bgengine import MatchState, Position, cube_decision

POSITIONS = {
    "opening": "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "blitz": "XGID=-BBBB-C-----bC-A-b-bbcb---:0:0:1:00:0:0:0:0:10",
    "race": "XGID=----CCC-BBB---c---bccbb---:0:0:1:00:0:0:0:0:10",
}
STATES = {
    "money": MatchState(),
    "7pt 3a/5a": MatchState(match_length=7, score=(4, 2)),
    "7pt 2a/1a post-Crawford": MatchState(match_length=7, score=(5, 6)),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plies", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    cube_decision(Position.initial(), plies=1)  # load the network and the tables first
    for name, xgid in POSITIONS.items():
        position = Position.from_xgid(xgid)
        for label, match in STATES.items():
            times = []
            for _ in range(args.rounds):
                started = time.process_time()
                decision = cube_decision(position, match, plies=args.plies)
                times.append(time.process_time() - started)
            print(f"{name:<8} {label:<24} {statistics.median(times):7.3f} CPU s  "
                  f"{decision.action.abbreviation} {decision.no_double:.9f} {decision.double_take:.9f}", flush=True)


if __name__ == "__main__":
    main()

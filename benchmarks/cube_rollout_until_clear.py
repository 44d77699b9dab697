"""What the cube rollout's stop rule (``RolloutSettings.decision_z``) saves and whether it keeps
the verdict: money cube decisions of the cube judge set (self-play, cube centred), each rolled
out in full and with the rule, the same seed (those exact in the bear-off table skipped).

    python benchmarks/cube_rollout_until_clear.py --count 10 --trials 1296 --z 3
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bgengine import MatchState, Position, RolloutSettings, cube_decision

JUDGE = Path(__file__).parent / "results" / "judge_cube_2ply.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10, help="the first COUNT money decisions of the set")
    parser.add_argument("--trials", type=int, default=1296)
    parser.add_argument("--z", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = [r for r in json.loads(JUDGE.read_text())["scores"]
            if r["kind"] == "selfplay" and r["scenario"].startswith("money")
            and r["xgid"].split(":")[1:3] == ["0", "0"]][:args.count]
    used, same, decisions = 0, 0, 0
    for row in rows:
        position = Position.from_xgid(row["xgid"])
        jacoby = "Jacoby on" in row["scenario"]
        match = MatchState(jacoby=jacoby)
        full = cube_decision(position, match, rollout=RolloutSettings(trials=args.trials, seed=args.seed))
        if full.trials is None:  # exact in the bear-off table: nothing to roll out
            continue
        early = cube_decision(position, match, rollout=RolloutSettings(trials=args.trials, seed=args.seed,
                                                                       decision_z=args.z))
        decisions += 1
        used += early.trials
        same += early.action is full.action
        print(f"{row['xgid'][:32]}  full: {full.action} ({full.trials})  until clear: {early.action} ({early.trials})")
    print(f"{decisions} decisions rolled out, z = {args.z:g}: {used / max(decisions * args.trials, 1):.0%} of the"
          f" trials, the same action in {same} of {decisions}")


if __name__ == "__main__":
    main()

"""Build the cube judge set: positions from gnubg self-play plus bear-offs, gnubg's cubeful verdicts.

Seven scenarios (money with and without Jacoby, three 7-point match scores, two post-Crawford
scores with the trailer on roll). For each: ``--candidates`` distinct pre-roll positions of
gnubg's own self-play (dice seeded by ``--seed``), a quarter of them with the roller owning a
2-cube where a redouble means something (money, 3-away/5-away both ways), plus random
two-sided bear-offs and last-roll positions; gnubg judges each at ``--plies`` cubeful (no
pruning nets) and ``--per-scenario`` are kept, at most 40% "no double" and 25% "too good" so
the easy verdicts do not swamp the close ones. Needs gnubg; the result is committed.

    nice -n 10 python benchmarks/make_judge_cube.py --seed 14 --games 150
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gnubg_bridge import GnubgCube, gnubg_cube_actions, gnubg_selfplay  # noqa: E402
from judge_data import CUBE_SET, decision_class, provenance, verdict_family, write_judge_set  # noqa: E402

from bgengine import MatchState, Position, format_xgid  # noqa: E402

#: Each scenario seen from player 0 on roll: score is (roller's, opponent's).
SCENARIOS = {
    "money, Jacoby on": MatchState(jacoby=True),
    "money, Jacoby off": MatchState(),
    "7-point, 3-away 5-away": MatchState(match_length=7, score=(4, 2)),
    "7-point, 5-away 3-away": MatchState(match_length=7, score=(2, 4)),
    "7-point, 2-away 2-away": MatchState(match_length=7, score=(5, 5)),
    "post-Crawford, 2-away 1-away": MatchState(match_length=7, score=(5, 6)),
    "post-Crawford, 4-away 1-away": MatchState(match_length=7, score=(3, 6)),
}
#: Scenarios where a quarter of the self-play decisions are redoubles of a 2-cube the roller owns.
OWNED_CUBE_SCENARIOS = ("money, Jacoby on", "money, Jacoby off", "7-point, 3-away 5-away", "7-point, 5-away 3-away")
#: The largest shares of the easy verdicts among a scenario's kept decisions.
CAPS = {"no double": 0.40, "too good": 0.25}

Candidate = tuple[str, Position, MatchState]  # (kind, position, match state)


def selfplay_positions(seed: int, games: int) -> list[Position]:
    """Distinct pre-roll positions of gnubg's self-play games, in order."""
    return list(dict.fromkeys(position for game in gnubg_selfplay(seed, games) for position, _ in game))


def _random_home(rng: random.Random, most: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    for _ in range(rng.randint(1, most)):
        point = rng.randint(1, 6)
        counts[point] = counts.get(point, 0) + 1
    return counts


def finishing_chance(position: Position) -> float:
    """The chance that the player on roll bears off every checker with this roll."""
    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    return sum(any(legal.position.is_game_over() for legal in position.legal_moves(r)) for r in rolls) / 36


def bearoff_positions(rng: random.Random, count: int) -> list[Position]:
    """Random two-sided bear-offs, up to 8 checkers a side."""
    return [Position.from_points(_random_home(rng, 8), _random_home(rng, 8)) for _ in range(count)]


def last_roll_positions(rng: random.Random, count: int) -> list[Position]:
    """The opponent is sure to finish next turn; the roller, 1-3 checkers home, may or may not now."""
    sure_finishers = [{1: 1}, {2: 1}, {3: 1}, {4: 1}, {1: 2}]
    found: list[Position] = []
    while len(found) < count:
        position = Position.from_points(_random_home(rng, 3), rng.choice(sure_finishers))
        if 0 < finishing_chance(position) < 1 and position not in found:
            found.append(position)
    return found


def candidates(rng: random.Random, pool: list[Position], per_scenario: int, extra: int) -> list[Candidate]:
    """Per scenario: ``per_scenario`` self-play positions, ``extra`` bear-offs and ``extra // 2`` last rolls."""
    chosen: list[Candidate] = []
    for name, state in SCENARIOS.items():
        for index, position in enumerate(rng.sample(pool, per_scenario)):
            owned = name in OWNED_CUBE_SCENARIOS and index % 4 == 3
            chosen.append(("selfplay", position, state.with_changes(cube_value=2, cube_owner=0) if owned else state))
        chosen += [("bearoff", position, state) for position in bearoff_positions(rng, extra)]
        chosen += [("last roll", position, state) for position in last_roll_positions(rng, extra // 2)]
    return chosen


def scenario_of(state: MatchState) -> str:
    """The scenario name of a state (its cube aside)."""
    centred = state.with_changes(cube_value=1, cube_owner=None)
    return next(name for name, scenario in SCENARIOS.items() if scenario == centred)


def decision_row(kind: str, position: Position, state: MatchState, gnubg: GnubgCube) -> dict[str, Any]:
    """One judge-set line: the position and match (XGID and fields), gnubg's equities and verdict."""
    owner = {None: "centred", 0: "roller", 1: "opponent"}[state.cube_owner]
    return {
        "xgid": format_xgid(position, state), "position_id": position.gnubg_id(),
        "scenario": scenario_of(state), "kind": kind, "class": decision_class(position),
        "match_length": state.match_length, "score": list(state.score), "crawford": state.crawford,
        "post_crawford": state.is_post_crawford, "jacoby": state.jacoby,
        "cube_value": state.cube_value, "cube_owner": owner,
        "no_double": round(gnubg.no_double, 5), "double_take": round(gnubg.double_take, 5),
        "double_pass": round(gnubg.double_pass, 5), "verdict": gnubg.recommendation,
        "family": verdict_family(gnubg.recommendation),
    }


def keep_balanced(rows: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """The first ``count`` rows, the easy families capped (CAPS), topped up in order if short."""
    kept: list[dict[str, Any]] = []
    room = {family: int(share * count) for family, share in CAPS.items()}
    for row in rows:
        if len(kept) < count and room.get(row["family"], count) > 0:
            kept.append(row)
            if row["family"] in room:
                room[row["family"]] -= 1
    rest = [row for row in rows if row not in kept]
    return kept + rest[:count - len(kept)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=14, help="gnubg's dice seed and our sampling seed")
    parser.add_argument("--games", type=int, default=150, help="gnubg self-play games for the position pool")
    parser.add_argument("--candidates", type=int, default=160, help="self-play positions judged per scenario")
    parser.add_argument("--per-scenario", type=int, default=64, help="self-play decisions kept per scenario")
    parser.add_argument("--bearoffs", type=int, default=10, help="bear-offs kept per scenario (and half as many"
                        " last-roll positions)")
    parser.add_argument("--plies", type=int, default=2)
    parser.add_argument("--out", type=Path, default=CUBE_SET)
    args = parser.parse_args()
    started = time.perf_counter()
    rng = random.Random(args.seed)
    pool = [p for p in selfplay_positions(args.seed, args.games) if not p.is_game_over()]
    chosen = candidates(rng, pool, args.candidates, 2 * args.bearoffs)
    verdicts = gnubg_cube_actions([(position, state) for _, position, state in chosen], plies=args.plies)
    rows = [decision_row(kind, p, state, gnubg) for (kind, p, state), gnubg in zip(chosen, verdicts, strict=True)]
    kept = []
    for name in SCENARIOS:
        for kind, count in (("selfplay", args.per_scenario), ("bearoff", args.bearoffs),
                            ("last roll", args.bearoffs // 2)):
            kept += keep_balanced([r for r in rows if r["scenario"] == name and r["kind"] == kind], count)
    header = {
        "what": "cube judge set: gnubg's cubeful equities and verdict per decision",
        **provenance(args.seed, args.games, started),
        "judge": f"gnubg {args.plies}-ply cubeful (cfevaluate), no pruning nets, beavers off",
        "selection": f"per scenario {args.candidates} self-play positions judged, {args.per_scenario} kept; "
                     f"bear-offs and last rolls: twice as many judged as kept; caps {CAPS}",
        "units": "the roller's equities normalised to the cube: money per cube (Double/pass = +1), EMG in matches",
        "xgid": "position from the roller's view, with the match state (score, cube, Jacoby or Crawford)",
        "decisions": {name: sum(r["scenario"] == name for r in kept) for name in SCENARIOS},
    }
    write_judge_set(args.out, header, kept)
    print(f"{len(kept)} decisions {header['decisions']} in {header['seconds']} s -> {args.out}")


if __name__ == "__main__":
    main()

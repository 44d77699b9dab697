"""Cross-play from one position: the engine's and GNU Backgammon's 0-ply play on each side, on the same dice.

When the engine's rollout of a position and gnubg's differ, either engine can be the one that
plays it badly. Four arms play the same games (game g's dice come from ``(seed, g)`` in every
arm), cubeless money, to the end: engine against engine, gnubg against gnubg, and each engine
on one side against the other. With the same dice, each arm's difference to gnubg against gnubg
is paired game by game: the side an engine gains on is the side the other engine misplays.

    nice python benchmarks/crossplay.py fnwICQgAoBQ3Pw --games 1000 --seed 1 --workers 2 [--weights W] [--json OUT]

The games of an arm run side by side: each turn of the gnubg side is one gnubg process for all
the games still going (``gnubg_bridge.gnubg_best_moves``, its default 0-ply move choice). gnubg
is a measuring stick only: nothing trains on this.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import datetime
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gnubg_bridge import gnubg_best_moves  # noqa: E402
from hard_positions import engine_evaluator  # noqa: E402
from judge_data import git_commit  # noqa: E402

from bgengine import Position, best_move  # noqa: E402

ENGINE, GNUBG = "engine", "gnubg"
ARMS = ((ENGINE, ENGINE), (GNUBG, GNUBG), (ENGINE, GNUBG), (GNUBG, ENGINE))  # (side on roll, other side)


def play_arm(start: Position, games: range, seed: int, players: tuple[str, str], weights: Path | None,
             crashed_weights: Path | None) -> list[int]:
    """Points won by the side on roll at ``start`` in each of ``games`` (+-1, 2, 3), the turns
    alternating between ``players`` (the side on roll's first)."""
    evaluator = engine_evaluator(weights, False, crashed_weights)
    dice_streams = {game: np.random.default_rng([seed, game]) for game in games}
    positions = {game: start for game in games}
    points: dict[int, int] = {}
    turn = 0
    while positions:
        player = players[turn % 2]
        rolls = {game: (int(a), int(b)) for game, (a, b) in
                 ((game, dice_streams[game].integers(1, 7, size=2)) for game in positions)}
        if player == GNUBG:
            replies = gnubg_best_moves([(positions[game], rolls[game]) for game in positions])
            after = {game: moves[0].position if moves else positions[game].legal_moves(rolls[game]).position_after(0)
                     for game, moves in zip(list(positions), replies)}
        else:
            after = {game: best_move(positions[game], rolls[game], evaluator=evaluator).position for game in positions}
        for game, position in after.items():
            finished = position.winner_and_result()
            if finished is None:
                positions[game] = position
                continue
            winner, result = finished  # winner 1: the player who just moved
            mover_is_start_side = turn % 2 == 0
            points[game] = int(result) * (1 if (winner == 1) == mover_is_start_side else -1)
            del positions[game]
        turn += 1
    return [points[game] for game in games]


def summary(points: list[int], baseline: list[int]) -> dict[str, Any]:
    """Mean points and its standard error, the rates, and the paired difference to ``baseline``."""
    values, difference = np.array(points, dtype=float), np.array(points, dtype=float) - np.array(baseline)
    return {"equity": float(values.mean()), "equity_standard_error": float(values.std(ddof=1) / math.sqrt(len(values))),
            "wins": float((values > 0).mean()), "gammons_lost": float((values <= -2).mean()),
            "backgammons_lost": float((values <= -3).mean()),
            "minus_gnubg_gnubg": float(difference.mean()),
            "minus_gnubg_gnubg_standard_error": float(difference.std(ddof=1) / math.sqrt(len(values)))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("position_id", help="gnubg position ID, the side on roll first")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes, each playing a share of the games")
    parser.add_argument("--weights", type=Path, help="the engine's contact network (default: the shipped one)")
    parser.add_argument("--crashed-weights", type=Path, help="the engine's crashed network (default: the shipped one)")
    parser.add_argument("--json", type=Path, help="write every game's points and the summary here")
    args = parser.parse_args()
    start = Position.from_gnubg_id(args.position_id)
    shares = [range(args.games)[worker::args.workers] for worker in range(args.workers)]
    points: dict[str, list[int]] = {}
    with cf.ProcessPoolExecutor(args.workers) as pool:
        for players in ARMS:
            parts = pool.map(play_arm, [start] * len(shares), shares, [args.seed] * len(shares),
                             [players] * len(shares), [args.weights] * len(shares), [args.crashed_weights] * len(shares))
            by_game = {game: value for share, part in zip(shares, parts) for game, value in zip(share, part)}
            points["-".join(players)] = [by_game[game] for game in range(args.games)]
    baseline = points[f"{GNUBG}-{GNUBG}"]
    table = {arm: summary(values, baseline) for arm, values in points.items()}
    print(f"{args.position_id}: {args.games} games per arm, seed {args.seed}, cubeless money, 0-ply play;"
          " points of the side on roll")
    for arm, row in table.items():
        on_roll, other = arm.split("-")
        print(f"  on roll {on_roll:<6} other {other:<6} {row['equity']:+.3f} ± {row['equity_standard_error']:.3f}"
              f"  wins {row['wins']:.1%}  gammons lost {row['gammons_lost']:.1%}  backgammons lost"
              f" {row['backgammons_lost']:.1%}  minus gnubg-gnubg {row['minus_gnubg_gnubg']:+.3f}"
              f" ± {row['minus_gnubg_gnubg_standard_error']:.3f}")
    if args.json:
        document = {"command": " ".join(["python", *sys.argv]), "bgengine_commit": git_commit(),
                    "date": datetime.date.today().isoformat(), "position_id": args.position_id,
                    "games": args.games, "seed": args.seed, "weights": str(args.weights or "shipped"),
                    "table": table, "points": points}
        args.json.write_text(json.dumps(document, indent=1) + "\n")


if __name__ == "__main__":
    main()

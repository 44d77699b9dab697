"""Build the checker-play judge set: decisions from gnubg self-play, every legal play scored by gnubg.

gnubg plays cubeless money games against itself at 0-ply with its dice seeded by ``--seed``;
from the turns with two or more legal plays, ``--contact`` contact and ``--race`` race
decisions are drawn at random (the same seed) and every legal play of each is evaluated by
gnubg at ``--plies`` full width (no move filter, no pruning nets), cubeless money equity.
Needs gnubg (benchmarks only); the result is committed, so scoring does not.

    nice -n 10 python benchmarks/make_judge_checker.py --seed 13 --games 240
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gnubg_bridge import gnubg_best_moves, gnubg_selfplay  # noqa: E402
from judge_data import CHECKER_SET, decision_class, provenance, write_judge_set  # noqa: E402

from bgengine import Position  # noqa: E402

Turn = tuple[Position, tuple[int, int]]


def choices_by_class(games: list[list[Turn]]) -> dict[str, list[tuple[int, int, Turn]]]:
    """Distinct turns with two or more legal plays, as (game, turn number, turn), per class."""
    seen: set[Turn] = set()
    found: dict[str, list[tuple[int, int, Turn]]] = {"contact": [], "race": []}
    for game_number, game in enumerate(games):
        for turn_number, (position, dice) in enumerate(game):
            key = (position, tuple(sorted(dice)))
            if key in seen or len(position.legal_moves(dice)) < 2:
                continue
            seen.add(key)
            found[decision_class(position)].append((game_number, turn_number, (position, dice)))
    return found


def decision_row(game: int, turn: int, position: Position, dice: tuple[int, int], plays: list[Any],
                 plies: int) -> dict[str, Any]:
    """One judge-set line: the position, the roll, the class and every legal play with gnubg's equity."""
    ours = {legal.position: legal.move for legal in position.legal_moves(dice)}
    if len(plays) != len(ours) or any(play.plies != plies for play in plays):
        raise AssertionError(f"{position.gnubg_id()} {dice}: gnubg did not search every play at {plies}-ply")
    return {
        "position_id": position.gnubg_id(), "dice": sorted(dice, reverse=True), "class": decision_class(position),
        "game": game, "turn": turn,
        "plays": [{"move": str(ours[play.position]), "position_id": play.position.gnubg_id(), "equity": round(play.equity, 5),
                   "probabilities": [round(p, 4) for p in play.probabilities]} for play in plays],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=13, help="gnubg's dice seed and our sampling seed")
    parser.add_argument("--games", type=int, default=240, help="gnubg self-play games")
    parser.add_argument("--contact", type=int, default=320)
    parser.add_argument("--race", type=int, default=120)
    parser.add_argument("--plies", type=int, default=2, help="gnubg's depth for every play")
    parser.add_argument("--out", type=Path, default=CHECKER_SET)
    args = parser.parse_args()
    started = time.perf_counter()
    games = gnubg_selfplay(args.seed, args.games)
    found = choices_by_class(games)
    rng = random.Random(args.seed)
    chosen = sorted(rng.sample(found["contact"], args.contact) + rng.sample(found["race"], args.race),
                    key=lambda row: row[:2])
    turns = [turn for _, _, turn in chosen]
    scored = gnubg_best_moves(turns, plies=args.plies, full_width=True)
    rows = [decision_row(game, number, position, dice, plays, args.plies)
            for (game, number, (position, dice)), plays in zip(chosen, scored, strict=True)]
    header = {
        "what": "checker-play judge set: every legal play of each decision with gnubg's cubeless money equity",
        **provenance(args.seed, args.games, started),
        "judge": f"gnubg {args.plies}-ply, full width (every move filter level skipped), no pruning nets, cubeless",
        "turns_with_a_choice": {name: len(rows) for name, rows in found.items()},
        "decisions": {name: sum(row["class"] == name for row in rows) for name in found},
        "position_id": "GNU Position ID, player on roll; plays[].position_id: after the play, next player on roll",
        "equity": "mover's cubeless money equity (= EMG), gnubg's best first",
    }
    write_judge_set(args.out, header, rows)
    print(f"{len(rows)} decisions {header['decisions']} in {header['seconds']} s -> {args.out}")


if __name__ == "__main__":
    main()

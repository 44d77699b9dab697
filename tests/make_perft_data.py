"""Write tests/data/perft.json: distinct children per roll for a fixed set of positions.

The counts come from the reference generator only (tests/reference_movegen.py), which is
also the one that plays the seeded random games the positions are taken from, so the file
is independent of the core. Run from the repository root:

    python tests/make_perft_data.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from reference_movegen import Board, reference_children

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]
SEED = 20261130
GAMES = 6
EVERY_NTH_PLY = 7
OUTPUT = Path(__file__).parent / "data" / "perft.json"


def board(mover: dict[int, int], opponent: dict[int, int], bar: int = 0, opponent_bar: int = 0) -> Board:
    """26 slots from the player on roll; opponent points in the opponent's own numbering."""
    slots = [0] * 26
    for point, count in mover.items():
        slots[point] = count
    for point, count in opponent.items():
        slots[25 - point] = -count
    slots[25], slots[0] = bar, -opponent_bar
    return tuple(slots)


INITIAL = {24: 2, 13: 5, 8: 3, 6: 5}
SPECIAL = {
    "opening position": board(INITIAL, INITIAL),
    "on the bar against a closed board": board({13: 5, 8: 3, 6: 6}, {p: 2 for p in range(1, 7)} | {13: 3}, bar=1),
    "two on the bar against a five-point board": board({13: 5, 6: 8}, {p: 2 for p in range(2, 7)} | {13: 5}, bar=2),
    "bearing off against a checker on the bar": board({6: 4, 5: 3, 4: 3, 2: 2, 1: 1}, {24: 1, 13: 9}, opponent_bar=1),
    "hit while bearing off": board({5: 3, 3: 4, 2: 4}, {1: 2, 6: 5, 8: 6}, bar=1),
    "bear-off with gaps": board({6: 2, 4: 1, 1: 3}, {6: 5, 5: 5}),
    "race": board({11: 3, 9: 2, 7: 4, 6: 3, 3: 3}, {10: 4, 8: 4, 6: 4, 4: 3}),
    "fifteen blots against one checker behind them": board({p: 1 for p in range(1, 16)}, {1: 1}),
    "blots everywhere": board({p: 1 for p in range(12, 25)}, {p: 1 for p in range(14, 25)}, bar=1),
    "prime and blots": board({13: 2, 11: 2, 10: 2, 9: 2, 8: 2, 7: 2, 5: 1, 4: 1, 2: 1}, {24: 2, 13: 4, 6: 5, 5: 2, 3: 2}),
}


def random_game_boards(seed: int) -> list[Board]:
    """Every EVERY_NTH_PLY-th position of seeded random games played with the reference."""
    rng = random.Random(seed)
    boards: list[Board] = []
    for _ in range(GAMES):
        current = board(INITIAL, INITIAL)
        ply = 0
        while any(slot > 0 for slot in current) and any(slot < 0 for slot in current):
            if ply % EVERY_NTH_PLY == 0:
                boards.append(current)
            children = sorted(reference_children(current, rng.randint(1, 6), rng.randint(1, 6)))
            current = rng.choice(children)
            ply += 1
    return boards


def main() -> None:
    named = list(SPECIAL.items()) + [
        (f"random game position {i} (seed {SEED})", b) for i, b in enumerate(random_game_boards(SEED))
    ]
    entries = []
    for name, slots in named:
        counts = [len(reference_children(slots, d1, d2)) for d1, d2 in ROLLS]
        entries.append({"name": name, "board": list(slots), "children": counts})
        print(f"{name}: {sum(counts)} children", file=sys.stderr)
    header = {
        "about": "Distinct legal children per roll, from tests/reference_movegen.py via tests/make_perft_data.py",
        "rolls": [f"{d1}{d2}" for d1, d2 in ROLLS],
        "total_children": sum(sum(entry["children"]) for entry in entries),
    }
    lines = [f" {json.dumps(key)}: {json.dumps(value)}," for key, value in header.items()]
    rows = ",\n".join(f"  {json.dumps(entry)}" for entry in entries)
    OUTPUT.parent.mkdir(exist_ok=True)
    OUTPUT.write_text("{\n" + "\n".join(lines) + '\n "positions": [\n' + rows + "\n ]\n}\n")


if __name__ == "__main__":
    main()

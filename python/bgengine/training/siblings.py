"""Which rows of a distillation shard are sibling plays: the candidate children of one roll.

``positions.with_candidate_children`` follows each sampled position with the positions after
the best few 0-ply plays of one seeded roll: alternatives a move choice must tell apart. A
checker play depends only on the differences between such siblings, so a fit can weigh
those differences (``supervised.FitSettings.sibling_weight``). The shard does not store the
groups; they follow from its meta: the roll of each sampled row is drawn again from the
same seed, and each child row is matched to the first sampled row, in order, that has it
among the legal plays of its roll.
"""

from __future__ import annotations

import numpy as np

from bgengine.position import Position

from bgengine.training.dataset import Shard
from bgengine.training.positions import CHILDREN_SEED_KEY

NO_GROUP = -1


def sampled_rolls(seed: int, chunk: int, count: int) -> list[tuple[int, int]]:
    """The rolls ``with_candidate_children`` drew for the ``count`` sampled rows of a chunk."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(CHILDREN_SEED_KEY, chunk)))
    return [(int(rng.integers(1, 7)), int(rng.integers(1, 7))) for _ in range(count)]


def sibling_groups(shard: Shard) -> np.ndarray:
    """Per row: the index (in the shard as made, before any rows were dropped) of the sampled
    position whose roll the row is a candidate play of, or ``NO_GROUP`` for sampled rows, for
    children whose sampled row was dropped (its board is gone) and for shards made without
    children. Rows of one group share the player on roll."""
    meta = shard.meta
    groups = np.full(len(shard), NO_GROUP, dtype=np.int64)
    if not meta.get("children") or "sampled" not in meta:
        return groups
    sampled = int(meta["sampled"])
    made_rows = np.asarray(meta.get("kept_rows", range(len(shard))), dtype=np.int64)
    if len(made_rows) != len(shard):
        raise ValueError(f"shard meta lists {len(made_rows)} kept rows for {len(shard)} boards")
    rolls = sampled_rolls(int(meta["seed"]), int(meta["chunk"]), sampled)
    parents = [(row, int(made)) for row, made in enumerate(made_rows) if made < sampled]
    children = [row for row, made in enumerate(made_rows) if made >= sampled]
    plays: dict[int, set[bytes]] = {}  # each parent's plays, made once
    next_parent = 0
    for row in children:
        key = shard.boards[row].tobytes()
        for candidate in range(next_parent, len(parents)):
            parent_row, made = parents[candidate]
            if candidate not in plays:
                plays[candidate] = _plays(shard.boards[parent_row], rolls[made])
            if key in plays[candidate]:
                groups[row] = made
                next_parent = candidate
                break
    return groups


def _plays(board: np.ndarray, dice: tuple[int, int]) -> set[bytes]:
    moves = Position.from_array(board).legal_moves(dice)
    return {moves.position_after(index).to_bytes() for index in range(len(moves))}

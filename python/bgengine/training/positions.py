"""The position database: positions sampled from seeded 0-ply self-play with exploration,
from the opening and from hard-class starts (``scenarios``), deduplicated and classified.

Chunk ``c`` of run seed ``s`` draws all its randomness from ``SeedSequence(s, spawn_key=(0, c))``
and drops positions already in chunks ``0..c-1``, so a chunk is the same bit for bit
whenever it is made (in one run or after a restart that reloads the earlier chunks).
Positions are seen from the player on roll, before the roll; finished games and exact
(two-sided bear-off) positions are never kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass

import numpy as np

from bgengine.evaluation.evaluator import evaluate, rank_moves
from bgengine.position import Position

from bgengine.training.classes import PositionClass, classify, tags
from bgengine.training.dataset import Shard
from bgengine.training.scenarios import SCENARIOS

POSITIONS_SEED_KEY = 0
CHILDREN_SEED_KEY = 2  # (1 is the labels' key)
MAX_PLIES = 400


@dataclass(frozen=True)
class GenerationSettings:
    """How a chunk of positions is made.

    games: games played per chunk. sample_rate: chance that each position reached is kept.
    top_few / top_few_rate: chance of playing a random one of the best ``top_few`` 0-ply
    moves instead of the best. random_rate: chance of a uniformly random legal move.
    scenario_weights: relative frequency of each start in ``scenarios.SCENARIOS`` order.
    """

    games: int = 50
    sample_rate: float = 0.3
    top_few: int = 3
    top_few_rate: float = 0.1
    random_rate: float = 0.03
    scenario_weights: tuple[float, ...] = (0.45, 0.12, 0.1, 0.18, 0.15)


def exploring_move(position: Position, dice: tuple[int, int], rng: np.random.Generator,
                   settings: GenerationSettings) -> Position:
    """The position after the 0-ply best move, or after an exploring one (next player's view)."""
    ranked = rank_moves(position, dice)
    draw = rng.random()
    if draw < settings.random_rate:
        return ranked[int(rng.integers(len(ranked)))].position
    if draw < settings.random_rate + settings.top_few_rate:
        return ranked[int(rng.integers(min(settings.top_few, len(ranked))))].position
    return ranked[0].position


def sampled_game(start: Position, rng: np.random.Generator, settings: GenerationSettings) -> list[Position]:
    """Play one exploring game from ``start`` (on roll before the roll); the positions kept."""
    kept: list[Position] = []
    position = start
    for _ in range(MAX_PLIES):
        if position.is_game_over():
            break
        if rng.random() < settings.sample_rate:
            kept.append(position)
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        position = exploring_move(position, dice, rng, settings)
    return kept


def chunk_rng(seed: int, chunk: int) -> np.random.Generator:
    """The generator of all randomness of one chunk."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(POSITIONS_SEED_KEY, chunk)))


def generate_chunk(seed: int, chunk: int, settings: GenerationSettings, seen: set[bytes],
                   scenarios: Mapping[str, Callable[[np.random.Generator], Position]] = SCENARIOS) -> Shard:
    """One chunk of new, classified, non-exact positions; adds them to ``seen``.

    ``scenarios``: the start kinds, weighted by ``settings.scenario_weights`` in their order
    (kinds beyond the weights given get none, so older settings make the same chunks).
    """
    rng = chunk_rng(seed, chunk)
    names = list(scenarios)
    weights = np.asarray(settings.scenario_weights, dtype=float)
    if len(weights) > len(names):
        raise ValueError(f"{len(weights)} scenario weights for {len(names)} scenarios")
    weights = np.concatenate([weights, np.zeros(len(names) - len(weights))])  # later kinds: 0 unless given
    boards, classes, found_tags, sources = [], [], [], []
    for _ in range(settings.games):
        source = int(rng.choice(len(names), p=weights / weights.sum()))
        for position in sampled_game(scenarios[names[source]](rng), rng, settings):
            board = np.asarray(position)
            kind = classify(board)
            key = position.to_bytes()
            if kind is PositionClass.EXACT or key in seen:
                continue
            seen.add(key)
            boards.append(board)
            classes.append(int(kind))
            found_tags.append(int(tags(board, np.asarray(evaluate(position).probabilities))))
            sources.append(source)
    meta = {"seed": seed, "chunk": chunk, "kind": "positions", "generation": asdict(settings),
            "scenarios": names, "sources": sources}
    return Shard(np.array(boards, dtype=np.int8).reshape(-1, 26), np.array(classes, dtype=np.int8),
                 np.array(found_tags, dtype=np.uint8), meta)


def with_candidate_children(positions: Shard, seed: int, chunk: int, count: int) -> Shard:
    """``positions`` followed by the positions after the ``count`` best 0-ply moves of one
    seeded roll of each (next player's view; new, non-exact, unfinished ones only): the
    close alternatives a 0-ply move choice must tell apart.

    The roll of position ``i`` comes from ``SeedSequence(seed, spawn_key=(2, chunk))``'s
    generator, drawn in row order, so the result depends only on the seed, the chunk and
    ``positions``. ``meta["sampled"]`` counts the rows of ``positions``.
    """
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(CHILDREN_SEED_KEY, chunk)))
    seen = {board.tobytes() for board in positions.boards}
    boards, classes, found_tags = [], [], []
    for board in positions.boards:
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        for ranked in rank_moves(Position.from_array(board), dice)[:count]:
            child = ranked.position
            child_board = np.asarray(child)
            kind = classify(child_board)
            key = child.to_bytes()
            if child.is_game_over() or kind is PositionClass.EXACT or key in seen:
                continue
            seen.add(key)
            boards.append(child_board)
            classes.append(int(kind))
            found_tags.append(int(tags(child_board, np.asarray(evaluate(child).probabilities))))
    meta = {**positions.meta, "children": count, "sampled": len(positions)}
    return Shard(np.concatenate([positions.boards, np.array(boards, dtype=np.int8).reshape(-1, 26)]),
                 np.concatenate([positions.classes, np.array(classes, dtype=np.int8)]),
                 np.concatenate([positions.tags, np.array(found_tags, dtype=np.uint8)]), meta)

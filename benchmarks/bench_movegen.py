"""Move-generation speed: batch kernel, Python API, random self-play (one core).

Run: ``nice python -m pytest benchmarks/bench_movegen.py --benchmark-enable``.
Every benchmark first checks the exact number of children, so a faster wrong answer
cannot pass. The rates land in each benchmark's ``extra_info``.
"""

from __future__ import annotations

import numpy as np
import pytest
from bgengine import Position
from movegen_workload import (
    EXPECTED_TOTAL_CHILDREN,
    ROLLS,
    workload_boards,
    workload_pairs,
)

from bgcore import _movegen

SELF_PLAY_GAMES = 50
SELF_PLAY_SEED = 7
# Plies and children seen in the seeded self-play below; they pin the generator's output
# order too (the child picked is an index), so update them when that order changes on purpose.
EXPECTED_SELF_PLAY = (5358, 100408)


@pytest.fixture(scope="module")
def pairs() -> tuple[np.ndarray, np.ndarray]:
    return workload_pairs()


def test_batch_kernel_pairs_per_second(benchmark, pairs):
    boards, dice = pairs
    children, offsets = _movegen.legal_children_batch(boards, dice)
    assert len(children) == offsets[-1] == EXPECTED_TOTAL_CHILDREN
    benchmark(_movegen.legal_children_batch, boards, dice)
    _report_rate(benchmark, "pairs_per_second", len(boards))


def test_python_api_calls_per_second(benchmark):
    positions = [Position._trusted(board.tobytes()) for board in workload_boards()]

    def one_call_per_pair() -> int:
        total = 0
        for position in positions:
            for dice in ROLLS:
                total += len(position.legal_moves(dice))
        return total

    assert one_call_per_pair() == EXPECTED_TOTAL_CHILDREN
    benchmark(one_call_per_pair)
    _report_rate(benchmark, "pairs_per_second", len(positions) * len(ROLLS))


def random_self_play(games: int, seed: int) -> tuple[int, int]:
    """(plies, children seen) over `games` games with moves uniform among the children."""
    rng = np.random.default_rng(seed)
    start = Position.initial().to_bytes()
    plies = seen = 0
    for _ in range(games):
        board, over = start, False
        while not over:
            dice = rng.integers(1, 7, size=2)
            children, _ = _movegen.children_and_moves(board, int(dice[0]), int(dice[1]))
            count = len(children) // 26
            pick = int(rng.integers(count)) * 26
            board = children[pick : pick + 26]
            over = max(board) < 128  # no negative count: the side that moved is all off
            plies += 1
            seen += count
    return plies, seen


def test_random_self_play_games_per_second(benchmark):
    assert random_self_play(SELF_PLAY_GAMES, SELF_PLAY_SEED) == EXPECTED_SELF_PLAY
    benchmark(random_self_play, SELF_PLAY_GAMES, SELF_PLAY_SEED)
    _report_rate(benchmark, "games_per_second", SELF_PLAY_GAMES)


def _report_rate(benchmark, name: str, work: int) -> None:
    if benchmark.stats is not None:  # None under --benchmark-disable
        benchmark.extra_info[name] = round(work / benchmark.stats.stats.median)
        print(f"\n{benchmark.name}: {benchmark.extra_info[name]:,} {name.replace('_', ' ')} (median)")

"""Move generation against peers on the same machine: bgsage and OpenSpiel, when installed.

    nice python benchmarks/peers_movegen.py [--repeats 5] [--cpu-time]

Workload: the 1000 positions x 21 rolls of movegen_workload.py. bgsage takes any board,
so it runs exactly that workload (one call per pair) and its children are counted against
ours. OpenSpiel cannot be set to a given board from Python, so it runs its own seeded
random games and is timed per decision (one ``legal_actions()`` per position and roll,
which lists checker moves, not distinct positions). Neither is a dependency of bgengine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bgengine import Position
from movegen_workload import (
    EXPECTED_TOTAL_CHILDREN,
    ROLLS,
    workload_boards,
    workload_pairs,
)

from bgcore import _movegen


CLOCK = time.perf_counter  # --cpu-time: time.process_time, steadier on a shared machine


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = CLOCK()
        run()
        times.append(CLOCK() - start)
    return statistics.median(times)


def bgengine_rates(repeats: int) -> dict[str, float]:
    boards, dice = workload_pairs()
    children, _ = _movegen.legal_children_batch(boards, dice)
    assert len(children) == EXPECTED_TOTAL_CHILDREN
    positions = [Position._trusted(board.tobytes()) for board in workload_boards()]

    def python_api() -> int:
        return sum(len(position.legal_moves(roll)) for position in positions for roll in ROLLS)

    assert python_api() == EXPECTED_TOTAL_CHILDREN
    pairs = len(boards)
    return {
        "bgengine batch kernel": pairs / median_seconds(lambda: _movegen.legal_children_batch(boards, dice), repeats),
        "bgengine Position.legal_moves": pairs / median_seconds(python_api, repeats),
    }


def bgsage_rate(repeats: int) -> float | None:
    try:
        import bgsage
    except ImportError:
        return None
    boards = [[int(x) for x in board] for board in workload_boards()]

    def one_call_per_pair() -> int:
        # bgsage returns no board for a pass; we count the pass as one child, like bgengine.
        return sum(max(1, len(bgsage.possible_moves(board, *roll))) for board in boards for roll in ROLLS)

    total = one_call_per_pair()
    if total != EXPECTED_TOTAL_CHILDREN:
        print(f"bgsage counts {total} children, bgengine {EXPECTED_TOTAL_CHILDREN}")
    return len(boards) * len(ROLLS) / median_seconds(one_call_per_pair, repeats)


def openspiel_rate(repeats: int, decisions: int = 20000, seed: int = 1) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")

    def random_games() -> int:
        rng = random.Random(seed)
        state, done = game.new_initial_state(), 0
        while done < decisions:
            if state.is_terminal():
                state = game.new_initial_state()
            elif state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                actions = state.legal_actions()
                done += 1
                state.apply_action(rng.choice(actions))
        return done

    return decisions / median_seconds(random_games, repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cpu-time", action="store_true", help="time CPU use, not wall time")
    arguments = parser.parse_args()
    repeats = arguments.repeats
    if arguments.cpu_time:
        global CLOCK
        CLOCK = time.process_time
    rates = bgengine_rates(repeats)
    ours = rates["bgengine Position.legal_moves"]
    peers = {"bgsage possible_moves": bgsage_rate(repeats), "OpenSpiel legal_actions": openspiel_rate(repeats)}
    for name, rate in rates.items():
        print(f"{name:34s} {rate:12,.0f} pairs/s")
    for name, rate in peers.items():
        if rate is None:
            print(f"{name:34s} not installed")
        else:
            print(f"{name:34s} {rate:12,.0f} pairs/s   bgengine Python API is {ours / rate:,.1f}x,"
                  f" batch {rates['bgengine batch kernel'] / rate:,.0f}x")


if __name__ == "__main__":
    main()

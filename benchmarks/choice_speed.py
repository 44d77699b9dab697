"""What a choice network costs: the shipped networks without one against the same engine with one
(``NetworkEvaluator(choice_network=...)``; default: the shipped one), side by side.

    python benchmarks/choice_speed.py [--choice-weights W.npz] --rounds 9

Three measures, each in CPU seconds, the engines timed in turn every round (the machine is
shared and noisy): self-play games to the end at 0-ply (what a rollout trial does), 0-ply
rankings of one roll through the Python API (``rank_moves``), and 2-ply evaluations of
contact positions (a search leaves the choice network out: the same cost). Each engine's median rate
and the median of the rounds' ratios to the engine without are printed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_networks import chosen_evaluator  # noqa: E402
from sample_positions import sampled_turns  # noqa: E402

from bgcore import _engine, _selfplay  # noqa: E402
from bgengine import rank_moves  # noqa: E402
from bgengine.evaluation.evaluator import NetworkEvaluator, default_evaluator  # noqa: E402


def workloads(evaluator: NetworkEvaluator, games: int, turns: list, boards: np.ndarray,
              seed: int) -> dict[str, tuple[Callable[[], object], int]]:
    """Each measure's work for one engine and how many units (games, rankings, positions) it does."""
    kernel = evaluator.c_evaluator()
    return {
        "self-play games": (lambda: _selfplay.duel(_selfplay.EnginePlayer(kernel), _selfplay.EnginePlayer(kernel),
                                                   games, np.random.PCG64(seed)), games),
        "0-ply rankings": (lambda: [rank_moves(p, d, evaluator=evaluator) for p, d in turns], len(turns)),
        "2-ply evaluations": (lambda: evaluator.evaluate_plies(boards, 2), len(boards)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--choice-weights", type=Path, help="default: the shipped choice network")
    parser.add_argument("--shortlist", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--turns", type=int, default=2000, help="rankings per round")
    parser.add_argument("--positions", type=int, default=12, help="2-ply evaluations per round")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    turns = sampled_turns(args.seed, args.turns)
    contact = [p for p, _ in turns if _engine.position_classes(np.asarray(p, dtype=np.int8)[None])[0] == _engine.CONTACT]
    boards = np.ascontiguousarray([np.asarray(p, dtype=np.int8) for p in contact[:: max(1, len(contact) // args.positions)]][: args.positions])
    choice = chosen_evaluator(choice_weights=args.choice_weights, shortlist=args.shortlist)[0] or default_evaluator()
    if choice.choice_network is None:
        parser.error("the package ships no choice network: name one with --choice-weights")
    engines = {"without": default_evaluator(use_choice_network=False),
               f"choice {args.choice_weights.name if args.choice_weights else 'shipped'}": choice}
    work = {name: workloads(evaluator, args.games, turns, boards, args.seed) for name, evaluator in engines.items()}
    measures = list(next(iter(work.values())))
    rates = {measure: np.zeros((args.rounds, len(engines))) for measure in measures}
    for round_ in range(args.rounds):
        for measure in measures:
            for column, name in enumerate(engines):
                run, units = work[name][measure]
                started = time.process_time()
                run()
                rates[measure][round_, column] = units / (time.process_time() - started)
    for measure in measures:
        table = rates[measure]
        for column, name in enumerate(engines):
            print(f"{measure:18} {name:28} median {np.median(table[:, column]):10.1f} per CPU second, "
                  f"ratio to the engine without {np.median(table[:, column] / table[:, 0]):.3f} ({args.rounds} rounds)")


if __name__ == "__main__":
    main()

"""``bgengine bench``: a quick speed report of this machine for the engine's main calls.

Each case checks its answer on a known position before it is timed, so a fast wrong
result cannot be reported. For careful measurements use ``benchmarks/`` (pytest-benchmark).
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass

from bgengine.agents.base import RandomAgent
from bgengine.agents.play import play_game
from bgengine.cube.decision import cube_decision
from bgengine.evaluation import race
from bgengine.evaluation.evaluator import best_move, default_evaluator, evaluate, rank_moves
from bgengine.formats.gnubg_id import format_gnubg_ids, parse_gnubg_ids
from bgengine.formats.svg import board
from bgengine.formats.xgid import format_xgid, parse_xgid
from bgengine.match_state import MatchState
from bgengine.move import Move
from bgengine.position import Position
from bgengine.rollouts.monte_carlo import RolloutSettings, rollout

#: The README's example position: 31 to play, money game.
EXAMPLE_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"
#: Distinct legal plays of 31 in the opening position (8/5 6/5, 24/21 6/5, 13/10 6/5, ...).
OPENING_31_PLAYS = 16
ROLLOUT_TRIALS = 72


@dataclass(frozen=True)
class BenchResult:
    """How many calls of one operation ran in how many seconds."""

    name: str
    calls: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.calls / self.seconds if self.seconds > 0 else float("inf")


@dataclass(frozen=True)
class _Case:
    name: str
    run: Callable[[], object]
    check: Callable[[], bool]


def _cases() -> list[_Case]:
    position, match = parse_xgid(EXAMPLE_XGID)
    opening = Position.initial()
    gnubg_text = format_gnubg_ids(position, match)
    cases = [
        _Case("parse XGID", lambda: parse_xgid(EXAMPLE_XGID),
              lambda: parse_xgid(EXAMPLE_XGID) == (position, match)),
        _Case("format XGID", lambda: format_xgid(position, match),
              lambda: format_xgid(position, match) == EXAMPLE_XGID),
        _Case(
            "parse GNU Backgammon ID",
            lambda: parse_gnubg_ids(gnubg_text),
            lambda: format_gnubg_ids(*_with_match(parse_gnubg_ids(gnubg_text))) == gnubg_text,
        ),
        _Case("pip counts", position.pip_counts, lambda: opening.pip_counts() == (167, 167)),
        _Case("flip position", position.flip, lambda: position.flip().flip() == position),
        _Case(
            "legal moves + notation (opening, 31)",
            lambda: [str(legal.move) for legal in opening.legal_moves((3, 1))],
            lambda: len(opening.legal_moves((3, 1))) == OPENING_31_PLAYS,
        ),
        *_single_position_cases(opening),
        *_race_and_cube_cases(),
        _self_play_case(),
    ]
    settings = RolloutSettings(trials=ROLLOUT_TRIALS, seed=1)
    cases.append(_Case(f"rollout, {ROLLOUT_TRIALS} trials (opening)",
                       lambda: rollout(opening, settings=settings),
                       lambda: rollout(opening, settings=settings).trials == ROLLOUT_TRIALS))
    cases.append(
        _Case("SVG board", lambda: board(position, match=match),
              lambda: str(board(position, match=match)).startswith("<svg"))
    )
    return cases


def _single_position_cases(opening: Position) -> list[_Case]:
    """The three calls of issue 18: one evaluation, one roll ranked, one 2-ply best move."""
    batched = default_evaluator().evaluate_batch([opening])[0]  # the kernel's batch path
    best_31 = Move.parse("8/5 6/5")

    def same_as_batch() -> bool:
        return evaluate(opening).probabilities.as_tuple() == tuple(float(x) for x in batched)

    def ranked_31() -> bool:
        ranked = rank_moves(opening, (3, 1))
        return len(ranked) == OPENING_31_PLAYS and ranked[0].move == best_31

    return [
        _Case("0-ply evaluation, one position", lambda: evaluate(opening), same_as_batch),
        _Case("rank every play of 31, 0-ply", lambda: rank_moves(opening, (3, 1)), ranked_31),
        _Case("best play of 31, 2-ply", lambda: best_move(opening, (3, 1), plies=2),
              lambda: best_move(opening, (3, 1), plies=2).move == best_31),
    ]


def _race_and_cube_cases() -> list[_Case]:
    """Race evaluation of a bear-off and a money cube decision."""
    last_checkers = Position.from_points({1: 1}, {1: 1})  # on roll bears off first: a certain win
    bear_off = Position.from_points({4: 2, 5: 3, 6: 2}, {4: 2, 5: 3, 6: 2})
    chances = (0.9, 0.0, 0.0, 0.0, 0.0)  # a textbook double and pass in money play
    return [
        _Case("race evaluation (bear-off, 7 v 7)", lambda: race.evaluate(bear_off),
              lambda: float(race.evaluate(last_checkers)[0]) == 1.0),
        _Case("cube decision (money)", lambda: cube_decision(probabilities=chances),
              lambda: str(cube_decision(probabilities=chances).action) == "Double / pass"),
    ]


def _self_play_case() -> _Case:
    """One seeded game between two random agents, played to the end."""

    def game() -> bool:
        return play_game(RandomAgent(7), RandomAgent(8), seed=2024).is_over

    return _Case("random self-play game", game, game)


def _with_match(parsed: tuple[Position, MatchState | None]) -> tuple[Position, MatchState]:
    position, match = parsed
    return position, match if match is not None else MatchState()


def _time(run: Callable[[], object], budget: float) -> BenchResult:
    """Call ``run`` in growing batches until ``budget`` seconds are spent."""
    calls, batch, spent = 0, 1, 0.0
    while spent < budget:
        start = time.perf_counter()
        for _ in range(batch):
            run()
        spent += time.perf_counter() - start
        calls += batch
        batch *= 2
    return BenchResult("", calls, spent)


def run_quick_bench(budget_seconds: float = 0.2) -> list[BenchResult]:
    """Time every operation for about ``budget_seconds`` each, after checking it."""
    results = []
    for case in _cases():
        if not case.check():
            raise AssertionError(f"bench case {case.name!r} gave a wrong answer; not timing it")
        timed = _time(case.run, budget_seconds)
        results.append(BenchResult(case.name, timed.calls, timed.seconds))
    return results


def machine_summary() -> dict[str, object]:
    """The facts that make speed figures comparable: Python, platform, cores."""
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
    }

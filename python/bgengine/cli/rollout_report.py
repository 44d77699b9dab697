"""Rollouts for the command line: the position before the roll, or candidate plays of a roll.

Wraps ``bgengine.rollout`` so that every candidate play is rolled out with the same seed
(common dice) and reports progress per candidate; converts results to the CLI's JSON.
Results are from the player on roll's view (for plays: the mover's).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bgengine.cli import report as analysis
from bgengine.cli.report import FeatureUnavailableError, probabilities_dict, ranked_moves
from bgengine.match_state import MatchState
from bgengine.position import Position

#: progress(label, done, total, estimate) after each block of trials.
Progress = Callable[[str, int, int, Any], None]
DEFAULT_CANDIDATES = 5


@dataclass(frozen=True)
class PlayRollout:
    """One candidate play and its rollout (the mover's view)."""

    move: str
    result_position: Position
    result: Any  # bgengine.rollouts.monte_carlo.RolloutResult


@dataclass(frozen=True)
class RolloutReport:
    """A rollout of the position before the roll (``result``) or of plays of ``dice`` (``plays``, best first)."""

    dice: tuple[int, int] | None
    result: Any | None
    plays: tuple[PlayRollout, ...] | None
    settings: Any  # bgengine.rollouts.monte_carlo.RolloutSettings, with the seed used


def rollout_module() -> Any:
    """``bgengine.rollout``, or FeatureUnavailableError while rollouts have not landed."""
    module = analysis._optional_module("rollout")
    if module is None:
        raise FeatureUnavailableError("rollouts are not available yet in this build")
    return module


def make_settings(trials: int, *, seed: int | None = None, **options: Any) -> Any:
    """RolloutSettings with a definite seed (drawn and recorded when None), so a run can be repeated."""
    module = rollout_module()
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> 1)  # a fresh 63-bit seed
    return module.RolloutSettings(trials=trials, seed=seed, **options)


def run_rollout(
    position: Position,
    match: MatchState,
    settings: Any,
    *,
    dice: tuple[int, int] | None = None,
    moves: Sequence[str] = (),
    candidates: int = DEFAULT_CANDIDATES,
    plies: int | None = None,
    progress: Progress | None = None,
) -> RolloutReport:
    """Roll out ``position`` before the roll, or with ``dice`` the given ``moves`` (else the
    ``candidates`` best plays by the evaluator), each with the same seed."""
    module = rollout_module()
    if dice is None:
        callback = None if progress is None else (
            lambda done, total, estimate: progress("rollout", done, total, estimate)
        )
        result = module.rollout(position, match, settings=settings, progress=callback)
        return RolloutReport(None, result, None, settings)
    if moves:
        legal = position.legal_moves(dice)  # type: ignore[attr-defined]
        chosen = [(str(legal.moves[index]), legal.position_after(index)) for index in (legal.index(m) for m in moves)]
    else:
        ranked, _ = ranked_moves(position, dice, plies)
        chosen = [(choice.move, choice.result) for choice in ranked[:candidates]]
    plays = []
    for number, (move, after) in enumerate(chosen, start=1):
        label = f"{move} ({number}/{len(chosen)})"
        callback = None if progress is None else (  # estimates come from the opponent's side: flip them
            lambda done, total, estimate, label=label: progress(label, done, total, estimate.flipped())
        )
        [(_, result)] = module.rollout_moves(position, dice, [after], match, settings=settings, progress=callback)
        plays.append(PlayRollout(move, after, result))
    plays.sort(key=lambda play: -_deciding_equity(play.result))
    return RolloutReport(dice, None, tuple(plays), settings)


def _deciding_equity(result: Any) -> float:
    """The equity plays are ranked by: cubeful when the rollout is cubeful."""
    return result.cubeful_equity if result.cubeful_equity is not None else result.equity


# ----- JSON -------------------------------------------------------------------------------


def result_dict(result: Any) -> dict[str, Any]:
    """One RolloutResult as plain numbers with its standard errors and 95% interval."""
    low, high = result.equity_ci95
    return {
        "probabilities": probabilities_dict(result.probabilities),
        "probability_standard_errors": probabilities_dict(result.probability_standard_errors),
        "equity": round(result.equity, 6),
        "equity_standard_error": round(result.equity_standard_error, 6),
        "equity_ci95": [round(low, 6), round(high, 6)],
        "cubeful_equity": None if result.cubeful_equity is None else round(result.cubeful_equity, 6),
        "cubeful_standard_error": (
            None if result.cubeful_standard_error is None else round(result.cubeful_standard_error, 6)
        ),
        "cubeful_unit": None if result.cubeful_unit is None else result.cubeful_unit.value,
        "trials": result.trials,
        "seconds": round(result.seconds, 3),
        "average_plies": round(result.average_plies, 2),
    }


def settings_dict(settings: Any) -> dict[str, Any]:
    """The settings that make a rollout repeatable (the seed included)."""
    names = ("trials", "seed", "quasi_random", "variance_reduction", "truncate_plies", "cubeful",
             "target_standard_error", "bearoff_tables")
    return {name: getattr(settings, name) for name in names}


def report_dict(report: RolloutReport) -> dict[str, Any]:
    """The ``rollout`` object of the CLI's JSON."""
    plays = None
    if report.plays is not None:
        best = _deciding_equity(report.plays[0].result) if report.plays else 0.0
        plays = [
            {
                "rank": rank,
                "move": play.move,
                "position_id": play.result_position.gnubg_id(),
                "difference": round(_deciding_equity(play.result) - best, 6),
                "result": result_dict(play.result),
            }
            for rank, play in enumerate(report.plays, start=1)
        ]
    return {
        "settings": settings_dict(report.settings),
        "dice": list(report.dice) if report.dice else None,
        "result": None if report.result is None else result_dict(report.result),
        "moves": plays,
    }

"""Rollouts for the command line: the position before the roll, or candidate plays of a roll.

Wraps ``bgengine.rollout`` so that every candidate play is rolled out with the same seed
(common dice) and reports progress per candidate; converts results to the CLI's JSON.
Results are from the player on roll's view (for plays: the mover's).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bgengine.cli.report import probabilities_dict, ranked_moves
from bgengine.cube.referee import cube_referee
from bgengine.match_state import MatchState
from bgengine.position import Position
from bgengine.rollouts.monte_carlo import RolloutResult, RolloutSettings, paired_standard_error, rollout, rollout_moves

#: progress(label, done, total, estimate) after each block of trials.
Progress = Callable[[str, int, int, Any], None]
DEFAULT_CANDIDATES = 5


@dataclass(frozen=True)
class PlayRollout:
    """One candidate play and its rollout (the mover's view)."""

    move: str
    result_position: Position
    result: RolloutResult


@dataclass(frozen=True)
class RolloutReport:
    """A rollout of the position before the roll (``result``) or of plays of ``dice`` (``plays``, best first)."""

    dice: tuple[int, int] | None
    result: RolloutResult | None
    plays: tuple[PlayRollout, ...] | None
    settings: RolloutSettings  # with the seed used
    cubeful: bool = False  # cube decisions were played inside the games (at the settings' cube depth)


def make_settings(trials: int, *, seed: int | None = None, preset: str | None = None, **options: Any) -> RolloutSettings:
    """RolloutSettings (a named preset's, when given) with a definite seed (drawn and
    recorded when None), so a run can be repeated."""
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> 1)  # a fresh 63-bit seed
    if preset is not None:
        return RolloutSettings.preset(preset, trials=trials, seed=seed, **options)
    return RolloutSettings(trials=trials, seed=seed, **options)


def run_rollout(
    position: Position,
    match: MatchState,
    settings: RolloutSettings,
    *,
    cubeful: bool = False,
    dice: tuple[int, int] | None = None,
    moves: Sequence[str] = (),
    candidates: int = DEFAULT_CANDIDATES,
    plies: int | None = None,
    progress: Progress | None = None,
) -> RolloutReport:
    """Roll out ``position`` before the roll, or with ``dice`` the given ``moves`` (else the
    ``candidates`` best plays by the evaluator), each with the same seed; ``cubeful`` plays
    the cube inside the games (``bgengine.cube_referee()``)."""
    referee = cube_referee() if cubeful else None
    if dice is None:
        callback = None if progress is None else (
            lambda done, total, estimate: progress("rollout", done, total, estimate)
        )
        result = rollout(position, match, settings=settings, progress=callback, referee=referee)
        return RolloutReport(None, result, None, settings, cubeful)
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
        [(_, result)] = rollout_moves(
            position, dice, [after], match, settings=settings, progress=callback, referee=referee,
            keep_trial_values=True,
        )
        plays.append(PlayRollout(move, after, result))
    plays.sort(key=lambda play: -_deciding_equity(play.result))
    return RolloutReport(dice, None, tuple(plays), settings, cubeful)


def difference_standard_error(play: PlayRollout, best: PlayRollout) -> float | None:
    """Standard error of ``play``'s equity minus ``best``'s, trial by trial (the plays share
    their dice); None unless both kept their trial values for as many trials (a stop rule
    may end them apart)."""
    values, best_values = play.result.trial_values, best.result.trial_values
    if values is None or best_values is None or len(values) != len(best_values):
        return None
    return paired_standard_error(best.result, play.result)


def _rounded_error(error: float | None) -> float | None:
    return None if error is None or not math.isfinite(error) else round(error, 6)


def _deciding_equity(result: RolloutResult) -> float:
    """The equity plays are ranked by: cubeful when the rollout is cubeful."""
    return result.cubeful_equity if result.cubeful_equity is not None else result.equity


# ----- JSON -------------------------------------------------------------------------------


def result_dict(result: RolloutResult) -> dict[str, Any]:
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


def settings_dict(settings: RolloutSettings, cubeful: bool) -> dict[str, Any]:
    """The settings that make a rollout repeatable (the seed included)."""
    names = ("trials", "seed", "quasi_random", "variance_reduction", "truncate_plies", "target_standard_error",
             "bearoff_tables")
    depth = settings.lookahead
    return {**{name: getattr(settings, name) for name in names}, "cubeful": cubeful,
            "checker_plies": depth.checker_plies, "cube_plies": depth.cube_plies,
            "later_plies": settings.later_plies, "later_from": settings.later_from}


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
                "difference_standard_error": None if rank == 1 else _rounded_error(
                    difference_standard_error(play, report.plays[0])),
                "result": result_dict(play.result),
            }
            for rank, play in enumerate(report.plays, start=1)
        ]
    return {
        "settings": settings_dict(report.settings, report.cubeful),
        "dice": list(report.dice) if report.dice else None,
        "result": None if report.result is None else result_dict(report.result),
        "moves": plays,
    }

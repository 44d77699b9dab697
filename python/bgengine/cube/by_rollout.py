"""Cube decisions by cubeful rollouts: No double and Double/Take played out, Double/Pass exact.

No double rolls out the position with the cube as it is (``rollout`` never lets the root
double before its first roll); Double/Take rolls it out with the cube doubled and owned by
the taker, so the player on roll rolls and cannot double. Both lines use the same seed, so
trial t of each throws the same dice at every ply and their difference is sharper than
either standard error suggests; its own standard error is taken trial by trial
(``rollouts.monte_carlo.paired_standard_error``).
Cube decisions inside the games are made by ``cube_decision`` at 0 plies. A money position
already in the two-sided bear-off table gets the table's exact equities when the
rollout may use the tables (``bearoff_tables``): a rollout would stop at once there.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bgengine.cube.bearoff_exact import exact_money_doubling_functions
from bgengine.cube.decision import CubeDecision, EquityUnit, cube_decision, decision_from_equities, efficiency_fields
from bgengine.cube.efficiency import efficiency_for
from bgengine.errors import InvalidCubeSettingsError
from bgengine.cube.match_equity import MatchScore, emg_reference, mwc_after_game
from bgengine.match_state import MatchState
from bgengine.cube.met import MatchEquityTable, default_met
from bgengine.position import Position
from bgengine.cube.referee import cube_referee
from bgengine.rollouts.monte_carlo import (RolloutResult, RolloutSettings, StagedRollout, paired_standard_error,
                                           rollout)


def rollout_decision(
    position: Position,
    match: MatchState,
    settings: Any,
    evaluator: Any,
    met: MatchEquityTable | None,
    cube_efficiency: float | None,
) -> CubeDecision:
    """The decision of the player on roll from cubeful rollouts of both lines (see module doc).

    Money equities are per current cube (the Double/Take line, rolled out at twice the
    cube, is scaled back); match equities are MWC. The stop rule (``target_standard_error``)
    acts on No double; Double/Take then plays the same number of trials. ``cube_efficiency``
    is that of the cube decisions inside the games (None: the contact value; the referee
    sees probabilities, not positions).
    """
    settings = _checked_settings(settings, met)
    efficiency = efficiency_for(position, cube_efficiency, match)  # reported: the root's
    referee = cube_referee(cube_efficiency)
    root = match.with_changes(dice=None, double_offered=False)
    if settings.bearoff_tables:
        exact = exact_money_doubling_functions(position, root, root.relative_cube_owner())
        if exact is not None:  # the kernel would stop at the root: the table is the answer
            decision = cube_decision(position, match)
            return replace(decision, note=f"{decision.note}; nothing to roll out")
    reason = root.why_no_double()
    doubled = None if reason else root.with_changes(cube_value=2 * root.cube_value, cube_owner=1 - root.on_roll)
    scale = 2.0 if match.is_money else 1.0  # a money line's equity is per doubled cube
    double_pass = 1.0 if match.is_money else mwc_after_game(met or default_met(), MatchScore.from_match_state(root),
                                                              root.cube_value, 0)
    take: RolloutResult | None = None
    if settings.decision_z is not None and doubled is not None:
        beavers = match.is_money and root.may_beaver()
        no_double, take = _until_clear(position, root, doubled, settings, evaluator, referee, scale, double_pass,
                                       beavers)
    else:
        no_double = rollout(position, root, settings=settings, evaluator=evaluator, referee=referee,
                            keep_trial_values=True)
    settings = no_double.settings  # with the seed drawn, for the Double/Take line too
    fields: dict[str, Any] = dict(
        probabilities=no_double.probabilities, **efficiency_fields(efficiency), match=match,
        trials=no_double.trials, rollout_settings=settings, no_double_standard_error=no_double.cubeful_standard_error,
    )
    if match.is_money:
        fields.update(unit=EquityUnit.MONEY, emg_reference=None)
    else:
        table = met or default_met()
        score = MatchScore.from_match_state(match)
        fields.update(unit=EquityUnit.MWC, emg_reference=emg_reference(table, score))
    assert no_double.cubeful_equity is not None
    if doubled is None:
        return decision_from_equities(no_double.cubeful_equity, None, None, None, note=reason, **fields)
    if take is not None and take.trials < settings.trials:
        fields.update(note=f"stopped after {take.trials} trials: both choices clear by {settings.decision_z:g}"
                           " standard errors")
    if take is None:
        same_trials = replace(settings, trials=no_double.trials, target_standard_error=None)
        take = rollout(position, doubled, settings=same_trials, evaluator=evaluator, referee=referee,
                       keep_trial_values=True)
    assert take.cubeful_equity is not None and take.cubeful_standard_error is not None
    difference_error = paired_standard_error(no_double, take, scale)
    if match.is_money:
        double_take, double_take_error = scale * take.cubeful_equity, scale * take.cubeful_standard_error
        beaver_allowed = root.may_beaver()
        double_beaver = 2.0 * double_take if beaver_allowed else None  # same game at twice the stake
        double_beaver_error = 2.0 * double_take_error if beaver_allowed else None
    else:
        double_take, double_take_error = take.cubeful_equity, take.cubeful_standard_error
        double_beaver = double_beaver_error = None
    return decision_from_equities(
        no_double.cubeful_equity, double_take, double_pass, double_beaver,
        double_take_standard_error=double_take_error, double_beaver_standard_error=double_beaver_error,
        double_take_minus_no_double_standard_error=difference_error, **fields,
    )


def _until_clear(
    position: Position, root: MatchState, doubled: MatchState, settings: RolloutSettings, evaluator: Any,
    referee: Any, scale: float, double_pass: float, beavers: bool,
) -> tuple[RolloutResult, RolloutResult]:
    """Both lines played side by side, ``min_trials`` at a time, until ``_clear`` (or all trials)."""
    no_double = StagedRollout(position, root, settings=settings, evaluator=evaluator, referee=referee)
    take = StagedRollout(position, doubled, settings=no_double.settings, evaluator=evaluator, referee=referee)
    while True:
        trials = min(settings.trials, no_double.trials + settings.min_trials)
        no_double.extend(trials)
        take.extend(trials)
        results = no_double.result(), take.result()
        if no_double.trials >= settings.trials or _clear(*results, scale, double_pass, beavers, settings.decision_z):
            return results


def _clear(no_double: RolloutResult, take: RolloutResult, scale: float, double_pass: float, beavers: bool,
           z: float | None) -> bool:
    """Whether the taker's choice (take against the exact pass, and against a beaver when
    beavers are on) and the doubler's (No double against the taker's answer) each lead by
    ``z`` standard errors of their difference (the doubler's against Double/Take or
    Double/Beaver paired trial by trial)."""
    assert z is not None and no_double.cubeful_equity is not None and take.cubeful_equity is not None
    assert no_double.cubeful_standard_error is not None and take.cubeful_standard_error is not None
    double_take, take_error = scale * take.cubeful_equity, scale * take.cubeful_standard_error
    taker_clear = abs(double_take - double_pass) > z * take_error
    if beavers:  # a beaver doubles Double/Take: the taker beavers when it is below 0
        taker_clear = taker_clear and abs(double_take) > z * take_error
    answer_scale = 2.0 * scale if beavers and double_take < 0 else scale
    if double_take <= double_pass:  # the taker takes (or beavers): paired with No double
        answer = answer_scale * take.cubeful_equity
        error = paired_standard_error(no_double, take, answer_scale)
    else:  # the taker passes: the exact Double/Pass
        answer, error = double_pass, no_double.cubeful_standard_error
    return taker_clear and abs(answer - no_double.cubeful_equity) > z * error


def _checked_settings(settings: Any, met: MatchEquityTable | None) -> RolloutSettings:
    """The rollout settings of both lines, or a typed error."""
    if not isinstance(settings, RolloutSettings):
        raise InvalidCubeSettingsError(f"rollout must be RolloutSettings, got {type(settings).__name__}")
    if met is not None and met is not default_met():
        raise InvalidCubeSettingsError(
            "rollouts value match games with the default match equity table; a custom met is not supported there"
        )
    return settings


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
from bgengine.rollouts.monte_carlo import RolloutSettings, paired_standard_error, rollout


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
    no_double = rollout(position, root, settings=settings, evaluator=evaluator, referee=referee, keep_trial_values=True)
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
    reason = root.why_no_double()
    if reason:
        return decision_from_equities(no_double.cubeful_equity, None, None, None, note=reason, **fields)
    taker = 1 - root.on_roll
    doubled = root.with_changes(cube_value=2 * root.cube_value, cube_owner=taker)
    same_trials = replace(settings, trials=no_double.trials, target_standard_error=None)
    take = rollout(position, doubled, settings=same_trials, evaluator=evaluator, referee=referee, keep_trial_values=True)
    assert take.cubeful_equity is not None and take.cubeful_standard_error is not None
    scale = 2.0 if match.is_money else 1.0  # a money line's equity is per doubled cube
    difference_error = paired_standard_error(no_double, take, scale)
    if match.is_money:
        double_take, double_take_error = scale * take.cubeful_equity, scale * take.cubeful_standard_error
        double_pass = 1.0
        beaver_allowed = root.may_beaver()
        double_beaver = 2.0 * double_take if beaver_allowed else None  # same game at twice the stake
        double_beaver_error = 2.0 * double_take_error if beaver_allowed else None
    else:
        double_take, double_take_error = take.cubeful_equity, take.cubeful_standard_error
        double_pass = mwc_after_game(met or default_met(), MatchScore.from_match_state(root), root.cube_value, 0)
        double_beaver = double_beaver_error = None
    return decision_from_equities(
        no_double.cubeful_equity, double_take, double_pass, double_beaver,
        double_take_standard_error=double_take_error, double_beaver_standard_error=double_beaver_error,
        double_take_minus_no_double_standard_error=difference_error, **fields,
    )


def _checked_settings(settings: Any, met: MatchEquityTable | None) -> RolloutSettings:
    """The rollout settings of both lines, or a typed error."""
    if not isinstance(settings, RolloutSettings):
        raise InvalidCubeSettingsError(f"rollout must be RolloutSettings, got {type(settings).__name__}")
    if met is not None and met is not default_met():
        raise InvalidCubeSettingsError(
            "rollouts value match games with the default match equity table; a custom met is not supported there"
        )
    return settings


"""Cube decisions by cubeful rollouts (``cube_decision(..., rollout=RolloutSettings(...))``)."""

import pytest

from bgengine import CubeAction, EquityUnit, InvalidCubeSettingsError, MatchState, Position, cube_decision
from bgengine.rollouts.monte_carlo import RolloutSettings

# Money bear-offs in the two-sided table, played out (bearoff_tables=False) so the
# rollout really plays games; the table gives the exact decision to agree with.
CLEAR_PASS = Position.from_points({1: 2, 2: 2, 3: 1}, opponent={1: 1, 2: 2, 4: 2})
NO_DOUBLE = Position.from_points({1: 1, 2: 2, 5: 1, 6: 2}, opponent={1: 1, 2: 2, 4: 2, 6: 1})
PLAYED_OUT = RolloutSettings(trials=432, seed=3, bearoff_tables=False)
RACE = Position.from_points({6: 4, 5: 3, 4: 3, 3: 2, 8: 1}, opponent={6: 4, 5: 4, 4: 3, 2: 2})


#: The cube efficiency exact values fit in such short bear-offs (docs/cube.md, "How the
#: efficiencies were chosen"); the referee's default, the contact value, plays the cube
#: there less well than the table does.
SHORT_BEAROFF_EFFICIENCY = 0.57


@pytest.mark.parametrize("position", [CLEAR_PASS, NO_DOUBLE])
def test_rollout_agrees_with_the_exact_bearoff_table_within_its_errors(position):
    exact = cube_decision(position)
    rolled = cube_decision(position, rollout=PLAYED_OUT, cube_efficiency=SHORT_BEAROFF_EFFICIENCY)
    assert "exact" in exact.note and rolled.trials == 432
    assert rolled.action is exact.action
    assert rolled.double_pass == 1.0
    assert abs(rolled.double_take - exact.double_take) < 4 * rolled.double_take_standard_error
    if exact.action is CubeAction.NO_DOUBLE_TAKE:  # the table's centred value is No double here
        assert abs(rolled.no_double - exact.no_double) < 4 * rolled.no_double_standard_error


def test_rollout_decision_is_reproducible_with_a_seed_and_records_it():
    first = cube_decision(NO_DOUBLE, rollout=PLAYED_OUT)
    again = cube_decision(NO_DOUBLE, rollout=PLAYED_OUT)
    assert (first.no_double, first.double_take) == (again.no_double, again.double_take)
    other = cube_decision(NO_DOUBLE, rollout=RolloutSettings(trials=432, seed=4, bearoff_tables=False))
    assert other.no_double != first.no_double
    drawn = cube_decision(NO_DOUBLE, rollout=RolloutSettings(trials=72, bearoff_tables=False))
    assert drawn.rollout_settings.seed is not None


def test_rollout_errors_are_reported_and_shown():
    decision = cube_decision(RACE, rollout=RolloutSettings(trials=144, seed=1))
    assert decision.unit is EquityUnit.MONEY and decision.trials == 144
    assert 0 < decision.no_double_standard_error < 0.2 and 0 < decision.double_take_standard_error < 0.4
    assert decision.take_point is None and decision.errors is not None
    text = str(decision)
    assert "cubeful rollout, 144 trials per line" in text and "±" in text


def test_double_take_line_is_the_position_rolled_out_with_the_cube_on_the_taker_side():
    from bgengine import cube_referee, rollout

    settings = RolloutSettings(trials=144, seed=2)
    decision = cube_decision(RACE, rollout=settings)
    taker_owns = rollout(RACE, MatchState(cube_value=2, cube_owner=1), settings=settings, referee=cube_referee())
    centred = rollout(RACE, MatchState(), settings=settings, referee=cube_referee())
    assert decision.double_take == pytest.approx(2 * taker_owns.cubeful_equity)
    assert decision.double_take_standard_error == pytest.approx(2 * taker_owns.cubeful_standard_error)
    assert decision.no_double == pytest.approx(centred.cubeful_equity)


def test_the_difference_of_the_lines_has_its_own_standard_error_taken_trial_by_trial():
    from bgengine import cube_referee, rollout

    settings = RolloutSettings(trials=144, seed=2)
    decision = cube_decision(RACE, rollout=settings)
    taker_owns = rollout(RACE, MatchState(cube_value=2, cube_owner=1), settings=settings, referee=cube_referee(),
                         keep_trial_values=True)
    centred = rollout(RACE, MatchState(), settings=settings, referee=cube_referee(), keep_trial_values=True)
    differences = 2 * taker_owns.trial_values - centred.trial_values
    expected = differences.std(ddof=1) / len(differences) ** 0.5
    assert decision.double_take_minus_no_double_standard_error == pytest.approx(expected)
    assert decision.double_take - decision.no_double == pytest.approx(differences.mean())
    # the same dice in both lines: the difference is sharper than two independent lines
    independent = (decision.no_double_standard_error ** 2 + decision.double_take_standard_error ** 2) ** 0.5
    assert decision.double_take_minus_no_double_standard_error < independent
    assert "Double/Take - No double" in str(decision)


def test_a_decision_rollout_stops_once_both_choices_are_clear():
    settings = RolloutSettings(trials=720, seed=4, min_trials=72, decision_z=2.0)
    early = cube_decision(RACE, rollout=settings)
    assert early.trials < 720 and early.trials % 72 == 0
    # the lines played so far are exactly the first trials of a plain rollout of the same seed
    plain = cube_decision(RACE, rollout=RolloutSettings(trials=early.trials, seed=4))
    assert (early.no_double, early.double_take) == (plain.no_double, plain.double_take)
    assert early.double_take_minus_no_double_standard_error == plain.double_take_minus_no_double_standard_error
    assert early.action is plain.action
    # never clear at a thousand standard errors: every trial is played
    patient = cube_decision(RACE, rollout=RolloutSettings(trials=216, seed=4, min_trials=72, decision_z=1000.0))
    assert patient.trials == 216
    beavers = MatchState(beavers=True)
    staged = cube_decision(RACE, beavers, rollout=settings)
    same = cube_decision(RACE, beavers, rollout=RolloutSettings(trials=staged.trials, seed=4))
    assert staged.action is same.action and staged.double_beaver == same.double_beaver


def test_match_rollout_is_in_match_winning_chances_and_converts_to_emg():
    match = MatchState(match_length=5, score=(1, 2))
    decision = cube_decision(RACE, match, rollout=RolloutSettings(trials=144, seed=1))
    model = cube_decision(RACE, match)
    assert decision.unit is EquityUnit.MWC
    assert decision.double_pass == pytest.approx(model.double_pass)
    assert 0.0 < decision.no_double < 1.0 and 0.0 < decision.double_take < 1.0
    emg = decision.to_emg()
    assert emg.double_pass == pytest.approx(1.0)
    assert emg.no_double_standard_error == pytest.approx(decision.no_double_standard_error * 2 / (match_span(decision)))
    assert emg.double_take_minus_no_double_standard_error == pytest.approx(
        decision.double_take_minus_no_double_standard_error * 2 / match_span(decision))


def match_span(decision):
    win, lose = decision.emg_reference
    return win - lose


def test_no_double_allowed_rolls_out_only_no_double():
    crawford = MatchState(match_length=5, score=(4, 2), crawford=True)
    decision = cube_decision(RACE, crawford, rollout=RolloutSettings(trials=72, seed=1))
    assert decision.action is CubeAction.NO_CUBE_ACTION and decision.double_take is None
    assert decision.no_double_standard_error is not None and "Crawford" in decision.note
    assert decision.double_take_minus_no_double_standard_error is None


def test_beavers_double_the_take_line():
    decision = cube_decision(RACE, MatchState(beavers=True), rollout=RolloutSettings(trials=72, seed=1))
    assert decision.double_beaver == pytest.approx(2 * decision.double_take)
    assert decision.double_beaver_standard_error == pytest.approx(2 * decision.double_take_standard_error)


def test_a_table_position_with_tables_on_is_exact_not_rolled_out():
    decision = cube_decision(NO_DOUBLE, rollout=RolloutSettings(trials=72, seed=1))
    exact = cube_decision(NO_DOUBLE)
    assert (decision.no_double, decision.double_take, decision.action) == (
        exact.no_double, exact.double_take, exact.action)
    assert "nothing to roll out" in decision.note and decision.trials is None


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        (dict(rollout=100), "RolloutSettings"),
        (dict(rollout=RolloutSettings(trials=10), plies=2), "without plies"),
        (dict(rollout=RolloutSettings(trials=10), probabilities=[0.5, 0, 0, 0, 0]), "without plies"),
    ],
)
def test_bad_rollout_settings_raise_typed_errors(kwargs, fragment):
    with pytest.raises(InvalidCubeSettingsError, match=fragment):
        cube_decision(RACE, **kwargs)


def test_a_rollout_needs_a_position():
    with pytest.raises(InvalidCubeSettingsError, match="position"):
        cube_decision(rollout=RolloutSettings(trials=10))


def test_a_given_cube_efficiency_drives_the_decisions_inside_the_games():
    settings = RolloutSettings(trials=72, seed=1)
    given = cube_decision(RACE, cube_efficiency=0.9, rollout=settings)
    assert given.cube_efficiency == 0.9
    again = cube_decision(RACE, cube_efficiency=0.9, rollout=settings)
    assert (again.no_double, again.double_take) == (given.no_double, given.double_take)
    dead = cube_decision(RACE, cube_efficiency=0.0, rollout=settings)  # same dice, other cube play inside
    assert (dead.no_double, dead.double_take) != (given.no_double, given.double_take)
    with pytest.raises(InvalidCubeSettingsError, match="efficiency"):
        cube_decision(RACE, cube_efficiency=1.5, rollout=settings)

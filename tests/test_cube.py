"""Money cube decisions (Janowski) and the cube_decision API."""

import numpy as np
import pytest
from conftest import random_bearoff_positions

from bgengine import (
    CubeAction,
    CubeOwner,
    EquityUnit,
    InvalidCubeSettingsError,
    InvalidPositionError,
    InvalidProbabilitiesError,
    MatchState,
    MissingEvaluatorError,
    Position,
    cube_decision,
    parse_xgid,
)
from bgengine.cube.efficiency import (
    BEAROFF_EFFICIENCY,
    CONTACT,
    CONTACT_EFFICIENCY,
    RACE_EFFICIENCY_LONG,
    RACE_EFFICIENCY_SHORT,
)
from bgengine.cube.janowski import cash_point, live_cash_point, live_take_point, take_point

GAMMONLESS = [0.5, 0.0, 0.0, 0.0, 0.0]


def gammonless(win):
    return [win, 0.0, 0.0, 0.0, 0.0]


# ----- textbook take points ---------------------------------------------------------------


def test_gammonless_take_point_is_25_percent_with_a_dead_cube():
    assert take_point(1.0, 1.0, 0.0) == pytest.approx(0.25)
    assert cube_decision(probabilities=GAMMONLESS, cube_efficiency=0.0).take_point == pytest.approx(0.25)


def test_gammonless_take_point_is_20_percent_with_a_fully_live_cube():
    assert take_point(1.0, 1.0, 1.0) == pytest.approx(0.20)
    assert live_take_point(1.0, 1.0) == pytest.approx(0.20)
    assert cube_decision(probabilities=GAMMONLESS, cube_efficiency=1.0).take_point == pytest.approx(0.20)


def test_gammonless_take_point_is_about_21_4_percent_at_efficiency_0_68():
    assert take_point(1.0, 1.0, 0.68) == pytest.approx(0.5 / 2.34)
    decision = cube_decision(probabilities=GAMMONLESS, cube_efficiency=0.68)
    assert decision.take_point == pytest.approx(0.5 / 2.34)
    assert round(decision.take_point, 3) == 0.214


def test_without_a_position_the_contact_efficiencies_are_used():
    decision = cube_decision(probabilities=GAMMONLESS)
    assert decision.cube_efficiency == CONTACT_EFFICIENCY == CONTACT.centred
    assert decision.cube_efficiency_doubled == CONTACT.opponent_owns
    # the take point is where Double/Take (the taker owning the cube) meets Double/Pass
    assert decision.take_point == pytest.approx(take_point(1.0, 1.0, CONTACT.opponent_owns))


def test_live_cash_point_is_80_percent_without_gammons():
    assert live_cash_point(1.0, 1.0) == pytest.approx(0.8)


@pytest.mark.parametrize("efficiency", [0.0, 0.5, 0.68, 1.0])
def test_decision_take_point_is_janowskis_formula_with_the_takers_w_and_l(efficiency):
    chances = [0.7, 0.25, 0.02, 0.08, 0.01]
    decision = cube_decision(probabilities=chances, cube_efficiency=efficiency)
    doubler_w = decision.probabilities.average_win_value()
    doubler_l = decision.probabilities.average_loss_value()
    # The taker's wins are the doubler's losses and the other way round.
    assert decision.take_point == pytest.approx(take_point(doubler_l, doubler_w, efficiency))
    assert decision.cash_point == pytest.approx(cash_point(doubler_w, doubler_l, efficiency))
    assert decision.take_point + decision.cash_point == pytest.approx(1.0)


def test_double_take_equals_double_pass_exactly_at_the_cash_point():
    chances = [0.7, 0.25, 0.02, 0.08, 0.01]
    first = cube_decision(probabilities=chances)
    w_share = [v / 0.7 for v in chances[1:3]]
    l_share = [v / 0.3 for v in chances[3:5]]
    p = first.cash_point
    at_cash_point = [p, w_share[0] * p, w_share[1] * p, l_share[0] * (1 - p), l_share[1] * (1 - p)]
    decision = cube_decision(probabilities=at_cash_point)
    assert decision.double_take == pytest.approx(decision.double_pass)


# ----- actions ------------------------------------------------------------------------------


def test_ninety_percent_without_gammons_is_double_pass():
    decision = cube_decision(probabilities=gammonless(0.9))
    assert decision.action is CubeAction.DOUBLE_PASS
    assert decision.double_take > decision.double_pass == 1.0 > decision.no_double
    assert decision.unit is EquityUnit.MONEY


@pytest.mark.parametrize(
    "chances, action",
    [
        (gammonless(0.6), CubeAction.NO_DOUBLE_TAKE),
        (gammonless(0.72), CubeAction.DOUBLE_TAKE),
        (gammonless(0.9), CubeAction.DOUBLE_PASS),
        ([0.6, 0.6, 0.1, 0.0, 0.0], CubeAction.TOO_GOOD_PASS),
    ],
)
def test_proper_action_for_money(chances, action):
    # Janowski's textbook efficiency, so the windows stay where the examples put them.
    assert cube_decision(probabilities=chances, cube_efficiency=0.68).action is action


def test_redoubles_are_named_as_redoubles():
    match = MatchState(cube_value=2, cube_owner=0)

    def action(chances):
        return cube_decision(probabilities=chances, match=match, cube_efficiency=0.68).action

    assert action(gammonless(0.9)) is CubeAction.REDOUBLE_PASS
    assert action(gammonless(0.72)) is CubeAction.REDOUBLE_TAKE
    assert action(gammonless(0.6)) is CubeAction.NO_REDOUBLE_TAKE
    too_good = cube_decision(probabilities=[0.6, 0.6, 0.1, 0.0, 0.0], match=match, cube_efficiency=0.68)
    assert too_good.action is CubeAction.TOO_GOOD_REDOUBLE_PASS


def test_money_equities_are_per_current_cube():
    centred = cube_decision(probabilities=gammonless(0.7), match=MatchState(cube_value=2, cube_owner=0))
    owned_at_four = cube_decision(probabilities=gammonless(0.7), match=MatchState(cube_value=4, cube_owner=0))
    assert centred.no_double == pytest.approx(owned_at_four.no_double)
    assert centred.double_pass == owned_at_four.double_pass == 1.0


def test_owning_the_cube_is_worth_more_than_a_centred_cube():
    centred = cube_decision(probabilities=gammonless(0.6))
    owned = cube_decision(probabilities=gammonless(0.6), match=MatchState(cube_value=2, cube_owner=0))
    assert owned.no_double > centred.no_double


def test_beaver_when_doubled_in_a_losing_position_and_beavers_are_allowed():
    chances = [0.35, 0.05, 0.0, 0.1, 0.0]
    without = cube_decision(probabilities=chances)
    assert without.double_beaver is None and without.errors.taker_beaver is None
    decision = cube_decision(probabilities=chances, match=MatchState(beavers=True))
    assert decision.action is CubeAction.NO_DOUBLE_BEAVER
    assert decision.action.response == "beaver"
    assert decision.double_beaver == pytest.approx(2 * decision.double_take)
    assert decision.errors.taker_beaver == 0.0
    assert decision.errors.taker_take == pytest.approx(decision.double_take - decision.double_beaver)


def test_jacoby_rule_removes_gammons_from_the_centred_cube_only():
    chances = [0.7, 0.35, 0.02, 0.05, 0.0]
    plain = cube_decision(probabilities=chances)
    jacoby = cube_decision(probabilities=chances, match=MatchState(jacoby=True))
    assert jacoby.no_double < plain.no_double
    assert jacoby.double_take == pytest.approx(plain.double_take)
    owned = MatchState(cube_value=2, cube_owner=0)
    owned_jacoby = MatchState(cube_value=2, cube_owner=0, jacoby=True)
    assert cube_decision(probabilities=chances, match=owned).no_double == pytest.approx(
        cube_decision(probabilities=chances, match=owned_jacoby).no_double
    )


def test_jacoby_without_gammons_changes_nothing():
    plain = cube_decision(probabilities=gammonless(0.66))
    jacoby = cube_decision(probabilities=gammonless(0.66), match=MatchState(jacoby=True))
    assert jacoby.no_double == pytest.approx(plain.no_double)


# ----- errors -------------------------------------------------------------------------------


def test_errors_are_zero_for_the_right_choices_and_positive_for_the_wrong_ones():
    decision = cube_decision(probabilities=gammonless(0.9))  # double / pass
    errors = decision.errors
    assert errors.doubler_double == 0.0 and errors.taker_pass == 0.0
    assert errors.doubler_no_double == pytest.approx(1.0 - decision.no_double)
    assert errors.taker_take == pytest.approx(decision.double_take - 1.0)
    no_double = cube_decision(probabilities=gammonless(0.6)).errors  # no double / take
    assert no_double.doubler_no_double == 0.0 and no_double.taker_take == 0.0
    assert no_double.doubler_double > 0.0 and no_double.taker_pass > 0.0


def test_too_good_errors_charge_the_double():
    decision = cube_decision(probabilities=[0.6, 0.6, 0.1, 0.0, 0.0])
    assert decision.errors.doubler_no_double == 0.0
    assert decision.errors.doubler_double == pytest.approx(decision.no_double - 1.0)


# ----- no cube action -----------------------------------------------------------------------


def test_cube_is_bounded_at_64():
    decision = cube_decision(probabilities=gammonless(0.9), match=MatchState(cube_value=64, cube_owner=0))
    assert decision.action is CubeAction.NO_CUBE_ACTION
    assert decision.double_take is None and decision.errors is None and decision.take_point is None
    assert "maximum" in decision.note
    assert cube_decision(probabilities=gammonless(0.9), match=MatchState(cube_value=32, cube_owner=0)).action is (
        CubeAction.REDOUBLE_PASS
    )


def test_no_cube_action_when_the_opponent_owns_the_cube():
    decision = cube_decision(probabilities=gammonless(0.9), match=MatchState(cube_value=2, cube_owner=1))
    assert decision.action is CubeAction.NO_CUBE_ACTION
    assert "opponent owns" in decision.note
    assert decision.action.abbreviation == "-" and decision.action.response is None


def test_action_abbreviations_and_responses():
    assert CubeAction.NO_DOUBLE_TAKE.abbreviation == "ND/T"
    assert CubeAction.TOO_GOOD_REDOUBLE_PASS.abbreviation == "TG/P"
    assert CubeAction.REDOUBLE_BEAVER.abbreviation == "R/B"
    assert CubeAction.DOUBLE_PASS.doubles and not CubeAction.TOO_GOOD_PASS.doubles
    assert str(CubeAction.DOUBLE_TAKE) == "Double / take"


# ----- the API: positions, evaluators, settings -----------------------------------------------


class FixedEvaluator:
    """Test double: the same probabilities for every position, counting its calls."""

    def __init__(self, probabilities):
        self.probabilities = probabilities
        self.calls = []

    def evaluate(self, position):
        self.calls.append(position)
        return self.probabilities


def test_evaluator_gives_the_probabilities_of_the_position():
    evaluator = FixedEvaluator([0.9, 0.0, 0.0, 0.0, 0.0])
    position = Position.initial()
    decision = cube_decision(position, evaluator=evaluator)
    assert evaluator.calls == [position]
    assert decision.action is CubeAction.DOUBLE_PASS
    assert decision.probabilities.win == 0.9


def test_efficiency_follows_the_position_type():
    evaluator = FixedEvaluator(GAMMONLESS)
    race_80 = Position.from_points({6: 5, 5: 5, 4: 2, 13: 1}, opponent={6: 5, 5: 5, 4: 5})
    assert race_80.phase.value == "race"
    assert race_80.pip_counts()[0] == 30 + 25 + 8 + 13
    short, long = RACE_EFFICIENCY_SHORT, RACE_EFFICIENCY_LONG
    assert cube_decision(race_80, evaluator=evaluator).cube_efficiency == pytest.approx(short + (long - short) * 36 / 80)
    bearoff = Position.from_points({6: 5, 5: 5, 4: 5}, opponent={6: 5, 5: 5, 4: 5})
    assert cube_decision(bearoff, evaluator=evaluator).cube_efficiency == pytest.approx(BEAROFF_EFFICIENCY)
    assert cube_decision(Position.initial(), evaluator=evaluator).cube_efficiency == pytest.approx(CONTACT_EFFICIENCY)


def test_given_efficiency_overrides_the_position_type():
    decision = cube_decision(Position.initial(), probabilities=GAMMONLESS, cube_efficiency=0.5)
    assert decision.cube_efficiency == 0.5


def test_a_contact_position_without_evaluator_uses_the_engines_network():
    from bgengine.evaluation.evaluator import evaluate

    decision = cube_decision(Position.initial())
    assert decision.probabilities.as_tuple() == pytest.approx(evaluate(Position.initial()).probabilities)
    with pytest.raises(MissingEvaluatorError):
        cube_decision()


def test_probabilities_and_evaluator_together_are_refused():
    with pytest.raises(InvalidCubeSettingsError, match="not both"):
        cube_decision(Position.initial(), evaluator=FixedEvaluator(GAMMONLESS), probabilities=GAMMONLESS)


# ----- n-ply: the cubeful search, or n-ply cubeless probabilities in the same cube model ---------------------------


def test_cubeless_one_ply_decision_is_the_model_decision_of_the_one_ply_probabilities():
    from bgengine.evaluation.evaluator import RandomEvaluator, evaluate

    evaluator = RandomEvaluator(seed=5)
    position = Position.initial()
    match = MatchState(match_length=7, score=(2, 4))
    one_ply = evaluate(position, plies=1, evaluator=evaluator).probabilities
    zero_ply = evaluate(position, plies=0, evaluator=evaluator).probabilities
    assert one_ply != pytest.approx(zero_ply)  # the depth matters here, so the test can fail
    for state in (MatchState(), match):
        decision = cube_decision(position, state, plies=1, evaluator=evaluator, cubeful=False)
        expected = cube_decision(position, state, probabilities=one_ply)
        assert decision.plies == 1
        assert decision.probabilities.as_tuple() == pytest.approx(one_ply)
        assert decision.no_double == pytest.approx(expected.no_double)
        assert decision.double_take == pytest.approx(expected.double_take)
        assert decision.action is expected.action


def test_two_ply_races_use_the_lookahead_too():
    from bgengine.evaluation.evaluator import evaluate

    race_80 = Position.from_points({6: 5, 5: 5, 4: 2, 13: 1}, opponent={6: 5, 5: 5, 4: 5})
    decision = cube_decision(race_80, plies=2, cubeful=False)
    assert decision.probabilities.as_tuple() == pytest.approx(evaluate(race_80, plies=2).probabilities)
    assert "2-ply cubeless probabilities" in str(decision)
    searched = cube_decision(race_80, plies=1)
    assert searched.probabilities.as_tuple() == pytest.approx(evaluate(race_80, plies=1).probabilities)
    assert "1-ply cubeful search" in str(searched) and searched.cubeful_search


@pytest.mark.parametrize("plies", [-1, 4, 1.0, True, "1"])
def test_invalid_plies_raise_a_typed_error(plies):
    with pytest.raises(InvalidCubeSettingsError, match="plies"):
        cube_decision(Position.initial(), plies=plies)


def test_plies_with_given_probabilities_or_a_rollout_are_refused():
    from bgengine.rollouts.monte_carlo import RolloutSettings

    with pytest.raises(InvalidCubeSettingsError, match="not both"):
        cube_decision(Position.initial(), plies=1, probabilities=GAMMONLESS)
    with pytest.raises(InvalidCubeSettingsError, match="without plies"):
        cube_decision(Position.initial(), plies=1, rollout=RolloutSettings(trials=10))
    with pytest.raises(InvalidCubeSettingsError, match="evaluate_batch"):
        cube_decision(Position.initial(), plies=1, evaluator=FixedEvaluator(GAMMONLESS))


def test_bad_inputs_raise_typed_errors():
    with pytest.raises(InvalidProbabilitiesError, match="win_gammon"):
        cube_decision(probabilities=[0.5, 0.7, 0.0, 0.0, 0.0])
    with pytest.raises(InvalidCubeSettingsError, match="cube efficiency"):
        cube_decision(probabilities=GAMMONLESS, cube_efficiency=1.5)
    with pytest.raises(InvalidCubeSettingsError, match="MatchState"):
        cube_decision(probabilities=GAMMONLESS, match=(0, 0))
    with pytest.raises(InvalidPositionError, match="must be a Position"):
        cube_decision("XGID=", probabilities=GAMMONLESS)
    over = Position.from_points({}, opponent={6: 15})
    with pytest.raises(InvalidPositionError, match="game is over"):
        cube_decision(over, probabilities=GAMMONLESS)


def test_money_decisions_do_not_convert_to_emg():
    with pytest.raises(InvalidCubeSettingsError, match="only match decisions"):
        cube_decision(probabilities=GAMMONLESS).to_emg()


def test_text_shows_the_action_and_the_equities():
    text = str(cube_decision(probabilities=gammonless(0.9), cube_efficiency=0.68))
    assert "Proper cube action: Double / pass" in text
    assert "Double/Take" in text and "Take point 21.4%" in text


# ----- races and bear-offs: the race evaluator and the exact bear-off table -------------------


def test_races_are_evaluated_by_the_default_evaluators_race_network_when_none_is_given():
    from bgengine.evaluation import race
    from bgengine.evaluation.evaluator import default_evaluator

    race_80 = Position.from_points({6: 5, 5: 5, 4: 2, 13: 1}, opponent={6: 5, 5: 5, 4: 5})
    decision = cube_decision(race_80)
    by_network = default_evaluator().race_network.c_network.evaluate(np.asarray(race_80)[None, :])[0]
    assert decision.probabilities.as_tuple() == pytest.approx(tuple(by_network), abs=1e-6)
    assert decision.take_point is not None and decision.note == ""
    approximation = cube_decision(race_80, evaluator=default_evaluator(use_race_network=False))
    assert approximation.probabilities.as_tuple() == pytest.approx(tuple(race.evaluate(race_80)))


def test_money_bearoffs_in_the_two_sided_table_get_exact_equities():
    from bgengine.evaluation import bearoff

    position = Position.from_points({1: 2, 2: 1}, opponent={1: 1, 3: 1})
    exact = bearoff.two_sided_table().equities(position)
    decision = cube_decision(position)
    assert decision.note == "exact two-sided bear-off equities"
    assert decision.no_double == pytest.approx(exact.centred)
    assert decision.double_take == pytest.approx(2 * exact.opponent_owns)
    assert decision.take_point is None and decision.cash_point is None
    owned = cube_decision(position, match=MatchState(cube_value=2, cube_owner=0))
    assert owned.no_double == pytest.approx(exact.owned)


def test_a_sure_win_is_double_pass():
    decision = cube_decision(Position.from_points({1: 2}, opponent={6: 2, 5: 1}))
    assert decision.no_double == pytest.approx(1.0)
    assert decision.action is CubeAction.DOUBLE_PASS


def test_exact_bearoff_equities_give_way_to_given_probabilities_and_to_beavers():
    position = Position.from_points({1: 2, 2: 1}, opponent={1: 1, 3: 1})
    given = cube_decision(position, probabilities=[0.3, 0.0, 0.0, 0.0, 0.0])
    beavers = cube_decision(position, match=MatchState(beavers=True))
    assert given.note == "" and given.take_point is not None
    assert beavers.note == "" and beavers.take_point is not None


def test_cube_decision_fails_when_dice_are_already_rolled():
    from bgengine import InvalidMatchStateError, MatchState, cube_decision

    with pytest.raises(InvalidMatchStateError, match="before rolling, but dice 31 are already rolled"):
        cube_decision(probabilities=[0.7, 0.2, 0.0, 0.05, 0.0], match=MatchState(dice=(3, 1)))


def test_last_roll_no_double_is_the_roll_not_the_cube_value():
    """6-point checker against one on the ace point: 27/36 wins. No double +0.5, D/T +1.0,
    exactly as GNU Backgammon has them (the table's own value already includes the double)."""
    position, match = parse_xgid("XGID=------A-----------------a-:0:0:1:00:0:0:1:0:10")
    decision = cube_decision(position, match)
    assert decision.no_double == pytest.approx(0.5)
    assert decision.double_take == pytest.approx(1.0) and decision.double_pass == 1.0
    assert str(decision.action) == "Double / take"


@pytest.mark.parametrize("owner", [CubeOwner.CENTRED, CubeOwner.PLAYER])
def test_exact_no_double_one_roll_deeper_agrees_with_the_tables_optimal_cube_play(owner):
    """The table's value with access to the cube is max(No double, min(Double/Take, Double/Pass))."""
    from bgengine.cube.bearoff_exact import exact_money_doubling_functions
    from bgengine.evaluation import bearoff

    table = bearoff.two_sided_table()
    match = MatchState() if owner is CubeOwner.CENTRED else MatchState(cube_value=2, cube_owner=0)
    for position in random_bearoff_positions(60, seed=20261201):
        functions = exact_money_doubling_functions(position, match, owner)
        assert functions is not None and functions.exact
        best = max(functions.no_double(0.5), min(functions.double_take(0.5), functions.double_pass))
        expected = table.equities(position).centred if owner is CubeOwner.CENTRED else table.equities(position).owned
        assert best == pytest.approx(expected, abs=1e-12)

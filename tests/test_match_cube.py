"""Match play: cubeless and cubeful match winning chances, take points, Crawford rules, EMG."""

import pytest

from bgengine import (
    CubeAction,
    EquityUnit,
    InvalidMatchStateError,
    MatchState,
    cube_decision,
    cubeless_mwc,
    gammon_values,
    kazaross_xg2,
)
from bgengine.cube.match_equity import MatchScore, emg_reference, mwc_to_emg
from bgengine.cube.met_generator import generate_met

MET = kazaross_xg2()


def at_score(away, opponent_away, length=25, **changes):
    """A match state with the player on roll ``away`` points from winning."""
    return MatchState(match_length=length, score=(length - away, length - opponent_away), **changes)


def gammonless(win):
    return [win, 0.0, 0.0, 0.0, 0.0]


# ----- cubeless MWC and gammon values ---------------------------------------------------------


def test_cubeless_mwc_weights_the_table_by_the_outcomes():
    chances = [0.6, 0.15, 0.01, 0.08, 0.005]
    expected = (
        0.45 * MET.mwc(4, 5) + 0.14 * MET.mwc(3, 5) + 0.01 * MET.mwc(2, 5)
        + 0.32 * MET.mwc(5, 4) + 0.075 * MET.mwc(5, 3) + 0.005 * MET.mwc(5, 2)
    )
    assert cubeless_mwc(chances, at_score(5, 5)) == pytest.approx(expected)


def test_cubeless_mwc_at_a_two_cube_and_after_the_crawford_game():
    chances = [0.6, 0.15, 0.0, 0.08, 0.0]
    # 4-away against 1-away, post-Crawford, cube on 2: a single win leaves 2-away, a gammon wins.
    score = MatchScore(4, 1, cube_value=2, post_crawford=True)
    expected = 0.45 * MET.mwc(2, 1, post_crawford=True) + 0.15 * 1.0
    assert cubeless_mwc(chances, score) == pytest.approx(expected)


def test_cubeless_mwc_refuses_money_play():
    with pytest.raises(InvalidMatchStateError, match="money play has no match score"):
        cubeless_mwc(gammonless(0.5), MatchState())


def test_gammon_values_at_two_away_two_away_from_the_table():
    win, lose = MET.mwc(1, 2), MET.mwc(2, 1)
    expected = (1.0 - win) / (win - lose)
    assert gammon_values(at_score(2, 2)) == pytest.approx((expected, expected))


def test_gammon_values_are_zero_at_double_match_point_and_near_money_in_long_matches():
    assert gammon_values(at_score(1, 1)) == (0.0, 0.0)
    player, opponent = gammon_values(at_score(25, 25))
    assert player == pytest.approx(0.5, abs=0.02) and opponent == pytest.approx(0.5, abs=0.02)


# ----- take points at common scores -------------------------------------------------------------


@pytest.mark.parametrize("efficiency", [0.0, 0.68, 1.0])
def test_two_away_two_away_take_point_is_the_crawford_equity(efficiency):
    # Passing leaves 2-away against 1-away Crawford; taking makes the game for the match.
    decision = cube_decision(probabilities=gammonless(0.7), match=at_score(2, 2), cube_efficiency=efficiency)
    assert decision.take_point == pytest.approx(MET.mwc(2, 1))
    assert round(decision.take_point, 3) == 0.323


def test_dead_cube_take_point_at_five_away_five_away_from_the_table():
    decision = cube_decision(probabilities=gammonless(0.7), match=at_score(5, 5), cube_efficiency=0.0)
    # The taker's view: pass = lose 1, take = win or lose 2 (redoubles dead with x = 0).
    passing, losing, winning = MET.mwc(5, 4), MET.mwc(5, 3), MET.mwc(3, 5)
    assert decision.take_point == pytest.approx((passing - losing) / (winning - losing))


def test_take_points_at_two_away_four_away_match_published_figures():
    """Simborg, "2away/4away Quiz": leader's take point 19.8%, trailer's 18.5% (Rockwell-Kazaross).

    Both come from the taker's immediate redouble, which the model lets the taker make.
    """
    leader_doubles = cube_decision(probabilities=gammonless(0.8), match=at_score(2, 4, length=5))
    trailer_doubles = cube_decision(probabilities=gammonless(0.2), match=at_score(4, 2, length=5))
    assert leader_doubles.take_point == pytest.approx(0.185, abs=0.002)
    assert trailer_doubles.take_point == pytest.approx(0.198, abs=0.002)


def test_long_even_matches_approach_money_take_points():
    for efficiency, money in ((0.0, 0.25), (0.68, 0.5 / 2.34), (1.0, 0.2)):
        decision = cube_decision(probabilities=gammonless(0.7), match=at_score(25, 25), cube_efficiency=efficiency)
        assert decision.take_point == pytest.approx(money, abs=0.003)


# ----- the Crawford rule, post-Crawford and dead cubes -------------------------------------------


def test_no_cube_action_in_the_crawford_game():
    match = MatchState(match_length=7, score=(6, 3), crawford=True, on_roll=1)
    decision = cube_decision(probabilities=gammonless(0.9), match=match)
    assert decision.action is CubeAction.NO_CUBE_ACTION
    assert "Crawford" in decision.note
    assert decision.double_take is None and decision.errors is None
    # The cube being out of play, no double is worth the cubeless MWC.
    assert decision.no_double == pytest.approx(cubeless_mwc(gammonless(0.9), match))


@pytest.mark.parametrize("trailer_away", range(2, 10))
@pytest.mark.parametrize("win", [0.2, 0.35, 0.5])
def test_post_crawford_trailer_doubles_at_once(trailer_away, win):
    match = MatchState(match_length=11, score=(11 - trailer_away, 10), on_roll=0)
    assert match.is_post_crawford
    decision = cube_decision(probabilities=[win, 0.1 * win, 0.0, 0.1 * (1 - win), 0.0], match=match)
    assert decision.action.doubles, decision


def test_post_crawford_free_drop_at_two_away_makes_the_leader_indifferent_at_even_chances():
    decision = cube_decision(probabilities=gammonless(0.5), match=MatchState(match_length=5, score=(3, 4)))
    assert decision.double_take == pytest.approx(0.5) and decision.double_pass == pytest.approx(0.5)


@pytest.mark.parametrize("win", [0.3, 0.6, 0.9])
def test_post_crawford_leader_never_doubles(win):
    match = MatchState(match_length=7, score=(6, 2))
    decision = cube_decision(probabilities=gammonless(win), match=match)
    assert not decision.action.doubles
    assert decision.take_point == 0.0  # passing loses the match: the trailer always takes
    assert "dead cube" in decision.note


def test_dead_cube_when_the_cube_already_covers_the_match():
    match = MatchState(match_length=7, score=(5, 2), cube_value=2, cube_owner=0)
    decision = cube_decision(probabilities=gammonless(0.8), match=match)
    assert decision.action is CubeAction.NO_REDOUBLE_TAKE
    assert decision.note == "dead cube: the doubler cannot gain"
    assert decision.double_pass == 1.0


def test_match_cube_is_bounded_by_the_maximum_cube():
    match = MatchState(match_length=25, score=(0, 0), cube_value=64, cube_owner=0)
    assert cube_decision(probabilities=gammonless(0.8), match=match).action is CubeAction.NO_CUBE_ACTION


def test_too_good_to_double_take_for_a_gammonish_leader_at_two_away():
    chances = [0.779, 0.753, 0.015, 0.068, 0.003]
    decision = cube_decision(probabilities=chances, match=at_score(2, 4, length=5), cube_efficiency=0.68)
    assert decision.action is CubeAction.TOO_GOOD_TAKE
    assert decision.no_double > decision.double_pass > decision.double_take


def test_cubeful_mwc_is_symmetric_between_the_players():
    chances = [0.62, 0.18, 0.01, 0.07, 0.004]
    flipped = [0.38, 0.07, 0.004, 0.18, 0.01]
    for away, opponent_away in ((3, 5), (4, 2), (7, 9), (2, 2)):
        mine = cube_decision(probabilities=chances, match=at_score(away, opponent_away)).no_double
        theirs = cube_decision(probabilities=flipped, match=at_score(opponent_away, away)).no_double
        assert mine + theirs == pytest.approx(1.0)


def test_match_beyond_the_table_raises_a_clear_error():
    with pytest.raises(InvalidMatchStateError, match="covers up to 25-away"):
        cube_decision(probabilities=gammonless(0.7), match=MatchState(match_length=31))


def test_a_users_table_is_used_when_given():
    table = generate_met(9, gammon_rate=0.1)
    default = cube_decision(probabilities=gammonless(0.7), match=at_score(5, 7, length=9))
    mine = cube_decision(probabilities=gammonless(0.7), match=at_score(5, 7, length=9), met=table)
    assert mine.double_pass == pytest.approx(table.mwc(4, 7))
    assert mine.double_pass != default.double_pass


# ----- units: MWC and EMG -----------------------------------------------------------------------


def test_match_decisions_are_in_mwc_and_convert_to_emg():
    decision = cube_decision(probabilities=[0.7, 0.2, 0.0, 0.05, 0.0], match=at_score(5, 3, length=7))
    assert decision.unit is EquityUnit.MWC
    emg = decision.to_emg()
    assert emg.unit is EquityUnit.EMG and emg.to_emg() is emg
    assert emg.double_pass == pytest.approx(1.0)
    win, lose = decision.emg_reference
    scale = 2.0 / (win - lose)
    assert emg.no_double == pytest.approx(scale * (decision.no_double - lose) - 1.0)
    assert emg.double_take - emg.double_pass == pytest.approx(scale * (decision.double_take - decision.double_pass))
    assert emg.errors.doubler_no_double == pytest.approx(scale * decision.errors.doubler_no_double)
    assert emg.action is decision.action and emg.take_point == decision.take_point


def test_emg_maps_winning_and_losing_the_cube_to_plus_and_minus_one():
    score = MatchScore(5, 3, cube_value=2)
    win, lose = emg_reference(MET, score)
    assert win == MET.mwc(3, 3) and lose == MET.mwc(5, 1)
    assert mwc_to_emg(win, MET, score) == pytest.approx(1.0)
    assert mwc_to_emg(lose, MET, score) == pytest.approx(-1.0)


# ----- take points both ways --------------------------------------------------------------------


def test_take_points_both_ways_at_two_away_four_away():
    from bgengine import take_points

    leader_on_roll = at_score(2, 4, length=5)
    trailer_takes, leader_takes = take_points(leader_on_roll, cube_efficiency=1.0)
    assert trailer_takes == pytest.approx(0.1856, abs=1e-4)
    assert leader_takes == pytest.approx(0.1989, abs=1e-4)


def test_take_points_are_none_for_a_side_that_may_not_double():
    from bgengine import take_points

    owned = MatchState(cube_value=2, cube_owner=0)
    opponent_takes, player_takes = take_points(owned, cube_efficiency=0.68)
    assert opponent_takes == pytest.approx(0.5 / 2.34)
    assert player_takes is None
    assert take_points(MatchState(match_length=5, score=(4, 1), crawford=True)) == (None, None)

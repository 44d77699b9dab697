"""Cube efficiency by position class: last rolls (a dead cube) and the post-Crawford free double."""

import pytest

from bgengine import CubeAction, MatchState, Position, cube_decision, kazaross_xg2, parse_xgid
from bgengine.cube.efficiency import (
    BEAROFF,
    CONTACT,
    CONTACT_EFFICIENCY,
    FREE_DOUBLE_SHARE,
    RACE_LONG,
    RACE_SHORT,
    efficiency_for,
    is_last_roll,
)

MET = kazaross_xg2()

#: One checker on the 6-point against one on the ace-point: 27 of 36 rolls bear off, and the
#: opponent is sure to bear off next turn. X (on roll) 3-away, O 5-away in a 7-point match.
LAST_ROLL_3_AWAY_5_AWAY = "XGID=------A-----------------a-:0:0:1:00:4:2:0:7:10"


def test_a_sure_bear_off_next_turn_makes_a_last_roll():
    position, _ = parse_xgid(LAST_ROLL_3_AWAY_5_AWAY)
    assert is_last_roll(position)
    # A checker on the 4-point is not sure to come off (2-1 moves 3 pips): not a last roll.
    assert not is_last_roll(Position.from_points({6: 1}, opponent={4: 1}))
    assert not is_last_roll(Position.initial())


def test_last_roll_in_a_match_is_a_dead_cube_on_both_sides_of_the_double():
    position, match = parse_xgid(LAST_ROLL_3_AWAY_5_AWAY)
    decision = cube_decision(position, match)
    assert decision.probabilities.win == pytest.approx(0.75)
    assert (decision.cube_efficiency, decision.cube_efficiency_class) == (0.0, "last roll")
    # No double: the game is played out at the 1-cube (gnubg's exact +0.500 EMG).
    win_1, lose_1 = MET.mwc(2, 5), MET.mwc(3, 4)
    assert decision.no_double == pytest.approx(0.75 * win_1 + 0.25 * lose_1)
    assert decision.to_emg().no_double == pytest.approx(0.5)
    # Double/take: the same at the 2-cube; the taker's redouble comes too late to matter.
    win_2, lose_2 = MET.mwc(1, 5), MET.mwc(3, 3)
    assert decision.double_take == pytest.approx(0.75 * win_2 + 0.25 * lose_2)
    # Passing gives X 1 point (2-away 5-away), less than the take: Double/pass.
    assert decision.double_pass == pytest.approx(win_1)
    assert decision.double_pass < decision.double_take
    assert decision.action is CubeAction.DOUBLE_PASS


def test_money_last_roll_is_still_exact():
    position, match = parse_xgid("XGID=------A-----------------a-:0:0:1:00:0:0:1:0:10")
    decision = cube_decision(position, match)
    assert (decision.no_double, decision.double_take) == pytest.approx((0.5, 1.0))


def test_the_efficiency_class_is_stated_in_the_text():
    position, match = parse_xgid(LAST_ROLL_3_AWAY_5_AWAY)
    assert "cube efficiency 0.000 (last roll)" in str(cube_decision(position, match))
    assert efficiency_for(Position.initial(), None).position_class == "contact"
    assert efficiency_for(Position.initial(), 0.5).position_class == "given"


def test_post_crawford_trailer_realises_more_of_the_cube_by_the_free_double():
    # Trailer 2-away, leader 1-away, even gammonless game: the leader's cube is dead, so the
    # trailer's contact x moves a share FREE_DOUBLE_SHARE of the way to 1. Dead cube: a
    # single win is worth the 1-away/1-away game (0.5), so 0.25; fully live: 0.5 (the
    # trailer doubles, a fair game).
    match = MatchState(match_length=5, score=(3, 4))
    decision = cube_decision(probabilities=[0.5, 0.0, 0.0, 0.0, 0.0], match=match)
    x = CONTACT_EFFICIENCY + FREE_DOUBLE_SHARE * (1.0 - CONTACT_EFFICIENCY)
    assert CONTACT_EFFICIENCY < x < 1.0
    assert decision.cube_efficiency == pytest.approx(x)
    assert decision.cube_efficiency_class == "no position, post-Crawford free double"
    assert decision.no_double == pytest.approx(x * 0.5 + (1.0 - x) * 0.25)
    assert decision.to_emg().no_double == pytest.approx(x)
    assert decision.action is CubeAction.DOUBLE_TAKE  # still below Double/take (0.5): double now


def test_a_last_roll_stays_dead_post_crawford_and_a_given_efficiency_is_used_as_given():
    position, _ = parse_xgid("XGID=------A-----------------a-:0:0:1:00:5:6:0:7:10")
    match = MatchState(match_length=7, score=(5, 6))
    assert match.is_post_crawford
    assert efficiency_for(position, None, match).value == 0.0
    assert efficiency_for(Position.initial(), 0.68, match).value == 0.68


def home_sides(most):
    """Every home board (points 1..6) with 1..``most`` checkers, as {point: count}."""
    import itertools

    for n in range(1, most + 1):
        for points in itertools.combinations_with_replacement(range(1, 7), n):
            side = {}
            for p in points:
                side[p] = side.get(p, 0) + 1
            yield side


def test_the_c_last_roll_rule_is_the_one_sided_tables_sure_bear_off():
    from bgengine.evaluation import bearoff

    table = bearoff.one_sided_table()
    for side in home_sides(4):
        sure = table.rolls_distribution(side)[1] >= 1.0 - 1e-9  # off in one roll with every roll
        # the side on roll, and the side not on roll (the opponent bears off next turn)
        assert is_last_roll(Position.from_points(side, opponent={6: 3})) == sure, side
        assert is_last_roll(Position.from_points({6: 3}, opponent=side)) == sure, side


@pytest.mark.parametrize(
    ("side", "sure"),
    [({3: 1}, True), ({4: 1}, False), ({2: 1, 1: 1}, True), ({1: 2}, True), ({2: 2}, False),
     ({1: 3}, False), ({3: 1, 1: 1}, False)],
)
def test_last_rolls_by_hand(side, sure):
    # 2-1 is the worst roll: 3 pips for one checker, or one checker per die
    assert is_last_roll(Position.from_points(side, opponent={5: 2, 6: 2})) == sure


def test_race_efficiency_is_the_straight_line_clamped_in_each_cube_state():
    from bgengine.cube.efficiency import race_efficiencies, race_efficiency

    assert race_efficiency(10) == pytest.approx(0.80)
    assert race_efficiency(40) == pytest.approx(0.80)
    assert race_efficiency(80) == pytest.approx(0.855)
    assert race_efficiency(120) == pytest.approx(0.91)
    assert race_efficiency(160) == pytest.approx(0.91)
    at_80 = race_efficiencies(80)
    assert (at_80.centred, at_80.owned, at_80.opponent_owns) == pytest.approx((0.855, 0.755, 0.675))
    assert race_efficiencies(10) == race_efficiencies(40) == RACE_SHORT
    assert race_efficiencies(160) == RACE_LONG


def test_each_class_gets_its_efficiency_and_the_free_double_raises_it():
    race = Position.from_points({8: 5, 6: 5, 4: 5}, opponent={9: 5, 6: 5, 5: 5})   # 90 pips on roll
    bearoff = Position.from_points({6: 4, 5: 3, 2: 3}, opponent={6: 4, 4: 4, 1: 2})  # beyond the 6-checker table
    assert efficiency_for(race, None).value == pytest.approx(0.80 + 0.11 * 50 / 80)
    assert efficiency_for(race, None).states.opponent_owns == pytest.approx(0.63 + 0.09 * 50 / 80)
    assert efficiency_for(race, None).position_class == "race"
    assert efficiency_for(bearoff, None).value == pytest.approx(0.74)
    assert efficiency_for(bearoff, None).states == BEAROFF
    assert efficiency_for(bearoff, None).position_class == "bear-off"
    post = MatchState(match_length=7, score=(5, 6))
    raised = efficiency_for(bearoff, None, post)
    assert raised.value == pytest.approx(0.74 + FREE_DOUBLE_SHARE * 0.26)
    assert raised.states.opponent_owns == pytest.approx(0.40 + FREE_DOUBLE_SHARE * 0.60)
    assert raised.position_class == "bear-off, post-Crawford free double"
    assert efficiency_for(None, None, post).value == pytest.approx(0.81 + FREE_DOUBLE_SHARE * 0.19)

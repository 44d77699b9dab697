"""Cube efficiency by cube state (centred, owned, opponent owns) and from the exact bear-off table."""

import pytest

from bgengine import MatchState, Position, cube_decision, parse_xgid
from bgengine.cube.efficiency import BEAROFF, CONTACT, efficiency_for
from bgengine.cube.state_efficiency import StateEfficiencies
from bgengine.evaluation import bearoff
from bgengine.match_state import CubeOwner
from bgengine.probabilities import GameProbabilities

#: A short bear-off in the two-sided table: the roller wins 11.8 %, no gammons (exact money
#: No double -0.9136, Double/Take -1.8272).
SHORT_BEAROFF = "XGID=--AA-BA------------a-a----:0:0:1:00:0:0:0:0:6"
GAMMONLESS_60 = [0.6, 0.0, 0.0, 0.0, 0.0]


@pytest.fixture
def random_bearoffs():
    from conftest import random_bearoff_positions

    return random_bearoff_positions(60, seed=3)


def test_a_centred_and_an_owned_cube_use_their_own_efficiency_at_the_same_chances():
    # By hand, W = L = 1, p = 0.6, dead = 2p - 1 = 0.2. Centred: live through (0.2, -1) and
    # (0.8, +1) gives 1/3, x = 0.81: 0.19 * 0.2 + 0.81 / 3 = 0.308. Owned: live from (0, -1)
    # to (0.8, +1) gives 0.5, x = 0.82: 0.18 * 0.2 + 0.82 * 0.5 = 0.446. Double/Take in both:
    # the opponent owns the doubled cube, live from (0.2, -1) to (1, 1) gives 0, x = 0.77:
    # 2 * 0.23 * 0.2 = 0.092 (an immediate redouble, 4 * 0.446, is worse for the taker).
    assert (CONTACT.centred, CONTACT.owned, CONTACT.opponent_owns) == (0.81, 0.82, 0.77)
    centred = cube_decision(Position.initial(), MatchState(), probabilities=GAMMONLESS_60)
    owned = cube_decision(Position.initial(), MatchState(cube_value=2, cube_owner=0), probabilities=GAMMONLESS_60)
    assert centred.no_double == pytest.approx(0.308)
    assert owned.no_double == pytest.approx(0.446)
    assert centred.double_take == pytest.approx(0.092) and owned.double_take == pytest.approx(0.092)
    assert (centred.cube_efficiency, owned.cube_efficiency) == (0.81, 0.82)
    assert centred.cube_efficiency_doubled == owned.cube_efficiency_doubled == 0.77


def test_one_given_efficiency_serves_every_cube_state():
    decision = cube_decision(Position.initial(), MatchState(cube_value=2, cube_owner=0),
                             probabilities=GAMMONLESS_60, cube_efficiency=0.5)
    assert decision.cube_efficiency == decision.cube_efficiency_doubled == 0.5
    assert decision.no_double == pytest.approx(0.5 * 0.2 + 0.5 * 0.5)


def test_the_match_model_values_each_cube_state_with_its_own_efficiency():
    match = MatchState(match_length=25, score=(0, 0))  # long and even: close to money
    by_state = cube_decision(Position.initial(), match, probabilities=GAMMONLESS_60).to_emg()
    every = cube_decision(Position.initial(), match, probabilities=GAMMONLESS_60, cube_efficiency=0.81).to_emg()
    assert by_state.no_double == pytest.approx(every.no_double)  # centred: 0.81 both
    assert by_state.double_take > every.double_take  # the doubled cube's 0.77 realises less for the taker
    assert by_state.no_double == pytest.approx(0.308, abs=0.01)


def test_a_short_bear_off_takes_its_efficiencies_from_the_exact_table():
    position, match = parse_xgid(SHORT_BEAROFF)
    exact = cube_decision(position, match)  # the table's own values
    assert exact.note == "exact two-sided bear-off equities"
    assert exact.no_double == pytest.approx(-0.91358, abs=1e-5)
    assert exact.double_take == pytest.approx(-1.82716, abs=1e-5)
    chances = GameProbabilities.from_vector([bearoff.two_sided_table().equities(position).win, 0, 0, 0, 0])
    model = cube_decision(position, match, probabilities=chances)
    assert model.cube_efficiency_class == "exact bear-off"
    # the model on the exact chances gives the exact values; no immediate redouble (-2.000):
    # the table's values hold the taker's redoubles, after the doubler's roll
    assert model.no_double == pytest.approx(exact.no_double, abs=0.002)
    assert model.double_take == pytest.approx(exact.double_take, abs=0.002)
    classed = cube_decision(position, match, probabilities=chances, exact_bearoff_efficiency=False)
    assert classed.cube_efficiency_class == "bear-off" and classed.cube_efficiency == BEAROFF.centred
    assert classed.double_take == pytest.approx(-2.0)  # the class's model: the taker redoubles at once


def test_exact_efficiencies_reproduce_the_table_in_each_state(random_bearoffs):
    table = bearoff.two_sided_table()
    checked = 0
    for position in random_bearoffs:
        if position.is_game_over() or not table.covers(position):
            continue
        efficiency = efficiency_for(position, None)
        if efficiency.position_class != "exact bear-off":  # a last roll
            continue
        states = efficiency.states
        assert states.exact and 0.0 <= min(states.in_c()) and max(states.in_c()) <= 1.0
        chances = GameProbabilities.from_vector([table.equities(position).win, 0, 0, 0, 0])
        p = chances.win
        if 0.15 < p < 0.45 or 0.55 < p < 0.85:  # live and dead apart in every state
            owned = MatchState(cube_value=2, cube_owner=0)
            model = cube_decision(position, owned, probabilities=chances)
            assert model.no_double == pytest.approx(cube_decision(position, owned).no_double, abs=0.01)
            checked += 1
    assert checked >= 5


def test_a_match_bear_off_in_the_table_uses_the_exact_efficiencies_without_the_immediate_redouble():
    position, _ = parse_xgid(SHORT_BEAROFF)
    match = MatchState(match_length=7, score=(2, 4))  # on roll 5-away, opponent 3-away
    decision = cube_decision(position, match, probabilities=[0.118, 0, 0, 0, 0])
    assert decision.cube_efficiency_class == "exact bear-off"
    states = efficiency_for(position, None, match).states
    from bgengine.cube.match_equity import MatchScore
    from bgengine.cube.match_model import MatchCubeModel
    from bgengine.cube.met import default_met

    chances = GameProbabilities.from_vector([0.118, 0, 0, 0, 0])
    plain = MatchCubeModel(chances, MatchScore.from_match_state(match), default_met(), states).cubeful(2, CubeOwner.OPPONENT)
    assert decision.double_take == pytest.approx(plain(0.118))


def test_state_efficiencies_convert_to_and_from_the_c_order():
    states = StateEfficiencies(centred=0.8, owned=0.7, opponent_owns=0.6)
    assert states.in_c() == (0.6, 0.8, 0.7)
    assert StateEfficiencies.from_c(states.in_c()) == states
    assert states.of(CubeOwner.PLAYER) == 0.7 and states.of(CubeOwner.OPPONENT) == 0.6
    assert StateEfficiencies.every_state(0.0).taker_redoubles_at_once is False
    assert states.taker_redoubles_at_once and not StateEfficiencies(0.8, 0.7, 0.6, exact=True).taker_redoubles_at_once

"""Properties of every cube decision, over random probabilities and match states."""

from hypothesis import given, settings
from hypothesis import strategies as st

from bgengine import CubeAction, EquityUnit, cube_decision
from strategies import match_states


@st.composite
def probability_vectors(draw):
    """Any consistent cumulative 5-vector."""
    win = draw(st.floats(0.0, 1.0))
    win_gammon = draw(st.floats(0.0, 1.0)) * win
    win_backgammon = draw(st.floats(0.0, 1.0)) * win_gammon
    lose_gammon = draw(st.floats(0.0, 1.0)) * (1.0 - win)
    lose_backgammon = draw(st.floats(0.0, 1.0)) * lose_gammon
    return [win, win_gammon, win_backgammon, lose_gammon, lose_backgammon]


@settings(max_examples=300, deadline=None)
@given(probability_vectors(), match_states(), st.floats(0.0, 1.0))
def test_every_decision_is_consistent(chances, match, efficiency):
    match = match.with_changes(dice=None)  # the cube is turned before rolling
    decision = cube_decision(probabilities=chances, match=match, cube_efficiency=efficiency)
    if decision.unit is EquityUnit.MWC:
        for value in (decision.no_double, decision.double_take, decision.double_pass):
            assert value is None or -1e-9 <= value <= 1.0 + 1e-9
    if decision.action is CubeAction.NO_CUBE_ACTION:
        assert decision.double_take is None and decision.errors is None and decision.note
        return
    errors = decision.errors
    responses = [errors.taker_take, errors.taker_pass] + (
        [errors.taker_beaver] if errors.taker_beaver is not None else []
    )
    assert min(responses) == 0.0 and all(e >= 0.0 for e in responses)
    assert min(errors.doubler_no_double, errors.doubler_double) == 0.0
    assert errors.doubler_no_double >= 0.0 and errors.doubler_double >= 0.0
    if decision.action.doubles:
        assert errors.doubler_double == 0.0
    else:
        assert errors.doubler_no_double == 0.0
    response = {"take": errors.taker_take, "pass": errors.taker_pass, "beaver": errors.taker_beaver}
    assert response[decision.action.response] == 0.0
    assert 0.0 <= decision.take_point <= 1.0
    assert abs(decision.take_point + decision.cash_point - 1.0) < 1e-12

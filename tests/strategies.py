"""Hypothesis strategies for positions and match states, shared by the test modules."""

from __future__ import annotations

from hypothesis import strategies as st

from bgengine import MatchState, Position


@st.composite
def positions(draw: st.DrawFn, min_checkers: int = 0) -> Position:
    """Any legal position: 0..15 checkers a side anywhere legal, on the bar or borne off."""
    mover_count = draw(st.integers(min_checkers, 15))
    opponent_count = draw(st.integers(max(min_checkers, 1 if mover_count == 0 else 0), 15))
    slots = [0] * 26
    for slot in draw(st.lists(st.integers(1, 25), min_size=mover_count, max_size=mover_count)):
        slots[slot] += 1
    free = [s for s in range(0, 25) if slots[s] == 0]
    for slot in draw(st.lists(st.sampled_from(free), min_size=opponent_count, max_size=opponent_count)):
        slots[slot] -= 1
    return Position(slots)


@st.composite
def match_states(draw: st.DrawFn) -> MatchState:
    """Any valid match state: money or a match, any cube, dice or a double offered."""
    length = draw(st.sampled_from([0, 1, 3, 5, 7, 9, 11, 13, 15, 25, 2, 4]))
    on_roll = draw(st.integers(0, 1))
    if length:
        score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
        one_away = length - 1 in score and score != (length - 1, length - 1)
        crawford = one_away and draw(st.booleans())
    else:
        score = (draw(st.integers(0, 50)), draw(st.integers(0, 50)))
        crawford = False
    if crawford:
        cube_value, owner = 1, None
    else:
        cube_value = 2 ** draw(st.integers(0, 6))
        owner = None if cube_value == 1 else draw(st.sampled_from([None, 0, 1]))
    jacoby = beavers = False
    if not length:
        jacoby, beavers = draw(st.booleans()), draw(st.booleans())
    dice = draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    state = MatchState(
        match_length=length,
        score=score,
        cube_value=cube_value,
        cube_owner=owner,
        on_roll=on_roll,
        crawford=crawford,
        jacoby=jacoby,
        beavers=beavers,
        dice=dice,
    )
    if dice is None and state.may_double() and draw(st.booleans()):
        return state.with_changes(double_offered=True)
    return state

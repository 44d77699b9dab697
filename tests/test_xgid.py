"""XGID: the opening vector, perspective, round trips and bad input."""

import pytest
from hypothesis import given

from bgengine import (
    InvalidMatchStateError,
    InvalidNotationError,
    InvalidPositionError,
    MatchState,
    Position,
    format_xgid,
    parse_xgid,
)
from strategies import match_states, positions

OPENING = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def test_opening_xgid_is_the_initial_position_money_centred_cube():
    position, match = parse_xgid(OPENING)
    assert position == Position.initial()
    assert match == MatchState(max_cube=1024)
    assert format_xgid(position, match) == OPENING


def test_xgid_with_o_on_roll_is_seen_from_o():
    # X (bottom) has a checker on the bar; O is on roll with 5 on their 6-point.
    text = "XGID=------------------------eB:1:-1:-1:42:3:5:0:7:10"
    position, match = parse_xgid(text)
    assert match.on_roll == 1 and match.dice == (4, 2)
    assert match.cube_value == 2 and match.cube_owner == 1
    assert match.score == (3, 5) and match.match_length == 7
    assert position.points() == ({1: 5}, {}, 0, 2)  # O's checkers on O's 1-point; X's 2 on bar
    assert format_xgid(position, match) == text


def test_xgid_double_offered():
    _, match = parse_xgid("XGID=-b----E-C---eE---c-e----B-:1:1:1:D:0:0:0:5:10")
    assert match.double_offered and match.dice is None and match.cube_owner == 0


def test_xgid_money_rules_field_carries_jacoby_and_beavers():
    _, match = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10")
    assert match.jacoby and match.beavers


def test_xgid_crawford_flag_in_a_match():
    _, match = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:4:2:1:5:10")
    assert match.is_crawford_game


def test_position_xgid_method_defaults_to_money():
    assert Position.initial().xgid() == OPENING.replace(":10", ":6")


@given(positions(), match_states())
def test_xgid_round_trip(position, match):
    assert parse_xgid(format_xgid(position, match)) == (position, match)


# ----- bad input --------------------------------------------------------------------


def test_xgid_fails_wrong_field_count():
    with pytest.raises(InvalidNotationError, match="10 fields"):
        parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0")


def test_xgid_fails_bad_position_character():
    with pytest.raises(InvalidNotationError, match="26 characters"):
        parse_xgid(OPENING.replace("-b--", "-z--"))


def test_xgid_fails_too_many_checkers():
    with pytest.raises(InvalidPositionError, match="more than 15"):
        parse_xgid(OPENING.replace("-b--", "-b-O"))


def test_xgid_fails_non_integer_field():
    with pytest.raises(InvalidNotationError, match="cube must be an integer"):
        parse_xgid(OPENING.replace(":0:0:1:", ":x:0:1:"))


def test_xgid_fails_bad_dice():
    with pytest.raises(InvalidNotationError, match="dice"):
        parse_xgid(OPENING.replace(":00:", ":70:"))


def test_xgid_fails_zero_turn():
    with pytest.raises(InvalidMatchStateError, match="turn"):
        parse_xgid(OPENING.replace(":0:0:1:00:", ":0:0:0:00:"))


def test_xgid_fails_score_at_match_length():
    with pytest.raises(InvalidMatchStateError, match="score of player 1 is 5 in a 5-point match"):
        parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:5:0:5:10")

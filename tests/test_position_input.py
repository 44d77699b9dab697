"""Reading positions, dice and scores as users type them."""

from __future__ import annotations

import pytest

from bgengine import DiceError, InvalidMatchStateError, InvalidNotationError, InvalidPositionError, MatchState, Position
from bgengine.formats.user_input import parse_dice, parse_score, read_position, with_match_options

EXAMPLE_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"


def test_read_position_takes_an_xgid_with_its_match_state():
    position, match = read_position(EXAMPLE_XGID)
    assert position == Position.initial()
    assert match is not None and match.dice == (3, 1)


def test_read_position_takes_an_xgid_without_its_prefix():
    assert read_position(EXAMPLE_XGID[len("XGID="):]) == read_position(EXAMPLE_XGID)


def test_read_position_takes_gnubg_ids_with_and_without_match_id():
    assert read_position("4HPwATDgc/ABMA") == (Position.initial(), None)
    position, match = read_position("4HPwATDgc/ABMA:MIEFAAAAAAAE")
    assert position == Position.initial()
    assert match == MatchState(dice=(3, 1))


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("", InvalidNotationError, "got nothing"),
        ("   ", InvalidNotationError, "got nothing"),
        ("XGID=nonsense", InvalidNotationError, "10 fields"),
        ("4HPwATDgc/AB", InvalidNotationError, "14 characters"),
        ("XGID=-b----E-C---eE---c-e----BB:0:0:1:31:0:0:0:0:10", InvalidPositionError, "more than 15"),
    ],
)
def test_read_position_rejects_bad_text_with_a_typed_error(text, error, fragment):
    with pytest.raises(error, match=fragment):
        read_position(text)


@pytest.mark.parametrize(("text", "dice"), [("31", (3, 1)), ("3-1", (3, 1)), (" 6,6 ", (6, 6)), ("1 2", (1, 2))])
def test_parse_dice_accepts_common_spellings_in_the_order_given(text, dice):
    assert parse_dice(text) == dice


@pytest.mark.parametrize("text", ["", "3", "07", "71", "311", "a1", "3--1"])
def test_parse_dice_rejects_anything_but_two_dice(text):
    with pytest.raises(DiceError, match="two dice, each a whole number 1..6"):
        parse_dice(text)


@pytest.mark.parametrize(("text", "score"), [("2-4", (2, 4)), ("0:0", (0, 0)), (" 10 - 3 ", (10, 3))])
def test_parse_score_reads_on_roll_then_opponent(text, score):
    assert parse_score(text) == score


@pytest.mark.parametrize("text", ["", "2", "2-", "-2-4", "a-b", "2-4-1"])
def test_parse_score_rejects_malformed_scores(text):
    with pytest.raises(InvalidNotationError, match="score must be"):
        parse_score(text)


def test_match_options_keep_the_read_state_when_none_are_given():
    match = MatchState(match_length=5, score=(1, 2), on_roll=1)
    assert with_match_options(match) is match
    assert with_match_options(None) == MatchState()


def test_score_is_stored_by_player_from_the_player_on_roll_side():
    player_1_on_roll = MatchState(on_roll=1)
    match = with_match_options(player_1_on_roll, length=7, score=(2, 5))
    assert match.score == (5, 2)
    assert match.score[match.on_roll] == 2


def test_new_score_drops_the_crawford_flag_unless_asked():
    crawford = MatchState(match_length=5, score=(4, 1), crawford=True)
    assert with_match_options(crawford, score=(1, 2)).crawford is False
    assert with_match_options(crawford, score=(4, 2), crawford=True).crawford is True


def test_money_rules_do_not_carry_into_a_match():
    money = MatchState(jacoby=True, beavers=True)
    match = with_match_options(money, length=3)
    assert (match.match_length, match.jacoby, match.beavers) == (3, False, False)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"score": (1, 2)}, "needs a match length"),
        ({"length": 0}, "at least 1 point"),
        ({"length": 5, "score": (5, 0)}, "player on roll has 5 points"),
        ({"length": 5, "score": (0, 9)}, "opponent has 9 points"),
        ({"length": 5, "score": (1, 1), "crawford": True}, "Crawford"),
    ],
)
def test_impossible_match_options_are_refused(kwargs, fragment):
    with pytest.raises(InvalidMatchStateError, match=fragment):
        with_match_options(None, **kwargs)


def test_parse_probabilities_reads_five_numbers():
    from bgengine.formats.user_input import parse_probabilities

    assert parse_probabilities("0.6,0.2,0.01,0.1,0") == (0.6, 0.2, 0.01, 0.1, 0.0)
    assert parse_probabilities(" 1 0 0 0 0 ") == (1.0, 0.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("text", ["", "0.5", "0.5,0,0,0", "0.5,0,0,0,0,0", "a,b,c,d,e", "1.2,0,0,0,0", "-0.1,0,0,0,0"])
def test_parse_probabilities_rejects_anything_but_five_chances(text):
    from bgengine.formats.user_input import parse_probabilities

    with pytest.raises(InvalidNotationError, match="five numbers 0..1"):
        parse_probabilities(text)

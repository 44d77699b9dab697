"""MatchState: derived facts and one test per kind of bad input."""

import pytest

from bgengine import InvalidMatchStateError, MatchState


def test_money_by_default():
    match = MatchState()
    assert match.is_money and match.away_scores == (0, 0)
    assert match.cube_available_to(0) and match.cube_available_to(1)


def test_away_scores():
    assert MatchState(match_length=7, score=(2, 5)).away_scores == (5, 2)


def test_crawford_game_has_no_cube():
    match = MatchState(match_length=5, score=(4, 2), crawford=True)
    assert match.is_crawford_game and not match.is_post_crawford
    assert not match.cube_available_to(0) and not match.cube_available_to(1)


def test_post_crawford_game_has_the_cube_back():
    match = MatchState(match_length=5, score=(4, 2))
    assert match.is_post_crawford and match.cube_available_to(1)


def test_owned_cube_is_available_only_to_its_owner():
    match = MatchState(cube_value=4, cube_owner=1)
    assert match.cube_available_to(1) and not match.cube_available_to(0)


def test_no_double_past_the_maximum_cube():
    assert not MatchState(cube_value=64, cube_owner=0).cube_available_to(0)


def test_with_changes_checks_again():
    with pytest.raises(InvalidMatchStateError):
        MatchState(match_length=5).with_changes(score=(5, 0))


def test_fails_score_at_match_length():
    with pytest.raises(InvalidMatchStateError, match="score of player 0 is 7 in a 7-point match"):
        MatchState(match_length=7, score=(7, 0))


def test_fails_negative_score():
    with pytest.raises(InvalidMatchStateError, match="score of player 1"):
        MatchState(match_length=7, score=(0, -1))


def test_fails_negative_match_length():
    with pytest.raises(InvalidMatchStateError, match="match length"):
        MatchState(match_length=-3)


def test_fails_cube_value_not_a_power_of_two():
    with pytest.raises(InvalidMatchStateError, match="power of two"):
        MatchState(cube_value=3, cube_owner=0)


def test_fails_cube_value_above_maximum():
    with pytest.raises(InvalidMatchStateError, match="above the maximum cube 64"):
        MatchState(cube_value=128, cube_owner=0)


def test_fails_owned_cube_of_value_one():
    with pytest.raises(InvalidMatchStateError, match="cannot be owned"):
        MatchState(cube_owner=0)


def test_fails_bad_cube_owner():
    with pytest.raises(InvalidMatchStateError, match="cube owner"):
        MatchState(cube_value=2, cube_owner=2)


def test_fails_crawford_flag_on_money_game():
    with pytest.raises(InvalidMatchStateError, match="matches only"):
        MatchState(crawford=True)


def test_fails_crawford_flag_without_a_player_one_away():
    with pytest.raises(InvalidMatchStateError, match="one point away"):
        MatchState(match_length=7, score=(3, 2), crawford=True)


def test_fails_crawford_flag_at_double_match_point():
    with pytest.raises(InvalidMatchStateError, match="has been played"):
        MatchState(match_length=7, score=(6, 6), crawford=True)


def test_fails_turned_cube_in_crawford_game():
    with pytest.raises(InvalidMatchStateError, match="centred at 1"):
        MatchState(match_length=7, score=(6, 2), crawford=True, cube_value=2, cube_owner=0)


def test_fails_jacoby_in_a_match():
    with pytest.raises(InvalidMatchStateError, match="money play only"):
        MatchState(match_length=7, jacoby=True)


def test_fails_bad_dice():
    with pytest.raises(InvalidMatchStateError, match="each die shows 1..6"):
        MatchState(dice=(0, 7))


def test_fails_double_offered_after_rolling():
    with pytest.raises(InvalidMatchStateError, match="before rolling"):
        MatchState(dice=(3, 1), double_offered=True)


def test_fails_double_offered_by_player_without_access():
    with pytest.raises(InvalidMatchStateError, match="cannot double"):
        MatchState(cube_value=2, cube_owner=1, on_roll=0, double_offered=True)


def test_fails_bad_player_on_roll():
    with pytest.raises(InvalidMatchStateError, match="player on roll"):
        MatchState(on_roll=2)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"match_length": 25, "score": (0, 0), "crawford": 24}, "crawford must be True or False"),
        ({"match_length": 25, "score": (24, 0), "crawford": "no"}, "crawford must be True or False"),
        ({"jacoby": 1}, "jacoby must be True or False"),
        ({"beavers": "yes"}, "beavers must be True or False"),
        ({"on_roll": 1.0}, "player on roll must be 0 or 1"),
        ({"on_roll": True}, "player on roll must be 0 or 1"),
        ({"cube_value": 2, "cube_owner": 1.0}, "cube owner must be None"),
        ({"resignation_offered": 1.0}, "resignation offered"),
        ({"score": (32768, 0)}, "the formats carry scores up to 32767"),
    ],
)
def test_values_of_the_wrong_kind_are_refused_when_the_state_is_made(changes, words):
    """They used to pass here and fail later elsewhere (issue 16)."""
    with pytest.raises(InvalidMatchStateError, match=words):
        MatchState(**changes)

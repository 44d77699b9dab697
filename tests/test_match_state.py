"""MatchState: derived facts and one test per kind of bad input."""

import pytest

from bgengine import CubeOwner, DiceError, GameResult, InvalidMatchStateError, MatchState


def test_money_by_default():
    match = MatchState()
    assert match.is_money and match.away_scores == (0, 0)
    assert match.may_double(0) and match.may_double(1)


def test_away_scores():
    assert MatchState(match_length=7, score=(2, 5)).away_scores == (5, 2)


def test_crawford_game_has_no_cube():
    match = MatchState(match_length=5, score=(4, 2), crawford=True)
    assert match.is_crawford_game and not match.is_post_crawford
    assert not match.may_double(0) and not match.may_double(1)


def test_post_crawford_game_has_the_cube_back():
    match = MatchState(match_length=5, score=(4, 2))
    assert match.is_post_crawford and match.may_double(1)


def test_owned_cube_is_available_only_to_its_owner():
    match = MatchState(cube_value=4, cube_owner=1)
    assert match.may_double(1) and not match.may_double(0)


def test_no_double_past_the_maximum_cube():
    assert not MatchState(cube_value=64, cube_owner=0).may_double(0)


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
    with pytest.raises(DiceError, match="MatchState.dice must be two dice, each a whole number 1..6"):
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


# ----- the cube rules, asked of the match state -------------------------------------------


@pytest.mark.parametrize(
    ("state", "player", "reason"),
    [
        (MatchState(), 0, ""),
        (MatchState(cube_value=2, cube_owner=1, on_roll=1), None, ""),
        (MatchState(cube_value=2, cube_owner=1, on_roll=0), None, "the opponent owns the cube"),
        (MatchState(cube_value=2, cube_owner=1, on_roll=0), 1, ""),
        (MatchState(match_length=5, score=(4, 2), crawford=True), None, "Crawford game: the cube is out of play"),
        (MatchState(cube_value=64, cube_owner=0), 0, "the cube is at its maximum (64)"),
        (MatchState(cube_value=512, cube_owner=0, max_cube=1024), 0, ""),
    ],
)
def test_why_no_double_and_may_double_give_one_answer(state, player, reason):
    assert state.why_no_double(player) == reason
    assert state.may_double(player) is (reason == "")


@pytest.mark.parametrize(
    ("state", "may"),
    [
        (MatchState(beavers=True), True),  # cube 1 -> 2, beavered to 4: room
        (MatchState(beavers=True, cube_value=16, cube_owner=0), True),  # 16 x 4 = 64
        (MatchState(beavers=True, cube_value=32, cube_owner=0), False),  # 128 is over the cap
        (MatchState(), False),  # beavers off
        (MatchState(match_length=5), False),  # matches never beaver
    ],
)
def test_may_beaver_needs_money_with_beavers_and_room_on_the_cube(state, may):
    assert state.may_beaver() is may


def test_relative_cube_owner_and_absolute_are_inverse():
    state = MatchState(cube_value=2, cube_owner=1, on_roll=0)
    assert state.relative_cube_owner() is CubeOwner.OPPONENT
    assert state.relative_cube_owner(1) is CubeOwner.PLAYER
    assert MatchState().relative_cube_owner() is CubeOwner.CENTRED
    for owner in CubeOwner:
        for player in (0, 1):
            absolute = owner.absolute(player)
            if absolute is not None:
                again = MatchState(cube_value=2, cube_owner=absolute, on_roll=player)
                assert again.relative_cube_owner() is owner


@pytest.mark.parametrize(
    ("state", "result", "cube", "centred", "points"),
    [
        (MatchState(), GameResult.GAMMON, None, None, 2),
        (MatchState(cube_value=4, cube_owner=0), GameResult.BACKGAMMON, None, None, 12),
        (MatchState(jacoby=True), GameResult.BACKGAMMON, None, None, 1),  # Jacoby: centred gammons are single
        (MatchState(jacoby=True, cube_value=2, cube_owner=1), GameResult.GAMMON, None, None, 4),
        (MatchState(jacoby=True), GameResult.GAMMON, 2, False, 4),  # a turned cube in a rollout game
        (MatchState(match_length=5), GameResult.GAMMON, None, None, 2),
    ],
)
def test_game_points_apply_the_cube_and_the_jacoby_rule(state, result, cube, centred, points):
    assert state.game_points(result, cube, centred=centred) == points


def test_dice_given_as_text_are_kept_as_a_pair():
    assert MatchState(dice="52").dice == (5, 2)

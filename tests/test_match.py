"""Matches: points awarded per game, the Crawford game without the cube, post-Crawford
games with it, the end of the match and no carry-over of surplus points."""

from __future__ import annotations

import pytest
from bgengine import GameResult, IllegalMoveError, InvalidMatchStateError
from bgengine.game.actions import Accept, Decision, Double, Pass, Play, Resign, Roll, Take
from bgengine.agents.base import HeuristicAgent, RandomAgent
from bgengine.game.match import Match
from bgengine.game.rules import double_is_pointless, next_game_is_crawford
from bgengine.agents.play import play_match


def open_game(match: Match, dice: tuple[int, int] = (3, 1)) -> None:
    """Opening throw and the first listed play."""
    match.push(Roll(dice))
    match.push(Play(match.game.legal_moves().moves[0]))


def roll_and_play(match: Match, dice: tuple[int, int] = (2, 1)) -> None:
    match.push(Roll(dice))
    match.push(Play(match.game.legal_moves().moves[0]))


def player0_wins_two_by_redouble_and_pass(match: Match) -> None:
    """Player 0 opens, player 1 doubles, 0 takes, 1 plays, 0 redoubles, 1 passes: 2 points to 0."""
    open_game(match)
    match.push(Double())
    match.push(Take())
    roll_and_play(match)
    match.push(Double())
    match.push(Pass())


def test_points_are_awarded_and_the_next_game_starts():
    match = Match(5)
    player0_wins_two_by_redouble_and_pass(match)
    assert match.score == (2, 0)
    assert len(match.games) == 2 and match.decision is Decision.OPENING_ROLL
    assert match.game.state.score == (2, 0) and match.game.state.cube_value == 1


def test_crawford_game_has_no_cube_and_post_crawford_game_has_it():
    match = Match(3)
    player0_wins_two_by_redouble_and_pass(match)  # 2-0: player 0 is one point away
    crawford = match.game
    assert crawford.state.crawford
    open_game(match, (1, 3))  # player 1 opens
    assert match.decision is Decision.ROLL and match.turn == 0  # no cube access for anyone
    with pytest.raises(IllegalMoveError):
        match.push(Double())
    roll_and_play(match)
    assert match.decision is Decision.ROLL and match.turn == 1
    match.push(Resign(GameResult.SINGLE))  # player 1 resigns the Crawford game
    match.push(Accept())
    assert match.score == (3, 0) and match.is_over


def test_post_crawford_game_has_the_cube_back():
    match = Match(3)
    player0_wins_two_by_redouble_and_pass(match)
    open_game(match, (1, 3))  # Crawford game: player 1 opens, player 0 to roll
    match.push(Resign(GameResult.SINGLE))  # player 0 resigns: 2-1
    match.push(Accept())
    assert match.score == (2, 1)
    post = match.game
    assert not post.state.crawford and post.state.is_post_crawford
    open_game(match, (3, 1))
    assert match.decision is Decision.CUBE_OR_ROLL and match.turn == 1
    match.push(Double())
    match.push(Pass())
    assert match.score == (2, 2)
    assert not match.game.state.crawford  # double match point: the Crawford game was played
    open_game(match)
    assert match.decision is Decision.CUBE_OR_ROLL


def test_match_ends_once_and_surplus_points_are_not_carried():
    match = Match(1)
    open_game(match)
    match.push(Double())  # pointless in a 1-point match, but legal
    match.push(Take())
    roll_and_play(match)
    match.push(Resign(GameResult.BACKGAMMON))  # player 0 resigns a backgammon at cube 2: 6 points
    match.push(Accept())
    assert match.game.outcome is not None and match.game.outcome.points == 6
    assert match.score == (0, 1) and match.winner == 1 and match.is_over
    assert len(match.games) == 1 and match.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="match is over"):
        match.push(Roll((3, 1)))


def test_pop_goes_back_into_the_previous_game():
    match = Match(5)
    player0_wins_two_by_redouble_and_pass(match)
    assert match.pop() == Pass()
    assert len(match.games) == 1 and match.score == (0, 0)
    assert match.decision is Decision.TAKE_OR_PASS


def test_popping_a_whole_match_retraces_its_score_and_games():
    played = play_match(HeuristicAgent(), RandomAgent(3), 7, seed=3)
    replay = Match(7)
    seen = [(replay.score, len(replay.games), replay.winner)]
    for action in [action for game in played.games for action in game.actions]:
        replay.push(action)
        seen.append((replay.score, len(replay.games), replay.winner))
    assert seen[-1] == (played.score, len(played.games), played.winner) and len(played.games) > 2
    while len(seen) > 1:
        seen.pop()
        replay.pop()
        assert (replay.score, len(replay.games), replay.winner) == seen[-1]


def test_one_point_match_has_no_crawford_game():
    assert not next_game_is_crawford(1, (0, 0), crawford_played=False)
    assert not Match(1).game.state.crawford


@pytest.mark.parametrize(
    ("length", "score", "played", "expected"),
    [
        (5, (4, 0), False, True),
        (5, (4, 3), False, True),
        (5, (4, 0), True, False),
        (5, (4, 4), True, False),
        (5, (3, 3), False, False),
        (2, (1, 0), False, True),
    ],
)
def test_crawford_game_is_the_first_with_exactly_one_player_one_away(length, score, played, expected):
    assert next_game_is_crawford(length, score, played) is expected


def test_double_is_pointless_when_the_current_stake_wins_the_match():
    match = Match(3)
    player0_wins_two_by_redouble_and_pass(match)
    open_game(match, (1, 3))
    match.push(Resign(GameResult.SINGLE))
    match.push(Accept())  # 2-1, post-Crawford
    state = match.game.state
    assert double_is_pointless(state, 0)  # player 0 is 1-away: a single win is the match
    assert not double_is_pointless(state, 1)  # player 1 is 2-away


@pytest.mark.parametrize("length", [0, -3, 2.5, True, 40000])
def test_bad_match_length_is_refused(length):
    with pytest.raises(InvalidMatchStateError):
        Match(length)

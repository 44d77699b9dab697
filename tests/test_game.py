"""The rules of one game, driven through the Game API with fixed dice and chosen actions."""

from __future__ import annotations

import pytest
from bgengine import DiceError, GameResult, IllegalMoveError, MatchState, Position
from bgengine.game.actions import Accept, Beaver, Decision, Double, Pass, Play, Reject, Resign, Roll, Take
from bgengine.agents.base import HeuristicAgent
from bgengine.dice import FixedDice
from bgengine.game.record import OPENING_ROLLS, ROLLS, Ending, Game
from bgengine.move import Move
from bgengine.agents.play import next_action
from movegen_helpers import count_built_moves


def play_first_legal(game: Game) -> None:
    """Push the first listed legal checker play."""
    game.push(Play(game.legal_moves().moves[0]))


def roll_and_play(game: Game, dice: tuple[int, int]) -> None:
    game.push(Roll(dice))
    play_first_legal(game)


# ----- the opening ------------------------------------------------------------------


def test_opening_tied_throws_are_thrown_again_and_not_recorded():
    dice = FixedDice([(3, 3), (5, 5), (1, 3)])
    game = Game()
    game.push(next_action(game, (HeuristicAgent(), HeuristicAgent()), dice))
    dice.check_all_used()
    assert game.actions == (Roll((1, 3)),)
    assert game.state.on_roll == 1  # player 1 threw the 3, the higher die
    assert game.state.dice == (3, 1)
    assert game.decision is Decision.CHECKER_PLAY


def test_opening_tie_pushed_directly_is_refused():
    game = Game()
    with pytest.raises(IllegalMoveError, match="tied opening"):
        game.push(Roll((4, 4)))
    assert len(game) == 0 and game.decision is Decision.OPENING_ROLL


def test_opening_higher_die_moves_first_with_both_numbers():
    game = Game()
    game.push(Roll((6, 5)))
    assert game.state.on_roll == 0 and game.state.dice == (6, 5)
    game.push(Play(Move.parse("24/18 18/13")))
    assert game.state.on_roll == 1 and game.state.dice is None
    own, _, _, _ = game.position.flip().points()
    assert own == {24: 1, 13: 6, 8: 3, 6: 5}


def test_opening_offers_thirty_non_tied_throws_and_no_double():
    game = Game()
    actions = game.legal_actions()
    assert actions == [Roll(dice) for dice in OPENING_ROLLS] and len(actions) == 30
    with pytest.raises(IllegalMoveError):
        game.push(Double())


def test_rolls_after_the_opening_are_recorded_higher_die_first():
    game = Game()
    roll_and_play(game, (3, 1))
    game.push(Roll((2, 6)))
    assert game.actions[-1] == Roll((6, 2)) and game.state.dice == (6, 2)


# ----- the cube ---------------------------------------------------------------------


def test_centred_cube_double_take_gives_the_taker_the_cube():
    game = Game()
    roll_and_play(game, (3, 1))
    assert game.decision is Decision.CUBE_OR_ROLL and game.turn == 1
    game.push(Double())
    assert game.decision is Decision.TAKE_OR_PASS and game.turn == 0
    game.push(Take())
    assert game.state.cube_value == 2 and game.state.cube_owner == 0
    assert game.decision is Decision.ROLL and game.turn == 1  # the doubler rolls, no cube access
    assert Double() not in game.legal_actions()
    with pytest.raises(IllegalMoveError, match="player 1 cannot double: the opponent owns the cube"):
        game.push(Double())
    roll_and_play(game, (4, 2))
    assert game.decision is Decision.CUBE_OR_ROLL and game.turn == 0  # the owner may redouble


def test_pass_loses_the_stake_before_the_double():
    game = Game()
    roll_and_play(game, (3, 1))
    game.push(Double())
    game.push(Take())
    roll_and_play(game, (4, 2))
    game.push(Double())  # player 0 redoubles to 4
    game.push(Pass())
    outcome = game.outcome
    assert outcome is not None and game.decision is Decision.GAME_OVER
    assert (outcome.winner, outcome.points, outcome.cube_value, outcome.ending) == (0, 2, 2, Ending.PASSED)
    assert game.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="over"):
        game.push(Roll((1, 2)))


def test_cube_stops_at_64():
    game = Game()
    roll_and_play(game, (3, 1))
    for expected in (2, 4, 8, 16, 32, 64):
        game.push(Double())
        game.push(Take())
        assert game.state.cube_value == expected
        roll_and_play(game, (2, 1))
    assert game.state.cube_owner == game.state.on_roll
    assert game.decision is Decision.ROLL
    with pytest.raises(IllegalMoveError, match="the cube is at its maximum"):
        game.push(Double())


def test_beaver_in_money_play_redoubles_and_keeps_the_cube():
    game = Game(MatchState(beavers=True))
    roll_and_play(game, (3, 1))
    game.push(Double())
    assert Beaver() in game.legal_actions()
    game.push(Beaver())
    assert (game.state.cube_value, game.state.cube_owner) == (4, 0)
    assert game.turn == 1 and game.decision is Decision.ROLL


def test_beaver_refused_without_the_option():
    game = Game()
    roll_and_play(game, (3, 1))
    game.push(Double())
    assert Beaver() not in game.legal_actions()
    with pytest.raises(IllegalMoveError, match="beaver"):
        game.push(Beaver())


# ----- scoring ----------------------------------------------------------------------

LAST_CHECKER = {1: 1}


def bear_off_last_checker(opponent: dict[int, int], *, opponent_bar: int = 0, **state: object) -> Game:
    """Player on roll has one checker left on the 1-point and rolled 2-1."""
    position = Position.from_points(LAST_CHECKER, opponent, opponent_bar=opponent_bar)
    game = Game(MatchState(dice=(2, 1), **state), position)  # type: ignore[arg-type]
    game.push(Play(Move.parse("1/off")))
    return game


@pytest.mark.parametrize(
    ("opponent", "opponent_bar", "result"),
    [
        ({6: 14}, 0, GameResult.SINGLE),  # one checker off
        ({13: 15}, 0, GameResult.GAMMON),
        ({23: 1, 13: 14}, 0, GameResult.BACKGAMMON),  # one in the winner's home board
        ({13: 14}, 1, GameResult.BACKGAMMON),  # one on the bar
    ],
)
def test_bearing_off_scores_single_gammon_backgammon_times_the_cube(opponent, opponent_bar, result):
    game = bear_off_last_checker(opponent, opponent_bar=opponent_bar, cube_value=4, cube_owner=1, on_roll=1)
    outcome = game.outcome
    assert outcome is not None
    assert (outcome.winner, outcome.result, outcome.points) == (1, result, 4 * int(result))
    assert outcome.ending is Ending.BORNE_OFF


def test_jacoby_counts_a_gammon_single_with_the_cube_centred():
    game = bear_off_last_checker({13: 15}, jacoby=True)
    assert game.outcome is not None and game.outcome.result is GameResult.GAMMON
    assert game.outcome.points == 1


def test_jacoby_counts_a_gammon_double_once_the_cube_is_turned():
    game = bear_off_last_checker({13: 15}, jacoby=True, cube_value=2, cube_owner=0)
    assert game.outcome is not None and game.outcome.points == 4


def test_gammons_count_in_a_match_even_with_the_cube_centred():
    game = bear_off_last_checker({13: 15}, match_length=7)
    assert game.outcome is not None and game.outcome.points == 2


# ----- resignations -----------------------------------------------------------------


def test_accepted_gammon_resignation_wins_twice_the_cube():
    game = Game()
    roll_and_play(game, (3, 1))
    game.push(Double())
    game.push(Take())
    roll_and_play(game, (4, 2))
    game.push(Resign(GameResult.GAMMON))  # player 0, the cube owner, on roll
    assert game.decision is Decision.ACCEPT_OR_REJECT and game.turn == 1
    game.push(Accept())
    outcome = game.outcome
    assert outcome is not None
    assert (outcome.winner, outcome.result, outcome.points) == (1, GameResult.GAMMON, 4)
    assert outcome.ending is Ending.RESIGNED


def test_rejected_resignation_returns_to_the_same_decision():
    game = Game()
    roll_and_play(game, (3, 1))
    game.push(Resign(GameResult.SINGLE))
    game.push(Reject())
    assert game.decision is Decision.CUBE_OR_ROLL and game.turn == 1
    assert game.state.resignation_offered == 0 and not game.is_over


def test_resignation_after_rolling_rejected_returns_to_the_checker_play():
    game = Game()
    game.push(Roll((3, 1)))
    game.push(Resign(GameResult.SINGLE))
    game.push(Reject())
    assert game.decision is Decision.CHECKER_PLAY and game.state.dice == (3, 1)


def test_no_resignation_while_a_double_is_pending():
    game = Game()
    roll_and_play(game, (3, 1))
    game.push(Double())
    with pytest.raises(IllegalMoveError, match="take or pass"):
        game.push(Resign(GameResult.SINGLE, 0))


# ----- checker play and the record --------------------------------------------------


def test_illegal_move_is_refused_with_the_game_unchanged():
    game = Game()
    game.push(Roll((3, 1)))
    with pytest.raises(IllegalMoveError):
        game.push(Play(Move.parse("24/18")))
    assert len(game) == 1 and game.decision is Decision.CHECKER_PLAY


def test_move_typed_in_another_order_is_recorded_as_listed():
    game = Game()
    game.push(Roll((6, 5)))
    listed = {str(move) for move in game.legal_moves().moves}
    game.push(Play(Move.parse("13/8 24/18")))
    assert str(game.actions[-1].move) in listed


def test_roll_offers_the_21_distinct_throws():
    game = Game()
    roll_and_play(game, (3, 1))
    rolls = [action for action in game.legal_actions() if isinstance(action, Roll)]
    assert [roll.dice for roll in rolls] == list(ROLLS) and len(rolls) == 21


def test_pop_undoes_actions_in_reverse_order():
    game = Game()
    roll_and_play(game, (3, 1))
    after_first_move = (game.position, game.state, game.decision)
    game.push(Double())
    game.push(Take())
    assert game.pop() == Take()
    assert game.pop() == Double()
    assert (game.position, game.state, game.decision) == after_first_move
    game.pop()
    game.pop()
    assert game.position == Position.initial() and game.decision is Decision.OPENING_ROLL
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        game.pop()


def test_history_pairs_each_action_with_the_state_before_it():
    game = Game()
    roll_and_play(game, (3, 1))
    game.push(Double())
    (first_state, first), _, (double_state, double) = game.history
    assert first == Roll((3, 1)) and first_state.dice is None
    assert double == Double() and double_state.on_roll == 1


def test_game_from_a_finished_position_is_refused():
    finished = Position.from_points({}, {6: 3})  # the player on roll has borne off all 15
    with pytest.raises(IllegalMoveError, match="already over"):
        Game(MatchState(), finished)


def test_roll_with_a_bad_face_is_refused():
    game = Game()
    roll_and_play(game, (3, 1))
    with pytest.raises(DiceError, match="1..6"):
        game.push(Roll((7, 1)))


def test_finished_game_is_seen_from_the_winner_who_bore_off():
    game = bear_off_last_checker({13: 15}, on_roll=1)
    assert game.state.on_roll == 1 and game.position.checkers_off() == (15, 0)


def test_push_of_something_that_is_not_an_action_is_refused():
    game = Game()
    with pytest.raises(IllegalMoveError, match="push takes an action"):
        game.push("roll")  # type: ignore[arg-type]


def test_play_accepts_move_text_and_records_the_listed_move():
    game = Game()
    game.push(Roll((4, 2)))
    game.push(Play("6/4 8/4"))  # type: ignore[arg-type]
    assert game.actions[-1] == Play(Move.parse("8/4 6/4"))


def test_player_not_on_roll_may_resign_and_the_player_on_roll_answers():
    game = Game()
    roll_and_play(game, (3, 1))  # player 1 on roll
    game.push(Resign(GameResult.SINGLE, player=0))
    assert game.actions[-1] == Resign(GameResult.SINGLE, 0)
    assert game.decision is Decision.ACCEPT_OR_REJECT and game.turn == 1
    game.push(Accept())
    assert game.outcome is not None and (game.outcome.winner, game.outcome.points) == (1, 1)


def test_resignation_of_the_player_on_roll_is_recorded_with_its_player():
    game = Game()
    roll_and_play(game, (3, 1))
    game.push(Resign(GameResult.BACKGAMMON))
    assert game.actions[-1] == Resign(GameResult.BACKGAMMON, 1) and game.turn == 0


def test_both_players_resignations_are_legal_before_a_roll():
    game = Game()
    roll_and_play(game, (3, 1))
    offers = [action for action in game.legal_actions() if isinstance(action, Resign)]
    assert offers == [Resign(result, player) for player in (1, 0) for result in GameResult]


def test_resignation_of_an_unknown_kind_is_refused():
    game = Game()
    roll_and_play(game, (3, 1))
    with pytest.raises(IllegalMoveError, match="single, gammon or backgammon"):
        game.push(Resign(5))  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="0 or 1"):
        game.push(Resign(GameResult.SINGLE, 2))


# ----- a listed move goes straight in ------------------------------------------------


def test_push_of_a_listed_legal_move_builds_no_other_move(monkeypatch):
    game = Game()
    game.push(Roll((6, 4)))
    legal = game.legal_moves()
    built = count_built_moves(monkeypatch)
    chosen = legal[5]
    game.push(Play(chosen))  # type: ignore[arg-type]
    assert built[0] == 1
    assert game.actions[-1] == Play(chosen.move) and game.actions[-1].move is chosen.move
    assert game.position == chosen.position and game.turn == 1


def test_play_of_a_legal_move_keeps_its_move():
    legal = Position.initial().legal_moves((3, 1))
    assert Play(legal[2]) == Play(legal.move(2)) == Play(str(legal.move(2)))  # type: ignore[arg-type]


def test_listed_move_and_its_text_play_the_same():
    by_listed, by_text = Game(), Game()
    for game in (by_listed, by_text):
        game.push(Roll((5, 2)))
    listed = by_listed.legal_moves().move(5)
    by_listed.push(Play(listed))
    by_text.push(Play(str(listed)))  # type: ignore[arg-type]
    assert by_listed.actions == by_text.actions
    assert (by_listed.position, by_listed.state) == (by_text.position, by_text.state)


def test_legal_move_of_another_position_is_refused_with_the_game_unchanged():
    game = Game()
    game.push(Roll((3, 1)))
    elsewhere = Position.from_points({22: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}).legal_moves((3, 1))
    foreign = next(legal for legal in elsewhere if legal.move not in game.legal_moves())
    with pytest.raises(IllegalMoveError, match="not a legal play|does not have"):
        game.push(Play(foreign))  # type: ignore[arg-type]
    assert len(game) == 1 and game.decision is Decision.CHECKER_PLAY


def test_legal_moves_are_generated_once_per_position_and_roll():
    game = Game()
    game.push(Roll((3, 1)))
    legal = game.legal_moves()
    assert game.legal_moves() is legal
    game.push(Resign(GameResult.SINGLE))
    game.push(Reject())
    assert game.legal_moves() is legal  # same position and dice after the rejected offer
    game.push(Play(legal.move(0)))
    game.pop()
    assert game.legal_moves() is legal
    game.pop(), game.pop(), game.pop()  # back to the opening throw
    game.push(Roll((1, 3)))  # same dice, player 1 on roll, same position from their side
    assert game.legal_moves().dice == (3, 1) and game.legal_moves().position == Position.initial()
    game.pop()
    game.push(Roll((4, 2)))
    assert game.legal_moves().dice == (4, 2) and game.legal_moves() is not legal


def test_resumed_game_with_low_die_first_lists_the_moves_of_that_roll():
    state = MatchState(dice=(1, 3))
    game = Game(state, Position.initial())
    assert game.legal_moves() is game.legal_moves() and game.legal_moves().dice == (3, 1)
    game.push(Play("8/5 6/5"))  # type: ignore[arg-type]
    assert str(game.actions[-1].move) == "8/5 6/5"

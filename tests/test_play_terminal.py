"""The terminal game, driven in-process with scripted input and fixed dice."""

from __future__ import annotations

import io

import pytest
from bgengine import MatchState, Position
from bgengine.game.actions import Double, Play, Take
from bgengine.agents.base import HeuristicAgent, RandomAgent
from bgengine.dice import FixedDice
from bgengine.game.record import Ending, Game
from bgengine.game.match import Match
from bgengine.move import Move
from bgengine.cli.play_terminal import play_in_terminal


def run(agent, lines: list[str], throws: list[tuple[int, int]], **options):
    dice = FixedDice(throws)
    output = io.StringIO()
    record = play_in_terminal(agent, dice_source=dice, input=io.StringIO("".join(f"{line}\n" for line in lines)),
                              output=output, **options)
    dice.check_all_used()
    return record, output.getvalue()


def test_garbled_and_illegal_moves_are_refused_and_asked_again():
    record, text = run(HeuristicAgent(), ["xyz", "24/1", "8/5 6/5", "resign"], [(3, 1), (6, 4)], length=1)
    assert "Cannot read that move" in text and "Illegal move: 24/1 is not a legal play of 3-1" in text
    assert text.count("Your move: ") == 3
    assert isinstance(record, Match) and record.is_over and record.winner == 1
    first_game = record.games[0]
    assert first_game.actions[1] == Play(Move.parse("8/5 6/5"))
    assert "bgengine accepts." in text and "Match over: bgengine won 0-1" in text


def test_board_dice_cube_and_score_are_shown():
    _, text = run(HeuristicAgent(), ["8/5 6/5", "quit"], [(3, 1), (6, 4)], length=5)
    assert "+13-14-15-16-17-18-+" in text and "dice 31" in text
    assert "cube 1 centred" in text and "5-point match, score You 0-0 bgengine" in text
    assert "Opening throw: You 3, bgengine 1. You to play 31." in text
    assert "bgengine rolled 64 and plays" in text and "Stopped." in text


def test_human_double_is_taken_by_the_agent():
    record, text = run(HeuristicAgent(), ["8/5 6/5", "d", "q"], [(3, 1), (6, 4)], length=5)
    game = record.game  # type: ignore[union-attr]
    assert game.actions[-2:] == (Double(), Take())
    assert (game.state.cube_value, game.state.cube_owner) == (2, 1)
    assert "bgengine takes: the cube is at 2" in text


def test_human_passes_the_agents_double_in_a_money_game():
    agent = RandomAgent(0, double_probability=1.0)
    record, text = run(agent, ["8/5 6/5", "t?", "p"], [(3, 1)])
    assert isinstance(record, Game) and record.outcome is not None
    assert (record.outcome.winner, record.outcome.ending, record.outcome.points) == (1, Ending.PASSED, 1)
    assert "bgengine doubles to 2." in text and "Unknown command 't?'" in text


def test_roll_is_refused_at_a_take_decision_without_using_dice():
    agent = RandomAgent(0, double_probability=1.0)
    _, text = run(agent, ["8/5 6/5", "r", "p"], [(3, 1)])
    assert "You cannot roll now: take or pass." in text


def test_end_of_input_stops_the_game():
    record, text = run(HeuristicAgent(), [], [(3, 1)], length=3)
    assert "Stopped." in text and not record.is_over


def test_moves_command_lists_the_legal_plays():
    _, text = run(HeuristicAgent(), ["moves", "q"], [(3, 1)], length=3)
    assert "Legal plays: " in text and "8/5 6/5" in text


def test_human_who_cannot_move_is_told_and_the_turn_passes():
    # The human (on roll, 6-6) has a checker on the bar against a closed board.
    position = Position.from_points({13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, bar=1)
    game = Game(MatchState(dice=(6, 6)), position)
    record, text = run(HeuristicAgent(), [], [(2, 1)], game=game)
    assert record is game and "You cannot move." in text
    assert game.actions[0] == Play(Move.parse("pass")) and "bgengine rolled 21 and plays" in text


def test_bad_seat_is_refused():
    with pytest.raises(ValueError, match="seat"):
        play_in_terminal(HeuristicAgent(), human=2, input=io.StringIO(""), output=io.StringIO())

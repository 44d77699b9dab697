"""Position: construction, validation, derived facts and value semantics."""

import pickle

import numpy as np
import pytest
from hypothesis import given

from bgengine import GameResult, InvalidPositionError, Phase, Position
from strategies import positions

INITIAL = {24: 2, 13: 5, 8: 3, 6: 5}


def test_initial_position_has_standard_arrangement():
    slots = np.asarray(Position.initial())
    assert slots.dtype == np.int8 and slots.shape == (26,)
    assert {p: int(slots[p]) for p in range(26) if slots[p] > 0} == INITIAL
    assert {25 - p: int(-slots[p]) for p in range(26) if slots[p] < 0} == INITIAL


def test_initial_position_pip_counts_are_167_each():
    assert Position.initial().pip_counts() == (167, 167)


def test_from_points_numbers_opponent_points_from_their_side():
    p = Position.from_points({6: 1}, {6: 1})
    assert p[6] == 1 and p[19] == -1


def test_bar_checkers_count_25_pips():
    p = Position.from_points({}, {1: 1}, bar=1)
    assert p.pip_counts() == (25, 1)


def test_checkers_off_are_derived_from_the_board():
    p = Position.from_points({6: 5}, {1: 2, 2: 3}, bar=1, opponent_bar=2)
    assert p.checkers_off() == (9, 8)


def test_flip_switches_sides_and_is_an_involution():
    p = Position.from_points({6: 5, 24: 1}, {8: 3}, bar=2)
    flipped = p.flip()
    assert flipped.points() == ({8: 3}, {6: 5, 24: 1}, 0, 2)
    assert flipped.flip() == p


@given(positions())
def test_flip_twice_is_identity(position):
    assert position.flip().flip() == position


@given(positions())
def test_flip_swaps_pip_counts_and_checkers_off(position):
    mover, opponent = position.pip_counts()
    assert position.flip().pip_counts() == (opponent, mover)
    off_mover, off_opponent = position.checkers_off()
    assert position.flip().checkers_off() == (off_opponent, off_mover)


def test_phase_contact_when_checkers_can_meet():
    assert Position.initial().phase is Phase.CONTACT


def test_phase_contact_when_on_bar():
    p = Position.from_points({6: 14}, {1: 1, 24: 1}, bar=1)
    assert p.phase is Phase.CONTACT


def test_phase_race_when_sides_have_passed():
    p = Position.from_points({8: 2, 6: 13}, {9: 2, 5: 13})
    assert p.phase is Phase.RACE


def test_phase_bearoff_when_everyone_is_home():
    p = Position.from_points({6: 2, 1: 3}, {5: 4})
    assert p.phase is Phase.BEAROFF


def test_phase_over_when_one_side_is_off():
    p = Position.from_points({6: 2}, {})
    assert p.phase is Phase.OVER
    assert p.is_game_over()


def test_game_in_play_has_no_result():
    assert Position.initial().winner_and_result() is None


def test_single_game_when_loser_has_borne_off():
    p = Position.from_points({6: 2}, {})  # opponent (who just moved) is off; mover has 13 off
    assert p.winner_and_result() == (1, GameResult.SINGLE)


def test_gammon_when_loser_has_borne_off_nothing():
    p = Position.from_points({6: 10, 12: 5}, {})
    assert p.winner_and_result() == (1, GameResult.GAMMON)


def test_backgammon_when_loser_has_a_checker_in_winners_home_board():
    p = Position.from_points({6: 14, 20: 1}, {})
    assert p.winner_and_result() == (1, GameResult.BACKGAMMON)


def test_backgammon_when_loser_has_a_checker_on_the_bar():
    p = Position.from_points({6: 14}, {}, bar=1)
    assert p.winner_and_result() == (1, GameResult.BACKGAMMON)


def test_winner_is_player_on_roll_when_they_are_off():
    p = Position.from_points({}, {20: 1, 6: 14})  # opponent's 20 is in the mover's home board
    assert p.winner_and_result() == (0, GameResult.BACKGAMMON)


def test_positions_are_hashable_values():
    a, b = Position.initial(), Position.from_points(INITIAL, INITIAL)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1


def test_position_is_immutable():
    p = Position.initial()
    with pytest.raises(AttributeError):
        p._board = b"x"  # type: ignore[misc]
    with pytest.raises(ValueError):
        np.asarray(p)[1] = 3


@given(positions())
def test_repr_pastes_back(position):
    assert eval(repr(position)) == position


@given(positions())
def test_array_round_trip(position):
    assert Position.from_array(np.asarray(position)) == position


@given(positions())
def test_pickle_round_trip(position):
    assert pickle.loads(pickle.dumps(position)) == position


def test_text_board_shows_points_counts_and_pips():
    text = str(Position.from_points({6: 7, 4: 2}, {1: 12, 20: 1}, bar=2, opponent_bar=1))
    lines = text.splitlines()
    assert lines[0].startswith(" +13-14-15-16-17-18-+")
    assert lines[-2].startswith(" +12-11-10--9--8--7-+")
    assert "12" in lines[5]  # twelve O checkers on their 1-point (our 24) show their count
    assert "7" in lines[7]  # seven X checkers on the 6-point show their count
    assert "O on bar: 1, X on bar: 2" in text
    assert "X (on roll): 100 pips, 4 off" in lines[-1]


# ----- bad input: one test per kind, checking type and message ----------------------


def test_from_array_fails_too_many_checkers_for_mover():
    with pytest.raises(InvalidPositionError, match="player on roll has more than 15"):
        Position.from_array([0, 8, 8] + [0] * 23)


def test_from_array_fails_too_many_checkers_for_opponent():
    with pytest.raises(InvalidPositionError, match="opponent has more than 15"):
        Position.from_array([0, -8, -8] + [0] * 23)


def test_from_points_fails_too_many_checkers():
    with pytest.raises(InvalidPositionError, match="more than 15"):
        Position.from_points({6: 10, 5: 6}, {6: 1})


def test_from_points_fails_point_held_by_both_sides():
    with pytest.raises(InvalidPositionError, match="held by both sides"):
        Position.from_points({6: 2}, {19: 1})


def test_from_points_fails_negative_count():
    with pytest.raises(InvalidPositionError, match="negative count"):
        Position.from_points({6: -2}, {1: 1})


def test_from_points_fails_point_out_of_range():
    with pytest.raises(InvalidPositionError, match="point must be 1..24"):
        Position.from_points({25: 1}, {1: 1})


def test_from_array_fails_mover_checker_on_opponent_bar_slot():
    with pytest.raises(InvalidPositionError, match="opponent's bar slot"):
        Position.from_array([1, 0, -1] + [0] * 23)


def test_from_array_fails_opponent_checker_on_mover_bar_slot():
    with pytest.raises(InvalidPositionError, match="bar slot of the player on roll"):
        Position.from_array([0, 1] + [0] * 23 + [-1])


def test_from_array_fails_wrong_length():
    with pytest.raises(InvalidPositionError, match="26 slots"):
        Position.from_array([0] * 25)


def test_from_array_fails_slot_beyond_fifteen():
    with pytest.raises(InvalidPositionError, match="at most 15"):
        Position.from_array([0, 16] + [0] * 24)


def test_from_array_fails_non_integer_counts():
    with pytest.raises(InvalidPositionError, match="integers"):
        Position.from_array([0.5] * 26)


def test_from_array_fails_when_both_sides_are_off():
    with pytest.raises(InvalidPositionError, match="both players have borne off"):
        Position.from_array([0] * 26)


def test_from_bytes_fails_slot_beyond_fifteen():
    with pytest.raises(InvalidPositionError, match="slot 3 holds -20 checkers"):
        Position(bytes([0, 1, 0, 256 - 20] + [0] * 22))


def test_from_bytes_fails_wrong_length():
    with pytest.raises(InvalidPositionError, match="26 slots, got 3 bytes"):
        Position(b"abc")


def test_every_function_taking_a_position_refuses_anything_else_with_one_error():
    import bgengine
    from bgengine.evaluation import race

    board = bgengine.Position.initial().gnubg_id()  # a string is not a Position
    for check in (
        lambda: bgengine.evaluate(board),
        lambda: bgengine.rank_moves(board, (3, 1)),
        lambda: bgengine.best_move(board, (3, 1)),
        lambda: bgengine.cube_decision(board),
        lambda: bgengine.rollout(board),
        lambda: race.evaluate(board),
    ):
        with pytest.raises(InvalidPositionError, match="position must be a Position, got str"):
            check()

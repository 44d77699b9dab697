"""One hand-built position per rule of checker play; each also checked against the reference."""

from __future__ import annotations

import pytest
import bgengine
from bgengine import InvalidPositionError, Position
from movegen_helpers import (
    ALL_ROLLS,
    assert_core_matches_reference,
    assert_records_replay,
)

# The opponent's checkers are numbered from the opponent's side: their q is our 25 - q.
FAR_AWAY = {1: 2}  # two opposing checkers on our 24-point, out of the way


def plays(position: Position, dice: tuple[int, int]) -> set[str]:
    """The canonical texts of the legal plays, after checking the core against the reference."""
    assert_core_matches_reference(position, dice)
    assert_records_replay(position, dice)
    return {str(move) for move in position.legal_moves(dice).moves}


def test_checkers_move_forward_by_each_die_and_both_dice_are_played():
    position = Position.from_points({13: 1, 8: 1}, FAR_AWAY)
    assert plays(position, (3, 1)) == {"13/9", "13/12 8/5", "13/10 8/7", "8/4"}


def test_checker_cannot_land_on_a_point_held_by_two_opponents():
    position = Position.from_points({10: 1}, {18: 2})  # their 18 is our 7
    assert plays(position, (3, 1)) == {"10/6"}


def test_landing_on_a_lone_opponent_checker_hits_it():
    position = Position.from_points({13: 1}, {15: 1, 1: 1})  # a blot on our 10
    moves = position.legal_moves((3, 2))
    assert plays(position, (3, 2)) == {"13/10*/8", "13/8"}
    hitting = moves.play("13/10*/8")
    assert hitting.points()[2] == 1  # the hit checker is on the bar of the next player


def test_same_checker_through_different_intermediate_points_gives_different_children():
    position = Position.from_points({13: 1}, {15: 1, 1: 1})
    assert len(position.legal_moves((3, 2))) == 2


def test_bar_checker_enters_on_the_point_25_minus_the_die():
    position = Position.from_points({6: 2}, {6: 2}, bar=1)  # they hold our 19
    assert plays(position, (5, 3)) == {"bar/17", "bar/20 6/3", "bar/22 6/1"}


def test_entering_checker_hits_a_blot_in_the_opponent_home_board():
    position = Position.from_points({6: 2}, {3: 1, 13: 2}, bar=1)  # their blot on our 22
    assert "bar/22*/16" in plays(position, (6, 3))


def test_all_bar_checkers_must_enter_before_any_other_checker_moves():
    position = Position.from_points({13: 5}, FAR_AWAY, bar=2)
    assert plays(position, (4, 2)) == {"bar/23 bar/21"}


def test_blocked_entry_passes_the_turn():
    closed_board = {point: 2 for point in range(1, 7)}
    position = Position.from_points({13: 5}, closed_board, bar=1)
    for dice in ALL_ROLLS:
        moves = position.legal_moves(dice)
        assert moves.is_pass()
        assert [str(m) for m in moves.moves] == ["pass"]
        assert moves.position_after(0) == position.flip()
        assert_core_matches_reference(position, dice)


def test_second_bar_checker_that_cannot_enter_freezes_the_other_checkers():
    five_points = {point: 2 for point in range(1, 6)}  # our 20..24 closed, 19 open
    position = Position.from_points({13: 5}, five_points, bar=2)
    assert plays(position, (6, 1)) == {"bar/19"}


def test_checker_using_both_dice_needs_an_open_intermediate_point():
    position = Position.from_points({13: 1}, {18: 2})  # our 7 closed, 11 open
    assert plays(position, (6, 2)) == {"13/5"}


def test_checker_cannot_use_both_dice_when_both_intermediate_points_are_closed():
    position = Position.from_points({13: 1}, {18: 2, 14: 2})  # our 7 and 11 closed
    assert plays(position, (6, 2)) == {"pass"}


def test_both_dice_must_be_played_when_possible():
    # 24/18 would leave the 5 unplayable (7/2 is closed), but 24/18/13 plays both.
    position = Position.from_points({24: 1, 7: 1}, {6: 2, 23: 2, 24: 2})  # closed: 19, 2, 1
    assert plays(position, (6, 5)) == {"24/13"}


def test_larger_die_must_be_played_when_only_one_can():
    position = Position.from_points({24: 1}, {11: 2})  # our 14 closed: 24/18/14 and 24/20/14 fail
    assert plays(position, (6, 4)) == {"24/18"}


def test_smaller_die_is_played_when_the_larger_cannot_be():
    position = Position.from_points({24: 1}, {7: 2, 11: 2})  # our 18 and 14 closed
    assert plays(position, (6, 4)) == {"24/20"}


def test_doubles_are_played_four_times():
    position = Position.from_points({13: 2}, FAR_AWAY)
    assert plays(position, (2, 2)) == {"13/5", "13/11 13/7", "13/9(2)"}


def test_doubles_partially_playable_play_as_many_steps_as_possible():
    position = Position.from_points({13: 1}, {20: 2})  # our 5 closed
    assert plays(position, (2, 2)) == {"13/7"}


def test_no_bear_off_while_a_checker_is_outside_the_home_board():
    position = Position.from_points({10: 1, 2: 2}, FAR_AWAY)
    assert plays(position, (2, 1)) == {"10/7", "10/8 2/1"}


def test_bear_off_from_the_point_of_the_die():
    position = Position.from_points({6: 1, 5: 1}, FAR_AWAY)
    assert plays(position, (6, 5)) == {"6/off 5/off", "6/1 5/off"}


def test_bear_off_from_highest_point_with_higher_die():
    position = Position.from_points({3: 1, 2: 1}, FAR_AWAY)
    assert plays(position, (6, 5)) == {"3/off 2/off"}


def test_higher_die_bears_off_only_when_no_checker_is_on_a_higher_point():
    position = Position.from_points({5: 1, 3: 1}, FAR_AWAY)
    assert plays(position, (4, 1)) == {"5/1 3/2", "5/off"}


def test_bearing_off_is_not_mandatory_when_another_move_plays_the_die():
    position = Position.from_points({6: 1, 1: 1}, FAR_AWAY)
    assert plays(position, (2, 1)) == {"6/3", "6/4 1/off"}


def test_bear_off_starts_once_the_last_checker_comes_home_within_the_roll():
    position = Position.from_points({8: 1, 3: 1}, FAR_AWAY)
    assert plays(position, (3, 2)) == {"8/3", "8/5 3/1", "8/6 3/off"}


def test_hit_while_bearing_off_checker_must_come_home_before_bearing_off():
    position = Position.from_points({2: 3}, {3: 2}, bar=1)  # they hold our 22
    assert plays(position, (6, 2)) == {"bar/17"}


def test_no_legal_move_passes_with_sides_switched():
    six_prime = {point: 2 for point in range(13, 19)}  # our 7..12 closed
    position = Position.from_points({13: 1}, six_prime)
    for dice in ALL_ROLLS:
        moves = position.legal_moves(dice)
        assert moves.is_pass() and len(moves) == 1
        assert moves.position_after(0) == position.flip()
        assert_core_matches_reference(position, dice)


def test_a_position_reached_by_two_orders_of_the_dice_is_listed_once():
    position = Position.from_points({8: 1, 6: 1}, FAR_AWAY)
    moves = position.legal_moves((3, 1))
    texts = [str(move) for move in moves.moves]
    assert texts.count("8/5 6/5") == 1
    assert len({bytes(row) for row in moves.positions}) == len(moves)


def test_children_are_seen_from_the_next_player():
    child = Position.initial().play("24/13", (6, 5))
    assert child == Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {24: 1, 13: 6, 8: 3, 6: 5})


@pytest.mark.parametrize("dice", ALL_ROLLS)
def test_dice_order_does_not_matter(dice):
    position = Position.initial()
    forward = position.legal_moves(dice)
    backward = position.legal_moves((dice[1], dice[0]))
    assert forward.positions.tobytes() == backward.positions.tobytes()


@pytest.mark.parametrize("dice", ALL_ROLLS)
def test_opening_position_matches_reference_for_every_roll(dice):
    assert_core_matches_reference(Position.initial(), dice)
    assert_records_replay(Position.initial(), dice)


@pytest.mark.parametrize(
    "finished",
    [Position.from_points({6: 3}, {}), Position.from_points({}, {6: 3})],
    ids=["opponent-has-borne-off-all", "player-on-roll-has-borne-off-all"],
)
def test_a_finished_game_has_no_moves(finished):
    """Playing on after the last checker is off would give 15 off for both sides (issue 16)."""
    with pytest.raises(InvalidPositionError, match="game is over"):
        finished.legal_moves((6, 6))
    with pytest.raises(InvalidPositionError, match="game is over"):
        finished.play("6/off(3)", (6, 6))
    with pytest.raises(InvalidPositionError, match="game is over"):
        bgengine.rank_moves(finished, (6, 6))
    with pytest.raises(InvalidPositionError, match="game is over"):
        bgengine.best_move(finished, (6, 6))

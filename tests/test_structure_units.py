"""Encoding 3 of the evaluator network: the structure units in C against a plain reference on
boards of every class, and hand-worked positions for each unit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from bgcore import _nn
from bgengine import Position
from bgengine.training.classes import PositionClass, classify
from bgengine.training.scenarios import SCENARIOS
from conftest import random_game_turns, random_play_positions, random_race
from contact_units_reference import (FIRST_UNIT_3, SCALES_3, UNIT_NAMES_3, contact_unit_counts_3,
                                     contact_units_3)
from strategies import positions
from test_contact_units import bear_in, random_slots

MOVER_UNITS, OPPONENT_UNITS = 0, 1


def c_counts(position: Position | np.ndarray) -> np.ndarray:
    """(2, 9) structure units of the C encoder unscaled (float32 scaling undone)."""
    units = _nn.encode(np.asarray(position), 3)[FIRST_UNIT_3:]
    return np.round(units.reshape(2, len(UNIT_NAMES_3)).astype(np.float64) * SCALES_3, 3)


def unit(position: Position, side: int, name: str) -> float:
    return float(c_counts(position)[side, UNIT_NAMES_3.index(name)])


def assert_same_as_reference(boards: list[np.ndarray]) -> None:
    found = _nn.encode_boards(np.array(boards), 3)[:, FIRST_UNIT_3:]
    for board, units in zip(boards, found):
        np.testing.assert_allclose(units, contact_units_3(board), rtol=1e-6, atol=1e-7,
                                   err_msg=f"board {board.tolist()}")


def test_the_encoding_3_vector_starts_with_encoding_2():
    boards = np.array([np.asarray(p) for p in random_play_positions(300, 4)])
    wide = _nn.encode_boards(boards, 3)
    assert wide.shape == (300, _nn.num_inputs(3)) == (300, FIRST_UNIT_3 + 2 * len(UNIT_NAMES_3)) == (300, 245)
    assert np.array_equal(wide[:, :FIRST_UNIT_3], _nn.encode_boards(boards, 2))
    assert np.array_equal(wide[7], _nn.encode(boards[7], 3))


def test_structure_units_equal_the_reference_on_self_play_positions():
    boards = [np.asarray(p) for p in random_play_positions(1500, 23)]
    assert sum(classify(b) == PositionClass.CRASHED for b in boards) > 20
    assert_same_as_reference(boards)


def test_structure_units_equal_the_reference_on_whole_games():
    # from the opening to the bear-off: every class, the bar, hits, races with no contact
    turns = [np.asarray(position) for position, _ in random_game_turns(seed=18, games=12)]
    assert len(turns) > 500
    assert_same_as_reference(turns)


def test_structure_units_equal_the_reference_on_any_board():
    rng = np.random.default_rng(34)
    boards = [random_slots(rng) for _ in range(1200)]
    assert sum(int(b[0] < 0) + int(b[25] > 0) for b in boards) > 400  # bar checkers, often both
    assert_same_as_reference(boards)


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_structure_units_equal_the_reference_on_hard_starts(scenario):
    # back games, closed-out checkers, long and gammon-saving races
    rng = np.random.default_rng(6)
    assert_same_as_reference([np.asarray(SCENARIOS[scenario](rng)) for _ in range(150)])


def test_structure_units_equal_the_reference_on_bear_ins_and_races():
    rng = np.random.default_rng(7)
    boards = [bear_in(rng) for _ in range(500)] + [np.asarray(random_race(rng)) for _ in range(200)]
    assert_same_as_reference(boards)


@settings(max_examples=200, deadline=None)
@given(positions())
def test_structure_units_equal_the_reference_on_generated_positions(position):
    assert_same_as_reference([np.asarray(position)])


def test_the_opponent_units_are_the_mover_units_of_the_flipped_board():
    for position in random_play_positions(150, 19):
        counts = contact_unit_counts_3(np.asarray(position))
        flipped = c_counts(position.flip())
        np.testing.assert_allclose(flipped[[1, 0]], counts, rtol=1e-6, atol=1e-3)  # c_counts rounds


@pytest.mark.parametrize("anchor, rolls", [(1, 2), (2, 4)])
def test_two_blots_hit_by_one_checker_on_its_way_or_by_two(anchor, rolls):
    # blots on the mover's 8 and 9, the opponent on the mover's 3: one checker hits both only
    # with 5-1 (5 then 1); two checkers there also with 6-5, one die each
    position = Position.from_points({8: 1, 9: 1, 6: 13}, {22: anchor, 1: 15 - anchor})
    assert unit(position, MOVER_UNITS, "double_hit_rolls") == rolls


@pytest.mark.parametrize("blocked, rolls", [(False, 2), (True, 1)])
def test_a_double_hits_two_blots_with_its_steps(blocked, rolls):
    # blots on 7 and 9, one opponent checker on the mover's 5: 2-2 (7, 9) and 1-1 (6, 7, 8,
    # 9); with the mover holding 8, the 1-1 stops there after one hit
    mover = {7: 1, 9: 1, 4: 11 if blocked else 13} | ({8: 2} if blocked else {})
    position = Position.from_points(mover, {20: 1, 1: 14})
    assert unit(position, MOVER_UNITS, "double_hit_rolls") == rolls


@pytest.mark.parametrize("bar, rolls", [(1, 2), (2, 3), (3, 3), (4, 2)])
def test_checkers_on_the_bar_enter_before_they_hit_two(bar, rolls):
    # blots on the mover's 2 and 4, its 6 made, the opponent's other checkers out of range.
    # One on the bar: 1-1 and 2-2 enter and hit on (4-2 enters on one blot, then its other
    # die is blocked). Two or more: 4-2 enters on both; 2-2 enters on one and has steps
    # left to hit the 4, while three or fewer are on the bar; 1-1 with two entering has
    # two steps left, which reach only the 2
    position = Position.from_points({2: 1, 4: 1, 6: 13}, {1: 15 - bar}, opponent_bar=bar)
    assert unit(position, MOVER_UNITS, "double_hit_rolls") == rolls


def test_checkers_behind_a_four_prime_are_trapped():
    # the opponent holds the mover's 17..20 (its 8..5): the mover's checkers on 22, 24 and
    # the bar are behind it, the one on 16 is not; the longest run in front of the bar is 4
    position = Position.from_points({24: 2, 22: 1, 16: 1, 6: 10}, {8: 2, 7: 2, 6: 2, 5: 2, 13: 7}, bar=1)
    assert unit(position, MOVER_UNITS, "trapped_checkers") == 4
    assert unit(position, MOVER_UNITS, "prime_in_front") == 4
    three = Position.from_points({24: 2, 22: 1, 16: 1, 6: 10}, {8: 2, 7: 2, 6: 2, 4: 2, 13: 7}, bar=1)
    assert unit(three, MOVER_UNITS, "trapped_checkers") == 0
    assert unit(three, MOVER_UNITS, "prime_in_front") == 3


def test_the_deepest_and_the_most_advanced_anchor():
    position = Position.from_points({24: 2, 21: 3, 6: 10}, {6: 5, 13: 10})
    assert unit(position, MOVER_UNITS, "deepest_anchor") == 6       # 24 - 18
    assert unit(position, MOVER_UNITS, "advanced_anchor") == 4      # 25 - 21
    assert unit(position, OPPONENT_UNITS, "deepest_anchor") == unit(position, OPPONENT_UNITS, "advanced_anchor") == 0


def test_rolls_that_do_not_escape_the_next_checker_back():
    # the rearmost checker is on the bar; the next, on 24, is behind the opponent's points on
    # the mover's 17 and 18: 14 rolls take it past them (test_contact_units' worked case), 22 do not
    position = Position.from_points({24: 1, 6: 13}, {8: 2, 7: 2, 24: 11}, bar=1)
    assert unit(position, MOVER_UNITS, "next_blocked_rolls") == 22
    free = Position.from_points({24: 1, 6: 13}, {24: 15}, bar=1)
    assert unit(free, MOVER_UNITS, "next_blocked_rolls") == 0


def test_checkers_past_every_enemy_checker_and_the_rearmost_to_home():
    # the opponent's rearmost on the mover's 10 (its 15): the mover's 8 checkers on 6 and 8
    # have passed it; the mover's rearmost, on 24, is 18 pips from home
    position = Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {15: 1, 6: 14})
    assert unit(position, MOVER_UNITS, "passed_checkers") == 8
    assert unit(position, OPPONENT_UNITS, "passed_checkers") == 0
    assert unit(position, MOVER_UNITS, "rearmost_to_home") == 18
    assert unit(position, OPPONENT_UNITS, "rearmost_to_home") == 9  # its 15
    on_bar = Position.from_points({6: 14}, {6: 15}, bar=1)
    assert unit(on_bar, MOVER_UNITS, "rearmost_to_home") == 19


def test_the_spread_is_the_variance_of_the_checkers_points():
    position = Position.from_points({6: 5, 12: 5}, {6: 15})       # mean 9: every checker 3 away
    assert unit(position, MOVER_UNITS, "spread") == 9
    assert unit(position, OPPONENT_UNITS, "spread") == 0

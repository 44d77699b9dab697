"""Encoding 2 of the evaluator network: the contact units in C against a plain reference, and
hand-worked positions for each unit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from bgcore import _nn
from bgengine import Position
from conftest import random_game_turns, random_play_positions, random_race
from contact_units_reference import FIRST_UNIT, SCALES, UNIT_NAMES, contact_unit_counts, contact_units
from strategies import positions

MOVER_UNITS, OPPONENT_UNITS = 0, 1


def c_counts(position: Position | np.ndarray) -> np.ndarray:
    """(2, 8) contact units of the C encoder unscaled: whole counts (float32 scaling undone)."""
    units = _nn.encode(np.asarray(position), 2)[FIRST_UNIT:]
    return np.round(units.reshape(2, len(UNIT_NAMES)).astype(np.float64) * SCALES, 3)


def assert_same_as_reference(boards: list[np.ndarray]) -> None:
    found = _nn.encode_boards(np.array(boards), 2)[:, FIRST_UNIT:]
    for board, units in zip(boards, found):
        np.testing.assert_allclose(units, contact_units(board), rtol=1e-6, atol=1e-7,
                                   err_msg=f"board {board.tolist()}")


def random_slots(rng: np.random.Generator) -> np.ndarray:
    """Any legal board: checkers anywhere, blots everywhere, bars often occupied."""
    slots = np.zeros(26, dtype=np.int8)
    mover = int(rng.integers(0, 16))
    for slot in rng.integers(1, 26, size=mover):
        slots[slot] += 1
    free = [s for s in range(25) if slots[s] == 0]
    for slot in rng.choice(free, size=int(rng.integers(1 if mover == 0 else 0, 16))):
        slots[slot] -= 1
    return slots


def bear_in(rng: np.random.Generator) -> np.ndarray:
    """A side coming home against an anchor or a few stragglers: contact late in the game."""
    mover = {int(p): 0 for p in range(1, 13)}
    for p in rng.integers(1, 13, size=int(rng.integers(5, 16))):
        mover[int(p)] += 1
    opponent: dict[int, int] = {}
    for p in rng.integers(1, 25, size=int(rng.integers(3, 16))):
        opponent[int(p)] = opponent.get(int(p), 0) + 1
    clash = {25 - p for p, n in mover.items() if n}
    opponent = {p: n for p, n in opponent.items() if p not in clash}
    return np.asarray(Position.from_points({p: n for p, n in mover.items() if n}, opponent or {12: 1})).copy()


def test_the_encoding_2_vector_starts_with_encoding_1():
    boards = np.array([np.asarray(p) for p in random_play_positions(300, 4)])
    wide = _nn.encode_boards(boards, 2)
    assert wide.shape == (300, _nn.num_inputs(2)) == (300, FIRST_UNIT + 2 * len(UNIT_NAMES))
    assert np.array_equal(wide[:, :FIRST_UNIT], _nn.encode_boards(boards, 1))
    assert np.array_equal(wide[7], _nn.encode(boards[7], 2))


def test_contact_units_equal_the_reference_on_self_play_positions():
    assert_same_as_reference([np.asarray(p) for p in random_play_positions(2500, 21)])


def test_contact_units_equal_the_reference_on_whole_games():
    # from the opening to the bear-off: every class, the bar, hits, races with no contact
    turns = [np.asarray(position) for position, _ in random_game_turns(seed=8, games=25)]
    assert len(turns) > 1000
    assert_same_as_reference(turns)


def test_contact_units_equal_the_reference_on_any_board():
    rng = np.random.default_rng(33)
    boards = [random_slots(rng) for _ in range(3000)]
    assert sum(int(b[0] < 0) + int(b[25] > 0) for b in boards) > 1000  # bar checkers, often both
    assert_same_as_reference(boards)


def test_contact_units_equal_the_reference_on_bear_ins_and_races():
    rng = np.random.default_rng(5)
    boards = [bear_in(rng) for _ in range(1000)] + [np.asarray(random_race(rng)) for _ in range(300)]
    assert_same_as_reference(boards)


@settings(max_examples=300, deadline=None)
@given(positions())
def test_contact_units_equal_the_reference_on_generated_positions(position):
    assert_same_as_reference([np.asarray(position)])


def unit(counts: np.ndarray, side: int, name: str) -> float:
    return float(counts[side, UNIT_NAMES.index(name)])


def test_a_blot_six_pips_in_front_of_a_lone_checker():
    # the mover's blot on 10, the opponent's checker on the mover's 4 (its 21): any 6 (11),
    # 5-1 and 4-2 (2 each), 3-3 and 2-2: 17 rolls, each costing the blot 15 pips
    position = Position.from_points({10: 1}, {21: 1})
    counts = c_counts(position)
    assert unit(counts, MOVER_UNITS, "hit_rolls") == 17
    assert unit(counts, MOVER_UNITS, "hit_loss") == 17 * 15
    assert unit(counts, OPPONENT_UNITS, "hit_rolls") == 17  # the same distance the other way
    assert unit(counts, OPPONENT_UNITS, "hit_loss") == 17 * 4
    # nothing in front of either: free; each checker moves 1..6 onto open points
    assert unit(counts, MOVER_UNITS, "escape_rolls") == unit(counts, OPPONENT_UNITS, "escape_rolls") == 36
    assert unit(counts, MOVER_UNITS, "containment") == 0
    assert unit(counts, MOVER_UNITS, "mobility") == unit(counts, OPPONENT_UNITS, "mobility") == 6
    # 10 - 4 + 1 pips to pass the other's rearmost, for each side
    assert unit(counts, MOVER_UNITS, "break_contact") == unit(counts, OPPONENT_UNITS, "break_contact") == 7
    assert unit(counts, MOVER_UNITS, "indirect_shots") == unit(counts, MOVER_UNITS, "dance_rolls") == 0


def test_points_in_between_block_sums():
    # as above with the mover holding its 7 and 8: 3-3 and 2-2 land on them, 5-1 and 4-2
    # still pass through 9 or 5 and 6: 11 + 2 + 2
    position = Position.from_points({10: 1, 8: 2, 7: 2}, {21: 1})
    assert unit(c_counts(position), MOVER_UNITS, "hit_rolls") == 15


def test_the_costlier_of_two_blots_counts_in_the_pip_loss():
    # blots on 10 and 5 over a checker on 4: any 1 hits the 5 (11 rolls, 20 pips); of the
    # 17 rolls that hit the 10, the 6-1 and 5-1 are among those: 13 more at 15 pips
    position = Position.from_points({10: 1, 5: 1}, {21: 1})
    counts = c_counts(position)
    assert unit(counts, MOVER_UNITS, "hit_rolls") == 24
    assert unit(counts, MOVER_UNITS, "hit_loss") == 11 * 20 + 13 * 15


@pytest.mark.parametrize("bar, rolls", [(1, 14), (2, 12), (4, 11)])
def test_checkers_on_the_bar_enter_before_they_hit(bar, rolls):
    # a blot on the mover's 3, the opponent's only checkers off the board on its bar: one
    # on the bar hits with any 3, 2-1 and 1-1 (14); two with any 3 and 1-1, the second
    # entered checker moving on (12); four use up even a double entering (11)
    position = Position.from_points({3: 1, 6: 5}, {1: 3}, opponent_bar=bar)
    assert unit(c_counts(position), MOVER_UNITS, "hit_rolls") == rolls


def test_escape_rolls_of_a_back_checker_behind_two_points():
    # the mover's last checker on 24, the opponent's points on the mover's 17 and 18 (its 8
    # and 7): past 17 means 8+ pips without stopping on 18: 6-2, 5-3, 6-3, 5-4, 6-4, 6-5
    # (two ways each), 5-5 and 4-4; 6-6 and 3-3 are blocked
    position = Position.from_points({24: 1, 6: 14}, {8: 2, 7: 2, 24: 11})
    counts = c_counts(position)
    assert unit(counts, MOVER_UNITS, "escape_rolls") == 14
    assert unit(counts, MOVER_UNITS, "containment") == 2


def test_a_checker_on_the_bar_dances_on_the_square_of_closed_points():
    position = Position.from_points({6: 14}, {1: 2, 2: 2, 3: 2, 13: 9}, bar=1)
    counts = c_counts(position)
    assert unit(counts, MOVER_UNITS, "dance_rolls") == 9
    assert unit(counts, OPPONENT_UNITS, "dance_rolls") == 0


def test_indirect_shots_count_enemy_points_seven_to_twelve_pips_back():
    # a blot on the mover's 20 with the opponent on the mover's 10 and 12 (8 and 10 pips)
    # and 5 (15 pips: out of range); a blot on 9 with the opponent's bar 9 pips back
    position = Position.from_points({20: 1, 9: 1, 6: 13}, {15: 1, 13: 1, 20: 3}, opponent_bar=1)
    assert unit(c_counts(position), MOVER_UNITS, "indirect_shots") == 3


def test_the_opponent_units_are_the_mover_units_of_the_flipped_board():
    for position in random_play_positions(200, 9):
        counts = contact_unit_counts(np.asarray(position))
        flipped = c_counts(position.flip())
        np.testing.assert_allclose(flipped[[1, 0]], counts, rtol=1e-6)

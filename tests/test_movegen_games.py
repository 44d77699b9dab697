"""The core against the reference generator along whole games, and the batch entry point."""

from __future__ import annotations

import numpy as np
import pytest
from bgengine import DiceError, IllegalMoveError, InvalidPositionError, Position
from bgengine.move import legal_children_batch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from conftest import random_game_turns
from movegen_helpers import (
    ALL_ROLLS,
    assert_core_matches_reference,
    assert_records_replay,
    board_of,
)
from reference_movegen import reference_children

from bgcore import _movegen

# Positions that random games from the start rarely reach: contact bear-offs, bar fights.
SPECIAL_STARTS = [
    Position.initial(),
    Position.from_points({6: 3, 5: 3, 4: 3, 3: 2, 2: 2}, {1: 2, 13: 5, 8: 3, 6: 3}, bar=2),
    Position.from_points({6: 4, 4: 4, 2: 4, 3: 1}, {24: 1, 6: 5, 5: 4, 4: 2}, opponent_bar=1),
    Position.from_points({20: 2, 18: 2, 9: 2, 7: 2, 5: 2, 3: 2, 1: 3}, {21: 3, 19: 3, 11: 2, 9: 2, 4: 2, 2: 3}),
]


class GamesAgainstReference(RuleBasedStateMachine):
    """Random games played with the core; after every roll both generators must agree."""

    @initialize(start=st.sampled_from(SPECIAL_STARTS))
    def start(self, start: Position) -> None:
        self.position = start

    @rule(die1=st.integers(1, 6), die2=st.integers(1, 6), pick=st.integers(0, 10**6))
    def roll_and_play(self, die1: int, die2: int, pick: int) -> None:
        assert_core_matches_reference(self.position, (die1, die2))
        moves = self.position.legal_moves((die1, die2))
        self.position = moves.position_after(pick % len(moves))
        if self.position.is_game_over():
            self.position = Position.initial()

    @invariant()
    def position_is_valid(self) -> None:
        Position(np.frombuffer(self.position.to_bytes(), np.int8))  # raises if impossible


GamesAgainstReference.TestCase.settings = settings(
    max_examples=100, stateful_step_count=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TestGamesAgainstReference = GamesAgainstReference.TestCase


@pytest.mark.slow
def test_seeded_random_games_match_reference_and_records_replay():
    for position, dice in random_game_turns(seed=2026, games=12):
        assert_core_matches_reference(position, dice)
        assert_records_replay(position, dice)


def test_largest_known_child_count_is_within_max_children():
    fifteen_singles = Position.from_points({point: 1 for point in range(1, 16)}, {1: 1})
    assert len(fifteen_singles.legal_moves((1, 1))) == len(reference_children(board_of(fifteen_singles), 1, 1))
    assert len(fifteen_singles.legal_moves((1, 1))) <= _movegen.MAX_CHILDREN_PER_ROLL


def _sample_pairs(count: int) -> tuple[np.ndarray, np.ndarray]:
    pairs = list(random_game_turns(seed=7, games=3))[:count]
    return np.array([np.asarray(p) for p, _ in pairs]), np.array([d for _, d in pairs])


def test_batch_gives_the_same_children_as_one_call_per_pair():
    boards, dice = _sample_pairs(200)
    children, offsets, records = legal_children_batch(boards, dice, with_moves=True)
    assert offsets[0] == 0 and offsets[-1] == len(children) == len(records)
    for i, (board, roll) in enumerate(zip(boards, dice)):
        single = Position(board).legal_moves(tuple(int(d) for d in roll))
        assert children[offsets[i] : offsets[i + 1]].tobytes() == single.positions.tobytes()
        assert records[offsets[i] : offsets[i + 1]].tobytes() == single._records


def test_batch_of_nothing_is_empty():
    children, offsets = legal_children_batch(np.zeros((0, 26), np.int8), np.zeros((0, 2), np.int8))
    assert children.shape == (0, 26) and offsets.tolist() == [0]


@pytest.mark.parametrize(
    "boards, dice, error, words",
    [
        (np.zeros((1, 26), np.int8), [[3, 1]], InvalidPositionError, "both players"),
        ([[0] * 25 + [16]], [[3, 1]], InvalidPositionError, "outside -15..15"),
        ([[1] + [0] * 25], [[3, 1]], InvalidPositionError, "slot 0"),
        ([[0] * 26], [[3, 1], [2, 2]], DiceError, "1 boards but 2 rolls"),
        ([np.asarray(Position.initial())], [[0, 1]], DiceError, "outside 1..6"),
        ([np.asarray(Position.initial())], [[3, 7]], DiceError, "outside 1..6"),
        ([np.asarray(Position.initial())], [[3, 1, 2]], DiceError, "shape"),
        ([np.asarray(Position.initial())], [[3.0, 1.0]], DiceError, "integers"),
        ([[0] * 25], [[3, 1]], InvalidPositionError, "shape"),
    ],
)
def test_batch_refuses_bad_input_with_a_clear_error(boards, dice, error, words):
    with pytest.raises(error, match=words):
        legal_children_batch(boards, dice)


def test_batch_refuses_counts_that_would_wrap_in_int8():
    board = np.asarray(Position.initial()).astype(np.int64)
    board[6] = 256 + 5  # 5 after a silent int8 cast
    with pytest.raises(InvalidPositionError):
        legal_children_batch(board[None, :], [[3, 1]])


@pytest.mark.parametrize("dice", ALL_ROLLS)
def test_position_with_every_checker_a_blot_matches_reference(dice):
    blots = Position.from_points({p: 1 for p in range(12, 25)}, {p: 1 for p in range(14, 25)}, bar=1)
    assert_core_matches_reference(blots, dice)
    assert_records_replay(blots, dice)


def test_batch_grows_its_output_past_the_first_estimate():
    blots = np.asarray(Position.from_points({p: 1 for p in range(1, 16)}, {1: 1}))
    boards = np.repeat(blots[None, :], 30, axis=0)
    children, offsets = legal_children_batch(boards, np.ones((30, 2), np.int8))
    single = Position(blots).legal_moves((1, 1)).positions
    assert np.diff(offsets).tolist() == [len(single)] * 30
    assert children[-len(single) :].tobytes() == single.tobytes()


@st.composite
def scattered_positions(draw) -> Position:
    """Any legal-looking position: each side's checkers scattered over points, bar and off."""
    slots = [0] * 26
    for sign, bar_slot in ((1, 25), (-1, 0)):
        free = [p for p in range(1, 25) if slots[p] == 0]
        places = draw(st.lists(st.sampled_from(free + [bar_slot, None]), min_size=1, max_size=15))
        for place in places:
            if place is not None:
                slots[place] += sign
    if not any(count > 0 for count in slots):  # each side keeps a checker in play: the game is on
        slots[next(p for p in range(1, 25) if slots[p] == 0)] = 1
    if not any(count < 0 for count in slots):
        slots[next(p for p in range(24, 0, -1) if slots[p] == 0)] = -1
    return Position(slots)


@settings(max_examples=400, deadline=None)
@given(position=scattered_positions(), die1=st.integers(1, 6), die2=st.integers(1, 6))
def test_scattered_positions_match_reference(position, die1, die2):
    assert_core_matches_reference(position, (die1, die2))
    assert_records_replay(position, (die1, die2))

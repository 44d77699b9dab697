"""Dice sources: seeded random dice, and fixed lists that check they were all used."""

from __future__ import annotations

import numpy as np
import pytest
from bgengine.dice import DiceSource, FixedDice, RandomDice, checked_roll
from bgengine.errors import DiceError


def test_random_dice_same_seed_same_throws():
    first, second = RandomDice(7), RandomDice(7)
    assert [first.roll() for _ in range(600)] == [second.roll() for _ in range(600)]


def test_random_dice_different_seeds_differ():
    assert [RandomDice(1).roll() for _ in range(5)] != [RandomDice(2).roll() for _ in range(5)]


def test_random_dice_are_fair_faces_one_to_six():
    dice = RandomDice(123)
    faces = np.array([dice.roll() for _ in range(36_000)])
    assert faces.min() == 1 and faces.max() == 6
    counts = np.bincount(faces.ravel(), minlength=7)[1:]
    assert np.all(np.abs(counts - 12_000) < 400)  # about 4 standard deviations


def test_random_dice_accept_a_generator():
    assert RandomDice(np.random.default_rng(5)).roll() == RandomDice(5).roll()


def test_fixed_dice_hand_out_throws_in_order():
    dice = FixedDice([(3, 1), [6, 6]])
    assert isinstance(dice, DiceSource)
    assert dice.roll() == (3, 1) and dice.remaining == 1
    assert dice.roll() == (6, 6)
    dice.check_all_used()


def test_fixed_dice_running_out_raises():
    dice = FixedDice([(2, 1)])
    dice.roll()
    with pytest.raises(DiceError, match="all 1 fixed throws"):
        dice.roll()


def test_fixed_dice_unused_throws_are_reported():
    dice = FixedDice([(2, 1), (5, 4)])
    dice.roll()
    with pytest.raises(DiceError, match=r"1 fixed throw\(s\) never used: \[\(5, 4\)\]"):
        dice.check_all_used()


@pytest.mark.parametrize("throw", [(0, 1), (7, 2), (1,), (1, 2, 3), ("a", 1), (True, 2), 5])
def test_fixed_dice_refuse_bad_throws(throw):
    with pytest.raises(DiceError):
        FixedDice([throw])


def test_random_dice_with_a_negative_or_non_integer_seed_raise_a_typed_error():
    from bgengine import InvalidSettingsError, RandomAgent, RandomDice, play_game

    for seed in (-1, "a", 1.5, True):
        with pytest.raises(InvalidSettingsError, match="seed must be a whole number >= 0"):
            RandomDice(seed)
    with pytest.raises(InvalidSettingsError, match="seed must be"):
        play_game(RandomAgent(seed=1), RandomAgent(seed=2), seed=-1)
    with pytest.raises(InvalidSettingsError, match="seed must be"):
        RandomAgent(seed=-3)
    with pytest.raises(InvalidSettingsError, match="take_probability must be a number between 0 and 1"):
        RandomAgent(seed=1, take_probability="x")


@pytest.mark.parametrize("dice", [(3, 1), "31", "3-1", " 3 1 ", [3, 1], (np.int8(3), np.int64(1))])
def test_checked_roll_accepts_pairs_and_text_in_the_order_given(dice):
    assert checked_roll(dice) == (3, 1)
    assert all(type(face) is int for face in checked_roll(dice))


@pytest.mark.parametrize("dice", [(0, 1), (7, 2), (1,), (1, 2, 3), ("a", 1), (True, 2), (1.0, 2), 31, "71", "xy", "311", None])
def test_checked_roll_refuses_everything_else_with_one_error_type(dice):
    with pytest.raises(DiceError, match=r"the roll must be two dice, each a whole number 1\.\.6"):
        checked_roll(dice, "the roll")


def test_every_place_that_takes_dice_raises_dice_error():
    from bgengine import MatchState, Position
    from bgengine.formats.user_input import parse_dice
    from bgengine.formats.svg import board
    from bgengine.game.actions import Roll
    from bgengine.game.record import Game

    game = Game()
    for check in (
        lambda: Position.initial().legal_moves((7, 1)),
        lambda: MatchState(dice=(0, 3)),
        lambda: parse_dice("71"),
        lambda: board(Position.initial(), dice=(3, 9)),
        lambda: game.push(Roll((7, 1))),
    ):
        with pytest.raises(DiceError):
            check()

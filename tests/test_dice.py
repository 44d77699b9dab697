"""Dice sources: seeded random dice, and fixed lists that check they were all used."""

from __future__ import annotations

import numpy as np
import pytest
from bgengine.dice import DiceSource, FixedDice, RandomDice
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

"""The rollout kernel checks what it is handed at its Python boundary (dice, forced rolls)."""

import numpy as np
import pytest

from bgcore import _evaluator, _rollout
from bgengine import Position
from bgengine.evaluation.evaluator import default_evaluator


def run(first, second, dice=(0, 0), no_doubles=True, variance_reduction=True):
    return _rollout.run_block(
        Position.initial().to_bytes(), default_evaluator().c_evaluator(), _evaluator.COracle(),
        np.random.PCG64(1), np.array(first, dtype=np.int16), np.array(second, dtype=np.int16),
        dice[0], dice[1], 4, variance_reduction, no_doubles,
    )


def test_valid_forced_rolls_play():
    stats, plies = run([1, -1], [35, -1])
    assert plies > 0 and np.isfinite(stats).all()


@pytest.mark.parametrize("first, second", [([36], [-1]), ([-2], [-1]), ([1], [36]), ([1], [-5])])
def test_a_forced_roll_outside_the_36_is_refused(first, second):
    with pytest.raises(ValueError, match="ordered roll index"):
        run(first, second)


def test_a_forced_double_first_roll_is_refused_when_the_first_roll_has_none():
    with pytest.raises(ValueError, match="is a double"):
        run([7], [-1])  # 2-2
    stats, _ = run([7], [-1], no_doubles=False)
    assert np.isfinite(stats).all()


@pytest.mark.parametrize("dice", [(7, 1), (0, 3), (3, 0), (-1, 2)])
def test_first_dice_out_of_range_are_refused(dice):
    with pytest.raises(ValueError, match="first dice"):
        run([-1], [-1], dice=dice)

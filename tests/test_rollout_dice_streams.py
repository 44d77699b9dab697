"""Each rollout trial throws its dice from its own stream, seeded by one draw of the block's
generator: a trial's result depends on that draw alone, not on how earlier trials ended
(so the two lines of a cubeful decision with one seed see the same dice trial by trial)."""

import numpy as np
import pytest

from bgcore import _evaluator, _rollout
from bgengine import Position
from bgengine.evaluation.evaluator import default_evaluator

CONTACT = Position.from_gnubg_id("4HPwATDgc/ABMA")


def run(position, generator, trials, first=None):
    """run_block's statistics and plies for ``trials`` trials, the first rolls ``first``
    (ordered roll indices, -1 random; default all random), the rest random."""
    first = np.full(trials, -1, dtype=np.int16) if first is None else np.array(first, dtype=np.int16)
    return _rollout.run_block(
        position.to_bytes(), default_evaluator().c_evaluator(), _evaluator.COracle(), generator,
        first, np.full(trials, -1, dtype=np.int16), 0, 0, 0, False, False,
    )


def advanced(seed, draws):
    """PCG64(seed) after ``draws`` 64-bit draws: where trial ``draws`` of a block takes its seed."""
    generator = np.random.PCG64(seed)
    generator.random_raw(draws)
    return generator


def test_a_block_is_its_trials_each_played_from_its_own_draw():
    block, block_plies = run(CONTACT, np.random.PCG64(5), 4)
    sums = np.zeros_like(block[0])
    lengths = []
    for trial in range(4):
        stats, plies = run(CONTACT, advanced(5, trial), 1)
        sums += stats[0]
        lengths.append(plies)
    assert np.array_equal(sums, block[0])
    assert sum(lengths) == block_plies
    assert len(set(lengths)) > 1  # the trials are different games


def test_a_trial_s_dice_do_not_depend_on_how_earlier_trials_went():
    # the first trial's game differs (its first roll forced 6-6 or 2-1), the second's does not
    second_alone, second_plies = run(CONTACT, advanced(9, 1), 1)
    for forced in (35, 1):
        block, plies = run(CONTACT, np.random.PCG64(9), 2, first=[forced, -1])
        first_alone, first_plies = run(CONTACT, advanced(9, 0), 1, first=[forced])
        assert np.array_equal(block[0], first_alone[0] + second_alone[0])
        assert plies == first_plies + second_plies


def test_kept_trial_values_are_the_block_s_trials_in_order():
    values = np.empty(3)
    no_roll = np.full(3, -1, dtype=np.int16)
    stats, _ = _rollout.run_block(
        CONTACT.to_bytes(), default_evaluator().c_evaluator(), _evaluator.COracle(), np.random.PCG64(4),
        no_roll, no_roll, 0, 0, 0, False, False, trial_values=values,
    )
    assert values.sum() == pytest.approx(stats[0][5]) and (values * values).sum() == pytest.approx(stats[1][5])
    for trial in range(3):
        alone, _ = run(CONTACT, advanced(4, trial), 1)
        assert values[trial] == alone[0][5]


def test_trial_values_must_fit_the_block():
    no_roll = np.full(3, -1, dtype=np.int16)
    with pytest.raises(ValueError, match="trial_values has 2 places for 3 trials"):
        _rollout.run_block(
            CONTACT.to_bytes(), default_evaluator().c_evaluator(), _evaluator.COracle(), np.random.PCG64(4),
            no_roll, no_roll, 0, 0, 0, False, False, trial_values=np.empty(2),
        )

"""The money cube in C (bgcore/_cube_money.pxd) against the Python referee it stands in for."""

import concurrent.futures as cf
import random

import numpy as np
import pytest

from bgcore import _cube_money
from bgengine import MatchState, Position, cube_referee
from bgengine.cube.referee import CubeReferee
from bgengine.rollouts.monte_carlo import RolloutSettings, rollout


def random_estimates(seed, count):
    """float32 5-vectors as the kernel's evaluator hands them, gammonless ones among them."""
    rng = random.Random(seed)
    for _ in range(count):
        win = rng.random()
        win_g = win * rng.random() * rng.choice([0.0, 0.3, 1.0])
        lose_g = (1 - win) * rng.random() * rng.choice([0.0, 0.3, 1.0])
        values = (win, win_g, win_g * rng.random() * 0.2, lose_g, lose_g * rng.random() * 0.2)
        yield [float(np.float32(v)) for v in values], rng


def test_c_decisions_and_values_equal_the_python_referees():
    checked = set()
    for p5, rng in random_estimates(1, 3000):
        jacoby, beavers = rng.random() < 0.5, rng.random() < 0.3
        cube = rng.choice([1, 2, 4, 16, 32])
        owner = 0 if cube == 1 else 1  # the opponent's cube never reaches the referee
        efficiency = rng.choice([None, 0.0, 0.5, 1.0])
        referee = CubeReferee(MatchState(jacoby=jacoby, beavers=beavers), efficiency, in_c=False)
        x = 0.68 if efficiency is None else efficiency
        action = referee.decide(p5, cube, owner, True)
        assert _cube_money.decide(p5, cube, owner, x, jacoby, beavers) == action, (p5, cube, owner, x)
        assert _cube_money.best_value(p5, cube, owner, x, jacoby, beavers) * cube == pytest.approx(
            referee.position_value(p5, cube, owner, True), abs=1e-12
        )
        checked.add(action)
    assert checked >= {0, 1, 2}  # no double, take and pass all came up (a proper Double/beaver is rare)


def test_the_money_referee_goes_to_c_and_the_match_referee_does_not():
    money = cube_referee()(MatchState(jacoby=True, cube_value=2, cube_owner=0), root_may_double=False)
    assert money.money_cube_in_c() == (0.68, True, False, 2, 64)
    assert cube_referee(in_c=False)(MatchState(), root_may_double=False).money_cube_in_c() is None
    assert cube_referee()(MatchState(match_length=7), root_may_double=False).money_cube_in_c() is None


@pytest.mark.parametrize(
    "match", [MatchState(), MatchState(jacoby=True, beavers=True), MatchState(cube_value=2, cube_owner=0)],
    ids=["plain", "jacoby-beavers", "owned-2"],
)
def test_rollouts_with_the_c_referee_equal_those_with_the_python_referee(match):
    settings = RolloutSettings(trials=144, seed=3, block_size=24)
    c = rollout(Position.initial(), match, settings=settings, referee=cube_referee())
    python = rollout(Position.initial(), match, settings=settings, referee=cube_referee(in_c=False))
    assert c.probabilities == python.probabilities
    assert c.cubeful_equity == pytest.approx(python.cubeful_equity, abs=1e-12)
    assert c.cubeful_standard_error == pytest.approx(python.cubeful_standard_error, abs=1e-12)


def test_c_referee_rollouts_are_identical_for_any_number_of_workers():
    settings = RolloutSettings(trials=96, seed=5, block_size=12)
    results = []
    for workers in (1, 2, 3):
        with cf.ThreadPoolExecutor(workers) as pool:
            results.append(rollout(Position.initial(), settings=settings, referee=cube_referee(), executor=pool))
    assert results[0].cubeful_equity == results[1].cubeful_equity == results[2].cubeful_equity
    assert results[0].probabilities == results[1].probabilities == results[2].probabilities

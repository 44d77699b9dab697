"""The cube in C (bgcore/_cube_money.pxd, _cube_match.pxd) against the Python referee it stands in for."""

import concurrent.futures as cf
import random

import numpy as np
import pytest

from bgcore import _cube_money
from bgcore._cube_match import MatchCubeReferee
from bgengine import MatchState, Position, cube_referee
from bgengine.cube.efficiency import CONTACT, CONTACT_EFFICIENCY, efficiency_for
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


CONTACT_BOARD = Position.initial().to_bytes()  # the Python referee's class: contact


def test_c_decisions_and_values_equal_the_python_referees():
    checked = set()
    for p5, rng in random_estimates(1, 3000):
        jacoby, beavers = rng.random() < 0.5, rng.random() < 0.3
        cube = rng.choice([1, 2, 4, 16, 32])
        owner = 0 if cube == 1 else 1  # the opponent's cube never reaches the referee
        efficiency = rng.choice([None, 0.0, 0.5, 1.0])
        referee = CubeReferee(MatchState(jacoby=jacoby, beavers=beavers), efficiency, in_c=False)
        x = CONTACT.in_c() if efficiency is None else efficiency
        action = referee.decide(p5, cube, owner, True, CONTACT_BOARD)
        assert _cube_money.decide(p5, cube, owner, x, jacoby, beavers) == action, (p5, cube, owner, x)
        assert _cube_money.best_value(p5, cube, owner, x, jacoby, beavers) * cube == pytest.approx(
            referee.position_value(p5, cube, owner, True, CONTACT_BOARD), abs=1e-12
        )
        checked.add(action)
    assert checked >= {0, 1, 2}  # no double, take and pass all came up (a proper Double/beaver is rare)


def test_money_referees_go_to_the_money_cube_and_match_referees_to_the_match_cube():
    money = cube_referee()(MatchState(jacoby=True, cube_value=2, cube_owner=0), root_may_double=False)
    assert money.money_cube_in_c() == (True, False, 2, 64)
    assert money.match_cube_in_c() is None
    assert cube_referee(in_c=False)(MatchState(), root_may_double=False).money_cube_in_c() is None
    match = cube_referee()(MatchState(match_length=7, score=(4, 2), on_roll=1), root_may_double=False)
    assert match.money_cube_in_c() is None
    assert match.match_cube_in_c()[:5] == (5, 3, False, False, 64)
    assert cube_referee(in_c=False)(MatchState(match_length=7), root_may_double=False).match_cube_in_c() is None


def random_match_states(seed, count):
    """Seeded match states: lengths 1..25, any scores, Crawford games, post-Crawford scores."""
    rng = random.Random(seed)
    while count:
        length = rng.choice([1, 2, 3, 5, 7, 9, 11, 15, 25])
        score = (rng.randrange(length), rng.randrange(length))
        crawford = length - 1 in score and score != (length - 1, length - 1) and rng.random() < 0.3
        yield MatchState(match_length=length, score=score, on_roll=rng.randrange(2), crawford=crawford), rng
        count -= 1


def test_c_match_decisions_and_values_equal_the_python_referees():
    actions = set()
    estimates = random_estimates(2, 10**9)
    for match, rng in random_match_states(3, 600):
        efficiency = rng.choice([None, None, 0.0, 0.5, 1.0, rng.random()])
        python = CubeReferee(match, efficiency, in_c=False)
        x = efficiency_for(Position.initial(), efficiency, match).states.in_c()
        c = MatchCubeReferee(CubeReferee(match, efficiency).match_cube_in_c(), x)
        for _ in range(12):
            p5, _ = next(estimates)
            cube = 1 if match.crawford else rng.choice([1, 2, 4, 8, 32, 64])
            owner = 0 if cube == 1 else rng.choice([1, -1])
            root = rng.random() < 0.5
            state = (match, efficiency, p5, cube, owner, root)
            if not match.crawford and owner != -1 and cube < 64:  # the kernel asks only then
                action = python.decide(p5, cube, owner, root, CONTACT_BOARD)
                assert c.decide(p5, cube, owner, root) == action, state
                actions.add(action)
            assert c.position_value(p5, cube, owner, root) == pytest.approx(
                python.position_value(p5, cube, owner, root, CONTACT_BOARD), abs=1e-12), state
        for cube in (1, 2, 4, 64):
            assert c.luck_scale(cube) == python.luck_scale(cube)
            for result in (1, 2, 3, -1, -2, -3):
                assert c.finished_value(result, cube) == python.finished_value(result, cube, False)
    assert actions == {0, 1, 2}


def assert_c_equals_python(position, match, settings):
    """The same seeded rollout with the referee in C and in Python: the same games and values."""
    c = rollout(position, match, settings=settings, referee=cube_referee())
    python = rollout(position, match, settings=settings, referee=cube_referee(in_c=False))
    assert c.probabilities == python.probabilities
    assert c.cubeful_equity == pytest.approx(python.cubeful_equity, abs=1e-12)
    assert c.cubeful_standard_error == pytest.approx(python.cubeful_standard_error, abs=1e-12)


MATCH_ROLLOUTS = [
    MatchState(match_length=7, score=(4, 2)),  # 3-away / 5-away
    MatchState(match_length=7, score=(2, 4)),  # 5-away / 3-away
    MatchState(match_length=7, score=(5, 6)),  # post-Crawford: 2-away / 1-away
    MatchState(match_length=7, score=(6, 3), crawford=True),
    MatchState(match_length=7, score=(1, 3), cube_value=2, cube_owner=0),
]


@pytest.mark.parametrize("match", MATCH_ROLLOUTS, ids=["3a5a", "5a3a", "post-crawford", "crawford", "owned-2"])
def test_match_rollouts_with_the_c_referee_equal_those_with_the_python_referee(match):
    settings = RolloutSettings(trials=72, seed=4, block_size=24)
    position = Position.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    assert_c_equals_python(position, match, settings)


def test_c_match_referee_rollouts_are_identical_for_any_number_of_workers():
    settings = RolloutSettings(trials=96, seed=6, block_size=12)
    match = MatchState(match_length=7, score=(4, 2))
    results = []
    for workers in (1, 2, 3):
        with cf.ThreadPoolExecutor(workers) as pool:
            results.append(rollout(Position.initial(), match, settings=settings, referee=cube_referee(), executor=pool))
    assert results[0].cubeful_equity == results[1].cubeful_equity == results[2].cubeful_equity
    assert results[0].probabilities == results[1].probabilities == results[2].probabilities


@pytest.mark.parametrize(
    "match", [MatchState(), MatchState(jacoby=True, beavers=True), MatchState(cube_value=2, cube_owner=0)],
    ids=["plain", "jacoby-beavers", "owned-2"],
)
def test_rollouts_with_the_c_referee_equal_those_with_the_python_referee(match):
    settings = RolloutSettings(trials=144, seed=3, block_size=24)
    assert_c_equals_python(Position.initial(), match, settings)


def test_c_referee_rollouts_are_identical_for_any_number_of_workers():
    settings = RolloutSettings(trials=96, seed=5, block_size=12)
    results = []
    for workers in (1, 2, 3):
        with cf.ThreadPoolExecutor(workers) as pool:
            results.append(rollout(Position.initial(), settings=settings, referee=cube_referee(), executor=pool))
    assert results[0].cubeful_equity == results[1].cubeful_equity == results[2].cubeful_equity
    assert results[0].probabilities == results[1].probabilities == results[2].probabilities


#: A race of 53 against 62 pips, and a bear-off: the games inside pass through the race,
#: bear-off and last-roll classes (bear-off tables off: played to the end).
RACE = Position.from_points({6: 3, 5: 3, 4: 2, 3: 2, 8: 1, 9: 1}, opponent={6: 4, 5: 3, 4: 2, 2: 2, 7: 2})
BEAROFF = Position.from_points({6: 2, 5: 2, 4: 1, 2: 1}, opponent={6: 2, 4: 2, 3: 1, 1: 1})


@pytest.mark.parametrize("position", [RACE, BEAROFF], ids=["race", "bear-off"])
@pytest.mark.parametrize(
    "match", [MatchState(), MatchState(match_length=7, score=(4, 2)), MatchState(match_length=7, score=(5, 6))],
    ids=["money", "3a5a", "post-crawford"],
)
def test_the_c_referee_takes_each_positions_class_as_the_python_referee(position, match):
    settings = RolloutSettings(trials=96, seed=8, block_size=24, bearoff_tables=False)
    assert_c_equals_python(position, match, settings)


def test_the_class_changes_the_rollouts_cube_play():
    # the same dice with every decision at the contact x: the race's own x (0.74..0.76 here)
    # and the last rolls' dead cube make other decisions in some games
    settings = RolloutSettings(trials=192, seed=9, block_size=48, bearoff_tables=False)
    by_class = rollout(RACE, settings=settings, referee=cube_referee())
    contact_x = rollout(RACE, settings=settings, referee=cube_referee(CONTACT_EFFICIENCY))
    assert by_class.cubeful_equity != contact_x.cubeful_equity


def test_class_referee_rollouts_are_identical_for_any_number_of_workers():
    settings = RolloutSettings(trials=96, seed=10, block_size=12, bearoff_tables=False)
    results = []
    for workers in (1, 2, 3):
        with cf.ThreadPoolExecutor(workers) as pool:
            results.append(rollout(RACE, settings=settings, referee=cube_referee(), executor=pool))
    assert results[0].cubeful_equity == results[1].cubeful_equity == results[2].cubeful_equity

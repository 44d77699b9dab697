"""Speed of cube decisions: money (Janowski), match (MET interpolation), a 25 x 25 score matrix,
n-ply probabilities and cubeful rollouts of both lines.

Run: .venv/bin/python -m pytest benchmarks/bench_cube.py --benchmark-enable
Each benchmark checks its exact answer before timing.
"""

import pytest

from bgengine import CubeAction, MatchState, Position, cube_decision, cube_decision_matrix, generate_met
from bgengine.rollouts.monte_carlo import RolloutSettings

CHANCES = [0.72, 0.2, 0.01, 0.05, 0.002]


def test_money_cube_decision(benchmark):
    decision = cube_decision(probabilities=CHANCES)
    assert decision.action is CubeAction.DOUBLE_PASS
    benchmark(cube_decision, probabilities=CHANCES)


def test_match_cube_decision(benchmark):
    match = MatchState(match_length=11, score=(4, 6))
    assert cube_decision(probabilities=CHANCES, match=match).action is CubeAction.DOUBLE_PASS
    benchmark(cube_decision, probabilities=CHANCES, match=match)


def test_cube_decision_matrix_25_by_25(benchmark):
    matrix = cube_decision_matrix(CHANCES, 25)
    assert len(matrix) == 625
    assert sum(d.action.doubles for d in matrix.values()) == 497
    benchmark(cube_decision_matrix, CHANCES, 25)


def test_generate_met_25(benchmark):
    table = generate_met(25)
    assert table.length == 25 and abs(table.mwc(7, 7) - 0.5) < 1e-12
    benchmark.pedantic(generate_met, args=(25,), rounds=5, iterations=1)


# ----- deeper decisions: n-ply probabilities and cubeful rollouts ---------------------------

RACE = Position.from_points({6: 4, 5: 3, 4: 3, 3: 2, 8: 1}, opponent={6: 4, 5: 4, 4: 3, 2: 2})


@pytest.mark.parametrize("plies", [1, 2])
def test_n_ply_cube_decision_at_the_opening(benchmark, plies):
    decision = cube_decision(Position.initial(), plies=plies)
    assert decision.plies == plies and decision.action is CubeAction.NO_DOUBLE_TAKE
    benchmark.pedantic(cube_decision, args=(Position.initial(),), kwargs={"plies": plies}, rounds=5, iterations=1)


def test_rollout_cube_decision_of_a_race_1296_trials(benchmark):
    settings = RolloutSettings(trials=1296, seed=1)
    decision = cube_decision(RACE, rollout=settings)
    assert decision.trials == 1296 and decision.action is CubeAction.NO_DOUBLE_TAKE
    again = benchmark.pedantic(cube_decision, args=(RACE,), kwargs={"rollout": settings}, rounds=3, iterations=1)
    assert (again.no_double, again.double_take) == (decision.no_double, decision.double_take)

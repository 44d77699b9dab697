"""Speed of cube decisions: money (Janowski), match (MET interpolation), a 25 x 25 score matrix.

Run: .venv/bin/python -m pytest benchmarks/bench_cube.py --benchmark-enable
Each benchmark checks its exact answer before timing.
"""

from bgengine import CubeAction, MatchState, cube_decision, cube_decision_matrix, generate_met

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

"""benchmarks/bench_evaluator.py's duels over several seeds: each seed's result and the pool."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_evaluator  # noqa: E402
from bgengine.evaluation.evaluator import default_evaluator  # noqa: E402


@pytest.fixture(scope="module")
def engine():
    return bench_evaluator.engine_player(default_evaluator().network)


def test_each_seed_is_the_single_seed_duel_and_the_pool_is_all_their_games(engine):
    pubeval = bench_evaluator.pubeval_player()
    per_seed, (pooled, pooled_error) = bench_evaluator.points_over_seeds(engine, pubeval, 40, [3, 4], paired=True)
    singles = [bench_evaluator.points_against(engine, pubeval, 40, seed, True) for seed in (3, 4)]
    assert per_seed == singles
    samples = np.concatenate([bench_evaluator.duel_samples(engine, pubeval, 40, seed, True) for seed in (3, 4)])
    assert len(samples) == 40  # 20 pairs a seed
    assert pooled == pytest.approx(np.mean([mean for mean, _ in singles]))
    assert pooled_error == pytest.approx(samples.std(ddof=1) / np.sqrt(40))


def test_the_command_line_prints_every_seed_and_the_pool(capsys):
    assert bench_evaluator.main(["strength", "--games", "20", "--seeds", "5", "6", "--paired-dice"]) == 0
    out = capsys.readouterr().out
    assert "seed 5:" in out and "seed 6:" in out
    assert "2 x 20 games vs PubEval (2 seeds 5 6, pooled, paired dice)" in out


def test_the_measured_engine_takes_the_shipped_choice_network_unless_told_not_to(capsys):
    shipped = default_evaluator()
    if shipped.choice_network is None:
        pytest.skip("the package ships no choice network")
    two_stage = bench_evaluator.engine_player(shipped.network, crashed_network=shipped.crashed_network,
                                              choice_network=shipped.choice_network)
    one_stage = bench_evaluator.engine_player(shipped.network, crashed_network=shipped.crashed_network)
    pubeval = bench_evaluator.pubeval_player()
    assert (bench_evaluator.duel_samples(two_stage, pubeval, 40, 8, True).tolist()
            != bench_evaluator.duel_samples(one_stage, pubeval, 40, 8, True).tolist())
    assert bench_evaluator.main(["strength", "--games", "20", "--seed", "5", "--paired-dice"]) == 0
    assert "re-valued by the shipped choice network" in capsys.readouterr().out
    assert bench_evaluator.main(["strength", "--games", "20", "--seed", "5", "--paired-dice",
                                 "--no-choice-network"]) == 0
    assert "re-valued" not in capsys.readouterr().out

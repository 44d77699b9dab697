"""benchmarks/truth_set.py: per-category errors against a (tiny) truth set, and paired comparisons."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import truth_set  # noqa: E402
from engine_networks import chosen_evaluator  # noqa: E402

from bgengine.evaluation.evaluator import default_evaluator  # noqa: E402
from bgengine.probabilities import equity  # noqa: E402
from bgengine import RolloutSettings  # noqa: E402
from bgengine.training.labels import LabelPlan  # noqa: E402
from bgengine.training.dataset import load_shard, shard_paths  # noqa: E402
from bgengine.training.pipeline import build_truth  # noqa: E402

TINY_PLAN = LabelPlan(race=RolloutSettings(trials=4, variance_reduction=False),
                      contact=RolloutSettings(trials=4, variance_reduction=False))
QUOTAS = {"back_game": 2, "closed_out": 1, "crashed": 1, "race": 2, "contact": 2}


@pytest.fixture(scope="module")
def tiny_truth(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("truth")
    build_truth(root, 11, QUOTAS, plan=TINY_PLAN, shard_size=3)
    return root


def run(monkeypatch, *arguments: str) -> None:
    monkeypatch.setattr(sys, "argv", ["truth_set.py", *arguments])
    truth_set.main()


def test_errors_are_the_shipped_engines_distance_from_the_rollouts_per_category(tiny_truth, tmp_path, monkeypatch):
    out = tmp_path / "shipped.json"
    run(monkeypatch, "--truth", str(tiny_truth), "--out", str(out))
    record = json.loads(out.read_text())
    boards, labels, categories, _, trials = truth_set.truth_labels(tiny_truth)
    assert trials == [4] and sorted(categories) == sorted(c for c, n in QUOTAS.items() for _ in range(n))
    estimates = default_evaluator().evaluate_batch(boards)
    expected = np.abs(equity(estimates) - equity(labels))
    np.testing.assert_allclose(record["errors"]["equity"], expected, atol=1e-5)
    assert record["summary"]["all"]["n"] == len(boards) == 8
    assert record["summary"]["race"]["n"] == 2
    assert record["summary"]["all"]["equity"] == pytest.approx(expected.mean(), abs=1e-6)
    back_games = [i for i, c in enumerate(categories) if c == "back_game"]
    bias = equity(estimates)[back_games] - equity(labels)[back_games]
    assert record["summary"]["back_game"]["bias_equity"] == pytest.approx(bias.mean(), abs=1e-5)
    lose_gammon_bias = estimates[:, 3] - labels[:, 3]
    assert record["summary"]["all"]["bias_lose_gammon"] == pytest.approx(lose_gammon_bias.mean(), abs=1e-5)


def test_a_run_compared_with_itself_differs_by_nothing(tiny_truth, tmp_path, monkeypatch, capsys):
    out = tmp_path / "a.json"
    run(monkeypatch, "--truth", str(tiny_truth), "--out", str(out))
    capsys.readouterr()
    run(monkeypatch, "--compare", str(out), str(out))
    printed = capsys.readouterr().out
    assert "all" in printed and "+0.0000 ± 0.0000" in printed


def test_runs_on_different_positions_are_not_compared(tiny_truth, tmp_path, monkeypatch):
    out = tmp_path / "a.json"
    run(monkeypatch, "--truth", str(tiny_truth), "--out", str(out))
    other = json.loads(out.read_text())
    other["boards_digest"] = "0" * 16
    (tmp_path / "b.json").write_text(json.dumps(other))
    with pytest.raises(SystemExit, match="different truth positions"):
        run(monkeypatch, "--compare", str(out), str(tmp_path / "b.json"))


def test_an_empty_truth_directory_is_an_error(tmp_path):
    with pytest.raises(SystemExit, match="no labelled truth shards"):
        truth_set.truth_labels(tmp_path)


def test_the_shipped_engine_needs_no_composite_and_named_networks_build_one():
    assert chosen_evaluator() == (None, "bgengine")
    evaluator, description = chosen_evaluator(race_approximation=True)
    assert evaluator is not None and evaluator.race_network is None and "race approximation" in description
    with pytest.raises(SystemExit):
        chosen_evaluator(race_network=Path("r.npz"), race_approximation=True)


def test_the_kept_truth_set_is_whole_and_its_labels_belong_to_its_positions():
    """benchmarks/data/truth: the 2,000 positions by category, and every labelled shard the
    matching slice of them with legal probability vectors (wins >= gammons >= backgammons)."""
    root = truth_set.DEFAULT_TRUTH
    positions = load_shard(root / "positions.npz")
    assert len(positions) == 2000 and positions.meta["seed"] == 20261202
    assert {c: positions.meta["categories"].count(c) for c in set(positions.meta["categories"])} == \
        {"back_game": 350, "closed_out": 350, "crashed": 300, "race": 500, "contact": 500}
    for path in shard_paths(root / "labels"):
        shard = load_shard(path)
        first = shard.meta["first"]
        np.testing.assert_array_equal(shard.boards, positions.boards[first:first + len(shard)])
        assert shard.meta["categories"] == positions.meta["categories"][first:first + len(shard)]
        p = shard.probabilities
        assert np.all(p >= 0) and np.all(p[:, 0] <= 1)
        assert np.all(p[:, 1] <= p[:, 0] + 1e-9) and np.all(p[:, 2] <= p[:, 1] + 1e-9)
        assert np.all(p[:, 3] <= 1 - p[:, 0] + 1e-9) and np.all(p[:, 4] <= p[:, 3] + 1e-9)

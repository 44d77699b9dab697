"""two_stage_choice.py: the shortlist re-ranked by a second engine, scored like the judge; no gnubg needed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import judge  # noqa: E402
from judge_data import CHECKER_SET, read_judge_set  # noqa: E402
from two_stage_choice import EVERY_PLAY, given_up_by_keep, paired_summary  # noqa: E402

from bgengine.evaluation.evaluator import NetworkEvaluator, default_evaluator  # noqa: E402
from bgcore import _nn  # noqa: E402


@pytest.fixture(scope="module")
def decisions() -> list[dict]:
    _, rows = read_judge_set(CHECKER_SET)
    return [row for row in rows if row["class"] == "contact"][:6]


def test_the_shipped_engine_as_second_keeps_the_shipped_choice_whatever_the_shortlist(decisions):
    for decision in decisions:
        scores = given_up_by_keep(decision, None, [1, 2, 4, EVERY_PLAY])
        assert len(set(scores.values())) == 1
        assert scores[1] == pytest.approx(judge.score_checker_decision(decision, 0)["given_up"])


def test_every_play_is_the_second_engines_own_choice_and_one_play_the_firsts(decisions):
    shipped = default_evaluator()
    other = NetworkEvaluator(_nn.NeuralNet.random(16, seed=3, scale=0.5, encoding=shipped.network.encoding),
                             race_network=shipped.race_network, crashed_network=shipped.crashed_network)
    for decision in decisions:
        scores = given_up_by_keep(decision, other, [1, 3, EVERY_PLAY])
        assert scores[1] == pytest.approx(judge.score_checker_decision(decision, 0)["given_up"])
        assert scores[EVERY_PLAY] == pytest.approx(judge.score_checker_decision(decision, 0, other)["given_up"])


def test_paired_summary_gives_the_mean_the_difference_and_its_standard_error():
    mean, difference, error = paired_summary([1.0, 2.0, 3.0], [1.0, 1.0, 1.0])
    assert (mean, difference) == (1.0, -1.0)
    assert error == pytest.approx(1.0 / 3 ** 0.5)

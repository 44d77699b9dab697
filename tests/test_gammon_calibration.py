"""benchmarks/gammon_calibration.py: its unscaled choice is the judge's 0-ply choice; scaling caps at the rates."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import gammon_calibration  # noqa: E402
from judge import score_checker_decision  # noqa: E402
from judge_data import CHECKER_SETS, read_judge_set  # noqa: E402


def test_unscaled_choice_gives_up_what_the_judge_scores_at_0_ply():
    decisions = [d for d in read_judge_set(CHECKER_SETS["large"])[1] if d["class"] == "contact"][:40]
    ours, _, index = gammon_calibration.candidate_values(decisions)
    judged = np.mean([score_checker_decision(d, 0)["given_up"] for d in decisions])
    assert gammon_calibration.given_up(decisions, ours, index) == pytest.approx(judged, abs=1e-9)


def test_scaled_gammons_never_exceed_the_win_and_loss_rates():
    values = np.array([[0.5, 0.2, 0.01, 0.3, 0.02], [0.9, 0.85, 0.1, 0.05, 0.0]])
    scaled = gammon_calibration.with_scaled_gammons(values, 1.2)
    np.testing.assert_allclose(scaled[0], [0.5, 0.24, 0.01, 0.36, 0.02])
    np.testing.assert_allclose(scaled[1], [0.9, 0.9, 0.1, 0.06, 0.0])

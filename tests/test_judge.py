"""judge.py's choice of set (--set, --judge-file) and the paired comparison of two runs (--compare); no gnubg needed."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import judge  # noqa: E402
from judge_compare import (  # noqa: E402
    UnpairedRunsError, compare_runs, paired_differences, read_run, sign_test_p, standard_error, write_run)
from judge_data import CHECKER_SET, CHECKER_SETS, read_judge_set, write_judge_set  # noqa: E402


@pytest.fixture(scope="module")
def small_set(tmp_path_factory) -> Path:
    """Four contact and three race decisions of the committed set, as a set file of their own."""
    header, decisions = read_judge_set(CHECKER_SET)
    chosen = [d for d in decisions if d["class"] == "contact"][:4] + [d for d in decisions if d["class"] == "race"][:3]
    path = tmp_path_factory.mktemp("judge") / "few.jsonl"
    write_judge_set(path, header, chosen)
    return path


def run_main(monkeypatch, *arguments: str) -> None:
    monkeypatch.setattr(sys, "argv", ["judge.py", *arguments])
    judge.main()


def _score(key: str, group: str, given_up: float) -> dict:
    return {"position_id": key, "dice": [2, 1], "class": group, "given_up": given_up}


def test_judge_file_scores_that_file_as_the_committed_set_scores_the_same_decisions(small_set):
    summary, scores = judge.judge("checker", 0, judge_file=small_set)
    _, everything = judge.judge("checker", 0)
    by_decision = {(s["position_id"], tuple(s["dice"])): s for s in everything}
    assert summary["set"] == "few.jsonl"
    assert (summary["by_class"]["contact"]["n"], summary["by_class"]["race"]["n"]) == (4, 3)
    assert scores == [by_decision[s["position_id"], tuple(s["dice"])] for s in scores]


def test_checker_summary_gives_the_standard_error_of_the_mean(small_set):
    summary, scores = judge.judge("checker", 0, judge_file=small_set)
    assert summary["by_class"]["all"]["standard_error"] == pytest.approx(
        standard_error([s["given_up"] for s in scores]))


def test_set_large_scores_the_large_file_and_small_stays_the_default(monkeypatch, tmp_path):
    for arguments, expected in (((), "judge_checker.jsonl"), (("--set", "large"), "judge_checker_large.jsonl")):
        out = tmp_path / "run.json"
        run_main(monkeypatch, "checker", "--limit", "3", *arguments, "--out", str(out))
        assert json.loads(out.read_text())["summary"]["set"] == expected
    assert CHECKER_SETS["small"] == CHECKER_SET


def test_set_large_is_refused_for_cube_decisions(monkeypatch):
    with pytest.raises(SystemExit, match="checker play only"):
        run_main(monkeypatch, "cube", "--set", "large")


def test_standard_error_and_sign_test_by_hand():
    assert standard_error([1.0, 2.0, 3.0, 4.0]) == pytest.approx(math.sqrt(5 / 3 / 4))
    assert math.isnan(standard_error([1.0]))
    assert sign_test_p(0, 0) == 1.0 and sign_test_p(3, 3) == 1.0
    assert sign_test_p(5, 0) == pytest.approx(2 / 32) == sign_test_p(0, 5)
    assert sign_test_p(10, 2) == pytest.approx(2 * (1 + 12 + 66) / 4096)


def test_paired_differences_per_class_and_overall():
    first = [_score("a", "contact", 10.0), _score("b", "contact", 0.0), _score("c", "contact", 4.0),
             _score("d", "race", 1.0)]
    second = [_score("d", "race", 0.0), _score("c", "contact", 4.0), _score("b", "contact", 2.0),
              _score("a", "contact", 0.0)]  # another order: pairs go by decision, not by line
    table = paired_differences(first, second, "checker")
    contact = table["contact"]
    assert list(table) == ["contact", "race", "all"]
    assert (contact["n"], contact["first_mean"], contact["second_mean"]) == (3, pytest.approx(14 / 3), pytest.approx(2))
    assert contact["mean_difference"] == pytest.approx(-8 / 3)
    assert contact["standard_error"] == pytest.approx(standard_error([-10.0, 2.0, 0.0]))
    assert (contact["second_better"], contact["first_better"], contact["same"]) == (
        pytest.approx(1 / 3), pytest.approx(1 / 3), pytest.approx(1 / 3))
    assert table["all"]["mean_difference"] == pytest.approx(-9 / 4)
    assert table["all"]["sign_test_p"] == pytest.approx(sign_test_p(2, 1))


def test_a_written_run_reads_back_and_pairs_with_another_written_one(tmp_path):
    """write_run is the one writer of --out files (judge.py's and judge_gnubg.py's): what it
    writes reads back unchanged, and two such files pair decision by decision."""
    summary = {"set": "few.jsonl", "by_class": {"contact": {"n": 2}}}
    scores = [_score("a", "contact", 1.5), _score("b", "contact", 0.0)]
    first, second = tmp_path / "gnubg.json", tmp_path / "ours.json"
    write_run(first, ["judge_gnubg.py", "checker"], "abc1234", summary, scores)
    write_run(second, ["judge.py", "checker"], "abc1234", summary, [_score("b", "contact", 2.0), _score("a", "contact", 0.5)])
    read_summary, read_scores = read_run(first)
    assert (read_summary, read_scores) == (summary, scores)
    assert json.loads(first.read_text())["command"] == "python judge_gnubg.py checker"
    assert compare_runs(first, second, "checker")["all"]["mean_difference"] == pytest.approx(0.5)


def test_paired_differences_refuse_runs_over_different_decisions():
    first = [_score("a", "contact", 1.0), _score("b", "race", 0.0)]
    with pytest.raises(UnpairedRunsError):
        paired_differences(first, [_score("a", "contact", 1.0), _score("c", "race", 0.0)], "checker")
    with pytest.raises(UnpairedRunsError):
        paired_differences(first, first[:1], "checker")
    with pytest.raises(UnpairedRunsError):
        paired_differences(first + first[:1], first + first[:1], "checker")


def test_compare_prints_the_paired_table_of_two_runs(monkeypatch, tmp_path, small_set, capsys):
    run, worse, other = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    run_main(monkeypatch, "checker", "--judge-file", str(small_set), "--out", str(run))
    data = json.loads(run.read_text())
    next(s for s in data["scores"] if s["class"] == "race")["given_up"] += 6.0  # B misses one race play by 6 mEMG more
    worse.write_text(json.dumps(data))
    for second, race_difference, race_a_better in ((run, "0.000", "0.0%"), (worse, "2.000", "33.3%")):
        capsys.readouterr()
        run_main(monkeypatch, "checker", "--compare", str(run), str(second))
        rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()
                if line.strip().startswith(("contact", "race", "all"))}
        assert [rows[name][1] for name in ("contact", "race", "all")] == ["4", "3", "7"]
        assert rows["contact"][4:6] == ["0.000", "0.000"] and rows["contact"][8] == "100.0%"
        assert (rows["race"][4], rows["race"][7]) == (race_difference, race_a_better)
    run_main(monkeypatch, "checker", "--limit", "3", "--out", str(other))
    with pytest.raises(UnpairedRunsError, match="different sets"):
        run_main(monkeypatch, "checker", "--compare", str(run), str(other))
    with pytest.raises(UnpairedRunsError, match="not a cube run"):
        run_main(monkeypatch, "cube", "--compare", str(run), str(run))


def test_paired_differences_of_cube_runs_pair_by_xgid_and_group_by_scenario():
    def cube(xgid: str, scenario: str, gap: float) -> dict:
        return {"xgid": xgid, "scenario": scenario, "equity_gap": gap}

    first = [cube("X1", "money", 0.2), cube("X2", "match", 0.1)]
    second = [cube("X2", "match", 0.3), cube("X1", "money", 0.2)]
    table = paired_differences(first, second, "cube")
    assert list(table) == ["match", "money", "all"]
    assert table["match"]["mean_difference"] == pytest.approx(0.2) and table["match"]["first_better"] == 1.0
    assert table["money"]["same"] == 1.0 and table["all"]["mean_difference"] == pytest.approx(0.1)

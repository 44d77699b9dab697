"""The committed judge sets (benchmarks/data/judge_*.jsonl) read, match bgengine's rules and are big enough.

No gnubg needed: the sets hold gnubg's verdicts; these checks only say that bgengine reads
every position and that the stored plays are exactly its legal plays (by resulting position).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from judge_data import CHECKER_SETS, CUBE_SET, FAMILIES, decision_class, read_judge_set, verdict_family  # noqa: E402

from bgengine import Position, parse_xgid  # noqa: E402

MINIMUM_CHECKER = {"small": {"contact": 300, "race": 100}, "large": {"contact": 1500, "race": 350},
                   "xl": {"contact": 2800}}
LARGEST_SET_BYTES = 10_000_000
MINIMUM_CUBE_DECISIONS = 500
CUBE_SCENARIOS_AT_LEAST = 7


@pytest.fixture(scope="module", params=sorted(CHECKER_SETS))
def checker_set(request):
    return request.param, read_judge_set(CHECKER_SETS[request.param])


@pytest.fixture(scope="module")
def cube_set():
    return read_judge_set(CUBE_SET)


def test_checker_set_has_enough_decisions_of_each_class(checker_set):
    name, (header, decisions) = checker_set
    counts = Counter(d["class"] for d in decisions)
    assert all(counts[kind] >= minimum for kind, minimum in MINIMUM_CHECKER[name].items()), counts
    assert {kind: n for kind, n in header["decisions"].items() if n} == dict(counts)  # (xl: no races)
    assert "seed" in header and "command" in header
    assert len({(d["position_id"], *d["dice"]) for d in decisions}) == len(decisions)
    assert CHECKER_SETS[name].stat().st_size < LARGEST_SET_BYTES


def test_checker_set_plays_are_exactly_bgengine_legal_plays(checker_set):
    for decision in checker_set[1][1]:
        position = Position.from_gnubg_id(decision["position_id"])
        legal = position.legal_moves(tuple(decision["dice"]))
        stored = [play["position_id"] for play in decision["plays"]]
        assert len(stored) == len(set(stored)) >= 2, decision["position_id"]
        assert set(stored) == {move.position.gnubg_id() for move in legal}, decision["position_id"]
        assert decision["class"] == decision_class(position)
        assert {play["move"] for play in decision["plays"]} == {str(move.move) for move in legal}


def test_checker_set_plays_are_ranked_best_first(checker_set):
    for decision in checker_set[1][1]:
        equities = [play["equity"] for play in decision["plays"]]
        assert equities == sorted(equities, reverse=True), decision["position_id"]


def test_cube_set_covers_every_scenario_with_bearoffs_and_last_rolls(cube_set):
    header, decisions = cube_set
    scenarios = Counter(d["scenario"] for d in decisions)
    kinds = Counter((d["scenario"], d["kind"]) for d in decisions)
    assert len(decisions) >= MINIMUM_CUBE_DECISIONS and len(scenarios) >= CUBE_SCENARIOS_AT_LEAST
    assert all(kinds[name, kind] > 0 for name in scenarios for kind in ("selfplay", "bearoff", "last roll"))
    assert header["decisions"] == dict(scenarios)
    assert {d["jacoby"] for d in decisions if d["match_length"] == 0} == {True, False}
    assert sum(d["post_crawford"] for d in decisions) > 0 and sum(d["cube_owner"] == "roller" for d in decisions) > 0


def test_cube_set_xgids_read_back_to_the_stored_states(cube_set):
    for decision in cube_set[1]:
        position, match = parse_xgid(decision["xgid"])
        assert position.gnubg_id() == decision["position_id"]
        assert decision["class"] == decision_class(position)
        assert (match.match_length, match.cube_value) == (decision["match_length"], decision["cube_value"])
        assert (match.score[match.on_roll], match.score[1 - match.on_roll]) == tuple(decision["score"])
        assert (match.crawford, match.is_post_crawford) == (decision["crawford"], decision["post_crawford"])
        assert match.is_money is False or match.jacoby == decision["jacoby"]
        owners = {"centred": None, "roller": match.on_roll, "opponent": 1 - match.on_roll}
        assert match.cube_owner == owners[decision["cube_owner"]]


def test_cube_set_verdicts_and_equities_are_consistent(cube_set):
    for decision in cube_set[1]:
        assert decision["family"] == verdict_family(decision["verdict"]) in FAMILIES
        if decision["family"] == "double-take":
            assert decision["double_take"] <= decision["double_pass"] + 1e-6
        if decision["family"] == "no double" and not decision["verdict"].lower().startswith("optional"):
            assert decision["no_double"] >= min(decision["double_take"], decision["double_pass"]) - 1e-6

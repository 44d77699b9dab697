"""The hard-position benchmark (benchmarks/hard_positions.py): the committed set, its rules and the report's arithmetic."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import hard_position_set as hard_set  # noqa: E402
import hard_positions  # noqa: E402

from bgengine import Position  # noqa: E402
from bgengine.evaluation.evaluator import default_evaluator, evaluate  # noqa: E402
from bgengine.training.classes import has_contact  # noqa: E402


def _row(position_id: str, category: str, equity: float, error: float) -> dict:
    return {"position_id": position_id, "category": category, "equity": equity, "equity_standard_error": error}


def test_committed_set_meets_the_issue_minimums():
    rows = hard_set.read_positions()
    positions = [Position.from_gnubg_id(row["position_id"]) for row in rows]
    assert len(rows) >= 50
    assert all(has_contact(np.asarray(p)) for p in positions)
    assert sum(row["category"] in hard_set.BACK_OR_HOLDING for row in rows) >= 15
    assert len({p.to_bytes() for p in positions}) == len(rows)
    assert {pid for pid, _, _ in hard_set.NAMED} <= {row["position_id"] for row in rows}


def test_self_play_positions_meet_their_category_rule():
    named = {pid for pid, _, _ in hard_set.NAMED}
    for row in hard_set.read_positions():
        if row["position_id"] not in named:
            assert hard_set.category(Position.from_gnubg_id(row["position_id"])) == row["category"]


def test_categories_of_known_positions():
    assert hard_set.category(Position.from_gnubg_id("fnwICQgAoBQ3Pw")) == "back_game"
    assert hard_set.category(Position.from_gnubg_id("27YBAAAAAGAAAA")) == "closed_out"
    assert hard_set.category(Position.initial()) == "middle_game"
    race = Position.from_points({6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 4: 5})
    assert hard_set.category(race) is None


def test_make_set_is_the_same_for_a_seed():
    quotas = {"back_game": 1, "deep_holding": 0, "closed_out": 1, "blitz": 0, "priming_battle": 0, "middle_game": 1}
    first = hard_set.make_set(5, quotas)
    assert first == hard_set.make_set(5, quotas)
    assert len(first) == len(hard_set.NAMED) + 3


def test_compare_arithmetic():
    engine = [_row("a", "back_game", -1.0, 0.03), _row("b", "back_game", 0.2, 0.04), _row("c", "middle_game", 0.5, 0.0)]
    gnubg = [_row("c", "middle_game", 0.45, 0.0), _row("a", "back_game", -0.2, 0.04), _row("b", "back_game", 0.1, 0.03)]
    table = hard_positions.compare(engine, gnubg)
    assert list(table) == ["back_game", "middle_game", "back or holding", "all"]
    back = table["back_game"]
    assert back["n"] == 2
    assert back["mean_abs_difference"] == pytest.approx((0.8 + 0.1) / 2)
    assert back["max_abs_difference"] == pytest.approx(0.8)
    assert back["above_0.15"] == 1
    assert back["noise_floor"] == pytest.approx(math.sqrt(2 / math.pi) * 0.05)
    assert table["all"]["mean_abs_difference"] == pytest.approx((0.8 + 0.1 + 0.05) / 3)
    assert table["all"]["mean_gnubg_se"] == pytest.approx(0.07 / 3)
    with pytest.raises(SystemExit):
        hard_positions.compare(engine, gnubg[:1])


def test_engine_side_on_two_positions():
    rows = [{"position_id": "NM/gASiw5+ABAw", "category": "middle_game"},
            {"position_id": "27YBAAAAAGAAAA", "category": "closed_out"}]
    engine = hard_positions.engine_rollouts(rows, trials=36, seed=3)
    again = hard_positions.engine_rollouts(rows, trials=36, seed=3)
    assert [r["equity"] for r in engine] == [r["equity"] for r in again]
    assert [r["trials"] for r in engine] == [36, 36]
    gnubg = [dict(r, equity=r["equity"] + 0.2 * i, equity_standard_error=0.01) for i, r in enumerate(engine)]
    table = hard_positions.compare(engine, gnubg)
    assert table["all"]["mean_abs_difference"] == pytest.approx(0.1)
    assert table["all"]["above_0.15"] == 1
    closed = hard_positions.closed_out_check(engine, gnubg)
    assert closed is not None and closed["rollout_win"] == engine[1]["probabilities"][0]
    zero_ply = evaluate(Position.from_gnubg_id("27YBAAAAAGAAAA")).probabilities.win
    assert closed["zero_ply_win"] == pytest.approx(zero_ply)  # issue 13 quotes 71% (first network)


def test_the_engine_side_keeps_the_shipped_crashed_network_unless_given_one():
    data = Path(__file__).resolve().parent.parent / "python" / "bgengine" / "data"
    shipped = default_evaluator()
    assert hard_positions.engine_evaluator(None, False) is None
    other_contact = hard_positions.engine_evaluator(data / "evaluator_weights.npz", False)
    assert other_contact is not None and other_contact.crashed_network is shipped.crashed_network
    own_crashed = hard_positions.engine_evaluator(None, False, data / "crashed_weights.npz")
    assert own_crashed is not None and own_crashed.crashed_network is not shipped.crashed_network
    assert own_crashed.network is shipped.network and own_crashed.race_network is shipped.race_network

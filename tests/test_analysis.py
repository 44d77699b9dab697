"""The analysis report: equity arithmetic, perspective, ranking, capabilities, JSON body."""

from __future__ import annotations

import sys
import types

import pytest

from bgengine import MatchState, Position
from bgengine.cli import report as analysis
from bgengine.probabilities import equity as cubeless_equity
from bgengine.cli.report import (
    CUBE,
    EVALUATION,
    FeatureUnavailableError,
    analysis_dict,
    analyze,
    mover_view,
    rank_plays,
)

RACE = Position.from_points({6: 2, 5: 2}, {6: 2, 4: 1})


def fake_module(monkeypatch, name: str, **functions) -> None:
    module = types.ModuleType(analysis._MODULES[name])
    for attribute, value in functions.items():
        setattr(module, attribute, value)
    monkeypatch.setitem(sys.modules, analysis._MODULES[name], module)


@pytest.mark.parametrize(
    ("probabilities", "equity"),
    [
        ((1.0, 0.0, 0.0, 0.0, 0.0), 1.0),
        ((0.0, 0.0, 0.0, 0.0, 0.0), -1.0),
        ((1.0, 1.0, 1.0, 0.0, 0.0), 3.0),
        ((0.0, 0.0, 0.0, 1.0, 1.0), -3.0),
        ((0.5, 0.1, 0.0, 0.2, 0.05), 0.1 - 0.2 - 0.05),
    ],
)
def test_cubeless_equity_counts_gammons_and_backgammons(probabilities, equity):
    assert cubeless_equity(probabilities) == pytest.approx(equity)


def test_mover_view_swaps_sides_of_a_child_vector():
    assert mover_view((0.7, 0.2, 0.05, 0.1, 0.01)) == pytest.approx((0.3, 0.1, 0.01, 0.2, 0.05))
    child = (0.7, 0.2, 0.05, 0.1, 0.01)
    assert cubeless_equity(mover_view(child)) == pytest.approx(-cubeless_equity(child))


def test_ranking_puts_the_best_play_for_the_mover_first():
    good, bad = Position.from_points({6: 2}, {5: 1}), Position.from_points({6: 2}, {4: 1})
    child_values = {good: (0.2, 0.0, 0.0, 0.0, 0.0), bad: (0.9, 0.0, 0.0, 0.0, 0.0)}
    ranked, source = rank_plays([("bad", bad), ("good", good)], (child_values.__getitem__, "fake"))
    assert source == "fake"
    assert [choice.move for choice in ranked] == ["good", "bad"]
    assert ranked[0].equity == pytest.approx(0.6)
    assert ranked[1].equity == pytest.approx(-0.8)


def test_a_play_that_wins_is_scored_exactly_without_the_evaluator():
    """The child after bearing off the last checker: the mover (now the opponent) has won."""
    won = Position.from_points({6: 1}, {})  # seen from the loser, who has one checker left and 14 off

    def never(position):
        raise AssertionError("the evaluator must not see finished games")
    ranked, _ = rank_plays([("1/off", won)], (never, "fake"))
    assert ranked[0].probabilities.as_tuple() == (1.0, 0.0, 0.0, 0.0, 0.0)  # the loser has 14 off: a single game


def test_without_an_evaluator_plays_keep_their_order_unranked():
    plays = [("b", RACE), ("a", RACE.flip())]
    ranked, source = rank_plays(plays, None)
    assert source is None
    assert [choice.move for choice in ranked] == ["b", "a"]
    assert all(choice.equity is None for choice in ranked)


def test_analyze_uses_a_general_evaluator_when_there_is_one(monkeypatch):
    calls = []

    def evaluate(position, plies=0):
        calls.append(plies)
        return (0.6, 0.2, 0.01, 0.1, 0.0)

    fake_module(monkeypatch, "evaluate", evaluate=evaluate)
    report = analyze(Position.initial(), plies=2)
    assert calls == [2]
    assert report.evaluation is not None and report.evaluation.source == "2-ply"
    assert report.evaluation.equity == pytest.approx(0.2 + 0.2 + 0.01 - 0.1)
    assert EVALUATION not in report.unavailable


def test_analyze_uses_the_race_evaluator_for_races_only(monkeypatch):
    fake_module(monkeypatch, "race", evaluate=lambda position: (0.8, 0.0, 0.0, 0.0, 0.0))
    monkeypatch.setattr(analysis, "_optional_module",
                        lambda name: sys.modules.get(analysis._MODULES[name]) if name == "race" else None)
    assert analyze(RACE).evaluation.source == "race"
    assert analyze(Position.initial()).evaluation is None
    with pytest.raises(FeatureUnavailableError, match="more than 0 plies"):
        analyze(RACE, plies=1)


def test_analyze_refuses_what_the_build_cannot_do(monkeypatch):
    monkeypatch.setattr(analysis, "_optional_module", lambda name: None)
    with pytest.raises(FeatureUnavailableError, match="plies"):
        analyze(Position.initial(), plies=2)
    from bgengine.cli.rollout_report import make_settings

    with pytest.raises(FeatureUnavailableError, match="rollouts"):
        make_settings(100)
    report = analyze(Position.initial())
    assert report.evaluation is None
    assert {EVALUATION, CUBE} <= set(report.unavailable)


def test_legal_plays_needs_move_generation(monkeypatch):
    monkeypatch.delattr(Position, "legal_moves", raising=False)
    assert not analysis.has_move_generation()
    with pytest.raises(FeatureUnavailableError, match="move generation"):
        analysis.legal_plays(Position.initial(), (3, 1))


def test_analyze_takes_the_dice_from_the_match():
    report = analyze(Position.initial(), MatchState(dice=(6, 5)))
    assert report.dice == (6, 5)
    assert analysis_dict(report)["dice"] == [6, 5]


def test_analysis_dict_sees_everything_from_the_player_on_roll():
    position = Position.from_points({6: 5, 8: 3}, {1: 2}, bar=1)
    match = MatchState(match_length=5, score=(3, 1), cube_value=2, cube_owner=0, on_roll=1)
    body = analysis_dict(analyze(position, match))
    assert body["match"]["score"] == {"on_roll": 1, "opponent": 3}
    assert body["match"]["away"] == {"on_roll": 4, "opponent": 2}
    assert body["match"]["cube"] == {"value": 2, "owner": "opponent"}
    assert body["position"]["on_bar"] == {"on_roll": 1, "opponent": 0}
    assert body["position"]["checkers_off"] == {"on_roll": 6, "opponent": 13}
    assert body["position"]["xgid"] == position.xgid(match)


needs_cube = pytest.mark.skipif(analysis._optional_module("cube") is None, reason="cube module not merged yet")


@needs_cube
def test_cube_advice_comes_from_the_evaluation(monkeypatch):
    """90% wins and no gammons in a money game: a double and a pass (textbook)."""
    fake_module(monkeypatch, "evaluate", evaluate=lambda position, plies=0: (0.9, 0.0, 0.0, 0.0, 0.0))
    report = analyze(Position.initial())
    assert str(report.cube.action) == "Double / pass"
    body = analysis_dict(report)["cube"]
    assert body["abbreviation"] == "D/P"
    assert body["unit"] == "money"
    assert body["double_pass"] == 1.0
    assert body["emg"] is None
    assert CUBE not in report.unavailable


@needs_cube
def test_match_cube_advice_is_in_match_winning_chances_with_emg(monkeypatch):
    fake_module(monkeypatch, "evaluate", evaluate=lambda position, plies=0: (0.6, 0.1, 0.0, 0.05, 0.0))
    body = analysis_dict(analyze(Position.initial(), MatchState(match_length=7, score=(2, 4))))["cube"]
    assert body["unit"] == "mwc"
    assert 0.0 < body["no_double"] < 1.0
    assert set(body["emg"]) == {"no_double", "double_take", "double_pass"}


def test_with_dice_the_cube_advice_is_for_the_position_before_the_roll(monkeypatch):
    fake_module(monkeypatch, "evaluate", evaluate=lambda position, plies=0: (0.9, 0.0, 0.0, 0.0, 0.0))
    rolled = analyze(Position.initial(), MatchState(dice=(3, 1)))
    before = analyze(Position.initial(), MatchState())
    assert rolled.cube is not None and rolled.cube == before.cube
    assert rolled.moves is not None and before.moves is None
    assert CUBE not in rolled.unavailable


def test_no_cube_advice_without_an_evaluation(monkeypatch):
    monkeypatch.setattr(analysis, "_optional_module", lambda name: None)
    report = analyze(Position.initial())
    assert report.cube is None and CUBE in report.unavailable

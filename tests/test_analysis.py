"""The analysis report: equity arithmetic, perspective, ranking, capabilities, JSON body."""

from __future__ import annotations

import types

import pytest

from bgengine import MatchState, Position
from bgengine.cli import report as analysis
from bgengine.cli.report import analysis_dict, analyze, mover_view, ranked_moves
from bgengine.probabilities import equity as cubeless_equity

RACE = Position.from_points({6: 2, 5: 2}, {6: 2, 4: 1})


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


def test_a_play_that_wins_is_scored_exactly():
    """Bearing off the last checker wins a single game: probabilities exactly (1, 0, 0, 0, 0)."""
    ranked, source = ranked_moves(Position.from_points({1: 1}, {6: 3}), (2, 1))
    assert source == "0-ply"
    assert ranked[0].probabilities.as_tuple() == (1.0, 0.0, 0.0, 0.0, 0.0) and ranked[0].equity == 1.0


def test_plays_are_ranked_best_first_for_the_mover():
    ranked, _ = ranked_moves(Position.initial(), (3, 1))
    assert ranked[0].move == "8/5 6/5"
    equities = [choice.equity for choice in ranked]
    assert equities == sorted(equities, reverse=True)


def fake_evaluation(monkeypatch, probabilities, calls=None):
    """The report's evaluator replaced by one that answers ``probabilities`` (and logs plies)."""

    def evaluate(position, plies=0):
        if calls is not None:
            calls.append(plies)
        return types.SimpleNamespace(probabilities=probabilities)

    monkeypatch.setattr(analysis, "evaluate", evaluate)


def test_analyze_evaluates_at_the_plies_asked(monkeypatch):
    calls = []
    fake_evaluation(monkeypatch, (0.6, 0.2, 0.01, 0.1, 0.0), calls)
    report = analyze(Position.initial(), plies=2)
    assert calls == [2]
    assert report.evaluation is not None and report.evaluation.source == "2-ply"
    assert report.evaluation.equity == pytest.approx(0.2 + 0.2 + 0.01 - 0.1)


def test_a_finished_game_has_no_evaluation_cube_or_moves():
    report = analyze(Position.from_points({6: 1}, {}), MatchState(dice=(3, 1)))
    assert report.evaluation is None and report.cube is None and report.moves is None
    assert analysis_dict(report)["game_over"] == {"winner": "opponent", "result": "single"}


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


def test_cube_advice_comes_from_the_evaluation(monkeypatch):
    """90% wins and no gammons in a money game: a double and a pass (textbook)."""
    fake_evaluation(monkeypatch, (0.9, 0.0, 0.0, 0.0, 0.0))
    report = analyze(Position.initial())
    assert str(report.cube.action) == "Double / pass"
    body = analysis_dict(report)["cube"]
    assert body["abbreviation"] == "D/P"
    assert body["unit"] == "money"
    assert body["double_pass"] == 1.0
    assert body["emg"] is None


def test_match_cube_advice_is_in_match_winning_chances_with_emg(monkeypatch):
    fake_evaluation(monkeypatch, (0.6, 0.1, 0.0, 0.05, 0.0))
    body = analysis_dict(analyze(Position.initial(), MatchState(match_length=7, score=(2, 4))))["cube"]
    assert body["unit"] == "mwc"
    assert 0.0 < body["no_double"] < 1.0
    assert set(body["emg"]) == {"no_double", "double_take", "double_pass"}


def test_with_dice_the_cube_advice_is_for_the_position_before_the_roll(monkeypatch):
    fake_evaluation(monkeypatch, (0.9, 0.0, 0.0, 0.0, 0.0))
    rolled = analyze(Position.initial(), MatchState(dice=(3, 1)))
    before = analyze(Position.initial(), MatchState())
    assert rolled.cube is not None and rolled.cube == before.cube
    assert rolled.moves is not None and before.moves is None

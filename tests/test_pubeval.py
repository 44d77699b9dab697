"""PubEval: the published weights, the encoding spot-checked by hand, and its move choice."""

import json
from importlib import resources

import numpy as np
import pytest

from bgengine import Position
from bgengine.evaluation.pubeval import pubeval_player

WEIGHTS = json.loads(resources.files("bgengine").joinpath("data/pubeval_weights.json").read_text())


def unit(location: int, kind: int) -> int:
    """Index of one of the five units of a board location (24 first)."""
    return 5 * (24 - location) + kind


def test_published_weights_have_122_entries_and_known_values():
    assert len(WEIGHTS["contact"]) == 122 and len(WEIGHTS["race"]) == 122
    assert WEIGHTS["contact"][0] == pytest.approx(0.25696)
    assert WEIGHTS["race"][121] == pytest.approx(3.42040)
    assert "Tesauro" in WEIGHTS["author"]


def test_score_of_a_race_board_by_hand():
    # the mover has one checker on its 1-point and 14 off; the opponent 15 on one point
    after = np.asarray(Position.from_points({1: 1}, {1: 15}))
    race = WEIGHTS["race"]
    expected = race[unit(1, 1)] + race[121] * 14 / 15
    assert pubeval_player().score(after, True) == pytest.approx(expected, rel=1e-5)


def test_score_of_a_contact_board_by_hand():
    # mover: 3 on its 6-point (>=2 and ==3), 6 on its 8-point (>=2 and (6-3)/2 excess),
    # 6 on its 13-point; opponent: a blot on the mover's 10-point, 2 on the bar
    after = np.asarray(Position.from_points({6: 3, 8: 6, 13: 6}, {15: 1, 1: 12}, opponent_bar=2))
    w = WEIGHTS["contact"]
    expected = (
        w[unit(6, 2)] + w[unit(6, 3)]
        + w[unit(8, 2)] + 1.5 * w[unit(8, 4)]
        + w[unit(13, 2)] + 1.5 * w[unit(13, 4)]
        + w[unit(10, 0)]  # the opponent's blot; its 12 checkers on the 24-point add nothing
        + w[120] * 2 / 2
    )
    assert pubeval_player().score(after, False) == pytest.approx(expected, rel=1e-5)


def test_bearing_off_the_last_checker_scores_highest():
    after = np.asarray(Position.from_points({}, {1: 15}))
    assert pubeval_player().score(after, True) > 1e7


def test_choose_takes_the_winning_bear_off():
    before = Position.from_points({1: 1, 2: 1}, {1: 15})
    moves = before.legal_moves((2, 1))
    index = pubeval_player().choose(np.asarray(before), moves.positions)
    assert moves.position_after(index).is_game_over()


def test_choose_rejects_empty_children():
    with pytest.raises(ValueError):
        pubeval_player().choose(np.asarray(Position.initial()), np.zeros((0, 26), dtype=np.int8))

"""Cube decisions over every score of a match."""

import pytest

from bgengine import CubeAction, InvalidCubeSettingsError, InvalidMatchStateError, MatchState, cube_decision
from bgengine.cube.matrix import cube_decision_matrix
from bgengine.match_state import CubeOwner

CHANCES = [0.72, 0.2, 0.01, 0.05, 0.002]


def test_matrix_holds_every_pair_of_away_scores():
    matrix = cube_decision_matrix(CHANCES, 7)
    assert len(matrix) == 49 and set(matrix) == {(a, b) for a in range(1, 8) for b in range(1, 8)}


def test_matrix_entries_equal_single_decisions():
    matrix = cube_decision_matrix(CHANCES, 7)
    single = cube_decision(probabilities=CHANCES, match=MatchState(match_length=7, score=(4, 2)))
    assert matrix[3, 5] == single


def test_one_away_rows_are_post_crawford():
    matrix = cube_decision_matrix([0.5, 0.0, 0.0, 0.0, 0.0], 7)
    assert all(not matrix[1, b].action.doubles for b in range(1, 8))  # the leader never doubles
    assert all(matrix[a, 1].action.doubles for a in range(2, 8))  # the trailer doubles at once


def test_owned_cube_matrix_names_redoubles():
    matrix = cube_decision_matrix([0.9, 0.0, 0.0, 0.0, 0.0], 9, cube_value=2, cube_owner=CubeOwner.PLAYER)
    assert matrix[9, 9].action is CubeAction.REDOUBLE_PASS


def test_text_grid_has_a_row_per_away_score():
    lines = str(cube_decision_matrix(CHANCES, 5)).splitlines()
    assert len(lines) == 6
    assert lines[0].split() == ["away", "1", "2", "3", "4", "5"]
    assert lines[1].split()[1:] == ["ND/T"] * 5


def test_bad_match_lengths_raise_typed_errors():
    with pytest.raises(InvalidCubeSettingsError, match="match length"):
        cube_decision_matrix(CHANCES, 0)
    with pytest.raises(InvalidMatchStateError, match="covers up to 25-away"):
        cube_decision_matrix(CHANCES, 27)

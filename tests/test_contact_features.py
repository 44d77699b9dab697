"""Contact features of hand-made boards, checked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from bgengine import Position
from bgengine.evaluation.contact_features import FEATURE_NAMES, NUM_FEATURES, contact_features, longest_run


def features_of(position: Position) -> dict[str, float]:
    values = contact_features(np.asarray(position)[None, :])[0]
    return dict(zip(FEATURE_NAMES, values.tolist()))


def test_the_opening_position_by_hand():
    f = features_of(Position.initial())
    for side in ("mover", "opponent"):
        assert f[f"{side}_anchors"] == pytest.approx(1 / 3)  # the 24-point
        assert f[f"{side}_prime"] == pytest.approx(1 / 6)
        assert f[f"{side}_home_points"] == pytest.approx(1 / 6)  # the 6-point
        assert f[f"{side}_blots"] == 0 and f[f"{side}_direct_shots"] == 0
        # Rearmost checkers on the 24-point: of the 6 points in front (23..18) the enemy holds
        # our 19 (its 6); of the 12 (23..12) also our 17 (its 8) and 12 (its 13).
        assert f[f"{side}_front_blocks"] == pytest.approx(1 / 6)
        assert f[f"{side}_containment"] == pytest.approx(3 / 12)
        assert f[f"{side}_rear_mobility"] == pytest.approx(5 / 6)  # only a 5 (onto our 19) is blocked
        assert f[f"{side}_timing"] == pytest.approx((2 * 18 + 5 * 7 + 3 * 2) / 100)
        # The enemy's rearmost checkers sit on our 1-point: every checker must pass it.
        assert f[f"{side}_break_contact"] == pytest.approx((2 * 24 + 5 * 13 + 3 * 8 + 5 * 6) / 100)
        # Mobility of the checkers outside home: 24 (dice 1..6: only 5 blocked), 13 (onto
        # 12..7: the enemy holds 12), 8 (onto 7..2: none held).
        assert f[f"{side}_mobility"] == pytest.approx((2 * 5 + 5 * 5 + 3 * 6) / 60)
        assert f[f"{side}_on_bar"] == 0


def test_blots_and_shots_by_hand():
    # Mover: blots on its 10- and 4-points; the opponent has a checker on its own 18-point
    # (the mover's 7-point) and one on the bar (entering at the mover's 1..6 points).
    position = Position.from_points({10: 1, 4: 1, 6: 5, 8: 8}, {18: 1, 6: 5, 5: 8}, opponent_bar=1)
    f = features_of(position)
    assert f["mover_blots"] == pytest.approx(2 / 5)
    # 10-point: the checker on our 7 is 3 away (direct); the bar (our 0) is 10 away (indirect).
    # 4-point: the bar is 4 away (direct).
    assert f["mover_direct_shots"] == pytest.approx(2 / 10)
    assert f["mover_indirect_shots"] == pytest.approx(1 / 10)
    assert f["opponent_blots"] == pytest.approx(1 / 5) and f["opponent_on_bar"] == pytest.approx(1 / 3)


def test_primes_mobility_and_containment_by_hand():
    # Mover holds its 8..3 points (a full prime); the opponent has two checkers on its
    # 24-point (our 1-point) and 13 on its 6-point.
    position = Position.from_points({8: 2, 7: 2, 6: 3, 5: 3, 4: 3, 3: 2}, {24: 2, 6: 13}, opponent_bar=0)
    f = features_of(position)
    assert f["mover_prime"] == pytest.approx(1.0)
    assert f["mover_home_points"] == pytest.approx(4 / 6)
    # Opponent's rearmost checkers on its 24-point: the 6 points in front (its 23..18, our
    # 2..7) hold our 3..7: five blocked, die 1 (our 2-point) is open.
    assert f["opponent_front_blocks"] == pytest.approx(5 / 6)
    assert f["opponent_rear_mobility"] == pytest.approx(1 / 6)
    assert f["opponent_containment"] == pytest.approx(6 / 12)  # our 3..8 among its 23..12
    # Mover's checkers outside home (8- and 7-points) land on its 7..1 points; the opponent
    # holds only our 1-point, so only a 6 from the 7-point is blocked.
    assert f["mover_mobility"] == pytest.approx((2 * 6 + 2 * 5) / 60)
    assert f["mover_break_contact"] == pytest.approx((2 * 8 + 2 * 7 + 3 * 6 + 3 * 5 + 3 * 4 + 2 * 3) / 100)


def test_longest_run_of_each_row():
    held = np.array([[1, 1, 0, 1, 1, 1, 0], [0, 0, 0, 0, 0, 0, 0], [1, 0, 1, 0, 1, 0, 1]], dtype=bool)
    assert longest_run(held).tolist() == [3, 0, 1]


def test_a_batch_equals_each_board_and_the_sides_swap_when_flipped():
    positions = [Position.initial(), Position.from_points({10: 1, 4: 1, 6: 5, 8: 8}, {18: 1, 6: 5, 5: 8}, opponent_bar=1)]
    batch = contact_features(np.array([np.asarray(p) for p in positions]))
    assert batch.shape == (2, NUM_FEATURES)
    half = NUM_FEATURES // 2
    for row, position in zip(batch, positions):
        flipped = contact_features(np.asarray(position.flip())[None, :])[0]
        assert np.array_equal(row[:half], flipped[half:]) and np.array_equal(row[half:], flipped[:half])

"""Race network inputs: hand-checked values on small boards, table lookups, the weights file."""

from __future__ import annotations

import numpy as np
import pytest

from bgengine import Position
from bgengine.evaluation import bearoff
from bgengine.evaluation.race_features import FEATURE_NAMES, NUM_FEATURES, home_ranks, race_features
from bgengine.evaluation.correction_network import consistent
from bgengine.evaluation.race_network import RaceNetwork, outside_exact_table, save_race_network
from bgengine.errors import NotARaceError


def features_of(position: Position) -> dict[str, float]:
    values = race_features(np.asarray(position)[None, :])[0]
    return dict(zip(FEATURE_NAMES, values.tolist()))


# Mover: 3 on 6, 2 on 5, 2 on 2, 1 on 1 (8 on board, 7 off, 33 pips, all home).
# Opponent: 2 on 5, 1 on 1, 2 on 8, 1 on 14 (6 on board, 9 off, 41 pips, 3 outside).
HOME_AND_AWAY = Position.from_points({6: 3, 5: 2, 2: 2, 1: 1}, {5: 2, 1: 1, 8: 2, 14: 1})


def test_point_units_follow_the_core_encodings_thresholds():
    f = features_of(HOME_AND_AWAY)
    assert [f[f"mover_point6_{u}"] for u in ("ge1", "ge2", "ge3", "over3")] == [1, 1, 1, 0]
    assert [f[f"mover_point2_{u}"] for u in ("ge1", "ge2", "ge3", "over3")] == [1, 1, 0, 0]
    assert [f[f"opponent_point14_{u}"] for u in ("ge1", "ge2", "ge3", "over3")] == [1, 0, 0, 0]
    assert f["mover_point3_ge1"] == 0
    crowded = features_of(Position.from_points({6: 8, 5: 7}, {10: 15}))
    assert crowded["mover_point6_over3"] == pytest.approx(2.5)  # (8 - 3) / 2
    assert crowded["opponent_point10_over3"] == pytest.approx(6.0)


def test_counts_pips_and_gammon_saving_features_by_hand():
    f = features_of(HOME_AND_AWAY)
    assert f["mover_off"] == pytest.approx(7 / 15)
    assert f["opponent_off"] == pytest.approx(9 / 15)
    assert f["mover_any_off"] == f["opponent_any_off"] == 1
    assert f["mover_pips"] == pytest.approx(33 / 150)
    assert f["opponent_pips"] == pytest.approx(41 / 150)
    assert f["pip_lead"] == pytest.approx(8 / 100)
    assert f["mover_home"] == 1 and f["opponent_home"] == 0
    assert f["mover_outside"] == 0 and f["opponent_outside"] == pytest.approx(3 / 15)
    assert f["opponent_crossovers"] == pytest.approx((1 + 1 + 2) / 30)  # two on 8, one on 14
    assert f["opponent_pips_to_home"] == pytest.approx((2 + 2 + 8) / 100)
    assert f["mover_furthest"] == pytest.approx(6 / 25)
    assert f["opponent_furthest"] == pytest.approx(14 / 25)


def test_bearoff_table_features_where_a_side_is_home():
    table = bearoff.one_sided_table(6)
    f = features_of(HOME_AND_AWAY)
    rolls = table.expected_rolls([1, 2, 0, 0, 2, 3])
    assert f["mover_home_rolls"] == pytest.approx(rolls / 10, rel=1e-6)
    assert f["mover_wastage"] == pytest.approx((49 / 6 * rolls - 33) / 10, rel=1e-5)
    assert f["mover_expected_rolls"] == pytest.approx(rolls / 20, rel=1e-6)  # the race model is exact at home
    assert f["opponent_home_rolls"] == 0 and f["opponent_wastage"] == 0
    assert f["mover_first_off_rolls"] == 0  # checkers are already off


def test_first_off_rolls_of_a_full_home_board_and_none_outside():
    # Mover: all 15 home, none off (3 on each of points 2..6); opponent 15 checkers far away.
    position = Position.from_points({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}, {18: 5, 16: 5, 12: 5})
    f = features_of(position)
    table = bearoff.one_sided_table(6)
    distribution = table.first_off_distribution([0, 3, 3, 3, 3, 3])
    assert f["mover_first_off_rolls"] == pytest.approx(np.dot(np.arange(distribution.size), distribution) / 5, rel=1e-5)
    assert f["mover_first_off_rolls"] == pytest.approx(0.2)  # any roll bears a checker off
    assert f["opponent_crossovers"] == pytest.approx((5 * 2 + 5 * 2 + 5 * 1) / 30)
    assert f["opponent_any_off"] == 0


def test_vectorised_ranks_equal_the_tables_ranks():
    table = bearoff.one_sided_table(6)
    rng = np.random.default_rng(2)
    counts = [rng.multinomial(int(rng.integers(0, 16)), np.ones(6) / 6) for _ in range(300)]
    assert home_ranks(np.array(counts)).tolist() == [table.rank(list(c)) for c in counts]


def test_features_of_a_batch_equal_features_of_each_board():
    positions = [HOME_AND_AWAY, Position.from_points({10: 5, 8: 5, 6: 5}, {9: 5, 7: 5, 5: 5}),
                 HOME_AND_AWAY.flip()]
    batch = race_features(np.array([np.asarray(p) for p in positions]))
    assert batch.shape == (3, NUM_FEATURES) and batch.dtype == np.float32
    for row, position in zip(batch, positions):
        assert np.array_equal(row, race_features(np.asarray(position)[None, :])[0])


def test_contact_positions_are_refused():
    with pytest.raises(NotARaceError):
        race_features(np.asarray(Position.initial())[None, :])


def test_outside_exact_table_marks_races_only():
    boards = np.array([np.asarray(p) for p in (
        Position.initial(),                                  # contact
        Position.from_points({6: 2, 5: 1}, {3: 3}),           # exact two-sided table
        HOME_AND_AWAY,                                       # race
        Position.from_points({6: 7, 5: 3}, {3: 3}),           # race: 10 checkers is beyond the table
    )])
    assert outside_exact_table(boards).tolist() == [False, False, True, True]


def test_consistent_clamps_gammons_under_wins():
    clamped = consistent(np.array([[0.4, 0.5, 0.6, 0.7, 0.8]]))
    assert clamped.tolist() == [[0.4, 0.4, 0.4, pytest.approx(0.6), pytest.approx(0.6)]]


def test_weights_file_round_trips_and_refuses_another_size(tmp_path):
    rng = np.random.default_rng(0)
    parameters = {"hidden_weights": rng.normal(size=(NUM_FEATURES, 4)), "hidden_bias": np.zeros(4),
                  "output_weights": rng.normal(size=(4, 5)), "output_bias": np.zeros(5)}
    save_race_network(tmp_path / "w.npz", parameters, {"what": "test"})
    network = RaceNetwork.from_file(tmp_path / "w.npz")
    assert network.record == {"what": "test"} and network.architecture["hidden"] == [4]
    values = network.evaluate_batch(np.asarray(HOME_AND_AWAY)[None, :])
    assert values.shape == (1, 5) and 0 <= values.min() and values.max() <= 1
    parameters["hidden_weights"] = parameters["hidden_weights"][:-1]
    save_race_network(tmp_path / "bad.npz", parameters, {})
    with pytest.raises(ValueError, match="inputs"):
        RaceNetwork.from_file(tmp_path / "bad.npz")


def test_within_chances_are_the_tables_where_home_and_the_next_roll_exact_bearing_in():
    table = bearoff.one_sided_table(6)
    f = features_of(HOME_AND_AWAY)
    finish = np.cumsum(table.rolls_distribution([1, 2, 0, 0, 2, 3]))
    for k in range(1, 7):
        assert f[f"mover_finish_within{k}"] == pytest.approx(finish[k] if k < finish.size else 1.0, abs=1e-6)
        assert f[f"mover_first_off_within{k}"] == 1.0  # checkers are off already
    # Two checkers on the 11-point, the rest home on the 1..6 points: only 6-6 brings both in
    # and bears one off next roll; the opponent is home with four checkers left.
    bearing_in = Position.from_points({11: 2, 6: 2, 4: 4, 3: 2, 2: 2, 1: 3}, {1: 2, 2: 1, 3: 1})
    f = features_of(bearing_in)
    assert f["mover_first_off_within1"] == pytest.approx(1 / 36, abs=1e-7)
    assert f["mover_first_off_within2"] >= f["mover_first_off_within1"]
    assert f["opponent_finish_within1"] == pytest.approx(4 / 36, abs=1e-6)  # 3-3, 4-4, 5-5, 6-6
    assert 0.99 < f["opponent_finish_within2"] < 1.0  # 2-1 twice leaves a checker (3/1 with the 2)
    assert f["opponent_finish_within3"] == pytest.approx(1.0, abs=1e-6)

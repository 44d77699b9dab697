import math

import numpy as np
import pytest

from bgengine import GameProbabilities, GameResult, InvalidProbabilitiesError
from bgengine.probabilities import clamped, equity, finished_probabilities, flipped


def test_from_vector_accepts_list_tuple_and_array():
    for vector in ([0.6, 0.2, 0.01, 0.1, 0.0], (0.6, 0.2, 0.01, 0.1, 0.0), np.array([0.6, 0.2, 0.01, 0.1, 0.0])):
        chances = GameProbabilities.from_vector(vector)
        assert chances.as_tuple() == pytest.approx((0.6, 0.2, 0.01, 0.1, 0.0))


def test_cubeless_equity_counts_gammons_and_backgammons():
    chances = GameProbabilities(0.6, 0.2, 0.05, 0.1, 0.02)
    assert chances.equity == pytest.approx(2 * 0.6 - 1 + 0.2 - 0.1 + 0.05 - 0.02)


def test_average_win_and_loss_values_are_janowskis_w_and_l():
    chances = GameProbabilities(0.6, 0.3, 0.06, 0.1, 0.02)
    assert chances.average_win_value() == pytest.approx((0.6 + 0.3 + 0.06) / 0.6)
    assert chances.average_loss_value() == pytest.approx((0.4 + 0.1 + 0.02) / 0.4)


def test_shares_of_a_side_that_never_wins_are_all_single():
    assert GameProbabilities(0.0).win_shares() == (1.0, 0.0, 0.0)
    assert GameProbabilities(1.0).loss_shares() == (1.0, 0.0, 0.0)


def test_flipped_twice_is_the_same():
    chances = GameProbabilities(0.6, 0.3, 0.06, 0.1, 0.02)
    assert chances.flipped().flipped() == chances
    assert chances.flipped().equity == pytest.approx(-chances.equity)


def test_rounding_noise_is_clipped():
    chances = GameProbabilities(1.0 + 1e-9, 1.0 + 2e-9, 0.0, 0.0, 0.0)
    assert chances.win == 1.0 and chances.win_gammon == 1.0


@pytest.mark.parametrize(
    "vector, message",
    [
        ([1.2, 0, 0, 0, 0], "win must be a probability"),
        ([-0.1, 0, 0, 0, 0], "win must be a probability"),
        ([math.nan, 0, 0, 0, 0], "win is NaN"),
        ([0.5, 0.6, 0, 0, 0], "win_gammon (0.6) is above win"),
        ([0.5, 0.2, 0.3, 0, 0], "win_backgammon (0.3) is above win_gammon"),
        ([0.7, 0, 0, 0.4, 0], "lose_gammon (0.4) is above the chance of losing"),
        ([0.5, 0, 0, 0.1, 0.2], "lose_backgammon (0.2) is above lose_gammon"),
        ([0.5, 0, 0, 0], "need 5 values"),
        ([0.5, "x", 0, 0, 0], "win_gammon must be a number"),
        (0.5, "sequence of 5 numbers"),
    ],
)
def test_bad_probabilities_raise_typed_errors_that_say_what_is_wrong(vector, message):
    with pytest.raises(InvalidProbabilitiesError, match=message.replace("(", r"\(").replace(")", r"\)")):
        GameProbabilities.from_vector(vector)
    assert issubclass(InvalidProbabilitiesError, ValueError)


# ----- the 5-vector's rules, each written once in bgengine.probabilities --------------------


def test_equity_counts_gammons_and_backgammons_once_more_each():
    # 2 * 0.6 - 1 + (0.2 - 0.1) + (0.05 - 0.02) = 0.2 + 0.1 + 0.03
    assert equity((0.6, 0.2, 0.05, 0.1, 0.02)) == pytest.approx(0.33)
    assert equity([1, 1, 1, 0, 0]) == 3.0 and equity([0, 0, 0, 1, 1]) == -3.0


def test_equity_of_an_array_is_one_per_row():
    rows = np.array([[0.6, 0.2, 0.05, 0.1, 0.02], [0.5, 0, 0, 0, 0], [0, 0, 0, 1, 0]], dtype=np.float32)
    np.testing.assert_allclose(equity(rows), [0.33, 0.0, -2.0], atol=1e-6)


def test_flipped_swaps_the_sides_and_negates_the_equity():
    assert flipped((0.6, 0.2, 0.05, 0.1, 0.02)) == pytest.approx((0.4, 0.1, 0.02, 0.2, 0.05))
    rows = np.array([[0.6, 0.2, 0.05, 0.1, 0.02]], dtype=np.float32)
    assert flipped(rows).dtype == np.float32
    np.testing.assert_allclose(flipped(rows), [[0.4, 0.1, 0.02, 0.2, 0.05]], atol=1e-7)
    np.testing.assert_allclose(equity(flipped(rows)), -equity(rows), atol=1e-6)


def test_clamped_puts_each_value_into_range_and_under_its_parent():
    assert clamped((1.002, 1.01, -0.001, 0.3, 0.0)) == (1.0, 1.0, 0.0, 0.0, 0.0)
    assert clamped((0.4, 0.5, 0.45, 0.7, 0.8)) == (0.4, 0.4, 0.4, 0.6, 0.6)
    assert clamped((0.6, 0.2, 0.05, 0.1, 0.02)) == (0.6, 0.2, 0.05, 0.1, 0.02)


def test_from_estimate_clamps_where_the_checked_constructor_refuses():
    with pytest.raises(InvalidProbabilitiesError):
        GameProbabilities.from_vector((0.4, 0.5, 0.0, 0.0, 0.0))
    assert GameProbabilities.from_estimate((0.4, 0.5, 0.0, 0.0, 0.0)).win_gammon == 0.4
    with pytest.raises(InvalidProbabilitiesError, match="numbers"):
        GameProbabilities.from_estimate((float("nan"), 0, 0, 0, 0))


@pytest.mark.parametrize(
    ("won", "result", "vector"),
    [
        (True, GameResult.SINGLE, (1, 0, 0, 0, 0)),
        (True, GameResult.GAMMON, (1, 1, 0, 0, 0)),
        (True, GameResult.BACKGAMMON, (1, 1, 1, 0, 0)),
        (False, GameResult.SINGLE, (0, 0, 0, 0, 0)),
        (False, GameResult.GAMMON, (0, 0, 0, 1, 0)),
        (False, GameResult.BACKGAMMON, (0, 0, 0, 1, 1)),
    ],
)
def test_finished_probabilities_follow_the_result(won, result, vector):
    assert finished_probabilities(won, result).as_tuple() == vector
    assert finished_probabilities(won, result).equity == (1 if won else -1) * int(result)


def test_probabilities_read_as_a_sequence_in_gnubg_order():
    chances = GameProbabilities(0.6, 0.2, 0.05, 0.1, 0.02)
    assert len(chances) == 5 and chances[0] == 0.6 and chances[4] == 0.02
    assert chances.as_dict()["lose_gammon"] == 0.1
    assert list(np.asarray(chances, dtype=float)) == [0.6, 0.2, 0.05, 0.1, 0.02]

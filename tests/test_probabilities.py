import math

import numpy as np
import pytest

from bgengine import GameProbabilities, InvalidProbabilitiesError


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

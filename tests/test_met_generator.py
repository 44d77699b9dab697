"""Match equity tables generated from gammon rates."""

import numpy as np
import pytest

from bgengine import InvalidCubeSettingsError, kazaross_xg2
from bgengine.cube.met_generator import crawford_game_mwc, generate_met, post_crawford_row


def test_post_crawford_row_follows_the_classical_recursion():
    g = 0.3
    row = post_crawford_row(8, g, free_drop_2_away=0.01, free_drop_4_away=0.004)
    assert row[0] == 0.5
    assert row[1] == pytest.approx(0.5 - 0.01)  # the trailer's double wins the match; less the free drop
    assert row[2] == pytest.approx(0.5 * ((1 - g) * 0.5 + g * 1.0))
    assert row[3] == pytest.approx(0.5 * ((1 - g) * row[1] + g * 1.0) - 0.004)
    for n in range(5, 9):
        assert row[n - 1] == pytest.approx(0.5 * ((1 - g) * row[n - 3] + g * row[n - 5]))


def test_crawford_game_is_an_even_game_without_cube():
    post = post_crawford_row(5, 0.3, 0.0, 0.0)
    g = 0.25
    assert crawford_game_mwc(2, post, g) == pytest.approx(1 - 0.5 * ((1 - g) * 0.5 + g * 1.0))
    assert crawford_game_mwc(4, post, g) == pytest.approx(1 - 0.5 * ((1 - g) * post[2] + g * post[1]))


def test_generated_table_is_symmetric_and_monotone():
    table = generate_met(15)
    pre = table.pre_crawford
    np.testing.assert_allclose(pre + pre.T, 1.0, atol=1e-12)
    assert np.all(np.diff(pre, axis=1) > 0) and np.all(np.diff(pre, axis=0) < 0)


def test_default_generated_table_stays_close_to_kazaross_xg2():
    gap = np.abs(generate_met(25).pre_crawford - kazaross_xg2().pre_crawford)
    assert gap.max() < 0.006
    assert gap.mean() < 0.002


def test_more_gammons_make_a_two_away_leader_weaker():
    few, many = generate_met(5, gammon_rate=0.1), generate_met(5, gammon_rate=0.4)
    assert many.mwc(2, 5) < few.mwc(2, 5)


def test_description_records_the_settings():
    table = generate_met(3, gammon_rate=0.2, cube_efficiency=0.7)
    assert "0.2 pre-Crawford" in table.description and "cube efficiency 0.7" in table.description
    assert table.length == 3


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"length": 0}, "table length"),
        ({"length": 2.5}, "table length"),
        ({"gammon_rate": 1.5}, "gammon_rate must be a number in 0..1"),
        ({"cube_efficiency": -0.1}, "cube_efficiency"),
        ({"free_drop_2_away": 0.6}, "free drop"),
    ],
)
def test_bad_settings_raise_typed_errors(settings, message):
    with pytest.raises(InvalidCubeSettingsError, match=message):
        generate_met(**settings)

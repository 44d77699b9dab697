"""Comparison with GNU Backgammon's own copy of Kazaross-XG2 (skipped when its bindings are absent).

GNU Backgammon is only a measuring stick here: the `gnubg` Python package is not a
dependency of bgengine.
"""

import numpy as np
import pytest

from bgengine import kazaross_xg2

gnubg = pytest.importorskip("gnubg")


def test_pre_crawford_table_matches_gnu_backgammons_default_table():
    pre, _, _ = gnubg.met(25)
    np.testing.assert_allclose(np.array(pre), kazaross_xg2().pre_crawford, atol=1e-7)


def test_post_crawford_row_matches_gnu_backgammon_up_to_24_away():
    # GNU Backgammon holds 0.00118125 for 25-away where its XML file (and our data) say 0.00123.
    _, player0, player1 = gnubg.met(25)
    ours = kazaross_xg2().post_crawford
    np.testing.assert_allclose(np.array(player0[:24]), ours[:24], atol=1e-7)
    np.testing.assert_allclose(np.array(player1[:24]), ours[:24], atol=1e-7)

"""Match equity tables: the shipped Kazaross-XG2 data, lookups, loading and saving."""

import json
from pathlib import Path

import numpy as np
import pytest

from bgengine import (
    InvalidMatchEquityTableError,
    InvalidMatchStateError,
    MatchEquityTable,
    default_met,
    kazaross_xg2,
    load_met,
)

DATA = Path(__file__).parent / "data"


def test_default_is_kazaross_xg2_up_to_25_away():
    table = default_met()
    assert table is kazaross_xg2()
    assert table.name == "Kazaross-XG2" and table.length == 25
    assert "GNU Backgammon" in table.source


def test_met_symmetry_mwc_a_b_plus_mwc_b_a_is_one():
    table = kazaross_xg2()
    for a in range(1, 26):
        for b in range(1, 26):
            assert table.mwc(a, b) + table.mwc(b, a) == pytest.approx(1.0, abs=2e-5)
        assert table.mwc(a, a) == 0.5


def test_met_rises_with_the_opponents_away_and_falls_with_ones_own():
    pre = kazaross_xg2().pre_crawford
    assert np.all(np.diff(pre, axis=1) > 0)
    assert np.all(np.diff(pre, axis=0) < 0)
    assert np.all(np.diff(kazaross_xg2().post_crawford) < 0)


@pytest.mark.parametrize(
    "away, opponent_away, published",
    [
        (1, 2, 0.67736), (2, 4, 0.66870), (3, 5, 0.64795), (7, 7, 0.5),
        (11, 3, 0.105583), (10, 3, 0.129362), (25, 1, 0.00095),
    ],
)
def test_published_kazaross_xg2_figures(away, opponent_away, published):
    """Spot checks against met/Kazaross-XG2.xml as distributed with GNU Backgammon."""
    assert kazaross_xg2().mwc(away, opponent_away) == published


def test_post_crawford_lookups_for_trailer_and_leader():
    table = kazaross_xg2()
    assert table.mwc(2, 1, post_crawford=True) == 0.48803
    assert table.mwc(1, 2, post_crawford=True) == pytest.approx(1 - 0.48803)
    assert table.mwc(1, 1, post_crawford=True) == 0.5
    assert table.mwc(3, 1, post_crawford=True) == 0.32264


def test_won_and_lost_matches():
    table = kazaross_xg2()
    assert table.mwc(0, 5) == 1.0 and table.mwc(-2, 5) == 1.0
    assert table.mwc(5, 0) == 0.0
    with pytest.raises(InvalidMatchStateError):
        table.mwc(0, 0)


def test_scores_beyond_the_table_raise_a_clear_error():
    with pytest.raises(InvalidMatchStateError, match="covers up to 25-away; this score needs 26-away"):
        kazaross_xg2().mwc(26, 3)


def test_post_crawford_needs_a_player_one_away():
    with pytest.raises(InvalidMatchStateError, match="one player is 1-away"):
        kazaross_xg2().mwc(3, 4, post_crawford=True)


def test_json_round_trip(tmp_path):
    path = tmp_path / "met.json"
    kazaross_xg2().save(path)
    loaded = load_met(path)
    assert loaded.name == "Kazaross-XG2"
    np.testing.assert_allclose(loaded.pre_crawford, kazaross_xg2().pre_crawford, atol=1e-12)
    np.testing.assert_allclose(loaded.post_crawford, kazaross_xg2().post_crawford, atol=1e-12)


def test_loads_gnu_backgammon_xml_with_its_stray_closing_tag():
    table = load_met(DATA / "met_gnubg_three_away.xml")
    assert table.name == "Three-away test table" and table.length == 3
    assert table.mwc(1, 2) == 0.7 and table.mwc(3, 2) == 0.4
    assert table.mwc(2, 1, post_crawford=True) == 0.49


def test_parametrized_gnu_backgammon_tables_are_refused(tmp_path):
    text = (DATA / "met_gnubg_three_away.xml").read_text().replace(
        '<pre-crawford-table type="explicit">', '<pre-crawford-table type="Zadeh">'
    )
    path = tmp_path / "zadeh.xml"
    path.write_text(text)
    with pytest.raises(InvalidMatchEquityTableError, match="only explicit tables"):
        load_met(path)


def _write_json(tmp_path, pre, post):
    path = tmp_path / "met.json"
    path.write_text(json.dumps({"pre_crawford": pre, "post_crawford": post}))
    return path


@pytest.mark.parametrize(
    "pre, post, message",
    [
        ([[0.5, 0.7], [0.3, 0.5], [0.1, 0.1]], [0.5, 0.4], "rows differ in length|square"),
        ([[0.5, 0.7], [0.4, 0.5]], [0.5, 0.4], r"MWC\(1-away, 2-away\) \+ MWC\(2-away, 1-away\)"),
        ([[0.5, 1.7], [-0.7, 0.5]], [0.5, 0.4], "outside 0..1"),
        ([[0.5, 0.7], [0.3, 0.5]], [0.5], "post-Crawford row must have 2 values"),
        ([[0.5, 0.7], [0.3, 0.5]], [0.4, 0.4], "post-Crawford 1-away against 1-away must be 0.5"),
        ([[0.5, "x"], [0.3, 0.5]], [0.5, 0.4], "numbers only"),
    ],
)
def test_malformed_tables_raise_typed_errors(tmp_path, pre, post, message):
    with pytest.raises(InvalidMatchEquityTableError, match=message):
        load_met(_write_json(tmp_path, pre, post))


def test_files_that_are_no_table_raise_typed_errors(tmp_path):
    with pytest.raises(InvalidMatchEquityTableError, match="cannot read"):
        load_met(tmp_path / "missing.json")
    (tmp_path / "plain.txt").write_text("hello")
    with pytest.raises(InvalidMatchEquityTableError, match="not a match equity table"):
        load_met(tmp_path / "plain.txt")
    (tmp_path / "broken.json").write_text("{not json")
    with pytest.raises(InvalidMatchEquityTableError, match="not valid JSON"):
        load_met(tmp_path / "broken.json")
    (tmp_path / "partial.json").write_text('{"pre_crawford": [[0.5]]}')
    with pytest.raises(InvalidMatchEquityTableError, match="lacks post_crawford"):
        load_met(tmp_path / "partial.json")


def test_tables_from_arrays_are_read_only():
    table = MatchEquityTable([[0.5, 0.6], [0.4, 0.5]], [0.5, 0.45], name="mine")
    assert table.mwc(2, 1) == 0.4
    with pytest.raises(ValueError):
        table.pre_crawford[0, 1] = 0.9

"""GNU Backgammon Position ID and Match ID: known vectors, round trips, bad input."""

import pytest
from hypothesis import given

from bgengine import (
    DiceError,
    InvalidMatchStateError,
    InvalidNotationError,
    InvalidPositionError,
    MatchState,
    Position,
    format_gnubg_ids,
    parse_gnubg_ids,
)
from bgengine.formats.gnubg_id import decode_match_id, encode_match_id
from strategies import match_states, positions

OPENING_ID = "4HPwATDgc/ABMA"


def test_opening_position_id():
    assert Position.initial().gnubg_id() == OPENING_ID
    assert Position.from_gnubg_id(OPENING_ID) == Position.initial()


def test_match_id_example_score_2_4_of_9_cube_2_owned_by_player_0_player_1_rolled_52():
    match = decode_match_id("QYkqASAAIAAA")
    assert match == MatchState(
        match_length=9, score=(2, 4), cube_value=2, cube_owner=0, on_roll=1, dice=(5, 2)
    )
    assert encode_match_id(match) == "QYkqASAAIAAA"


def test_asymmetric_position_id_decodes_point_by_point():
    # Built by hand from the bit layout: opponent (first) has 2 checkers on their
    # 1-point and 1 on the bar; the player on roll has 3 on their 6-point, 1 on 13, 2 on bar.
    bits = "110" + "0" * 23 + "10"  # opponent: point 1 twice, points 2..24 empty, bar once
    bits += "0" * 5 + "1110" + "0" * 6 + "10" + "0" * 11 + "110"  # mover: 6x3, 13x1, bar x2
    key = int(bits[::-1], 2)
    import base64

    text = base64.b64encode(key.to_bytes(10, "little")).decode()[:14]
    p = Position.from_gnubg_id(text)
    assert p.points() == ({6: 3, 13: 1}, {1: 2}, 2, 1)
    assert p[24] == -2 and p[0] == -1 and p[25] == 2
    assert p.gnubg_id() == text


def test_known_bearoff_position_id():
    # Both sides with all 15 on their own 1-point is as simple as IDs get.
    p = Position.from_points({1: 15}, {1: 15})
    assert p == Position.from_gnubg_id(p.gnubg_id())
    assert p.gnubg_id()[0] == "/"  # the low six bits are all checkers: 111111


@given(positions())
def test_position_id_round_trip(position):
    text = position.gnubg_id()
    assert len(text) == 14
    assert Position.from_gnubg_id(text) == position


def _without_money_options(match):
    """The Match ID does not carry beavers."""
    return match.with_changes(beavers=False)


@given(match_states())
def test_match_id_round_trip(match):
    assert decode_match_id(encode_match_id(match)) == _without_money_options(match)


@given(positions(), match_states())
def test_combined_ids_round_trip(position, match):
    expected = (position, _without_money_options(match))
    assert parse_gnubg_ids(format_gnubg_ids(position, match)) == expected


def test_combined_ids_accept_gnubg_labels():
    position, match = parse_gnubg_ids(f"Position ID: {OPENING_ID} Match ID: QYkqASAAIAAA")
    assert position == Position.initial() and match is not None and match.score == (2, 4)


def test_bare_position_id_has_no_match_state():
    assert parse_gnubg_ids(OPENING_ID) == (Position.initial(), None)


# ----- bad input --------------------------------------------------------------------


def test_position_id_fails_wrong_length():
    with pytest.raises(InvalidNotationError, match="14 characters"):
        Position.from_gnubg_id("4HPwATDgc/AB")


def test_position_id_fails_bad_character():
    with pytest.raises(InvalidNotationError, match="outside base64: '!'"):
        Position.from_gnubg_id("4HPwATDgc!ABMA")


def test_position_id_fails_too_many_checkers():
    with pytest.raises(InvalidPositionError, match="at most 15"):
        Position.from_gnubg_id("/////////////w")  # all 80 key bits set


def test_position_id_fails_point_held_by_both_sides():
    bits = "10" + "0" * 24  # opponent: one checker on their 1-point (our 24)
    bits += "0" * 23 + "10" + "0"  # mover: one checker on their 24-point
    key = int(bits[::-1], 2)
    import base64

    text = base64.b64encode(key.to_bytes(10, "little")).decode()[:14]
    with pytest.raises(InvalidPositionError, match="both sides"):
        Position.from_gnubg_id(text)


def test_position_id_fails_when_not_a_string():
    with pytest.raises(InvalidNotationError, match="must be a string"):
        Position.from_gnubg_id(12345)  # type: ignore[arg-type]


def test_match_id_fails_wrong_length():
    with pytest.raises(InvalidNotationError, match="12 characters"):
        decode_match_id("QYkqASAAIAA")


def test_match_id_fails_score_beyond_match_length():
    import base64

    # Centred cube, game playing, a 9-point match, player 0 at 12 points.
    key = 0b11 << 4 | 1 << 8 | 9 << 21 | 12 << 36
    text = base64.b64encode(key.to_bytes(9, "little")).decode()
    with pytest.raises(InvalidMatchStateError, match="12 in a 9-point match"):
        decode_match_id(text)


def test_match_id_fails_half_rolled_dice():
    import base64

    key = 0b11 << 4 | 1 << 8 | 3 << 15  # centred cube, playing, die 1 = 3, die 2 = 0
    text = base64.b64encode(key.to_bytes(9, "little")).decode()
    with pytest.raises(DiceError, match="not a roll"):
        decode_match_id(text)


def test_combined_ids_fail_wrong_field_count():
    with pytest.raises(InvalidNotationError, match="positionid:matchid"):
        parse_gnubg_ids(f"{OPENING_ID}:QYkqASAAIAAA:extra")


def test_match_id_reads_gnubg_1_07_jacoby_off_bit_in_a_match():
    # GNU Backgammon 1.07 prints this for the example state: bit 66 set ("Jacoby off").
    import base64

    key = int.from_bytes(base64.b64decode("QYkqASAAIAAA"), "little") | 1 << 66
    text = base64.b64encode(key.to_bytes(9, "little")).decode()
    assert decode_match_id(text) == decode_match_id("QYkqASAAIAAA")


def test_match_id_carries_jacoby_in_money_play():
    assert decode_match_id(encode_match_id(MatchState(jacoby=True))).jacoby
    assert not decode_match_id(encode_match_id(MatchState(jacoby=False))).jacoby
    # A money Match ID without the 67th bit (the manual's 66 bits) reads as Jacoby on,
    # as GNU Backgammon 1.07 reads it.
    import base64

    key = 0b11 << 4 | 1 << 8
    assert decode_match_id(base64.b64encode(key.to_bytes(9, "little")).decode()).jacoby


def test_match_id_fails_bits_beyond_the_key():
    import base64

    key = 0b11 << 4 | 1 << 8 | 1 << 67
    with pytest.raises(InvalidNotationError, match="beyond the 67-bit key"):
        decode_match_id(base64.b64encode(key.to_bytes(9, "little")).decode())


def test_position_id_with_bits_set_beyond_the_80_bit_key_is_rejected():
    with pytest.raises(InvalidNotationError, match="bits set beyond its key"):
        parse_gnubg_ids("4HPwATDgc/ABMB")


def test_empty_match_id_after_the_colon_is_rejected():
    with pytest.raises(InvalidNotationError, match="positionid:matchid"):
        parse_gnubg_ids("4HPwATDgc/ABMA:")

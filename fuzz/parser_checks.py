"""The contract every bgengine parser keeps, one check per fuzz target.

Each check takes raw bytes (what a fuzzer makes), feeds them to one parser and asserts
the contract: the parser either raises a typed error (a ``BgEngineError``, which is
also a ``ValueError``) or returns a valid object that round-trips, i.e. formatted
back and parsed again it gives the same object. Anything else escapes the check: an
``AssertionError`` for a broken round trip, any other exception as raised. The fuzz
scripts beside this file and ``tests/test_fuzz_corpus.py`` share these checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from bgengine import BgEngineError, Move, Position, format_mat, format_sgf, parse_mat, parse_sgf
from bgengine.formats import user_input
from bgengine.formats.gnubg_id import (
    decode_match_id,
    decode_position_id,
    encode_match_id,
    encode_position_id,
    format_gnubg_ids,
    parse_gnubg_ids,
)
from bgengine.formats.xgid import format_xgid, parse_xgid
from bgengine.game.match import Match
from bgengine.match_state import MatchState

T = TypeVar("T")

#: Positions the move target plays on: the opening, a middle game with blots and a
#: checker on the bar, a bear-off with a blot to hit, and a race.
MOVE_POSITIONS = (
    Position.initial(),
    Position.from_points({24: 1, 13: 4, 8: 3, 6: 4, 5: 1, 2: 1}, {24: 2, 13: 5, 8: 3, 6: 4, 4: 1}, bar=1),
    Position.from_points({6: 3, 5: 3, 4: 2, 3: 2, 2: 3}, {24: 1, 6: 5, 5: 4, 4: 3}),
    Position.from_points({12: 2, 9: 3, 6: 4, 3: 2}, {11: 2, 8: 3, 7: 3, 5: 4}),
)


def text_of(data: bytes) -> str:
    """The fuzzer's bytes as the text a user could have pasted (bad UTF-8 replaced)."""
    return data.decode("utf-8", errors="replace")


def parsed(parse: Callable[..., T], *args: Any) -> T | None:
    """``parse(*args)``, or None when it refuses the input with a typed error."""
    try:
        return parse(*args)
    except BgEngineError as error:
        assert isinstance(error, ValueError), f"{type(error).__name__} is not a ValueError"
        return None


def _same_position(position: Position) -> None:
    """A valid position writes a Position ID that reads back as the same position."""
    again = decode_position_id(encode_position_id(position))
    assert again == position, f"{position!r} came back as {again!r}"


def _same_match_state(match: MatchState) -> None:
    again = decode_match_id(encode_match_id(match))
    assert again == match, f"{match!r} came back as {again!r}"


# ----- the targets --------------------------------------------------------------------


def check_position_id(data: bytes) -> None:
    """A Position ID that parses is canonical: it is the ID its position writes."""
    text = text_of(data)
    position = parsed(decode_position_id, text)
    if position is not None:
        written = encode_position_id(position)
        assert written == text, f"Position ID {text!r} reads as a position whose ID is {written!r}"
        _same_position(position)


def check_match_id(data: bytes) -> None:
    """A Match ID that parses gives a MatchState whose own ID reads back the same."""
    match = parsed(decode_match_id, text_of(data))
    if match is not None:
        _same_match_state(match)


def check_gnubg_ids(data: bytes) -> None:
    """``posid``, ``posid:matchid`` or gnubg's labelled form, read and written back."""
    result = parsed(parse_gnubg_ids, text_of(data))
    if result is not None:
        position, match = result
        written = encode_position_id(position) if match is None else format_gnubg_ids(position, match)
        assert parse_gnubg_ids(written) == (position, match), f"{written!r} does not read back as it was written"


def check_xgid(data: bytes) -> None:
    """An XGID that parses writes an XGID that reads back as the same position and match."""
    result = parsed(parse_xgid, text_of(data))
    if result is not None:
        written = format_xgid(*result)
        assert parse_xgid(written) == result, f"{written!r} does not read back as it was written"
        _same_position(result[0])


def check_move(data: bytes) -> None:
    """Move text: a parsed move writes text that parses to the same move (its hops in any
    order are the same move); played with fuzzed dice on a fixed position, it gives one of
    that roll's legal children, and the legal move it matched reads back from its text.

    The first byte picks the position (its low bits) and whether the dice come as text
    (its high bit); the next two bytes are the dice, as digits or as numbers 0..7; the
    rest is the move text.
    """
    if len(data) < 3:
        data = data.ljust(3, b"\0")
    position = MOVE_POSITIONS[data[0] % len(MOVE_POSITIONS)]
    dice: Any = data[1:3].decode("latin-1") if data[0] & 0x80 else (data[1] % 8, data[2] % 8)
    text = text_of(data[3:])
    move = parsed(Move.parse, text)
    if move is None:
        return
    written = str(move)
    again = Move.parse(written)
    assert again == move and str(again) == written, f"{text!r} -> {written!r} -> {str(again)!r}"
    assert Move(move.steps[::-1]) == move, f"{written!r} is another move with its hops reversed"
    after = parsed(position.play, move, dice)
    if after is not None:
        moves = position.legal_moves(dice)
        assert after in moves, f"{written!r} with {dice!r} gives a position that is no legal child"
        assert moves.play(written) == after, f"{written!r} as text plays differently from the Move"
        listed = moves.move(moves.index(move))
        assert Move.parse(str(listed)) == listed, f"the listed move {str(listed)!r} reads back as another"
        _same_position(after)


def check_mat(data: bytes) -> None:
    """A .mat text that parses writes a .mat text that reads back as the same match."""
    _check_match_file(parse_mat, format_mat, data)


def check_sgf(data: bytes) -> None:
    """An .sgf text that parses writes an .sgf text that reads back as the same match."""
    _check_match_file(parse_sgf, format_sgf, data)


def _check_match_file(parse: Callable[[str], Match], write: Callable[[Match], str], data: bytes) -> None:
    match = parsed(parse, text_of(data))
    if match is None:
        return
    written = write(match)
    again = parse(written)
    assert match_record(again) == match_record(match), "the match read back differs from the one written"
    assert write(again) == written, "writing the match read back gives other text"


def match_record(match: Match) -> tuple[object, ...]:
    """What a match file records of a match: length, score and every game's actions and outcome."""
    games = tuple((game.starting_state, game.actions, game.outcome) for game in match.games if len(game))
    return match.length, match.score, games


def check_user_input(data: bytes) -> None:
    """What users type at the command line: a position, dice, a score or probabilities.

    The first byte picks the reader; the rest is the text.
    """
    if not data:
        return
    reader = USER_INPUT_READERS[data[0] % len(USER_INPUT_READERS)]
    reader(text_of(data[1:]))


def _check_read_position(text: str) -> None:
    result = parsed(user_input.read_position, text)
    if result is None:
        return
    position, match = result
    # Written back in the format it was read from: each carries fields the other lacks
    # (an XGID no resignation, a Match ID no maximum cube above 64).
    if match is None:
        written = encode_position_id(position)
    elif parsed(parse_xgid, text.strip()) is not None:  # read_position strips any length of space
        written = format_xgid(position, match)
    else:
        written = format_gnubg_ids(position, match)
    assert user_input.read_position(written) == result, f"{text!r} -> {written!r} does not read back"


def _check_parse_dice(text: str) -> None:
    dice = parsed(user_input.parse_dice, text)
    if dice is not None:
        assert all(type(die) is int and 1 <= die <= 6 for die in dice), f"{text!r} gives dice {dice!r}"
        assert user_input.parse_dice(f"{dice[0]}-{dice[1]}") == dice


def _check_parse_score(text: str) -> None:
    score = parsed(user_input.parse_score, text)
    if score is not None:
        assert all(type(points) is int and points >= 0 for points in score), f"{text!r} gives score {score!r}"
        assert user_input.parse_score(f"{score[0]}-{score[1]}") == score


def _check_parse_probabilities(text: str) -> None:
    values = parsed(user_input.parse_probabilities, text)
    if values is not None:
        assert len(values) == 5 and all(0.0 <= value <= 1.0 for value in values), f"{text!r} gives {values!r}"
        assert user_input.parse_probabilities(",".join(repr(value) for value in values)) == values


USER_INPUT_READERS: tuple[Callable[[str], None], ...] = (
    _check_read_position,
    _check_parse_dice,
    _check_parse_score,
    _check_parse_probabilities,
)

#: Every target: its name (the fuzz script is ``fuzz_<name>.py``, its corpus
#: ``corpus/<name>/``) and its check.
CHECKS: dict[str, Callable[[bytes], None]] = {
    "position_id": check_position_id,
    "match_id": check_match_id,
    "gnubg_ids": check_gnubg_ids,
    "xgid": check_xgid,
    "move": check_move,
    "mat": check_mat,
    "sgf": check_sgf,
    "user_input": check_user_input,
}

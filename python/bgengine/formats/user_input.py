"""Reading what users type: a position in any supported format, dice, a match score.

Used by the command line; each function raises a typed error from ``bgengine.errors``
whose message says what is wrong with the text.
"""

from __future__ import annotations

import re

from bgengine.dice import checked_roll
from bgengine.errors import DiceError, InvalidMatchStateError, InvalidNotationError, checked_text, quoted
from bgengine.formats.gnubg_id import parse_gnubg_ids
from bgengine.match_state import MatchState
from bgengine.position import Position
from bgengine.formats.xgid import parse_xgid

_XGID_FIELDS = 10
_SCORE = re.compile(r"([0-9]{1,5})\s*[-:]\s*([0-9]{1,5})")
#: A probability as typed: ASCII digits, an optional point and exponent (no "_", no other scripts).
_PROBABILITY = re.compile(r"[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]{1,3})?")
#: Longer than any position, dice, score or probabilities a user types, with room for spaces.
USER_TEXT_LIMIT = 300


def read_position(text: str) -> tuple[Position, MatchState | None]:
    """Position and, when the text carries one, match state from an XGID, GNU Backgammon
    ``posid:matchid`` or a bare 14-character Position ID (then the match state is None)."""
    body = checked_text(text, "position", USER_TEXT_LIMIT).strip()
    if not body:
        raise InvalidNotationError("expected an XGID, a GNU Backgammon 'posid:matchid' or a Position ID, got nothing")
    if body[:5].upper() == "XGID=":
        return parse_xgid("XGID=" + body[5:])  # the prefix in any case, as people type it
    if body.count(":") == _XGID_FIELDS - 1:
        return parse_xgid(body)
    return parse_gnubg_ids(body)


def parse_dice(text: str) -> tuple[int, int]:
    """Two dice from ``31``, ``3-1``, ``3,1`` or ``3 1``; each die 1..6, in the order given."""
    if not isinstance(text, str):
        raise DiceError(f"dice are text such as 31 or 3-1, got {text!r}")
    return checked_roll(text, "dice")


def parse_score(text: str) -> tuple[int, int]:
    """A score ``A-B`` in points won: the player on roll's first, then the opponent's."""
    match = _SCORE.fullmatch(checked_text(text, "score", USER_TEXT_LIMIT).strip())
    if match is None:
        raise InvalidNotationError(f"score must be two whole numbers A-B such as 2-4, got {quoted(text)}")
    return int(match.group(1)), int(match.group(2))


def parse_probabilities(text: str) -> tuple[float, float, float, float, float]:
    """Five numbers ``win,win_gammon,win_backgammon,lose_gammon,lose_backgammon`` (0..1, the
    player on roll's view, gammons including backgammons), separated by commas or spaces."""
    parts = checked_text(text, "probabilities", USER_TEXT_LIMIT).replace(",", " ").split()
    values = [float(part) for part in parts if _PROBABILITY.fullmatch(part)]
    if len(parts) != 5 or len(values) != 5 or not all(0.0 <= v <= 1.0 for v in values):
        raise InvalidNotationError(
            "probabilities are five numbers 0..1: win,win_gammon,win_backgammon,lose_gammon,lose_backgammon,"
            f" got {quoted(text)}"
        )
    win, win_g, win_bg, lose_g, lose_bg = values
    return win, win_g, win_bg, lose_g, lose_bg


def with_match_options(
    match: MatchState | None,
    *,
    length: int | None = None,
    score: tuple[int, int] | None = None,
    crawford: bool | None = None,
) -> MatchState:
    """The match state to use: the one read with the position, changed by --match, --score
    and --crawford.

    ``score`` is from the player on roll's side; without a match length (from the position
    or from ``length``) it is an error, since money play has no score. A new score drops
    the position's Crawford flag unless ``crawford`` says otherwise.
    """
    base = match if match is not None else MatchState()
    changes: dict[str, object] = {}
    if length is not None:
        if length < 1:
            raise InvalidMatchStateError(f"match length must be at least 1 point, got {length}")
        changes["match_length"] = length
        if score is None:
            changes["score"] = (0, 0)
        if base.match_length == 0:  # money-only rules do not carry over into a match
            changes.update(jacoby=False, beavers=False)
    if score is not None:
        if not (length or base.match_length):
            raise InvalidMatchStateError("a score needs a match length: give --match LENGTH (money play has no score)")
        on_roll_score, opponent_score = score
        final_length = length or base.match_length
        for side, points in (("player on roll", on_roll_score), ("opponent", opponent_score)):
            if points >= final_length:
                raise InvalidMatchStateError(
                    f"the {side} has {points} points in a {final_length}-point match; scores must be below the length"
                )
        changes["score"] = (on_roll_score, opponent_score) if base.on_roll == 0 else (opponent_score, on_roll_score)
    if crawford is not None:
        changes["crawford"] = crawford
    elif "score" in changes and base.crawford:
        changes["crawford"] = False
    return base.with_changes(**changes) if changes else base

"""eXtreme Gammon's XGID: ``XGID=<26 chars>:cube:cubepos:turn:dice:score1:score2:rules:matchlen:maxcube``.

The 26 characters are seen from the bottom player X (our player 0): character 0 is the
top player O's bar, 1..24 X's points 1..24, 25 X's bar; ``-`` is empty, ``A``..``O`` are
1..15 checkers of X, ``a``..``o`` of O. ``cube`` and ``maxcube`` are log2 values,
``cubepos`` 0 centred, 1 X owns, -1 O owns; ``turn`` 1 X on roll, -1 O; ``dice`` ``00``
before the roll, ``D`` when the player on roll has doubled, else the two dice; scores
are X's then O's; ``rules`` is the Crawford flag in a match, in money 1 = Jacoby and
2 = beavers (added).
"""

from __future__ import annotations

import re

import numpy as np

from bgengine.dice import checked_roll
from bgengine.errors import InvalidMatchStateError, InvalidNotationError, checked_text, quoted
from bgengine.match_state import FORMAT_MAX_CUBE, MatchState
from bgengine.position import Position

_PREFIX = "XGID="
_NUM_FIELDS = 10
_POSITION_CHARS = re.compile(r"[-A-Oa-o]{26}")
#: Longer than any legal XGID (about 60 characters), with room for spaces around it.
XGID_LIMIT = 200
_INTEGER = re.compile(r"-?[0-9]{1,6}")
_JACOBY, _BEAVERS = 1, 2


def _checker_char(count: int) -> str:
    if count == 0:
        return "-"
    return chr(ord("A") + count - 1) if count > 0 else chr(ord("a") - count - 1)


def _checker_count(char: str) -> int:
    if char == "-":
        return 0
    return ord(char) - ord("A") + 1 if char.isupper() else -(ord(char) - ord("a") + 1)


def _integer_field(text: str, name: str, low: int, high: int) -> int:
    if not _INTEGER.fullmatch(text):
        raise InvalidNotationError(f"XGID {name} must be an integer, got {quoted(text)}")
    value = int(text)
    if not low <= value <= high:
        raise InvalidMatchStateError(f"XGID {name} must be in {low}..{high}, got {value}")
    return value


def parse_xgid(text: str) -> tuple[Position, MatchState]:
    """The (Position, MatchState) that an XGID describes; raises a typed error on bad input."""
    body = checked_text(text, "XGID", XGID_LIMIT).strip()
    if body.startswith(_PREFIX):
        body = body[len(_PREFIX):]
    fields = body.split(":")
    if len(fields) != _NUM_FIELDS:
        raise InvalidNotationError(f"XGID has {_NUM_FIELDS} fields separated by ':', got {len(fields)}: {quoted(text)}")
    board_text, cube, cube_pos, turn, dice, score_x, score_o, rules, length, max_cube = fields
    if not _POSITION_CHARS.fullmatch(board_text):
        raise InvalidNotationError(
            f"XGID position must be 26 characters from '-', 'A'..'O', 'a'..'o', got {quoted(board_text)}"
        )
    x_view = Position([_checker_count(c) for c in board_text])
    cube_log = _integer_field(cube, "cube", 0, 15)
    owner_code = _integer_field(cube_pos, "cube position", -1, 1)
    turn_code = _integer_field(turn, "turn", -1, 1)
    if turn_code == 0:
        raise InvalidMatchStateError("XGID turn must be 1 (X on roll) or -1 (O on roll), got 0")
    match_length = _integer_field(length, "match length", 0, 2**15 - 1)
    rules_code = _integer_field(rules, "rules", 0, 3)
    max_cube_log = _integer_field(max_cube, "max cube", 0, 15)
    on_roll = 0 if turn_code == 1 else 1
    dice_value: tuple[int, int] | None = None
    doubled = False
    if dice == "D":
        doubled = True
    elif dice in ("B", "R"):
        raise InvalidNotationError("XGID dice 'B'/'R' (beaver, raccoon pending) are not supported")
    elif re.fullmatch(r"[0-6]{2}", dice):
        if dice != "00":
            dice_value = checked_roll(dice, "XGID dice")
    else:
        raise InvalidNotationError(f"XGID dice must be '00', 'D' or two dice 1..6, got {quoted(dice)}")
    match = MatchState(
        match_length=match_length,
        score=(
            _integer_field(score_x, "score of X", 0, 2**31),
            _integer_field(score_o, "score of O", 0, 2**31),
        ),
        cube_value=1 << cube_log,
        cube_owner={0: None, 1: 0, -1: 1}[owner_code],
        on_roll=on_roll,
        crawford=bool(rules_code) if match_length else False,
        jacoby=bool(rules_code & _JACOBY) if not match_length else False,
        beavers=bool(rules_code & _BEAVERS) if not match_length else False,
        dice=dice_value,
        double_offered=doubled,
        max_cube=1 << max_cube_log,
    )
    if match_length and rules_code > 1:
        raise InvalidMatchStateError(f"XGID rules field in a match is the Crawford flag 0 or 1, got {rules_code}")
    position = x_view if on_roll == 0 else x_view.flip()
    return position, match


def format_xgid(position: Position, match: MatchState) -> str:
    """The XGID of ``position`` (seen from the player on roll, ``match.on_roll``) with ``match``."""
    x_view = position if match.on_roll == 0 else position.flip()
    board_text = "".join(_checker_char(count) for count in np.asarray(x_view).tolist())
    owner_code = {None: 0, 0: 1, 1: -1}[match.cube_owner]
    if match.double_offered:
        dice = "D"
    elif match.dice:
        dice = f"{match.dice[0]}{match.dice[1]}"
    else:
        dice = "00"
    if match.match_length:
        rules = int(match.crawford)
    else:
        rules = (_JACOBY if match.jacoby else 0) | (_BEAVERS if match.beavers else 0)
    assert match.max_cube <= FORMAT_MAX_CUBE
    fields = [
        board_text,
        match.cube_value.bit_length() - 1,
        owner_code,
        1 if match.on_roll == 0 else -1,
        dice,
        match.score[0],
        match.score[1],
        rules,
        match.match_length,
        match.max_cube.bit_length() - 1,
    ]
    return _PREFIX + ":".join(str(f) for f in fields)

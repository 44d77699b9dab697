"""GNU Backgammon's Position ID (14 characters) and Match ID (12 characters).

Position ID: an 80-bit key, little-endian, base64 without padding. For the player not
on roll, then the player on roll, each of points 1..24 (numbered from that player's
side) and then the bar gives one 1-bit per checker followed by a 0-bit.

Match ID: a key in 9 bytes (12 characters): cube log2 (4 bits), cube owner (2;
3 = centred), player on roll (1), Crawford (1), game state (3), player to decide (1),
double offered (1), resignation (2), the two dice (3 each), match length, then the
scores of players 0 and 1 (15 bits each): the 66 bits of GNU Backgammon's manual. GNU
Backgammon 1.07 adds a 67th bit, set when the Jacoby rule is off (it sets it in matches
too, where Jacoby does not apply). We read that bit in money play (clear = Jacoby on, as
GNU Backgammon reads it) and ignore it in matches; we write it in money play only, so a
match's ID keeps the manual's 66-bit form. Beavers are not carried.
"""

from __future__ import annotations

import numpy as np

from bgengine.formats._bits import BitReader, BitWriter, decode_base64_key, encode_base64_key
from bgengine.dice import checked_roll
from bgengine.errors import InvalidMatchStateError, InvalidNotationError, InvalidPositionError, checked_text, quoted
from bgengine.match_state import MatchState
from bgengine.position import NUM_CHECKERS, Position

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
_POSITION_KEY_BITS = 80
_CENTRED = 3
_GAME_PLAYING = 1
_MATCH_KEY_BITS = 66  # the manual's fields; bit 66 (0-based) is GNU Backgammon 1.07's "no Jacoby"


def _side_slots(position: Position) -> tuple[list[int], list[int]]:
    """(opponent's counts, mover's counts), each for points 1..24 of its own side then bar."""
    slots = np.frombuffer(position.to_bytes(), dtype=np.int8).tolist()
    mover = [slots[p] if slots[p] > 0 else 0 for p in range(1, 25)] + [slots[25]]
    opponent = [-slots[25 - p] if slots[25 - p] < 0 else 0 for p in range(1, 25)] + [-slots[0]]
    return opponent, mover


def encode_position_id(position: Position) -> str:
    """The Position ID of ``position`` (seen from the player on roll)."""
    writer = BitWriter()
    for side in _side_slots(position):
        for count in side:
            writer.write((1 << count) - 1, count + 1)  # count 1-bits then a 0-bit
    return encode_base64_key(writer.key, 10, POSITION_ID_LENGTH)


#: Longer than any legal "Position ID: ... Match ID: ..." text, with room for spaces.
GNUBG_IDS_LIMIT = 200


def decode_position_id(text: str) -> Position:
    """The Position for a 14-character Position ID; raises on bad text or impossible boards."""
    key = decode_base64_key(text, POSITION_ID_LENGTH, "Position ID")
    if key >> _POSITION_KEY_BITS:
        raise InvalidNotationError(f"Position ID {text!r} has bits set beyond the 80-bit key")
    sides: list[list[int]] = []
    bit = 0
    for side_name in ("opponent", "player on roll"):
        counts = []
        total = 0
        for _slot in range(25):
            count = 0
            while bit < _POSITION_KEY_BITS and (key >> bit) & 1:
                count += 1
                bit += 1
            total += count
            if total > NUM_CHECKERS:
                raise InvalidPositionError(
                    f"Position ID {text!r} gives the {side_name} more than 15 checkers; at most 15"
                )
            if bit >= _POSITION_KEY_BITS:
                raise InvalidNotationError(f"Position ID {text!r} ends before the last slot of the {side_name}")
            bit += 1  # the 0-bit closing the slot
            counts.append(count)
        sides.append(counts)
    if key >> bit:
        raise InvalidNotationError(f"Position ID {text!r} has bits set after the last slot")
    opponent, mover = sides
    board = [0] * 26
    for point in range(1, 25):
        board[point] = mover[point - 1]
        theirs = opponent[24 - point]  # opponent's point 25 - point
        if theirs and board[point]:
            raise InvalidPositionError(
                f"Position ID {text!r} puts both sides on point {point} of the player on roll"
            )
        if theirs:
            board[point] = -theirs
    board[25] = mover[24]
    board[0] = -opponent[24]
    return Position(board)


def encode_match_id(match: MatchState) -> str:
    """The 12-character Match ID of ``match``."""
    writer = BitWriter()
    writer.write(match.cube_value.bit_length() - 1, 4)
    writer.write(_CENTRED if match.cube_owner is None else match.cube_owner, 2)
    writer.write(match.on_roll, 1)
    writer.write(int(match.crawford), 1)
    writer.write(_GAME_PLAYING, 3)
    writer.write(1 - match.on_roll if match.double_offered else match.on_roll, 1)
    writer.write(int(match.double_offered), 1)
    writer.write(match.resignation_offered, 2)
    dice = match.dice or (0, 0)
    writer.write(dice[0], 3)
    writer.write(dice[1], 3)
    writer.write(match.match_length, 15)
    writer.write(match.score[0], 15)
    writer.write(match.score[1], 15)
    if match.is_money:
        writer.write(int(not match.jacoby), 1)
    return encode_base64_key(writer.key, 9, MATCH_ID_LENGTH)


def decode_match_id(text: str) -> MatchState:
    """The MatchState for a 12-character Match ID; raises on bad text or impossible states.

    The game-state field (not started, playing, over, resigned, dropped) is checked to
    be one of its five values but not kept: a MatchState describes a game in play.
    """
    key = decode_base64_key(text, MATCH_ID_LENGTH, "Match ID")
    if key >> (_MATCH_KEY_BITS + 1):
        raise InvalidNotationError(f"Match ID {text!r} has bits set beyond the 67-bit key")
    reader = BitReader(key)
    cube_log = reader.read(4)
    owner_bits = reader.read(2)
    on_roll = reader.read(1)
    crawford = bool(reader.read(1))
    game_state = reader.read(3)
    turn = reader.read(1)
    double_offered = bool(reader.read(1))
    resignation = reader.read(2)
    dice = (reader.read(3), reader.read(3))
    length = reader.read(15)
    score = (reader.read(15), reader.read(15))
    jacoby_off = reader.read(1)
    if owner_bits == 2:
        raise InvalidMatchStateError(f"Match ID {text!r}: cube owner code 2 means nothing")
    if game_state > 4:
        raise InvalidMatchStateError(f"Match ID {text!r}: game state {game_state} means nothing")
    if double_offered and turn == on_roll:
        raise InvalidMatchStateError(f"Match ID {text!r}: a double is offered but the doubler is to decide")
    rolled = None if dice == (0, 0) else checked_roll(dice, f"Match ID {text!r}: dice {dice} are not a roll;")
    return MatchState(
        match_length=length,
        score=score,
        cube_value=1 << cube_log,
        cube_owner=None if owner_bits == _CENTRED else owner_bits,
        on_roll=on_roll,
        crawford=crawford,
        jacoby=not length and not jacoby_off,
        dice=rolled,
        double_offered=double_offered,
        max_cube=max(64, 1 << cube_log),
        resignation_offered=resignation,
    )


def parse_gnubg_ids(text: str) -> tuple[Position, MatchState | None]:
    """``posid``, ``posid:matchid`` (or ``Position ID: ... Match ID: ...``) to Position and MatchState."""
    cleaned = checked_text(text, "GNU Backgammon ID", GNUBG_IDS_LIMIT).strip()
    for label in ("Position ID:", "Match ID:"):
        cleaned = cleaned.replace(label, " ")
    parts = cleaned.replace(":", " ").split()
    if len(parts) not in (1, 2) or (len(parts) == 1 and cleaned.endswith(":")):
        raise InvalidNotationError(f"expected 'positionid' or 'positionid:matchid', got {quoted(text)}")
    position = decode_position_id(parts[0])
    return position, decode_match_id(parts[1]) if len(parts) == 2 else None


def format_gnubg_ids(position: Position, match: MatchState) -> str:
    """``posid:matchid`` as GNU Backgammon prints them."""
    return f"{encode_position_id(position)}:{encode_match_id(match)}"

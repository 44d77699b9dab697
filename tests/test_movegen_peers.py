"""The children of every perft position and roll against bgsage, when it is installed.

bgsage is an independent engine, used here only as an outside measuring stick.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bgengine import Position

bgsage = pytest.importorskip("bgsage")

PERFT = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())
ROLLS = [(int(text[0]), int(text[1])) for text in PERFT["rolls"]]


@pytest.mark.parametrize("entry", PERFT["positions"], ids=lambda entry: entry["name"])
def test_children_match_bgsage(entry):
    position = Position(entry["board"])
    for dice in ROLLS:
        moves = position.legal_moves(dice)
        # bgsage gives the boards after the move from the mover's side (its slot 0 does not
        # follow hit checkers, so points and bar only), and for a pass the unchanged board.
        theirs = [tuple(board[1:]) for board in bgsage.possible_moves(entry["board"], *dice)]
        ours = [tuple(-int(x) for x in row[::-1])[1:] for row in moves.positions]
        assert len(theirs) == len(set(theirs)) == len(ours), dice
        assert set(ours) == set(theirs), dice

"""Perft-style counts: distinct children per roll for a fixed set of positions.

tests/data/perft.json is written by tests/make_perft_data.py from the reference generator.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from bgengine import Position
from bgengine.move import legal_children_batch

PERFT = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())
ROLLS = [(int(text[0]), int(text[1])) for text in PERFT["rolls"]]


@pytest.mark.parametrize("entry", PERFT["positions"], ids=lambda entry: entry["name"])
def test_children_per_roll_match_perft_file(entry):
    position = Position(entry["board"])
    assert [len(position.legal_moves(dice)) for dice in ROLLS] == entry["children"]


def test_batch_children_per_pair_match_perft_file():
    boards = np.repeat([entry["board"] for entry in PERFT["positions"]], len(ROLLS), axis=0)
    dice = np.tile(ROLLS, (len(PERFT["positions"]), 1))
    children, offsets = legal_children_batch(boards, dice)
    expected = [count for entry in PERFT["positions"] for count in entry["children"]]
    assert np.diff(offsets).tolist() == expected
    assert len(children) == PERFT["total_children"]

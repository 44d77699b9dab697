"""Tesauro's PubEval, the standard public benchmark player, for measuring strength.

The published weights ship as ``data/pubeval_weights.json`` (source noted in the file);
the encoding and the move choice live in ``bgcore._pubeval``.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import TYPE_CHECKING

import numpy as np

from bgcore._pubeval import PubEval

from .agents import CubeQuestion

if TYPE_CHECKING:
    from .match_state import MatchState
    from .move import Move, MoveList
    from .position import Position


@functools.lru_cache(maxsize=1)
def pubeval_player() -> PubEval:
    """PubEval with its published contact and race weights (loaded once)."""
    text = resources.files("bgengine").joinpath("data/pubeval_weights.json").read_text()
    data = json.loads(text)
    return PubEval(data["contact"], data["race"])


class PubEvalAgent:
    """PubEval as a player for the game engine (``bgengine.agents.Agent``), for benchmarks.

    Checker play by PubEval's score; it never doubles and always takes.
    """

    def choose_move(self, position: Position, dice: tuple[int, int], state: MatchState, legal: MoveList) -> Move:
        index = pubeval_player().choose(np.asarray(position), np.ascontiguousarray(legal.positions))
        return legal.move(int(index))

    def cube_decision(self, position: Position, state: MatchState, question: CubeQuestion) -> bool:
        return question is CubeQuestion.TAKE

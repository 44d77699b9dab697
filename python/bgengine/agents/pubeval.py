"""PubEval as a player in games, for measuring the engine's strength against a fixed benchmark."""

from __future__ import annotations

import numpy as np

from bgengine.agents.base import CubeQuestion
from bgengine.evaluation.pubeval import pubeval_player
from bgengine.match_state import MatchState
from bgengine.move import Move, MoveList
from bgengine.position import Position


class PubEvalAgent:
    """PubEval as a player for the game engine (``bgengine.agents.base.Agent``), for benchmarks.

    Checker play by PubEval's score; it never doubles and always takes.
    """

    def choose_move(self, position: Position, dice: tuple[int, int], match: MatchState, legal: MoveList) -> Move:
        index = pubeval_player().choose(np.asarray(position), np.ascontiguousarray(legal.positions))
        return legal.move(int(index))

    def cube_decision(self, position: Position, match: MatchState, question: CubeQuestion) -> bool:
        return question is CubeQuestion.TAKE

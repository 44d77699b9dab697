"""The engine's own player for the game engine's agent protocol (``bgengine.agents.Agent``)."""

from __future__ import annotations

from .agents import CubeQuestion
from .evaluate import Evaluator, MoveFilter, default_evaluator, evaluate, rank_legal_moves
from .match_state import MatchState
from .move import Move, MoveList
from .position import Position

#: Money take point without cube ownership: a take is right while the taker's cubeless
#: equity is above -0.5 (the equity of passing, per unit of the doubled stake).
DEAD_CUBE_TAKE_EQUITY = -0.5


class EngineAgent:
    """Plays the best move by the evaluator at ``plies`` (0 is the network alone).

    Cube: until the cube issue brings real cube advice, it never doubles and takes when
    its cubeless equity is above the dead-cube take point (-0.5).
    """

    def __init__(
        self, plies: int = 0, *, evaluator: Evaluator | None = None, move_filter: MoveFilter | None = None
    ) -> None:
        self.plies = plies
        self.evaluator = evaluator or default_evaluator()
        self.move_filter = move_filter

    def choose_move(self, position: Position, dice: tuple[int, int], state: MatchState, legal: MoveList) -> Move:
        ranked = rank_legal_moves(legal, self.plies, evaluator=self.evaluator, move_filter=self.move_filter)
        return ranked[0].move

    def cube_decision(self, position: Position, state: MatchState, question: CubeQuestion) -> bool:
        if question is CubeQuestion.DOUBLE:
            return False
        doubler = evaluate(position, self.plies, evaluator=self.evaluator, move_filter=self.move_filter)
        return -doubler.equity > DEAD_CUBE_TAKE_EQUITY

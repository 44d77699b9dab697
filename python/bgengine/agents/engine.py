"""The engine's own player for the game engine's agent protocol (``bgengine.agents.base.Agent``)."""

from __future__ import annotations

from bgengine.agents.base import CubeQuestion
from bgengine.agents.cube_advised import cube_answer
from bgengine.cube.decision import cube_decision
from bgengine.evaluation.evaluator import Evaluator, MoveFilter, default_evaluator, rank_legal_moves
from bgengine.match_state import MatchState
from bgengine.move import Move, MoveList
from bgengine.position import Position


class EngineAgent:
    """Plays the best move by the evaluator at ``plies`` (0 is the network alone).

    Cube: doubles, takes and passes by ``bgengine.cube_decision`` on the same evaluator's
    cubeless probabilities at ``plies`` (money or the match score of the game).
    """

    def __init__(
        self, plies: int = 0, *, evaluator: Evaluator | None = None, move_filter: MoveFilter | None = None
    ) -> None:
        self.plies = plies
        self.evaluator = evaluator or default_evaluator()
        self.move_filter = move_filter

    def choose_move(self, position: Position, dice: tuple[int, int], match: MatchState, legal: MoveList) -> Move:
        ranked = rank_legal_moves(legal, plies=self.plies, evaluator=self.evaluator, move_filter=self.move_filter)
        return ranked[0].move

    def cube_decision(self, position: Position, match: MatchState, question: CubeQuestion) -> bool:
        """True to double (``DOUBLE``, a double is the proper action) or to take (``TAKE``, the
        proper response is a take or a beaver); ``position`` is the doubler's view."""
        return cube_answer(cube_decision(position, match, plies=self.plies, evaluator=self.evaluator), question)

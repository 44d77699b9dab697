"""An agent that doubles, takes and passes by ``cube_decision``, wrapping any checker player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgengine.agents.base import Agent, CubeQuestion
from bgengine.cube.decision import CubeDecision, cube_decision
from bgengine.match_state import MatchState
from bgengine.cube.met import MatchEquityTable
from bgengine.position import Position

if TYPE_CHECKING:
    from bgengine.evaluation.evaluator import Evaluator
    from bgengine.move import LegalMove, Move, MoveList


def cube_answer(decision: CubeDecision, question: CubeQuestion) -> bool:
    """An agent's answer by ``decision``: double when the proper action is a double (``DOUBLE``);
    take when the proper response is a take or a beaver, which games play as a take (``TAKE``)."""
    if question is CubeQuestion.DOUBLE:
        return decision.action.doubles
    return decision.action.response in ("take", "beaver")


class CubeAdvisedAgent:
    """Plays checkers like ``checker_agent``; answers cube questions with ``cube_decision``.

    Probabilities come from ``evaluator`` at ``plies`` (as ``cube_decision``); without one,
    races and bear-offs use ``bgengine.evaluation.race`` at 0 plies and contact positions the
    engine's network. It doubles when the proper action is a double and takes when the
    proper response is a take (or a beaver, which the game engine plays as a take).
    """

    def __init__(
        self,
        checker_agent: Agent,
        evaluator: Evaluator | None = None,
        *,
        met: MatchEquityTable | None = None,
        cube_efficiency: float | None = None,
        plies: int = 0,
    ) -> None:
        self.checker_agent = checker_agent
        self.plies = plies
        self.evaluator = evaluator
        self.met = met
        self.cube_efficiency = cube_efficiency

    def choose_move(
        self, position: Position, dice: tuple[int, int], match: MatchState, legal: MoveList
    ) -> Move | LegalMove | int:
        return self.checker_agent.choose_move(position, dice, match, legal)

    def cube_decision(self, position: Position, match: MatchState, question: CubeQuestion) -> bool:
        """True to double (``DOUBLE``) or to take (``TAKE``); ``position`` is the doubler's view."""
        decision = cube_decision(
            position, match, plies=self.plies, evaluator=self.evaluator, met=self.met,
            cube_efficiency=self.cube_efficiency,
        )
        return cube_answer(decision, question)

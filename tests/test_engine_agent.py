"""The engine agent and the PubEval agent in the game engine's agent protocol."""

from collections import Counter

import numpy as np

from bgengine import CubeAction, MatchState, Position, cube_decision
from bgengine.agents.base import Agent, CubeQuestion
from bgengine.agents.engine import EngineAgent
from bgengine.evaluation.evaluator import FakeEvaluator, RandomEvaluator, best_move
from bgengine.agents.pubeval import PubEvalAgent
from bgengine.evaluation.pubeval import pubeval_player
from bgengine.agents.play import play_game, play_match


def test_agents_follow_the_protocol():
    assert isinstance(EngineAgent(), Agent)
    assert isinstance(PubEvalAgent(), Agent)


def test_engine_agent_plays_the_best_ranked_move():
    p = Position.initial()
    agent = EngineAgent(evaluator=RandomEvaluator(5))
    chosen = agent.choose_move(p, (5, 2), MatchState(), p.legal_moves((5, 2)))
    assert chosen == best_move(p, (5, 2), evaluator=RandomEvaluator(5)).move


def test_pubeval_agent_plays_pubevals_choice():
    p = Position.initial()
    legal = p.legal_moves((6, 4))
    index = pubeval_player().choose(np.asarray(p), legal.positions)
    assert PubEvalAgent().choose_move(p, (6, 4), MatchState(), legal) == legal.moves[index]


def test_engine_agent_answers_cube_questions_by_cube_decision():
    p = Position.initial()
    cash = FakeEvaluator({p: [0.9, 0.0, 0.0, 0.0, 0.0]}, default=[0.5, 0.1, 0.0, 0.1, 0.0])
    double_take = FakeEvaluator({p: [0.78, 0.0, 0.0, 0.0, 0.0]})
    too_early = FakeEvaluator({p: [0.6, 0.0, 0.0, 0.0, 0.0]})
    money = MatchState()
    for evaluator, action in ((cash, CubeAction.DOUBLE_PASS), (double_take, CubeAction.DOUBLE_TAKE),
                              (too_early, CubeAction.NO_DOUBLE_TAKE)):
        assert cube_decision(p, money, evaluator=evaluator).action is action
        agent = EngineAgent(evaluator=evaluator)
        assert agent.cube_decision(p, money, CubeQuestion.DOUBLE) == action.doubles
        assert agent.cube_decision(p, money, CubeQuestion.TAKE) == (action.response == "take")
    crawford = MatchState(match_length=5, score=(4, 2), crawford=True)
    assert not EngineAgent(evaluator=cash).cube_decision(p, crawford, CubeQuestion.DOUBLE)


def test_engine_agent_doubles_takes_and_passes_in_money_games_and_a_match():
    agent = EngineAgent()
    seen = Counter()
    for seed in range(6):
        game = play_game(agent, agent, seed=seed)
        seen.update(type(a).__name__ for a in game.actions)
        assert game.state.cube_value <= 64
    assert seen["Double"] == seen["Take"] + seen["Pass"]
    assert seen["Take"] > 0 and seen["Pass"] > 0
    in_match: Counter = Counter()
    for seed in range(1, 8):  # a few seeded 3-point matches, until both answers were seen
        match = play_match(agent, agent, 3, seed=seed)
        assert match.is_over
        in_match.update(type(a).__name__ for game in match.games for a in game.actions)
        if in_match["Take"] and in_match["Pass"]:
            break
    assert in_match["Take"] > 0 and in_match["Pass"] > 0


def test_engine_agent_finishes_a_game_against_pubeval():
    game = play_game(EngineAgent(), PubEvalAgent(), seed=3)
    assert game.is_over and game.outcome.points == game.outcome.cube_value * game.outcome.result.value
    assert game.outcome.result.value in (1, 2, 3)

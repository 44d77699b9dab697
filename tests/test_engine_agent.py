"""The engine agent and the PubEval agent in the game engine's agent protocol."""

import numpy as np

from bgengine import MatchState, Position
from bgengine.agents import Agent, CubeQuestion
from bgengine.engine_agent import EngineAgent
from bgengine.evaluate import FakeEvaluator, RandomEvaluator, best_move
from bgengine.pubeval import PubEvalAgent, pubeval_player
from bgengine.selfplay import play_game


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


def test_engine_agent_never_doubles_and_takes_above_the_dead_cube_take_point():
    p = Position.initial()
    doubler_wins_big = FakeEvaluator({p: [0.9, 0.5, 0.0, 0.0, 0.0]})
    doubler_ahead = FakeEvaluator({p: [0.6, 0.1, 0.0, 0.05, 0.0]})
    state = MatchState()
    assert not EngineAgent(evaluator=doubler_ahead).cube_decision(p, state, CubeQuestion.DOUBLE)
    assert not EngineAgent(evaluator=doubler_wins_big).cube_decision(p, state, CubeQuestion.TAKE)
    assert EngineAgent(evaluator=doubler_ahead).cube_decision(p, state, CubeQuestion.TAKE)


def test_engine_agent_finishes_a_game_against_pubeval():
    game = play_game(EngineAgent(), PubEvalAgent(), seed=3)
    assert game.is_over and game.outcome.points in (1, 2, 3)

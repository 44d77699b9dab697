"""The built-in agents: the random one is seeded and legal, the heuristic one does what
its docstring says (hits, fewest blots, bears off, never doubles, always takes)."""

from __future__ import annotations

import pytest
from bgengine import MatchState, Position
from bgengine.agents.base import Agent, CubeQuestion, HeuristicAgent, RandomAgent
from bgengine.move import Move


def test_builtin_agents_follow_the_protocol():
    assert isinstance(RandomAgent(0), Agent) and isinstance(HeuristicAgent(), Agent)


def test_random_agent_same_seed_same_moves():
    position, dice = Position.initial(), (5, 2)
    legal = position.legal_moves(dice)
    agents = (RandomAgent(3), RandomAgent(3))
    picks = [[agent.choose_move(position, dice, MatchState(), legal) for _ in range(20)] for agent in agents]
    assert picks[0] == picks[1]
    assert all(move in legal.moves for move in picks[0])
    assert len(set(picks[0])) > 1


def test_random_agent_never_offers_a_pointless_double():
    agent = RandomAgent(0, double_probability=1.0)
    state = MatchState(match_length=5, score=(4, 2), on_roll=0)
    assert not agent.cube_decision(Position.initial(), state, CubeQuestion.DOUBLE)
    assert agent.cube_decision(Position.initial(), state.with_changes(on_roll=1), CubeQuestion.DOUBLE)


def test_random_agent_probabilities_zero_and_one():
    never = RandomAgent(0, double_probability=0.0, take_probability=0.0)
    always = RandomAgent(0, double_probability=1.0, take_probability=1.0)
    position, state = Position.initial(), MatchState()
    assert not any(never.cube_decision(position, state, question) for question in CubeQuestion)
    assert all(always.cube_decision(position, state, question) for question in CubeQuestion)


@pytest.mark.parametrize("probability", [-0.1, 1.5])
def test_random_agent_refuses_bad_probabilities(probability):
    with pytest.raises(ValueError):
        RandomAgent(0, take_probability=probability)


def test_heuristic_agent_never_doubles_and_always_takes():
    agent, position, state = HeuristicAgent(), Position.initial(), MatchState()
    assert agent.cube_decision(position, state, CubeQuestion.DOUBLE) is False
    assert agent.cube_decision(position, state, CubeQuestion.TAKE) is True


def choose(position: Position, dice: tuple[int, int]) -> Position:
    """The child the heuristic agent picks, seen back from the mover."""
    move = HeuristicAgent().choose_move(position, dice, MatchState(), position.legal_moves(dice))
    return position.play(move, dice).flip()


def test_heuristic_agent_hits_when_it_can():
    # A lone opposing checker on our 5-point (their 20-point); our 6-1 hits it from 11 or 6.
    position = Position.from_points({13: 5, 11: 1, 8: 3, 6: 6}, {20: 1, 1: 14})
    chosen = choose(position, (6, 1))
    assert chosen.points()[3] == 1  # one opposing checker on the bar


def test_heuristic_agent_leaves_the_fewest_blots():
    position = Position.from_points({8: 2, 6: 2}, {24: 2, 13: 13})
    own = choose(position, (2, 2)).points()[0]
    assert all(count >= 2 for count in own.values()), own


def test_heuristic_agent_bears_off_as_many_as_it_can_in_a_race():
    position = Position.from_points({6: 2, 5: 2, 1: 2}, {1: 15})
    chosen = choose(position, (6, 5))
    assert chosen.checkers_off()[0] == 9 + 2


def test_heuristic_agent_returns_a_listed_move():
    position, dice = Position.initial(), (6, 4)
    legal = position.legal_moves(dice)
    assert HeuristicAgent().choose_move(position, dice, MatchState(), legal) in legal.moves
    assert isinstance(legal.moves[0], Move)

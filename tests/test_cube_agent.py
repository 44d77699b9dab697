"""The cube-advised agent: doubles, takes and passes by cube_decision in play."""

from bgengine import CubeAction, MatchState, Position, cube_decision
from bgengine.game.actions import Double, Pass
from bgengine.agents.base import CubeQuestion, HeuristicAgent, RandomAgent
from bgengine.agents.cube_advised import CubeAdvisedAgent
from bgengine.game.record import Game
from bgengine.agents.play import finish_game, play_game

# The player on roll bears off in one roll; the opponent has borne off 12 (no gammon).
SURE_WIN = Position.from_points({1: 2}, opponent={6: 2, 5: 1})
# The same, but the opponent has borne off nothing: playing on wins a gammon.
SURE_GAMMON = Position.from_points({1: 2}, opponent={6: 5, 5: 5, 4: 5})


class FixedEvaluator:
    def __init__(self, probabilities):
        self.probabilities = probabilities

    def evaluate(self, position):
        return self.probabilities


def test_doubles_and_passes_a_sure_win_in_a_bearoff():
    agent = CubeAdvisedAgent(HeuristicAgent())
    assert cube_decision(SURE_WIN).action is CubeAction.DOUBLE_PASS
    assert agent.cube_decision(SURE_WIN, MatchState(), CubeQuestion.DOUBLE) is True
    offered = MatchState(double_offered=True)
    assert agent.cube_decision(SURE_WIN, offered, CubeQuestion.TAKE) is False


def test_plays_on_for_a_sure_gammon():
    agent = CubeAdvisedAgent(HeuristicAgent())
    assert cube_decision(SURE_GAMMON).action is CubeAction.TOO_GOOD_PASS
    assert agent.cube_decision(SURE_GAMMON, MatchState(), CubeQuestion.DOUBLE) is False


class CheckersOnly(HeuristicAgent):
    def cube_decision(self, position, state, question):
        raise AssertionError("the wrapped agent must not be asked cube questions")


def test_contact_positions_without_evaluator_use_the_engines_network():
    agent = CubeAdvisedAgent(CheckersOnly())
    strong = Position.from_points({6: 3, 5: 3, 4: 3, 3: 2, 8: 2, 13: 2}, opponent={23: 2, 6: 4, 5: 4, 4: 5})
    for position in (Position.initial(), strong):
        expected = cube_decision(position)
        assert agent.cube_decision(position, MatchState(), CubeQuestion.DOUBLE) == expected.action.doubles
        offered = MatchState(double_offered=True)
        assert agent.cube_decision(position, offered, CubeQuestion.TAKE) == (expected.action.response == "take")
    assert cube_decision(strong).action.doubles  # so the comparison covers a double too


def test_plies_deepen_the_agents_probabilities():
    from bgengine.evaluation.evaluator import RandomEvaluator

    agent = CubeAdvisedAgent(CheckersOnly(), RandomEvaluator(2), plies=1)
    expected = cube_decision(Position.initial(), plies=1, evaluator=RandomEvaluator(2))
    assert agent.cube_decision(Position.initial(), MatchState(), CubeQuestion.DOUBLE) == expected.action.doubles


def test_an_evaluator_drives_contact_cube_decisions():
    agent = CubeAdvisedAgent(HeuristicAgent(), FixedEvaluator([0.78, 0.0, 0.0, 0.0, 0.0]))
    assert agent.cube_decision(Position.initial(), MatchState(), CubeQuestion.DOUBLE) is True
    assert agent.cube_decision(Position.initial(), MatchState(double_offered=True), CubeQuestion.TAKE) is True


def test_no_double_in_the_crawford_game():
    agent = CubeAdvisedAgent(HeuristicAgent())
    crawford = MatchState(match_length=5, score=(4, 0), crawford=True)
    assert agent.cube_decision(SURE_WIN, crawford, CubeQuestion.DOUBLE) is False


def test_a_game_from_a_won_bearoff_ends_with_double_and_pass():
    game = Game(MatchState(), SURE_WIN)
    agents = (CubeAdvisedAgent(HeuristicAgent()), CubeAdvisedAgent(HeuristicAgent()))
    finish_game(game, agents, dice_source=None)  # no dice are rolled: the cube ends the game
    assert [type(action) for action in game.actions] == [Double, Pass]
    assert game.outcome.winner == 0 and game.outcome.points == 1


def test_self_play_with_cube_advice_finishes():
    agents = [CubeAdvisedAgent(RandomAgent(seed)) for seed in (1, 2)]
    game = play_game(*agents, seed=7)
    assert game.is_over and game.outcome.cube_value <= 64

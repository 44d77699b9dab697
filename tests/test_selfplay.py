"""Self-play: agents pitted through play_game/play_match, and properties that hold over
thousands of seeded random games and matches."""

from __future__ import annotations

import numpy as np
import pytest
from bgengine import IllegalMoveError, MatchState, Position
from bgengine.game.actions import Double, Play, Roll
from bgengine.agents.base import HeuristicAgent, RandomAgent
from bgengine.dice import FixedDice, RandomDice
from bgengine.game.record import Game
from bgengine.game.match import Match
from bgengine.move import Move
from bgengine.position import NUM_CHECKERS
from bgengine.agents.play import next_action, play_game, play_match

RANDOM_GAMES = 2000
RANDOM_MATCHES = 300
MAX_ACTIONS = 5000  # far above any real game; a guard against a game that never ends


def cube_happy_agents(seed: int) -> tuple[RandomAgent, RandomAgent]:
    """Random agents that double often and mostly take, so cubes reach 64 now and then."""
    seeds = np.random.SeedSequence(seed).spawn(2)
    return tuple(RandomAgent(s, double_probability=0.3, take_probability=0.8) for s in seeds)  # type: ignore[return-value]


def test_same_seed_same_game():
    first = play_game(RandomAgent(1), RandomAgent(2), seed=3)
    second = play_game(RandomAgent(1), RandomAgent(2), seed=3)
    assert first.actions == second.actions and first.outcome == second.outcome


def test_different_seeds_different_games():
    first = play_game(RandomAgent(1), RandomAgent(2), seed=3)
    assert first.actions != play_game(RandomAgent(1), RandomAgent(2), seed=4).actions


def test_play_game_with_fixed_dice_uses_exactly_the_dice_given():
    reference = play_game(HeuristicAgent(), HeuristicAgent(), seed=11)
    throws = [action.dice for action in reference.actions if isinstance(action, Roll)]
    dice = FixedDice(throws)
    replayed = play_game(HeuristicAgent(), HeuristicAgent(), dice_source=dice)
    dice.check_all_used()
    assert replayed.actions == reference.actions


def test_play_game_in_a_match_state_keeps_its_score():
    game = play_game(HeuristicAgent(), RandomAgent(0), seed=5, match=MatchState(match_length=7, score=(3, 5)))
    assert game.state.score == (3, 5) and game.outcome is not None


def test_heuristic_agent_beats_random_agent_most_of_the_time():
    wins = sum(play_game(HeuristicAgent(), RandomAgent(seed), seed=seed).outcome.winner == 0 for seed in range(40))  # type: ignore[union-attr]
    assert wins >= 30


class ChoiceInAnotherForm:
    """Plays as ``agent`` does but hands its checker play back as an index, a LegalMove,
    or a Move parsed anew from its text (the slow path: matched against the list by text)."""

    def __init__(self, agent, form: str) -> None:
        self.agent, self.form = agent, form

    def choose_move(self, position, dice, state, legal):
        index = legal.index(self.agent.choose_move(position, dice, state, legal))
        if self.form == "index":
            return index
        if self.form == "legal move":
            return legal[index]
        return Move.parse(str(legal.moves[index]))

    def cube_decision(self, position, state, question):
        return self.agent.cube_decision(position, state, question)


@pytest.mark.parametrize("form", ["index", "legal move", "parsed text"])
def test_agents_answering_in_any_form_play_the_same_seeded_games(form):
    for seed in range(12):
        fast = play_game(*cube_happy_agents(seed), seed=seed)
        other = play_game(*(ChoiceInAnotherForm(agent, form) for agent in cube_happy_agents(seed)), seed=seed)
        assert other.actions == fast.actions and other.outcome == fast.outcome and other.position == fast.position
        heuristic = play_game(HeuristicAgent(), RandomAgent(seed), seed=seed)
        other = play_game(ChoiceInAnotherForm(HeuristicAgent(), form), RandomAgent(seed), seed=seed)
        assert other.actions == heuristic.actions and other.outcome == heuristic.outcome


def test_match_with_agents_answering_by_index_is_the_same_match():
    fast = play_match(*cube_happy_agents(4), 5, seed=4)
    by_index = play_match(*(ChoiceInAnotherForm(agent, "index") for agent in cube_happy_agents(4)), 5, seed=4)
    assert [game.actions for game in by_index.games] == [game.actions for game in fast.games]
    assert by_index.score == fast.score


@pytest.mark.parametrize("choice", [99, -99, True, None, "13/11 6/5 8/2"])
def test_agent_choice_out_of_the_list_is_refused_with_a_typed_error(choice):
    class Stubborn:
        def choose_move(self, position, dice, state, legal):
            return choice

        def cube_decision(self, position, state, question):
            return False

    with pytest.raises(IllegalMoveError, match="out of range|whole-number index|not a legal play|does not have"):
        play_game(Stubborn(), Stubborn(), seed=1)


def play_guarded(seed: int) -> Game:
    """A random game played action by action, checking the position after every play."""
    game = Game()
    agents, dice = cube_happy_agents(seed), RandomDice(seed)
    off_before = (0, 0)
    while not game.is_over:
        assert len(game) < MAX_ACTIONS, f"seed {seed}: the game does not end"
        action = next_action(game, agents, dice)
        mover, rolled = game.state.on_roll, game.state.dice
        pips_before = game.position.pip_counts()
        game.push(action)
        if isinstance(action, Play):
            assert rolled is not None
            seen_from_mover = game.position if game.is_over else game.position.flip()
            off_now = seen_from_mover.checkers_off()
            off_by_player = off_now if mover == 0 else (off_now[1], off_now[0])
            borne_off = sum(1 for _, target, _ in game.actions[-1].move.steps if target == 0)  # type: ignore[union-attr]
            gained = (borne_off, 0) if mover == 0 else (0, borne_off)
            # Checkers leave the board only by bearing off, and only the mover's: 15 each in all.
            assert (off_by_player[0] - off_before[0], off_by_player[1] - off_before[1]) == gained
            Position(np.asarray(game.position))  # revalidated: at most 15 a side, bars right
            off_before = off_by_player
            dice_pips = sum(rolled) * (2 if rolled[0] == rolled[1] else 1)
            pips_after = seen_from_mover.pip_counts()
            assert 0 <= pips_before[0] - pips_after[0] <= dice_pips  # forward, at most the roll
            assert pips_after[1] >= pips_before[1]  # the opponent only goes back, when hit
            assert sum(off_now) < 2 * NUM_CHECKERS and max(off_now) <= NUM_CHECKERS
        assert game.state.cube_value <= 64
    return game


@pytest.mark.slow
def test_thousands_of_random_games_end_with_checkers_conserved_and_sane_results():
    cube_seen = set()
    for seed in range(RANDOM_GAMES):
        game = play_guarded(seed)
        outcome = game.outcome
        assert outcome is not None and outcome.winner in (0, 1)
        assert outcome.points == outcome.cube_value * (1 if outcome.ending.value == "passed" else int(outcome.result))
        cube_seen.add(outcome.cube_value)
    assert 64 in cube_seen and 1 in cube_seen


@pytest.mark.slow
def test_hundreds_of_random_matches_add_up_and_end_exactly_once():
    for seed in range(RANDOM_MATCHES):
        length = 1 + seed % 9
        match = play_match(*cube_happy_agents(seed), length, seed=seed)
        check_match_bookkeeping(match)


def check_match_bookkeeping(match: Match) -> None:
    points = [0, 0]
    ended = 0
    crawford_games = 0
    for game in match.games:
        start = game.starting_state
        assert start.score == (min(points[0], match.length), min(points[1], match.length))
        crawford_games += start.crawford
        if start.crawford:
            assert not any(isinstance(action, Double) for action in game.actions)
        assert game.outcome is not None
        points[game.outcome.winner] += game.outcome.points
        ended += max(points) >= match.length
    assert ended == 1  # only the last game reaches the length
    assert match.is_over and match.winner == int(np.argmax(points))
    assert match.score[match.winner] == match.length and match.score[1 - match.winner] < match.length
    assert crawford_games <= 1
    if match.length > 1 and any(
        game.starting_state.score[player] == match.length - 1 for game in match.games for player in (0, 1)
    ):
        assert crawford_games == 1


def test_same_seed_same_match():
    first = play_match(*cube_happy_agents(9), 7, seed=9)
    second = play_match(*cube_happy_agents(9), 7, seed=9)
    assert [game.actions for game in first.games] == [game.actions for game in second.games]


@pytest.mark.parametrize("seed", range(20))
def test_popping_every_action_retraces_the_game_exactly(seed):
    game = Game()
    agents, dice = cube_happy_agents(seed), RandomDice(seed)
    seen = [(game.position, game.state, game.decision, game.outcome)]
    while not game.is_over:
        game.push(next_action(game, agents, dice))
        seen.append((game.position, game.state, game.decision, game.outcome))
    actions, outcome = game.actions, game.outcome
    for expected_action in reversed(actions):
        seen.pop()
        assert game.pop() == expected_action
        assert (game.position, game.state, game.decision, game.outcome) == seen[-1]
    assert len(game) == 0 and game.decision.value == "opening roll"
    for action in actions:  # and pushing the record again replays it
        game.push(action)
    assert game.actions == actions and game.outcome == outcome

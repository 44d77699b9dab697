"""Pit two agents against each other: ``play_game`` and ``play_match``.

The dice come from ``dice_source`` when given (e.g. ``FixedDice`` in tests), else from
``RandomDice(seed)``; the same seed and agents give the same record. Tied opening
throws are thrown again and not recorded. Agents are asked the cube questions only
when the rules give them a choice; they never resign here.
"""

from __future__ import annotations

from collections.abc import Sequence

from bgengine.game.actions import Decision, Double, Pass, Play, Roll, Take
from bgengine.agents.base import Agent, CubeQuestion
from bgengine.dice import DiceSource, RandomDice
from bgengine.game.record import Game
from bgengine.game.match import Match
from bgengine.match_state import MatchState
from bgengine.move import LegalMove, Move, MoveList
from bgengine.position import Position


def play_game(
    agent0: Agent,
    agent1: Agent,
    *,
    seed: int | None = None,
    dice_source: DiceSource | None = None,
    match: MatchState | None = None,
) -> Game:
    """Play one game to its end (money play unless ``match`` says otherwise) and return it."""
    game = Game(match)
    finish_game(game, (agent0, agent1), dice_source if dice_source is not None else RandomDice(seed))
    return game


def play_match(
    agent0: Agent,
    agent1: Agent,
    length: int,
    *,
    seed: int | None = None,
    dice_source: DiceSource | None = None,
    names: tuple[str, str] = ("Player 0", "Player 1"),
) -> Match:
    """Play a match to ``length`` points and return its record."""
    match = Match(length, names=names)
    source = dice_source if dice_source is not None else RandomDice(seed)
    agents = (agent0, agent1)
    while not match.is_over:
        finish_game(match, agents, source)
    return match


def finish_game(record: Game | Match, agents: Sequence[Agent], dice_source: DiceSource) -> None:
    """Let ``agents`` play the current game of ``record`` until it ends."""
    game = record.game if isinstance(record, Match) else record
    while not game.is_over:
        record.push(next_action(game, agents, dice_source))


def next_action(game: Game, agents: Sequence[Agent], dice_source: DiceSource) -> Roll | Play | Double | Take | Pass:
    """The action the agents (or the dice) take at the game's current decision."""
    decision = game.decision
    if decision is Decision.OPENING_ROLL:
        return Roll(opening_throw(dice_source))
    if decision is Decision.ROLL:
        return Roll(dice_source.roll())
    agent = agents[game.turn]  # type: ignore[index]
    if decision is Decision.CHECKER_PLAY:
        state = game.state
        assert state.dice is not None
        legal = game.legal_moves()
        return Play(chosen_move(agent.choose_move(game.position, state.dice, state, legal), legal))
    if decision is Decision.CUBE_OR_ROLL:
        if agent.cube_decision(game.position, game.state, CubeQuestion.DOUBLE):
            return Double()
        return Roll(dice_source.roll())
    if decision is Decision.TAKE_OR_PASS:
        return Take() if agent.cube_decision(game.position, game.state, CubeQuestion.TAKE) else Pass()
    raise ValueError(f"agents do not handle the decision {decision.value}")


def chosen_move(choice: Move | LegalMove | int | str, legal: MoveList) -> Move:
    """An agent's choice as a ``Move``: an index is looked up in ``legal`` (checked)."""
    if isinstance(choice, Move):
        return choice
    if isinstance(choice, LegalMove):
        return choice.move
    if isinstance(choice, str):
        return Move.parse(choice)
    return legal.move(choice)  # MoveIndexError when it is not an index into the list


def opening_throw(dice_source: DiceSource) -> tuple[int, int]:
    """Throw one die each until they differ."""
    while True:
        first, second = dice_source.roll()
        if first != second:
            return first, second


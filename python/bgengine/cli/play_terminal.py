"""A human against an agent in a text terminal: board, dice, cube and score, moves typed
in standard notation (``24/18 13/11``, ``bar/22*``, ``6/off``, ``8/5(2)``).

``play_in_terminal`` reads commands from ``input`` and writes to ``output``, so it runs
the same in a terminal and in tests. A move that cannot be read or is not legal is
refused with the reason and asked for again. The agent accepts any resignation.
"""

from __future__ import annotations

import sys
from typing import TextIO

from bgengine.game.actions import Accept, Action, Decision, Double, Pass, Play, Resign, Roll, Take
from bgengine.agents.base import Agent
from bgengine.dice import DiceSource, RandomDice
from bgengine.errors import BgEngineError
from bgengine.game.record import Game
from bgengine.game.match import Match
from bgengine.move import Move
from bgengine.position import GameResult
from bgengine.agents.play import next_action, opening_throw
from bgengine.formats.text_board import text_board

HELP = """Commands:
  a move such as 24/18 13/11, bar/22*, 6/off, 8/5(2) (when it is your checker play)
  roll (r or Enter)    double (d)    take (t)    pass (p)
  resign [single|gammon|backgammon]    moves (list the legal plays)    quit (q)"""

_RESIGN_LEVELS = {"": GameResult.SINGLE, "single": GameResult.SINGLE, "gammon": GameResult.GAMMON,
                  "backgammon": GameResult.BACKGAMMON}


class _Quit(Exception):
    """The human typed quit, or the input ended."""


def play_in_terminal(
    agent: Agent,
    *,
    length: int = 0,
    human: int = 0,
    seed: int | None = None,
    dice_source: DiceSource | None = None,
    names: tuple[str, str] = ("You", "bgengine"),
    game: Game | None = None,
    input: TextIO = sys.stdin,
    output: TextIO = sys.stdout,
) -> Game | Match:
    """Play a money game (``length`` 0) or a match against ``agent``; return the record.

    ``human`` is the human's seat (0 or 1) and ``names`` are (human, agent); ``game``
    continues a game in progress instead of starting one. Stops early, returning the
    unfinished record, on ``quit`` or the end of ``input``.
    """
    if human not in (0, 1):
        raise ValueError(f"the human's seat is 0 or 1, got {human!r}")
    seats = (names[0], names[1]) if human == 0 else (names[1], names[0])
    record: Game | Match
    if game is not None:
        record = game
    else:
        record = Match(length, names=seats) if length else Game()
    session = _Session(record, agent, human, dice_source if dice_source is not None else RandomDice(seed), names, input, output)
    try:
        session.run()
    except _Quit:
        session.say("Stopped.")
    return record


class _Session:
    def __init__(self, record: Game | Match, agent: Agent, human: int, dice_source: DiceSource,
                 names: tuple[str, str], input: TextIO, output: TextIO) -> None:
        self.record, self.agent, self.human, self.dice_source = record, agent, human, dice_source
        self.names, self.input, self.output = names, input, output

    # ----- the loop -----------------------------------------------------------------

    def run(self) -> None:
        self.say(HELP)
        while not self._record_over():
            game = self._game()
            if game.decision is Decision.OPENING_ROLL:
                self._opening(game)
            elif game.turn == self.human:
                self._human_turn(game)
            else:
                self._agent_turn(game)
            if game.is_over:
                self._announce_result(game)
        if isinstance(self.record, Match):
            winner = self.record.winner
            self.say(f"Match over: {self._name(winner)} won {self._score_text()}.")  # type: ignore[arg-type]

    def _opening(self, game: Game) -> None:
        throw = opening_throw(self.dice_source)
        first = 0 if throw[0] > throw[1] else 1
        self.say(f"\nOpening throw: {self._name(0)} {throw[0]}, {self._name(1)} {throw[1]}. "
                 f"{self._name(first)} to play {max(throw)}{min(throw)}.")
        self._push(Roll(throw))

    def _agent_turn(self, game: Game) -> None:
        before = game.state
        if game.decision is Decision.ACCEPT_OR_REJECT:
            self.say(f"{self._name(1 - self.human)} accepts.")
            self._push(Accept())
            return
        action = next_action(game, (self.agent, self.agent), self.dice_source)
        name = self._name(game.turn)  # type: ignore[arg-type]
        self._push(action)
        if isinstance(action, Play):
            dice = before.dice
            assert dice is not None
            shown = "cannot move" if action.move.is_pass() else f"plays {game.actions[-1].move}"  # type: ignore[union-attr]
            self.say(f"{name} rolled {dice[0]}{dice[1]} and {shown}.")
        elif isinstance(action, Double):
            self.say(f"{name} doubles to {before.cube_value * 2}.")
        elif isinstance(action, Take):
            self.say(f"{name} takes: the cube is at {game.state.cube_value}, {name}'s.")
        elif isinstance(action, Pass):
            self.say(f"{name} passes.")

    def _human_turn(self, game: Game) -> None:
        decision = game.decision
        if decision is Decision.CHECKER_PLAY and game.legal_moves().is_pass():
            self.say(self._view(game))
            self.say("You cannot move.")
            self._push(Play(game.legal_moves().moves[0]))
            return
        self.say(self._view(game))
        prompt = {
            Decision.CUBE_OR_ROLL: "Roll or double? [r/d] ",
            Decision.ROLL: "Roll? [r] ",
            Decision.CHECKER_PLAY: "Your move: ",
            Decision.TAKE_OR_PASS: f"{self._name(1 - self.human)} doubles to {game.state.cube_value * 2}. "
                                   "Take or pass? [t/p] ",
        }[decision]
        while True:
            command = self.ask(prompt)
            action = self._human_action(game, command)
            if action is None:
                continue
            try:
                self._push(action)
            except BgEngineError as error:
                what = "Illegal move" if isinstance(action, Play) else "Not allowed"
                self.say(f"{what}: {error}. Try again.")
                continue
            if game.decision is Decision.CHECKER_PLAY and isinstance(action, Roll):
                dice = game.state.dice
                assert dice is not None
                self.say(f"You rolled {dice[0]}{dice[1]}.")
            return

    def _human_action(self, game: Game, command: str) -> Action | None:
        """The action a command asks for, or None (after saying why) to ask again."""
        word, _, rest = command.strip().lower().partition(" ")
        decision = game.decision
        if word in ("q", "quit", "exit"):
            raise _Quit
        if word in ("?", "h", "help"):
            self.say(HELP)
            return None
        if word in ("moves", "hint") and decision is Decision.CHECKER_PLAY:
            self.say("Legal plays: " + ", ".join(str(move) for move in game.legal_moves().moves))
            return None
        if word == "resign" and rest.strip() in _RESIGN_LEVELS:
            return Resign(_RESIGN_LEVELS[rest.strip()])
        if decision is Decision.CHECKER_PLAY:
            try:
                return Play(Move.parse(command))
            except BgEngineError as error:
                self.say(f"Cannot read that move: {error}. Try again (e.g. 13/7 8/7), or 'moves'.")
                return None
        simple = {"": Roll, "r": Roll, "roll": Roll, "d": Double, "double": Double,
                  "t": Take, "take": Take, "p": Pass, "pass": Pass, "drop": Pass}
        kind = simple.get(word)
        if kind is Roll:
            if decision not in (Decision.CUBE_OR_ROLL, Decision.ROLL):
                self.say(f"You cannot roll now: {decision.value}.")
                return None
            return Roll(self.dice_source.roll())
        if kind is not None:
            return kind()
        self.say(f"Unknown command {command.strip()!r}; type 'help' for the commands.")
        return None

    # ----- helpers ------------------------------------------------------------------

    def _push(self, action: Action) -> None:
        self.record.push(action)

    def _game(self) -> Game:
        return self.record.game if isinstance(self.record, Match) else self.record

    def _record_over(self) -> bool:
        return self.record.is_over

    def _name(self, player: int) -> str:
        return self.names[0] if player == self.human else self.names[1]

    def _score_text(self) -> str:
        if not isinstance(self.record, Match):
            return ""
        score = self.record.score
        return f"{score[self.human]}-{score[1 - self.human]}"

    def _announce_result(self, game: Game) -> None:
        outcome = game.outcome
        assert outcome is not None
        kind = outcome.result.name.lower()
        points = f"{outcome.points} point{'s' if outcome.points != 1 else ''}"
        self.say(f"{self._name(outcome.winner)} won a {kind} ({outcome.ending.value}) for {points}.")
        if isinstance(self.record, Match) and not self.record.is_over:
            self.say(f"Score: {self._name(self.human)} {self._score_text()} {self._name(1 - self.human)}.")

    def _view(self, game: Game) -> str:
        """The board from the human's side (X), with score, cube and dice."""
        state = game.state
        position = game.position if state.on_roll == self.human else game.position.flip()
        board = text_board(position).rsplit("\n", 1)[0]  # its last line names X as on roll
        pips, off = position.pip_counts(), position.checkers_off()
        if state.cube_owner is None:
            cube = f"cube {state.cube_value} centred"
        else:
            cube = f"cube {state.cube_value}, {self._name(state.cube_owner)}'s"
        if state.crawford:
            cube = "Crawford game: no cube"
        lines = [
            "",
            board,
            f" {self.names[0]} (X): {pips[0]} pips, {off[0]} off    {self.names[1]} (O): {pips[1]} pips, {off[1]} off",
            f" {cube}" + (f"    dice {state.dice[0]}{state.dice[1]}" if state.dice else ""),
        ]
        if isinstance(self.record, Match):
            lines.append(f" {self.record.length}-point match, score {self._name(self.human)} {self._score_text()} "
                         f"{self._name(1 - self.human)}")
        return "\n".join(lines)

    def say(self, text: str) -> None:
        print(text, file=self.output)

    def ask(self, prompt: str) -> str:
        self.output.write(prompt)
        self.output.flush()
        line = self.input.readline()
        if not line:
            self.say("")
            raise _Quit
        return line.rstrip("\n")

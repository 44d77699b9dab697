"""Game: the mutable record of one game of backgammon played by the rules.

The record holds the actions pushed so far (``push``/``pop``), the current position
(always seen from the player on roll), the ``MatchState`` (cube, score, dice, whose turn)
and the decision the game waits for. Only legal actions are accepted: anything else
raises ``IllegalMoveError`` saying why.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bgengine.game.actions import Accept, Action, Beaver, Decision, Double, Pass, Play, Reject, Resign, Roll, Take
from bgengine.dice import Dice, checked_roll
from bgengine.errors import IllegalMoveError
from bgengine.match_state import MatchState
from bgengine.position import GameResult, Position

if TYPE_CHECKING:
    from bgengine.move import Move, MoveList

#: The 21 distinct throws, higher die first.
ROLLS: tuple[Dice, ...] = tuple((high, low) for high in range(1, 7) for low in range(1, high + 1))
#: The 30 opening throws (player 0's die, player 1's die); ties are thrown again.
OPENING_ROLLS: tuple[Dice, ...] = tuple((a, b) for a in range(1, 7) for b in range(1, 7) if a != b)


class Ending(enum.Enum):
    """How a game ended."""

    BORNE_OFF = "borne off"  # the winner bore off all fifteen checkers
    PASSED = "passed"  # the loser refused a double
    RESIGNED = "resigned"  # the loser resigned and the winner accepted


@dataclass(frozen=True)
class GameOutcome:
    """The result of a finished game: who won, how, and the points it is worth.

    ``result`` is single, gammon or backgammon as it happened (a pass is a single game),
    ``cube_value`` the stake at the end, ``points`` what the winner scores (the Jacoby
    rule included, before any match-length cap).
    """

    winner: int
    result: GameResult
    cube_value: int
    points: int
    ending: Ending


@dataclass(frozen=True, slots=True)
class _Snapshot:
    position: Position
    state: MatchState
    decision: Decision
    outcome: GameOutcome | None
    resigner: int | None = None  # who offered the pending resignation (None: the player on roll)


class Game:
    """One game: record of actions, current position and match state, decision, result.

    ``Game()`` starts a money game at the opening; ``Game(match)`` a game with that
    match state (score, match length, Crawford, Jacoby, beavers; cube centred);
    ``Game(match, position)`` resumes a game in progress, ``position`` seen from
    ``match.on_roll`` and the decision read from the state (dice set: checker play;
    double offered: take or pass; resignation offered: accept or reject).
    """

    def __init__(self, match: MatchState | None = None, position: Position | None = None) -> None:
        state = match if match is not None else MatchState()
        if position is None:
            if state.dice is not None or state.double_offered or state.resignation_offered:
                raise IllegalMoveError("a game at the opening has no dice, offer or resignation yet")
            if state.cube_value != 1 or state.cube_owner is not None:
                raise IllegalMoveError("a game starts with the cube centred at 1")
            position, decision = Position.initial(), Decision.OPENING_ROLL
        else:
            if position.is_game_over():
                raise IllegalMoveError("the position given is already over")
            decision = _decision_in(state)
        self._now = _Snapshot(position, state, decision, None)
        self._undo: list[_Snapshot] = []
        self._actions: list[Action] = []
        self._start = self._now
        self._legal: MoveList | None = None  # the last list generated; reused for the same position and dice
        self._played: Move | None = None

    # ----- what the game looks like now ---------------------------------------------

    @property
    def position(self) -> Position:
        """The current position, seen from the player on roll (``state.on_roll``)."""
        return self._now.position

    @property
    def state(self) -> MatchState:
        """Cube, score, dice, whose roll it is and any offer pending."""
        return self._now.state

    @property
    def decision(self) -> Decision:
        return self._now.decision

    @property
    def turn(self) -> int | None:
        """The player who must act now; None at the opening throw and once the game is over."""
        decision = self._now.decision
        if decision in (Decision.OPENING_ROLL, Decision.GAME_OVER):
            return None
        on_roll = self._now.state.on_roll
        if decision is Decision.ACCEPT_OR_REJECT:
            return 1 - self._resigner()
        if decision is Decision.TAKE_OR_PASS:
            return 1 - on_roll
        return on_roll

    @property
    def outcome(self) -> GameOutcome | None:
        """The result once the game is over, else None."""
        return self._now.outcome

    @property
    def is_over(self) -> bool:
        return self._now.outcome is not None

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action pushed so far, in order."""
        return tuple(self._actions)

    @property
    def history(self) -> tuple[tuple[MatchState, Action], ...]:
        """Each action with the match state just before it (whose turn, cube, dice)."""
        return tuple((before.state, action) for before, action in zip(self._undo, self._actions, strict=True))

    @property
    def starting_state(self) -> MatchState:
        """The match state the game started from."""
        return self._start.state

    @property
    def starting_position(self) -> Position:
        return self._start.position

    def __len__(self) -> int:
        return len(self._actions)

    def __repr__(self) -> str:
        return f"<Game {len(self._actions)} actions, {self.decision.value}, turn {self.turn}>"

    def _repr_svg_(self) -> str:
        """The board now, with the last play, so Jupyter shows a Game as a picture (svg.py)."""
        from bgengine.formats.svg import game_board

        return game_board(self)

    # ----- what may happen next -----------------------------------------------------

    def legal_moves(self) -> MoveList:
        """The legal checker plays for the dice rolled (only at a checker-play decision)."""
        if self._now.decision is not Decision.CHECKER_PLAY:
            raise IllegalMoveError(f"no checker play now: the game waits for {self._now.decision.value}")
        dice = self._now.state.dice
        assert dice is not None
        legal = self._legal
        if legal is None or legal.dice != _high_first(dice) or legal.position != self._now.position:
            legal = self._legal = self._now.position.legal_moves(dice)
        return legal

    def legal_actions(self) -> list[Action]:
        """Every action accepted now (each distinct throw once at a roll, higher die first)."""
        decision = self._now.decision
        if decision is Decision.OPENING_ROLL:
            return [Roll(dice) for dice in OPENING_ROLLS]
        if decision is Decision.CUBE_OR_ROLL:
            return [Double(), *(Roll(dice) for dice in ROLLS), *self._resignations()]
        if decision is Decision.ROLL:
            return [*(Roll(dice) for dice in ROLLS), *self._resignations()]
        if decision is Decision.CHECKER_PLAY:
            return [*(Play(move) for move in self.legal_moves().moves), *self._resignations()]
        if decision is Decision.TAKE_OR_PASS:
            return [Take(), Pass(), *([Beaver()] if self._now.state.may_beaver() else [])]
        if decision is Decision.ACCEPT_OR_REJECT:
            return [Accept(), Reject()]
        return []

    def _resignations(self) -> list[Action]:
        """Either player may offer to resign before or after a roll: the player on roll first."""
        on_roll = self._now.state.on_roll
        return [Resign(result, player) for player in (on_roll, 1 - on_roll) for result in GameResult]

    # ----- changing the record ------------------------------------------------------

    def push(self, action: Action) -> None:
        """Apply ``action`` if the rules allow it here, else raise ``IllegalMoveError``."""
        before = self._now
        after, recorded = self._apply(action)
        self._undo.append(before)
        self._actions.append(recorded)
        self._now = after

    def pop(self) -> Action:
        """Undo the last action and return it."""
        if not self._actions:
            raise IllegalMoveError("nothing to undo: no action has been pushed")
        self._now = self._undo.pop()
        return self._actions.pop()

    # ----- the rules ----------------------------------------------------------------

    def _apply(self, action: Action) -> tuple[_Snapshot, Action]:
        """The game after ``action`` and the action as the record keeps it."""
        now = self._now
        decision = now.decision
        if decision is Decision.GAME_OVER:
            raise IllegalMoveError(f"the game is over; no {action} is possible")
        handler = _HANDLERS.get((decision, type(action)))
        if handler is None and not isinstance(action, _ACTION_TYPES):
            raise IllegalMoveError(f"push takes an action such as Roll((3, 1)) or Play(move), got {action!r}")
        if handler is None:
            if isinstance(action, Double) and decision is Decision.ROLL:
                raise IllegalMoveError(f"player {now.state.on_roll} cannot double: {now.state.why_no_double()}")
            raise IllegalMoveError(f"{action} is not possible now: the game waits for {decision.value}")
        after = handler(self, now, action)
        if isinstance(action, Roll):  # opening: as thrown; later: higher die first
            thrown = checked_roll(action.dice) if decision is Decision.OPENING_ROLL else after.state.dice
            assert thrown is not None
            return after, Roll(thrown)
        if isinstance(action, Resign):  # who resigned, named
            return after, Resign(GameResult(action.result), after.resigner)
        if isinstance(action, Play):  # the move as the generator lists it (hits marked)
            played, self._played = self._played, None  # set by _play for this action only
            assert played is not None
            return after, action if action.move is played else Play(played)
        return after, action

    def _opening_roll(self, now: _Snapshot, action: Roll) -> _Snapshot:
        first, second = checked_roll(action.dice)
        if first == second:
            raise IllegalMoveError(f"tied opening throw {first}-{second}: the players throw again")
        on_roll = 0 if first > second else 1
        state = now.state.with_changes(on_roll=on_roll, dice=_high_first((first, second)))
        return _Snapshot(now.position, state, Decision.CHECKER_PLAY, None)

    def _roll(self, now: _Snapshot, action: Roll) -> _Snapshot:
        dice = _high_first(checked_roll(action.dice))
        # The dice are checked faces and no offer is pending at a roll: the state stays valid.
        return _Snapshot(now.position, now.state._with_trusted_changes(dice=dice), Decision.CHECKER_PLAY, None)

    def _play(self, now: _Snapshot, action: Play) -> _Snapshot:
        self._played, child = self._legal_play(action.move)
        state = now.state
        finished = child.winner_and_result()
        if finished is not None:
            winner_seen_from_child, result = finished
            # The child is seen from the next player: "player on roll won" means the opponent.
            winner = state.on_roll if winner_seen_from_child == 1 else 1 - state.on_roll
            outcome = GameOutcome(winner, result, state.cube_value, state.game_points(result), Ending.BORNE_OFF)
            # The finished position stays seen from the last mover, still ``state.on_roll``.
            return _Snapshot(child.flip(), state._with_trusted_changes(dice=None), Decision.GAME_OVER, outcome)
        next_state = state._with_trusted_changes(on_roll=1 - state.on_roll, dice=None)  # valid: turn passes
        return _Snapshot(child, next_state, _decision_in(next_state), None)

    def _double(self, now: _Snapshot, action: Double) -> _Snapshot:
        return _Snapshot(now.position, now.state.with_changes(double_offered=True), Decision.TAKE_OR_PASS, None)

    def _take(self, now: _Snapshot, action: Take | Beaver) -> _Snapshot:
        state = now.state
        factor = 2
        if isinstance(action, Beaver):
            if not state.may_beaver():
                raise IllegalMoveError("beavers are not allowed here (money play with beavers on, cube room)")
            factor = 4
        taken = state.with_changes(
            double_offered=False, cube_value=state.cube_value * factor, cube_owner=1 - state.on_roll
        )
        return _Snapshot(now.position, taken, Decision.ROLL, None)

    def _pass(self, now: _Snapshot, action: Pass) -> _Snapshot:
        state = now.state
        outcome = GameOutcome(state.on_roll, GameResult.SINGLE, state.cube_value, state.cube_value, Ending.PASSED)
        return _Snapshot(now.position, state, Decision.GAME_OVER, outcome)

    def _resign(self, now: _Snapshot, action: Resign) -> _Snapshot:
        try:
            level = GameResult(action.result)
        except ValueError:
            raise IllegalMoveError(f"one resigns a single, gammon or backgammon, got {action.result!r}") from None
        resigner = now.state.on_roll if action.player is None else action.player
        if resigner not in (0, 1):
            raise IllegalMoveError(f"the resigning player is 0 or 1, got {action.player!r}")
        offered = now.state.with_changes(resignation_offered=int(level))
        return _Snapshot(now.position, offered, Decision.ACCEPT_OR_REJECT, None, resigner)

    def _accept(self, now: _Snapshot, action: Accept) -> _Snapshot:
        state = now.state
        level = GameResult(state.resignation_offered)
        points = state.game_points(level)
        outcome = GameOutcome(1 - self._resigner(), level, state.cube_value, points, Ending.RESIGNED)
        return _Snapshot(now.position, state, Decision.GAME_OVER, outcome)

    def _resigner(self) -> int:
        resigner = self._now.resigner
        return self._now.state.on_roll if resigner is None else resigner

    def _reject(self, now: _Snapshot, action: Reject) -> _Snapshot:
        state = now.state.with_changes(resignation_offered=0)
        return _Snapshot(now.position, state, _decision_in(state), None)

    def _legal_play(self, move: Move) -> tuple[Move, Position]:
        """The listed legal move matching ``move`` and its child (seen from the next player).

        A move taken from the list (``legal_moves().move(i)`` or ``[i]``) is recognised
        without building the others; other spellings of a legal play (hops in another
        order, hits left unmarked) are matched by ``MoveList.index``.
        """
        legal = self.legal_moves()
        index = legal.index(move)  # raises IllegalMoveError saying why
        return legal.move(index), legal.position_after(index)


_Handler = Callable[[Game, _Snapshot, Any], _Snapshot]
_HANDLERS: dict[tuple[Decision, type], _Handler] = {
    (Decision.OPENING_ROLL, Roll): Game._opening_roll,
    (Decision.CUBE_OR_ROLL, Roll): Game._roll,
    (Decision.ROLL, Roll): Game._roll,
    (Decision.CHECKER_PLAY, Play): Game._play,
    (Decision.CUBE_OR_ROLL, Double): Game._double,
    (Decision.TAKE_OR_PASS, Take): Game._take,
    (Decision.TAKE_OR_PASS, Beaver): Game._take,
    (Decision.TAKE_OR_PASS, Pass): Game._pass,
    (Decision.CUBE_OR_ROLL, Resign): Game._resign,
    (Decision.ROLL, Resign): Game._resign,
    (Decision.CHECKER_PLAY, Resign): Game._resign,
    (Decision.ACCEPT_OR_REJECT, Accept): Game._accept,
    (Decision.ACCEPT_OR_REJECT, Reject): Game._reject,
}


_ACTION_TYPES = (Roll, Play, Double, Take, Pass, Beaver, Resign, Accept, Reject)


def _decision_in(state: MatchState) -> Decision:
    """The decision a game in progress waits for, read from its match state."""
    if state.resignation_offered:
        return Decision.ACCEPT_OR_REJECT
    if state.double_offered:
        return Decision.TAKE_OR_PASS
    if state.dice is not None:
        return Decision.CHECKER_PLAY
    return Decision.CUBE_OR_ROLL if state.may_double() else Decision.ROLL


def _high_first(dice: Dice) -> Dice:
    return (dice[0], dice[1]) if dice[0] >= dice[1] else (dice[1], dice[0])

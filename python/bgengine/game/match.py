"""Match: a sequence of games to a number of points, with the Crawford rule.

Points are awarded after each game; the first player to reach the match length wins
and points beyond it are not carried anywhere. The game right after a player first
reaches one point short of the length is the Crawford game (no cube); later games are
post-Crawford and the cube is back.
"""

from __future__ import annotations

from bgengine.game.actions import Action, Decision
from bgengine.errors import IllegalMoveError, InvalidMatchStateError
from bgengine.game.record import Game
from bgengine.match_state import MAX_MATCH_LENGTH, MatchState
from bgengine.game.rules import next_game_is_crawford


class Match:
    """A match to ``length`` points: its games, score, current game and winner.

    ``push``/``pop`` act on the current game; when a game ends and the match is not
    over, the next game starts at once (at its opening throw). ``names`` are the
    players' names for records such as the .mat file.
    """

    def __init__(self, length: int, *, names: tuple[str, str] = ("Player 0", "Player 1")) -> None:
        if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_MATCH_LENGTH:
            raise InvalidMatchStateError(f"a match is played to 1..{MAX_MATCH_LENGTH} points, got {length!r}")
        self.length = length
        self.names = names
        self._games: list[Game] = [Game(self._state_for_next_game((0, 0), crawford_played=False))]
        self._points_before: tuple[int, int] = (0, 0)  # won in the games before the current one

    # ----- the record ---------------------------------------------------------------

    @property
    def games(self) -> tuple[Game, ...]:
        """Every game started, the current one last."""
        return tuple(self._games)

    @property
    def game(self) -> Game:
        """The current game (the last one, finished when the match is over)."""
        return self._games[-1]

    @property
    def score(self) -> tuple[int, int]:
        """Points of (player 0, player 1) so far, finished games only, capped at the length."""
        points = self._points_won()
        return min(points[0], self.length), min(points[1], self.length)

    @property
    def winner(self) -> int | None:
        """The player who reached the match length, or None while the match goes on."""
        for player, points in enumerate(self.score):
            if points >= self.length:
                return player
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def decision(self) -> Decision:
        return self.game.decision

    @property
    def turn(self) -> int | None:
        return self.game.turn

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over else self.game.legal_actions()

    def __repr__(self) -> str:
        return f"<Match to {self.length}: score {self.score}, game {len(self._games)}, {self.decision.value}>"

    def _repr_svg_(self) -> str:
        """The current game's board, so Jupyter shows a Match as a picture (svg.py)."""
        from bgengine.formats.svg import game_board

        return game_board(self.game)

    # ----- changing the record ------------------------------------------------------

    def push(self, action: Action) -> None:
        """Apply ``action`` to the current game; start the next game when this one ends."""
        if self.is_over:
            raise IllegalMoveError(f"the match is over (score {self.score}); no {action} is possible")
        self.game.push(action)
        if self.game.is_over:
            points = self._points_won()
            if max(points) < self.length:  # the match goes on
                crawford_played = any(game.starting_state.crawford for game in self._games)
                self._games.append(Game(self._state_for_next_game(points, crawford_played)))
                self._points_before = points

    def pop(self) -> Action:
        """Undo the last action of the match (going back into the previous game if needed)."""
        if len(self.game) == 0 and len(self._games) > 1:
            self._games.pop()
            self._points_before = _points_of(self._games[:-1])
        return self.game.pop()

    # ----- helpers ------------------------------------------------------------------

    def _points_won(self) -> tuple[int, int]:
        """Points of (player 0, player 1) in the finished games, not capped."""
        return _points_of(self._games[-1:], self._points_before)

    def _state_for_next_game(self, score: tuple[int, int], crawford_played: bool) -> MatchState:
        crawford = next_game_is_crawford(self.length, score, crawford_played)
        return MatchState(match_length=self.length, score=score, crawford=crawford)


def _points_of(games: list[Game], start: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """``start`` plus the points each player won in the finished ``games``."""
    points = list(start)
    for game in games:
        if game.outcome is not None:
            points[game.outcome.winner] += game.outcome.points
    return points[0], points[1]

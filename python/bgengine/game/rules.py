"""Rules of the cube and of scoring, as pure functions of the match state.

Kept apart from the game record so that agents, the record and the match all ask the
same questions the same way: may this player double, is the double pointless, how many
points does a result win, is the next game of a match the Crawford game.
"""

from __future__ import annotations

from bgengine.match_state import MatchState
from bgengine.position import GameResult


def may_double(state: MatchState, player: int) -> bool:
    """May ``player`` double now: cube centred or theirs, not the Crawford game, below the cap."""
    return state.cube_available_to(player)


def may_beaver(state: MatchState) -> bool:
    """May the player doubled in ``state`` beaver: money play with beavers, and room on the cube."""
    return state.is_money and state.beavers and state.cube_value * 4 <= state.max_cube


def game_points(state: MatchState, result: GameResult, cube_value: int | None = None) -> int:
    """Points a game won with ``result`` is worth: the cube value times 1, 2 or 3.

    With the Jacoby rule (money play only) gammons and backgammons count as single games
    while the cube has not been turned.
    """
    cube = state.cube_value if cube_value is None else cube_value
    multiple = int(result)
    if state.is_money and state.jacoby and cube == 1:
        multiple = 1
    return cube * multiple


def double_is_pointless(state: MatchState, player: int) -> bool:
    """True when ``player`` already wins the match by winning the game at the current stake.

    Such a double is legal but gains nothing: the doubler cannot win more than the match,
    and a take hands the opponent the cube. The built-in agents never offer it.
    """
    return not state.is_money and state.away(player) <= state.cube_value


def next_game_is_crawford(match_length: int, score: tuple[int, int], crawford_played: bool) -> bool:
    """Is the game about to start at ``score`` the Crawford game of the match?

    It is the one game right after a player first reaches one point short of the match
    length: exactly one player is 1-away and no earlier game was the Crawford game.
    """
    one_away = [points == match_length - 1 for points in score]
    return match_length > 1 and any(one_away) and not all(one_away) and not crawford_played

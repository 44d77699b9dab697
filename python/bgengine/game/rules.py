"""Rules of the match around the games, as pure functions: pointless doubles, the Crawford game.

The cube's own rules (may a player double or beaver, who owns the cube, what a result is
worth) are ``MatchState``'s answers, so agents, the record, the cube models and the
rollout referee ask the same questions the same way.
"""

from __future__ import annotations

from bgengine.match_state import MatchState


def double_is_pointless(match: MatchState, player: int) -> bool:
    """True when ``player`` already wins the match by winning the game at the current stake.

    Such a double is legal but gains nothing: the doubler cannot win more than the match,
    and a take hands the opponent the cube. The built-in agents never offer it.
    """
    return not match.is_money and match.away(player) <= match.cube_value


def next_game_is_crawford(match_length: int, score: tuple[int, int], crawford_played: bool) -> bool:
    """Is the game about to start at ``score`` the Crawford game of the match?

    It is the one game right after a player first reaches one point short of the match
    length: exactly one player is 1-away and no earlier game was the Crawford game.
    """
    one_away = [points == match_length - 1 for points in score]
    return match_length > 1 and any(one_away) and not all(one_away) and not crawford_played

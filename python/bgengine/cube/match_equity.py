"""Match winning chances of game results at a score: cubeless MWC, gammon values, EMG.

Everything here is from the player on roll (the "player"), given a ``MatchScore``: the two
away scores, the cube, and where the match stands with respect to the Crawford rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgengine.match_state import CubeOwner
from bgengine.errors import InvalidMatchStateError
from bgengine.match_state import RULES_MAX_CUBE, MatchState
from bgengine.cube.met import MwcSource, default_met
from bgengine.probabilities import GameProbabilities


@dataclass(frozen=True)
class MatchScore:
    """A match score from the player on roll: aways, cube and Crawford status."""

    away: int
    opponent_away: int
    cube_value: int = 1
    cube_owner: CubeOwner = CubeOwner.CENTRED
    crawford: bool = False  # this game is the Crawford game: no cube
    post_crawford: bool = False  # the Crawford game has been played
    max_cube: int = RULES_MAX_CUBE

    @classmethod
    def from_match_state(cls, match: MatchState) -> MatchScore:
        """The score of a match (not money) seen from its player on roll."""
        if match.is_money:
            raise InvalidMatchStateError("money play has no match score; give a match length")
        return cls(
            away=match.away(match.on_roll),
            opponent_away=match.away(1 - match.on_roll),
            cube_value=match.cube_value,
            cube_owner=match.relative_cube_owner(),
            crawford=match.crawford,
            post_crawford=match.is_post_crawford,
            max_cube=match.max_cube,
        )

    @property
    def after_crawford_game_started(self) -> bool:
        """Results of this game lead to post-Crawford scores (this is the Crawford game or later)."""
        return self.crawford or self.post_crawford


def mwc_after_game(
    met: MwcSource, score: MatchScore, player_points: int, opponent_points: int
) -> float:
    """The player's match winning chance after this game gives out these points."""
    away = score.away - player_points
    opponent_away = score.opponent_away - opponent_points
    if away <= 0:
        return 1.0
    if opponent_away <= 0:
        return 0.0
    return met.mwc(away, opponent_away, post_crawford=score.after_crawford_game_started)


def mwc_if_player_wins(
    met: MwcSource, score: MatchScore, probabilities: GameProbabilities, cube_value: int
) -> float:
    """Average MWC of the player over the games they win at this cube (gammon shares as given)."""
    single, gammon, backgammon = probabilities.win_shares()
    return sum(
        share * mwc_after_game(met, score, points * cube_value, 0)
        for share, points in ((single, 1), (gammon, 2), (backgammon, 3))
        if share > 0.0
    )


def mwc_if_player_loses(
    met: MwcSource, score: MatchScore, probabilities: GameProbabilities, cube_value: int
) -> float:
    """Average MWC of the player over the games they lose at this cube."""
    single, gammon, backgammon = probabilities.loss_shares()
    return sum(
        share * mwc_after_game(met, score, 0, points * cube_value)
        for share, points in ((single, 1), (gammon, 2), (backgammon, 3))
        if share > 0.0
    )


def cubeless_mwc(
    probabilities: GameProbabilities | list[float] | tuple[float, ...],
    match: MatchState | MatchScore,
    met: MwcSource | None = None,
) -> float:
    """Match winning chance of the player on roll if the game is played out at the current cube."""
    chances = GameProbabilities.from_vector(probabilities)
    score = match if isinstance(match, MatchScore) else MatchScore.from_match_state(match)
    table = met or default_met()
    table.check_covers(score.away, score.opponent_away)
    return chances.win * mwc_if_player_wins(table, score, chances, score.cube_value) + chances.lose * (
        mwc_if_player_loses(table, score, chances, score.cube_value)
    )


def mwc_to_emg(mwc: float, met: MwcSource, score: MatchScore) -> float:
    """Normalised money equity (EMG): MWC rescaled so winning the cube is +1 and losing it -1."""
    win, lose = emg_reference(met, score)
    return 2.0 * (mwc - lose) / (win - lose) - 1.0


def emg_reference(met: MwcSource, score: MatchScore) -> tuple[float, float]:
    """(MWC after winning, after losing) a single game at the current cube: EMG's +1 and -1."""
    return (
        mwc_after_game(met, score, score.cube_value, 0),
        mwc_after_game(met, score, 0, score.cube_value),
    )


def gammon_values(
    match: MatchState | MatchScore, met: MwcSource | None = None
) -> tuple[float, float]:
    """(player's, opponent's) gammon value at the current cube, as fractions of a single game.

    A gammon value is what a gammon adds over a single win, divided by the gap between
    winning and losing a single game: 0.5 for both in money play.
    """
    table = met or default_met()
    score = match if isinstance(match, MatchScore) else MatchScore.from_match_state(match)
    table.check_covers(score.away, score.opponent_away)
    cube = score.cube_value
    win, lose = emg_reference(table, score)
    win_gammon = mwc_after_game(table, score, 2 * cube, 0)
    lose_gammon = mwc_after_game(table, score, 0, 2 * cube)
    return (win_gammon - win) / (win - lose), (lose - lose_gammon) / (win - lose)

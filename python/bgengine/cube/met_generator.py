"""Match equity tables generated from a gammon rate, to compare with the published tables.

Post-Crawford (the classical recursion): the trailer doubles at once and the leader takes,
so each game is worth 2 points to the trailer, 4 with a gammon, both sides winning half
the games: P(n) = (1 - G) / 2 * P(n - 2) + G / 2 * P(n - 4), P(1) = 1/2, P(n <= 0) = 1,
less the value of the leader's free drop at 2-away and 4-away.

Crawford game: no cube, half the games won, a share of them gammons.

Pre-Crawford (after Zadeh and Woolsey): each game starts even, with a gammon rate, and is
valued by this package's own cubeful match model (``match_cube``) at p = 1/2 and a
centred cube, over the table filled so far (scores with fewer points to go).
"""

from __future__ import annotations

import numpy as np

from bgengine.match_state import CubeOwner
from bgengine.errors import InvalidCubeSettingsError, InvalidMatchStateError
from bgengine.cube.match_model import MatchCubeModel
from bgengine.cube.match_equity import MatchScore
from bgengine.cube.met import MatchEquityTable
from bgengine.probabilities import GameProbabilities

# Defaults from a coarse grid search: the generated 25-away table then stays within
# 0.5% of Kazaross-XG2 (mean gap 0.16%). A whole game is more cube-efficient than one
# position: 0.9 here against 0.68 for a contact position.
DEFAULT_GAMMON_RATE = 0.24
DEFAULT_CRAWFORD_GAMMON_RATE = 0.30
DEFAULT_POST_CRAWFORD_GAMMON_RATE = 0.30
DEFAULT_FREE_DROP_2_AWAY = 0.012
DEFAULT_FREE_DROP_4_AWAY = 0.004
DEFAULT_EFFICIENCY = 0.9


def post_crawford_row(length: int, gammon_rate: float, free_drop_2_away: float, free_drop_4_away: float) -> list[float]:
    """MWC of the trailer needing n points (n = 1..length) against a 1-away leader, after Crawford."""
    trailer: list[float] = []

    def value(away: int) -> float:
        return 1.0 if away <= 0 else trailer[away - 1]

    for away in range(1, length + 1):
        if away == 1:
            mwc = 0.5
        else:
            mwc = 0.5 * ((1.0 - gammon_rate) * value(away - 2) + gammon_rate * value(away - 4))
        mwc -= {2: free_drop_2_away, 4: free_drop_4_away}.get(away, 0.0)
        trailer.append(mwc)
    return trailer


def crawford_game_mwc(trailer_away: int, post_crawford: list[float], gammon_rate: float) -> float:
    """MWC of the 1-away leader at the start of the Crawford game against ``trailer_away``."""

    def trailer_after(points: int) -> float:
        away = trailer_away - points
        return 1.0 if away <= 0 else post_crawford[away - 1]

    trailer_wins = (1.0 - gammon_rate) * trailer_after(1) + gammon_rate * trailer_after(2)
    return 1.0 - 0.5 * trailer_wins


class _PartialTable:
    """The table being filled, readable by the cube model for scores already computed."""

    def __init__(self, pre: np.ndarray, post: list[float]) -> None:
        self.pre, self.post = pre, post

    def mwc(self, away: int, opponent_away: int, *, post_crawford: bool = False) -> float:
        if post_crawford:
            raise InvalidMatchStateError("pre-Crawford games never lead to post-Crawford scores")
        value = self.pre[away - 1, opponent_away - 1]
        if np.isnan(value):
            raise InvalidMatchStateError(f"{away}-away {opponent_away}-away is not computed yet")
        return float(value)

    def check_covers(self, *aways: int) -> None:
        if max(aways) > len(self.pre):
            raise InvalidMatchStateError(f"the table being generated stops at {len(self.pre)}-away")


def generate_met(
    length: int = 25,
    *,
    gammon_rate: float = DEFAULT_GAMMON_RATE,
    crawford_gammon_rate: float = DEFAULT_CRAWFORD_GAMMON_RATE,
    post_crawford_gammon_rate: float = DEFAULT_POST_CRAWFORD_GAMMON_RATE,
    free_drop_2_away: float = DEFAULT_FREE_DROP_2_AWAY,
    free_drop_4_away: float = DEFAULT_FREE_DROP_4_AWAY,
    cube_efficiency: float = DEFAULT_EFFICIENCY,
    max_cube: int = 64,
) -> MatchEquityTable:
    """A match equity table up to ``length``-away from gammon rates (see the module docstring).

    Gammon rates are the share of games won that are gammons, the same for both sides.
    """
    _check_settings(length, gammon_rate, crawford_gammon_rate, post_crawford_gammon_rate,
                    free_drop_2_away, free_drop_4_away, cube_efficiency)
    post = post_crawford_row(length, post_crawford_gammon_rate, free_drop_2_away, free_drop_4_away)
    pre = np.full((length, length), np.nan)
    pre[0, 0] = 0.5
    for trailer_away in range(2, length + 1):
        pre[0, trailer_away - 1] = crawford_game_mwc(trailer_away, post, crawford_gammon_rate)
        pre[trailer_away - 1, 0] = 1.0 - pre[0, trailer_away - 1]
    table = _PartialTable(pre, post)
    even_game = GameProbabilities(0.5, 0.5 * gammon_rate, 0.0, 0.5 * gammon_rate, 0.0)
    for total in range(4, 2 * length + 1):
        for away in range(max(2, total - length), min(length, total - 2) + 1):
            score = MatchScore(away, total - away, max_cube=max_cube)
            model = MatchCubeModel(even_game, score, table, cube_efficiency)  # type: ignore[arg-type]
            pre[away - 1, total - away - 1] = model.cubeful(1, CubeOwner.CENTRED)(0.5)
    return MatchEquityTable(
        pre,
        post,
        name=f"generated (gammon rate {gammon_rate:g})",
        description=(
            f"bgengine.generate_met: gammon rates {gammon_rate:g} pre-Crawford, "
            f"{crawford_gammon_rate:g} Crawford, {post_crawford_gammon_rate:g} post-Crawford; "
            f"free drops {free_drop_2_away:g} (2-away), {free_drop_4_away:g} (4-away); "
            f"cube efficiency {cube_efficiency:g}"
        ),
        source="generated",
    )


def _check_settings(length: int, *rates_and_efficiency: float) -> None:
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= 64:
        raise InvalidCubeSettingsError(f"table length must be a whole number 1..64, got {length!r}")
    names = ("gammon_rate", "crawford_gammon_rate", "post_crawford_gammon_rate",
             "free_drop_2_away", "free_drop_4_away", "cube_efficiency")
    for name, value in zip(names, rates_and_efficiency, strict=True):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            raise InvalidCubeSettingsError(f"{name} must be a number in 0..1, got {value!r}")
    if rates_and_efficiency[3] > 0.5 or rates_and_efficiency[4] > 0.5:
        raise InvalidCubeSettingsError("a free drop is worth less than half the match")

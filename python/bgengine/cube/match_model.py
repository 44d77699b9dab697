"""Cubeful match winning chances by Janowski-style interpolation in MWC.

As for money, cubeful = (1 - x) * dead cube + x * live cube, as functions of the player's
cubeless winning chance p with the gammon shares held fixed. The live cube at cube value
v is piecewise linear in MWC through (0, MWC of a loss), the player's take point of a
double to 2v (valued as a pass), the player's cash point (valued as a cash) and (1, MWC of
a win). Those points come from the live functions at 2v, so the model recurses up the
cube until it is dead: at the maximum, in the Crawford game, or for a player whose win at
the current cube already wins the match (the doubler cannot gain).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from bgcore._cube_match import MAX_AWAY as C_MAX_AWAY
from bgengine.match_state import CubeOwner, MatchState
from bgengine.cube.doubling import DoublingFunctions, with_immediate_redouble
from bgengine.cube.match_equity import MatchScore, mwc_after_game, mwc_if_player_loses, mwc_if_player_wins
from bgengine.cube.met import MatchEquityTable, MwcSource
from bgengine.cube.piecewise_linear import PiecewiseLinear
from bgengine.cube.state_efficiency import StateEfficiencies, as_state_efficiencies
from bgengine.probabilities import GameProbabilities


class MatchCubeModel:
    """Cubeful MWC of the player on roll at one score, for one set of gammon shares; each
    cube state with its own x (``efficiency``: one number for every state, or by state)."""

    def __init__(
        self,
        probabilities: GameProbabilities,
        score: MatchScore,
        met: MwcSource,
        efficiency: float | StateEfficiencies,
    ) -> None:
        met.check_covers(score.away, score.opponent_away)
        self.probabilities = probabilities
        self.score = score
        self.met = met
        self.efficiency = as_state_efficiencies(efficiency)
        self.live = lru_cache(maxsize=None)(self._live)
        self.dead = lru_cache(maxsize=None)(self._dead)

    # ----- values of game results -----------------------------------------------------

    def after_game(self, player_points: int, opponent_points: int) -> float:
        return mwc_after_game(self.met, self.score, player_points, opponent_points)

    def _dead(self, cube_value: int) -> PiecewiseLinear:
        """Cubeless MWC at this cube as a function of p: the line from a loss to a win."""
        return PiecewiseLinear.line(
            mwc_if_player_loses(self.met, self.score, self.probabilities, cube_value),
            mwc_if_player_wins(self.met, self.score, self.probabilities, cube_value),
        )

    def can_gain_by_doubling(self, player: bool, cube_value: int) -> bool:
        """Could this side gain by turning the cube from ``cube_value``? (player: on roll)."""
        if self.score.crawford or cube_value * 2 > self.score.max_cube:
            return False
        away = self.score.away if player else self.score.opponent_away
        return cube_value < away

    # ----- the live cube --------------------------------------------------------------

    def _live(self, cube_value: int, owner: CubeOwner) -> PiecewiseLinear:
        """Fully-live cube MWC of the player at this cube value and ownership."""
        dead = self.dead(cube_value)
        knots = [(0.0, dead(0.0)), (1.0, dead(1.0))]
        inner = []
        if owner is not CubeOwner.PLAYER and self.can_gain_by_doubling(False, cube_value):
            pass_value = self.after_game(0, cube_value)
            take_point = self.live(2 * cube_value, CubeOwner.PLAYER).solve(pass_value)
            inner.append((take_point, pass_value))
        if owner is not CubeOwner.OPPONENT and self.can_gain_by_doubling(True, cube_value):
            cash_value = self.after_game(cube_value, 0)
            cash_point = self.live(2 * cube_value, CubeOwner.OPPONENT).solve(cash_value)
            inner.append((cash_point, cash_value))
        if len(inner) == 2 and inner[0][0] >= inner[1][0]:
            # The windows overlap: whoever is ahead cashes; meet in the middle.
            inner = [((inner[0][0] + inner[1][0]) / 2, (inner[0][1] + inner[1][1]) / 2)]
        knots += [(x, y) for x, y in inner if 0.0 < x < 1.0]
        return PiecewiseLinear(knots)

    def cubeful(self, cube_value: int, owner: CubeOwner) -> PiecewiseLinear:
        """Janowski-style cubeful MWC: (1 - x) * dead + x * live, x of this cube state."""
        return self.dead(cube_value).blend(self.live(cube_value, owner), self.efficiency.of(owner))

    # ----- the decision ---------------------------------------------------------------

    def doubling_functions(self, reason_not_to_double: str) -> DoublingFunctions:
        """No double, Double/Take (the taker may redouble at once, unless the cube is dead,
        x = 0, or the x are exact: ``StateEfficiencies.taker_redoubles_at_once``), Double/Pass, in MWC."""
        cube = self.score.cube_value
        no_double = self.cubeful(cube, self.score.cube_owner)
        if reason_not_to_double:
            return DoublingFunctions(no_double, None, None, note=reason_not_to_double)
        double_take = self.cubeful(2 * cube, CubeOwner.OPPONENT)
        if self.efficiency.taker_redoubles_at_once and self.can_gain_by_doubling(False, 2 * cube):
            double_take = with_immediate_redouble(
                double_take, self.cubeful(4 * cube, CubeOwner.PLAYER), self.after_game(0, 2 * cube)
            )
        note = "" if self.can_gain_by_doubling(True, cube) else "dead cube: the doubler cannot gain"
        return DoublingFunctions(no_double, double_take, self.after_game(cube, 0), note=note)


def match_cube_spec(match: MatchState, met: MatchEquityTable) -> tuple[Any, ...] | None:
    """This model for the C match cube (bgcore._cube_match) at ``match``'s score, seen from
    its player on roll: (away, opponent's away, Crawford game, after the Crawford game,
    maximum cube, pre-Crawford rows, post-Crawford row); the cube efficiency is given apart
    (it goes with the position). None when the table or the aways go beyond what the C cube
    holds (or the table does not cover the score)."""
    away, opponent_away = match.away(match.on_roll), match.away(1 - match.on_roll)
    if match.is_money or max(away, opponent_away) > min(met.length, C_MAX_AWAY):
        return None
    score = MatchScore.from_match_state(match)
    return (away, opponent_away, match.crawford, score.after_crawford_game_started, match.max_cube,
            met.pre_crawford, met.post_crawford)

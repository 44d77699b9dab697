"""The cube inside rollout games: decisions and values by ``cube_decision`` at 0-ply.

``cube_referee()`` is the referee factory a cubeful rollout takes (``rollout(...,
referee=cube_referee())``, the seam in ``bgengine.rollouts.referee``). The kernel calls the
``CubeReferee`` (with the GIL) when the player on roll may double, and to value a game that
ends; by default the kernel makes the same decisions in C without the GIL instead (money:
``money_cube_in_c``, matches: ``match_cube_in_c``). Values are the root player's (the player on roll at the start of the rollout):
money equity per starting cube, or match winning chance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bgengine.cube.decision import CubeAction, cube_decision
from bgengine.cube.efficiency import checked_efficiency, efficiency_rule
from bgengine.match_state import CubeOwner
from bgengine.cube.match_equity import MatchScore, mwc_after_game
from bgengine.cube.match_model import match_cube_spec
from bgengine.match_state import MatchState
from bgengine.cube.met import MatchEquityTable, default_met
from bgengine.position import Position
from bgengine.probabilities import EquityUnit, GameProbabilities
from bgengine.rollouts.referee import DOUBLE_BEAVER, DOUBLE_PASS, DOUBLE_TAKE, NO_DOUBLE, RefereeFactory

# The seam's owner codes (seen from the mover: +1 the mover, -1 the other side, 0 centred).
_OWNER_FROM_KERNEL = {0: CubeOwner.CENTRED, 1: CubeOwner.PLAYER, -1: CubeOwner.OPPONENT}
_KERNEL_OWNER = {owner: code for code, owner in _OWNER_FROM_KERNEL.items()}


@dataclass(frozen=True)
class CubeReferee:
    """Cube decisions and game values for the kernel, for one game's match state.

    Owners passed in and out are relative: +1 the player on roll (or the root, in
    ``initial_cube``), -1 the other side, 0 centred. ``rollout`` values the root's
    "no double" (the root does not double before its first roll); ``rollout_moves``
    rolls out positions after a move, where the next player may double at once.
    """

    match: MatchState
    efficiency: float | None = None
    root_may_double: bool = False  # True after a move: the next player may double at once
    in_c: bool = True  # decisions and values in the kernel's C (bgcore/_cube_money.pxd, _cube_match.pxd)

    @property
    def unit(self) -> EquityUnit:
        return EquityUnit.MONEY if self.match.is_money else EquityUnit.MWC

    def initial_cube(self) -> tuple[int, int, int]:
        """(cube value, owner seen from the root, largest value the cube may reach)."""
        m = self.match
        owner = _KERNEL_OWNER[m.relative_cube_owner()]
        largest = m.cube_value if m.crawford else m.max_cube
        return m.cube_value, owner, largest

    def efficiency_rule_in_c(self) -> tuple[object, ...]:
        """The cube efficiency rule for the kernel (``efficiency.efficiency_rule``): the given x,
        else each decision's by the class of its position, as ``decide`` and ``cube_decision``."""
        return efficiency_rule(self.efficiency, self.match)

    def money_cube_in_c(self) -> tuple[bool, bool, int, int] | None:
        """(jacoby, beavers, starting cube, maximum cube) for the kernel to decide money games
        in C without the GIL, the same model as ``decide``; None: ask ``decide``."""
        m = self.match
        if not (self.in_c and m.is_money):
            return None
        return m.jacoby, m.beavers, m.cube_value, m.max_cube

    def match_cube_in_c(self) -> tuple[Any, ...] | None:
        """The match model for the kernel to decide match games in C without the GIL, the
        same model as ``decide`` (``match_model.match_cube_spec``); None: ask ``decide``
        (money play, ``in_c`` off, or aways beyond the C table)."""
        m = self.match
        if not self.in_c or m.is_money:
            return None
        return match_cube_spec(m, self._met())

    def _state(self, cube_value: int, owner_from_mover: int, mover_is_root: bool) -> MatchState:
        """The match state with the player on roll being the mover (player 0 is the root)."""
        on_roll = self.match.on_roll if mover_is_root else 1 - self.match.on_roll
        owner = _OWNER_FROM_KERNEL[owner_from_mover].absolute(on_roll)
        return self.match.with_changes(
            cube_value=cube_value, cube_owner=owner, on_roll=on_roll, dice=None, double_offered=False
        )

    def decide(self, mover5: Sequence[float], cube_value: int, owner_from_mover: int, mover_is_root: bool,
               board: bytes) -> int:
        """The mover's action at 0-ply from the mover's probabilities, as a kernel code; the
        board (the mover's view) gives the cube efficiency's class."""
        decision = cube_decision(
            Position._trusted(board),
            match=self._state(cube_value, owner_from_mover, mover_is_root),
            probabilities=GameProbabilities.from_estimate(mover5),
            cube_efficiency=self.efficiency,
            exact_bearoff_efficiency=False,  # the class's x, as the kernel's C referee decides
        )
        return _ACTION_CODES.get(decision.action, NO_DOUBLE)

    def finished_value(self, root_result: int, cube_value: int, centred: bool) -> float:
        """Value for the root of a game it won (> 0) or lost (< 0) as a single (1), gammon (2)
        or backgammon (3) at this cube; under the Jacoby rule a centred cube's gammons count 1."""
        points = self.match.game_points(abs(root_result), cube_value, centred=centred)
        root_points = points if root_result > 0 else -points
        if self.match.is_money:
            return root_points / self.match.cube_value
        score = MatchScore.from_match_state(self.match)
        won, lost = (root_points, 0) if root_points > 0 else (0, -root_points)
        return mwc_after_game(self._met(), score, won, lost)

    def position_value(self, mover5: Sequence[float], cube_value: int, owner_from_mover: int, mover_is_root: bool,
                       board: bytes) -> float:
        """0-ply cubeful value for the root of a position where the game stops (truncation)."""
        decision = cube_decision(
            Position._trusted(board),
            match=self._state(cube_value, owner_from_mover, mover_is_root),
            probabilities=GameProbabilities.from_estimate(mover5),
            cube_efficiency=self.efficiency,
            exact_bearoff_efficiency=False,
        )
        best = decision.no_double
        if decision.double_take is not None and decision.double_pass is not None:
            best = max(best, min(decision.double_take, decision.double_pass))
        if self.match.is_money:
            value = best * cube_value / self.match.cube_value
            return value if mover_is_root else -value
        return best if mover_is_root else 1.0 - best

    def luck_scale(self, cube_value: int) -> float:
        """Root's cubeful units per point of cubeless equity at this cube (for luck)."""
        if self.match.is_money:
            return cube_value / self.match.cube_value
        score = MatchScore.from_match_state(self.match)
        win = mwc_after_game(self._met(), score, cube_value, 0)
        lose = mwc_after_game(self._met(), score, 0, cube_value)
        return (win - lose) / 2.0

    def _met(self) -> MatchEquityTable:
        return default_met()


_ACTION_CODES = {
    CubeAction.DOUBLE_TAKE: DOUBLE_TAKE,
    CubeAction.REDOUBLE_TAKE: DOUBLE_TAKE,
    CubeAction.DOUBLE_PASS: DOUBLE_PASS,
    CubeAction.REDOUBLE_PASS: DOUBLE_PASS,
    CubeAction.DOUBLE_BEAVER: DOUBLE_BEAVER,
    CubeAction.REDOUBLE_BEAVER: DOUBLE_BEAVER,
}


def cube_referee(cube_efficiency: float | None = None, *, in_c: bool = True) -> RefereeFactory:
    """The referee factory of cubeful rollouts: cube decisions at 0-ply with this Janowski
    cube efficiency (None: each decision's by the class of its position, raised post-Crawford
    for the free double, as ``cube_decision`` at the top level).
    Games are decided in C inside the kernel, without the GIL (the same model and
    decisions), unless ``in_c`` is False: then through ``cube_decision``."""
    efficiency = None if cube_efficiency is None else checked_efficiency(cube_efficiency)

    def referee(match: MatchState, *, root_may_double: bool) -> CubeReferee:
        return CubeReferee(match, efficiency, root_may_double, in_c)

    return referee

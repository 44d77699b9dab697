"""The referee seam: how cube play enters rollout games without rollouts knowing the cube.

A rollout is cubeless unless it is given a referee factory. The kernel asks the referee
(with the GIL) for the starting cube, for the mover's cube action before each roll, and
for the value of a game that ends or is truncated; values are the root player's (the
player on roll when the rollout starts). ``bgengine.cube.referee.CubeReferee`` is the
engine's referee. A referee may also offer ``money_cube_in_c()`` (jacoby, beavers,
starting cube, maximum cube): the kernel then decides money games in C
(bgcore/_cube_money.pxd) without calling it; and ``match_cube_in_c()`` (the root's and the
other's away, Crawford game, after the Crawford game, maximum cube, the match equity
table's pre-Crawford rows and post-Crawford row; aways up to
``bgcore._cube_match.MAX_AWAY``): the kernel decides match games in C (bgcore/_cube_match.pxd).
Such a referee also offers ``efficiency_rule_in_c()`` (``bgengine.cube.efficiency.efficiency_rule``):
the kernel sets each decision's cube efficiency by the class of its position
(bgcore/_cube_efficiency.pxd), as ``cube_decision`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bgengine.match_state import MatchState
from bgengine.probabilities import EquityUnit

#: The mover's cube actions as the kernel (bgcore/_rollout.pyx) codes them.
NO_DOUBLE, DOUBLE_TAKE, DOUBLE_PASS, DOUBLE_BEAVER = 0, 1, 2, 3


class Referee(Protocol):
    """Cube decisions and game values for one rollout's games.

    Owners are relative: +1 the player on roll (the root, in ``initial_cube``), -1 the
    other side, 0 centred.
    """

    @property
    def unit(self) -> EquityUnit:
        """``EquityUnit.MONEY`` (per starting cube) or ``EquityUnit.MWC``."""
        ...

    @property
    def root_may_double(self) -> bool:
        """Whether the root's side may double before its first roll (after a move: yes)."""
        ...

    def initial_cube(self) -> tuple[int, int, int]:
        """(cube value, owner seen from the root, largest value the cube may reach)."""
        ...

    def decide(self, mover5: Sequence[float], cube_value: int, owner_from_mover: int, mover_is_root: bool,
               board: bytes) -> int:
        """The mover's action before rolling (a kernel code) from the mover's 5-vector,
        evaluated at the rollout's cube depth (``RolloutSettings.cube_plies``, or
        ``later_plies`` later in the game), and its board (the mover's view, 26 slots):
        the kernel looks ahead, the referee decides."""
        ...

    def finished_value(self, root_result: int, cube_value: int, centred: bool) -> float:
        """The root's value of a game it won (> 0) or lost (< 0) by 1, 2 or 3 points per cube."""
        ...

    def position_value(self, mover5: Sequence[float], cube_value: int, owner_from_mover: int, mover_is_root: bool,
                       board: bytes) -> float:
        """The root's cubeful value of a position where the game stops (truncation), from
        the mover's 5-vector at the checker-play depth of that ply and its board."""
        ...

    def luck_scale(self, cube_value: int) -> float:
        """The root's cubeful units per point of cubeless equity at this cube (for luck)."""
        ...


class RefereeFactory(Protocol):
    """Makes the referee of one rollout from its match state (whose player on roll is the root)."""

    def __call__(self, match: MatchState, *, root_may_double: bool) -> Referee: ...

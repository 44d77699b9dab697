"""Exact money cube equities from the two-sided bear-off table, where it covers the position.

The table (``bearoff.two_sided_table``) holds each position's cubeful money equity with
optimal cube play for every cube owner; no model is needed there. It assumes no beavers
and no limit on the cube, and there are no gammons at these checker counts.
"""

from __future__ import annotations

from bgengine.evaluation import bearoff
from bgengine.match_state import CubeOwner
from bgengine.cube.doubling import DoublingFunctions
from bgengine.match_state import MatchState
from bgengine.cube.piecewise_linear import PiecewiseLinear
from bgengine.position import Position

EXACT_NOTE = "exact two-sided bear-off equities"

_TABLE_OWNER = {
    CubeOwner.CENTRED: "centred",
    CubeOwner.PLAYER: "owned",
    CubeOwner.OPPONENT: "opponent_owns",
}


def exact_money_doubling_functions(
    position: Position, match: MatchState, owner: CubeOwner
) -> DoublingFunctions | None:
    """No double, Double/Take, Double/Pass per current cube from the table; None if it does not apply."""
    if not match.is_money or match.beavers:
        return None
    table = bearoff.two_sided_table()
    if not table.covers(position):
        return None
    equities = table.equities(position)
    no_double = PiecewiseLinear.constant(getattr(equities, _TABLE_OWNER[owner]))
    reason = match.why_no_double()
    if reason:
        return DoublingFunctions(no_double, None, None, note=f"{reason}; {EXACT_NOTE}", exact=True)
    double_take = PiecewiseLinear.constant(2.0 * equities.opponent_owns)
    return DoublingFunctions(no_double, double_take, 1.0, note=EXACT_NOTE, exact=True)

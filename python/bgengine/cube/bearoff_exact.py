"""Exact money cube equities from the two-sided bear-off table, where it covers the position.

The table (``bearoff.two_sided_table``) holds each position's cubeful money equity with
optimal cube play for every cube owner, before the roll; no model is needed there. It
assumes no beavers and no limit on the cube, and there are no gammons at these checker
counts. A table value with access to the cube already includes doubling now when that
is best, so No double is worked out one roll deeper: the player rolls without doubling,
plays the best move, and the opponent has the cube as it was.
"""

from __future__ import annotations

from bgengine.evaluation import bearoff
from bgengine.game.record import ROLLS
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
    reason = match.why_no_double()
    if reason:  # the player cannot double: the table's value is the no-double value
        no_double_value = getattr(equities, _TABLE_OWNER[owner])
    else:
        (no_double_value,) = _no_double_now(table, position, (owner,))
    no_double = PiecewiseLinear.constant(no_double_value)
    if reason:
        return DoublingFunctions(no_double, None, None, note=f"{reason}; {EXACT_NOTE}", exact=True)
    double_take = PiecewiseLinear.constant(2.0 * equities.opponent_owns)
    return DoublingFunctions(no_double, double_take, 1.0, note=EXACT_NOTE, exact=True)


#: After the mover's play the opponent is on roll: the same cube, seen from the other side.
_OWNER_AFTER_MOVE = {
    CubeOwner.CENTRED: CubeOwner.CENTRED,
    CubeOwner.PLAYER: CubeOwner.OPPONENT,
    CubeOwner.OPPONENT: CubeOwner.PLAYER,
}


def exact_no_doubles(position: Position, owners: tuple[CubeOwner, ...]) -> tuple[float, ...]:
    """The exact money No double equities per cube of a position in the two-sided table, one
    for each cube owner given (one pass over the rolls and plays for all)."""
    return _no_double_now(bearoff.two_sided_table(), position, owners)


def _no_double_now(table: bearoff.TwoSidedTable, position: Position, owners: tuple[CubeOwner, ...]) -> tuple[float, ...]:
    """The player on roll's equity per cube when not doubling now, for each owner: over the
    36 rolls, the play best for the player, then the opponent's exact value with the cube
    unchanged."""
    totals = [0.0] * len(owners)
    for dice in ROLLS:
        legal = position.legal_moves(dice)
        children = [legal.position_after(i) for i in range(len(legal))]
        weight = 1 if dice[0] == dice[1] else 2
        for k, owner in enumerate(owners):
            totals[k] += weight * max(_value_after_play(table, child, owner) for child in children)
    return tuple(total / 36 for total in totals)


def _value_after_play(table: bearoff.TwoSidedTable, child: Position, owner: CubeOwner) -> float:
    """The mover's equity per cube after a play (``child`` is seen from the opponent)."""
    if child.is_game_over():
        return 1.0  # the mover bore off the last checker; no gammons at these counts
    return -getattr(table.equities(child), _TABLE_OWNER[_OWNER_AFTER_MOVE[owner]])

"""Money cube equities by Janowski's model: cubeful = (1 - x) * dead cube + x * live cube.

W and L are the average points of a game won and of a game lost (gammons and backgammons
included). The fully-live cube equity is piecewise linear in the cubeless winning chance
p through (0, -L), the live take point (TP, -1), the live cash point (CP, +1) and (1, W);
the cube's owner decides which of TP and CP are knots. Equities are per current cube
value, from the player on roll.
"""

from __future__ import annotations

from bgengine.match_state import CubeOwner
from bgengine.cube.doubling import DoublingFunctions, with_immediate_redouble
from bgengine.match_state import MatchState
from bgengine.cube.piecewise_linear import PiecewiseLinear
from bgengine.cube.state_efficiency import StateEfficiencies, as_state_efficiencies
from bgengine.probabilities import GameProbabilities


def live_take_point(W: float, L: float) -> float:  # noqa: N803 - Janowski's names
    """Take point of a player with average win W and loss L when the cube is fully live."""
    return (L - 0.5) / (W + L + 0.5)


def live_cash_point(W: float, L: float) -> float:  # noqa: N803
    """Cash point (the opponent's live take point, in the player's chances), fully live cube."""
    return (L + 1.0) / (W + L + 0.5)


def take_point(W: float, L: float, efficiency: float) -> float:  # noqa: N803
    """Janowski's take point, in the taker's chances, with the taker's own W and L."""
    return (L - 0.5) / (W + L + 0.5 * efficiency)


def cash_point(W: float, L: float, efficiency: float) -> float:  # noqa: N803
    """Janowski's cash point, in the doubler's chances, with the doubler's own W and L."""
    return (L + 0.5 + 0.5 * efficiency) / (W + L + 0.5 * efficiency)


def dead_equity(W: float, L: float) -> PiecewiseLinear:  # noqa: N803
    """Cubeless equity as a function of p: p * W - (1 - p) * L."""
    return PiecewiseLinear.line(-L, W)


def live_equity(W: float, L: float, owner: CubeOwner, *, jacoby: bool = False) -> PiecewiseLinear:  # noqa: N803
    """Fully-live cube equity of the player on roll as a function of p (see module docstring).

    Under the Jacoby rule a centred cube's gammons do not count, so playing on past the
    cash point (or the opponent's) is worth only +1 (or -1).
    """
    if jacoby and owner is CubeOwner.CENTRED:
        knots = [(0.0, -1.0), (1.0, 1.0)]
    else:
        knots = [(0.0, -L), (1.0, W)]
    if owner is not CubeOwner.PLAYER:
        knots.append((live_take_point(W, L), -1.0))
    if owner is not CubeOwner.OPPONENT:
        knots.append((live_cash_point(W, L), 1.0))
    return PiecewiseLinear(knots)


def cubeful_equity(
    W: float, L: float, owner: CubeOwner, efficiency: float, *, jacoby: bool = False  # noqa: N803
) -> PiecewiseLinear:
    """Janowski's cubeful money equity, per cube, as a function of p."""
    gammons_count = not (jacoby and owner is CubeOwner.CENTRED)
    dead = dead_equity(W, L) if gammons_count else dead_equity(1.0, 1.0)
    return dead.blend(live_equity(W, L, owner, jacoby=jacoby), efficiency)


def money_doubling_functions(
    probabilities: GameProbabilities, match: MatchState, owner: CubeOwner, efficiency: float | StateEfficiencies
) -> DoublingFunctions:
    """No double, Double/Take, Double/Pass (and Double/Beaver) for money, per current cube;
    each line with the x of its cube state (one number: every state's).

    Double/Take lets the taker redouble at once when the cube can go that high and the model
    says so (``StateEfficiencies.taker_redoubles_at_once``: not with a dead cube, x = 0, nor
    with exact x, whose values hold the redoubles already); a
    beaver (when allowed) turns the cube twice and leaves it with the taker. Raccoons are not
    modelled.
    """
    x = as_state_efficiencies(efficiency)
    W, L = probabilities.average_win_value(), probabilities.average_loss_value()  # noqa: N806
    no_double = cubeful_equity(W, L, owner, x.of(owner), jacoby=match.jacoby)
    reason = match.why_no_double()
    if reason:
        return DoublingFunctions(no_double, None, None, note=reason)
    taker_owns = cubeful_equity(W, L, CubeOwner.OPPONENT, x.opponent_owns)
    double_take = taker_owns.scaled(2.0)
    room_for_redouble = match.cube_value * 4 <= match.max_cube and x.taker_redoubles_at_once
    if room_for_redouble:
        doubler_owns = cubeful_equity(W, L, CubeOwner.PLAYER, x.owned)
        double_take = with_immediate_redouble(double_take, doubler_owns.scaled(4.0), -2.0)
    double_beaver = taker_owns.scaled(4.0) if match.may_beaver() else None
    return DoublingFunctions(no_double, double_take, 1.0, double_beaver)

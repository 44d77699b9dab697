# cython: language_level=3
"""Janowski's money model in C, step for step as bgengine.cube.janowski builds it (the same
piecewise-linear functions, bgcore/_piecewise_linear.pxd), so values agree bit for bit:
the cubeful search (bgengine.cube.cubeful) values its money leaves here.

(The rollout referee's money cube, bgcore/_cube_money.pxd, evaluates the same model point
by point: equal to rounding, not bit for bit.)
"""

from bgcore._piecewise_linear cimport Line, line_at, straight, blend, extremum
from bgcore._cube_money cimport clamped_estimate
from bgcore._types cimport checker_t
from bgcore._cube_efficiency cimport (efficiencies_from, EfficiencyRule, efficiency_rule_from, batch_classes,
                                      board_efficiency, CLASS_OVER)

cdef enum:
    OWNER_PLAYER = 1
    OWNER_OPPONENT = -1


cdef double average_value(double total, double gammon, double backgammon) noexcept nogil:
    """GameProbabilities.average_win_value / average_loss_value from the shares."""
    cdef double single, gammons, backgammons
    if total <= 0.0:
        single, gammons, backgammons = 1.0, 0.0, 0.0
    else:
        single = (total - gammon) / total
        gammons = (gammon - backgammon) / total
        backgammons = backgammon / total
    return single + 2.0 * gammons + 3.0 * backgammons


cdef void cubeful_equity(double W, double L, int owner, double x, bint jacoby, Line* out) noexcept nogil:
    """janowski.cubeful_equity: dead.blend(live, x); owner seen from the player on roll."""
    cdef Line dead, live
    cdef bint single_only = jacoby and owner == 0
    if single_only:
        straight(&dead, -1.0, 1.0)
    else:
        straight(&dead, -L, W)
    live.n = 0
    live.xs[live.n] = 0.0
    live.ys[live.n] = -1.0 if single_only else -L
    live.n += 1
    if owner != OWNER_PLAYER:
        live.xs[live.n] = (L - 0.5) / (W + L + 0.5)     # live take point
        live.ys[live.n] = -1.0
        live.n += 1
    if owner != OWNER_OPPONENT:
        live.xs[live.n] = (L + 1.0) / (W + L + 0.5)     # live cash point
        live.ys[live.n] = 1.0
        live.n += 1
    live.xs[live.n] = 1.0
    live.ys[live.n] = 1.0 if single_only else W
    live.n += 1
    blend(&dead, &live, x, out)


cdef void scaled(Line* f, double factor) noexcept nogil:
    cdef int k
    for k in range(f.n):
        f.ys[k] = factor * f.ys[k]


cdef double best_value(const double* v, int cube_value, int owner, const double* x, bint jacoby,
                       bint beavers, int max_cube) noexcept nogil:
    """money_best_value's arithmetic on a double 5-vector and x by cube state (opponent owns,
    centred, owned)."""
    cdef double c[5]
    cdef Line no_double, take, redoubled, passes
    cdef double W, L, p, best, response, twice
    clamped_estimate(v, c)
    p = c[0]
    W = average_value(c[0], c[1], c[2])
    L = average_value(1.0 - c[0], c[3], c[4])
    cubeful_equity(W, L, owner, x[owner + 1], jacoby, &no_double)
    best = line_at(&no_double, p)
    if owner == OWNER_OPPONENT or cube_value * 2 > max_cube:
        return best
    cubeful_equity(W, L, OWNER_OPPONENT, x[0], False, &take)
    scaled(&take, 2.0)
    if cube_value * 4 <= max_cube and x[2] > 0.0:
        cubeful_equity(W, L, OWNER_PLAYER, x[2], False, &redoubled)
        scaled(&redoubled, 4.0)
        straight(&passes, -2.0, -2.0)
        extremum(&redoubled, &passes, False, &redoubled)
        extremum(&take, &redoubled, True, &take)
    response = line_at(&take, p)
    response = 1.0 if 1.0 < response else response
    if beavers and cube_value * 4 <= max_cube:
        twice = 2.0 * line_at(&take, p)
        response = twice if twice < response else response
    return response if response > best else best


def money_best_value(p5, int cube_value, int owner, efficiency, bint jacoby, bint beavers, int max_cube):
    """The player on roll's money equity per cube with the best cube action now, as
    ``CubefulSearch.value`` makes it from ``janowski.money_doubling_functions``: No double
    or the taker's best answer (take, pass, or beaver when allowed); owner from the player
    on roll (+1 own, -1 the opponent's, 0 centred); ``efficiency`` one x or x by cube state
    (opponent owns, centred, owned)."""
    cdef double x[3]
    cdef double v[5]
    efficiencies_from(efficiency, x)
    for i in range(5):
        v[i] = p5[i]
    return best_value(v, cube_value, owner, x, jacoby, beavers, max_cube)


def money_best_values(const checker_t[:, ::1] boards, const double[:, ::1] p5, tuple rule, int cube_value, int owner,
                      bint jacoby, bint beavers, int max_cube, double[::1] out, signed char[::1] classes):
    """``money_best_value`` of many positions at one cube (the children a search compares), each
    with x by its own class under ``rule`` (``efficiency.efficiency_rule()``'s numbers): the
    values into ``out``, the class codes into ``classes``; no value (NaN) for a finished game."""
    cdef EfficiencyRule r
    cdef double x[3]
    cdef Py_ssize_t i
    batch_classes(boards, p5, out, classes, "money_best_values")
    efficiency_rule_from(&r, rule)
    with nogil:
        for i in range(boards.shape[0]):
            if classes[i] != CLASS_OVER:
                board_efficiency(&r, &boards[i, 0], x)
                out[i] = best_value(&p5[i, 0], cube_value, owner, x, jacoby, beavers, max_cube)

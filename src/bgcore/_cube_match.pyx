# cython: language_level=3
"""The match-play cube referee in C (see _cube_match.pxd), and Python access for tests.

Each function mirrors one of bgengine.cube (match_equity, match_model, piecewise_linear,
decision) step by step: the piecewise-linear functions are built knot by knot and
evaluated as ``PiecewiseLinear.__call__`` does, so the values agree with the Python model
to rounding (bit for bit where the Python sums add in the same order) and the decisions
are the same.
"""

from bgcore._cube_match cimport MatchCube, MET_MAX_AWAY
from bgcore._piecewise_linear cimport Line, line_at, line_solve, straight, blend, extremum
from bgcore._cube_money cimport clamped_estimate
from bgcore._types cimport checker_t
from bgcore._cube_efficiency cimport (efficiencies_from, EfficiencyRule, efficiency_rule_from, batch_classes,
                                      board_efficiency, CLASS_OVER)

cdef enum:
    NO_DOUBLE = 0
    DOUBLE_TAKE = 1
    DOUBLE_PASS = 2
    OWNER_PLAYER = 1
    OWNER_OPPONENT = -1

cdef double TIE = 1e-12         # bgengine.cube.decision.TIE

#: The largest away score the C table holds (a longer match is refereed in Python).
MAX_AWAY = MET_MAX_AWAY


cdef struct Model:
    # The match model of one decision, from the mover (MatchCubeModel).
    const MatchCube* m
    int away
    int opponent_away
    double win_shares[3]        # of games won: single, gammon, backgammon
    double loss_shares[3]
    double win                  # cubeless winning chance


# ----- the table --------------------------------------------------------------------------

cdef double met_mwc(const MatchCube* m, int away, int opponent_away) noexcept nogil:
    """MatchEquityTable.mwc for aways the game can reach (both > 0)."""
    if m.after_crawford:
        if away == 1 and opponent_away == 1:
            return 0.5
        if away == 1:
            return 1.0 - m.post[opponent_away - 1]
        return m.post[away - 1]
    return m.pre[(away - 1) * MET_MAX_AWAY + opponent_away - 1]


cdef double after_game(const MatchCube* m, int away, int opponent_away, int points, int opponent_points) noexcept nogil:
    """mwc_after_game: the chance of the side ``away`` after these points."""
    away -= points
    opponent_away -= opponent_points
    if away <= 0:
        return 1.0
    if opponent_away <= 0:
        return 0.0
    return met_mwc(m, away, opponent_away)


# ----- the model (MatchCubeModel) -------------------------------------------------------------

cdef void shares(double total, double gammon, double backgammon, double* out) noexcept nogil:
    """probabilities._shares: single, gammon, backgammon shares of ``total``."""
    if total <= 0.0:
        out[0] = 1.0
        out[1] = 0.0
        out[2] = 0.0
        return
    out[0] = (total - gammon) / total
    out[1] = (gammon - backgammon) / total
    out[2] = backgammon / total


cdef Model model_of(const MatchCube* m, const double* mover5, bint mover_is_root) noexcept nogil:
    """The mover's model: aways from the mover, the 5-vector cleaned as GameProbabilities.from_estimate."""
    cdef Model md
    cdef double c[5]
    clamped_estimate(mover5, c)
    md.m = m
    md.away = m.root_away if mover_is_root else m.other_away
    md.opponent_away = m.other_away if mover_is_root else m.root_away
    md.win = c[0]
    shares(c[0], c[1], c[2], md.win_shares)
    shares(1.0 - c[0], c[3], c[4], md.loss_shares)
    return md


cdef inline double model_after(const Model* md, int points, int opponent_points) noexcept nogil:
    return after_game(md.m, md.away, md.opponent_away, points, opponent_points)


cdef void dead(const Model* md, int cube_value, Line* out) noexcept nogil:
    """Cubeless MWC at this cube: the line from the average loss to the average win."""
    cdef double wins = 0.0, losses = 0.0
    cdef int k
    for k in range(3):   # summed in the order of mwc_if_player_wins / _loses
        if md.win_shares[k] > 0.0:
            wins += md.win_shares[k] * model_after(md, (k + 1) * cube_value, 0)
    for k in range(3):
        if md.loss_shares[k] > 0.0:
            losses += md.loss_shares[k] * model_after(md, 0, (k + 1) * cube_value)
    straight(out, losses, wins)


cdef bint can_gain_by_doubling(const Model* md, bint player, int cube_value) noexcept nogil:
    if md.m.crawford or cube_value * 2 > md.m.max_cube:
        return False
    return cube_value < (md.away if player else md.opponent_away)


cdef void live(const Model* md, int cube_value, int owner, Line* out) noexcept nogil:
    """Fully-live cube MWC at this cube and ownership (MatchCubeModel._live)."""
    cdef Line line, higher
    cdef double inner_x[2]
    cdef double inner_y[2]
    cdef int inner = 0, k
    cdef double at_zero, at_one
    dead(md, cube_value, &line)
    at_zero = line_at(&line, 0.0)
    at_one = line_at(&line, 1.0)
    if owner != OWNER_PLAYER and can_gain_by_doubling(md, False, cube_value):
        inner_y[inner] = model_after(md, 0, cube_value)
        live(md, 2 * cube_value, OWNER_PLAYER, &higher)
        inner_x[inner] = line_solve(&higher, inner_y[inner])
        inner += 1
    if owner != OWNER_OPPONENT and can_gain_by_doubling(md, True, cube_value):
        inner_y[inner] = model_after(md, cube_value, 0)
        live(md, 2 * cube_value, OWNER_OPPONENT, &higher)
        inner_x[inner] = line_solve(&higher, inner_y[inner])
        inner += 1
    if inner == 2 and inner_x[0] >= inner_x[1]:   # the windows overlap: meet in the middle
        inner_x[0] = (inner_x[0] + inner_x[1]) / 2
        inner_y[0] = (inner_y[0] + inner_y[1]) / 2
        inner = 1
    out.n = 1
    out.xs[0] = 0.0
    out.ys[0] = at_zero
    for k in range(inner):
        if 0.0 < inner_x[k] < 1.0:
            out.xs[out.n] = inner_x[k]
            out.ys[out.n] = inner_y[k]
            out.n += 1
    out.xs[out.n] = 1.0
    out.ys[out.n] = at_one
    out.n += 1


cdef void cubeful(const Model* md, int cube_value, int owner, Line* out) noexcept nogil:
    """(1 - x) dead + x live."""
    cdef Line d, l
    dead(md, cube_value, &d)
    live(md, cube_value, owner, &l)
    blend(&d, &l, md.m.efficiency[owner + 1], out)


cdef bint doubling_equities(const Model* md, int cube_value, int owner,
                            double* no_double, double* take, double* drop) noexcept nogil:
    """No double, Double/Take, Double/Pass at the mover's chance (MatchCubeModel.doubling_functions
    evaluated as cube_decision does); 0 when the rules forbid the double (why_no_double)."""
    cdef Line f, redoubled, passes
    cdef const MatchCube* m = md.m
    cubeful(md, cube_value, owner, &f)
    no_double[0] = line_at(&f, md.win)
    if m.crawford or owner == OWNER_OPPONENT or cube_value * 2 > m.max_cube:
        return 0
    cubeful(md, 2 * cube_value, OWNER_OPPONENT, &f)
    if m.efficiency[2] > 0.0 and can_gain_by_doubling(md, False, 2 * cube_value):
        cubeful(md, 4 * cube_value, OWNER_PLAYER, &redoubled)
        straight(&passes, model_after(md, 0, 2 * cube_value), model_after(md, 0, 2 * cube_value))
        extremum(&redoubled, &passes, False, &redoubled)
        extremum(&f, &redoubled, True, &f)
    take[0] = line_at(&f, md.win)
    drop[0] = model_after(md, cube_value, 0)
    return 1


cdef inline bint _beats(double a, double b) noexcept nogil:
    return a - b > TIE


# ----- the referee ------------------------------------------------------------------------------

cdef int match_cube_from(MatchCube* m, object spec, object efficiency) except -1:
    root_away, other_away, crawford, after_crawford, max_cube, pre, post = spec
    cdef int size = min(len(pre), MET_MAX_AWAY), i, j
    if not (0 < root_away <= size and 0 < other_away <= size):
        raise ValueError(f"the C match cube holds aways up to {size}")
    efficiencies_from(efficiency, m.efficiency)
    m.root_away = root_away
    m.other_away = other_away
    m.crawford = crawford
    m.after_crawford = after_crawford
    m.max_cube = max_cube
    for i in range(MET_MAX_AWAY * MET_MAX_AWAY):
        m.pre[i] = 0.0
    for i in range(MET_MAX_AWAY):
        m.post[i] = 0.0
    for i in range(size):
        m.post[i] = post[i]
        for j in range(size):
            m.pre[i * MET_MAX_AWAY + j] = pre[i][j]
    m.active = True
    return 0


cdef inline void widened(const float* mover5, double* out5) noexcept nogil:
    cdef int k
    for k in range(5):
        out5[k] = mover5[k]


cdef int match_decide(const MatchCube* m, const float* mover5, int cube_value, int owner,
                      bint mover_is_root) noexcept nogil:
    cdef double p5[5]
    widened(mover5, p5)
    return decide(m, p5, cube_value, owner, mover_is_root)


cdef double match_position_value(const MatchCube* m, const float* mover5, int cube_value, int owner,
                                 bint mover_is_root) noexcept nogil:
    cdef double p5[5]
    widened(mover5, p5)
    return position_value(m, p5, cube_value, owner, mover_is_root)


cdef int decide(const MatchCube* m, const double* mover5, int cube_value, int owner,
                bint mover_is_root) noexcept nogil:
    cdef Model md = model_of(m, mover5, mover_is_root)
    cdef double no_double, take, drop
    if not doubling_equities(&md, cube_value, owner, &no_double, &take, &drop):
        return NO_DOUBLE
    if _beats(take, drop):      # the taker passes: double unless too good
        return NO_DOUBLE if _beats(no_double, drop) else DOUBLE_PASS
    if _beats(take, no_double):
        return DOUBLE_TAKE
    return NO_DOUBLE


cdef double position_value(const MatchCube* m, const double* mover5, int cube_value, int owner,
                           bint mover_is_root) noexcept nogil:
    cdef Model md = model_of(m, mover5, mover_is_root)
    cdef double best, take, drop
    if doubling_equities(&md, cube_value, owner, &best, &take, &drop):
        take = drop if drop < take else take
        best = take if take > best else best
    return best if mover_is_root else 1.0 - best


cdef double match_finished_value(const MatchCube* m, int root_result, int cube_value) noexcept nogil:
    cdef int points = cube_value * (root_result if root_result > 0 else -root_result)
    if root_result > 0:
        return after_game(m, m.root_away, m.other_away, points, 0)
    return after_game(m, m.root_away, m.other_away, 0, points)


cdef double match_luck_scale(const MatchCube* m, int cube_value) noexcept nogil:
    cdef double win = after_game(m, m.root_away, m.other_away, cube_value, 0)
    cdef double lose = after_game(m, m.root_away, m.other_away, 0, cube_value)
    return (win - lose) / 2.0


# ----- Python access, for tests against the Python referee -----------------------------------------

cdef class MatchCubeReferee:
    """The C match cube at one score, from a ``match_cube_in_c()`` spec, deciding with x = ``efficiency``
    (one number, or a triple by cube state: opponent owns, centred, owned)."""

    cdef MatchCube cube

    def __init__(self, spec, efficiency):
        match_cube_from(&self.cube, spec, efficiency)

    def decide(self, p5, int cube_value, int owner, bint mover_is_root):
        """The mover's action code; owner from the mover."""
        cdef double v[5]
        for i in range(5):
            v[i] = p5[i]
        return decide(&self.cube, v, cube_value, owner, mover_is_root)

    def position_value(self, p5, int cube_value, int owner, bint mover_is_root):
        """The root's MWC of a stopped game's position."""
        cdef double v[5]
        for i in range(5):
            v[i] = p5[i]
        return position_value(&self.cube, v, cube_value, owner, mover_is_root)

    def position_values(self, const checker_t[:, ::1] boards, const double[:, ::1] p5, tuple rule, int cube_value,
                        int owner, double[::1] out, signed char[::1] classes):
        """``position_value`` (the mover the root) of many valid boards at one cube (the children
        a search compares), each with x by its own class under ``rule``
        (``efficiency.efficiency_rule()``'s numbers) instead of the referee's x: the values into
        ``out``, the class codes into ``classes``; no value (NaN) for a finished game."""
        cdef EfficiencyRule r
        cdef MatchCube cube = self.cube
        cdef Py_ssize_t i
        batch_classes(boards, p5, out, classes, "position_values")
        efficiency_rule_from(&r, rule)
        with nogil:
            for i in range(boards.shape[0]):
                if classes[i] != CLASS_OVER:
                    board_efficiency(&r, &boards[i, 0], cube.efficiency)
                    out[i] = position_value(&cube, &p5[i, 0], cube_value, owner, True)

    def finished_value(self, int root_result, int cube_value):
        return match_finished_value(&self.cube, root_result, cube_value)

    def luck_scale(self, int cube_value):
        return match_luck_scale(&self.cube, cube_value)

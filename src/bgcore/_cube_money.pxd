# Money-play cube decisions in C, for the rollout kernel's referee (no GIL): Janowski's
# model as bgengine.cube.janowski states it (cubeful = (1 - x) dead + x live, per cube),
# from the mover's cubeless 5-vector. Owners are seen from the mover: +1 the mover owns
# the cube, -1 the opponent, 0 centred. Action codes are bgengine.rollouts.referee's.

cdef enum:
    MONEY_NO_DOUBLE = 0
    MONEY_DOUBLE_TAKE = 1
    MONEY_DOUBLE_PASS = 2
    MONEY_DOUBLE_BEAVER = 3

cdef struct MoneyCube:
    bint active                 # 0: the Python referee decides
    double efficiency[3]        # Janowski's x of the decision at hand by cube state, efficiency[owner + 1]
                                # with the owner from the mover (the kernel sets them per position)
    bint jacoby                 # gammons count single while the cube is centred
    bint beavers                # the doubled side may beaver
    int start_cube              # the rollout's starting cube (values are per starting cube)
    int max_cube                # no double beyond it


cdef struct Janowski:
    double p                    # cubeless winning chance
    double W                    # average points of a game won
    double L                    # average points of a game lost


cdef inline double _clamp(double v, double low, double high) noexcept nogil:
    return low if v < low else (high if v > high else v)


# An estimate cleaned as GameProbabilities.from_estimate: each value clamped under its parent.
cdef inline void clamped_estimate(const double* p5, double* out5) noexcept nogil:
    out5[0] = _clamp(p5[0], 0.0, 1.0)
    out5[1] = _clamp(p5[1], 0.0, out5[0])
    out5[2] = _clamp(p5[2], 0.0, out5[1])
    out5[3] = _clamp(p5[3], 0.0, 1.0 - out5[0])
    out5[4] = _clamp(p5[4], 0.0, out5[3])


# W, L and p from an estimate, cleaned as GameProbabilities.from_estimate (clamped).
cdef inline Janowski janowski_of(const float* p5) noexcept nogil:
    cdef Janowski j
    cdef double given[5]
    cdef double c[5]
    cdef int k
    for k in range(5):
        given[k] = p5[k]
    clamped_estimate(given, c)
    cdef double win = c[0], wg = c[1], wbg = c[2], lg = c[3], lbg = c[4]
    cdef double lose = 1.0 - win
    j.p = win
    j.W = 1.0 if win <= 0.0 else ((win - wg) + 2.0 * (wg - wbg) + 3.0 * wbg) / win
    j.L = 1.0 if lose <= 0.0 else ((lose - lg) + 2.0 * (lg - lbg) + 3.0 * lbg) / lose
    return j


# Value at p of the line through (x0, y0) and (x1, y1).
cdef inline double _on_line(double p, double x0, double y0, double x1, double y1) noexcept nogil:
    return y0 + (y1 - y0) * (p - x0) / (x1 - x0)


# Janowski's cubeful equity per cube of the player with chances j, the cube's owner seen
# from that player (+1, 0, -1); under the Jacoby rule a centred cube's gammons count single.
cdef inline double money_cubeful(const Janowski* j, int owner, double x, bint jacoby) noexcept nogil:
    cdef bint single_only = jacoby and owner == 0
    cdef double W = j.W, L = j.L, p = j.p
    cdef double take_point = (L - 0.5) / (W + L + 0.5)
    cdef double cash_point = (L + 1.0) / (W + L + 0.5)
    cdef double low = -1.0 if single_only else -L
    cdef double high = 1.0 if single_only else W
    cdef double dead = (2.0 * p - 1.0) if single_only else (-L + (W + L) * p)
    cdef double live
    cdef double xs[4]
    cdef double ys[4]
    cdef int n = 0, i
    xs[n] = 0.0; ys[n] = low; n += 1
    if owner != 1:
        xs[n] = take_point; ys[n] = -1.0; n += 1
    if owner != -1:
        xs[n] = cash_point; ys[n] = 1.0; n += 1
    xs[n] = 1.0; ys[n] = high; n += 1
    p = _clamp(p, 0.0, 1.0)
    i = 1
    while i < n - 1 and xs[i] <= p:
        i += 1
    live = _on_line(p, xs[i - 1], ys[i - 1], xs[i], ys[i])
    return (1.0 - x) * dead + x * live


# a beats b by more than rounding (bgengine.cube.decision.TIE: equities within 1e-12 are equal).
cdef inline bint _beats(double a, double b) noexcept nogil:
    return a - b > 1e-12


# No double, Double/take, Double/pass (+1) and Double/beaver (0 when not allowed: *beaver_ok)
# per current cube, as bgengine.cube.janowski.money_doubling_functions; 0 if the mover may
# not double (the opponent owns the cube, or it is at its maximum), else 1.
cdef inline bint money_equities(const MoneyCube* m, const float* mover5, int cube_value, int owner,
                                double* no_double, double* take, double* beaver, bint* beaver_ok) noexcept nogil:
    cdef Janowski j = janowski_of(mover5)
    cdef double taker_owns, redoubled
    no_double[0] = money_cubeful(&j, owner, m.efficiency[owner + 1], m.jacoby)
    beaver_ok[0] = False
    if owner == -1 or 2 * cube_value > m.max_cube:
        return 0
    taker_owns = money_cubeful(&j, -1, m.efficiency[0], False)
    take[0] = 2.0 * taker_owns
    if 4 * cube_value <= m.max_cube and m.efficiency[2] > 0.0:
        redoubled = 4.0 * money_cubeful(&j, 1, m.efficiency[2], False)
        if redoubled < -2.0:
            redoubled = -2.0
        if redoubled < take[0]:
            take[0] = redoubled
    if m.beavers and 4 * cube_value <= m.max_cube:
        beaver[0] = 4.0 * taker_owns
        beaver_ok[0] = True
    return 1


# The mover's action code (bgengine.cube.decision._action's rules, ties included).
cdef inline int money_decide(const MoneyCube* m, const float* mover5, int cube_value, int owner) noexcept nogil:
    cdef double no_double, take, beaver = 0.0, drop = 1.0, response
    cdef bint beaver_ok
    if not money_equities(m, mover5, cube_value, owner, &no_double, &take, &beaver, &beaver_ok):
        return MONEY_NO_DOUBLE
    response = take if take < drop else drop
    if beaver_ok and _beats(response, beaver):
        return MONEY_DOUBLE_BEAVER if _beats(beaver, no_double) else MONEY_NO_DOUBLE
    if _beats(take, drop):
        return MONEY_NO_DOUBLE if _beats(no_double, drop) else MONEY_DOUBLE_PASS
    if _beats(take, no_double):
        return MONEY_DOUBLE_TAKE
    return MONEY_NO_DOUBLE


# The mover's cubeful value per current cube with the best cube action now: max(No double,
# min(Double/take, Double/pass)) when the mover may double (CubeReferee.position_value).
cdef inline double money_best_value(const MoneyCube* m, const float* mover5, int cube_value, int owner) noexcept nogil:
    cdef double no_double, take, beaver = 0.0
    cdef bint beaver_ok
    if not money_equities(m, mover5, cube_value, owner, &no_double, &take, &beaver, &beaver_ok):
        return no_double
    if take > 1.0:
        take = 1.0
    return no_double if no_double > take else take


# Points of a game won (> 0) or lost (< 0) by 1, 2 or 3 at this cube, per starting cube;
# under the Jacoby rule a centred cube's gammons count single.
cdef inline double money_finished_value(const MoneyCube* m, int root_result, int cube_value, bint centred) noexcept nogil:
    cdef int result = root_result if root_result > 0 else -root_result
    cdef int points = cube_value * (1 if m.jacoby and centred else result)
    return (points if root_result > 0 else -points) / <double>m.start_cube

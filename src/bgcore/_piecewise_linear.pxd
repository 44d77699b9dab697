# Continuous piecewise-linear functions on [0, 1] in C, step for step as
# bgengine.cube.piecewise_linear.PiecewiseLinear computes them (the same knots, the same
# evaluation), so C cube models give the Python models' values bit for bit.

cdef enum:
    PL_MAX_KNOTS = 48           # knots of one function (the cube models need fewer than 25)


cdef struct Line:
    # A piecewise-linear function on [0, 1]: knots xs strictly increasing from 0 to 1.
    int n
    double xs[PL_MAX_KNOTS]
    double ys[PL_MAX_KNOTS]

cdef inline double line_at(const Line* f, double x) noexcept nogil:
    """PiecewiseLinear.__call__."""
    cdef int i = 0
    x = 0.0 if 0.0 > x else x
    x = 1.0 if x > 1.0 else x
    while i < f.n and f.xs[i] <= x:     # bisect_right
        i += 1
    if i > f.n - 1:
        i = f.n - 1
    return f.ys[i - 1] + (f.ys[i] - f.ys[i - 1]) * (x - f.xs[i - 1]) / (f.xs[i] - f.xs[i - 1])


cdef inline double line_solve(const Line* f, double target) noexcept nogil:
    """PiecewiseLinear.solve: the smallest x where the function reaches target."""
    cdef int i
    if f.ys[0] >= target:
        return 0.0
    for i in range(1, f.n):
        if f.ys[i] >= target:
            return f.xs[i - 1] + (f.xs[i] - f.xs[i - 1]) * (target - f.ys[i - 1]) / (f.ys[i] - f.ys[i - 1])
    return 1.0


cdef inline void straight(Line* f, double at_zero, double at_one) noexcept nogil:
    f.n = 2
    f.xs[0] = 0.0
    f.ys[0] = at_zero
    f.xs[1] = 1.0
    f.ys[1] = at_one


cdef inline int merged_xs(const double* a, int na, const double* b, int nb, double* out) noexcept nogil:
    """sorted(set(a) | set(b)) of two increasing sequences; returns the count."""
    cdef int i = 0, j = 0, n = 0
    cdef double v
    while i < na or j < nb:
        if j >= nb or (i < na and a[i] < b[j]):
            v = a[i]
            i += 1
        elif i >= na or b[j] < a[i]:
            v = b[j]
            j += 1
        else:
            v = a[i]
            i += 1
            j += 1
        if n == 0 or v != out[n - 1]:
            out[n] = v
            n += 1
    return n


cdef inline void blend(const Line* f, const Line* g, double w, Line* out) noexcept nogil:
    """(1 - w) f + w g knot by knot (PiecewiseLinear.blend)."""
    cdef int k
    cdef Line result
    result.n = merged_xs(f.xs, f.n, g.xs, g.n, result.xs)
    for k in range(result.n):
        result.ys[k] = (1.0 - w) * line_at(f, result.xs[k]) + w * line_at(g, result.xs[k])
    out[0] = result


cdef inline void extremum(const Line* f, const Line* g, bint smaller, Line* out) noexcept nogil:
    """min(f, g) or max(f, g) with the crossings as knots (PiecewiseLinear.minimum/maximum)."""
    cdef double xs[PL_MAX_KNOTS]
    cdef double crossings[PL_MAX_KNOTS]
    cdef int n = merged_xs(f.xs, f.n, g.xs, g.n, xs), c = 0, k
    cdef double da, db, a, b, fv, gv
    cdef Line result
    for k in range(n - 1):
        a = xs[k]
        b = xs[k + 1]
        da = line_at(f, a) - line_at(g, a)
        db = line_at(f, b) - line_at(g, b)
        if da * db < 0.0:
            crossings[c] = a + (b - a) * da / (da - db)
            c += 1
    result.n = merged_xs(xs, n, crossings, c, result.xs)
    for k in range(result.n):
        fv = line_at(f, result.xs[k])
        gv = line_at(g, result.xs[k])
        if smaller:
            result.ys[k] = gv if gv < fv else fv
        else:
            result.ys[k] = gv if gv > fv else fv
    out[0] = result

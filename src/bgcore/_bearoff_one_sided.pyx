# cython: language_level=3
"""The one-sided bear-off table: roll-count distributions of one side bearing off.

For every position of up to 15 checkers on points 1..P (ranked by ``_bearoff_index``),
P(all checkers off in exactly k rolls) and, for positions with all 15 checkers,
P(first checker off in exactly k rolls), each with play that minimises its expected
number of rolls. Built in one pass in rank order (every move lowers the rank), either
step by step (fast) or from legal_children (the reference).
"""

import numpy as np
from libc.math cimport INFINITY
from libc.stdlib cimport malloc, free

from bgcore._types cimport checker_t, NUM_SLOTS, NUM_CHECKERS
from bgcore._dice cimport NUM_ROLLS, ROLL_LOW, ROLL_HIGH, ROLL_WEIGHT
from bgcore._movegen cimport MAX_CHILDREN
from bgcore._bearoff_index cimport (HOME_POINTS, MAX_TABLE_POINTS, ChildScan, one_sided_rank,
                                    one_sided_unrank, positions_up_to, scan_children)


# ----- bear-off moves of one side -----------------------------------------------------

cdef inline int highest_point(const int* counts, int points) noexcept nogil:
    cdef int p
    for p in range(points, 0, -1):
        if counts[p]:
            return p
    return 0


cdef inline bint can_move(const int* counts, int points, int point, int die) noexcept nogil:
    """A checker on ``point`` can use ``die``: a plain move, or a legal bear-off."""
    if counts[point] == 0:
        return False
    if point > die:
        return True
    cdef int highest = highest_point(counts, points)
    if highest > HOME_POINTS:
        return False
    return point == die or point == highest


cdef inline void move_checker(int* counts, int point, int die) noexcept nogil:
    counts[point] -= 1
    if point > die:
        counts[point - die] += 1


cdef inline void unmove_checker(int* counts, int point, int die) noexcept nogil:
    counts[point] += 1
    if point > die:
        counts[point - die] -= 1



# ----- the build ----------------------------------------------------------------------

cdef enum:
    MAX_STEPS = 4                   # single-die steps of a roll (doubles)


cdef struct OneSidedBuild:
    int points
    int width
    long long full_start            # first rank with all 15 checkers on the board
    double* rolls                   # size x width
    int* last_column                # last non-zero column of each rolls row
    double* expected
    double* first_off               # (size - full_start) x width
    double* first_expected
    # Where the best k single steps of die d lead from each rank (k = 1..4): least
    # expected rolls to finish, and (15-checker ranks) to the first checker off.
    int* step_child                 # size x 6 x 4
    int* first_step_child           # (size - full_start) x 6 x 4
    checker_t* movegen_buffer       # not NULL: take each roll's children from legal_children


cdef inline long long step_index(long long rank, int die, int steps) noexcept nogil:
    return (rank * 6 + die - 1) * MAX_STEPS + steps - 1


cdef inline void best_steps(const OneSidedBuild* b, long long rank, int die, int steps,
                            double* value, long long* child, double* first_value,
                            long long* first_child) noexcept nogil:
    """The best k-step results of die ``die`` from ``rank`` (k = 0: the rank itself)."""
    if steps == 0:
        value[0] = b.expected[rank]
        child[0] = rank
    else:
        child[0] = b.step_child[step_index(rank, die, steps)]
        value[0] = b.expected[child[0]]
    if rank < b.full_start:            # a checker is already off
        first_value[0] = 0.0
        first_child[0] = rank
    elif steps == 0:
        first_value[0] = b.first_expected[rank - b.full_start]
        first_child[0] = rank
    else:
        first_child[0] = b.first_step_child[step_index(rank - b.full_start, die, steps)]
        first_value[0] = (b.first_expected[first_child[0] - b.full_start]
                          if first_child[0] >= b.full_start else 0.0)


cdef inline long long rank_after_step(int* counts, int points, int point, int die) noexcept nogil:
    """Rank of the position after a checker on ``point`` plays ``die`` (a legal step)."""
    move_checker(counts, point, die)
    cdef long long rank = one_sided_rank(counts, points)
    unmove_checker(counts, point, die)
    return rank


cdef void record_steps(OneSidedBuild* b, int* counts, long long rank) noexcept nogil:
    """Fill the step tables of ``rank`` from those of the ranks one step below it.

    Without checkers nothing moves (every result is the empty position); otherwise a
    single die always has a legal move, so k steps = one step, then the best k - 1 steps.
    """
    cdef int die, steps, p
    cdef long long after, index, child, first_child
    cdef double value, first_value
    cdef double best[MAX_STEPS]
    cdef double first_best[MAX_STEPS]
    for die in range(1, 7):
        for steps in range(MAX_STEPS):
            best[steps] = first_best[steps] = INFINITY
            b.step_child[step_index(rank, die, steps + 1)] = rank
        if rank == 0:
            continue
        for p in range(1, b.points + 1):
            if not can_move(counts, b.points, p, die):
                continue
            after = rank_after_step(counts, b.points, p, die)
            for steps in range(1, MAX_STEPS + 1):
                best_steps(b, after, die, steps - 1, &value, &child, &first_value, &first_child)
                index = step_index(rank, die, steps)
                if value < best[steps - 1]:
                    best[steps - 1] = value
                    b.step_child[index] = child
                if rank >= b.full_start and first_value < first_best[steps - 1]:
                    first_best[steps - 1] = first_value
                    index = step_index(rank - b.full_start, die, steps)
                    b.first_step_child[index] = first_child


cdef void best_children_by_steps(OneSidedBuild* b, int* counts, long long rank,
                                 long long* best, long long* first_best) noexcept nogil:
    """Per roll, the child with the least expected rolls (and to the first checker off):
    doubles are four steps of one die; other rolls one step of either die, then one of
    the other (both dice can always be played until the last checker is off)."""
    cdef int roll, order, first, second, p
    cdef long long after, child, first_child
    cdef double value, first_value, best_value, first_best_value
    for roll in range(NUM_ROLLS):
        if ROLL_HIGH[roll] == ROLL_LOW[roll]:
            best_steps(b, rank, ROLL_HIGH[roll], MAX_STEPS, &value, &best[roll],
                       &first_value, &first_best[roll])
            continue
        best_value = first_best_value = INFINITY
        for order in range(2):
            first = ROLL_HIGH[roll] if order == 0 else ROLL_LOW[roll]
            second = ROLL_LOW[roll] if order == 0 else ROLL_HIGH[roll]
            for p in range(1, b.points + 1):
                if not can_move(counts, b.points, p, first):
                    continue
                after = rank_after_step(counts, b.points, p, first)
                best_steps(b, after, second, 1, &value, &child, &first_value, &first_child)
                if value < best_value:
                    best_value = value
                    best[roll] = child
                if first_value < first_best_value:
                    first_best_value = first_value
                    first_best[roll] = first_child


cdef void best_children_by_movegen(OneSidedBuild* b, int* counts, long long* best,
                                   long long* first_best) noexcept nogil:
    """The same choice among each roll's children from legal_children (the reference)."""
    cdef ChildScan scan
    cdef int roll, i
    cdef long long child
    cdef double value, best_value, first_best_value
    scan.points = b.points
    for roll in range(NUM_ROLLS):
        scan_children(&scan, counts, roll, b.movegen_buffer)
        best_value = first_best_value = INFINITY
        for i in range(scan.count):
            child = scan.ranks[i]
            if b.expected[child] < best_value:
                best_value = b.expected[child]
                best[roll] = child
            value = b.first_expected[child - b.full_start] if child >= b.full_start else 0.0
            if value < first_best_value:
                first_best_value = value
                first_best[roll] = child


cdef void record_distributions(OneSidedBuild* b, long long rank, const long long* best,
                               const long long* first_best) noexcept nogil:
    """Rows of ``rank`` from the rows of the chosen children: one roll more."""
    cdef double* row = b.rolls + rank * b.width
    cdef double* first_row = b.first_off + (rank - b.full_start) * b.width
    cdef const double* source
    cdef double weight, mean = 0.0, first_mean = 0.0
    cdef int roll, k, last = 0
    cdef long long child
    for roll in range(NUM_ROLLS):
        weight = ROLL_WEIGHT[roll]
        child = best[roll]
        mean += weight * b.expected[child]
        source = b.rolls + child * b.width
        for k in range(b.last_column[child] + 1):
            row[k + 1] += weight * source[k]
        last = max(last, b.last_column[child] + 1)
        if rank >= b.full_start:
            child = first_best[roll]
            if child >= b.full_start:
                first_mean += weight * b.first_expected[child - b.full_start]
                source = b.first_off + (child - b.full_start) * b.width
                for k in range(b.width - 1):
                    first_row[k + 1] += weight * source[k]
            else:
                first_row[1] += weight
    b.expected[rank] = 1.0 + mean / 36.0
    b.last_column[rank] = last
    for k in range(1, last + 1):
        row[k] /= 36.0
    if rank >= b.full_start:
        b.first_expected[rank - b.full_start] = 1.0 + first_mean / 36.0
        for k in range(1, b.width):
            first_row[k] /= 36.0


cdef void build_one_sided_ranks(OneSidedBuild* b, long long start, long long stop) noexcept nogil:
    """Rows start..stop-1, every roll played to minimise the expected rolls (to finish, and
    separately to the first checker off); lower ranks must be done."""
    cdef int counts[MAX_TABLE_POINTS + 1]
    cdef long long best[NUM_ROLLS]
    cdef long long first_best[NUM_ROLLS]
    cdef long long rank
    for rank in range(start, stop):
        one_sided_unrank(rank, b.points, counts)
        if b.movegen_buffer == NULL:
            record_steps(b, counts, rank)
        if rank == 0:
            b.rolls[0] = 1.0
            b.last_column[0] = 0
            b.expected[0] = 0.0
            continue
        if b.movegen_buffer == NULL:
            best_children_by_steps(b, counts, rank, best, first_best)
        else:
            best_children_by_movegen(b, counts, best, first_best)
        record_distributions(b, rank, best, first_best)


def build_one_sided(int points=HOME_POINTS, progress=None, bint through_movegen=False):
    """One-sided table on ``points`` points: (rolls, expected, first_off, first_expected).

    rolls[r, k] = P(all checkers of position r off in exactly k rolls), play minimising
    the expected rolls; first_off[r - F, k] = P(first checker off in exactly k rolls) for
    the positions with all 15 checkers (ranks from F = C(14 + points, points)), play
    minimising the expected rolls to the first checker off. ``progress(done, total)`` is
    called between blocks of ranks.
    """
    if not 1 <= points <= MAX_TABLE_POINTS:
        raise ValueError(f"one-sided tables cover 1..{MAX_TABLE_POINTS} points, got {points}")
    cdef long long size = positions_up_to(NUM_CHECKERS, points)
    cdef long long full_start = positions_up_to(NUM_CHECKERS - 1, points)
    # A roll that does not finish moves at least 2 pips, so 15*points/2 + 2 columns suffice.
    cdef int width = (NUM_CHECKERS * points) // 2 + 2
    rolls = np.zeros((size, width), dtype=np.float64)
    first_off = np.zeros((size - full_start, width), dtype=np.float64)
    expected = np.zeros(size, dtype=np.float64)
    first_expected = np.zeros(size - full_start, dtype=np.float64)
    last_column = np.zeros(size, dtype=np.intc)
    steps = 1 if through_movegen else 6 * MAX_STEPS
    step_child = np.empty(size * steps, dtype=np.intc)
    first_step_child = np.empty((size - full_start) * steps, dtype=np.intc)
    cdef double[:, ::1] rolls_view = rolls
    cdef double[:, ::1] first_view = first_off
    cdef double[::1] expected_view = expected
    cdef double[::1] first_expected_view = first_expected
    cdef int[::1] last_view = last_column
    cdef int[::1] step_child_view = step_child
    cdef int[::1] first_step_child_view = first_step_child
    cdef OneSidedBuild build
    build.points = points
    build.width = width
    build.full_start = full_start
    build.rolls = &rolls_view[0, 0]
    build.last_column = &last_view[0]
    build.expected = &expected_view[0]
    build.first_off = &first_view[0, 0]
    build.first_expected = &first_expected_view[0]
    build.step_child = &step_child_view[0]
    build.first_step_child = &first_step_child_view[0]
    build.movegen_buffer = NULL
    cdef long long block = 1 << 15, start, stop
    if through_movegen:
        build.movegen_buffer = <checker_t*>malloc(MAX_CHILDREN * NUM_SLOTS)
        if build.movegen_buffer == NULL:
            raise MemoryError()
    try:
        for start in range(0, size, block):
            stop = min(size, start + block)
            with nogil:
                build_one_sided_ranks(&build, start, stop)
            if progress is not None:
                progress(int(stop), int(size))
    finally:
        free(build.movegen_buffer)
    used = int(last_column.max()) + 1
    first_used = int(np.flatnonzero(first_off.any(axis=0)).max()) + 1
    return (np.ascontiguousarray(rolls[:, :used]), expected,
            np.ascontiguousarray(first_off[:, :first_used]), first_expected)


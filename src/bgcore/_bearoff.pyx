# cython: language_level=3
"""Bear-off databases (one-sided and two-sided) and race evaluation.

One-sided positions (up to 15 checkers on points 1..P of one side, nothing else) are
ranked by the combinatorial number system: the counts c_P, ..., c_1 and the borne-off
checkers written as a row of ones separated by P zeros; the rank is that of the set of
zero places. Positions with at most n checkers get the ranks 0..C(n+P, P)-1 and every
move lowers the rank, so tables are built by one pass in rank order.

Tables are numpy arrays built here and installed by ``bgengine.bearoff``; the nogil
lookups in the .pxd read the installed arrays and never change them.
"""

import numpy as np
cimport numpy as cnp
from libc.math cimport INFINITY, NAN

from bgcore._types cimport checker_t, NUM_SLOTS, NUM_CHECKERS
from bgcore._types cimport Phase, PHASE_CONTACT, PHASE_OVER
from bgcore._board cimport phase_of, board_problem_code
from bgcore._board import board_problem
from bgcore._movegen cimport legal_children, MAX_CHILDREN
from libc.stdlib cimport malloc, free

cnp.import_array()

cdef enum:
    MAX_BINOM_N = NUM_CHECKERS + MAX_TABLE_POINTS + 2
    RACE_WIDTH = 192                # columns of a race distribution (rolls 0..191)
    PIP_BANK_WIDTH = 128            # rolls needed to move up to MAX_PIP_BANK pips
    MAX_PIP_BANK = NUM_CHECKERS * 25
    MAX_BANK_DICE = 2 * NUM_CHECKERS   # dice demands beyond this are capped
    DIE_REACH = 4                   # a checker x pips from its target wants ceil(x / 4) dice

# The 21 rolls, larger die first, and how many of the 36 dice outcomes give each.
cdef int ROLL_HIGH[NUM_ROLLS]
cdef int ROLL_LOW[NUM_ROLLS]
cdef double ROLL_WAYS[NUM_ROLLS]     # of 36; sums are divided by 36 once, at the end

cdef long long BINOM[MAX_BINOM_N][MAX_TABLE_POINTS + 2]

# BANK[d][m][k]: P(k rolls are needed before the dice total at least d pips and at
# least m dice); BANK[d][0] is the pure pip bank.
cdef double BANK[MAX_PIP_BANK + 1][MAX_BANK_DICE + 1][PIP_BANK_WIDTH]
cdef int BANK_LENGTH[MAX_PIP_BANK + 1][MAX_BANK_DICE + 1]  # BANK[d][m][k] == 0 from here
# Expected rolls that BANK[d][m] spends beyond the fair share max(d / (49/6), m / (7/3))
# (49/6 pips and 7/3 dice per roll on average): the last roll's unused part.
cdef double BANK_OVERSHOOT[MAX_PIP_BANK + 1][MAX_BANK_DICE + 1]


cdef void init_constants() noexcept nogil:
    cdef int n, k, i = 0, high, low
    for n in range(MAX_BINOM_N):
        for k in range(MAX_TABLE_POINTS + 2):
            if k == 0:
                BINOM[n][k] = 1
            elif n == 0:
                BINOM[n][k] = 0
            else:
                BINOM[n][k] = BINOM[n - 1][k - 1] + BINOM[n - 1][k]
    for high in range(1, 7):
        for low in range(1, high + 1):
            ROLL_HIGH[i] = high
            ROLL_LOW[i] = low
            ROLL_WAYS[i] = 1.0 if high == low else 2.0
            i += 1


cdef bint BANKS_READY = False


cdef void init_banks() noexcept nogil:
    """BANK[d][m]: rolls until the dice have moved >= d pips with >= m dice (a die moves
    one checker, so outside checkers need at least a die each); exact renewal recursion."""
    cdef int d, m, r, k, pips, dice
    cdef double* row
    cdef const double* source
    for d in range(MAX_PIP_BANK + 1):
        for m in range(MAX_BANK_DICE + 1):
            row = BANK[d][m]
            for k in range(PIP_BANK_WIDTH):
                row[k] = 0.0
            if d == 0 and m == 0:
                row[0] = 1.0
            else:
                for r in range(NUM_ROLLS):
                    dice = 4 if ROLL_HIGH[r] == ROLL_LOW[r] else 2
                    pips = (ROLL_HIGH[r] + ROLL_LOW[r]) * dice // 2
                    source = BANK[d - pips if d > pips else 0][m - dice if m > dice else 0]
                    for k in range(1, PIP_BANK_WIDTH):
                        row[k] += ROLL_WAYS[r] * source[k - 1]
                for k in range(PIP_BANK_WIDTH):
                    row[k] /= 36.0
            BANK_LENGTH[d][m] = 1
            BANK_OVERSHOOT[d][m] = -max(d * 6.0 / 49.0, m * 3.0 / 7.0)
            for k in range(PIP_BANK_WIDTH):
                if row[k] != 0.0:
                    BANK_LENGTH[d][m] = k + 1
                BANK_OVERSHOOT[d][m] += k * row[k]

init_constants()


# ----- ranking ------------------------------------------------------------------------

cdef long long one_sided_rank(const int* counts, int points) noexcept nogil:
    cdef long long rank = 0
    cdef int k, zero = -1
    for k in range(points):
        zero += counts[points - k] + 1
        rank += BINOM[zero][k + 1]
    return rank


cdef void one_sided_unrank(long long rank, int points, int* counts) noexcept nogil:
    cdef int k, zero, above = NUM_CHECKERS + points
    cdef int zeros[MAX_TABLE_POINTS]
    for k in range(points - 1, -1, -1):
        zero = above - 1
        while BINOM[zero][k + 1] > rank:
            zero -= 1
        zeros[k] = zero
        rank -= BINOM[zero][k + 1]
        above = zero
    counts[0] = 0
    for k in range(points):
        counts[points - k] = zeros[k] - (zeros[k - 1] if k > 0 else -1) - 1


cdef inline long long positions_up_to(int checkers, int points) noexcept nogil:
    """How many one-sided positions have at most ``checkers`` checkers on ``points`` points."""
    return BINOM[checkers + points][points]


# ----- bear-off moves of one side -----------------------------------------------------

cdef struct ChildScan:
    int points
    int count                       # child ranks in ranks[0..count), all distinct
    long long ranks[MAX_CHILDREN]


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


cdef void scan_children_with_movegen(ChildScan* scan, const int* counts, int roll,
                                     checker_t* buffer) noexcept nogil:
    """Ranks of the children of a one-sided position for one roll, from legal_children
    (``buffer`` holds MAX_CHILDREN boards); the opponent has no checkers on the board."""
    cdef checker_t board[NUM_SLOTS]
    cdef int child_counts[MAX_TABLE_POINTS + 1]
    cdef int p, i, n
    for p in range(NUM_SLOTS):
        board[p] = counts[p] if 1 <= p <= scan.points else 0
    n = legal_children(board, ROLL_HIGH[roll], ROLL_LOW[roll], buffer, MAX_CHILDREN)
    scan.count = 0
    for i in range(n):
        for p in range(1, scan.points + 1):
            child_counts[p] = -buffer[i * NUM_SLOTS + NUM_SLOTS - 1 - p]
        scan.ranks[scan.count] = one_sided_rank(child_counts, scan.points)
        scan.count += 1


def bearoff_children(counts, int die1, int die2):
    """Sorted ranks of the children of a one-sided position (len(counts) points), from
    legal_children."""
    cdef int points = len(counts)
    if not 1 <= points <= MAX_TABLE_POINTS:
        raise ValueError(f"a one-sided position covers 1..{MAX_TABLE_POINTS} points, got {points}")
    if not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        raise ValueError(f"dice are 1..6, got {die1} and {die2}")
    cdef int c[MAX_TABLE_POINTS + 1]
    _checked_counts(counts, points, c)
    if sum(counts) == 0:
        raise ValueError("a side without checkers has no moves")
    cdef int roll = roll_number(die1, die2)
    cdef ChildScan* scan = <ChildScan*>malloc(sizeof(ChildScan))
    cdef checker_t* buffer = <checker_t*>malloc(MAX_CHILDREN * NUM_SLOTS)
    try:
        if scan == NULL or buffer == NULL:
            raise MemoryError()
        scan.points = points
        scan_children_with_movegen(scan, c, roll, buffer)
        return sorted(scan.ranks[i] for i in range(scan.count))
    finally:
        free(scan)
        free(buffer)


cdef int roll_number(int die1, int die2) noexcept nogil:
    """Index of a roll among the 21 (larger die first)."""
    cdef int roll
    for roll in range(NUM_ROLLS):
        if ROLL_HIGH[roll] == max(die1, die2) and ROLL_LOW[roll] == min(die1, die2):
            return roll
    return -1


cdef void _checked_counts(counts, int points, int* out) except *:
    cdef int p, total = 0
    out[0] = 0
    for p in range(points):
        n = counts[p]
        if not isinstance(n, (int, np.integer)) or n < 0:
            raise ValueError(f"checker counts must be non-negative integers, got {n!r}")
        total += n
        if total > NUM_CHECKERS:
            raise ValueError("a side has at most 15 checkers")
        out[p + 1] = n


def one_sided_rank_of(counts):
    """Rank of a one-sided position given as counts for points 1..len(counts)."""
    cdef int points = len(counts)
    if not 1 <= points <= MAX_TABLE_POINTS:
        raise ValueError(f"a one-sided position covers 1..{MAX_TABLE_POINTS} points, got {points}")
    cdef int c[MAX_TABLE_POINTS + 1]
    _checked_counts(counts, points, c)
    return one_sided_rank(c, points)


def one_sided_counts_of(long long rank, int points):
    """Counts for points 1..points of the one-sided position with this rank."""
    if not 1 <= points <= MAX_TABLE_POINTS:
        raise ValueError(f"a one-sided position covers 1..{MAX_TABLE_POINTS} points, got {points}")
    if not 0 <= rank < positions_up_to(NUM_CHECKERS, points):
        raise ValueError(f"rank {rank} is outside 0..{positions_up_to(NUM_CHECKERS, points) - 1}")
    cdef int c[MAX_TABLE_POINTS + 1]
    one_sided_unrank(rank, points, c)
    return [c[p] for p in range(1, points + 1)]


def one_sided_size(int checkers, int points):
    """Number of one-sided positions with at most ``checkers`` checkers on ``points`` points."""
    if not (0 <= checkers <= NUM_CHECKERS and 1 <= points <= MAX_TABLE_POINTS):
        raise ValueError("checkers must be 0..15 and points 1..%d" % MAX_TABLE_POINTS)
    return positions_up_to(checkers, points)


# ----- one-sided build ----------------------------------------------------------------

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
        scan_children_with_movegen(&scan, counts, roll, b.movegen_buffer)
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
        weight = ROLL_WAYS[roll]
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


# ----- two-sided build ----------------------------------------------------------------

cdef inline int turn_over(int cube_state) noexcept nogil:
    """The same cube seen by the other player: centred stays, ownership swaps."""
    return 0 if cube_state == 0 else 3 - cube_state


cdef enum:
    PAIR_VALUES = 4                 # per pair while building: P(win), then cube states 0, 1, 2


cdef void build_two_sided_pair(long long mover, long long opponent, long long size,
                               const long long* child_start, const long long* children,
                               double* values) noexcept nogil:
    """Cubeless P(win) and the three cubeful equities of one pair (mover on roll).

    values[pair * 4 + 1 + s] per unit cube, mover's view: s = 0 centred, 1 mover owns,
    2 opponent owns. The mover plays each roll to maximise the quantity being computed.
    A pair's four values sit together so that a reply is one cache line.
    """
    cdef long long child, roll_start = mover * NUM_ROLLS
    cdef const double* reply
    cdef double* pair = values + (mover * size + opponent) * PAIR_VALUES
    cdef int roll, i, s
    cdef double value, weight
    cdef double best[PAIR_VALUES]
    cdef double total[PAIR_VALUES]
    for s in range(PAIR_VALUES):
        total[s] = 0.0
    for roll in range(NUM_ROLLS):
        weight = ROLL_WAYS[roll]
        for s in range(PAIR_VALUES):
            best[s] = -INFINITY
        for i in range(child_start[roll_start + roll], child_start[roll_start + roll + 1]):
            child = children[i]
            if child == 0:
                for s in range(PAIR_VALUES):
                    best[s] = 1.0
                break
            reply = values + (opponent * size + child) * PAIR_VALUES
            best[0] = max(best[0], 1.0 - reply[0])
            for s in range(3):
                value = -reply[1 + turn_over(s)]
                if value > best[1 + s]:
                    best[1 + s] = value
        for s in range(PAIR_VALUES):
            total[s] += weight * best[s]
    for s in range(PAIR_VALUES):
        total[s] /= 36.0
    # After a double and take the opponent owns a cube of twice the value.
    cdef double double_value = min(1.0, 2.0 * total[3])
    pair[0] = total[0]
    pair[1] = max(total[1], double_value)
    pair[2] = max(total[2], double_value)
    pair[3] = total[3]


cdef void build_two_sided_all(long long size, const long long* child_start,
                              const long long* children, double* values) noexcept nogil:
    """Every pair in an order where each reply (opponent, child) is already known.

    A pair (a, b) needs (b, c) with c < a; layer m computes (m, b<m), (m, m), (a<m, m).
    """
    cdef long long m, other
    cdef int s
    for other in range(1, size):
        # The mover has no checkers left: he has won; the opponent has none: he has lost.
        values[other * PAIR_VALUES] = 1.0
        values[other * size * PAIR_VALUES] = 0.0
        for s in range(1, PAIR_VALUES):
            values[other * PAIR_VALUES + s] = 1.0
            values[other * size * PAIR_VALUES + s] = -1.0
    for m in range(1, size):
        for other in range(1, m):
            build_two_sided_pair(m, other, size, child_start, children, values)
        build_two_sided_pair(m, m, size, child_start, children, values)
        for other in range(1, m):
            build_two_sided_pair(other, m, size, child_start, children, values)


def build_two_sided(int max_checkers=6):
    """Two-sided table for up to ``max_checkers`` per side on the home points: (win, cubeful).

    win[a, b] = exact cubeless P(the player on roll wins) with a his rank and b the
    opponent's; cubeful[s, a, b] = money equity per unit cube, player on roll's view,
    s = 0 centred, 1 owned by the player on roll, 2 owned by the opponent (no gammons
    are possible; doubling, taking and passing are optimal; no beavers).
    """
    if not 1 <= max_checkers <= NUM_CHECKERS - 1:
        raise ValueError(f"two-sided tables hold 1..14 checkers per side, got {max_checkers}")
    cdef long long size = positions_up_to(max_checkers, HOME_POINTS)
    starts = np.zeros(size * NUM_ROLLS + 1, dtype=np.int64)
    child_lists = []
    cdef ChildScan scan
    cdef int counts[MAX_TABLE_POINTS + 1]
    cdef long long rank
    cdef int roll, total = 0
    cdef checker_t* buffer = <checker_t*>malloc(MAX_CHILDREN * NUM_SLOTS)
    if buffer == NULL:
        raise MemoryError()
    scan.points = HOME_POINTS
    try:
        for rank in range(1, size):
            one_sided_unrank(rank, HOME_POINTS, counts)
            for roll in range(NUM_ROLLS):
                scan_children_with_movegen(&scan, counts, roll, buffer)
                child_lists.append(np.array([scan.ranks[i] for i in range(scan.count)], dtype=np.int64))
                total += scan.count
                starts[rank * NUM_ROLLS + roll + 1] = total
    finally:
        free(buffer)
    children = np.concatenate(child_lists) if child_lists else np.zeros(1, dtype=np.int64)
    values = np.zeros((size, size, PAIR_VALUES), dtype=np.float64)
    cdef long long[::1] starts_view = starts
    cdef long long[::1] children_view = children
    cdef double[:, :, ::1] values_view = values
    with nogil:
        build_two_sided_all(size, &starts_view[0], &children_view[0], &values_view[0, 0, 0])
    win = np.ascontiguousarray(values[:, :, 0])
    cubeful = np.ascontiguousarray(np.moveaxis(values[:, :, 1:], 2, 0))
    return win, cubeful


# ----- installed tables and lookups ---------------------------------------------------

cdef struct OneSidedTable:
    int points
    long long size
    long long full_start
    int width
    int first_width
    const double* rolls
    const double* expected
    const double* first_off

cdef struct TwoSidedTable:
    int max_checkers
    long long size
    const double* win
    const double* cubeful           # 3 x size x size: centred, mover owns, opponent owns

cdef OneSidedTable HOME_TABLE
cdef OneSidedTable WIDE_TABLE
cdef TwoSidedTable TWO_SIDED
HOME_TABLE.points = 0
WIDE_TABLE.points = 0
TWO_SIDED.max_checkers = 0

_KEEP_ALIVE = {}                    # the installed arrays, so their memory stays valid


def install_one_sided(int points, rolls, expected, first_off):
    """Make a one-sided table (from build_one_sided) the one the nogil lookups read.

    Six points installs the home table; more points a wide table used for races.
    """
    if not HOME_POINTS <= points <= MAX_TABLE_POINTS:
        raise ValueError(f"installable one-sided tables cover 6..{MAX_TABLE_POINTS} points")
    cdef long long size = positions_up_to(NUM_CHECKERS, points)
    cdef long long full_start = positions_up_to(NUM_CHECKERS - 1, points)
    rolls = _checked_table(rolls, "rolls", 2, size)
    expected = _checked_table(expected, "expected", 1, size)
    first_off = _checked_table(first_off, "first_off", 2, size - full_start)
    if rolls.shape[1] + PIP_BANK_WIDTH > RACE_WIDTH or first_off.shape[1] + PIP_BANK_WIDTH > RACE_WIDTH:
        raise ValueError(f"one-sided distributions wider than {RACE_WIDTH - PIP_BANK_WIDTH} rolls")
    cdef const double[:, ::1] rolls_view = rolls
    cdef const double[::1] expected_view = expected
    cdef const double[:, ::1] first_view = first_off
    cdef OneSidedTable table
    table.points = points
    table.size = size
    table.full_start = full_start
    table.width = rolls.shape[1]
    table.first_width = first_off.shape[1]
    table.rolls = &rolls_view[0, 0]
    table.expected = &expected_view[0]
    table.first_off = &first_view[0, 0]
    global HOME_TABLE, WIDE_TABLE, BANKS_READY
    if not BANKS_READY:             # 6 MB of race tables, computed once, on first use
        with nogil:
            init_banks()
        BANKS_READY = True
    _KEEP_ALIVE[("one-sided", points == HOME_POINTS)] = (rolls, expected, first_off)
    if points == HOME_POINTS:
        HOME_TABLE = table
    else:
        WIDE_TABLE = table


def install_two_sided(int max_checkers, win, cubeful):
    """Make a two-sided table (win, cubeful from build_two_sided) the one lookups read."""
    if not 1 <= max_checkers <= NUM_CHECKERS - 1:
        raise ValueError(f"two-sided tables hold 1..14 checkers per side, got {max_checkers}")
    cdef long long size = positions_up_to(max_checkers, HOME_POINTS)
    win = _checked_table(win, "win", 2, size)
    cubeful = _checked_table(cubeful, "cubeful", 3, 3)
    if win.shape[1] != size or cubeful.shape[1:] != (size, size):
        raise ValueError(f"tables must be {size} x {size} and 3 x {size} x {size}")
    cdef const double[:, ::1] win_view = win
    cdef const double[:, :, ::1] cube_view = cubeful
    global TWO_SIDED
    _KEEP_ALIVE["two-sided"] = (win, cubeful)
    TWO_SIDED.size = size
    TWO_SIDED.win = &win_view[0, 0]
    TWO_SIDED.cubeful = &cube_view[0, 0, 0]
    TWO_SIDED.max_checkers = max_checkers


def uninstall_tables():
    """Forget every installed table (lookups then report 'not available')."""
    global HOME_TABLE, WIDE_TABLE, TWO_SIDED
    HOME_TABLE.points = 0
    WIDE_TABLE.points = 0
    TWO_SIDED.max_checkers = 0
    _KEEP_ALIVE.clear()


def installed_tables():
    """(home table points or 0, wide table points or 0, two-sided checkers or 0)."""
    return HOME_TABLE.points, WIDE_TABLE.points, TWO_SIDED.max_checkers


def _checked_table(array, name, int ndim, long long rows):
    if not isinstance(array, np.ndarray) or array.dtype != np.float64 or array.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-d float64 numpy array")
    if array.shape[0] != rows or (ndim == 2 and array.shape[1] < 1):
        raise ValueError(f"{name} has shape {array.shape}, expected {rows} rows")
    return np.ascontiguousarray(array)


cdef const double* one_sided_rolls_row(long long rank, int* width) noexcept nogil:
    if HOME_TABLE.points == 0 or not 0 <= rank < HOME_TABLE.size:
        return NULL
    width[0] = HOME_TABLE.width
    return HOME_TABLE.rolls + rank * HOME_TABLE.width


cdef double one_sided_expected_rolls(long long rank) noexcept nogil:
    if HOME_TABLE.points == 0 or not 0 <= rank < HOME_TABLE.size:
        return -1.0
    return HOME_TABLE.expected[rank]


cdef struct SideCounts:
    int counts[NUM_SLOTS]           # counts[p]: checkers on point p (25 = bar), own numbering
    int on_board
    int highest


cdef void read_sides(const checker_t* board, SideCounts* mover, SideCounts* opponent) noexcept nogil:
    cdef int p
    mover.on_board = opponent.on_board = 0
    mover.highest = opponent.highest = 0
    mover.counts[0] = opponent.counts[0] = 0
    for p in range(1, NUM_SLOTS):
        mover.counts[p] = board[p] if board[p] > 0 else 0
        opponent.counts[p] = -board[NUM_SLOTS - 1 - p] if board[NUM_SLOTS - 1 - p] < 0 else 0
        mover.on_board += mover.counts[p]
        opponent.on_board += opponent.counts[p]
        if mover.counts[p]:
            mover.highest = p
        if opponent.counts[p]:
            opponent.highest = p


cdef long long two_sided_pair(const checker_t* board) noexcept nogil:
    """Index a * size + b of the board in the installed two-sided table, or -1."""
    cdef SideCounts mover, opponent
    if TWO_SIDED.max_checkers == 0:
        return -1
    read_sides(board, &mover, &opponent)
    if (mover.highest > HOME_POINTS or opponent.highest > HOME_POINTS
            or mover.on_board > TWO_SIDED.max_checkers or opponent.on_board > TWO_SIDED.max_checkers
            or mover.on_board == 0 or opponent.on_board == 0):
        return -1
    return (one_sided_rank(mover.counts, HOME_POINTS) * TWO_SIDED.size
            + one_sided_rank(opponent.counts, HOME_POINTS))


cdef double two_sided_win_probability(const checker_t* board) noexcept nogil:
    cdef long long pair = two_sided_pair(board)
    return -1.0 if pair < 0 else TWO_SIDED.win[pair]


cdef double two_sided_cubeful_equity(const checker_t* board, int owner) noexcept nogil:
    cdef long long pair = two_sided_pair(board)
    if pair < 0 or not 0 <= owner <= 2:
        return -2.0
    return TWO_SIDED.cubeful[owner * TWO_SIDED.size * TWO_SIDED.size + pair]


cdef struct Distribution:
    double p[RACE_WIDTH]            # p[k] = P(exactly k rolls); zero from `length` on
    int length


cdef void convolve(const double* a, int a_length, const double* b, int b_length,
                   Distribution* out) noexcept nogil:
    """out = distribution of the sum of two independent roll counts."""
    cdef int i, j
    out.length = min(RACE_WIDTH, a_length + b_length - 1)
    for i in range(out.length):
        out.p[i] = 0.0
    for i in range(a_length):
        if a[i] != 0.0:
            for j in range(min(b_length, RACE_WIDTH - i)):
                out.p[i + j] += a[i] * b[j]


cdef void credit_overshoot(Distribution* distribution, int pips, int dice) noexcept nogil:
    """Give back what the bank BANK[pips][dice] spends on its last roll's unused part:
    with probability q (that part, in rolls) one roll less, so that bringing the checkers
    in costs its fair share of rolls on average, the rest of the last roll being played
    in the home board."""
    cdef double q = BANK_OVERSHOOT[pips][dice]
    cdef int k
    if q <= 0.0:
        return
    if q > 1.0:
        q = 1.0
    for k in range(distribution.length - 1):
        distribution.p[k] = (1.0 - q) * distribution.p[k] + q * distribution.p[k + 1]
    distribution.p[distribution.length - 1] *= 1.0 - q


cdef inline void point_mass_at_zero(Distribution* out) noexcept nogil:
    out.p[0] = 1.0
    out.length = 1


cdef inline int dice_wanted(int distance) noexcept nogil:
    """Dice a checker ``distance`` pips from its target typically takes: dice are not
    shared between checkers, and small dice rarely bring a far checker in at once."""
    return (distance + DIE_REACH - 1) // DIE_REACH


cdef int side_distributions(const SideCounts* side, Distribution* rolls, Distribution* first,
                            Distribution* escape) noexcept nogil:
    """Roll-count distributions of one side in a race: to finish, to the first checker off
    (only with 15 on the board, else 0 rolls) and to leave the other side's home board.

    Exact from a one-sided table when every checker is on its points; otherwise the
    checkers beyond are stacked on the table's top point and the pips they still need to
    get there are run off as a pip bank first, its overshoot credited back (the
    approximation documented in docs/bearoff.md).
    """
    cdef const OneSidedTable* table = &HOME_TABLE
    if WIDE_TABLE.points and side.highest > HOME_POINTS:
        table = &WIDE_TABLE
    if table.points == 0:
        return -1
    cdef int p
    cdef int stacked[MAX_TABLE_POINTS + 1]
    cdef int bank = 0, outside = 0, escape_bank = 0, escaping = 0
    cdef double certain = 1.0
    for p in range(table.points + 1):
        stacked[p] = side.counts[p]
    for p in range(table.points + 1, NUM_SLOTS):
        stacked[table.points] += side.counts[p]
        bank += (p - table.points) * side.counts[p]
        outside += side.counts[p] * dice_wanted(p - table.points)
        if p > 3 * HOME_POINTS:
            escape_bank += (p - 3 * HOME_POINTS) * side.counts[p]
            escaping += side.counts[p] * dice_wanted(p - 3 * HOME_POINTS)
    outside = min(outside, MAX_BANK_DICE)
    escaping = min(escaping, MAX_BANK_DICE)
    cdef long long rank = one_sided_rank(stacked, table.points)
    convolve(BANK[bank][0], BANK_LENGTH[bank][0], table.rolls + rank * table.width,
             table.width, rolls)
    credit_overshoot(rolls, bank, 0)
    if side.on_board == NUM_CHECKERS:
        # No checker comes off before all are home; every outside checker needs dice.
        convolve(BANK[bank][outside], BANK_LENGTH[bank][outside],
                 table.first_off + (rank - table.full_start) * table.first_width,
                 table.first_width, first)
        credit_overshoot(first, bank, outside)
        convolve(BANK[escape_bank][escaping], BANK_LENGTH[escape_bank][escaping],
                 &certain, 1, escape)
    else:
        point_mass_at_zero(first)
        point_mass_at_zero(escape)
    return 0


cdef double first_finisher_chance(const Distribution* finisher, const Distribution* other,
                                  int shift) noexcept nogil:
    """Σ_i finisher[i] × P(other count >= i + shift): the finisher is done first."""
    cdef double total = 0.0, at_least = 0.0
    cdef int i
    # Walk i downwards, accumulating P(other >= i + shift) as we go.
    for i in range(other.length - 1, finisher.length - 1 + shift, -1):
        at_least += other.p[i]
    for i in range(finisher.length - 1, -1, -1):
        if i + shift < other.length:
            at_least += other.p[i + shift]
        total += finisher.p[i] * at_least
    return total


cdef void game_over_probabilities(const SideCounts* mover, const SideCounts* opponent,
                                  float* out) noexcept nogil:
    """The settled 5-vector of a finished game, player on roll's view."""
    cdef int i
    cdef const SideCounts* loser = opponent if mover.on_board == 0 else mover
    cdef bint gammon = loser.on_board == NUM_CHECKERS
    cdef bint backgammon = gammon and loser.highest > 3 * HOME_POINTS
    for i in range(5):
        out[i] = 0.0
    if mover.on_board == 0:
        out[0] = 1.0
        out[1] = gammon
        out[2] = backgammon
    else:
        out[3] = gammon
        out[4] = backgammon


cdef int race_probabilities(const checker_t* board, float* out) noexcept nogil:
    cdef Phase phase = phase_of(board)
    cdef SideCounts mover, opponent
    if phase == PHASE_CONTACT:
        return -1
    read_sides(board, &mover, &opponent)
    if phase == PHASE_OVER:
        game_over_probabilities(&mover, &opponent, out)
        return 0
    cdef double exact = two_sided_win_probability(board)
    if exact >= 0.0:
        out[0] = min(1.0, exact)
        out[1] = out[2] = out[3] = out[4] = 0.0
        return 0
    cdef Distribution mover_rolls, mover_first, mover_escape
    cdef Distribution opponent_rolls, opponent_first, opponent_escape
    if side_distributions(&mover, &mover_rolls, &mover_first, &mover_escape) < 0:
        return -1
    if side_distributions(&opponent, &opponent_rolls, &opponent_first, &opponent_escape) < 0:
        return -1
    # The player on roll finishing on his i-th roll wins if the opponent needs >= i rolls;
    # the opponent finishing on his j-th roll wins if the player on roll needs >= j + 1.
    cdef double win = min(1.0, max(0.0, first_finisher_chance(&mover_rolls, &opponent_rolls, 0)))
    cdef double win_gammon = 0.0, win_backgammon = 0.0, lose_gammon = 0.0, lose_backgammon = 0.0
    if opponent.on_board == NUM_CHECKERS:
        win_gammon = min(win, first_finisher_chance(&mover_rolls, &opponent_first, 0))
        win_backgammon = min(win_gammon, first_finisher_chance(&mover_rolls, &opponent_escape, 0))
    if mover.on_board == NUM_CHECKERS:
        lose_gammon = max(0.0, min(1.0 - win, first_finisher_chance(&opponent_rolls, &mover_first, 1)))
        lose_backgammon = min(lose_gammon, first_finisher_chance(&opponent_rolls, &mover_escape, 1))
    out[0] = win
    out[1] = win_gammon
    out[2] = win_backgammon
    out[3] = lose_gammon
    out[4] = lose_backgammon
    return 0


# ----- Python-facing lookups ----------------------------------------------------------

cdef int check_boards(const checker_t* boards, Py_ssize_t count) except -1:
    """ValueError unless each of ``count`` boards is a possible position (trust no input)."""
    cdef Py_ssize_t row
    cdef int slot
    for row in range(count):
        for slot in range(NUM_SLOTS):
            if not -NUM_CHECKERS <= boards[row * NUM_SLOTS + slot] <= NUM_CHECKERS:
                raise ValueError(f"board {row}: slot {slot} holds more than 15 checkers")
        if board_problem_code(boards + row * NUM_SLOTS) != 0:
            problem = board_problem(bytes((<const char*>(boards + row * NUM_SLOTS))[:NUM_SLOTS]))
            raise ValueError(f"board {row}: {problem}")
    return 0


cdef const checker_t* checked_board(bytes board) except NULL:
    if len(board) != NUM_SLOTS:
        raise ValueError(f"a board has {NUM_SLOTS} slots, got {len(board)}")
    cdef const checker_t* b = <const checker_t*><const char*>board
    check_boards(b, 1)
    return b


def race_probabilities_batch(const checker_t[:, ::1] boards, float[:, ::1] out):
    """Fill out[i] with the race 5-vector of boards[i] (player on roll's view, before the roll).

    Returns a bool array: False where a board has contact, or no table is installed
    (its row is then NaN). Impossible boards raise ValueError.
    """
    if boards.shape[1] != NUM_SLOTS or out.shape[1] != 5 or out.shape[0] != boards.shape[0]:
        raise ValueError("boards must be n x 26 int8 and out n x 5 float32")
    cdef Py_ssize_t i, n = boards.shape[0]
    if n:
        check_boards(&boards[0, 0], n)
    ok = np.zeros(n, dtype=np.bool_)
    cdef cnp.npy_bool[::1] ok_view = ok
    cdef int k
    with nogil:
        for i in range(n):
            if race_probabilities(&boards[i, 0], &out[i, 0]) == 0:
                ok_view[i] = True
            else:
                for k in range(5):
                    out[i, k] = NAN
    return ok


def two_sided_lookup(bytes board):
    """(P(win), equity centred, owned, opponent owns) from the installed two-sided table,
    player on roll's view; None when the board is not in it."""
    cdef const checker_t* b = checked_board(board)
    cdef double win = two_sided_win_probability(b)
    if win < 0:
        return None
    return (win, two_sided_cubeful_equity(b, 0), two_sided_cubeful_equity(b, 1),
            two_sided_cubeful_equity(b, 2))


def side_roll_distributions(bytes board, bint mover_side):
    """(rolls, first_off, escape) distributions of one side of a non-contact board, as used
    by the race evaluation; None when no one-sided table is installed."""
    cdef const checker_t* b = checked_board(board)
    cdef SideCounts mover, opponent
    cdef Distribution rolls, first, escape
    read_sides(b, &mover, &opponent)
    if side_distributions(&mover if mover_side else &opponent, &rolls, &first, &escape) < 0:
        return None
    return tuple(np.array([d.p[k] for k in range(d.length)]) for d in (rolls, first, escape))


def expected_rolls_batch(const checker_t[:, ::1] boards, bint opponent_side):
    """Expected rolls to bear off of one side of each race board (as the race evaluation
    models them): the player on roll's, or the opponent's when ``opponent_side``.

    Impossible boards raise ValueError; NaN where no one-sided table is installed.
    """
    if boards.shape[1] != NUM_SLOTS:
        raise ValueError("boards must be n x 26 int8")
    cdef Py_ssize_t i, n = boards.shape[0]
    if n:
        check_boards(&boards[0, 0], n)
    result = np.empty(n, dtype=np.float64)
    cdef double[::1] out = result
    cdef SideCounts mover, opponent
    cdef Distribution rolls, first, escape
    cdef int k
    with nogil:
        for i in range(n):
            read_sides(&boards[i, 0], &mover, &opponent)
            if side_distributions(&opponent if opponent_side else &mover, &rolls, &first, &escape) < 0:
                out[i] = NAN
                continue
            out[i] = 0.0
            for k in range(rolls.length):
                out[i] += k * rolls.p[k]
    return result


def race_probabilities_of(bytes board):
    """The race 5-vector of one board as a tuple, or None when it has contact."""
    cdef const checker_t* b = checked_board(board)
    cdef float out[5]
    if race_probabilities(b, out) < 0:
        return None
    return out[0], out[1], out[2], out[3], out[4]

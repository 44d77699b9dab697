# cython: language_level=3
"""Ranking of one-sided bear-off positions and the ranks of their children.

One-sided positions (up to 15 checkers on points 1..P of one side, nothing else) are
ranked by the combinatorial number system: the counts c_P, ..., c_1 and the borne-off
checkers written as a row of ones separated by P zeros; the rank is that of the set of
zero places. Positions with at most n checkers get the ranks 0..C(n+P, P)-1 and every
move lowers the rank, so tables are built by one pass in rank order.
"""

import numpy as np
from libc.stdlib cimport malloc, free

from bgcore._types cimport checker_t, NUM_SLOTS, NUM_CHECKERS
from bgcore._dice cimport ROLL_LOW, ROLL_HIGH, roll_number
from bgcore._movegen cimport legal_children, MAX_CHILDREN

cdef enum:
    MAX_BINOM_N = NUM_CHECKERS + MAX_TABLE_POINTS + 2

cdef long long BINOM[MAX_BINOM_N][MAX_TABLE_POINTS + 2]


cdef void init_binomials() noexcept nogil:
    """Pascal's triangle, filled once at import (read-only afterwards)."""
    cdef int n, k
    for n in range(MAX_BINOM_N):
        for k in range(MAX_TABLE_POINTS + 2):
            if k == 0:
                BINOM[n][k] = 1
            elif n == 0:
                BINOM[n][k] = 0
            else:
                BINOM[n][k] = BINOM[n - 1][k - 1] + BINOM[n - 1][k]

init_binomials()


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


cdef long long positions_up_to(int checkers, int points) noexcept nogil:
    return BINOM[checkers + points][points]


cdef void scan_children(ChildScan* scan, const int* counts, int roll,
                        checker_t* buffer) noexcept nogil:
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


# ----- Python boundary ------------------------------------------------------------------

cdef int checked_points(int points) except -1:
    if not 1 <= points <= MAX_TABLE_POINTS:
        raise ValueError(f"a one-sided position covers 1..{MAX_TABLE_POINTS} points, got {points}")
    return points


cdef void checked_counts(counts, int points, int* out) except *:
    """counts (points 1..points) into out[1..points], out[0] = 0; ValueError when impossible."""
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


def bearoff_children(counts, int die1, int die2):
    """Sorted ranks of the children of a one-sided position (len(counts) points), from
    legal_children."""
    cdef int points = checked_points(len(counts))
    cdef int roll = roll_number(die1, die2)
    if roll < 0:
        raise ValueError(f"dice are 1..6, got {die1} and {die2}")
    cdef int c[MAX_TABLE_POINTS + 1]
    checked_counts(counts, points, c)
    if sum(counts) == 0:
        raise ValueError("a side without checkers has no moves")
    cdef ChildScan* scan = <ChildScan*>malloc(sizeof(ChildScan))
    cdef checker_t* buffer = <checker_t*>malloc(MAX_CHILDREN * NUM_SLOTS)
    try:
        if scan == NULL or buffer == NULL:
            raise MemoryError()
        scan.points = points
        scan_children(scan, c, roll, buffer)
        return sorted(scan.ranks[i] for i in range(scan.count))
    finally:
        free(scan)
        free(buffer)


def one_sided_rank_of(counts):
    """Rank of a one-sided position given as counts for points 1..len(counts)."""
    cdef int points = checked_points(len(counts))
    cdef int c[MAX_TABLE_POINTS + 1]
    checked_counts(counts, points, c)
    return one_sided_rank(c, points)


def one_sided_counts_of(long long rank, int points):
    """Counts for points 1..points of the one-sided position with this rank."""
    checked_points(points)
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

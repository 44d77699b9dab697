# cython: language_level=3
"""The two-sided bear-off table: exact cubeless and cubeful money results when both sides
are home with at most N checkers each (no gammons are possible).

Pairs (mover's rank, opponent's rank) are computed in an order where every reply is
already known; each roll is played to maximise the quantity being computed, and the
cube is doubled, taken and passed optimally (no beavers).
"""

import numpy as np
from libc.math cimport INFINITY
from libc.stdlib cimport malloc, free

from bgcore._types cimport checker_t, NUM_SLOTS, NUM_CHECKERS
from bgcore._dice cimport NUM_ROLLS, ROLL_WEIGHT
from bgcore._movegen cimport MAX_CHILDREN
from bgcore._bearoff_index cimport (HOME_POINTS, MAX_TABLE_POINTS, ChildScan, one_sided_unrank,
                                    positions_up_to, scan_children)


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
        weight = ROLL_WEIGHT[roll]
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
                scan_children(&scan, counts, roll, buffer)
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


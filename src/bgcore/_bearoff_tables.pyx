# cython: language_level=3
"""Bear-off table lookups: one- and two-sided tables as read-only C views, and the exact
two-sided results of a board. Whoever fills a table keeps its arrays alive (see
``bgcore._race.RaceTables``); nothing here is process-wide.
"""

import numpy as np

from bgcore._types cimport checker_t, NUM_SLOTS, NUM_CHECKERS
from bgcore._bearoff_index cimport HOME_POINTS, MAX_TABLE_POINTS, one_sided_rank, positions_up_to


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


cdef long long two_sided_pair(const TwoSidedTable* table, const checker_t* board) noexcept nogil:
    """Index a * size + b of the board in the two-sided table, or -1."""
    cdef SideCounts mover, opponent
    if table.max_checkers == 0:
        return -1
    read_sides(board, &mover, &opponent)
    if (mover.highest > HOME_POINTS or opponent.highest > HOME_POINTS
            or mover.on_board > table.max_checkers or opponent.on_board > table.max_checkers
            or mover.on_board == 0 or opponent.on_board == 0):
        return -1
    return (one_sided_rank(mover.counts, HOME_POINTS) * table.size
            + one_sided_rank(opponent.counts, HOME_POINTS))


cdef double two_sided_win_probability(const TwoSidedTable* table,
                                      const checker_t* board) noexcept nogil:
    cdef long long pair = two_sided_pair(table, board)
    return -1.0 if pair < 0 else table.win[pair]


cdef double two_sided_cubeful_equity(const TwoSidedTable* table, const checker_t* board,
                                     int owner) noexcept nogil:
    cdef long long pair = two_sided_pair(table, board)
    if pair < 0 or not 0 <= owner <= 2:
        return -2.0
    return table.cubeful[owner * table.size * table.size + pair]


def _checked_table(array, name, int ndim, long long rows):
    if not isinstance(array, np.ndarray) or array.dtype != np.float64 or array.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-d float64 numpy array")
    if array.shape[0] != rows or (ndim == 2 and array.shape[1] < 1):
        raise ValueError(f"{name} has shape {array.shape}, expected {rows} rows")
    return np.ascontiguousarray(array)


cdef tuple fill_one_sided(OneSidedTable* table, int points, rolls, expected, first_off):
    if not HOME_POINTS <= points <= MAX_TABLE_POINTS:
        raise ValueError(f"race one-sided tables cover {HOME_POINTS}..{MAX_TABLE_POINTS} points")
    cdef long long size = positions_up_to(NUM_CHECKERS, points)
    cdef long long full_start = positions_up_to(NUM_CHECKERS - 1, points)
    rolls = _checked_table(rolls, "rolls", 2, size)
    expected = _checked_table(expected, "expected", 1, size)
    first_off = _checked_table(first_off, "first_off", 2, size - full_start)
    cdef const double[:, ::1] rolls_view = rolls
    cdef const double[::1] expected_view = expected
    cdef const double[:, ::1] first_view = first_off
    table.points = points
    table.size = size
    table.full_start = full_start
    table.width = rolls.shape[1]
    table.first_width = first_off.shape[1]
    table.rolls = &rolls_view[0, 0]
    table.expected = &expected_view[0]
    table.first_off = &first_view[0, 0]
    return (rolls, expected, first_off)


cdef tuple fill_two_sided(TwoSidedTable* table, int max_checkers, win, cubeful):
    if not 1 <= max_checkers <= NUM_CHECKERS - 1:
        raise ValueError(f"two-sided tables hold 1..14 checkers per side, got {max_checkers}")
    cdef long long size = positions_up_to(max_checkers, HOME_POINTS)
    win = _checked_table(win, "win", 2, size)
    cubeful = _checked_table(cubeful, "cubeful", 3, 3)
    if win.shape[1] != size or cubeful.shape[1:] != (size, size):
        raise ValueError(f"tables must be {size} x {size} and 3 x {size} x {size}")
    cdef const double[:, ::1] win_view = win
    cdef const double[:, :, ::1] cube_view = cubeful
    table.size = size
    table.win = &win_view[0, 0]
    table.cubeful = &cube_view[0, 0, 0]
    table.max_checkers = max_checkers
    return (win, cubeful)

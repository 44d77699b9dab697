# Bear-off table lookups (nogil): read-only views of tables built by _bearoff_one_sided /
# _bearoff_two_sided, which the Python object that owns the arrays keeps alive.
from bgcore._types cimport checker_t, NUM_SLOTS

ctypedef struct OneSidedTable:
    int points                      # 0: no table
    long long size
    long long full_start            # first rank with all 15 checkers on the board
    int width
    int first_width
    const double* rolls             # size x width: P(all off in exactly k rolls)
    const double* expected          # size
    const double* first_off         # (size - full_start) x first_width

ctypedef struct TwoSidedTable:
    int max_checkers                # 0: no table
    long long size
    const double* win               # size x size
    const double* cubeful           # 3 x size x size: centred, mover owns, opponent owns

# One side's checkers in its own numbering (counts[25] = bar).
ctypedef struct SideCounts:
    int counts[NUM_SLOTS]
    int on_board
    int highest

cdef void read_sides(const checker_t* board, SideCounts* mover, SideCounts* opponent) noexcept nogil

# Exact cubeless P(player on roll wins) from a two-sided table, or -1 when the board is not
# a position of that table (both sides home with 1..max_checkers checkers each).
cdef double two_sided_win_probability(const TwoSidedTable* table,
                                      const checker_t* board) noexcept nogil

# Exact money equity per unit cube (player on roll's view, before the roll) from the same
# table; owner 0 centred, 1 player on roll, 2 opponent; -2 when not in the table.
cdef double two_sided_cubeful_equity(const TwoSidedTable* table, const checker_t* board,
                                     int owner) noexcept nogil

# Point ``table`` at checked arrays from the builds (the caller keeps them alive); the
# arrays are returned C-contiguous (ValueError when they are not the table's arrays).
cdef tuple fill_one_sided(OneSidedTable* table, int points, rolls, expected, first_off)
cdef tuple fill_two_sided(TwoSidedTable* table, int max_checkers, win, cubeful)

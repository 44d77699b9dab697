# Bear-off databases and race evaluation: the nogil C API for evaluators and rollouts.
#
# Tables are built and installed from Python (bgengine.bearoff); until then the lookups
# below return -1 ("not available") and callers fall back to their own evaluation.
from bgcore._types cimport checker_t

cdef enum:
    HOME_POINTS = 6                 # points of the home board
    MAX_TABLE_POINTS = 12           # largest one-sided table this module can index
    NUM_ROLLS = 21                  # distinct rolls: 15 non-doubles (2/36) + 6 doubles (1/36)

# Rank of a one-sided position (counts[p] checkers on point p, p = 1..points) among all
# positions with up to 15 checkers on that many points; positions with up to n checkers
# come first, and every move lowers the rank.
cdef long long one_sided_rank(const int* counts, int points) noexcept nogil
cdef void one_sided_unrank(long long rank, int points, int* counts) noexcept nogil

# Installed one-sided table (the six-point home table): the row of P(off in exactly k rolls)
# for a rank, its width, and the row of P(first checker off in exactly k rolls).
cdef const double* one_sided_rolls_row(long long rank, int* width) noexcept nogil
cdef double one_sided_expected_rolls(long long rank) noexcept nogil

# Exact cubeless P(player on roll wins) from the installed two-sided table, or -1 when the
# board is not a position of that table (both sides home with at most N checkers each).
cdef double two_sided_win_probability(const checker_t* board) noexcept nogil

# Exact money equity per unit cube (player on roll's view, before the roll) from the same
# table; owner 0 centred, 1 player on roll, 2 opponent; -2 when not in the table.
cdef double two_sided_cubeful_equity(const checker_t* board, int owner) noexcept nogil

# Cubeless 5-vector of a valid board without contact (player on roll's view, before
# rolling) into out[0..4]; returns 0 when done, -1 when the board has contact or no table
# is installed. Boards are not checked here (callers pass positions they validated).
cdef int race_probabilities(const checker_t* board, float* out) noexcept nogil

# Board primitives shared by every kernel: checks, flips, counts and phase.
from bgcore._types cimport checker_t, Phase

# 0 when the 26 slots are a possible position (each slot within -15..15, bars on the
# right side, at most 15 checkers a side, not both sides borne off), else a problem code.
cdef int board_problem_code(const checker_t* board) noexcept nogil

# The one board check at the Python boundary: the 26 slots of ``board`` after checking
# its length and that it is a possible position (ValueError "board 0: ..." otherwise).
cdef const checker_t* checked_board(bytes board) except NULL

# The same check for n consecutive boards: raises ``error(f"{label} {i}: {problem}")``
# naming the first impossible board.
cdef int check_boards(const checker_t* boards, Py_ssize_t n, object error=*,
                      str label=*) except -1

cdef void flip_board(const checker_t* board, checker_t* out) noexcept nogil
cdef int mover_checkers_on_board(const checker_t* board) noexcept nogil
cdef int opponent_checkers_on_board(const checker_t* board) noexcept nogil
# Checkers of each side still in play: on its bar and its points 3..24 (those borne off or
# on its own 1- and 2-points are out of play), the crashed-position test's count.
cdef void checkers_in_play_of(const checker_t* board, int* mover, int* opponent) noexcept nogil
cdef void pip_counts_of(const checker_t* board, int* mover, int* opponent) noexcept nogil
cdef Phase phase_of(const checker_t* board) noexcept nogil

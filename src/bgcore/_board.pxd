# Board primitives shared by every kernel: checks, flips, counts and phase.
from bgcore._types cimport checker_t, Phase

cdef int board_problem_code(const checker_t* board) noexcept nogil
cdef void flip_board(const checker_t* board, checker_t* out) noexcept nogil
cdef int mover_checkers_on_board(const checker_t* board) noexcept nogil
cdef int opponent_checkers_on_board(const checker_t* board) noexcept nogil
cdef void pip_counts_of(const checker_t* board, int* mover, int* opponent) noexcept nogil
cdef Phase phase_of(const checker_t* board) noexcept nogil

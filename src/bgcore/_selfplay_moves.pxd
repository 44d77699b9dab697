# Stand-in legal-move generator for self-play until bgcore._movegen lands (same contract as
# legal_children: distinct children, sides switched; a pass gives the board itself, switched).
from bgcore._types cimport checker_t

cdef enum:
    SELFPLAY_MAX_CHILDREN = 1024

cdef int selfplay_children(const checker_t* board, int die1, int die2, checker_t* children,
                           int max_children) noexcept nogil

# STAND-IN until branch `movegen` lands: same contract as bgcore._movegen.legal_children
# (distinct legal children, sides switched; a pass gives one child, the board switched).
# Delete this file and cimport from bgcore._movegen instead once it is merged.
from bgcore._types cimport checker_t

cdef enum:
    STANDIN_MAX_CHILDREN = 3060

cdef int legal_children(const checker_t* board, int die1, int die2,
                        checker_t* children, int max_children) noexcept nogil

# Tesauro's PubEval benchmark player: a linear score of the board after a move.
from bgcore._types cimport checker_t

cdef enum:
    PUBEVAL_INPUTS = 122

# Score of a board seen from the player who just moved (mover > 0, 26 slots).
cdef float pubeval_score(const float* weights, const checker_t* after) noexcept nogil

# Index of the child (sides switched, as from move generation) that PubEval plays from
# ``board``; race weights when ``board`` has no contact, else contact weights.
cdef int pubeval_best_child(const float* contact_weights, const float* race_weights,
                            const checker_t* board, const checker_t* children,
                            int n) noexcept nogil

cdef class PubEval:
    cdef float contact[PUBEVAL_INPUTS]
    cdef float race[PUBEVAL_INPUTS]

# The C-level evaluator interface that kernels (rollouts, and later n-ply search) call
# without the GIL, whatever evaluator is behind it (network, race tables, test doubles).
#
# Perspective: every board is seen from the player ON ROLL, BEFORE rolling; out5 receives
# that player's cumulative 5-vector (win, win_gammon, win_backgammon, lose_gammon,
# lose_backgammon). Children of move generation are seen from the next player.
from bgcore._types cimport checker_t
from bgcore._outcomes cimport equity_of, flip_probabilities, finished_probabilities

cdef enum:
    NUM_PROBABILITIES = 5

# Evaluate n boards (26 slots each, consecutive) into out5 (5 floats per board).
ctypedef void (*evaluate_boards_fn)(void* context, const checker_t* boards, int n,
                                    float* out5) noexcept nogil

# Exact cubeless 5-vector of one board when it is known (e.g. two-sided bear-off table):
# returns 1 and fills out5, else 0 (out5 untouched).
ctypedef int (*exact_probabilities_fn)(void* context, const checker_t* board,
                                       float* out5) noexcept nogil

ctypedef struct BoardEvaluator:
    evaluate_boards_fn evaluate
    void* context

ctypedef struct ExactOracle:
    exact_probabilities_fn probabilities      # NULL when there is none
    void* context


# Python-side owners of the structs above: they keep whatever the context points to alive.
cdef class CEvaluator:
    cdef BoardEvaluator c
    cdef object owner


cdef class COracle:
    cdef ExactOracle c
    cdef object owner



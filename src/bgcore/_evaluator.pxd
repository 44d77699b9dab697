# The one C evaluator contract: every kernel (rollouts, n-ply search, self-play) calls an
# evaluator through a BoardEvaluator, without the GIL, whatever is behind it (the engine's
# composite, a Python object called back with the GIL, test doubles).
#
# Perspective: every board is seen from the player ON ROLL, BEFORE rolling; out5 receives
# that player's cumulative 5-vector (win, win_gammon, win_backgammon, lose_gammon,
# lose_backgammon). Finished games must come back exact. Children of move generation are
# seen from the next player, so the mover plays the child of lowest equity.
from bgcore._types cimport checker_t
from bgcore._outcomes cimport NUM_OUTPUTS, equity_of, flip_probabilities, finished_probabilities

cdef enum:
    EVALUATION_OK = 0
    EVALUATION_FAILED = -1          # e.g. a Python evaluator raised; see CEvaluator.failure()

# Evaluate n boards (26 slots each, consecutive) into out5 (5 floats per board); returns
# EVALUATION_OK, or a negative status when it could not (out5 is then undefined).
ctypedef int (*evaluate_boards_fn)(void* context, const checker_t* boards, int n,
                                   float* out5) noexcept nogil

ctypedef struct BoardEvaluator:
    evaluate_boards_fn evaluate
    void* context

# Exact cubeless 5-vector of one board when it is known (e.g. the two-sided bear-off
# table), for kernels that stop there: returns 1 and fills out5, else 0 (out5 untouched).
ctypedef int (*exact_probabilities_fn)(void* context, const checker_t* board,
                                       float* out5) noexcept nogil

ctypedef struct ExactOracle:
    exact_probabilities_fn probabilities      # NULL when there is none
    void* context

# The one "best child" rule: evaluates the n children (next player's view) into out5
# (n * 5 floats) and returns the index of the one of lowest equity (the first of equal
# ones), or -1 when the evaluator failed.
cdef int best_child(const BoardEvaluator* evaluator, const checker_t* children, int n,
                    float* out5) noexcept nogil


# Python-side owners of the structs above: they keep whatever the context points to alive.
cdef class CEvaluator:
    cdef BoardEvaluator c
    cdef object owner


cdef class COracle:
    cdef ExactOracle c
    cdef object owner


# Any Python object with evaluate_batch((n, 26) int8 boards) -> (n, 5) as a CEvaluator
# (called back with the GIL; finished games are answered exactly without asking it).
cdef class PythonEvaluator(CEvaluator):
    cdef readonly object evaluator
    cdef object error

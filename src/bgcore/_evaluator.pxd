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

# A second stage may refine the move choice (a wider, slower network): the children of a
# roll are all valued by `evaluate`, then the `shortlist` best of them again by `second`,
# which picks among them (`value_children`). NULL: `evaluate` alone chooses.
ctypedef struct BoardEvaluator:
    evaluate_boards_fn evaluate
    void* context
    const BoardEvaluator* second    # NULL, or the second stage (itself without one)
    int shortlist                   # children it re-values: 1..MAX_SHORTLIST when second is set

# Exact cubeless 5-vector of one board when it is known (e.g. the two-sided bear-off
# table), for kernels that stop there: returns 1 and fills out5, else 0 (out5 untouched).
ctypedef int (*exact_probabilities_fn)(void* context, const checker_t* board,
                                       float* out5) noexcept nogil

ctypedef struct ExactOracle:
    exact_probabilities_fn probabilities      # NULL when there is none
    void* context

cdef enum:
    MAX_SHORTLIST = 8

# A short list's first step: child `index` of equity `e` joins the `count` lowest kept so
# far (`equities` ascending, at most `keep`; an equal equity goes after those kept before
# it, as a stable sort would put it). Returns the new count.
cdef inline int keep_lowest(float* equities, int* indices, int count, int keep, double e,
                            int index) noexcept nogil:
    cdef int j
    if count == keep and not e < equities[count - 1]:
        return count
    j = count if count < keep else keep - 1
    while j > 0 and equities[j - 1] > e:
        equities[j] = equities[j - 1]
        indices[j] = indices[j - 1]
        j -= 1
    equities[j] = e
    indices[j] = index
    return count + 1 if count < keep else count

# The n children of one roll (next player's view) valued as the 0-ply move choice sees
# them, into out5 (n * 5 floats): all by the evaluator; with a second stage, the
# `shortlist` of lowest equity (ties to the lower index) again by it, their indices into
# `shortlisted` ordered by its equity (float32; ties keep the first stage's order). Returns how many
# were short-listed (0: no second stage, or a single child), or -1 when an evaluator failed.
cdef int value_children(const BoardEvaluator* evaluator, const checker_t* children, int n,
                        float* out5, int* shortlisted) noexcept nogil

# The one "best child" rule: values the n children (value_children) and returns the index
# of the one to play (the second stage's first, else the lowest equity, the first of equal
# ones), or -1 when an evaluator failed.
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

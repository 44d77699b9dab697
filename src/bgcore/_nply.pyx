# cython: language_level=3
"""n-ply lookahead: average over the 21 rolls of the best reply searched one ply less.

At each roll every legal child is evaluated statically; the move filter keeps the few
best of them, which are searched at the ply below, and the best of those (lowest equity
for the next player) is the reply, chosen by the evaluator alone (a second stage, which
refines a 0-ply move choice, is left out of searches). The evaluator is any of the C contract
(``bgcore._evaluator``), so the same code serves the engine (``bgcore._engine``) and
Python evaluators (called back with the GIL).
"""

import numpy as np
from libc.stdlib cimport malloc, free
from libc.string cimport memset, memcpy

from bgcore._types cimport checker_t, NUM_SLOTS
from bgcore._outcomes cimport NUM_OUTPUTS, equity_of, finished_probabilities, flip_probabilities
from bgcore._dice cimport NUM_ROLLS, ROLL_LOW, ROLL_HIGH, ROLL_WEIGHT
from bgcore._evaluator cimport EVALUATION_OK, BoardEvaluator, CEvaluator, best_child, keep_lowest
from bgcore._movegen cimport legal_children, MAX_CHILDREN

cdef enum:
    MAX_PLIES = 4
    MAX_KEEP = 64


cdef int best_reply(const BoardEvaluator* evaluator, const checker_t* children, int n,
                    int plies, const MoveFilter* root_filter, const MoveFilter* move_filter,
                    float* values, float* best5) noexcept nogil:
    """Index of the child to play among n (or -1 on error); its 5-vector (next player's
    view) into best5. Candidates by 0-ply per ``root_filter``, searched ``plies`` deep.
    With best5 NULL the value is not wanted, so a lone candidate is played unsearched.
    The candidates are chosen by the second stage's values when the evaluator has one (as
    ``_single.rank`` does, so that rollouts and self-play at n plies search the plays
    ``best_move`` searches); the searches themselves use the first stage."""
    cdef int i, j, c, chosen = 0, candidates = 0
    if plies <= 0:
        chosen = best_child(evaluator, children, n, values)
        if chosen >= 0 and best5 != NULL:
            memcpy(best5, values + chosen * NUM_OUTPUTS, NUM_OUTPUTS * sizeof(float))
        return chosen
    cdef const BoardEvaluator* ranking = evaluator.second if evaluator.second != NULL else evaluator
    if ranking.evaluate(ranking.context, children, n, values) != EVALUATION_OK:
        return -1
    cdef int order[MAX_KEEP]
    cdef float equity[MAX_KEEP]
    cdef float e
    cdef float searched[NUM_OUTPUTS]
    cdef float best_equity = 0.0
    # the `keep` lowest 0-ply equities, in increasing order (insertion into a short list)
    cdef int keep = root_filter.keep
    if keep > MAX_KEEP:
        keep = MAX_KEEP
    for i in range(n):
        candidates = keep_lowest(equity, order, candidates, keep, equity_of(values + i * NUM_OUTPUTS), i)
    if best5 == NULL and (candidates == 1 or equity[1] > equity[0] + root_filter.margin):
        return order[0]
    for c in range(candidates):
        if c > 0 and equity[c] > equity[0] + root_filter.margin:
            break
        if nply_probabilities(evaluator, children + order[c] * NUM_SLOTS, plies,
                              move_filter, searched) != 0:
            return -1
        e = equity_of(searched)
        if c == 0 or e < best_equity:
            best_equity = e
            chosen = order[c]
            if best5 != NULL:
                for j in range(NUM_OUTPUTS):
                    best5[j] = searched[j]
    return chosen


cdef int nply_probabilities(const BoardEvaluator* evaluator, const checker_t* board,
                            int plies, const MoveFilter* move_filter,
                            float* out5) noexcept nogil:
    if finished_probabilities(board, out5):
        return 0
    if plies <= 0:
        return 0 if evaluator.evaluate(evaluator.context, board, 1, out5) == EVALUATION_OK else -1
    cdef BoardEvaluator first_stage
    if evaluator.second != NULL:        # a search values replies by the first stage alone
        first_stage = evaluator[0]
        first_stage.second = NULL
        first_stage.shortlist = 0
        evaluator = &first_stage
    cdef checker_t* children = <checker_t*>malloc(MAX_CHILDREN * NUM_SLOTS)
    cdef float* values = <float*>malloc(MAX_CHILDREN * NUM_OUTPUTS * sizeof(float))
    cdef float total[NUM_OUTPUTS]
    cdef float reply[NUM_OUTPUTS]
    cdef float mine[NUM_OUTPUTS]
    cdef int roll, k, n, status = 0
    if children == NULL or values == NULL:
        status = -1
    memset(total, 0, sizeof(total))
    for roll in range(NUM_ROLLS):
        if status != 0:
            break
        n = legal_children(board, ROLL_LOW[roll], ROLL_HIGH[roll], children, MAX_CHILDREN)
        if n <= 0 or best_reply(evaluator, children, n, plies - 1, move_filter,
                                move_filter, values, reply) < 0:
            status = -1
            break
        flip_probabilities(reply, mine)
        for k in range(NUM_OUTPUTS):
            total[k] += ROLL_WEIGHT[roll] * mine[k]
    free(children)
    free(values)
    for k in range(NUM_OUTPUTS):
        out5[k] = total[k] * (1.0 / 36.0)
    return status


# ----- Python boundary ------------------------------------------------------------------

cdef tuple search_boards(const BoardEvaluator* evaluator, boards, int plies, int keep,
                         float margin, BoardSearch search):
    if not margin >= 0:
        raise ValueError(f"margin must be >= 0, got {margin}")
    cdef const checker_t[:, ::1] view = np.ascontiguousarray(boards, dtype=np.int8)
    if view.shape[1] != NUM_SLOTS:
        raise ValueError(f"boards must have shape (n, {NUM_SLOTS})")
    cdef int n = view.shape[0], b, status = 0
    out = np.zeros((n, NUM_OUTPUTS), dtype=np.float32)
    if n == 0:
        return out, 0
    cdef float[:, ::1] out_view = out
    cdef MoveFilter move_filter
    move_filter.keep = keep
    move_filter.margin = margin
    with nogil:
        for b in range(n):
            status = search(evaluator, &view[b, 0], plies, &move_filter, &out_view[b, 0])
            if status != 0:
                break
    return out, status


def nply_evaluate(CEvaluator evaluator, boards, int plies, int keep=1, float margin=0.0):
    """(n, 5) float32 probabilities of (n, 26) trusted boards looked ahead ``plies`` rolls.

    ``evaluator``: any C evaluator (``bgcore._engine.EngineCEvaluator`` runs without the
    GIL; ``bgcore._evaluator.PythonEvaluator`` calls Python back). ``keep``/``margin``:
    the move filter.
    """
    if not 0 <= plies <= MAX_PLIES:
        raise ValueError(f"plies must be 0..{MAX_PLIES}, got {plies}")
    if not 1 <= keep <= MAX_KEEP or margin < 0:
        raise ValueError(f"keep must be 1..{MAX_KEEP} and margin >= 0")
    if evaluator.c.evaluate == NULL:
        raise ValueError(f"{type(evaluator).__name__} has no evaluate function")
    out, status = search_boards(&evaluator.c, boards, plies, keep, margin, nply_probabilities)
    if status != 0:
        error = evaluator.failure()
        if error is not None:
            raise error
        raise MemoryError("n-ply evaluation ran out of memory")
    return out

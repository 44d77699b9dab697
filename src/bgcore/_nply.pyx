# cython: language_level=3
"""n-ply lookahead: average over the 21 rolls of the best reply searched one ply less.

At each roll every legal child is evaluated statically; the move filter keeps the few
best of them, which are searched at the ply below, and the best of those (lowest equity
for the next player) is the reply. The static evaluator is a C function, so the same
code serves the engine (network, race tables, exact finished games) and Python test
doubles (called back with the GIL).
"""

import numpy as np
from libc.stdlib cimport malloc, free
from libc.string cimport memset

from bgcore._types cimport checker_t, NUM_SLOTS, PHASE_CONTACT
from bgcore._board cimport phase_of
from bgcore._nn cimport (Network, NeuralNet, NUM_OUTPUTS, evaluate_boards, equity_of,
                         finished_probabilities, flip_probabilities)
from bgcore._movegen cimport legal_children, MAX_CHILDREN
from bgcore._bearoff cimport race_probabilities

cdef enum:
    MAX_PLIES = 4
    MAX_KEEP = 64


cdef int engine_static(void* network, const checker_t* boards, int n,
                       float* out5) noexcept nogil:
    cdef int b
    cdef const checker_t* board
    for b in range(n):
        board = boards + b * NUM_SLOTS
        if finished_probabilities(board, out5 + b * NUM_OUTPUTS):
            continue
        if phase_of(board) != PHASE_CONTACT and race_probabilities(board, out5 + b * NUM_OUTPUTS) == 0:
            continue
        evaluate_boards(<const Network*>network, board, 1, out5 + b * NUM_OUTPUTS)
    return 0


cdef int network_static(void* network, const checker_t* boards, int n,
                        float* out5) noexcept nogil:
    """Finished games exactly, every other board from the network (no race tables)."""
    evaluate_boards(<const Network*>network, boards, n, out5)
    return 0


cdef int best_reply(const StaticEvaluator* evaluator, const checker_t* children, int n,
                    int plies, const MoveFilter* root_filter, const MoveFilter* move_filter,
                    float* values, float* best5) noexcept nogil:
    """Index of the child to play among n (or -1 on error); its 5-vector (next player's
    view) into best5. Candidates by 0-ply per ``root_filter``, searched ``plies`` deep."""
    if evaluator.evaluate(evaluator.context, children, n, values) != 0:
        return -1
    cdef int i, j, c, chosen = 0, candidates = 0
    cdef int order[MAX_KEEP]
    cdef float equity[MAX_KEEP]
    cdef float e
    cdef float searched[NUM_OUTPUTS]
    cdef float best_equity = 0.0
    # the `keep` lowest 0-ply equities, in increasing order (insertion into a short list)
    cdef int keep = root_filter.keep if plies > 0 else 1
    if keep > MAX_KEEP:
        keep = MAX_KEEP
    for i in range(n):
        e = equity_of(values + i * NUM_OUTPUTS)
        if candidates < keep or e < equity[candidates - 1]:
            j = candidates if candidates < keep else keep - 1
            while j > 0 and equity[j - 1] > e:
                equity[j] = equity[j - 1]
                order[j] = order[j - 1]
                j -= 1
            equity[j] = e
            order[j] = i
            if candidates < keep:
                candidates += 1
    if plies <= 0:
        for j in range(NUM_OUTPUTS):
            best5[j] = values[order[0] * NUM_OUTPUTS + j]
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
            for j in range(NUM_OUTPUTS):
                best5[j] = searched[j]
    return chosen


cdef int nply_probabilities(const StaticEvaluator* evaluator, const checker_t* board,
                            int plies, const MoveFilter* move_filter,
                            float* out5) noexcept nogil:
    if finished_probabilities(board, out5):
        return 0
    if plies <= 0:
        return evaluator.evaluate(evaluator.context, board, 1, out5)
    cdef checker_t* children = <checker_t*>malloc(MAX_CHILDREN * NUM_SLOTS)
    cdef float* values = <float*>malloc(MAX_CHILDREN * NUM_OUTPUTS * sizeof(float))
    cdef float total[NUM_OUTPUTS]
    cdef float reply[NUM_OUTPUTS]
    cdef float mine[NUM_OUTPUTS]
    cdef int d1, d2, k, n, status = 0
    cdef float weight
    if children == NULL or values == NULL:
        status = -1
    memset(total, 0, sizeof(total))
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            if status != 0:
                break
            n = legal_children(board, d1, d2, children, MAX_CHILDREN)
            if n <= 0 or best_reply(evaluator, children, n, plies - 1, move_filter,
                                    move_filter, values, reply) < 0:
                status = -1
                break
            flip_probabilities(reply, mine)
            weight = 1.0 if d1 == d2 else 2.0
            for k in range(NUM_OUTPUTS):
                total[k] += weight * mine[k]
    free(children)
    free(values)
    for k in range(NUM_OUTPUTS):
        out5[k] = total[k] * (1.0 / 36.0)
    return status


# ----- Python boundary ------------------------------------------------------------------

cdef class _PythonStatic:
    """Adapts an object with ``evaluate_batch(boards) -> (n, 5)`` to the C callback."""
    cdef object evaluator
    cdef object error

    def __init__(self, evaluator):
        self.evaluator = evaluator
        self.error = None


cdef int python_static(void* context, const checker_t* boards, int n,
                       float* out5) noexcept with gil:
    """Finished games exactly, the other boards through the Python evaluator."""
    cdef _PythonStatic adapter = <_PythonStatic>context
    cdef int i, k
    try:
        pending = [i for i in range(n)
                   if not finished_probabilities(boards + i * NUM_SLOTS, out5 + i * NUM_OUTPUTS)]
        if not pending:
            return 0
        every = np.frombuffer((<char*>boards)[:n * NUM_SLOTS], dtype=np.int8).reshape(n, NUM_SLOTS)
        result = np.asarray(adapter.evaluator.evaluate_batch(every[pending]), dtype=np.float32)
        if result.shape != (len(pending), NUM_OUTPUTS):
            raise ValueError(f"evaluate_batch returned shape {result.shape} for {len(pending)} boards")
        for row, i in enumerate(pending):
            for k in range(NUM_OUTPUTS):
                out5[i * NUM_OUTPUTS + k] = result[row, k]
        return 0
    except BaseException as error:
        adapter.error = error
        return -1


def nply_evaluate(evaluator, boards, int plies, int keep=1, float margin=0.0,
                  bint race_tables=True):
    """(n, 5) float32 probabilities of (n, 26) trusted boards looked ahead ``plies`` rolls.

    ``evaluator``: a NeuralNet (the engine's static evaluation: exact finished games,
    race tables when installed and ``race_tables``, the network otherwise; runs without
    the GIL) or any object with ``evaluate_batch``. ``keep``/``margin``: the move filter.
    """
    if not 0 <= plies <= MAX_PLIES:
        raise ValueError(f"plies must be 0..{MAX_PLIES}, got {plies}")
    if not 1 <= keep <= MAX_KEEP or margin < 0:
        raise ValueError(f"keep must be 1..{MAX_KEEP} and margin >= 0")
    cdef const checker_t[:, ::1] view = np.ascontiguousarray(boards, dtype=np.int8)
    if view.shape[1] != NUM_SLOTS:
        raise ValueError(f"boards must have shape (n, {NUM_SLOTS})")
    cdef int n = view.shape[0], b, status = 0
    out = np.zeros((n, NUM_OUTPUTS), dtype=np.float32)
    if n == 0:
        return out
    cdef float[:, ::1] out_view = out
    cdef MoveFilter move_filter
    move_filter.keep = keep
    move_filter.margin = margin
    cdef StaticEvaluator static
    cdef _PythonStatic adapter = None
    if isinstance(evaluator, NeuralNet):
        static.evaluate = engine_static if race_tables else network_static
        static.context = <void*>&(<NeuralNet>evaluator).net
        with nogil:
            for b in range(n):
                if status == 0:
                    status = nply_probabilities(&static, &view[b, 0], plies, &move_filter,
                                                &out_view[b, 0])
    else:
        adapter = _PythonStatic(evaluator)
        static.evaluate = python_static
        static.context = <void*>adapter
        for b in range(n):
            if status == 0:
                status = nply_probabilities(&static, &view[b, 0], plies, &move_filter,
                                            &out_view[b, 0])
    if status != 0:
        if adapter is not None and adapter.error is not None:
            raise adapter.error
        raise MemoryError("n-ply evaluation ran out of memory")
    return out

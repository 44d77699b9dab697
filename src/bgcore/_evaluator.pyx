# cython: language_level=3
"""The C evaluator contract's shared pieces: ``best_child`` and the Python-side owners.

``CEvaluator`` / ``COracle`` wrap a nogil function pointer and its context so a kernel can
call any evaluator without the GIL; ``PythonEvaluator`` adapts a Python object with
``evaluate_batch`` (n-ply search of Python evaluators). The engine's own evaluator is
``bgcore._engine.EngineCEvaluator``; test doubles live in ``bgcore._testing``.
"""

import numpy as np
from libc.string cimport memcpy

from bgcore._types cimport checker_t, NUM_SLOTS
from bgcore._board cimport checked_board

#: The longest short list a second stage may re-value.
LONGEST_SHORTLIST = MAX_SHORTLIST


cdef int value_children(const BoardEvaluator* evaluator, const checker_t* children, int n,
                        float* out5, int* shortlisted) noexcept nogil:
    if evaluator.evaluate(evaluator.context, children, n, out5) != EVALUATION_OK:
        return -1
    cdef const BoardEvaluator* second = evaluator.second
    if second == NULL or n < 2:
        return 0
    cdef int keep = evaluator.shortlist if evaluator.shortlist < n else n
    cdef int i, c, count = 0
    cdef int first[MAX_SHORTLIST]
    cdef float equities[MAX_SHORTLIST]
    cdef checker_t boards[MAX_SHORTLIST * NUM_SLOTS]
    cdef float values[MAX_SHORTLIST * NUM_OUTPUTS]
    for i in range(n):
        count = keep_lowest(equities, first, count, keep, equity_of(out5 + i * NUM_OUTPUTS), i)
    for c in range(count):
        memcpy(boards + c * NUM_SLOTS, children + first[c] * NUM_SLOTS, NUM_SLOTS)
    if second.evaluate(second.context, boards, count, values) != EVALUATION_OK:
        return -1
    for c in range(count):             # into place, and ordered again by the second's equity
        memcpy(out5 + first[c] * NUM_OUTPUTS, values + c * NUM_OUTPUTS, NUM_OUTPUTS * sizeof(float))
        keep_lowest(equities, shortlisted, c, count, equity_of(values + c * NUM_OUTPUTS), first[c])
    return count


cdef int best_child(const BoardEvaluator* evaluator, const checker_t* children, int n,
                    float* out5) noexcept nogil:
    cdef int shortlisted[MAX_SHORTLIST]
    cdef int count = value_children(evaluator, children, n, out5, shortlisted)
    if count != 0:
        return -1 if count < 0 else shortlisted[0]
    cdef int i, best = 0
    cdef double value, best_value = equity_of(out5)
    for i in range(1, n):
        value = equity_of(out5 + i * NUM_OUTPUTS)
        if value < best_value:
            best_value = value
            best = i
    return best


cdef list as_list(const float* out5):
    return [out5[0], out5[1], out5[2], out5[3], out5[4]]


cdef class CEvaluator:
    """A nogil evaluator callable from kernels: a function pointer and its context."""

    def __cinit__(self):
        self.c.evaluate = NULL
        self.c.context = NULL
        self.c.second = NULL
        self.c.shortlist = 0
        self.owner = None

    def evaluate_board(self, bytes board):
        """5-vector of one board (26 int8 bytes, a possible position), for tests and checks."""
        cdef float out[NUM_OUTPUTS]
        if self.c.evaluate == NULL:
            raise ValueError(f"{type(self).__name__} has no evaluate function")
        if self.c.evaluate(self.c.context, checked_board(board), 1, out) != EVALUATION_OK:
            self.raise_failure()
        return as_list(out)

    def failure(self):
        """The exception behind the last failed evaluation, when there is one (else None)."""
        return None

    def raise_failure(self):
        """Raise what made an evaluation fail (a kernel saw a negative status)."""
        error = self.failure()
        if error is not None:
            raise error
        raise RuntimeError(f"{type(self).__name__} failed to evaluate")


def roll_children_values(CEvaluator evaluator, children):
    """(values, shortlisted) of one roll's children ((n, 26) boards, n >= 1, next player's
    view; checked like any boards) as the 0-ply move choice sees them (``value_children``):
    (n, 5) float32 values and the short-listed indices, the second stage's best first ([]
    without one)."""
    from bgcore._nn import checked_boards

    cdef const checker_t[:, ::1] boards = checked_boards(children)
    if boards.shape[0] < 1:
        raise ValueError("children must hold at least one board")
    if evaluator.c.evaluate == NULL:
        raise ValueError(f"{type(evaluator).__name__} has no evaluate function")
    values = np.empty((boards.shape[0], NUM_OUTPUTS), dtype=np.float32)
    cdef float[:, ::1] out = values
    cdef int shortlisted[MAX_SHORTLIST]
    cdef int count = value_children(&evaluator.c, &boards[0, 0], boards.shape[0], &out[0, 0], shortlisted)
    if count < 0:
        evaluator.raise_failure()
    return values, [shortlisted[i] for i in range(count)]


cdef class COracle:
    """Exact probabilities for some positions (or none): a function pointer and context."""

    def __cinit__(self):
        self.c.probabilities = NULL
        self.c.context = NULL
        self.owner = None

    def exact(self, bytes board):
        """The exact 5-vector of a board if the oracle knows it, else None."""
        cdef const checker_t* slots = checked_board(board)
        cdef float out[NUM_OUTPUTS]
        if self.c.probabilities != NULL and self.c.probabilities(self.c.context, slots, out):
            return as_list(out)
        return None

    def __reduce__(self):
        if type(self) is not COracle:
            raise TypeError(f"{type(self).__name__} does not say how to pickle itself")
        return (COracle, ())


cdef int python_evaluate(void* context, const checker_t* boards, int n,
                         float* out5) noexcept with gil:
    """Finished games exactly, the other boards through the Python object's evaluate_batch."""
    cdef PythonEvaluator adapter = <PythonEvaluator>context
    cdef int i, k
    try:
        pending = [i for i in range(n)
                   if not finished_probabilities(boards + i * NUM_SLOTS, out5 + i * NUM_OUTPUTS)]
        if not pending:
            return EVALUATION_OK
        every = np.frombuffer((<char*>boards)[:n * NUM_SLOTS], dtype=np.int8).reshape(n, NUM_SLOTS)
        result = np.asarray(adapter.evaluator.evaluate_batch(every[pending]), dtype=np.float32)
        if result.shape != (len(pending), NUM_OUTPUTS):
            raise ValueError(f"evaluate_batch returned shape {result.shape} for {len(pending)} boards")
        for row, i in enumerate(pending):
            for k in range(NUM_OUTPUTS):
                out5[i * NUM_OUTPUTS + k] = result[row, k]
        return EVALUATION_OK
    except BaseException as error:
        adapter.error = error
        return EVALUATION_FAILED


cdef class PythonEvaluator(CEvaluator):
    """A Python object with ``evaluate_batch((n, 26) int8) -> (n, 5)`` as a C evaluator.

    Kernels call it back with the GIL; an exception it raises fails the kernel's call and
    is raised again by the Python entry point (see ``failure``).
    """

    def __init__(self, evaluator):
        self.evaluator = evaluator
        self.error = None
        self.c.evaluate = python_evaluate
        self.c.context = <void*>self

    def failure(self):
        error, self.error = self.error, None
        return error

    def __reduce__(self):
        return (PythonEvaluator, (self.evaluator,))

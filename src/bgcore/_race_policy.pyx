# cython: language_level=3
"""Adapters from the bear-off kernels to the C evaluator interface of ``_policy``.

``BearoffOracle``: exact cubeless results of positions in the installed two-sided table.
``RaceOrContactEvaluator``: race positions from the installed race tables, everything
else from another C evaluator. Tables are installed from Python (bgengine.bearoff).
"""

from bgcore._types cimport checker_t, NUM_SLOTS
from bgcore._policy cimport BoardEvaluator, CEvaluator, COracle
from bgcore._bearoff cimport two_sided_win_probability, race_probabilities


cdef int two_sided_exact(void* context, const checker_t* board, float* out5) noexcept nogil:
    """Exact when both sides are in the two-sided table (no gammons: both have borne off)."""
    cdef double win = two_sided_win_probability(board)
    if win < 0.0:
        return 0
    out5[0] = <float>win
    out5[1] = 0.0
    out5[2] = 0.0
    out5[3] = 0.0
    out5[4] = 0.0
    return 1


cdef class BearoffOracle(COracle):
    """Exact cubeless 5-vector of positions in the installed two-sided bear-off table."""

    def __cinit__(self):
        self.c.probabilities = two_sided_exact

    def __reduce__(self):
        return (BearoffOracle, ())


cdef void race_or_contact(void* context, const checker_t* boards, int n,
                          float* out5) noexcept nogil:
    cdef BoardEvaluator* contact = <BoardEvaluator*>context
    cdef int i
    for i in range(n):
        if race_probabilities(boards + i * NUM_SLOTS, out5 + 5 * i) != 0:
            contact.evaluate(contact.context, boards + i * NUM_SLOTS, 1, out5 + 5 * i)


cdef class RaceOrContactEvaluator(CEvaluator):
    """Race tables for positions without contact, ``contact`` (a CEvaluator) for the rest."""

    def __init__(self, CEvaluator contact):
        self.owner = contact
        self.c.evaluate = race_or_contact
        self.c.context = <void*>&contact.c   # kept alive by self.owner

    def __reduce__(self):
        return (RaceOrContactEvaluator, (self.owner,))

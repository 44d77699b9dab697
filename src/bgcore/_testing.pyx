# cython: language_level=3
"""Test doubles of the C evaluator contract, for testing kernels besides the network.

Compiled, not Python, because the kernels call evaluators without the GIL: a double must
be a nogil C function to exercise them as the engine's evaluator does (and to time the
rollout kernel without the network, see benchmarks/bench_rollout.py). Not used by bgengine.

``PipCountEvaluator``: a deterministic pip-count race estimate, exact on finished games.
``OneRollFinishOracle``: exact only where the player on roll surely bears off the last checker.
"""

from libc.math cimport exp, sqrt
from bgcore._types cimport checker_t, NUM_SLOTS, NUM_CHECKERS
from bgcore._outcomes cimport finished_probabilities
from bgcore._board cimport pip_counts_of, mover_checkers_on_board, opponent_checkers_on_board
from bgcore._evaluator cimport EVALUATION_OK, CEvaluator, COracle


cdef double logistic(double x) noexcept nogil:
    return 1.0 / (1.0 + exp(-x))


cdef int exposed_opponent_blots(const checker_t* board) noexcept nogil:
    """Opponent blots that some checker of the player on roll could hit (it lies above)."""
    cdef int i, exposed = 0, highest_mover = 0
    for i in range(NUM_SLOTS - 1, 0, -1):
        if board[i] > 0 and highest_mover == 0:
            highest_mover = i
        if board[i] == -1 and i < highest_mover:
            exposed += 1
    return exposed


cdef void pip_count_probabilities(const checker_t* board, float* out5) noexcept nogil:
    """A crude estimate from pip counts: the winner's edge grows with the pip lead, an
    opponent blot within reach of the player on roll counts as 8 pips more for the
    opponent (so the policy plays safe and games end); gammon chances grow when the loser
    has borne nothing off and is far behind."""
    cdef int mover, opponent
    if finished_probabilities(board, out5):
        return
    pip_counts_of(board, &mover, &opponent)
    opponent += 8 * exposed_opponent_blots(board)
    cdef double scale = 1.0 + 0.25 * sqrt(<double>(mover + opponent))
    cdef double win = logistic((opponent - mover + 4.0) / scale)
    cdef double gammon_for = 0.0, gammon_against = 0.0
    if opponent_checkers_on_board(board) == NUM_CHECKERS:
        gammon_for = logistic((opponent - mover - 60.0) / (2.0 * scale))
    if mover_checkers_on_board(board) == NUM_CHECKERS:
        gammon_against = logistic((mover - opponent - 60.0) / (2.0 * scale))
    out5[0] = win
    out5[1] = win * gammon_for
    out5[2] = 0.1 * win * gammon_for
    out5[3] = (1.0 - win) * gammon_against
    out5[4] = 0.1 * (1.0 - win) * gammon_against


cdef int pip_count_evaluate(void* context, const checker_t* boards, int n,
                            float* out5) noexcept nogil:
    cdef int i
    for i in range(n):
        pip_count_probabilities(boards + i * NUM_SLOTS, out5 + 5 * i)
    return EVALUATION_OK


cdef class PipCountEvaluator(CEvaluator):
    """Test double: a deterministic pip-count race estimate, exact on finished games."""

    def __cinit__(self):
        self.c.evaluate = pip_count_evaluate

    def __reduce__(self):
        return (PipCountEvaluator, ())


cdef int one_roll_finish(void* context, const checker_t* board, float* out5) noexcept nogil:
    """Exact when the player on roll has one checker left on points 1..3 (off with any
    roll, and the opponent still has checkers): a sure win, gammon and backgammon by rule."""
    cdef int i, last = 0
    if opponent_checkers_on_board(board) == 0 or mover_checkers_on_board(board) != 1:
        return 0
    for i in range(1, 4):
        if board[i] > 0:
            last = i
    if last == 0:
        return 0
    out5[0] = 1.0
    out5[1] = 1.0 if opponent_checkers_on_board(board) == NUM_CHECKERS else 0.0
    out5[2] = 0.0
    if out5[1] > 0:
        for i in range(0, 7):
            if board[i] < 0:
                out5[2] = 1.0
                break
    out5[3] = 0.0
    out5[4] = 0.0
    return 1


cdef class OneRollFinishOracle(COracle):
    """Test double: exact only where the player on roll surely bears off the last checker."""

    def __cinit__(self):
        self.c.probabilities = one_roll_finish

    def __reduce__(self):
        return (OneRollFinishOracle, ())

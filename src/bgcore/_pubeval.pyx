# cython: language_level=3
"""Tesauro's PubEval: a public linear evaluator used as a fixed benchmark opponent.

The encoding follows Tesauro's published description: for each board location 24..1 of
the player who just moved, five units (an opponent blot, one own checker, two or more own,
exactly three own, (n-3)/2 for four or more own), then the opponent's bar checkers / 2 and
the mover's checkers off / 15. The score is a dot product with the contact or the race
weight vector (chosen from the position before the move); higher is better for the mover,
and bearing off the last checker always wins.
"""

import json
from pathlib import Path

import numpy as np

from bgcore._types cimport checker_t, NUM_SLOTS, NUM_CHECKERS, PHASE_CONTACT
from bgcore._board cimport flip_board, phase_of, mover_checkers_on_board

cdef float WINNING_SCORE = 99999999.0


cdef float pubeval_score(const float* weights, const checker_t* after) noexcept nogil:
    cdef int location, n, unit
    cdef float score = 0.0
    cdef int off = NUM_CHECKERS - mover_checkers_on_board(after)
    if off == NUM_CHECKERS:
        return WINNING_SCORE
    for location in range(24, 0, -1):
        n = after[location]
        unit = 5 * (24 - location)
        if n == -1:
            score += weights[unit]
        elif n == 1:
            score += weights[unit + 1]
        elif n >= 2:
            score += weights[unit + 2]
            if n == 3:
                score += weights[unit + 3]
            elif n >= 4:
                score += weights[unit + 4] * (n - 3) * 0.5
    score += weights[120] * (-after[0]) * 0.5
    score += weights[121] * off * (1.0 / NUM_CHECKERS)
    return score


cdef int pubeval_best_child(const float* contact_weights, const float* race_weights,
                            const checker_t* board, const checker_t* children,
                            int n) noexcept nogil:
    cdef const float* weights = contact_weights if phase_of(board) == PHASE_CONTACT else race_weights
    cdef checker_t after[NUM_SLOTS]
    cdef int i, best = 0
    cdef float score, best_score = 0.0
    for i in range(n):
        flip_board(children + i * NUM_SLOTS, after)
        score = pubeval_score(weights, after)
        if i == 0 or score > best_score:
            best_score = score
            best = i
    return best


cdef class PubEval:
    """PubEval's two weight vectors, ready for the C kernels."""

    def __init__(self, contact, race):
        c = np.asarray(contact, dtype=np.float32)
        r = np.asarray(race, dtype=np.float32)
        if c.shape != (PUBEVAL_INPUTS,) or r.shape != (PUBEVAL_INPUTS,):
            raise ValueError(f"PubEval needs two vectors of {PUBEVAL_INPUTS} weights")
        cdef int i
        for i in range(PUBEVAL_INPUTS):
            self.contact[i] = c[i]
            self.race[i] = r[i]

    @classmethod
    def from_json(cls, path):
        """Load the published weights from a JSON file with ``contact`` and ``race`` lists."""
        data = json.loads(Path(path).read_text())
        return cls(data["contact"], data["race"])

    def score(self, after, bint race):
        """PubEval's score of a board seen from the player who just moved (26 slots)."""
        board = np.ascontiguousarray(after, dtype=np.int8)
        if board.shape != (NUM_SLOTS,):
            raise ValueError(f"a board has {NUM_SLOTS} slots")
        cdef const checker_t[::1] view = board
        cdef const float* weights = self.contact
        if race:
            weights = self.race
        return pubeval_score(weights, &view[0])

    def choose(self, board, children):
        """Index of the child PubEval plays from ``board``; children have sides switched."""
        b = np.ascontiguousarray(board, dtype=np.int8)
        c = np.ascontiguousarray(children, dtype=np.int8)
        if b.shape != (NUM_SLOTS,) or c.ndim != 2 or c.shape[1] != NUM_SLOTS or c.shape[0] == 0:
            raise ValueError("choose needs one board and a non-empty (n, 26) array of children")
        cdef const checker_t[::1] bv = b
        cdef const checker_t[:, ::1] cv = c
        return pubeval_best_child(self.contact, self.race, &bv[0], &cv[0, 0], cv.shape[0])

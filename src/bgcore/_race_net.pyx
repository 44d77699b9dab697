# cython: language_level=3
"""The race network in C: the inputs of ``bgengine.evaluation.race_features`` and the
forward pass of ``bgengine.evaluation.race_network``, for the engine's kernels.

Inputs (encoding "race-features" version 1; the Python module's docstring names each):
per side, from its own numbering, four units per point 1..24, then off, any off, pips,
the race model's expected rolls, home, the six-point table's expected rolls and wastage
when home, its expected rolls to the first checker off when home with 15 on the board,
outside checkers, crossovers, pips to home and the furthest checker; then the pip lead
and the race approximation's 5-vector. Each value is computed in double precision and
stored as float32, as the numpy code does, so both give the same inputs.

Network: one sigmoid hidden layer; output k is sigmoid(network logit + logit of the
approximation's k-th value clipped to [1e-6, 1 - 1e-6]), then the consistency clamp.
Boards in the two-sided table and finished games get the exact values instead.
"""

import numpy as np
cimport numpy as cnp
from libc.math cimport exp, expf, log, log1p

from bgcore._types cimport checker_t, NUM_SLOTS, NUM_CHECKERS, NUM_POINTS
from bgcore._outcomes cimport NUM_OUTPUTS, finished_probabilities
from bgcore._evaluator cimport EVALUATION_OK, EVALUATION_FAILED
from bgcore._nn cimport make_consistent
from bgcore._bearoff_index cimport HOME_POINTS, one_sided_rank
from bgcore._bearoff_tables cimport SideCounts, read_sides
from bgcore._race cimport RaceTables, RACE_CONTACT, RACE_EXACT, race_estimate

from bgcore._nn import checked_boards, checked_weights

cnp.import_array()

cdef enum:
    POINT_UNITS = 4
    BAR_POINT = 25                  # a side's bar, counted as its point 25

cdef double PIPS_PER_ROLL = 49.0 / 6.0
cdef double OFFSET_FLOOR = 1e-6


cdef inline int crossings(int point) noexcept nogil:
    """Quadrant crossings a checker on ``point`` needs to reach the home board."""
    return (point - 1) // HOME_POINTS if point > HOME_POINTS else 0


cdef void side_inputs(const RaceNetwork* net, const SideCounts* side, double model_rolls,
                      float* inputs) noexcept nogil:
    """The RACE_SIDE_INPUTS inputs of one side (see the module docstring, in order)."""
    cdef int p, n, pips = 0, outside = 0, crossovers = 0, to_home = 0
    cdef float* unit
    for p in range(1, NUM_POINTS + 1):
        n = side.counts[p]
        unit = inputs + (p - 1) * POINT_UNITS
        unit[0] = 1.0 if n >= 1 else 0.0
        unit[1] = 1.0 if n >= 2 else 0.0
        unit[2] = 1.0 if n >= 3 else 0.0
        unit[3] = <float>((n - 3) / 2.0) if n > 3 else 0.0
    for p in range(1, BAR_POINT + 1):
        n = side.counts[p]
        pips += p * n
        crossovers += crossings(p) * n
        if p > HOME_POINTS:
            outside += n
            to_home += (p - HOME_POINTS) * n
    cdef int off = NUM_CHECKERS - side.on_board
    cdef bint home = outside == 0
    cdef double home_rolls = 0.0, wastage = 0.0, first_off = 0.0
    cdef long long rank
    cdef const RaceTableSet* tables = &net.tables
    if home:
        rank = one_sided_rank(side.counts, HOME_POINTS)
        home_rolls = tables.home.expected[rank]
        wastage = PIPS_PER_ROLL * home_rolls - pips
        if side.on_board == NUM_CHECKERS:
            first_off = net.first_expected[rank - tables.home.full_start]
    cdef float* extra = inputs + NUM_POINTS * POINT_UNITS
    extra[0] = <float>(off / <double>NUM_CHECKERS)
    extra[1] = 1.0 if off > 0 else 0.0
    extra[2] = <float>(pips / 150.0)
    extra[3] = <float>(model_rolls / 20.0)
    extra[4] = 1.0 if home else 0.0
    extra[5] = <float>(home_rolls / 10.0)
    extra[6] = <float>(wastage / 10.0)
    extra[7] = <float>(first_off / 5.0)
    extra[8] = <float>(outside / <double>NUM_CHECKERS)
    extra[9] = <float>(crossovers / 30.0)
    extra[10] = <float>(to_home / 100.0)
    extra[11] = <float>(side.highest / 25.0)


cdef inline int pip_count(const SideCounts* side) noexcept nogil:
    cdef int p, pips = 0
    for p in range(1, BAR_POINT + 1):
        pips += p * side.counts[p]
    return pips


cdef RaceOutcome race_inputs(const RaceNetwork* net, const checker_t* board,
                             float* inputs) noexcept nogil:
    cdef double expected[2]
    cdef float* position = inputs + 2 * RACE_SIDE_INPUTS
    cdef RaceOutcome outcome = race_estimate(&net.tables, board, position + 1, expected)
    if outcome == RACE_CONTACT:
        return outcome
    cdef SideCounts mover, opponent
    read_sides(board, &mover, &opponent)
    side_inputs(net, &mover, expected[0], inputs)
    side_inputs(net, &opponent, expected[1], inputs + RACE_SIDE_INPUTS)
    position[0] = <float>((pip_count(&opponent) - pip_count(&mover)) / 100.0)
    return outcome


cdef inline double clipped_logit(float probability) noexcept nogil:
    cdef double p = probability
    if p < OFFSET_FLOOR:
        p = OFFSET_FLOOR
    elif p > 1.0 - OFFSET_FLOOR:
        p = 1.0 - OFFSET_FLOOR
    return log(p) - log1p(-p)


cdef void race_forward(const RaceNetwork* net, const float* inputs, float* out5) noexcept nogil:
    """Consistent 5-vector of the network on ``inputs`` (the approximation's logits corrected)."""
    cdef int i, j, k, h = net.num_hidden
    cdef float hidden[RACE_MAX_HIDDEN]
    cdef float raw[NUM_OUTPUTS]
    cdef float x, total
    cdef const float* row
    cdef const float* approximation = inputs + RACE_INPUTS - NUM_OUTPUTS
    for j in range(h):
        hidden[j] = net.hidden_bias[j]
    for i in range(RACE_INPUTS):
        x = inputs[i]
        if x != 0.0:
            row = net.hidden_weights + i * h
            for j in range(h):
                hidden[j] += x * row[j]
    for j in range(h):
        hidden[j] = 1.0 / (1.0 + expf(-hidden[j]))
    for k in range(NUM_OUTPUTS):
        row = net.output_weights + k * h
        total = net.output_bias[k]
        for j in range(h):
            total += row[j] * hidden[j]
        raw[k] = <float>(1.0 / (1.0 + exp(-(total + clipped_logit(approximation[k])))))
    make_consistent(raw, out5)


cdef int race_network_evaluate(void* context, const checker_t* boards, int n,
                               float* out5) noexcept nogil:
    cdef const RaceNetwork* net = <const RaceNetwork*>context
    cdef float inputs[RACE_INPUTS]
    cdef const checker_t* board
    cdef float* out
    cdef RaceOutcome outcome
    cdef int b, k
    for b in range(n):
        board = boards + b * NUM_SLOTS
        out = out5 + b * NUM_OUTPUTS
        if finished_probabilities(board, out):
            continue
        outcome = race_inputs(net, board, inputs)
        if outcome == RACE_CONTACT:
            return EVALUATION_FAILED
        if outcome == RACE_EXACT:
            for k in range(NUM_OUTPUTS):
                out[k] = inputs[RACE_INPUTS - NUM_OUTPUTS + k]
        else:
            race_forward(net, inputs, out)
    return EVALUATION_OK


# ----- Python boundary ------------------------------------------------------------------

cdef class RaceNet:
    """A race network in C: weights laid out as NeuralNet's (``hidden_weights`` inputs x
    hidden, ``hidden_bias``, ``output_weights`` 5 x hidden, ``output_bias``), the
    ``tables`` (a RaceTables; its six-point and two-sided tables are used, a wide table is
    ignored, as in training) and the six-point table's ``first_expected`` array (expected
    rolls to the first checker off, by rank from the first rank with 15 checkers).
    Read-only once made; share it between threads freely."""

    def __init__(self, hidden_weights, hidden_bias, output_weights, output_bias,
                 RaceTables tables not None, first_expected):
        hw, hb, ow, ob = checked_weights(hidden_weights, hidden_bias, output_weights, output_bias,
                                         RACE_INPUTS, RACE_MAX_HIDDEN)
        first = np.ascontiguousarray(first_expected, dtype=np.float64)
        home = &tables.c.home
        if first.ndim != 1 or first.shape[0] != home.size - home.full_start:
            raise ValueError(f"first_expected must have {home.size - home.full_start} values"
                             f" (the six-point table's positions with 15 checkers), got {first.shape}")
        self.hidden_weights, self.hidden_bias = hw, hb
        self.output_weights, self.output_bias = ow, ob
        self.tables, self.first_expected = tables, first
        cdef float[:, ::1] hw_view = hw
        cdef float[::1] hb_view = hb
        cdef float[:, ::1] ow_view = ow
        cdef float[::1] ob_view = ob
        cdef const double[::1] first_view = first
        self.net.tables = tables.c
        self.net.tables.wide.points = 0
        self.net.first_expected = &first_view[0]
        self.net.num_hidden = hw.shape[1]
        self.net.hidden_weights = &hw_view[0, 0]
        self.net.hidden_bias = &hb_view[0]
        self.net.output_weights = &ow_view[0, 0]
        self.net.output_bias = &ob_view[0]

    def __reduce__(self):
        return (RaceNet, (self.hidden_weights, self.hidden_bias, self.output_weights,
                          self.output_bias, self.tables, self.first_expected))

    @property
    def num_hidden(self):
        return self.net.num_hidden

    def inputs(self, boards):
        """(n, RACE_INPUTS) float32 inputs of (n, 26) boards without contact (ValueError
        naming a board with contact or an impossible one)."""
        cdef const checker_t[:, ::1] view = checked_boards(boards)
        cdef Py_ssize_t b, n = view.shape[0]
        out = np.empty((n, RACE_INPUTS), dtype=np.float32)
        cdef float[:, ::1] out_view = out
        cdef Py_ssize_t contact = -1
        with nogil:
            for b in range(n):
                if race_inputs(&self.net, &view[b, 0], &out_view[b, 0]) == RACE_CONTACT:
                    contact = b
                    break
        if contact >= 0:
            raise ValueError(f"board {contact} has contact; the race network needs none")
        return out

    def evaluate(self, boards):
        """(n, 5) float32 consistent probabilities of (n, 26) boards without contact,
        player on roll's view (ValueError naming a board with contact or an impossible one)."""
        cdef const checker_t[:, ::1] view = checked_boards(boards)
        cdef int status, n = view.shape[0]
        out = np.empty((n, NUM_OUTPUTS), dtype=np.float32)
        if n == 0:
            return out
        cdef float[:, ::1] out_view = out
        for b in range(n):
            with nogil:
                status = race_network_evaluate(&self.net, &view[b, 0], 1, &out_view[b, 0])
            if status != EVALUATION_OK:
                raise ValueError(f"board {b} has contact; the race network needs none")
        return out


def num_inputs():
    """Length of the race network's input vector."""
    return RACE_INPUTS

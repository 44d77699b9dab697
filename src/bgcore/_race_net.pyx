# cython: language_level=3
"""The race network in C: the inputs of ``bgengine.evaluation.race_features`` and the
forward pass of ``bgengine.evaluation.race_network``, for the engine's kernels.

Inputs (encoding "race-features" version 2; the Python module's docstring names each):
per side, from its own numbering, four units per point 1..24, then off, any off, pips,
the race model's expected rolls, home, the six-point table's expected rolls and wastage
when home, its expected rolls to the first checker off when home with 15 on the board,
outside checkers, crossovers, pips to home, the furthest checker, and the race model's
chances to be done and to have a checker off within 1..6 rolls; then the pip lead
and the race approximation's 5-vector (from version 2 on with the next roll's first-off
chances exact). Each value is computed in double precision and
stored as float32, as the numpy code does, so both give the same inputs.

Network: one sigmoid hidden layer; output k is sigmoid(network logit + logit of the
approximation's k-th value clipped to [1e-6, 1 - 1e-6]), except that a gammon or
backgammon the approximation puts at exactly 0 stays 0 (the loser has borne off, or has
no checker left to be caught), then the consistency clamp.
Boards in the two-sided table and finished games get the exact values instead.
"""

import numpy as np
cimport numpy as cnp

from bgcore._types cimport checker_t, NUM_SLOTS, NUM_CHECKERS, NUM_POINTS
from bgcore._outcomes cimport NUM_OUTPUTS, OUT_WIN, finished_probabilities
from bgcore._evaluator cimport EVALUATION_OK, EVALUATION_FAILED
from bgcore._nn cimport make_consistent
from bgcore._bearoff_index cimport HOME_POINTS, one_sided_rank
from bgcore._bearoff_tables cimport SideCounts
from bgcore._race cimport RaceTables, RaceSideSummary, RACE_CONTACT, RACE_EXACT, RACE_WITHIN, race_estimate

from bgcore._nn import checked_boards, checked_weights

cnp.import_array()

cdef enum:
    POINT_UNITS = 4
    BAR_POINT = 25                  # a side's bar, counted as its point 25

cdef double PIPS_PER_ROLL = 49.0 / 6.0
cdef float OFFSET_FLOOR = 1e-6


cdef inline int crossings(int point) noexcept nogil:
    """Quadrant crossings a checker on ``point`` needs to reach the home board."""
    return (point - 1) // HOME_POINTS if point > HOME_POINTS else 0


cdef inline void put(RaceInputs* inputs, int index, float value) noexcept nogil:
    inputs.indices[inputs.count] = index
    inputs.values[inputs.count] = value
    inputs.count += 1


cdef void side_inputs(const RaceNetwork* net, const SideCounts* side, const RaceSideSummary* summary,
                      int base, RaceInputs* inputs) noexcept nogil:
    """Append the inputs of one side from index ``base`` on (see the module docstring, in
    order): the point units that are not 0, then every race feature (the within-k
    chances only when not 0)."""
    cdef int p, n, u, k, pips = 0, outside = 0, crossovers = 0, to_home = 0
    for p in range(1, side.highest + 1):  # nothing above the furthest checker
        n = side.counts[p]
        if n == 0:
            continue
        pips += p * n
        if p > HOME_POINTS:
            outside += n
            to_home += (p - HOME_POINTS) * n
            crossovers += crossings(p) * n
        if p > NUM_POINTS:
            continue  # the bar has no point units
        u = base + (p - 1) * POINT_UNITS
        put(inputs, u, 1.0)
        if n >= 2:
            put(inputs, u + 1, 1.0)
        if n >= 3:
            put(inputs, u + 2, 1.0)
        if n > 3:
            put(inputs, u + 3, <float>((n - 3) / 2.0))
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
    u = base + NUM_POINTS * POINT_UNITS
    put(inputs, u, <float>(off / <double>NUM_CHECKERS))
    put(inputs, u + 1, 1.0 if off > 0 else 0.0)
    put(inputs, u + 2, <float>(pips / 150.0))
    put(inputs, u + 3, <float>(summary.expected_rolls / 20.0))
    put(inputs, u + 4, 1.0 if home else 0.0)
    put(inputs, u + 5, <float>(home_rolls / 10.0))
    put(inputs, u + 6, <float>(wastage / 10.0))
    put(inputs, u + 7, <float>(first_off / 5.0))
    put(inputs, u + 8, <float>(outside / <double>NUM_CHECKERS))
    put(inputs, u + 9, <float>(crossovers / 30.0))
    put(inputs, u + 10, <float>(to_home / 100.0))
    put(inputs, u + 11, <float>(side.highest / 25.0))
    if net.side_inputs == RACE_SIDE_INPUTS_V1:
        return
    for k in range(RACE_WITHIN):
        if summary.finish_within[k] != 0.0:
            put(inputs, u + 12 + k, <float>summary.finish_within[k])
    for k in range(RACE_WITHIN):
        if summary.first_off_within[k] != 0.0:
            put(inputs, u + 12 + RACE_WITHIN + k, <float>summary.first_off_within[k])


cdef inline int pip_count(const SideCounts* side) noexcept nogil:
    cdef int p, pips = 0
    for p in range(1, BAR_POINT + 1):
        pips += p * side.counts[p]
    return pips


cdef RaceOutcome race_inputs(const RaceNetwork* net, const checker_t* board,
                             RaceInputs* inputs) noexcept nogil:
    cdef RaceSideSummary summaries[2]
    cdef float approximation[NUM_OUTPUTS]
    cdef SideCounts sides[2]
    cdef RaceOutcome outcome = race_estimate(&net.tables, board, approximation, summaries, sides,
                                             net.side_inputs != RACE_SIDE_INPUTS_V1)
    if outcome == RACE_CONTACT:
        return outcome
    cdef int k
    inputs.count = 0
    side_inputs(net, &sides[0], &summaries[0], 0, inputs)
    side_inputs(net, &sides[1], &summaries[1], net.side_inputs, inputs)
    put(inputs, 2 * net.side_inputs, <float>((pip_count(&sides[1]) - pip_count(&sides[0])) / 100.0))
    for k in range(NUM_OUTPUTS):
        put(inputs, net.num_inputs - NUM_OUTPUTS + k, approximation[k])
    return outcome


cdef inline float corrected_probability(float probability, float exp_negative_logit) noexcept nogil:
    """sigmoid(logit + the logit of ``probability`` clipped to [1e-6, 1 - 1e-6]), written
    q / (q + (1 - q) exp(-logit)) so that it takes no log."""
    cdef float one = 1.0
    cdef float q = probability
    if q < OFFSET_FLOOR:
        q = OFFSET_FLOOR
    elif q > one - OFFSET_FLOOR:
        q = one - OFFSET_FLOOR
    return q / (q + (one - q) * exp_negative_logit)


# The hidden layer's sums in plain C, compiled twice on x86-64 with GCC (AVX2 and
# baseline; the loader picks one), contraction to FMA off so that both give the same
# floats: each hidden unit sums its rows in the listed order either way.
cdef extern from *:
    """
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && __GNUC__ >= 12
    #define RACE_NET_HOT __attribute__((target_clones("arch=x86-64-v3", "default"), optimize("fp-contract=off")))
    #define RACE_NET_HOT_NO_TRAPS __attribute__((target_clones("arch=x86-64-v3", "default"), \
                                                 optimize("fp-contract=off", "no-trapping-math")))
    #else
    #define RACE_NET_HOT
    #define RACE_NET_HOT_NO_TRAPS
    #endif
    #if defined(__GNUC__)
    #define RACE_NET_RESTRICT __restrict__
    #else
    #define RACE_NET_RESTRICT
    #endif
    #include <string.h>
    /* hidden[j] += values[n] * weights[indices[n]][j] for n < count in order, j < h:
       eight hidden units at a time in a register (GCC vectors), the rest one by one */
    RACE_NET_HOT static void race_net_add_rows(float* RACE_NET_RESTRICT hidden,
                                               const float* RACE_NET_RESTRICT weights,
                                               const int* RACE_NET_RESTRICT indices,
                                               const float* RACE_NET_RESTRICT values,
                                               int count, int h) {
        int j = 0;
    #if defined(__GNUC__)
        typedef float eight_floats __attribute__((vector_size(32)));
        for (; j + 8 <= h; j += 8) {
            eight_floats sum, row;
            memcpy(&sum, hidden + j, sizeof sum);
            for (int n = 0; n < count; ++n) {
                memcpy(&row, weights + (long)indices[n] * h + j, sizeof row);
                sum += values[n] * row;
            }
            memcpy(hidden + j, &sum, sizeof sum);
        }
    #endif
        for (; j < h; ++j)
            for (int n = 0; n < count; ++n) hidden[j] += values[n] * weights[(long)indices[n] * h + j];
    }
    /* x[j] = exp(-x[j]) to about one float ulp (Cody-Waite reduction by ln 2 and a degree-6
       polynomial), without calls or branches so that the loop vectorises (the clamps are
       selects once FP compares may be taken as not trapping; the values do not change) */
    RACE_NET_HOT_NO_TRAPS static void race_net_exp_negative(float* RACE_NET_RESTRICT x, int n) {
        for (int j = 0; j < n; ++j) {
            float t = -x[j];
            t = t < 88.0f ? t : 88.0f;
            t = t > -87.0f ? t : -87.0f;
            float kf = (t * 1.44269504088896341f + 12582912.0f) - 12582912.0f;  /* rounded */
            int whole = (int)kf;
            float r = (t - kf * 0.693359375f) + kf * 2.12194440e-4f;
            float p = 1.9875691500e-4f;
            p = p * r + 1.3981999507e-3f;
            p = p * r + 8.3334519073e-3f;
            p = p * r + 4.1665795894e-2f;
            p = p * r + 1.6666665459e-1f;
            p = p * r + 5.0000001201e-1f;
            p = p * (r * r) + r + 1.0f;
            int bits = (whole + 127) << 23;
            float scale;
            memcpy(&scale, &bits, sizeof scale);
            x[j] = p * scale;
        }
    }
    """
    void race_net_add_rows(float* hidden, const float* weights, const int* indices,
                           const float* values, int count, int h) noexcept nogil
    void race_net_exp_negative(float* x, int n) noexcept nogil


cdef void race_forward(const RaceNetwork* net, const RaceInputs* inputs, float* out5) noexcept nogil:
    """Consistent 5-vector of the network on ``inputs`` (the approximation's logits corrected)."""
    cdef int j, k, h = net.num_hidden
    cdef float hidden[RACE_MAX_HIDDEN]
    cdef float logits[NUM_OUTPUTS]
    cdef float raw[NUM_OUTPUTS]
    cdef float one = 1.0
    cdef const float* row
    cdef const float* approximation = inputs.values + inputs.count - NUM_OUTPUTS
    for j in range(h):
        hidden[j] = net.hidden_bias[j]
    race_net_add_rows(hidden, net.hidden_weights, inputs.indices, inputs.values, inputs.count, h)
    race_net_exp_negative(hidden, h)
    for j in range(h):
        hidden[j] = one / (one + hidden[j])
    for k in range(NUM_OUTPUTS):
        row = net.output_weights + k * h
        logits[k] = net.output_bias[k]
        for j in range(h):
            logits[k] += row[j] * hidden[j]
    race_net_exp_negative(logits, NUM_OUTPUTS)
    for k in range(NUM_OUTPUTS):
        if k > OUT_WIN and approximation[k] == 0.0:
            raw[k] = 0.0  # a gammon or backgammon the race can no longer bring
        else:
            raw[k] = corrected_probability(approximation[k], logits[k])
    make_consistent(raw, out5)


cdef int race_network_evaluate(void* context, const checker_t* boards, int n,
                               float* out5) noexcept nogil:
    cdef const RaceNetwork* net = <const RaceNetwork*>context
    cdef RaceInputs inputs
    cdef const checker_t* board
    cdef float* out
    cdef RaceOutcome outcome
    cdef int b, k
    for b in range(n):
        board = boards + b * NUM_SLOTS
        out = out5 + b * NUM_OUTPUTS
        if finished_probabilities(board, out):
            continue
        outcome = race_inputs(net, board, &inputs)
        if outcome == RACE_CONTACT:
            return EVALUATION_FAILED
        if outcome == RACE_EXACT:
            for k in range(NUM_OUTPUTS):
                out[k] = inputs.values[inputs.count - NUM_OUTPUTS + k]
        else:
            race_forward(net, &inputs, out)
    return EVALUATION_OK


# ----- Python boundary ------------------------------------------------------------------

cdef class RaceNet:
    """A race network in C: weights laid out as NeuralNet's (``hidden_weights`` inputs x
    hidden, ``hidden_bias``, ``output_weights`` 5 x hidden, ``output_bias``), the
    ``tables`` (a RaceTables; its six-point and two-sided tables are used, a wide table is
    ignored, as in training) and the six-point table's ``first_expected`` array (expected
    rolls to the first checker off, by rank from the first rank with 15 checkers).
    ``encoding_version``: the inputs the weights were made for (2, the current ones, or 1,
    without the within-k chances). Read-only once made; share it between threads freely."""

    def __init__(self, hidden_weights, hidden_bias, output_weights, output_bias,
                 RaceTables tables not None, first_expected, int encoding_version=2):
        hw, hb, ow, ob = checked_weights(hidden_weights, hidden_bias, output_weights, output_bias,
                                         num_inputs(encoding_version), RACE_MAX_HIDDEN)
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
        self.encoding_version = encoding_version
        self.net.side_inputs = RACE_SIDE_INPUTS if encoding_version == 2 else RACE_SIDE_INPUTS_V1
        self.net.num_inputs = num_inputs(encoding_version)
        self.net.num_hidden = hw.shape[1]
        self.net.hidden_weights = &hw_view[0, 0]
        self.net.hidden_bias = &hb_view[0]
        self.net.output_weights = &ow_view[0, 0]
        self.net.output_bias = &ob_view[0]

    def __reduce__(self):
        return (RaceNet, (self.hidden_weights, self.hidden_bias, self.output_weights,
                          self.output_bias, self.tables, self.first_expected, self.encoding_version))

    @property
    def num_hidden(self):
        return self.net.num_hidden

    def inputs(self, boards):
        """(n, num_inputs(encoding_version)) float32 inputs of (n, 26) boards without
        contact (ValueError naming a board with contact or an impossible one)."""
        cdef const checker_t[:, ::1] view = checked_boards(boards)
        cdef Py_ssize_t b, n = view.shape[0]
        out = np.zeros((n, self.net.num_inputs), dtype=np.float32)
        cdef float[:, ::1] out_view = out
        cdef Py_ssize_t contact = -1
        cdef RaceInputs inputs
        cdef int k
        with nogil:
            for b in range(n):
                if race_inputs(&self.net, &view[b, 0], &inputs) == RACE_CONTACT:
                    contact = b
                    break
                for k in range(inputs.count):
                    out_view[b, inputs.indices[k]] = inputs.values[k]
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


def num_inputs(int encoding_version=2):
    """Length of the race network's input vector in an encoding version (1 or 2)."""
    if encoding_version == 2:
        return RACE_INPUTS
    if encoding_version == 1:
        return RACE_INPUTS_V1
    raise ValueError(f"race encoding versions are 1 and 2, got {encoding_version}")

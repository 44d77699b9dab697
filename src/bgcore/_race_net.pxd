# The race network in C: its 246 inputs (bgengine.evaluation.race_features, encoding
# "race-features" version 2) and its float32 forward pass, a correction of the race
# approximation's logits (bgengine.evaluation.race_network); nogil C API for the engine.
from bgcore._types cimport checker_t
from bgcore._race cimport RaceTableSet, RaceOutcome

cdef enum:
    RACE_SIDE_INPUTS = 120          # 24 points x 4 units and 24 race features per side
    RACE_INPUTS = 246               # both sides, the pip lead and the approximation's 5-vector
    RACE_MAX_HIDDEN = 512
    RACE_SIDE_INPUTS_V1 = 108       # encoding version 1: without the within-k chances
    RACE_INPUTS_V1 = 222

# Weights and tables of one race network; the arrays are owned by the Python object that
# fills this struct (RaceNet) and must outlive every call that uses it.
ctypedef struct RaceNetwork:
    RaceTableSet tables             # the six-point table (and the two-sided one); no wide table
    const double* first_expected    # six-point table: expected rolls to the first checker off
    int side_inputs                 # inputs per side: RACE_SIDE_INPUTS, or RACE_SIDE_INPUTS_V1
    int num_inputs                  # RACE_INPUTS, or RACE_INPUTS_V1 (weights of version 1)
    int num_hidden
    const float* hidden_weights     # [num_inputs][num_hidden], row per input
    const float* hidden_bias        # [num_hidden]
    const float* output_weights     # [NUM_OUTPUTS][num_hidden]
    const float* output_bias        # [NUM_OUTPUTS]

# The network's inputs of a board: the ones that may be non-zero as (index, value) pairs
# in increasing index order (the point units that are not 0, then every other input; the
# last five are the race 5-vector of the board, exact when the outcome is RACE_EXACT).
ctypedef struct RaceInputs:
    int count
    int indices[RACE_INPUTS]
    float values[RACE_INPUTS]

# Fill ``inputs`` for a board without contact; RACE_CONTACT (inputs undefined) on contact.
cdef RaceOutcome race_inputs(const RaceNetwork* net, const checker_t* board,
                             RaceInputs* inputs) noexcept nogil

# A BoardEvaluator function (context: a RaceNetwork*): finished games and boards in the
# two-sided table exact, other races from the network; EVALUATION_FAILED on contact.
cdef int race_network_evaluate(void* context, const checker_t* boards, int n,
                               float* out5) noexcept nogil


cdef class RaceNet:
    cdef RaceNetwork net
    cdef readonly object hidden_weights, hidden_bias, output_weights, output_bias
    cdef readonly object tables, first_expected
    cdef readonly int encoding_version

# The evaluator network: input encoding and batched float32 forward pass (nogil C API).
#
# Perspective: a board is evaluated from the player ON ROLL, BEFORE they roll. Children of
# move generation are already seen from the next player, so the mover picks the child that
# MINIMISES the child's equity (the opponent's equity).
# Output order: win, win_gammon, win_backgammon, lose_gammon, lose_backgammon (cumulative).
from bgcore._types cimport checker_t
from bgcore._outcomes cimport (NUM_OUTPUTS, OUT_WIN, OUT_WIN_GAMMON, OUT_WIN_BACKGAMMON,
                               OUT_LOSE_GAMMON, OUT_LOSE_BACKGAMMON, equity_of,
                               flip_probabilities, finished_probabilities)

cdef enum:
    INPUTS_PER_SIDE = 105           # 24 points x 4 units, bar (2), off, pips, 5 features
    NUM_INPUTS = 211                # encoding 1: both sides and one contact flag
    CONTACT_UNITS_PER_SIDE = 8      # encoding 2 appends these for each side (contact_units)
    NUM_INPUTS_2 = NUM_INPUTS + 2 * CONTACT_UNITS_PER_SIDE
    STRUCTURE_UNITS_PER_SIDE = 9    # encoding 3 appends these for each side (structure_units)
    NUM_INPUTS_3 = NUM_INPUTS_2 + 2 * STRUCTURE_UNITS_PER_SIDE
    MAX_INPUTS = NUM_INPUTS_3       # the longest input vector of any encoding
    MAX_ACTIVE_INPUTS = MAX_INPUTS  # an upper bound of non-zero inputs of one board
    MAX_HIDDEN = 512
    MAX_ENCODING = 3

# Weights of a one-hidden-layer network; the arrays are owned by the Python object that
# fills this struct (bgcore._nn.NeuralNet) and must outlive every call that uses it.
ctypedef struct Network:
    int encoding                    # 1: the 211 inputs; 2: those and the contact units; 3: those and
                                    # the structure units
    int num_inputs                  # inputs_of(encoding)
    int num_hidden
    float* hidden_weights           # [num_inputs][num_hidden], row per input (sparse adds)
    float* hidden_bias              # [num_hidden]
    float* output_weights           # [NUM_OUTPUTS][num_hidden]
    float* output_bias              # [NUM_OUTPUTS]

# Length of the input vector of an encoding (1, 2 or 3).
cdef int inputs_of(int encoding) noexcept nogil

# Non-zero inputs of a board in an encoding (1, 2 or 3) as (index, value) pairs; returns how many.
cdef int encode_sparse(const checker_t* board, int encoding, int* indices,
                       float* values) noexcept nogil

# Raw sigmoid outputs for one board, also returning the hidden activations (for training).
cdef void forward_raw(const Network* net, const int* indices, const float* values,
                      int active, float* hidden, float* raw5) noexcept nogil

# Clamp raw outputs into a consistent cumulative 5-vector (gammon <= win, bg <= gammon).
cdef void make_consistent(const float* raw5, float* out5) noexcept nogil

# Consistent 5-vectors of n boards (26 slots each); finished games get exact values, and a
# side with a checker borne off no gammon to lose.
cdef void evaluate_boards(const Network* net, const checker_t* boards, int n,
                          float* out5) noexcept nogil

# The calling thread promises (held True) that no network it evaluates changes until it
# calls this again with False (calls nest): meanwhile evaluate_boards reuses the hidden
# sums of a board's leading mover-only units for the next board with the same ones, which
# gives the same floats. Returns False when there was no memory (nothing is reused then).
cdef bint hold_networks(bint held) noexcept nogil

# y[j] += scale * x[j] for j < n (vectorised; used by training).
cdef void add_scaled(float* y, const float* x, float scale, int n) noexcept nogil



cdef class NeuralNet:
    cdef Network net
    cdef readonly object hidden_weights, hidden_bias, output_weights, output_bias

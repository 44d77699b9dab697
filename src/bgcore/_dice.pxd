# The dice, in one place: the 21 distinct rolls with their weights, ordered roll indices,
# and the one random routine every kernel draws dice with.
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport uint32_t, uint64_t
from numpy.random cimport bitgen_t

cdef enum:
    NUM_ROLLS = 21                  # distinct rolls: 15 non-doubles (2 of 36) + 6 doubles (1 of 36)
    NUM_ORDERED_ROLLS = 36          # ordered (die1, die2); index 6 * (die1 - 1) + (die2 - 1)
    NUM_NON_DOUBLE_ROLLS = 30

# The 21 rolls, smaller die first: (1,1), (1,2), ..., (1,6), (2,2), ..., (6,6); weights
# are counts of the 36 ordered rolls (sums over rolls are divided by 36 once, at the end).
cdef extern from *:
    """
    #if defined(__GNUC__)
    #define BG_UNUSED_OK __attribute__((unused))
    #else
    #define BG_UNUSED_OK
    #endif
    static const int BG_UNUSED_OK BG_ROLL_LOW[21] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6};
    static const int BG_UNUSED_OK BG_ROLL_HIGH[21] = {1, 2, 3, 4, 5, 6, 2, 3, 4, 5, 6, 3, 4, 5, 6, 4, 5, 6, 5, 6, 6};
    static const double BG_UNUSED_OK BG_ROLL_WEIGHT[21] = {1, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 1, 2, 2, 2, 1, 2, 2, 1, 2, 1};
    """
    const int ROLL_LOW "BG_ROLL_LOW"[NUM_ROLLS]
    const int ROLL_HIGH "BG_ROLL_HIGH"[NUM_ROLLS]
    const double ROLL_WEIGHT "BG_ROLL_WEIGHT"[NUM_ROLLS]


cdef inline int roll_number(int die1, int die2) noexcept nogil:
    """Index of a roll among the 21 (dice in any order); -1 unless both are 1..6."""
    cdef int low = die1 if die1 < die2 else die2, high = die1 + die2 - low
    if low < 1 or high > 6:
        return -1
    return (low - 1) * (14 - low) // 2 + (high - low)


cdef inline int ordered_roll_index(int die1, int die2) noexcept nogil:
    return 6 * (die1 - 1) + (die2 - 1)


cdef inline uint32_t uniform_below(bitgen_t* rng, uint32_t count) noexcept nogil:
    """The one random routine of the dice: an unbiased integer 0..count-1 from 32 random
    bits (a draw at or above the largest multiple of count below 2**32 is drawn again)."""
    cdef uint64_t limit = ((<uint64_t>1) << 32) // count * count
    cdef uint32_t x
    while True:
        x = rng.next_uint32(rng.state)
        if x < limit:
            return x % count


cdef inline int random_die(bitgen_t* rng) noexcept nogil:
    """A fair die, 1..6."""
    return 1 + <int>uniform_below(rng, 6)


cdef inline int random_roll_index(bitgen_t* rng, bint no_doubles) noexcept nogil:
    """An ordered roll index, uniform over the 36 rolls (or the 30 non-doubles)."""
    cdef int k
    if not no_doubles:
        return <int>uniform_below(rng, NUM_ORDERED_ROLLS)
    k = <int>uniform_below(rng, NUM_NON_DOUBLE_ROLLS)
    return k + k // 6 + 1           # skip the doubles 0, 7, 14, 21, 28, 35


cdef inline bitgen_t* bitgen_of(object bit_generator) except NULL:
    """The C generator inside a numpy BitGenerator (e.g. numpy.random.PCG64)."""
    return <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")


# Each rollout trial throws its dice from a stream of its own, seeded by one 64-bit draw of
# the block's generator, so that trial t of two rollouts with the same seed sees the same
# dice at every ply, whatever earlier trials did (a pass ending one line's game early no
# longer shifts the dice of the trials after it). The stream is SplitMix64 (Steele, Lea
# and Flood, 2014: a Weyl sequence through a 64-bit mixer), written from its published
# constants; each draw is one step.
cdef extern from *:
    """
    typedef struct { uint64_t weyl; } bg_trial_stream;
    static inline uint64_t bg_trial_next64(void* state) {
        uint64_t z = (((bg_trial_stream*)state)->weyl += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    static inline uint32_t bg_trial_next32(void* state) { return (uint32_t)(bg_trial_next64(state) >> 32); }
    static inline double bg_trial_next_double(void* state) {
        return (double)(bg_trial_next64(state) >> 11) * (1.0 / 9007199254740992.0);
    }
    """
    ctypedef struct TrialStream "bg_trial_stream":
        uint64_t weyl
    uint64_t trial_next64 "bg_trial_next64"(void* state) noexcept nogil
    uint32_t trial_next32 "bg_trial_next32"(void* state) noexcept nogil
    double trial_next_double "bg_trial_next_double"(void* state) noexcept nogil


cdef inline void attach_trial_stream(bitgen_t* generator, TrialStream* stream) noexcept nogil:
    """Make ``generator`` draw from ``stream`` (seed it with start_trial_stream)."""
    generator.state = stream
    generator.next_uint64 = trial_next64
    generator.next_uint32 = trial_next32
    generator.next_double = trial_next_double
    generator.next_raw = trial_next64


cdef inline void start_trial_stream(TrialStream* stream, bitgen_t* block) noexcept nogil:
    """Seed a trial's stream by one 64-bit draw of the block's generator."""
    stream.weyl = block.next_uint64(block.state)

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

# cython: language_level=3
"""The evaluator network: input encoding and batched float32 forward pass.

A board is evaluated from the player on roll, before the roll. The input vector has, for
each side (the player on roll first, then the opponent, each numbering points from its
own side): four units per point (>=1, >=2, >=3 checkers, then (n-3)/2 for the excess),
two bar units (>=1, n/4), checkers off /15, pips /150 and five hand-crafted features
(blots in direct range of an enemy checker, anchors in the enemy home board, longest
prime, enemy points in front of the rearmost checker, and direct-shot blots weighted by
the enemy's home-board strength); finally one contact flag. That is encoding 1 (211
inputs). Encoding 2 appends, for each side in the same order and numbering, eight contact
units that look at both sides' checkers (``contact_units``: rolls that hit a blot, the pips
such a hit costs, rolls that escape the rearmost checker, containment over 12 points,
indirect shots, mobility, pips to break contact, rolls that dance). Encoding 3 appends after
those, again for each side, nine structure units (``structure_units``: rolls that hit two
blots, checkers behind a 4-prime, the longest run of enemy points in front of the rearmost
checker, the deepest and the most advanced anchor, rolls that do not escape the next checker back,
checkers past every enemy checker, the rearmost checker's pips to home, the spread of the
checkers' points). A network says which encoding it takes (``Network.encoding``). The hidden layer sums only
the non-zero inputs (rows of a row-per-input weight matrix), which is what makes the
forward pass fast.
"""

import numpy as np
cimport numpy as cnp
from libc.math cimport expf
from libc.string cimport memcmp, memcpy, memset

from bgcore._types cimport checker_t, NUM_SLOTS, NUM_CHECKERS
from bgcore._board cimport check_boards, mover_checkers_on_board, opponent_checkers_on_board
from bgcore._scratch cimport thread_scratch

cnp.import_array()

# Offsets of the per-side units after the 96 point units.
cdef enum:
    UNIT_BAR = 96
    UNIT_BAR_COUNT = 97
    UNIT_OFF = 98
    UNIT_PIPS = 99
    UNIT_DIRECT_BLOTS = 100
    UNIT_ANCHORS = 101
    UNIT_PRIME = 102
    UNIT_CONTAINMENT = 103
    UNIT_DANGER = 104
    UNIT_CONTACT = 210


# The logistic function by linear interpolation in a table over [-16, 16] (64 steps per
# unit; error below 3e-6), several times faster than expf in the forward pass.
cdef enum:
    SIGMOID_STEPS = 64
    SIGMOID_HALF_RANGE = 16
    SIGMOID_LAST = 2 * SIGMOID_HALF_RANGE * SIGMOID_STEPS

cdef float SIGMOID_TABLE[SIGMOID_LAST + 2]
# SIGMOID_PAIRS[2i], [2i + 1] = SIGMOID_TABLE[i], [i + 1]: both ends of a step in one read
cdef float SIGMOID_PAIRS[2 * (SIGMOID_LAST + 1)]


cdef void fill_sigmoid_table() noexcept nogil:
    cdef int i
    for i in range(SIGMOID_LAST + 2):
        SIGMOID_TABLE[i] = 1.0 / (1.0 + expf(-(<float>i / SIGMOID_STEPS - SIGMOID_HALF_RANGE)))
    for i in range(SIGMOID_LAST + 1):
        SIGMOID_PAIRS[2 * i] = SIGMOID_TABLE[i]
        SIGMOID_PAIRS[2 * i + 1] = SIGMOID_TABLE[i + 1]


fill_sigmoid_table()


cdef inline float sigmoid(float x) noexcept nogil:
    cdef float position = (x + SIGMOID_HALF_RANGE) * SIGMOID_STEPS
    if position <= 0.0:
        return SIGMOID_TABLE[0]
    if position >= SIGMOID_LAST:
        return SIGMOID_TABLE[SIGMOID_LAST]
    cdef int i = <int>position
    cdef float fraction = position - i
    return SIGMOID_TABLE[i] + fraction * (SIGMOID_TABLE[i + 1] - SIGMOID_TABLE[i])


cdef extern from *:
    """
    #if defined(__GNUC__)
    #if defined(__POPCNT__)
    #define bg_popcount(x) __builtin_popcount(x)
    #else
    /* without the popcnt instruction GCC calls a library function: bit arithmetic is faster */
    static inline int bg_popcount(unsigned int x) {
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
    }
    #endif
    #define bg_highest_bit(x) ((x) ? 31 - __builtin_clz(x) : 0)
    #define bg_lowest_bit(x) __builtin_ctz(x)
    #else
    static int bg_popcount(unsigned int x) { int n = 0; for (; x; x &= x - 1) ++n; return n; }
    static int bg_highest_bit(unsigned int x) { int b = 0; while (x >>= 1) ++b; return b; }
    static int bg_lowest_bit(unsigned int x) { int b = 0; while (!(x & 1)) { x >>= 1; ++b; } return b; }
    #endif
    /* Slots of a 26-slot board as bit sets (bit i: slot i): > 0, >= 2, < 0, <= -2. */
    #if defined(__SSE2__)
    #include <emmintrin.h>
    static void bg_board_bits(const signed char* board, unsigned int* bits) {
        const __m128i low = _mm_loadu_si128((const __m128i*)board);         /* slots 0..15 */
        const __m128i high = _mm_loadu_si128((const __m128i*)(board + 10)); /* slots 10..25 */
        const __m128i limits[4] = {_mm_set1_epi8(0), _mm_set1_epi8(1), _mm_set1_epi8(0),
                                   _mm_set1_epi8(-1)};
        for (int k = 0; k < 2; ++k) {
            bits[k] = (unsigned int)_mm_movemask_epi8(_mm_cmpgt_epi8(low, limits[k]))
                      | (unsigned int)_mm_movemask_epi8(_mm_cmpgt_epi8(high, limits[k])) << 10;
            bits[k + 2] = (unsigned int)_mm_movemask_epi8(_mm_cmplt_epi8(low, limits[k + 2]))
                          | (unsigned int)_mm_movemask_epi8(_mm_cmplt_epi8(high, limits[k + 2])) << 10;
        }
    }
    #else
    static void bg_board_bits(const signed char* board, unsigned int* bits) {
        bits[0] = bits[1] = bits[2] = bits[3] = 0;
        for (int i = 0; i < 26; ++i) {
            bits[0] |= (unsigned int)(board[i] > 0) << i;
            bits[1] |= (unsigned int)(board[i] >= 2) << i;
            bits[2] |= (unsigned int)(board[i] < 0) << i;
            bits[3] |= (unsigned int)(board[i] <= -2) << i;
        }
    }
    #endif
    /* bit i of x moved to bit 25 - i (x below 2^26) */
    static inline unsigned int bg_mirror26(unsigned int x) {
        x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
        x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
        x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
        x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
        x = (x >> 16) | (x << 16);
        return x >> 6;
    }
    """
    int popcount "bg_popcount"(unsigned int x) noexcept nogil
    int highest_bit "bg_highest_bit"(unsigned int x) noexcept nogil   # 0 when x is 0
    int lowest_bit "bg_lowest_bit"(unsigned int x) noexcept nogil     # x must not be 0
    void board_bits "bg_board_bits"(const checker_t* board, unsigned int* bits) noexcept nogil
    unsigned int mirror26 "bg_mirror26"(unsigned int x) noexcept nogil


cdef enum:
    POINT_BITS = 0x1FFFFFE          # bits 1..24
    NO_CHECKER_BIT = 1 << 26        # above every point and bar: lowest_bit of a set | this is 26 when empty


# One side's checkers numbered from its own side (1..24 points, 25 its bar), read from the
# board in place, with the points as bit sets, so that the features below are a few bit
# operations.
ctypedef struct Side:
    const checker_t* board
    int origin                      # own point p is board slot origin + step * p, its count
    int step                        # sign * that slot (the mover: 0, 1, 1; the opponent: 25,
    int sign                        # -1, -1), read without a branch
    unsigned int occupied           # bit p: a checker on own point p (p = 1..25)
    unsigned int made               # bit p: two or more (p = 1..24)
    unsigned int occupied_seen      # occupied in the other side's numbering (bit 25 - p)
    unsigned int made_seen          # made in the other side's numbering (bit 25 - p)


cdef inline int count_on(const Side* side, int p) noexcept nogil:
    """Checkers of ``side`` on its own point p (25: its bar)."""
    return side.sign * side.board[side.origin + side.step * p]


cdef void split_sides(const checker_t* board, Side* mover, Side* opponent) noexcept nogil:
    """Both sides of a board, each in its own numbering."""
    cdef unsigned int bits[4]       # slots > 0, >= 2, < 0, <= -2
    board_bits(board, bits)
    mover.board = opponent.board = board
    mover.origin = 0
    mover.step = mover.sign = 1
    opponent.origin = 25
    opponent.step = opponent.sign = -1
    mover.occupied = bits[0]
    mover.made = bits[1] & POINT_BITS
    mover.occupied_seen = mirror26(mover.occupied)
    mover.made_seen = mirror26(mover.made)
    opponent.occupied_seen = bits[2]
    opponent.made_seen = bits[3] & POINT_BITS
    opponent.occupied = mirror26(opponent.occupied_seen)
    opponent.made = mirror26(opponent.made_seen)


# A point's units by its checker count, read from tables in the encoder's loop (no branch,
# no conversion): the fourth unit (n - 3) / 2, and how many of the four are on, min(n, 4).
cdef float EXCESS_UNIT[NUM_CHECKERS + 1]
cdef int UNITS_ON[NUM_CHECKERS + 1]


cdef void fill_point_units() noexcept nogil:
    cdef int n
    for n in range(NUM_CHECKERS + 1):
        EXCESS_UNIT[n] = (n - 3) * 0.5
        UNITS_ON[n] = n if n < 4 else 4


fill_point_units()


# Encoding 2's contact units that go checker by checker (contact_units), taken by encode_side
# in its pass over the points.
ctypedef struct PointCounts:
    int mobility
    int break_contact
    int indirect_shots
    int on_board                    # and for encoding 3's structure_units: checkers on the board
    int pips                        # (bar included), their pips, their squared points summed,
    int square_sum                  # those behind a 4-prime of the enemy's and those past its
    int trapped                     # rearmost checker
    int passed


cdef int encode_side(const Side* own, const Side* enemy, int base, int* indices,
                     float* values, int active, int* own_only, PointCounts* counts) noexcept nogil:
    """Append the non-zero units of one side: the occupied points in order (all four units
    of a point written, those that are on counted: the buffers have room), then the rest.
    ``own_only``: where the units that depend on this side's checkers alone end (points,
    bar, off, pips: the features after them look at the enemy too). ``counts``: NULL, or
    where encoding 2's and 3's counts that go point by point are taken in the same pass."""
    cdef int p, n, unit, on_board = 0, pips = 0, direct_blots, prime
    cdef int anchors, containment, enemy_board, bar = count_on(own, 25)
    cdef int rearmost = highest_bit(own.occupied), mobility = 0, break_contact = 0, indirect = 0
    cdef int square_sum = 0, trapped = 0, passed = 0
    # (blocks >> p) & 63: enemy points on the six points below own point p (when p > 6);
    # (behind >> p) & 63: enemy-occupied points 7..12 below p (own point 0: the enemy's bar)
    cdef unsigned int blocks = enemy.made_seen << 6
    cdef unsigned long long behind = <unsigned long long>enemy.occupied_seen << 12
    cdef int ahead, enemy_rear = lowest_bit(enemy.occupied_seen) if enemy.occupied_seen else NUM_SLOTS
    cdef unsigned int points = own.occupied & POINT_BITS, reach
    # the top of the lowest run of 4+ enemy points (26 when none): checkers above it are trapped
    cdef unsigned int primes = enemy.made_seen & (enemy.made_seen >> 1) & (enemy.made_seen >> 2) & (enemy.made_seen >> 3)
    cdef int trapped_above = lowest_bit(primes | (<unsigned int>1 << (NUM_SLOTS - 3))) + 3
    while points:
        p = lowest_bit(points)
        points &= points - 1
        n = count_on(own, p)
        unit = base + (p - 1) * 4
        indices[active] = unit
        values[active] = 1.0
        indices[active + 1] = unit + 1
        values[active + 1] = 1.0
        indices[active + 2] = unit + 2
        values[active + 2] = 1.0
        indices[active + 3] = unit + 3
        values[active + 3] = EXCESS_UNIT[n]
        active += UNITS_ON[n]
        on_board += n
        pips += p * n
        if counts != NULL:          # invariant: the compiler makes two loops of this one
            mobility += n * (p > 6) * (6 - POPCOUNT6[(blocks >> p) & 0x3F])
            ahead = p - enemy_rear + 1  # the enemy is never on own point p: p > rear iff > 0
            break_contact += n * (ahead if ahead > 0 else 0)
            indirect += (n == 1) * POPCOUNT6[(behind >> p) & 0x3F]
            square_sum += n * p * p
            trapped += n * (p > trapped_above)
            passed += n * (p < enemy_rear)
    on_board += bar
    pips += 25 * bar
    if counts != NULL:              # the bar: mobility entering, and ahead of every enemy checker
        ahead = 25 - enemy_rear + 1
        counts.mobility = mobility + bar * (6 - POPCOUNT6[(blocks >> 25) & 0x3F])
        counts.break_contact = break_contact + bar * (ahead if ahead > 0 else 0)
        counts.indirect_shots = indirect
        counts.on_board = on_board
        counts.pips = pips
        counts.square_sum = square_sum + bar * 25 * 25
        counts.trapped = trapped + bar * (25 > trapped_above)
        counts.passed = passed + bar * (25 < enemy_rear)
    # a blot at own point p is hit directly from own points p-6 .. p-1 (0: the enemy's bar)
    reach = enemy.occupied_seen
    reach = (reach << 1) | (reach << 2) | (reach << 3) | (reach << 4) | (reach << 5) | (reach << 6)
    direct_blots = popcount(own.occupied & ~own.made & POINT_BITS & reach)
    prime = longest_run(own.made)
    # the units below written whether on or not (the buffers have room), counted when on: no branch
    indices[active] = base + UNIT_BAR
    values[active] = 1.0
    indices[active + 1] = base + UNIT_BAR_COUNT
    values[active + 1] = bar * 0.25
    active += 2 * (bar > 0)
    active = append_count(indices, values, active, base + UNIT_OFF, NUM_CHECKERS - on_board, 1.0 / NUM_CHECKERS)
    active = append_count(indices, values, active, base + UNIT_PIPS, pips, 1.0 / 150.0)
    own_only[0] = active
    enemy_board = popcount(enemy.made & 0x7E)           # enemy points 1..6
    active = append_count(indices, values, active, base + UNIT_DIRECT_BLOTS, direct_blots, 0.25)
    active = append_count(indices, values, active, base + UNIT_DANGER, direct_blots * enemy_board, 1.0 / 12.0)
    anchors = popcount(own.made & (<unsigned int>0x3F << 19))   # own points 19..24
    active = append_count(indices, values, active, base + UNIT_ANCHORS, anchors, 0.5)
    active = append_count(indices, values, active, base + UNIT_PRIME, prime * (prime > 1), 1.0 / 6.0)
    # enemy points (own point p is the enemy's 25-p) in the 6 points before the rearmost checker
    containment = popcount(enemy.made_seen & points_between(rearmost - 6 if rearmost > 6 else 1, rearmost))
    return append_count(indices, values, active, base + UNIT_CONTAINMENT, containment, 1.0 / 6.0)


# Encoding 2's contact units of one side (offsets after the side's first unit): both sides'
# checkers decide them, so they come after every unit of encoding 1.
cdef enum:
    CONTACT_HIT_ROLLS = 0           # rolls of 36 on which the enemy hits a blot / 36
    CONTACT_HIT_LOSS = 1            # pips the farthest-back hittable blot loses, over the 36 / (36 * 24)
    CONTACT_ESCAPE_ROLLS = 2        # rolls of 36 taking the rearmost past the enemy's points / 36
    CONTACT_CONTAINMENT = 3         # enemy points among the 12 in front of the rearmost / 12
    CONTACT_INDIRECT_SHOTS = 4      # (blot, enemy-occupied point 7..12 pips before it) / 10
    CONTACT_MOBILITY = 5            # (checker outside home, die) landing on no enemy point / 60
    CONTACT_BREAK_CONTACT = 6       # pips to bring the checkers behind the enemy's rearmost past it / 100
    CONTACT_DANCE_ROLLS = 7         # with checkers on the bar: rolls of 36 that do not enter / 36


cdef inline void tally_hits(unsigned int hit, int weight, int* rolls, int* loss) noexcept nogil:
    """Count a roll of ``weight`` (of 36) that hits ``hit`` (maybe none), with the pips its
    farthest-back blot (lowest own point) would lose."""
    rolls[0] += weight * (hit != 0)
    loss[0] += weight * (25 - lowest_bit(hit | (<unsigned int>1 << 25)))


# The 21 distinct rolls as the bits of a mask (the double d-d bit d - 1, then the others),
# so that the rolls with some property are unions and intersections of masks made once.
cdef unsigned int ROLL_BIT[7][7]
cdef unsigned int ROLLS_SHOWING[64]     # by a set of die values (bit d - 1): the rolls showing one
cdef unsigned int ROLLS_ADDING_TO[512]  # by a set of sums 3..11 (bit s - 3): the non-doubles adding to one
cdef int POPCOUNT6[64]                  # bits set in a 6-bit value (six points, six doubles)


cdef void fill_roll_masks() noexcept nogil:
    cdef int a, b, subset, bit = 6
    for a in range(1, 7):
        ROLL_BIT[a][a] = <unsigned int>1 << (a - 1)
        for b in range(a + 1, 7):
            ROLL_BIT[a][b] = <unsigned int>1 << bit
            ROLL_BIT[b][a] = ROLL_BIT[a][b]
            bit += 1
    for subset in range(64):
        POPCOUNT6[subset] = popcount(subset)
        ROLLS_SHOWING[subset] = 0
        for a in range(1, 7):
            for b in range(a, 7):
                if (subset >> (a - 1)) & 1 or (subset >> (b - 1)) & 1:
                    ROLLS_SHOWING[subset] |= ROLL_BIT[a][b]
    for subset in range(512):
        ROLLS_ADDING_TO[subset] = 0
        for a in range(1, 7):
            for b in range(a + 1, 7):
                if (subset >> (a + b - 3)) & 1:
                    ROLLS_ADDING_TO[subset] |= ROLL_BIT[a][b]


fill_roll_masks()


cdef inline int rolls_of(unsigned int mask) noexcept nogil:
    """How many of the 36 rolls a mask of the 21 holds (the non-doubles twice)."""
    return POPCOUNT6[mask & 0x3F] + 2 * popcount(mask >> 6)


cdef inline unsigned int reaching_rolls(unsigned int targets, unsigned int open_) noexcept nogil:
    """The rolls (mask) on which one checker moves a distance in ``targets`` (bit d: d pips,
    1..24) stopping only on open points (bit j of ``open_``: the point j pips from where it
    starts, or equally from where it ends, is open): one die, both dice one after the other,
    or 2..4 steps of a double."""
    cdef unsigned int further, rolls = ROLLS_SHOWING[(targets >> 1) & 63]
    cdef int d
    rolls |= ROLLS_ADDING_TO[(targets >> 3) & 511] & ROLLS_SHOWING[(open_ >> 1) & 63]
    for d in range(1, 7):           # d-d: 2, 3 or 4 steps, from an open point d pips on
        further = (open_ >> (3 * d)) & (targets >> (4 * d))
        further = (targets >> (2 * d)) | ((open_ >> (2 * d)) & ((targets >> (3 * d)) | further))
        rolls |= ((open_ >> d) & further & 1) << (d - 1)
    return rolls


cdef void count_hits_from_bar(unsigned int hitters, int bar, unsigned int landing,
                              unsigned int blots, int* rolls, int* loss) noexcept nogil:
    """count_hits when the enemy has ``bar`` > 0 checkers on its bar, which enter first (on
    own point d), and its others at ``hitters`` (own numbering: they move up); the dice left
    after entering move one checker each or one checker both, every point landed on in
    ``landing`` (not held by this side). Roll by roll without branches: die d enters when
    point d is open (``enters``), hitting there; then a non-double's other die moves any
    checker (one on the bar) or none (two or more), a double's steps left (4 - bar) move
    all the checkers at once."""
    cdef unsigned int enters[7]
    cdef unsigned int moving[7]
    cdef unsigned int x, hit, enter_mask
    cdef int d, a, b, k
    for d in range(1, 7):
        enter_mask = -((landing >> d) & 1)
        enters[d] = enter_mask & (<unsigned int>1 << d)
        moving[d] = enter_mask & (hitters | (<unsigned int>1 << d))
        x = moving[d]                   # the double d-d
        hit = enters[d]
        for k in range(3):              # steps left once the bar is empty: 4 - bar (may be none)
            x = (x << d) & landing & -<unsigned int>(k < 4 - bar)
            hit |= x
        tally_hits(hit & blots, 1, rolls, loss)
        if bar > 1:                     # a non-double only enters
            moving[d] = 0
    for a in range(1, 7):
        for b in range(a + 1, 7):
            tally_hits((enters[a] | enters[b] | (moving[a] << b) | (moving[b] << a)) & blots, 2,
                       rolls, loss)


cdef void count_hits(const Side* own, const Side* enemy, unsigned int blots, int* rolls,
                     int* loss) noexcept nogil:
    """Rolls of the 36 on which the enemy hits one of ``blots``, and the pips the farthest-back
    blot it can hit on each would lose, summed over them."""
    cdef unsigned int hitters = enemy.occupied_seen & POINT_BITS, landing = ~own.made & POINT_BITS
    cdef unsigned int x, hit, hit_from, targets, open_, reach, seen = 0
    cdef int p, a, b, k, bar = count_on(enemy, 25)
    if bar:
        count_hits_from_bar(hitters, bar, landing, blots, rolls, loss)
        return
    for a in range(1, 7):               # a double: every hitter's 4 steps at once
        x = hitters
        hit = 0
        for k in range(4):
            x <<= a
            hit |= x & blots
            x &= landing
        tally_hits(hit, 1, rolls, loss)
    # the others blot by blot from the farthest back (the enemy checkers d pips behind a blot
    # hit it at d): one die, or both through an open point a die's pips from the blot
    hit_from = enemy.occupied & POINT_BITS              # enemy numbering: own point p is its 25 - p
    while blots:
        p = lowest_bit(blots)
        blots &= blots - 1
        targets = hit_from >> (25 - p)
        open_ = ~(own.made_seen >> (25 - p))
        reach = (ROLLS_SHOWING[(targets >> 1) & 63]
                 | (ROLLS_ADDING_TO[(targets >> 3) & 511] & ROLLS_SHOWING[(open_ >> 1) & 63]))
        reach &= ~seen & ~<unsigned int>0x3F
        loss[0] += (25 - p) * 2 * popcount(reach)     # non-doubles only: two of 36 each
        seen |= reach
    rolls[0] += rolls_of(seen)


cdef inline unsigned int points_between(int low, int high) noexcept nogil:
    """Bits low..high - 1 (none when high <= low; 0 <= low, high <= 26)."""
    return (<unsigned int>1 << high) - (<unsigned int>1 << low) if high > low else 0


cdef inline unsigned int points_in_front(int start) noexcept nogil:
    """The 12 own points in front of own point ``start`` (those below it, 1 at the lowest)."""
    return points_between(start - 12 if start > 13 else 1, start)


cdef inline int escape_rolls_from(int start, const Side* enemy) noexcept nogil:
    """Rolls of the 36 on which a checker on own point ``start`` (25: the bar), moved alone,
    lands on an open point past every enemy point among the 12 in front of it, stopping
    only on open points; 36 when there is no such point (it is free)."""
    cdef unsigned int targets
    cdef unsigned int blocks = enemy.made_seen & points_in_front(start)
    if not blocks:
        return 36
    # open points past the lowest of them, as distances from the start (enemy numbering)
    targets = (points_between(26 - lowest_bit(blocks), 25) & ~enemy.made) >> (25 - start)
    return rolls_of(reaching_rolls(targets, ~enemy.made >> (25 - start)))


cdef inline int append_count(int* indices, float* values, int active, int unit, int count,
                             double scale) noexcept nogil:
    """Append unit ``unit`` = count * scale when the count is not 0; returns the new length."""
    indices[active] = unit              # written either way (the buffers have room): no branch
    values[active] = count * scale
    return active + (count != 0)


cdef int contact_units(const Side* own, const Side* enemy, const PointCounts* counts, int base,
                       int* indices, float* values, int active) noexcept nogil:
    """Append the non-zero contact units of one side (encoding 2), in its own numbering;
    ``counts``: those encode_side took point by point."""
    cdef unsigned int blots = own.occupied & ~own.made & POINT_BITS
    cdef unsigned int behind = enemy.occupied_seen
    cdef int rear = highest_bit(own.occupied)
    cdef int hit_rolls = 0, hit_loss = 0, containment, enemy_home
    # hits: only when an enemy checker (or its bar, own point 0) is below some blot
    if lowest_bit(behind | NO_CHECKER_BIT) < highest_bit(blots):    # highest_bit(0) is 0
        count_hits(own, enemy, blots, &hit_rolls, &hit_loss)
    # the rearmost checker and the enemy points among the 12 in front of it
    containment = popcount(enemy.made_seen & points_in_front(rear))
    cdef int escape_rolls = escape_rolls_from(rear, enemy)
    active = append_count(indices, values, active, base + CONTACT_HIT_ROLLS, hit_rolls, 1.0 / 36.0)
    active = append_count(indices, values, active, base + CONTACT_HIT_LOSS, hit_loss, 1.0 / (36.0 * 24.0))
    active = append_count(indices, values, active, base + CONTACT_ESCAPE_ROLLS, escape_rolls, 1.0 / 36.0)
    active = append_count(indices, values, active, base + CONTACT_CONTAINMENT, containment, 1.0 / 12.0)
    active = append_count(indices, values, active, base + CONTACT_INDIRECT_SHOTS, counts.indirect_shots, 0.1)
    active = append_count(indices, values, active, base + CONTACT_MOBILITY, counts.mobility, 1.0 / 60.0)
    active = append_count(indices, values, active, base + CONTACT_BREAK_CONTACT, counts.break_contact, 0.01)
    enemy_home = popcount(enemy.made & 0x7E) * (count_on(own, 25) > 0)   # enemy points 1..6
    return append_count(indices, values, active, base + CONTACT_DANCE_ROLLS, enemy_home * enemy_home,
                        1.0 / 36.0)


# Encoding 3's units of one side (offsets after the side's first unit), after both sides'
# encoding-2 units; like those they look at both sides' checkers.
cdef enum:
    STRUCTURE_DOUBLE_HITS = 0       # rolls of 36 on which the enemy can hit two blots / 36
    STRUCTURE_TRAPPED = 1           # checkers behind an enemy prime of 4+ points / 10
    STRUCTURE_PRIME_IN_FRONT = 2    # longest run of enemy points in front of the rearmost / 6
    STRUCTURE_DEEPEST_ANCHOR = 3    # highest point held among own 19..24, minus 18 / 6
    STRUCTURE_ADVANCED_ANCHOR = 4   # lowest point held among own 19..24, 25 minus it / 6
    STRUCTURE_NEXT_BLOCKED = 5      # rolls of 36 not escaping the rearmost checker off the rearmost point / 36
    STRUCTURE_PASSED = 6            # checkers past every enemy checker / 15
    STRUCTURE_TO_HOME = 7           # pips the rearmost checker needs to reach the home board / 19
    STRUCTURE_SPREAD = 8            # variance of the checkers' points (bar 25) / 64


cdef inline unsigned int without_lowest(unsigned int bits) noexcept nogil:
    """``bits`` less its lowest bit: not 0 when it had two or more (no popcount needed)."""
    return bits & (bits - 1)


cdef inline bint two_different(unsigned int first, unsigned int second) noexcept nogil:
    """Whether one of ``first`` and another of ``second`` are two different bits."""
    return (first != 0) & (second != 0) & (without_lowest(first | second) != 0)   # no branch


cdef inline bint double_hits_two(unsigned int hitters, unsigned int landing, unsigned int blots, int d,
                                 int steps, bint* hits_one) noexcept nogil:
    """Whether ``steps`` (0..4) steps of ``d`` pips, shared among the enemy checkers on
    ``hitters`` (own numbering: they move up), each landing in ``landing``, can hit two of
    ``blots``; ``hits_one``: whether they can hit one. Moves of different checkers commute
    (a hit blot's point stays open), so: one checker hits two on its way, or two checkers
    hit two different blots, each its first, with i + j <= steps steps (two different
    first-hit blots are always two different checkers)."""
    cdef unsigned int waiting = hitters, have_hit = 0, moved
    cdef unsigned int first[5]
    cdef bint two = False
    cdef int k
    first[1] = first[2] = first[3] = first[4] = 0
    for k in range(1, steps + 1):
        two |= ((have_hit << d) & blots) != 0
        moved = (waiting << d) & landing
        first[k] = moved & blots
        have_hit = ((have_hit << d) & landing) | first[k]
        waiting = moved & ~blots
    hits_one[0] = (first[1] | first[2] | first[3] | first[4]) != 0
    if steps >= 2:
        two |= two_different(first[1], first[1])
    if steps >= 3:
        two |= two_different(first[1], first[2])
    if steps >= 4:
        two |= two_different(first[1], first[3]) | two_different(first[2], first[2])
    return two


cdef inline unsigned int non_doubles_between(unsigned int first, unsigned int second) noexcept nogil:
    """The non-doubles (mask of the 21 rolls) with one die in ``first`` and the other in
    ``second`` (sets of die values, bit d - 1)."""
    cdef unsigned int rolls = 0, die
    while first:
        die = first & -first
        first &= first - 1
        rolls |= ROLLS_SHOWING[die] & ROLLS_SHOWING[second & ~die]
    return rolls & ~<unsigned int>0x3F


cdef inline int bits_up_to_3(unsigned int bits) noexcept nogil:
    """How many bits ``bits`` has, 3 when more (no popcount needed)."""
    cdef unsigned int fewer = without_lowest(bits)
    return (bits != 0) + (fewer != 0) + (without_lowest(fewer) != 0)


cdef int split_double_hit_rolls(unsigned int hitters, unsigned int singles,
                                unsigned int blots) noexcept nogil:
    """Rolls of the 36 that are not doubles on which the enemy, none of it on the bar, hits
    two of ``blots`` (own numbering; ``hitters``: its checkers, ``singles``: its points with
    one). Each die hits at most one blot, so both must: one checker hits a blot with one
    die and goes on to a blot the other die further (either order), or two checkers hit
    two blots, one die each. For roll a-b, take the pairs of sources (one a pips below a
    blot, one b pips below one) less those that are one single checker and those that hit
    one blot: with two or more sources of each die some pair is left (at most three of
    four fail), and with one source of a die at most one pair fails each way, so source
    counts capped at 3 and the two failures as 0 or 1 decide."""
    cdef unsigned int hits[7]           # by die d: the blots d pips above an enemy checker
    cdef unsigned int sources[7]        # by die d: the points d pips below a blot
    cdef int counts[7]                  # by die d: how many such blots, capped at 3
    cdef int a, b, rolls = 0, pairs
    for a in range(1, 7):
        sources[a] = blots >> a
        hits[a] = (hitters << a) & blots
        counts[a] = bits_up_to_3(hits[a])
    for a in range(1, 6):
        for b in range(a + 1, 7):
            pairs = (counts[a] * counts[b] - ((sources[a] & sources[b] & singles) != 0)
                     - ((hits[a] & hits[b]) != 0))
            rolls += (pairs > 0) | (((hits[a] & sources[b]) | (hits[b] & sources[a])) != 0)
    return 2 * rolls


cdef int double_hit_rolls(const Side* own, const Side* enemy, unsigned int blots) noexcept nogil:
    """Rolls of the 36 on which the enemy can hit two of ``blots`` (own numbering): some
    sequence of its single-die moves, bar checkers entering first (a non-double with two
    or more on the bar only enters), landing only where this side has no point, stopping
    when it likes. Whether the roll can be played in full is not asked."""
    cdef unsigned int hitters = enemy.occupied_seen & POINT_BITS, landing = ~own.made & POINT_BITS
    cdef unsigned int singles = hitters & ~enemy.made_seen, entry, entry_blots, rest, other, found = 0
    cdef int a, b, bar = count_on(enemy, 25), rolls = 0
    cdef bint hits_one, two
    if bar == 0:
        for a in range(1, 7):
            rolls += double_hits_two(hitters, landing, blots, a, 4, &hits_one)
        return rolls + split_double_hit_rolls(hitters, singles, blots)
    for a in range(1, 7):               # the doubles: entering takes min(bar, 4) of the steps
        if (landing >> a) & 1:
            entry = <unsigned int>1 << a
            two = double_hits_two(hitters | entry, landing, blots & ~entry, a,
                                  4 - bar if bar < 4 else 0, &hits_one)
            rolls += two | (hits_one & ((blots & entry) != 0))
    entry_blots = (blots >> 1) & 63     # the dice that enter on a blot
    if bar >= 2:                        # a non-double only enters: both dice on blots
        return rolls + 2 * popcount(non_doubles_between(entry_blots, entry_blots))
    rest = entry_blots                  # one enters on a blot, the other die hits another
    while rest:
        a = lowest_bit(rest) + 1
        rest &= rest - 1
        entry = <unsigned int>1 << a
        other = 0
        for b in range(1, 7):
            other |= ((((hitters | entry) << b) & blots & ~entry) != 0) << (b - 1)
        found |= non_doubles_between(<unsigned int>1 << (a - 1), other)
    return rolls + 2 * popcount(found)


cdef inline int longest_run(unsigned int points) noexcept nogil:
    """The most consecutive bits of ``points``: the steps until shifting and masking empties
    it, the first six without a branch (longer runs are rare)."""
    cdef int run = 0, k
    for k in range(6):
        run += points != 0
        points &= points << 1
    while points:
        points &= points << 1
        run += 1
    return run


cdef int structure_units(const Side* own, const Side* enemy, const PointCounts* counts, int base,
                         int* indices, float* values, int active) noexcept nogil:
    """Append the non-zero encoding-3 units of one side, in its own numbering; ``counts``:
    those encode_side took point by point."""
    cdef unsigned int blots = own.occupied & ~own.made & POINT_BITS, behind = enemy.occupied_seen
    cdef unsigned int anchors = own.made & (<unsigned int>0x3F << 19)
    cdef int rear = highest_bit(own.occupied), double_hits = 0, count = counts.on_board
    cdef int next_point = highest_bit(own.occupied & ~(<unsigned int>1 << rear))
    cdef double spread
    # (bit 26 stands in for no enemy checker: above every blot; one test, one branch)
    if (without_lowest(blots) != 0) & (lowest_bit(behind | NO_CHECKER_BIT) < highest_bit(blots)):
        double_hits = double_hit_rolls(own, enemy, blots)
    # no checker on the board: 0 / 1 (the sums are 0 too), without a branch
    cdef double divisor = count + (count == 0)
    spread = <double>(counts.square_sum * count - counts.pips * counts.pips) / (divisor * divisor)
    active = append_count(indices, values, active, base + STRUCTURE_DOUBLE_HITS, double_hits, 1.0 / 36.0)
    active = append_count(indices, values, active, base + STRUCTURE_TRAPPED, counts.trapped, 0.1)
    active = append_count(indices, values, active, base + STRUCTURE_PRIME_IN_FRONT,
                          longest_run(enemy.made_seen & points_between(1, rear)), 1.0 / 6.0)
    active = append_count(indices, values, active, base + STRUCTURE_DEEPEST_ANCHOR,
                          highest_bit(anchors | (<unsigned int>1 << 18)) - 18, 1.0 / 6.0)
    active = append_count(indices, values, active, base + STRUCTURE_ADVANCED_ANCHOR,
                          25 - lowest_bit(anchors | (<unsigned int>1 << 25)), 1.0 / 6.0)
    active = append_count(indices, values, active, base + STRUCTURE_NEXT_BLOCKED,
                          36 - escape_rolls_from(next_point, enemy) if next_point else 0, 1.0 / 36.0)
    active = append_count(indices, values, active, base + STRUCTURE_PASSED, counts.passed, 1.0 / 15.0)
    active = append_count(indices, values, active, base + STRUCTURE_TO_HOME, rear - 6 if rear > 6 else 0,
                          1.0 / 19.0)
    indices[active] = base + STRUCTURE_SPREAD
    values[active] = spread * (1.0 / 64.0)
    return active + (spread != 0.0)


cdef int inputs_of(int encoding) noexcept nogil:
    return NUM_INPUTS_3 if encoding == 3 else (NUM_INPUTS_2 if encoding == 2 else NUM_INPUTS)


cdef int encode_sparse(const checker_t* board, int encoding, int* indices,
                       float* values) noexcept nogil:
    cdef int mover_only
    return encode_split(board, encoding, indices, values, &mover_only)


cdef int encode_split(const checker_t* board, int encoding, int* indices, float* values,
                      int* mover_only) noexcept nogil:
    """encode_sparse, also saying how many leading units depend on the mover's checkers
    alone (the same for every child of one roll that hits nothing)."""
    cdef Side mover, opponent
    cdef PointCounts counts[2]
    cdef PointCounts* mover_counts = counts if encoding >= 2 else NULL
    cdef PointCounts* opponent_counts = counts + 1 if encoding >= 2 else NULL
    cdef int opponent_only
    split_sides(board, &mover, &opponent)
    cdef int active = encode_side(&mover, &opponent, 0, indices, values, 0, mover_only, mover_counts)
    active = encode_side(&opponent, &mover, INPUTS_PER_SIDE, indices, values, active, &opponent_only,
                         opponent_counts)
    # contact (phase_of): the two rearmost checkers have not passed each other
    if highest_bit(mover.occupied) + highest_bit(opponent.occupied) > NUM_SLOTS - 1:
        indices[active] = UNIT_CONTACT
        values[active] = 1.0
        active += 1
    if encoding >= 2:
        active = contact_units(&mover, &opponent, mover_counts, NUM_INPUTS, indices, values, active)
        active = contact_units(&opponent, &mover, opponent_counts, NUM_INPUTS + CONTACT_UNITS_PER_SIDE,
                               indices, values, active)
    if encoding == 3:
        active = structure_units(&mover, &opponent, mover_counts, NUM_INPUTS_2, indices, values, active)
        active = structure_units(&opponent, &mover, opponent_counts, NUM_INPUTS_2 + STRUCTURE_UNITS_PER_SIDE,
                                 indices, values, active)
    return active


# The two hot loops in plain C, compiled twice on x86-64 with GCC (AVX2 and baseline; the
# loader picks one), the hidden sums also a third time for AVX-512 (picked at run time: 128
# units in registers at once, one pass over the rows instead of two). Contraction to FMA is
# off so that all give the same floats (each unit's terms added in the same order), and the
# dot product keeps eight partial sums so that it vectorises without reassociation.
cdef extern from *:
    """
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && __GNUC__ >= 12
    #define BG_HOT __attribute__((target_clones("arch=x86-64-v3", "default"), optimize("fp-contract=off")))
    #else
    #define BG_HOT
    #endif
    #include <string.h>
    /* eight partial sums added pairwise: the dot products' last step, the same in every build */
    #define BG_SUM8(p) (((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7])))
    #if defined(__GNUC__)
    typedef float bg_v8 __attribute__((vector_size(32)));
    #define bg_load(VECTOR, p) __extension__({ VECTOR bg_l_; memcpy(&bg_l_, (p), sizeof bg_l_); bg_l_; })
    #define bg_store(VECTOR, p, v) do { VECTOR bg_s_ = (v); memcpy((p), &bg_s_, sizeof bg_s_); } while (0)
    #define bg_load8(p) bg_load(bg_v8, p)
    #define bg_store8(p, v) bg_store(bg_v8, p, v)
    /* For each of `boards` boards b (its rows: indices and values from b * input_stride, its
       count active[b]): hidden[b * hidden_stride + j] = first[j] + sum_i values[i] *
       weights[indices[i]][j] (with one board, first may be hidden), the terms added one after
       the other: with vectors of LANES floats, 8 * LANES hidden units at a time in registers,
       then 4 * LANES (so that a width like 192 keeps four independent sums going, not one
       that waits on each addition), then LANES, then one by one. Each slice of units is done
       for every board before the next slice, so the rows the boards share are read from L1
       rather than L2 (the weight matrix is larger than L1). One definition for each vector
       width: the same float operations for every unit in each, whatever the number of boards.
       BG_ADD_SLICES(VECTOR, K): the slices of K vectors from `start` while K more fit. */
    #define BG_ADD_SLICES(VECTOR, K)                                                            \
        for (; start + (K) * n <= h; start += (K) * n)                                          \
        for (int b = 0; b < boards; ++b) {                                                      \
            const int* rows = indices + b * input_stride;                                       \
            const float* scale = values + b * input_stride;                                     \
            VECTOR a[K];                                                                        \
            for (int k = 0; k < (K); ++k) a[k] = bg_load(VECTOR, first + start + k * n);        \
            for (int i = 0; i < active[b]; ++i) {                                               \
                const float* row = weights + (long)rows[i] * h + start;                         \
                const float v = scale[i];       /* a scalar times a vector: broadcast */        \
                for (int k = 0; k < (K); ++k) a[k] += v * bg_load(VECTOR, row + k * n);         \
            }                                                                                   \
            float* out = hidden + b * hidden_stride + start;                                    \
            for (int k = 0; k < (K); ++k) bg_store(VECTOR, out + k * n, a[k]);                  \
        }
    #define BG_DEFINE_ADD_ROWS(NAME, ATTRIBUTES, VECTOR, LANES)                                 \
    ATTRIBUTES static void NAME(float* hidden, long hidden_stride, const float* first,          \
                                const float* weights, const int* indices, const float* values,  \
                                long input_stride, const int* active, int boards, int h) {      \
        const int n = (LANES);                                                                  \
        int start = 0;                                                                          \
        BG_ADD_SLICES(VECTOR, 8)                                                                \
        BG_ADD_SLICES(VECTOR, 4)                                                                \
        BG_ADD_SLICES(VECTOR, 1)                                                                \
        for (; start < h; ++start)                                                              \
        for (int b = 0; b < boards; ++b) {                                                      \
            const int* rows = indices + b * input_stride;                                       \
            const float* scale = values + b * input_stride;                                     \
            float sum = first[start];                                                           \
            for (int i = 0; i < active[b]; ++i)                                                 \
                sum += scale[i] * weights[(long)rows[i] * h + start];                           \
            hidden[b * hidden_stride + start] = sum;                                            \
        }                                                                                       \
    }
    BG_DEFINE_ADD_ROWS(bg_add_rows_any, BG_HOT, bg_v8, 8)
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && __GNUC__ >= 12
    /* AVX-512 (picked at run time): 128 units in registers, one pass over the rows */
    typedef float bg_v16 __attribute__((vector_size(64)));
    BG_DEFINE_ADD_ROWS(bg_add_rows_avx512,
                       __attribute__((target("avx512f"), optimize("fp-contract=off"))), bg_v16, 16)
    #define BG_HAS_AVX512() __builtin_cpu_supports("avx512f")
    #else
    #define BG_HAS_AVX512() 0
    #define bg_add_rows_avx512 bg_add_rows_any
    #endif
    /* the hidden sums of a block of boards by the widest vectors the CPU has */
    static void bg_add_rows_block(float* hidden, long hidden_stride, const float* first,
                                  const float* weights, const int* indices, const float* values,
                                  long input_stride, const int* active, int boards, int h) {
        if (BG_HAS_AVX512())
            bg_add_rows_avx512(hidden, hidden_stride, first, weights, indices, values, input_stride,
                               active, boards, h);
        else
            bg_add_rows_any(hidden, hidden_stride, first, weights, indices, values, input_stride,
                            active, boards, h);
    }
    BG_HOT static void bg_axpy(float* y, const float* x, float a, int n) {
        const bg_v8 va = (bg_v8){0, 0, 0, 0, 0, 0, 0, 0} + a;
        int j = 0;
        for (; j + 8 <= n; j += 8) bg_store8(y + j, bg_load8(y + j) + va * bg_load8(x + j));
        for (; j < n; ++j) y[j] += a * x[j];
    }
    /* out[k] = the dot product of row k of a (5 rows of h) with b, each summed as the plain
       loop below sums it (so the same floats), the five in one pass over b */
    BG_HOT static void bg_dot5(const float* a, const float* b, int h, float* out) {
        bg_v8 p0 = {0}, p1 = {0}, p2 = {0}, p3 = {0}, p4 = {0};
        int j = 0;
        for (; j + 8 <= h; j += 8) {
            const bg_v8 x = bg_load8(b + j);
            p0 += bg_load8(a + j) * x;         p1 += bg_load8(a + h + j) * x;
            p2 += bg_load8(a + 2 * h + j) * x; p3 += bg_load8(a + 3 * h + j) * x;
            p4 += bg_load8(a + 4 * h + j) * x;
        }
        out[0] = BG_SUM8(p0); out[1] = BG_SUM8(p1); out[2] = BG_SUM8(p2);
        out[3] = BG_SUM8(p3); out[4] = BG_SUM8(p4);
        for (int k = 0; k < 5; ++k)
            for (int t = j; t < h; ++t) out[k] += a[k * h + t] * b[t];
    }
    #else  /* compilers without GCC vector extensions: the same sums, plain loops */
    static void bg_add_rows_block(float* hidden, long hidden_stride, const float* first,
                                  const float* weights, const int* indices, const float* values,
                                  long input_stride, const int* active, int boards, int h) {
        for (int b = 0; b < boards; ++b) {
            float* out = hidden + b * hidden_stride;
            const int* rows = indices + b * input_stride;
            const float* scale = values + b * input_stride;
            if (out != first) memcpy(out, first, (size_t)h * sizeof(float));
            for (int i = 0; i < active[b]; ++i)
                for (int j = 0; j < h; ++j) out[j] += scale[i] * weights[(long)rows[i] * h + j];
        }
    }
    static void bg_axpy(float* y, const float* x, float a, int n) {
        for (int j = 0; j < n; ++j) y[j] += a * x[j];
    }
    static void bg_dot5(const float* a, const float* b, int h, float* out) {
        for (int k = 0; k < 5; ++k) {
            const float* row = a + k * h;
            float partial[8] = {0, 0, 0, 0, 0, 0, 0, 0};
            int j = 0;
            for (; j + 8 <= h; j += 8)
                for (int l = 0; l < 8; ++l) partial[l] += row[j + l] * b[j + l];
            float total = BG_SUM8(partial);
            for (; j < h; ++j) total += row[j] * b[j];
            out[k] = total;
        }
    }
    #endif
    /* the hidden sums of one board (first may be hidden) */
    static void bg_add_rows(float* hidden, const float* first, const float* weights,
                            const int* indices, const float* values, int active, int h) {
        bg_add_rows_block(hidden, 0, first, weights, indices, values, 0, &active, 1, h);
    }
    /* x[j] = sigmoid(x[j]) by the table (see sigmoid below), reading each step's two ends
       as one pair (pairs[2i], pairs[2i + 1] = table[i], table[i + 1]): the same float
       operations as the scalar function. The clamped ends give the table's end values
       exactly (the fraction is 0 there). With AVX2 eight units at a time, the pairs
       gathered four at a time; else one by one. */
    #define BG_SIGMOID_ONE(x, pairs, half_range, steps, last) do {                 \
            float bg_p_ = ((x) + (half_range)) * (steps);                          \
            bg_p_ = bg_p_ > 0.0f ? bg_p_ : 0.0f;                                   \
            bg_p_ = bg_p_ < (last) ? bg_p_ : (last);                               \
            int bg_i_ = (int)bg_p_;                                                \
            float bg_f_ = bg_p_ - (float)bg_i_;                                    \
            float bg_lo_ = (pairs)[2 * bg_i_], bg_hi_ = (pairs)[2 * bg_i_ + 1];    \
            (x) = bg_lo_ + bg_f_ * (bg_hi_ - bg_lo_);                              \
        } while (0)
    #if defined(__GNUC__) && defined(__x86_64__)
    #include <immintrin.h>
    #if defined(__clang__)
    #define BG_AVX2 __attribute__((target("avx2")))
    #else
    #define BG_AVX2 __attribute__((target("avx2"), optimize("fp-contract=off")))
    #endif
    BG_AVX2 static void bg_sigmoid_pairs_avx2(float* x, int n, const float* pairs,
                                              float half_range, float steps, float last) {
        const __m256 vh = _mm256_set1_ps(half_range), vs = _mm256_set1_ps(steps);
        const __m256 vl = _mm256_set1_ps(last), zero = _mm256_setzero_ps();
        int j = 0;
        for (; j + 8 <= n; j += 8) {
            __m256 p = _mm256_mul_ps(_mm256_add_ps(_mm256_loadu_ps(x + j), vh), vs);
            p = _mm256_min_ps(_mm256_max_ps(p, zero), vl);   /* NaN -> 0, as above */
            __m256i i = _mm256_cvttps_epi32(p);
            __m256 f = _mm256_sub_ps(p, _mm256_cvtepi32_ps(i));
            /* a: lo0 hi0 lo1 hi1 | lo2 hi2 lo3 hi3, b: the same for units 4..7 */
            __m256 a = _mm256_castpd_ps(_mm256_i32gather_pd((const double*)pairs,
                                                            _mm256_castsi256_si128(i), 8));
            __m256 b = _mm256_castpd_ps(_mm256_i32gather_pd((const double*)pairs,
                                                            _mm256_extracti128_si256(i, 1), 8));
            /* lo0 lo1 lo4 lo5 | lo2 lo3 lo6 lo7, then the 64-bit halves in order */
            __m256 lo = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
            __m256 hi = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
            lo = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(lo), _MM_SHUFFLE(3, 1, 2, 0)));
            hi = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(hi), _MM_SHUFFLE(3, 1, 2, 0)));
            _mm256_storeu_ps(x + j, _mm256_add_ps(lo, _mm256_mul_ps(f, _mm256_sub_ps(hi, lo))));
        }
        for (; j < n; ++j) BG_SIGMOID_ONE(x[j], pairs, half_range, steps, last);
    }
    #define BG_HAS_AVX2() __builtin_cpu_supports("avx2")
    #else
    #define BG_HAS_AVX2() 0
    #define bg_sigmoid_pairs_avx2(x, n, pairs, half_range, steps, last) ((void)0)
    #endif
    #if defined(__GNUC__) && !defined(__clang__)
    __attribute__((optimize("fp-contract=off")))
    #endif
    static void bg_sigmoid_pairs(float* x, int n, const float* pairs, float half_range,
                                 float steps, float last) {
        if (BG_HAS_AVX2()) {
            bg_sigmoid_pairs_avx2(x, n, pairs, half_range, steps, last);
            return;
        }
        for (int j = 0; j < n; ++j) BG_SIGMOID_ONE(x[j], pairs, half_range, steps, last);
    }
    """
    void bg_add_rows(float* hidden, const float* first, const float* weights,
                     const int* indices, const float* values, int active, int h) noexcept nogil
    void bg_add_rows_block(float* hidden, long hidden_stride, const float* first,
                           const float* weights, const int* indices, const float* values,
                           long input_stride, const int* active, int boards, int h) noexcept nogil
    void bg_dot5(const float* a, const float* b, int h, float* out) noexcept nogil
    void bg_sigmoid_pairs(float* x, int n, const float* pairs, float half_range, float steps,
                          float last) noexcept nogil
    void bg_axpy(float* y, const float* x, float a, int n) noexcept nogil


cdef void add_scaled(float* y, const float* x, float scale, int n) noexcept nogil:
    bg_axpy(y, x, scale, n)


cdef void forward_raw(const Network* net, const int* indices, const float* values,
                      int active, float* hidden, float* raw5) noexcept nogil:
    bg_add_rows(hidden, net.hidden_bias, net.hidden_weights, indices, values, active,
                net.num_hidden)
    forward_from_sums(net, hidden, raw5)


cdef inline void forward_from_sums(const Network* net, float* hidden, float* raw5) noexcept nogil:
    """The rest of the forward pass once ``hidden`` holds the hidden layer's sums."""
    cdef int k, h = net.num_hidden
    cdef float dots[NUM_OUTPUTS]
    bg_sigmoid_pairs(hidden, h, SIGMOID_PAIRS, SIGMOID_HALF_RANGE, SIGMOID_STEPS, SIGMOID_LAST)
    bg_dot5(net.output_weights, hidden, h, dots)
    for k in range(NUM_OUTPUTS):
        raw5[k] = sigmoid(net.output_bias[k] + dots[k])


cdef void make_consistent(const float* raw5, float* out5) noexcept nogil:
    cdef float win = raw5[OUT_WIN]
    win = 0.0 if win < 0.0 else (1.0 if win > 1.0 else win)
    out5[OUT_WIN] = win
    out5[OUT_WIN_GAMMON] = raw5[OUT_WIN_GAMMON] if raw5[OUT_WIN_GAMMON] < win else win
    out5[OUT_WIN_BACKGAMMON] = (raw5[OUT_WIN_BACKGAMMON]
                                if raw5[OUT_WIN_BACKGAMMON] < out5[OUT_WIN_GAMMON]
                                else out5[OUT_WIN_GAMMON])
    cdef float lose = 1.0 - win
    out5[OUT_LOSE_GAMMON] = raw5[OUT_LOSE_GAMMON] if raw5[OUT_LOSE_GAMMON] < lose else lose
    out5[OUT_LOSE_BACKGAMMON] = (raw5[OUT_LOSE_BACKGAMMON]
                                 if raw5[OUT_LOSE_BACKGAMMON] < out5[OUT_LOSE_GAMMON]
                                 else out5[OUT_LOSE_GAMMON])


cdef inline void clear_impossible_gammons(const checker_t* board, float* out5) noexcept nogil:
    """A side that has borne off a checker can no longer lose a gammon (nor a backgammon): the
    rule, not the network, says so (a checker hit after bearing off leaves such boards in play)."""
    if mover_checkers_on_board(board) < NUM_CHECKERS:
        out5[OUT_LOSE_GAMMON] = 0.0
        out5[OUT_LOSE_BACKGAMMON] = 0.0
    if opponent_checkers_on_board(board) < NUM_CHECKERS:
        out5[OUT_WIN_GAMMON] = 0.0
        out5[OUT_WIN_BACKGAMMON] = 0.0


# Within one search the same mover side comes back board after board (the children of a
# roll differ only in the checkers that moved), and the hidden sums are added in the order
# the units are encoded, the mover's own units first. So a thread that holds its networks
# fixed keeps the sums after the last board's mover-only units and starts the next board
# there when its mover-only units are the same: the same additions in the same order, so
# the same floats, with about half of them skipped.
cdef enum:
    MAX_OWN_UNITS = INPUTS_PER_SIDE  # an upper bound of one side's mover-only units


ctypedef struct SharedSums:             # one per thread (bgcore._scratch), zeroed at first
    int holds                           # hold_networks depth: 0 means nothing is kept
    const Network* net                  # the network the sums are of
    int length                          # leading units they cover (0: none kept)
    int indices[MAX_OWN_UNITS]
    float values[MAX_OWN_UNITS]
    float sums[MAX_HIDDEN]              # bias + those units' rows, added in order


# Without kept sums, boards are evaluated a block at a time: all of a block's boards
# encoded, then their hidden sums added slice of units by slice for the whole block
# (bg_add_rows_block: the rows they share come from L1), then the rest board by board. The
# same additions in the same order as board by board, so the same floats.
cdef enum:
    BLOCK_BOARDS = 32                   # at most this many boards in a block
    BLOCK_SUMS = 4096                   # floats for their hidden sums: 32 boards of 128 units, 8 of 512


ctypedef struct BoardBlock:
    int boards[BLOCK_BOARDS]            # each encoded board's place in the batch
    int active[BLOCK_BOARDS]            # and its non-zero inputs: rows of MAX_ACTIVE_INPUTS
    int indices[BLOCK_BOARDS * MAX_ACTIVE_INPUTS]
    float values[BLOCK_BOARDS * MAX_ACTIVE_INPUTS]
    float sums[BLOCK_SUMS]


ctypedef struct NetScratch:             # one per thread (bgcore._scratch), zeroed at first
    SharedSums shared
    BoardBlock block


cdef bint hold_networks(bint held) noexcept nogil:
    cdef NetScratch* scratch = <NetScratch*>thread_scratch(sizeof(NetScratch))
    if scratch == NULL:
        return False
    scratch.shared.holds += 1 if held else -1
    if scratch.shared.holds <= 0:
        scratch.shared.holds = 0
        scratch.shared.length = 0
    return True


cdef void forward_shared(const Network* net, SharedSums* shared, const int* indices,
                         const float* values, int active, int own_only, float* hidden,
                         float* raw5) noexcept nogil:
    """forward_raw, starting from the kept sums when they cover the same leading units."""
    cdef int h = net.num_hidden
    if (shared.length == own_only and shared.net == net
            and memcmp(shared.indices, indices, own_only * sizeof(int)) == 0
            and memcmp(shared.values, values, own_only * sizeof(float)) == 0):
        bg_add_rows(hidden, shared.sums, net.hidden_weights, indices + own_only,
                    values + own_only, active - own_only, h)
    else:
        bg_add_rows(shared.sums, net.hidden_bias, net.hidden_weights, indices, values,
                    own_only, h)
        shared.net = net
        shared.length = own_only
        memcpy(shared.indices, indices, own_only * sizeof(int))
        memcpy(shared.values, values, own_only * sizeof(float))
        bg_add_rows(hidden, shared.sums, net.hidden_weights, indices + own_only,
                    values + own_only, active - own_only, h)
    forward_from_sums(net, hidden, raw5)


cdef inline void finish_board(const checker_t* board, const float* raw, float* out5) noexcept nogil:
    make_consistent(raw, out5)
    clear_impossible_gammons(board, out5)


cdef void evaluate_in_blocks(const Network* net, const checker_t* boards, int n, float* out5,
                             BoardBlock* block) noexcept nogil:
    """evaluate_boards without kept sums, a block of boards at a time (see BoardBlock)."""
    cdef int h = net.num_hidden, b = 0, count, k, own_only
    cdef int per_block = BLOCK_SUMS // h
    cdef float raw[NUM_OUTPUTS]
    if per_block > BLOCK_BOARDS:
        per_block = BLOCK_BOARDS
    while b < n:
        count = 0
        while b < n and count < per_block:
            if not finished_probabilities(boards + b * NUM_SLOTS, out5 + b * NUM_OUTPUTS):
                block.boards[count] = b
                block.active[count] = encode_split(boards + b * NUM_SLOTS, net.encoding,
                                                   block.indices + count * MAX_ACTIVE_INPUTS,
                                                   block.values + count * MAX_ACTIVE_INPUTS, &own_only)
                count += 1
            b += 1
        bg_add_rows_block(block.sums, h, net.hidden_bias, net.hidden_weights, block.indices,
                          block.values, MAX_ACTIVE_INPUTS, block.active, count, h)
        for k in range(count):
            forward_from_sums(net, block.sums + k * h, raw)
            finish_board(boards + block.boards[k] * NUM_SLOTS, raw, out5 + block.boards[k] * NUM_OUTPUTS)


cdef void evaluate_boards(const Network* net, const checker_t* boards, int n,
                          float* out5) noexcept nogil:
    cdef int b, active, own_only
    cdef int indices[MAX_ACTIVE_INPUTS]
    cdef float values[MAX_ACTIVE_INPUTS]
    cdef float hidden[MAX_HIDDEN]
    cdef float raw[NUM_OUTPUTS]
    cdef NetScratch* scratch = <NetScratch*>thread_scratch(sizeof(NetScratch))
    if scratch != NULL and scratch.shared.holds == 0:
        evaluate_in_blocks(net, boards, n, out5, &scratch.block)
        return
    for b in range(n):
        if finished_probabilities(boards + b * NUM_SLOTS, out5 + b * NUM_OUTPUTS):
            continue
        active = encode_split(boards + b * NUM_SLOTS, net.encoding, indices, values, &own_only)
        if scratch != NULL:
            forward_shared(net, &scratch.shared, indices, values, active, own_only, hidden, raw)
        else:
            forward_raw(net, indices, values, active, hidden, raw)
        finish_board(boards + b * NUM_SLOTS, raw, out5 + b * NUM_OUTPUTS)


# ----- Python boundary ------------------------------------------------------------------

def checked_boards(boards):
    """(n, 26) int8 C-contiguous copy of ``boards``; raises ValueError naming a bad board."""
    array = np.asarray(boards)
    if array.ndim == 1:
        array = array[None, :]
    if array.ndim != 2 or array.shape[1] != NUM_SLOTS:
        raise ValueError(f"boards must have shape (n, {NUM_SLOTS}), got {np.shape(boards)}")
    if array.dtype.kind not in "iu":
        raise ValueError(f"boards must hold integers, got dtype {array.dtype}")
    if array.size and (array.min() < -NUM_CHECKERS or array.max() > NUM_CHECKERS):
        raise ValueError("a board slot holds more than 15 checkers")
    array = np.ascontiguousarray(array, dtype=np.int8)
    cdef const checker_t[:, ::1] view = array
    if view.shape[0]:
        check_boards(&view[0, 0], view.shape[0])
    return array


def checked_encoding(encoding):
    """``encoding`` when it is one the core knows (1, 2 or 3), else ValueError."""
    if isinstance(encoding, bool) or not isinstance(encoding, (int, np.integer)) or not 1 <= encoding <= MAX_ENCODING:
        raise ValueError(f"encoding must be 1, 2 or 3, got {encoding!r}")
    return int(encoding)


def encode(board, encoding=1):
    """The dense input vector (num_inputs(encoding) float32) of one board, player on roll's view."""
    array = checked_boards(board)
    if array.shape[0] != 1:
        raise ValueError("encode takes one board")
    return encode_boards(array, encoding)[0]


def encode_boards(boards, encoding=1):
    """(n, num_inputs(encoding)) float32 dense input vectors of (n, 26) boards."""
    cdef int e = checked_encoding(encoding)
    cdef const checker_t[:, ::1] view = checked_boards(boards)
    cdef int n = view.shape[0], b, i, active
    cdef int indices[MAX_ACTIVE_INPUTS]
    cdef float values[MAX_ACTIVE_INPUTS]
    dense = np.zeros((n, inputs_of(e)), dtype=np.float32)
    cdef float[:, ::1] out = dense
    for b in range(n):
        active = encode_sparse(&view[b, 0], e, indices, values)
        for i in range(active):
            out[b, indices[i]] += values[i]
    return dense


def num_inputs(encoding=1):
    """Length of the input vector of an encoding."""
    return inputs_of(checked_encoding(encoding))


def aligned_float32(array, int alignment=64):
    """A float32 C-contiguous copy of ``array`` starting on a cache line: the forward pass
    reads rows of 32-byte vectors, and a copy 16 bytes off one splits half of those loads
    across two cache lines (where it lands otherwise depends on the allocator)."""
    source = np.asarray(array, dtype=np.float32)
    block = np.empty(source.nbytes + alignment, dtype=np.uint8)
    start = -block.ctypes.data % alignment
    copy = block[start:start + source.nbytes].view(np.float32).reshape(source.shape)
    copy[...] = source
    return copy


def checked_weights(hidden_weights, hidden_bias, output_weights, output_bias, int inputs, int max_hidden):
    """Own float32 C-contiguous copies (cache-line aligned) of a one-hidden-layer network's
    weights, checked: shapes (inputs, h), (h,), (5, h), (5,) with 1 <= h <= max_hidden,
    finite values."""
    hw = aligned_float32(hidden_weights)
    hb = aligned_float32(hidden_bias)
    ow = aligned_float32(output_weights)
    ob = aligned_float32(output_bias)
    if hw.ndim != 2 or hw.shape[0] != inputs or not 1 <= hw.shape[1] <= max_hidden:
        raise ValueError(f"hidden_weights must have shape ({inputs}, 1..{max_hidden}), got {hw.shape}")
    h = hw.shape[1]
    if hb.shape != (h,) or ow.shape != (NUM_OUTPUTS, h) or ob.shape != (NUM_OUTPUTS,):
        raise ValueError(f"bias/output shapes must be ({h},), (5, {h}), (5,); got "
                         f"{hb.shape}, {ow.shape}, {ob.shape}")
    for name, array in (("hidden_weights", hw), ("hidden_bias", hb),
                        ("output_weights", ow), ("output_bias", ob)):
        if not np.all(np.isfinite(array)):
            raise ValueError(f"{name} holds non-finite values")
    return hw, hb, ow, ob


cdef class NeuralNet:
    """A one-hidden-layer evaluator network; holds its float32 weight arrays.

    ``hidden_weights`` has shape (num_inputs(encoding), hidden), ``hidden_bias`` (hidden,),
    ``output_weights`` (5, hidden), ``output_bias`` (5,). ``encoding`` (1, 2 or 3) is the input
    encoding the network takes; None: the one whose length is the weights' row count.
    Training updates the arrays in place.
    """

    def __init__(self, hidden_weights, hidden_bias, output_weights, output_bias, encoding=None):
        if encoding is None:
            rows = np.shape(hidden_weights)[0] if np.ndim(hidden_weights) == 2 else -1
            encoding = 3 if rows == NUM_INPUTS_3 else (2 if rows == NUM_INPUTS_2 else 1)
        cdef int e = checked_encoding(encoding)
        hw, hb, ow, ob = checked_weights(hidden_weights, hidden_bias, output_weights, output_bias,
                                         inputs_of(e), MAX_HIDDEN)
        self.hidden_weights, self.hidden_bias = hw, hb
        self.output_weights, self.output_bias = ow, ob
        cdef float[:, ::1] hw_view = hw
        cdef float[::1] hb_view = hb
        cdef float[:, ::1] ow_view = ow
        cdef float[::1] ob_view = ob
        self.net.encoding = e
        self.net.num_inputs = inputs_of(e)
        self.net.num_hidden = hw.shape[1]
        self.net.hidden_weights = &hw_view[0, 0]
        self.net.hidden_bias = &hb_view[0]
        self.net.output_weights = &ow_view[0, 0]
        self.net.output_bias = &ob_view[0]

    @classmethod
    def random(cls, int num_hidden, seed, float scale=0.1, encoding=1):
        """Fresh weights, uniform in [-scale, scale], from ``seed``."""
        rng = np.random.default_rng(seed)
        return cls(rng.uniform(-scale, scale, (num_inputs(encoding), num_hidden)),
                   rng.uniform(-scale, scale, num_hidden),
                   rng.uniform(-scale, scale, (NUM_OUTPUTS, num_hidden)),
                   rng.uniform(-scale, scale, NUM_OUTPUTS), encoding)

    def __reduce__(self):
        return (NeuralNet, (self.hidden_weights, self.hidden_bias, self.output_weights,
                            self.output_bias, self.net.encoding))

    @property
    def num_hidden(self):
        return self.net.num_hidden

    @property
    def encoding(self):
        """The input encoding the network takes (1, 2 or 3)."""
        return self.net.encoding

    @property
    def num_inputs(self):
        """Length of its input vector (the rows of ``hidden_weights``)."""
        return self.net.num_inputs

    def arrays(self):
        """The four weight arrays (views, not copies)."""
        return {"hidden_weights": self.hidden_weights, "hidden_bias": self.hidden_bias,
                "output_weights": self.output_weights, "output_bias": self.output_bias}

    def evaluate(self, boards):
        """(n, 5) float32 consistent probabilities of (n, 26) boards, player on roll's view."""
        return self.evaluate_trusted(checked_boards(boards))

    def evaluate_trusted(self, const checker_t[:, ::1] boards):
        """Like ``evaluate`` for boards the core produced (no checks beyond the shape)."""
        cdef int n = boards.shape[0]
        if boards.shape[1] != NUM_SLOTS:
            raise ValueError(f"boards must have shape (n, {NUM_SLOTS})")
        out = np.empty((n, NUM_OUTPUTS), dtype=np.float32)
        if n == 0:
            return out
        cdef float[:, ::1] out_view = out
        with nogil:
            evaluate_boards(&self.net, &boards[0, 0], n, &out_view[0, 0])
        return out

    def raw_outputs(self, boards):
        """(n, 5) sigmoid outputs before the consistency clamp (finished games not special)."""
        array = checked_boards(boards)
        cdef const checker_t[:, ::1] view = array
        cdef int n = view.shape[0], b, active
        cdef int indices[MAX_ACTIVE_INPUTS]
        cdef float values[MAX_ACTIVE_INPUTS]
        cdef float hidden[MAX_HIDDEN]
        out = np.empty((n, NUM_OUTPUTS), dtype=np.float32)
        cdef float[:, ::1] out_view = out
        for b in range(n):
            active = encode_sparse(&view[b, 0], self.net.encoding, indices, values)
            forward_raw(&self.net, indices, values, active, hidden, &out_view[b, 0])
        return out

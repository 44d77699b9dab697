# cython: language_level=3
"""Legal move generation: every distinct child of (position, roll), sides switched.

The generator keeps its working board already flipped (in the child's orientation), so a
finished play is copied out as is. Rules are decided on two bit masks in the mover's
numbering: the points holding the mover's checkers (bit 25 = bar) and the points blocked
by two or more opposing checkers (fixed for the whole turn, since the mover can only
remove opposing blots). Doubles are played with non-increasing source points, which
reaches every legal play exactly once and never produces a duplicate child (the source
multiset is recoverable from the child); other rolls try both dice orders and drop
duplicate children with a hash check confirmed by memcmp.
"""

from libc.string cimport memcpy, memcmp, memset
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, realloc, free

cimport numpy as cnp
import numpy as np

from bgcore._types cimport checker_t, NUM_SLOTS, NUM_CHECKERS, MOVER_BAR
from bgcore._board cimport board_problem_code
from bgcore._board import board_problem

cnp.import_array()

cdef extern from *:
    """
    static inline int bgcore_highest_bit(unsigned int x) { return 31 - __builtin_clz(x); }
    """
    int highest_bit "bgcore_highest_bit"(unsigned int x) noexcept nogil

cdef enum:
    BAR_BIT = 1 << MOVER_BAR
    OUTSIDE_HOME = ((1 << 26) - 1) & ~((1 << 7) - 1)   # points 7..24 and the bar
    DEDUPE_ROOM = 256                                   # >= 255 children of a non-double
    TABLE_SIZE = 512                                    # open-addressing slots, load <= 1/2
    TABLE_SHIFT = 64 - 9                                # top 9 bits of a hash pick a slot


cdef uint64_t SLOT_KEYS[NUM_SLOTS]   # random odd multipliers of the linear board hash


cdef void fill_slot_keys() noexcept nogil:
    """SplitMix64 outputs: a fixed pseudo-random key per slot."""
    cdef uint64_t state = 0x5DEECE66D, z
    cdef int i
    for i in range(NUM_SLOTS):
        state += 0x9E3779B97F4A7C15ULL
        z = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9ULL
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
        SLOT_KEYS[i] = (z ^ (z >> 31)) | 1


fill_slot_keys()


ctypedef struct Generator:
    checker_t work[NUM_SLOTS]       # the position being played, sides already switched
    uint64_t hash                   # sum of SLOT_KEYS[i] * work[i]: kept up to date per step
    unsigned int mine               # bit p: the mover has a checker on p (25 = bar)
    unsigned int blocked            # bit p: 2+ opposing checkers on p (mover's numbering)
    checker_t path[MOVE_SLOTS]      # steps of the play in progress
    checker_t* children
    checker_t* moves                # NULL when the caller wants no move records
    int max_children
    int count
    int best_steps                  # dice played by the recorded children
    bint overflow
    bint dedupe
    uint64_t hashes[DEDUPE_ROOM]    # hash of each recorded child (non-doubles only)
    unsigned short table[TABLE_SIZE]  # child index + 1 by hash slot, 0 when free


cdef inline int mover_slot(int point) noexcept nogil:
    """Index in the flipped working board of the mover's `point`."""
    return NUM_SLOTS - 1 - point


cdef void start(Generator* g, const checker_t* board, checker_t* children,
                checker_t* moves, int max_children) noexcept nogil:
    cdef int p
    g.mine = 0
    g.blocked = 0
    g.hash = 0
    for p in range(NUM_SLOTS):
        g.work[mover_slot(p)] = -board[p]
        g.hash -= SLOT_KEYS[mover_slot(p)] * <uint64_t>(<int>board[p])
        if board[p] > 0:
            g.mine |= 1u << p
        elif board[p] <= -2 and p != 0:
            g.blocked |= 1u << p
    memset(g.path, 0, MOVE_SLOTS)
    g.children = children
    g.moves = moves
    g.max_children = max_children
    g.count = 0
    g.best_steps = 0
    g.overflow = False
    g.dedupe = False


cdef inline unsigned int playable_sources(const Generator* g, int die) noexcept nogil:
    """Bit mask of the points from which one checker may legally play `die` right now."""
    cdef unsigned int sources, above_die
    if g.mine & BAR_BIT:
        return 0 if (g.blocked >> (MOVER_BAR - die)) & 1 else BAR_BIT
    above_die = ~((2u << die) - 1)
    sources = g.mine & ~(g.blocked << die) & above_die
    if g.mine and not (g.mine & OUTSIDE_HOME):
        if (g.mine >> die) & 1:
            sources |= 1u << die
        elif not (g.mine & above_die):
            sources |= 1u << highest_bit(g.mine)
    return sources


cdef inline bint apply_step(Generator* g, int source, int die) noexcept nogil:
    """Move one checker `die` pips from `source`; returns whether it hit a blot."""
    cdef int target = source - die
    cdef bint hit = False
    g.work[mover_slot(source)] += 1
    g.hash += SLOT_KEYS[mover_slot(source)]
    if g.work[mover_slot(source)] == 0:
        g.mine &= ~(1u << source)
    if target >= 1:
        if g.work[mover_slot(target)] == 1:
            hit = True
            g.work[mover_slot(target)] = -1
            g.work[NUM_SLOTS - 1] += 1          # the blot goes to its owner's bar
            g.hash += SLOT_KEYS[NUM_SLOTS - 1] - 2 * SLOT_KEYS[mover_slot(target)]
        else:
            g.work[mover_slot(target)] -= 1
            g.hash -= SLOT_KEYS[mover_slot(target)]
        g.mine |= 1u << target
    return hit


cdef inline void undo_step(Generator* g, int source, int die, bint hit) noexcept nogil:
    cdef int target = source - die
    if target >= 1:
        if hit:
            g.work[mover_slot(target)] = 1
            g.work[NUM_SLOTS - 1] -= 1
            g.hash -= SLOT_KEYS[NUM_SLOTS - 1] - 2 * SLOT_KEYS[mover_slot(target)]
        else:
            g.work[mover_slot(target)] += 1
            g.hash += SLOT_KEYS[mover_slot(target)]
        if g.work[mover_slot(target)] >= 0:
            g.mine &= ~(1u << target)
    g.work[mover_slot(source)] -= 1
    g.hash -= SLOT_KEYS[mover_slot(source)]
    g.mine |= 1u << source


cdef inline void note_step(Generator* g, int index, int source, int die, bint hit) noexcept nogil:
    cdef checker_t* step = g.path + index * STEP_FIELDS
    step[0] = source
    step[1] = source - die if source > die else 0
    step[2] = hit


cdef inline void forget_step(Generator* g, int index) noexcept nogil:
    cdef checker_t* step = g.path + index * STEP_FIELDS
    step[0] = 0
    step[1] = 0
    step[2] = 0


cdef void record(Generator* g, int steps) noexcept nogil:
    """Keep the current play if it uses the most dice so far (restarting when it uses more)."""
    cdef int i
    cdef unsigned int slot
    cdef uint64_t h
    cdef checker_t* child
    if steps < g.best_steps:
        return
    if steps > g.best_steps:
        g.best_steps = steps
        g.count = 0
        if g.dedupe:
            memset(g.table, 0, sizeof(g.table))
    if g.count >= g.max_children or (g.dedupe and g.count >= DEDUPE_ROOM):
        g.overflow = True
        return
    if g.dedupe:
        h = g.hash
        slot = (h * 0x9E3779B97F4A7C15ULL) >> TABLE_SHIFT
        while g.table[slot]:
            i = g.table[slot] - 1
            if g.hashes[i] == h and memcmp(g.children + i * NUM_SLOTS, g.work, NUM_SLOTS) == 0:
                return                  # the same child by another order of the dice
            slot = (slot + 1) & (TABLE_SIZE - 1)
        g.table[slot] = g.count + 1
        g.hashes[g.count] = h
    child = g.children + g.count * NUM_SLOTS
    memcpy(child, g.work, NUM_SLOTS)
    if g.moves != NULL:
        memcpy(g.moves + g.count * MOVE_SLOTS, g.path, MOVE_SLOTS)
    g.count += 1


cdef void play_doubles(Generator* g, int die, int depth, int max_source) noexcept nogil:
    """Every play of the remaining steps of a double, sources never above `max_source`."""
    cdef unsigned int sources
    cdef int source
    cdef bint hit
    if depth == MAX_STEPS:
        record(g, depth)
        return
    sources = playable_sources(g, die) & ((2u << max_source) - 1)
    if not sources:
        record(g, depth)
        return
    while sources:
        source = highest_bit(sources)
        sources &= ~(1u << source)
        hit = apply_step(g, source, die)
        note_step(g, depth, source, die, hit)
        play_doubles(g, die, depth + 1, source)
        forget_step(g, depth)
        undo_step(g, source, die, hit)


cdef void play_two_dice(Generator* g, int larger, int smaller) noexcept nogil:
    """Both orders of two different dice; a lone die only when no play uses both."""
    cdef int order, first, second, source1, source2
    cdef unsigned int sources1, sources2
    cdef bint hit1, hit2, larger_alone = False
    g.dedupe = True
    memset(g.table, 0, sizeof(g.table))
    for order in range(2):
        first = larger if order == 0 else smaller
        second = smaller if order == 0 else larger
        sources1 = playable_sources(g, first)
        while sources1:
            source1 = highest_bit(sources1)
            sources1 &= ~(1u << source1)
            hit1 = apply_step(g, source1, first)
            note_step(g, 0, source1, first, hit1)
            sources2 = playable_sources(g, second)
            if not sources2 and (order == 0 or not larger_alone):
                record(g, 1)            # the smaller die alone only if the larger cannot go
                larger_alone = order == 0
            while sources2:
                source2 = highest_bit(sources2)
                sources2 &= ~(1u << source2)
                hit2 = apply_step(g, source2, second)
                note_step(g, 1, source2, second, hit2)
                record(g, 2)
                forget_step(g, 1)
                undo_step(g, source2, second, hit2)
            forget_step(g, 0)
            undo_step(g, source1, first, hit1)


cdef int generate(const checker_t* board, int die1, int die2, checker_t* children,
                  checker_t* moves, int max_children) noexcept nogil:
    cdef Generator g
    if die1 < 1 or die1 > 6 or die2 < 1 or die2 > 6 or max_children < 1:
        return -1
    start(&g, board, children, moves, max_children)
    if die1 == die2:
        play_doubles(&g, die1, 0, MOVER_BAR)
    else:
        play_two_dice(&g, die1 if die1 > die2 else die2, die2 if die1 > die2 else die1)
    if g.count == 0:
        record(&g, 0)                   # nothing legal: the turn passes
    return -1 if g.overflow else g.count


cdef int legal_children(const checker_t* board, int die1, int die2,
                        checker_t* children, int max_children) noexcept nogil:
    return generate(board, die1, die2, children, NULL, max_children)


cdef int legal_children_with_moves(const checker_t* board, int die1, int die2,
                                   checker_t* children, checker_t* moves,
                                   int max_children) noexcept nogil:
    return generate(board, die1, die2, children, moves, max_children)


# ----- Python boundary ------------------------------------------------------------------

class BoardInputError(ValueError):
    """A board given to the move generator is not a possible position."""


class DiceInputError(ValueError):
    """A roll given to the move generator is not two dice 1..6."""


cdef checker_t single_children[MAX_CHILDREN * NUM_SLOTS]
cdef checker_t single_moves[MAX_CHILDREN * MOVE_SLOTS]


cdef inline bint slots_in_range(const checker_t* board) noexcept nogil:
    cdef int i
    for i in range(NUM_SLOTS):
        if board[i] < -NUM_CHECKERS or board[i] > NUM_CHECKERS:
            return False
    return True


def children_and_moves(bytes board, int die1, int die2):
    """(children, moves) as bytes: 26 int8 slots per child (next player's view) and
    MOVE_SLOTS int8 per child (from, to, hit steps). Checks the board and dice first."""
    if len(board) != NUM_SLOTS:
        raise BoardInputError(f"a board has {NUM_SLOTS} slots, got {len(board)}")
    cdef const checker_t* b = <const checker_t*><const char*>board
    if not slots_in_range(b) or board_problem_code(b) != 0:
        raise BoardInputError(board_problem(board))
    if die1 < 1 or die1 > 6 or die2 < 1 or die2 > 6:
        raise DiceInputError(f"dice are 1..6, got {die1} and {die2}")
    # The GIL is held throughout, so the module's buffers are never shared.
    cdef int count = generate(b, die1, die2, single_children, single_moves, MAX_CHILDREN)
    if count < 0:
        raise RuntimeError("more children than MAX_CHILDREN: the bound in _movegen.pxd is wrong")
    return ((<char*>single_children)[:count * NUM_SLOTS],
            (<char*>single_moves)[:count * MOVE_SLOTS])


def _as_int8_rows(values, int width, str what, int low, int high, error):
    """A C-contiguous int8 (N, width) copy of `values`, refusing shapes and out-of-range values."""
    array = np.asarray(values)
    if array.ndim != 2 or array.shape[1] != width:
        raise error(f"{what} must have shape (N, {width}), got {array.shape}")
    if array.dtype.kind not in "iu":
        raise error(f"{what} must be integers, got dtype {array.dtype}")
    if array.size and (array.min() < low or array.max() > high):
        row = int(np.argmax(((array < low) | (array > high)).any(axis=1)))
        raise error(f"{what} row {row} has a value outside {low}..{high}: {array[row].tolist()}")
    return np.ascontiguousarray(array, dtype=np.int8)


def legal_children_batch(boards, dice, bint with_moves=False):
    """All distinct children of many (board, roll) pairs in one call.

    boards: (N, 26) integers, each a valid position from its player on roll; dice: (N, 2)
    integers 1..6. Returns (children (M, 26) int8 seen from the next player, offsets
    (N + 1,) int64 so that pair i's children are children[offsets[i]:offsets[i + 1]]), and
    the (M, MOVE_SLOTS) int8 move records as a third array when `with_moves`.
    """
    cdef cnp.ndarray board_rows = _as_int8_rows(boards, NUM_SLOTS, "boards",
                                                -NUM_CHECKERS, NUM_CHECKERS, BoardInputError)
    cdef cnp.ndarray dice_rows = _as_int8_rows(dice, 2, "dice", 1, 6, DiceInputError)
    cdef Py_ssize_t n = board_rows.shape[0], i
    if dice_rows.shape[0] != n:
        raise DiceInputError(f"{n} boards but {dice_rows.shape[0]} rolls")
    cdef const checker_t* b = <const checker_t*>cnp.PyArray_DATA(board_rows)
    cdef const checker_t* d = <const checker_t*>cnp.PyArray_DATA(dice_rows)
    for i in range(n):
        if board_problem_code(b + i * NUM_SLOTS) != 0:
            raise BoardInputError(f"boards row {i}: {board_problem(bytes(board_rows[i]))}")
    offsets = np.empty(n + 1, dtype=np.int64)
    cdef cnp.int64_t[::1] offset_view = offsets
    cdef Py_ssize_t capacity = max(n * 32, <Py_ssize_t>MAX_CHILDREN), used = 0
    cdef checker_t* children = <checker_t*>malloc(capacity * NUM_SLOTS)
    cdef checker_t* moves = <checker_t*>malloc(capacity * MOVE_SLOTS) if with_moves else NULL
    cdef checker_t* grown
    cdef int count = 0
    cdef bint out_of_memory = children == NULL or (with_moves and moves == NULL)
    with nogil:
        offset_view[0] = 0
        for i in range(n):
            if out_of_memory:
                break
            if capacity - used < MAX_CHILDREN:
                capacity *= 2
                grown = <checker_t*>realloc(children, capacity * NUM_SLOTS)
                out_of_memory = grown == NULL
                if not out_of_memory:
                    children = grown
                if with_moves and not out_of_memory:
                    grown = <checker_t*>realloc(moves, capacity * MOVE_SLOTS)
                    out_of_memory = grown == NULL
                    if not out_of_memory:
                        moves = grown
                if out_of_memory:
                    break
            count = generate(b + i * NUM_SLOTS, d[2 * i], d[2 * i + 1],
                             children + used * NUM_SLOTS,
                             moves + used * MOVE_SLOTS if with_moves else NULL,
                             MAX_CHILDREN)
            if count < 0:               # cannot happen below MAX_CHILDREN; never hide it
                break
            used += count
            offset_view[i + 1] = used
    try:
        if out_of_memory:
            raise MemoryError("no memory for the children of the batch")
        if count < 0:
            raise RuntimeError("more children than MAX_CHILDREN: the bound in _movegen.pxd is wrong")
        child_array = np.empty((used, NUM_SLOTS), dtype=np.int8)
        if used:
            memcpy(cnp.PyArray_DATA(child_array), children, used * NUM_SLOTS)
        if not with_moves:
            return child_array, offsets
        move_array = np.empty((used, MOVE_SLOTS), dtype=np.int8)
        if used:
            memcpy(cnp.PyArray_DATA(move_array), moves, used * MOVE_SLOTS)
        return child_array, offsets, move_array
    finally:
        free(children)
        free(moves)


MAX_CHILDREN_PER_ROLL = MAX_CHILDREN
MOVE_RECORD_SLOTS = MOVE_SLOTS

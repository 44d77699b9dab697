# cython: language_level=3
"""Legal move generation: every distinct child of (position, roll), sides switched.

The generator keeps its working board already flipped (in the child's orientation), so a
finished play is copied out as is. Rules are decided on two bit masks in the mover's
numbering: the points holding the mover's checkers (bit 25 = bar) and the points blocked
by two or more opposing checkers (fixed for the whole turn, since the mover can only
remove opposing blots). Doubles are played with non-increasing source points, which
reaches every legal play exactly once and never produces a duplicate child (the source
multiset is recoverable from the child). Other rolls play the larger die first, then the
smaller: while nothing is on the bar and two or more checkers are outside the home board
the plays that would repeat a child are known from the masks and skipped (see
play_two_dice); otherwise duplicates are dropped through a hash table confirmed by memcmp.
"""

from libc.string cimport memcpy, memcmp, memset
from libc.stdint cimport uint64_t

cimport numpy as cnp
import numpy as np

from bgcore._types cimport checker_t, NUM_SLOTS, NUM_CHECKERS, MOVER_BAR
from bgcore._board cimport board_problem_code, check_boards
from bgcore._board import board_problem
from bgcore._scratch cimport thread_scratch

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
    uint64_t hash                   # sum of SLOT_KEYS[i] * work[i], kept per step once deduping
    unsigned int mine               # bit p: the mover has a checker on p (25 = bar)
    unsigned int blocked            # bit p: 2+ opposing checkers on p (mover's numbering)
    unsigned int blots              # bit p: one opposing checker on p at the start of the turn
    unsigned int start_mine         # `mine` at the start of the turn
    int outside                     # mover checkers on points 7..24 at the start
    checker_t path[MOVE_SLOTS]      # steps of the play in progress
    checker_t* children
    checker_t* moves                # NULL when the caller wants no move records
    int max_children
    int count
    int best_steps                  # dice played by the recorded children
    bint overflow
    bint dedupe                     # look each child up in the hash table before keeping it
    bint larger_alone               # a play of the larger die alone has been kept
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
    g.blots = 0
    g.outside = 0
    g.hash = 0                      # set by start_dedupe when a roll needs it
    for p in range(NUM_SLOTS):
        g.work[mover_slot(p)] = -board[p]
        if board[p] > 0:
            g.mine |= 1u << p
            if 7 <= p <= 24:
                g.outside += board[p]
        elif p != 0 and board[p] <= -2:
            g.blocked |= 1u << p
        elif p != 0 and board[p] == -1:
            g.blots |= 1u << p
    g.start_mine = g.mine
    memset(g.path, 0, MOVE_SLOTS)
    g.children = children
    g.moves = moves
    g.max_children = max_children
    g.count = 0
    g.best_steps = 0
    g.overflow = False
    g.dedupe = False
    g.larger_alone = False


cdef void start_dedupe(Generator* g) noexcept nogil:
    """Look children up in the (emptied) hash table from now on; hash the working board."""
    cdef int i
    g.dedupe = True
    memset(g.table, 0, sizeof(g.table))
    g.hash = 0
    for i in range(NUM_SLOTS):
        g.hash += SLOT_KEYS[i] * <uint64_t>(<int>g.work[i])


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


cdef inline bint claim_slot(Generator* g, int steps) noexcept nogil:
    """Whether a play of `steps` dice is kept (restarting the list when it uses more dice)."""
    if steps < g.best_steps:
        return False
    if steps > g.best_steps:
        g.best_steps = steps
        g.count = 0
        if g.dedupe:
            memset(g.table, 0, sizeof(g.table))
    if g.count >= g.max_children or (g.dedupe and g.count >= DEDUPE_ROOM):
        g.overflow = True
        return False
    return True


cdef inline bint is_new_child(Generator* g, const checker_t* child, uint64_t h) noexcept nogil:
    """Look `child` (hash `h`) up among the children so far, adding it when new."""
    cdef unsigned int slot = (h * 0x9E3779B97F4A7C15ULL) >> TABLE_SHIFT
    cdef int i
    while g.table[slot]:
        i = g.table[slot] - 1
        if g.hashes[i] == h and memcmp(g.children + i * NUM_SLOTS, child, NUM_SLOTS) == 0:
            return False                # the same child by another order of the dice
        slot = (slot + 1) & (TABLE_SIZE - 1)
    g.table[slot] = g.count + 1
    g.hashes[g.count] = h
    return True


cdef inline void keep_moves(Generator* g) noexcept nogil:
    if g.moves != NULL:
        memcpy(g.moves + g.count * MOVE_SLOTS, g.path, MOVE_SLOTS)


cdef void record(Generator* g, int steps) noexcept nogil:
    """Keep the working position, reached with `steps` dice."""
    cdef checker_t* child
    if not claim_slot(g, steps):
        return
    child = g.children + g.count * NUM_SLOTS
    memcpy(child, g.work, NUM_SLOTS)
    if g.dedupe and not is_new_child(g, child, g.hash):
        return
    keep_moves(g)
    g.count += 1


cdef void record_with_step(Generator* g, int steps, int source, int die) noexcept nogil:
    """Keep the working position plus one last step, written straight into the output."""
    cdef int target = source - die
    cdef bint hit = target >= 1 and g.work[mover_slot(target)] == 1
    cdef uint64_t h = g.hash + SLOT_KEYS[mover_slot(source)]
    cdef checker_t* child
    if not claim_slot(g, steps):
        return
    child = g.children + g.count * NUM_SLOTS
    memcpy(child, g.work, NUM_SLOTS)
    child[mover_slot(source)] += 1
    if target >= 1:
        if hit:
            child[mover_slot(target)] = -1
            child[NUM_SLOTS - 1] += 1
            h += SLOT_KEYS[NUM_SLOTS - 1] - 2 * SLOT_KEYS[mover_slot(target)]
        else:
            child[mover_slot(target)] -= 1
            h -= SLOT_KEYS[mover_slot(target)]
    if g.dedupe and not is_new_child(g, child, h):
        return
    if g.moves != NULL:
        note_step(g, steps - 1, source, die, hit)
        keep_moves(g)
        forget_step(g, steps - 1)
    g.count += 1


cdef void play_doubles(Generator* g, int die, int depth, int max_source) noexcept nogil:
    """Every play of the remaining steps of a double, sources never above `max_source`."""
    cdef unsigned int sources = playable_sources(g, die) & ((2u << max_source) - 1)
    cdef int source
    cdef bint hit
    if not sources:
        record(g, depth)
        return
    while sources:
        source = highest_bit(sources)
        sources &= ~(1u << source)
        if depth == MAX_STEPS - 1:
            record_with_step(g, MAX_STEPS, source, die)
            continue
        hit = apply_step(g, source, die)
        note_step(g, depth, source, die, hit)
        play_doubles(g, die, depth + 1, source)
        forget_step(g, depth)
        undo_step(g, source, die, hit)


cdef inline bint same_as_chain_through(const Generator* g, int point) noexcept nogil:
    """Whether one checker passing through `point` (open, no blot) gives the same child."""
    return not ((g.blocked | g.blots) >> point) & 1


cdef void play_dice_in_order(Generator* g, int first, int second, bint first_is_larger,
                             bint fast) noexcept nogil:
    """Every play of `first` then `second`; a lone die when nothing can follow it.

    With `fast` (larger die first, see play_two_dice) a play whose second checker lands on
    the first one's starting point X - second is left out when X - first is open and no
    blot: the chain X/X-first/X-first-second gives the same child.
    """
    cdef unsigned int sources1 = playable_sources(g, first), sources2
    cdef int source1, source2
    cdef bint hit1
    while sources1:
        source1 = highest_bit(sources1)
        sources1 &= ~(1u << source1)
        hit1 = apply_step(g, source1, first)
        note_step(g, 0, source1, first, hit1)
        sources2 = playable_sources(g, second)
        if not sources2 and (first_is_larger or not g.larger_alone):
            record(g, 1)                # the smaller die alone only if the larger cannot go
            g.larger_alone = g.larger_alone or first_is_larger
        if fast and source1 + second <= MOVER_BAR - 1:
            if same_as_chain_through(g, source1 + second - first):
                sources2 &= ~(1u << (source1 + second))
        while sources2:
            source2 = highest_bit(sources2)
            sources2 &= ~(1u << source2)
            record_with_step(g, 2, source2, second)
        forget_step(g, 0)
        undo_step(g, source1, first, hit1)


cdef void play_chains_smaller_first(Generator* g, int larger, int smaller) noexcept nogil:
    """The plays of the smaller die first not already found larger-first (see play_two_dice)."""
    cdef unsigned int sources = playable_sources(g, smaller)
    cdef int source, landing, target
    cdef bint hit
    while sources:
        source = highest_bit(sources)
        sources &= ~(1u << source)
        landing = source - smaller
        target = landing - larger
        if (g.start_mine >> landing) & 1 or target < 1 or (g.blocked >> target) & 1:
            continue                    # found larger-first, or no chain
        if same_as_chain_through(g, source - larger) and not (g.blots >> landing) & 1:
            continue                    # the same child as the chain through source - larger
        hit = apply_step(g, source, smaller)
        note_step(g, 0, source, smaller, hit)
        record_with_step(g, 2, landing, larger)
        forget_step(g, 0)
        undo_step(g, source, smaller, hit)


cdef void play_two_dice(Generator* g, int larger, int smaller) noexcept nogil:
    """Both orders of two different dice; a lone die only when no play uses both.

    Fast case: no checker on the bar and two or more outside the home board, so nothing
    can be borne off this turn and a step is legal exactly when its source holds a checker
    and its landing point is open. Then a play of the smaller die first is the same as the
    larger first unless one checker runs both dice through a point that was empty of the
    mover's checkers, and the duplicates left (a checker's two paths) are recognised from
    the blocked and blot masks, so no hashing is needed. Otherwise children are deduplicated
    through the hash table.
    """
    cdef bint fast = not (g.mine & BAR_BIT) and g.outside >= 2
    if not fast:
        start_dedupe(g)
    play_dice_in_order(g, larger, smaller, True, fast)
    if fast and g.best_steps == 2:
        play_chains_smaller_first(g, larger, smaller)
        return
    if fast:                            # no play of both dice larger-first: search in full
        start_dedupe(g)
    play_dice_in_order(g, smaller, larger, False, False)


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


ctypedef struct SingleRollScratch:    # one per thread (bgcore._scratch)
    checker_t children[MAX_CHILDREN * NUM_SLOTS]
    checker_t moves[MAX_CHILDREN * MOVE_SLOTS]


def children_and_moves(bytes board, int die1, int die2):
    """(children, moves) as bytes: 26 int8 slots per child (next player's view) and
    MOVE_SLOTS int8 per child (from, to, hit steps). Checks the board and dice first."""
    if len(board) != NUM_SLOTS:
        raise BoardInputError(f"a board has {NUM_SLOTS} slots, got {len(board)}")
    cdef const checker_t* b = <const checker_t*><const char*>board
    if board_problem_code(b) != 0:
        raise BoardInputError(board_problem(board))
    if die1 < 1 or die1 > 6 or die2 < 1 or die2 > 6:
        raise DiceInputError(f"dice are 1..6, got {die1} and {die2}")
    # Each thread generates into its own scratch memory, so threads may call this at once.
    cdef SingleRollScratch* scratch = <SingleRollScratch*>thread_scratch(sizeof(SingleRollScratch))
    if scratch == NULL:
        raise MemoryError("no memory for move generation")
    cdef int count
    with nogil:
        count = generate(b, die1, die2, scratch.children, scratch.moves, MAX_CHILDREN)
    if count < 0:
        raise RuntimeError("more children than MAX_CHILDREN: the bound in _movegen.pxd is wrong")
    return ((<char*>scratch.children)[:count * NUM_SLOTS],
            (<char*>scratch.moves)[:count * MOVE_SLOTS])


def _as_int8_rows(values, int width, str what, int low, int high, error):
    """A private C-contiguous int8 (N, width) copy of `values`, refusing bad shapes and
    dtypes; values of wider integer types are range-checked here before narrowing, int8
    values are checked row by row by the caller."""
    array = np.asarray(values)
    if array.ndim != 2 or array.shape[1] != width:
        raise error(f"{what} must have shape (N, {width}), got {array.shape}")
    if array.dtype.kind not in "iu":
        raise error(f"{what} must be integers, got dtype {array.dtype}")
    if array.dtype != np.int8 and array.size and (array.min() < low or array.max() > high):
        raise error(_range_problem(array, what, low, high))
    # Always a private copy: the caller's array could change while the GIL is released.
    return np.array(array, dtype=np.int8, order="C", copy=True)


def _range_problem(array, str what, int low, int high):
    row = int(np.argmax(((array < low) | (array > high)).any(axis=1)))
    return f"{what} row {row} has a value outside {low}..{high}: {array[row].tolist()}"


def _grown(array, Py_ssize_t used, Py_ssize_t capacity):
    """A larger copy of an output array whose first `used` rows are filled."""
    bigger = np.empty((capacity, array.shape[1]), dtype=np.int8)
    bigger[:used] = array[:used]
    return bigger


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
        if board_problem_code(b + i * NUM_SLOTS) != 0:   # raises, naming row i
            check_boards(b, i + 1, BoardInputError, "boards row")
        if d[2 * i] < 1 or d[2 * i] > 6 or d[2 * i + 1] < 1 or d[2 * i + 1] > 6:
            raise DiceInputError(_range_problem(dice_rows, "dice", 1, 6))
    offsets = np.empty(n + 1, dtype=np.int64)
    cdef cnp.int64_t[::1] offset_view = offsets
    cdef Py_ssize_t capacity = n * 24 + MAX_CHILDREN, used = 0
    child_array = np.empty((capacity, NUM_SLOTS), dtype=np.int8)
    move_array = np.empty((capacity if with_moves else 0, MOVE_SLOTS), dtype=np.int8)
    cdef checker_t* children
    cdef checker_t* moves
    cdef int count = 0
    offset_view[0] = 0
    i = 0
    while True:
        children = <checker_t*>cnp.PyArray_DATA(child_array)
        moves = <checker_t*>cnp.PyArray_DATA(move_array) if with_moves else NULL
        with nogil:
            while i < n and capacity - used >= MAX_CHILDREN:
                count = generate(b + i * NUM_SLOTS, d[2 * i], d[2 * i + 1],
                                 children + used * NUM_SLOTS,
                                 moves + used * MOVE_SLOTS if with_moves else NULL,
                                 MAX_CHILDREN)
                if count < 0:           # cannot happen below MAX_CHILDREN; never hide it
                    break
                used += count
                i += 1
                offset_view[i] = used
        if count < 0:
            raise RuntimeError("more children than MAX_CHILDREN: the bound in _movegen.pxd is wrong")
        if i == n:
            break
        capacity += capacity // 2
        child_array = _grown(child_array, used, capacity)
        if with_moves:
            move_array = _grown(move_array, used, capacity)
    child_array.resize((used, NUM_SLOTS), refcheck=False)
    if not with_moves:
        return child_array, offsets
    move_array.resize((used, MOVE_SLOTS), refcheck=False)
    return child_array, offsets, move_array


MAX_CHILDREN_PER_ROLL = MAX_CHILDREN
MOVE_RECORD_SLOTS = MOVE_SLOTS

# cython: language_level=3
"""Stand-in legal-move generator used by training until ``bgcore._movegen`` is merged.

Rules: a checker on the bar must enter first; bearing off needs every checker home, and a
die larger than needed bears off only from the highest occupied point; as many dice as
possible must be played, and when only one of two different dice can be played, the
larger one if possible. Doubles move in non-increasing order of source point, which
reaches every distinct result; duplicates are removed by hashing.
"""

from libc.string cimport memcpy, memcmp, memset

from bgcore._types cimport checker_t, NUM_SLOTS
from bgcore._board cimport flip_board

cdef enum:
    TABLE_SIZE = 4096               # open-addressing table of leaf indices (power of two)

ctypedef struct Leaves:
    checker_t boards[SELFPLAY_MAX_CHILDREN][NUM_SLOTS]
    int used[SELFPLAY_MAX_CHILDREN]
    int die[SELFPLAY_MAX_CHILDREN]  # the die played when only one was
    int count
    int max_used
    int table[TABLE_SIZE]


cdef inline bint can_move(const checker_t* b, int src, int die) noexcept nogil:
    cdef int i, dst = src - die
    if b[25] > 0 and src != 25:
        return 0
    if dst >= 1:
        return b[dst] >= -1
    for i in range(7, 26):
        if b[i] > 0:
            return 0
    if dst == 0:
        return 1
    for i in range(src + 1, 7):
        if b[i] > 0:
            return 0
    return 1


cdef inline void apply_move(checker_t* b, int src, int die) noexcept nogil:
    cdef int dst = src - die
    b[src] -= 1
    if dst >= 1:
        if b[dst] == -1:
            b[dst] = 0
            b[0] -= 1
        b[dst] += 1


cdef inline unsigned int board_hash(const checker_t* b) noexcept nogil:
    cdef unsigned int h = 2166136261u
    cdef int i
    for i in range(NUM_SLOTS):
        h = (h ^ <unsigned char>b[i]) * 16777619u
    return h


cdef void record(Leaves* g, const checker_t* b, int used, int die) noexcept nogil:
    if used < g.max_used:
        return
    if used > g.max_used:
        g.max_used = used
        g.count = 0
        memset(g.table, 0, sizeof(g.table))
    cdef unsigned int slot = board_hash(b) & (TABLE_SIZE - 1)
    cdef int index
    while g.table[slot] != 0:
        index = g.table[slot] - 1
        if memcmp(g.boards[index], b, NUM_SLOTS) == 0 and g.die[index] == die:
            return
        slot = (slot + 1) & (TABLE_SIZE - 1)
    if g.count >= SELFPLAY_MAX_CHILDREN:
        return
    memcpy(g.boards[g.count], b, NUM_SLOTS)
    g.used[g.count] = used
    g.die[g.count] = die
    g.count += 1
    g.table[slot] = g.count


cdef void expand(Leaves* g, const checker_t* b, const int* dice, int num_dice, int depth,
                 int highest_source, bint doubles) noexcept nogil:
    cdef checker_t next_board[NUM_SLOTS]
    cdef int src, die
    cdef bint moved = 0
    if depth < num_dice:
        die = dice[depth]
        for src in range(highest_source, 0, -1):
            if b[src] > 0 and can_move(b, src, die):
                memcpy(next_board, b, NUM_SLOTS)
                apply_move(next_board, src, die)
                expand(g, next_board, dice, num_dice, depth + 1,
                       src if doubles else 25, doubles)
                moved = 1
    if not moved:
        record(g, b, depth, dice[0] if (depth == 1 and not doubles) else 0)


cdef int selfplay_children(const checker_t* board, int die1, int die2, checker_t* children,
                           int max_children) noexcept nogil:
    cdef Leaves g
    cdef int dice[4]
    cdef int i, n = 0, larger = die1 if die1 > die2 else die2
    g.count = 0
    g.max_used = -1
    memset(g.table, 0, sizeof(g.table))
    if die1 == die2:
        dice[0] = dice[1] = dice[2] = dice[3] = die1
        expand(&g, board, dice, 4, 0, 25, 1)
    else:
        dice[0] = die1
        dice[1] = die2
        expand(&g, board, dice, 2, 0, 25, 0)
        dice[0] = die2
        dice[1] = die1
        expand(&g, board, dice, 2, 0, 25, 0)
    cdef bint larger_playable = 0
    if die1 != die2 and g.max_used == 1:
        for i in range(g.count):
            if g.die[i] == larger:
                larger_playable = 1
    for i in range(g.count):
        if larger_playable and g.die[i] != larger:
            continue
        if n > 0 and g.max_used == 1 and die1 != die2:
            # the same board reached with either die counts once
            if _seen_before(children, n, g.boards[i]):
                continue
        if n >= max_children:
            break
        flip_board(g.boards[i], children + n * NUM_SLOTS)
        n += 1
    return n


cdef bint _seen_before(const checker_t* children, int n, const checker_t* board) noexcept nogil:
    cdef checker_t flipped[NUM_SLOTS]
    flip_board(board, flipped)
    cdef int i
    for i in range(n):
        if memcmp(children + i * NUM_SLOTS, flipped, NUM_SLOTS) == 0:
            return 1
    return 0


def children_of(bytes board, int die1, int die2):
    """Distinct children (sides switched) of a valid board for one roll, as bytes each."""
    if len(board) != NUM_SLOTS or not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        raise ValueError("a board of 26 slots and two dice 1..6 are needed")
    cdef checker_t out[SELFPLAY_MAX_CHILDREN * NUM_SLOTS]
    cdef int i, n = selfplay_children(<const checker_t*><const char*>board, die1, die2, out,
                                      SELFPLAY_MAX_CHILDREN)
    return [(<char*>out)[i * NUM_SLOTS:(i + 1) * NUM_SLOTS] for i in range(n)]

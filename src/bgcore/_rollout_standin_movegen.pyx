# cython: language_level=3
"""Stand-in legal move generator for the rollout kernel until bgcore._movegen lands.

Plays every order of the dice checker by checker (doubles: non-increasing source points),
keeps the plays that use the most dice (the larger die when only one can be played),
and returns the distinct results with sides switched. Simple, not fast.
"""

from libc.string cimport memcpy, memcmp
from bgcore._types cimport checker_t, NUM_SLOTS, MOVER_BAR, OPPONENT_BAR
from bgcore._board cimport flip_board


cdef struct Search:
    checker_t* children
    int max_children
    int count
    int best_used
    int best_die               # largest die played when only one die can be played
    bint overflow


cdef bint all_home(const checker_t* board) noexcept nogil:
    cdef int i
    for i in range(7, NUM_SLOTS):
        if board[i] > 0:
            return False
    return True


cdef bint can_step(const checker_t* board, int source, int die) noexcept nogil:
    """May the player on roll move one checker from ``source`` by ``die``?"""
    if board[source] <= 0:
        return False
    if board[MOVER_BAR] > 0 and source != MOVER_BAR:
        return False
    cdef int target = source - die, i
    if target >= 1:
        return board[target] >= -1
    if not all_home(board):
        return False
    if target == 0:
        return True
    for i in range(source + 1, 7):
        if board[i] > 0:
            return False
    return True


cdef void step(checker_t* board, int source, int die) noexcept nogil:
    cdef int target = source - die
    board[source] -= 1
    if target >= 1:
        if board[target] == -1:
            board[target] = 0
            board[OPPONENT_BAR] -= 1
        board[target] += 1


cdef void record(Search* s, const checker_t* board, int used, int die) noexcept nogil:
    cdef checker_t flipped[NUM_SLOTS]
    cdef int i
    if used < s.best_used or (used == 1 and s.best_used == 1 and die < s.best_die):
        return
    if used > s.best_used or (used == 1 and die > s.best_die):
        s.best_used = used
        s.best_die = die
        s.count = 0
    flip_board(board, flipped)
    for i in range(s.count):
        if memcmp(s.children + i * NUM_SLOTS, flipped, NUM_SLOTS) == 0:
            return
    if s.count >= s.max_children:
        s.overflow = True
        return
    memcpy(s.children + s.count * NUM_SLOTS, flipped, NUM_SLOTS)
    s.count += 1


cdef void search(Search* s, const checker_t* board, const int* dice, int num_dice,
                 int used, int max_source, int last_die) noexcept nogil:
    cdef checker_t next_board[NUM_SLOTS]
    cdef int source
    cdef bint moved = False
    if used < num_dice:
        for source in range(max_source, 0, -1):
            if can_step(board, source, dice[used]):
                moved = True
                memcpy(next_board, board, NUM_SLOTS)
                step(next_board, source, dice[used])
                search(s, next_board, dice, num_dice, used + 1,
                       source if dice[0] == dice[1] else MOVER_BAR, dice[used])
    if not moved:
        record(s, board, used, last_die)


cdef int legal_children(const checker_t* board, int die1, int die2,
                        checker_t* children, int max_children) noexcept nogil:
    cdef Search s
    cdef int dice[4]
    if die1 < 1 or die1 > 6 or die2 < 1 or die2 > 6:
        return -1
    s.children = children
    s.max_children = max_children
    s.count = 0
    s.best_used = -1
    s.best_die = 0
    s.overflow = False
    if die1 == die2:
        dice[0] = dice[1] = dice[2] = dice[3] = die1
        search(&s, board, dice, 4, 0, MOVER_BAR, 0)
    else:
        dice[0] = die1
        dice[1] = die2
        search(&s, board, dice, 2, 0, MOVER_BAR, 0)
        dice[0] = die2
        dice[1] = die1
        search(&s, board, dice, 2, 0, MOVER_BAR, 0)
    return -1 if s.overflow else s.count


def standin_children(bytes board, int die1, int die2):
    """Python view for tests: the children as a list of 26-byte strings."""
    if len(board) != NUM_SLOTS:
        raise ValueError(f"a board has {NUM_SLOTS} slots")
    cdef checker_t out[STANDIN_MAX_CHILDREN * NUM_SLOTS]
    cdef int n = legal_children(<const checker_t*><const char*>board, die1, die2, out,
                                STANDIN_MAX_CHILDREN)
    if n < 0:
        raise ValueError("bad dice or too many children")
    return [(<char*>out)[i * NUM_SLOTS:(i + 1) * NUM_SLOTS] for i in range(n)]

# cython: language_level=3
"""Board primitives: validation, side switch, pip counts and game phase.

All functions see the board from the player on roll (see ``bgcore/__init__.py``).
The Python wrappers take a ``bytes`` of length 26 (int8 values) and check it first.
"""

from bgcore._types cimport checker_t, Phase, NUM_SLOTS, NUM_CHECKERS, MOVER_BAR, OPPONENT_BAR
from bgcore._types cimport PHASE_CONTACT, PHASE_RACE, PHASE_BEAROFF, PHASE_OVER

# Problem codes returned by board_problem_code; 0 means the board is valid.
cdef enum:
    OK = 0
    MOVER_ON_OPPONENT_BAR = 1
    OPPONENT_ON_MOVER_BAR = 2
    MOVER_TOO_MANY = 3
    OPPONENT_TOO_MANY = 4
    BOTH_BORNE_OFF = 5
    SLOT_OUT_OF_RANGE = 6

PROBLEM_MESSAGES = {
    MOVER_ON_OPPONENT_BAR: "a checker of the player on roll is on the opponent's bar slot (slot 0)",
    OPPONENT_ON_MOVER_BAR: "a checker of the opponent is on the bar slot of the player on roll (slot 25)",
    MOVER_TOO_MANY: "the player on roll has more than 15 checkers",
    OPPONENT_TOO_MANY: "the opponent has more than 15 checkers",
    BOTH_BORNE_OFF: "both players have borne off all 15 checkers",
}


cdef int mover_checkers_on_board(const checker_t* board) noexcept nogil:
    cdef int i, n = 0
    for i in range(1, NUM_SLOTS):
        if board[i] > 0:
            n += board[i]
    return n


cdef int opponent_checkers_on_board(const checker_t* board) noexcept nogil:
    cdef int i, n = 0
    for i in range(0, NUM_SLOTS - 1):
        if board[i] < 0:
            n -= board[i]
    return n


cdef int board_problem_code(const checker_t* board) noexcept nogil:
    """0 when the board is a possible position, else a problem code (see PROBLEM_MESSAGES)."""
    cdef int i
    for i in range(NUM_SLOTS):
        if board[i] < -NUM_CHECKERS or board[i] > NUM_CHECKERS:
            return SLOT_OUT_OF_RANGE
    if board[OPPONENT_BAR] > 0:
        return MOVER_ON_OPPONENT_BAR
    if board[MOVER_BAR] < 0:
        return OPPONENT_ON_MOVER_BAR
    cdef int mover = mover_checkers_on_board(board)
    cdef int opponent = opponent_checkers_on_board(board)
    if mover > NUM_CHECKERS:
        return MOVER_TOO_MANY
    if opponent > NUM_CHECKERS:
        return OPPONENT_TOO_MANY
    if mover == 0 and opponent == 0:
        return BOTH_BORNE_OFF
    return OK


cdef void flip_board(const checker_t* board, checker_t* out) noexcept nogil:
    """The same position seen by the other player: out[i] = -board[25 - i]."""
    cdef int i
    for i in range(NUM_SLOTS):
        out[i] = -board[NUM_SLOTS - 1 - i]


cdef extern from *:
    """
    /* Checkers in play (the crashed-position test's count): the mover's on slots 3..25, the
       opponent's on slots 0..22; by SSE2 byte sums where there is SSE2. */
    #if defined(__SSE2__)
    #include <emmintrin.h>
    static inline int bg_byte_sum(__m128i x) {
        const __m128i sums = _mm_sad_epu8(x, _mm_setzero_si128());
        return _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
    }
    static inline void bg_checkers_in_play(const signed char* board, int* mover, int* opponent) {
        const __m128i zero = _mm_setzero_si128();
        const __m128i low = _mm_loadu_si128((const __m128i*)board);           /* slots 0..15 */
        const __m128i high = _mm_loadu_si128((const __m128i*)(board + 10));   /* slots 10..25 */
        /* lanes kept: mover slots 3..15 (low) and 16..25 (high lanes 6..15); opponent
           slots 0..15 (low) and 16..22 (high lanes 6..12) */
        const __m128i mover_low = _mm_set_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0);
        const __m128i mover_high = _mm_set_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0);
        const __m128i opponent_high = _mm_set_epi8(0, 0, 0, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0);
        const __m128i low_own = _mm_and_si128(low, _mm_cmpgt_epi8(low, zero));
        const __m128i high_own = _mm_and_si128(high, _mm_cmpgt_epi8(high, zero));
        const __m128i low_enemy = _mm_and_si128(_mm_sub_epi8(zero, low), _mm_cmplt_epi8(low, zero));
        const __m128i high_enemy = _mm_and_si128(_mm_sub_epi8(zero, high), _mm_cmplt_epi8(high, zero));
        *mover = bg_byte_sum(_mm_and_si128(low_own, mover_low)) + bg_byte_sum(_mm_and_si128(high_own, mover_high));
        *opponent = bg_byte_sum(low_enemy) + bg_byte_sum(_mm_and_si128(high_enemy, opponent_high));
    }
    #else
    static inline void bg_checkers_in_play(const signed char* board, int* mover, int* opponent) {
        int m = 0, o = 0;
        for (int i = 3; i < 26; ++i) m += board[i] > 0 ? board[i] : 0;
        for (int i = 0; i < 23; ++i) o += board[i] < 0 ? -board[i] : 0;
        *mover = m;
        *opponent = o;
    }
    #endif
    """
    void bg_checkers_in_play(const checker_t* board, int* mover, int* opponent) noexcept nogil


cdef void checkers_in_play_of(const checker_t* board, int* mover, int* opponent) noexcept nogil:
    bg_checkers_in_play(board, mover, opponent)


cdef void pip_counts_of(const checker_t* board, int* mover, int* opponent) noexcept nogil:
    cdef int i
    mover[0] = 0
    opponent[0] = 0
    for i in range(NUM_SLOTS):
        if board[i] > 0:
            mover[0] += i * board[i]
        elif board[i] < 0:
            opponent[0] -= (NUM_SLOTS - 1 - i) * board[i]


cdef Phase phase_of(const checker_t* board) noexcept nogil:
    """Contact while some mover checker can still meet an opponent checker."""
    cdef int i, mover_back = 0, opponent_back = NUM_SLOTS - 1
    for i in range(NUM_SLOTS - 1, -1, -1):
        if board[i] > 0:
            mover_back = i
            break
    for i in range(NUM_SLOTS):
        if board[i] < 0:
            opponent_back = i
            break
    if mover_back == 0 or opponent_back == NUM_SLOTS - 1:
        return PHASE_OVER
    if mover_back > opponent_back:
        return PHASE_CONTACT
    if mover_back <= 6 and opponent_back >= 19:
        return PHASE_BEAROFF
    return PHASE_RACE


cdef str problem_sentence(const checker_t* board):
    """Why the 26 slots are not a possible position, or None."""
    cdef int i, code = board_problem_code(board)
    if code == SLOT_OUT_OF_RANGE:
        for i in range(NUM_SLOTS):
            if board[i] < -NUM_CHECKERS or board[i] > NUM_CHECKERS:
                return f"slot {i} holds {board[i]} checkers; a slot holds at most 15"
    return PROBLEM_MESSAGES[code] if code else None


cdef int check_boards(const checker_t* boards, Py_ssize_t n, object error=ValueError,
                      str label="board") except -1:
    cdef Py_ssize_t i
    for i in range(n):
        if board_problem_code(boards + i * NUM_SLOTS) != 0:
            raise error(f"{label} {i}: {problem_sentence(boards + i * NUM_SLOTS)}")
    return 0


cdef const checker_t* checked_board(bytes board) except NULL:
    if len(board) != NUM_SLOTS:
        raise ValueError(f"a board has {NUM_SLOTS} slots, got {len(board)}")
    cdef const checker_t* slots = <const checker_t*><const char*>board
    check_boards(slots, 1)
    return slots


cdef const checker_t* sized_board(bytes board) except NULL:
    """The 26 slots of ``board`` after checking its length only (for board_problem)."""
    if len(board) != NUM_SLOTS:
        raise ValueError(f"a board has {NUM_SLOTS} slots, got {len(board)}")
    return <const checker_t*><const char*>board


def board_problem(bytes board):
    """A sentence saying why the 26 int8 slots are not a possible position, or None."""
    return problem_sentence(sized_board(board))


def flipped(bytes board):
    """The board seen by the other player, as bytes."""
    cdef const checker_t* b = checked_board(board)
    cdef checker_t out[NUM_SLOTS]
    flip_board(b, out)
    return (<char*>out)[:NUM_SLOTS]


def pip_counts(bytes board):
    """(pips of the player on roll, pips of the opponent)."""
    cdef const checker_t* b = checked_board(board)
    cdef int mover, opponent
    pip_counts_of(b, &mover, &opponent)
    return mover, opponent


def checkers_on_board(bytes board):
    """(checkers of the player on roll on the board or bar, the same for the opponent)."""
    cdef const checker_t* b = checked_board(board)
    return mover_checkers_on_board(b), opponent_checkers_on_board(b)


def checkers_in_play(bytes board):
    """(checkers of the player on roll on its bar and points 3..24, the same for the opponent)."""
    cdef const checker_t* b = checked_board(board)
    cdef int mover, opponent
    checkers_in_play_of(b, &mover, &opponent)
    return mover, opponent


def phase(bytes board):
    """The game phase code: 0 contact, 1 race, 2 bear-off, 3 over."""
    return <int>phase_of(checked_board(board))

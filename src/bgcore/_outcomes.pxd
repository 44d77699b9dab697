# The cubeless 5-vector's small algebra, shared by every kernel (one place):
# (win, win_gammon, win_backgammon, lose_gammon, lose_backgammon), cumulative, from the
# player on roll before the roll.
from libc.string cimport memset
from bgcore._types cimport checker_t, NUM_SLOTS, NUM_CHECKERS

cdef enum:
    OUT_WIN = 0
    OUT_WIN_GAMMON = 1
    OUT_WIN_BACKGAMMON = 2
    OUT_LOSE_GAMMON = 3
    OUT_LOSE_BACKGAMMON = 4
    NUM_OUTPUTS = 5


# Cubeless money equity of a 5-vector, from the same player's view.
cdef inline double equity_of(const float* p5) noexcept nogil:
    return (2.0 * p5[OUT_WIN] - 1.0 + p5[OUT_WIN_GAMMON] - p5[OUT_LOSE_GAMMON]
            + p5[OUT_WIN_BACKGAMMON] - p5[OUT_LOSE_BACKGAMMON])


# The 5-vector seen from the other player: win <-> lose, gammons swapped.
cdef inline void flip_probabilities(const float* p5, float* out5) noexcept nogil:
    cdef float win = p5[OUT_WIN], wg = p5[OUT_WIN_GAMMON], wbg = p5[OUT_WIN_BACKGAMMON]
    out5[OUT_WIN] = 1.0 - win
    out5[OUT_WIN_GAMMON] = p5[OUT_LOSE_GAMMON]
    out5[OUT_WIN_BACKGAMMON] = p5[OUT_LOSE_BACKGAMMON]
    out5[OUT_LOSE_GAMMON] = wg
    out5[OUT_LOSE_BACKGAMMON] = wbg


# Exact 5-vector of a finished game from the player on roll; returns 0 if not finished.
# A loser who bore off nothing loses a gammon, a backgammon with a checker still on the
# bar or in the winner's home board.
cdef inline bint finished_probabilities(const checker_t* board, float* out5) noexcept nogil:
    cdef int i, mover_left = 0, opponent_left = 0, loser_back = 0
    for i in range(NUM_SLOTS):
        if board[i] > 0:
            mover_left += board[i]
        elif board[i] < 0:
            opponent_left -= board[i]
    if mover_left != 0 and opponent_left != 0:
        return 0
    memset(out5, 0, NUM_OUTPUTS * sizeof(float))
    if mover_left == 0:
        out5[OUT_WIN] = 1.0
        if opponent_left == NUM_CHECKERS:
            out5[OUT_WIN_GAMMON] = 1.0
            for i in range(0, 7):           # opponent on the mover's home board or bar
                if board[i] < 0:
                    loser_back = 1
            out5[OUT_WIN_BACKGAMMON] = loser_back
    else:
        if mover_left == NUM_CHECKERS:
            out5[OUT_LOSE_GAMMON] = 1.0
            for i in range(19, NUM_SLOTS):  # mover on the opponent's home board or bar
                if board[i] > 0:
                    loser_back = 1
            out5[OUT_LOSE_BACKGAMMON] = loser_back
    return 1

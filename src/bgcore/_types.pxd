# Shared C types and constants of bgcore: every kernel includes this one file.

ctypedef signed char checker_t      # one slot of a board: signed checker count

cdef enum:
    NUM_SLOTS = 26                  # 0 opponent's bar, 1..24 points, 25 mover's bar
    OPPONENT_BAR = 0
    MOVER_BAR = 25
    NUM_CHECKERS = 15               # per side
    NUM_POINTS = 24

# Game phases, from the position alone.
cdef enum Phase:
    PHASE_CONTACT = 0
    PHASE_RACE = 1
    PHASE_BEAROFF = 2               # no contact and both sides entirely in their home boards
    PHASE_OVER = 3

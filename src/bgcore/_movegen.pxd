# Legal move generation: the C-level contract other kernels call (nogil, no Python objects).
#
# Input: a valid board (26 checker_t, seen from the player on roll; see _types.pxd) and a
# roll (two dice 1..6, any order). Output: every DISTINCT legal resulting position, written
# as consecutive blocks of NUM_SLOTS checker_t with sides switched (each child is seen from
# the next player on roll). When nothing is legal the turn passes: one child, the unchanged
# position with sides switched (no legal move leaves a position unchanged, so a child equal
# to the flipped input is always the pass).
from bgcore._types cimport checker_t

cdef enum:
    # A safe bound on the number of distinct children of any position and roll.
    # Doubles: order the (at most 4) single-die steps of a play by non-increasing source
    # point; the child is then fixed by how far each checker travels, i.e. by choosing,
    # for each source point holding c checkers, a partition of its share of the 4 steps
    # into at most c parts. With at most 15 occupied source points (15 checkers, bar
    # included), the number of such choices is the x^4 coefficient of the product over
    # points of sum_k p_c(k) x^k, maximal for 15 single checkers: C(15+4-1, 4) = 3060
    # (fewer steps give fewer: C(17, 3) = 680). Other rolls: an ordered pair of source
    # points for the two dice, plus one checker using both dice in either order:
    # 15 * 15 + 2 * 15 = 255. So 3060 bounds every roll (the generator also refuses to
    # write past max_children and then returns -1).
    MAX_CHILDREN = 3060
    MAX_STEPS = 4               # single-die steps in one play (doubles)
    STEP_FIELDS = 3             # per step: from point (25 = bar), to point (0 = off), hit (0/1)
    MOVE_SLOTS = 12             # MAX_STEPS * STEP_FIELDS checker_t per child's move record

# All distinct legal children of (board, die1, die2), sides switched, into `children`
# (room for max_children * NUM_SLOTS). Returns how many (>= 1; a pass gives 1), or -1 when
# more than max_children would be needed or a die is outside 1..6. The board must be valid
# (bgcore._board.board_problem_code == 0); it is not checked here.
cdef int legal_children(const checker_t* board, int die1, int die2,
                        checker_t* children, int max_children) noexcept nogil

# The same, and for each child one canonical sequence of single-die steps producing it:
# `moves` gets MOVE_SLOTS checker_t per child, up to MAX_STEPS triples (from, to, hit) in
# the mover's numbering (from 25 = bar, to 0 = off), in playing order; unused triples are
# (0, 0, 0). A pass has no steps. Larger die first, then higher source points first.
cdef int legal_children_with_moves(const checker_t* board, int die1, int die2,
                                   checker_t* children, checker_t* moves,
                                   int max_children) noexcept nogil

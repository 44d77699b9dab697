# Janowski's cube efficiency x by position class and cube state, in C: the one definition
# that the cube model (bgengine.cube.efficiency, through _cube_efficiency.pyx) and the rollout
# kernel's referee (_rollout.pyx, without the GIL) both use. The numbers come from Python
# (bgengine.cube.efficiency.efficiency_rule); the classes and the curve are here.
from bgcore._types cimport checker_t

cdef enum:
    CLASS_CONTACT = 0
    CLASS_RACE = 1
    CLASS_BEAROFF = 2           # every checker of both sides home, not a last roll
    CLASS_LAST_ROLL = 3         # a side bears off its last checker with every roll of its next turn
    CLASS_OVER = 4              # the game is over

# The cube's state seen from the player whose equity is valued: x[owner + 1] with the owner
# -1 (the opponent), 0 (centred), +1 (that player), as the C cubes name owners.
cdef enum:
    STATE_OPPONENT_OWNS = 0
    STATE_CENTRED = 1
    STATE_OWNED = 2
    CUBE_STATES = 3

cdef struct EfficiencyRule:
    double given                # >= 0: this x whatever the position and cube (the caller's); < 0: by class
    double contact[3]           # by cube state (STATE_*)
    double race_short[3]        # x of a race at race_pips_short pips (of the player on roll) or fewer
    double race_long[3]         # x at race_pips_long or more; a straight line between
    double race_pips_short
    double race_pips_long
    double bearoff[3]
    double last_roll            # every state
    double free_double_share    # post-Crawford: x moved this share of the way to 1 (0: not post-Crawford)

# The class of a board (player on roll's view).
cdef int efficiency_class(const checker_t* board) noexcept nogil

# x of a class in a cube state (``pips``: the player on roll's pip count, for races), before
# the free-double raise.
cdef double class_efficiency(const EfficiencyRule* rule, int position_class, int pips, int state) noexcept nogil

# x of each cube state (out[STATE_*]) of the decision at this board: the given x, else the
# class's raised for the post-Crawford free double (not when the class's x is 0: a dead cube
# stays dead).
cdef void board_efficiency(const EfficiencyRule* rule, const checker_t* board, double* out) noexcept nogil

# Fill ``rule`` from efficiency_rule()'s tuple.
cdef int efficiency_rule_from(EfficiencyRule* rule, object spec) except -1

# x by cube state from a Python number (every state) or a (opponent owns, centred, owned) triple.
cdef int efficiencies_from(object given, double* out) except -1

# The classes of a batch of boards valued at one cube (the children a search compares), into
# ``classes``, with NaN in ``out`` for finished games; a ValueError naming ``what`` unless the
# shapes are (n, NUM_SLOTS) boards, (n, 5) chances, n values and n classes.
cdef int batch_classes(const checker_t[:, ::1] boards, const double[:, ::1] p5, double[::1] out,
                       signed char[::1] classes, str what) except -1

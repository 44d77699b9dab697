# Janowski's cube efficiency x by position class, in C: the one definition that the cube
# model (bgengine.cube.efficiency, through _cube_efficiency.pyx) and the rollout kernel's
# referee (_rollout.pyx, without the GIL) both use. The numbers come from Python
# (bgengine.cube.efficiency.efficiency_rule); the classes and the curve are here.
from bgcore._types cimport checker_t

cdef enum:
    CLASS_CONTACT = 0
    CLASS_RACE = 1
    CLASS_BEAROFF = 2           # every checker of both sides home, not a last roll
    CLASS_LAST_ROLL = 3         # a side bears off its last checker with every roll of its next turn
    CLASS_OVER = 4              # the game is over

cdef struct EfficiencyRule:
    double given                # >= 0: this x whatever the position (the caller's); < 0: by class
    double contact
    double race_short           # x of a race at race_pips_short pips (of the player on roll) or fewer
    double race_long            # x at race_pips_long or more; a straight line between
    double race_pips_short
    double race_pips_long
    double bearoff
    double last_roll
    double free_double_share    # post-Crawford: x moved this share of the way to 1 (0: not post-Crawford)

# The class of a board (player on roll's view).
cdef int efficiency_class(const checker_t* board) noexcept nogil

# x of a class (``pips``: the player on roll's pip count, for races), before the free-double raise.
cdef double class_efficiency(const EfficiencyRule* rule, int position_class, int pips) noexcept nogil

# x of the decision at this board: the given x, else the class's raised for the
# post-Crawford free double (not when the class's x is 0: a dead cube stays dead).
cdef double board_efficiency(const EfficiencyRule* rule, const checker_t* board) noexcept nogil

# Fill ``rule`` from efficiency_rule()'s tuple.
cdef int efficiency_rule_from(EfficiencyRule* rule, object spec) except -1

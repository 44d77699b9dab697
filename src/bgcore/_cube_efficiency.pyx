# cython: language_level=3
"""Cube efficiency by position class in C (see _cube_efficiency.pxd), and its Python access:
bgengine.cube.efficiency calls these, so the cube model and the rollout referee share one
definition of the classes and of the efficiency curve."""

from bgcore._types cimport checker_t, Phase, PHASE_CONTACT, PHASE_RACE, PHASE_BEAROFF
from bgcore._board cimport checked_board, phase_of, pip_counts_of
from bgcore._bearoff_tables cimport SideCounts, read_sides

cdef enum:
    HOME_POINTS = 6

#: Class codes, as efficiency_class returns them.
CONTACT, RACE, BEAROFF, LAST_ROLL, OVER = CLASS_CONTACT, CLASS_RACE, CLASS_BEAROFF, CLASS_LAST_ROLL, CLASS_OVER


cdef bint off_in_one_roll(const SideCounts* side) noexcept nogil:
    """Does a side (every checker home) bear off its last checker with every roll? Its worst
    roll is 2-1 (a double moves at least 4 pips, two dice at least 3): one checker needs at
    most 3 pips (3: 2 then 1), two checkers need one on the ace and the other on the ace or
    the 2-point (one die each), and 2-1 never takes off three."""
    cdef int lowest = 0, p
    if side.on_board == 1:
        return side.highest <= 3
    if side.on_board == 2:
        for p in range(1, HOME_POINTS + 1):
            if side.counts[p]:
                lowest = p
                break
        return side.highest <= 2 and lowest == 1
    return False


cdef int efficiency_class(const checker_t* board) noexcept nogil:
    cdef Phase phase = phase_of(board)
    cdef SideCounts mover, opponent
    if phase == PHASE_CONTACT:
        return CLASS_CONTACT
    if phase == PHASE_RACE:
        return CLASS_RACE
    if phase == PHASE_BEAROFF:
        read_sides(board, &mover, &opponent)
        if off_in_one_roll(&mover) or off_in_one_roll(&opponent):
            return CLASS_LAST_ROLL
        return CLASS_BEAROFF
    return CLASS_OVER


cdef double class_efficiency(const EfficiencyRule* rule, int position_class, int pips) noexcept nogil:
    cdef double clamped, share
    if position_class == CLASS_CONTACT:
        return rule.contact
    if position_class == CLASS_RACE:
        clamped = pips
        if clamped < rule.race_pips_short:
            clamped = rule.race_pips_short
        if clamped > rule.race_pips_long:
            clamped = rule.race_pips_long
        share = (clamped - rule.race_pips_short) / (rule.race_pips_long - rule.race_pips_short)
        return rule.race_short + share * (rule.race_long - rule.race_short)
    if position_class == CLASS_BEAROFF:
        return rule.bearoff
    if position_class == CLASS_LAST_ROLL:
        return rule.last_roll
    return rule.contact         # the game is over: no decision is asked of it


cdef double ruled_efficiency(const EfficiencyRule* rule, int position_class, int pips) noexcept nogil:
    """The given x, else the class's raised for the post-Crawford free double (unless 0)."""
    cdef double x
    if rule.given >= 0.0:
        return rule.given
    x = class_efficiency(rule, position_class, pips)
    if rule.free_double_share > 0.0 and x > 0.0:
        x = x + rule.free_double_share * (1.0 - x)
    return x


cdef double board_efficiency(const EfficiencyRule* rule, const checker_t* board) noexcept nogil:
    cdef int mover_pips, opponent_pips
    if rule.given >= 0.0:
        return rule.given
    pip_counts_of(board, &mover_pips, &opponent_pips)
    return ruled_efficiency(rule, efficiency_class(board), mover_pips)


cdef int efficiency_rule_from(EfficiencyRule* rule, object spec) except -1:
    (rule.given, rule.contact, rule.race_short, rule.race_long, rule.race_pips_short, rule.race_pips_long,
     rule.bearoff, rule.last_roll, rule.free_double_share) = spec
    if not rule.race_pips_long > rule.race_pips_short:
        raise ValueError("the race curve needs race_pips_long > race_pips_short")
    return 0


def position_class(bytes board):
    """The class code of a board (CONTACT, RACE, BEAROFF, LAST_ROLL or OVER)."""
    return efficiency_class(checked_board(board))


def efficiency_of_class(tuple spec, int position_class, int pips):
    """x of a decision in a class (pips: the player on roll's, for races) by efficiency_rule()'s
    numbers: the given x, else the class's raised for the free double as the rule says."""
    cdef EfficiencyRule rule
    efficiency_rule_from(&rule, spec)
    return ruled_efficiency(&rule, position_class, pips)


def efficiency(tuple spec, bytes board):
    """x of the decision at this board by efficiency_rule()'s numbers (given, or class and free double)."""
    cdef EfficiencyRule rule
    efficiency_rule_from(&rule, spec)
    return board_efficiency(&rule, checked_board(board))

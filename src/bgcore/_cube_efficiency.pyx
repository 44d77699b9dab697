# cython: language_level=3
"""Cube efficiency by position class in C (see _cube_efficiency.pxd), and its Python access:
bgengine.cube.efficiency calls these, so the cube model and the rollout referee share one
definition of the classes and of the efficiency curve."""

from libc.math cimport NAN
from bgcore._types cimport checker_t, Phase, PHASE_CONTACT, PHASE_RACE, PHASE_BEAROFF, NUM_SLOTS
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


cdef double class_efficiency(const EfficiencyRule* rule, int position_class, int pips, int state) noexcept nogil:
    cdef double clamped, share
    if position_class == CLASS_CONTACT:
        return rule.contact[state]
    if position_class == CLASS_RACE:
        clamped = pips
        if clamped < rule.race_pips_short:
            clamped = rule.race_pips_short
        if clamped > rule.race_pips_long:
            clamped = rule.race_pips_long
        share = (clamped - rule.race_pips_short) / (rule.race_pips_long - rule.race_pips_short)
        return rule.race_short[state] + share * (rule.race_long[state] - rule.race_short[state])
    if position_class == CLASS_BEAROFF:
        return rule.bearoff[state]
    if position_class == CLASS_LAST_ROLL:
        return rule.last_roll
    return rule.contact[state]  # the game is over: no decision is asked of it


cdef inline double free_double_raised(const EfficiencyRule* rule, double x) noexcept nogil:
    """x raised for the post-Crawford free double as the rule says (a dead cube, x = 0, stays dead)."""
    if rule.free_double_share > 0.0 and x > 0.0:
        return x + rule.free_double_share * (1.0 - x)
    return x


cdef void ruled_efficiency(const EfficiencyRule* rule, int position_class, int pips, double* out) noexcept nogil:
    """The given x, else the class's raised for the post-Crawford free double, in every state."""
    cdef int state
    for state in range(CUBE_STATES):
        if rule.given >= 0.0:
            out[state] = rule.given
        else:
            out[state] = free_double_raised(rule, class_efficiency(rule, position_class, pips, state))


cdef void board_efficiency(const EfficiencyRule* rule, const checker_t* board, double* out) noexcept nogil:
    cdef int mover_pips, opponent_pips
    pip_counts_of(board, &mover_pips, &opponent_pips)
    ruled_efficiency(rule, efficiency_class(board), mover_pips, out)


cdef int _triple(object values, double* out) except -1:
    if len(values) != CUBE_STATES:
        raise ValueError("x by cube state is a triple (opponent owns, centred, owned)")
    out[0], out[1], out[2] = values
    return 0


cdef int efficiency_rule_from(EfficiencyRule* rule, object spec) except -1:
    (given, contact, race_short, race_long, rule.race_pips_short, rule.race_pips_long,
     bearoff, rule.last_roll, rule.free_double_share) = spec
    rule.given = given
    _triple(contact, rule.contact)
    _triple(race_short, rule.race_short)
    _triple(race_long, rule.race_long)
    _triple(bearoff, rule.bearoff)
    if not rule.race_pips_long > rule.race_pips_short:
        raise ValueError("the race curve needs race_pips_long > race_pips_short")
    return 0


cdef int efficiencies_from(object given, double* out) except -1:
    if isinstance(given, (int, float)):
        out[0] = out[1] = out[2] = given
        return 0
    return _triple(given, out)


cdef int batch_classes(const checker_t[:, ::1] boards, const double[:, ::1] p5, double[::1] out,
                       signed char[::1] classes, str what) except -1:
    cdef Py_ssize_t n = boards.shape[0], i
    if boards.shape[1] != NUM_SLOTS or p5.shape[0] != n or p5.shape[1] != 5 or out.shape[0] != n \
            or classes.shape[0] != n:
        raise ValueError(f"{what} needs (n, {NUM_SLOTS}) boards, (n, 5) chances and n outputs")
    with nogil:
        for i in range(n):
            classes[i] = efficiency_class(&boards[i, 0])
            if classes[i] == CLASS_OVER:
                out[i] = NAN
    return 0


def position_class(bytes board):
    """The class code of a board (CONTACT, RACE, BEAROFF, LAST_ROLL or OVER)."""
    return efficiency_class(checked_board(board))


def efficiency_of_class(tuple spec, int position_class, int pips):
    """x by cube state (opponent owns, centred, owned) of a decision in a class (pips: the player
    on roll's, for races) by efficiency_rule()'s numbers: the given x, else the class's raised
    for the free double as the rule says."""
    cdef EfficiencyRule rule
    cdef double out[3]
    efficiency_rule_from(&rule, spec)
    ruled_efficiency(&rule, position_class, pips, out)
    return (out[0], out[1], out[2])


def efficiency(tuple spec, bytes board):
    """x by cube state (opponent owns, centred, owned) of the decision at this board by
    efficiency_rule()'s numbers (given, or class and free double)."""
    cdef EfficiencyRule rule
    cdef double out[3]
    efficiency_rule_from(&rule, spec)
    board_efficiency(&rule, checked_board(board), out)
    return (out[0], out[1], out[2])


def raised_for_free_double(tuple spec, double x):
    """x raised for the post-Crawford free double by efficiency_rule()'s share (0: unchanged)."""
    cdef EfficiencyRule rule
    efficiency_rule_from(&rule, spec)
    return free_double_raised(&rule, x)

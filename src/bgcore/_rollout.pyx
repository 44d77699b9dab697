# cython: language_level=3
"""The rollout trial loop: play games with an n-ply policy, without the GIL.

A trial starts from a board seen from the player on roll before rolling (the "root" side)
and plays until the game ends, an exact oracle knows the position, or truncation; each
turn the mover plays the child that minimises the next player's cubeless equity, at 0-ply
(``best_child``) or looked ahead n plies (``_nply.best_reply`` with the move filter).
Results are 5-vectors from the root side's view; with variance reduction each turn's luck
(the value of the roll thrown minus the average over all rolls, each after the move of
that roll at the luck depth: 0-ply by default, see ``run_block``) is subtracted. A block returns sufficient statistics: sums and sums of squares of the five
probabilities and of the cubeless equity.
"""

import numpy as np
from cpython.ref cimport PyObject
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from numpy.random cimport bitgen_t

from bgcore._types cimport checker_t, NUM_SLOTS
from bgcore._board cimport checked_board
from bgcore._outcomes cimport equity_of, flip_probabilities, finished_probabilities
from bgcore._evaluator cimport (EVALUATION_OK, BoardEvaluator, ExactOracle, CEvaluator, COracle,
                                best_child)
from bgcore._dice cimport (NUM_ROLLS, ROLL_LOW, ROLL_HIGH, ROLL_WEIGHT, ordered_roll_index,
                           random_roll_index, bitgen_of, TrialStream, attach_trial_stream,
                           start_trial_stream)
from bgcore._movegen cimport legal_children, MAX_CHILDREN
from bgcore._nply cimport MoveFilter, best_reply, nply_probabilities
from bgcore._nn cimport hold_networks
from bgcore._engine cimport EngineCEvaluator
from bgcore._cube_money cimport (MoneyCube, money_decide, money_best_value, money_finished_value,
                                 MONEY_DOUBLE_TAKE, MONEY_DOUBLE_PASS, MONEY_DOUBLE_BEAVER)
from bgcore._cube_match cimport (MatchCube, match_cube_from, match_decide, match_position_value,
                                 match_finished_value, match_luck_scale)
from bgcore._cube_efficiency cimport EfficiencyRule, efficiency_rule_from, board_efficiency
from cpython.bytes cimport PyBytes_FromStringAndSize

cdef enum:
    NUM_STATS = 7               # the five probabilities, cubeless equity, cubeful value
    NO_ROLL = -1
    MAX_PLIES = 4               # as _nply's search
    # cube actions returned by the referee's decide()
    NO_DOUBLE = 0
    DOUBLE_TAKE = 1
    DOUBLE_PASS = 2
    DOUBLE_BEAVER = 3


cdef struct Kernel:
    BoardEvaluator evaluator
    ExactOracle oracle
    bitgen_t* rng               # the current trial's dice (its own stream: start_trial_stream)
    bitgen_t* block_rng         # the block's generator: one draw seeds each trial's stream
    int truncate_plies          # 0: play to the end
    bint variance_reduction
    PyObject* evaluator_owner   # the CEvaluator behind `evaluator` (to report its failure)
    PyObject* referee           # the cube referee (a Python object) or NULL for cubeless
    MoneyCube money             # the referee's money cube in C (active: decided without the GIL)
    MatchCube match             # the referee's match cube in C (active: decided without the GIL)
    EfficiencyRule efficiency   # the C cubes' x, set before each decision from the position's class
    bint root_may_double        # may the root player double before its first roll?
    checker_t* children         # MAX_CHILDREN boards
    float* children5            # MAX_CHILDREN 5-vectors
    # lookahead: plies of checker play and of the cube's evaluation, from ply `later_from`
    # of a trial on (0: never) `later_plies` for both; the luck's depth (-1: the play's)
    int checker_plies
    int cube_plies
    int later_plies
    int later_from
    int luck_plies
    MoveFilter move_filter


cdef inline int checker_plies_at(const Kernel* k, int ply) noexcept nogil:
    return k.later_plies if 0 < k.later_from <= ply else k.checker_plies


cdef inline int cube_plies_at(const Kernel* k, int ply) noexcept nogil:
    return k.later_plies if 0 < k.later_from <= ply else k.cube_plies


cdef int evaluate_at(Kernel* k, const checker_t* board, int plies, float* out5) noexcept nogil:
    """The 5-vector of ``board`` (player on roll's view) looked ahead ``plies``; 0 or -2."""
    if plies <= 0:
        return 0 if k.evaluator.evaluate(k.evaluator.context, board, 1, out5) == EVALUATION_OK else -2
    return 0 if nply_probabilities(&k.evaluator, board, plies, &k.move_filter, out5) == 0 else -2


cdef int play_best(Kernel* k, const checker_t* board, int die1, int die2, int plies,
                   checker_t* chosen, float* chosen5) noexcept nogil:
    """Play the roll with the ``plies``-deep policy: the chosen child (next player's view)
    and, unless chosen5 is NULL, its 5-vector from the next player's view at that depth.
    Returns -1 if move generation failed, -2 if the evaluator did."""
    cdef int n = legal_children(board, die1, die2, k.children, MAX_CHILDREN)
    cdef int best
    if n < 1:
        return -1
    if n == 1 and chosen5 == NULL:         # a forced play: nothing to choose or to value
        memcpy(chosen, k.children, NUM_SLOTS)
        return 0
    if plies <= 0:
        best = best_child(&k.evaluator, k.children, n, k.children5)
        if best >= 0 and chosen5 != NULL:
            memcpy(chosen5, k.children5 + 5 * best, 5 * sizeof(float))
    else:
        best = best_reply(&k.evaluator, k.children, n, plies, &k.move_filter, &k.move_filter,
                          k.children5, chosen5)
    if best < 0:
        return -2
    memcpy(chosen, k.children + best * NUM_SLOTS, NUM_SLOTS)
    return 0


cdef int roll_luck(Kernel* k, const checker_t* board, int roll, bint no_doubles, int plies,
                   checker_t* chosen, float* luck5) noexcept nogil:
    """Play ``roll`` at ``plies`` and return in luck5 its value minus the average over all
    rolls, both after the move at the luck depth (k.luck_plies, or ``plies`` when -1) and
    from the mover's view (the roll thrown must be among them)."""
    cdef int luck_plies = plies if k.luck_plies < 0 else k.luck_plies
    cdef int r, j, status
    cdef double weight, total = 0.0
    cdef double mean[5]
    cdef float child5[5]
    cdef float mover5[5]
    cdef float thrown5[5]
    cdef bint thrown_found = False
    cdef checker_t candidate[NUM_SLOTS]
    for j in range(5):
        mean[j] = 0.0
        thrown5[j] = 0.0
    for r in range(NUM_ROLLS):
        if ROLL_LOW[r] == ROLL_HIGH[r] and no_doubles:
            continue
        weight = ROLL_WEIGHT[r]
        status = play_best(k, board, ROLL_LOW[r], ROLL_HIGH[r], luck_plies, candidate, child5)
        if status < 0:
            return status
        flip_probabilities(child5, mover5)
        for j in range(5):
            mean[j] += weight * mover5[j]
        total += weight
        if (ordered_roll_index(ROLL_LOW[r], ROLL_HIGH[r]) == roll
                or ordered_roll_index(ROLL_HIGH[r], ROLL_LOW[r]) == roll):
            memcpy(chosen, candidate, NUM_SLOTS)
            memcpy(thrown5, mover5, 5 * sizeof(float))
            thrown_found = True
    if not thrown_found:                    # run_block refuses such rolls; never trust it here
        return -1
    for j in range(5):
        luck5[j] = thrown5[j] - <float>(mean[j] / total)
    if luck_plies != plies:                 # the move itself is chosen at the play's depth
        return play_best(k, board, roll // 6 + 1, roll % 6 + 1, plies, chosen, NULL)
    return 0


cdef void to_root_view(const float* mover5, bint mover_is_root, float* root5) noexcept nogil:
    if mover_is_root:
        memcpy(root5, mover5, 5 * sizeof(float))
    else:
        flip_probabilities(mover5, root5)


cdef void add_luck(double* total5, const float* luck5, bint mover_is_root) noexcept nogil:
    """Accumulate a mover's luck in the root side's view (a luck difference flips as
    win -> -win and swaps the gammon pairs)."""
    if mover_is_root:
        total5[0] += luck5[0]
        total5[1] += luck5[1]
        total5[2] += luck5[2]
        total5[3] += luck5[3]
        total5[4] += luck5[4]
    else:
        total5[0] -= luck5[0]
        total5[1] += luck5[3]
        total5[2] += luck5[4]
        total5[3] += luck5[1]
        total5[4] += luck5[2]


cdef struct Cube:
    # Cube state of one trial; value and owner are absolute (owner +1: the root side,
    # -1: the other side, 0: centred). Only used when a referee is given.
    bint enabled
    int value
    int owner
    int max_value                # doubling allowed while 2 * value <= max_value
    double luck_scale            # root's cubeful units per point of cubeless equity luck
    double luck_total            # the cubeful luck so far, root's units


cdef inline bint may_double(const Cube* cube, bint mover_is_root) noexcept nogil:
    return cube.owner != (-1 if mover_is_root else 1) and 2 * cube.value <= cube.max_value


cdef int cube_turn(PyObject* referee, MoneyCube* money, MatchCube* match, const EfficiencyRule* efficiency,
                   Cube* cube, const checker_t* board, bint mover_is_root, float* mover5,
                   double* cubeful) except -1 nogil:
    """The mover's cube action before rolling, by the referee from the mover's 5-vector (at
    the rollout's cube depth; in C without the GIL when ``money`` or ``match`` is active,
    with the cube efficiency of the board's class). Returns 1 when a double was passed
    (the game ends; cubeful set), else 0."""
    cdef int mover = 1 if mover_is_root else -1
    cdef int action
    if not may_double(cube, mover_is_root):
        return 0
    if money.active:
        board_efficiency(efficiency, board, money.efficiency)
        action = money_decide(money, mover5, cube.value, cube.owner * mover)
        if action == MONEY_DOUBLE_PASS:
            cubeful[0] = money_finished_value(money, mover, cube.value, cube.owner == 0)
            return 1
        if action == MONEY_DOUBLE_TAKE or action == MONEY_DOUBLE_BEAVER:
            cube.value *= 2 if action == MONEY_DOUBLE_TAKE else 4
            cube.owner = -mover
            cube.luck_scale = cube.value / <double>money.start_cube
        return 0
    if match.active:
        board_efficiency(efficiency, board, match.efficiency)
        action = match_decide(match, mover5, cube.value, cube.owner * mover, mover_is_root)
        if action == DOUBLE_PASS:
            cubeful[0] = match_finished_value(match, mover, cube.value)
            return 1
        if action == DOUBLE_TAKE:
            cube.value *= 2
            cube.owner = -mover
            cube.luck_scale = match_luck_scale(match, cube.value)
        return 0
    with gil:
        ref = <object>referee
        action = ref.decide((mover5[0], mover5[1], mover5[2], mover5[3], mover5[4]),
                            cube.value, cube.owner * mover, mover_is_root,
                            PyBytes_FromStringAndSize(<const char*>board, NUM_SLOTS))
        if action == DOUBLE_PASS:
            cubeful[0] = ref.finished_value(mover, cube.value, cube.owner == 0)
            return 1
        if action == DOUBLE_TAKE or action == DOUBLE_BEAVER:
            cube.value *= 2 if action == DOUBLE_TAKE else 4
            cube.owner = -mover
            cube.luck_scale = ref.luck_scale(cube.value)
    return 0


cdef int cube_final_value(PyObject* referee, MoneyCube* money, MatchCube* match,
                          const EfficiencyRule* efficiency, Cube* cube, const checker_t* board,
                          bint mover_is_root, bint exact_end, const float* mover5, double* cubeful) except -1 nogil:
    """Cubeful value for the root side when the trial stops: the points of a finished
    game, else the referee's cubeful value of the position (mover5) at this cube."""
    cdef int mover = 1 if mover_is_root else -1
    cdef int points
    cdef double value
    if money.active:
        if exact_end:
            points = -1 if mover5[3] == 0 else (-2 if mover5[4] == 0 else -3)
            cubeful[0] = money_finished_value(money, mover * points, cube.value, cube.owner == 0)
        else:
            board_efficiency(efficiency, board, money.efficiency)
            value = money_best_value(money, mover5, cube.value, cube.owner * mover) * cube.value / money.start_cube
            cubeful[0] = value if mover_is_root else -value
        return 0
    if match.active:
        if exact_end:
            points = -1 if mover5[3] == 0 else (-2 if mover5[4] == 0 else -3)
            cubeful[0] = match_finished_value(match, mover * points, cube.value)
        else:
            board_efficiency(efficiency, board, match.efficiency)
            cubeful[0] = match_position_value(match, mover5, cube.value, cube.owner * mover, mover_is_root)
        return 0
    with gil:
        ref = <object>referee
        if exact_end:
            points = -1 if mover5[3] == 0 else (-2 if mover5[4] == 0 else -3)
            cubeful[0] = ref.finished_value(mover * points, cube.value, cube.owner == 0)
        else:
            cubeful[0] = ref.position_value((mover5[0], mover5[1], mover5[2], mover5[3], mover5[4]),
                                            cube.value, cube.owner * mover, mover_is_root,
                                            PyBytes_FromStringAndSize(<const char*>board, NUM_SLOTS))
    return 0


cdef int run_trial(Kernel* k, const checker_t* root, int first_die1, int first_die2,
                   int forced_first, int forced_second, bint first_roll_no_doubles,
                   Cube* cube, double* result) except -1 nogil:
    """One game from ``root``; result[0..4] = outcome (root's view) minus the luck,
    result[6] the cubeful value minus the cubeful luck when the cube is on. Returns the
    plies played."""
    cdef checker_t board[NUM_SLOTS]
    cdef checker_t next_board[NUM_SLOTS]
    cdef float mover5[5]
    cdef float root5[5]
    cdef float luck5[5]
    cdef double luck_total[5]
    cdef double equity_luck, cubeful = 0.0
    cdef int ply = 0, random_rolls = 0, roll, j, status, plies
    cdef bint mover_is_root = True, dice_given = first_die1 > 0, no_doubles
    cdef bint exact_end = False, cube_ended = False
    memcpy(board, root, NUM_SLOTS)
    for j in range(5):
        luck_total[j] = 0.0
    while True:
        if finished_probabilities(board, mover5):
            exact_end = True
            break
        if not (ply == 0 and dice_given):
            if k.oracle.probabilities != NULL and k.oracle.probabilities(k.oracle.context, board, mover5):
                break
            if k.truncate_plies > 0 and ply >= k.truncate_plies:
                if evaluate_at(k, board, checker_plies_at(k, ply), mover5) < 0:
                    return trial_failed(k, -2)
                break
            if cube.enabled and (ply > 0 or k.root_may_double) and may_double(cube, mover_is_root):
                if evaluate_at(k, board, cube_plies_at(k, ply), mover5) < 0:
                    return trial_failed(k, -2)
                if cube_turn(k.referee, &k.money, &k.match, &k.efficiency, cube, board, mover_is_root, mover5, &cubeful):
                    cube_ended = True
                    break
        plies = checker_plies_at(k, ply)
        if ply == 0 and dice_given:
            status = play_best(k, board, first_die1, first_die2, plies, next_board, NULL)
            if status < 0:
                return trial_failed(k, status)
        else:
            no_doubles = first_roll_no_doubles and random_rolls == 0
            if random_rolls == 0 and forced_first != NO_ROLL:
                roll = forced_first
            elif random_rolls == 1 and forced_second != NO_ROLL:
                roll = forced_second
            else:
                roll = random_roll_index(k.rng, no_doubles)
            random_rolls += 1
            if k.variance_reduction:
                status = roll_luck(k, board, roll, no_doubles, plies, next_board, luck5)
                if status < 0:
                    return trial_failed(k, status)
                equity_luck = luck_total[0] * 2 + luck_total[1] + luck_total[2] - luck_total[3] - luck_total[4]
                add_luck(luck_total, luck5, mover_is_root)
                equity_luck = (luck_total[0] * 2 + luck_total[1] + luck_total[2] - luck_total[3]
                               - luck_total[4]) - equity_luck
                cube.luck_total += cube.luck_scale * equity_luck
            else:
                status = play_best(k, board, roll // 6 + 1, roll % 6 + 1, plies, next_board, NULL)
                if status < 0:
                    return trial_failed(k, status)
        memcpy(board, next_board, NUM_SLOTS)
        mover_is_root = not mover_is_root
        ply += 1
    if cube.enabled and not cube_ended:
        cube_final_value(k.referee, &k.money, &k.match, &k.efficiency, cube, board, mover_is_root, exact_end, mover5, &cubeful)
    to_root_view(mover5, mover_is_root, root5)
    for j in range(5):
        result[j] = root5[j] - luck_total[j]
    result[5] = equity_of_double(result)
    result[6] = cubeful - cube.luck_total
    return ply


cdef int trial_failed(Kernel* k, int status) except -1 nogil:
    """Raise what stopped a trial: move generation (-1) or the evaluator (-2)."""
    with gil:
        if status == -2:
            (<CEvaluator>k.evaluator_owner).raise_failure()
        raise RuntimeError("move generation failed inside a rollout trial")


def run_block(bytes board, CEvaluator evaluator, COracle oracle, object bit_generator,
              const short[::1] forced_first, const short[::1] forced_second,
              int first_die1, int first_die2, int truncate_plies,
              bint variance_reduction, bint first_roll_no_doubles, object referee=None, *,
              int checker_plies=0, int cube_plies=0, int later_plies=0, int later_from=0,
              int luck_plies=0, int keep=2, float margin=0.04, double[::1] trial_values=None):
    """Play len(forced_first) trials; returns (float64 [2, 7], plies): sums and sums of
    squares of (win, win_gammon, win_backgammon, lose_gammon, lose_backgammon, cubeless
    equity, cubeful value), root side's view, and the total plies played.

    ``forced_first``/``forced_second``: per trial, the ordered roll index (6*(d1-1)+d2-1)
    of the first and second random roll, or -1 to draw it at random. Each trial draws its
    dice from a stream of its own seeded by one 64-bit draw of ``bit_generator`` (a numpy
    BitGenerator used by this call only), so trial t of two calls with the same generator
    state sees the same dice at every ply, however earlier trials ended (bgcore._dice). ``referee``: None for cubeless, else an object
    with ``initial_cube() -> (value, owner, max_value)`` (owner +1 root, -1 other, 0
    centred), ``decide``, ``finished_value``, ``position_value`` and ``luck_scale`` (see
    bgengine.rollout; ``decide`` and ``position_value`` also get the mover's board); a
    referee whose optional ``money_cube_in_c()`` returns (jacoby, beavers, starting cube,
    maximum cube) has its money decisions and values made in C (_cube_money.pxd) without
    the GIL, and one whose ``match_cube_in_c()`` returns a match spec (see _cube_match.pxd)
    its match decisions and values (_cube_match.pxd); such a referee also gives
    ``efficiency_rule_in_c()`` (_cube_efficiency.pxd): each decision's cube efficiency by the
    class of its position. The caller validates everything (Python layer).

    Lookahead: ``checker_plies`` is the depth of checker play, ``cube_plies`` that of the
    5-vector given to the referee's ``decide`` (and of a passed double's cubeless value);
    from ply ``later_from`` of a trial on (0: never) both are ``later_plies``. A truncated
    game is evaluated at the checker depth in force at its last ply. ``keep``/``margin``:
    the move filter of the n-ply search. ``luck_plies``: the depth at which variance
    reduction values each of the 21 rolls (-1: the play's depth).

    ``trial_values``: None, or an array of len(forced_first) that gets each trial's last
    statistic (the cubeful value; the cubeless equity without a referee), so that two
    blocks on the same dice can be compared trial by trial.
    """
    if not (0 <= checker_plies <= MAX_PLIES and 0 <= cube_plies <= MAX_PLIES
            and 0 <= later_plies <= MAX_PLIES and -1 <= luck_plies <= MAX_PLIES):
        raise ValueError(f"plies must be 0..{MAX_PLIES}")
    if later_from < 0 or not 1 <= keep <= 64 or not margin >= 0:
        raise ValueError("later_from must be >= 0, keep 1..64 and margin >= 0")
    cdef const checker_t* root = checked_board(board)
    if evaluator.c.evaluate == NULL:
        raise ValueError("the evaluator has no evaluate function")
    cdef Py_ssize_t n = forced_first.shape[0], t
    if forced_second.shape[0] != n:
        raise ValueError("forced_first and forced_second differ in length")
    if trial_values is not None and trial_values.shape[0] != n:
        raise ValueError(f"trial_values has {trial_values.shape[0]} places for {n} trials")
    cdef bint keep_values = trial_values is not None
    if not ((first_die1 == 0 and first_die2 == 0) or (1 <= first_die1 <= 6 and 1 <= first_die2 <= 6)):
        raise ValueError(f"first dice must both be 0 (none given) or both 1..6, got {first_die1} and {first_die2}")
    for t in range(n):
        if not (NO_ROLL <= forced_first[t] < 36 and NO_ROLL <= forced_second[t] < 36):
            raise ValueError(f"trial {t}: a forced roll is an ordered roll index 0..35 or -1, got "
                             f"{forced_first[t]} and {forced_second[t]}")
        if first_roll_no_doubles and forced_first[t] != NO_ROLL and forced_first[t] % 7 == 0:
            raise ValueError(f"trial {t}: forced first roll {forced_first[t]} is a double, but the first roll has none")
    cdef Cube start_cube
    start_cube.enabled = referee is not None
    start_cube.value = 1
    start_cube.owner = 0
    start_cube.max_value = 0
    start_cube.luck_scale = 0.0
    start_cube.luck_total = 0.0
    if referee is not None:
        start_cube.value, start_cube.owner, start_cube.max_value = referee.initial_cube()
        start_cube.luck_scale = referee.luck_scale(start_cube.value)
    cdef Cube cube
    cdef Kernel k
    k.evaluator = evaluator.c
    k.evaluator_owner = <PyObject*>evaluator
    k.oracle = oracle.c
    cdef TrialStream trial_stream
    cdef bitgen_t trial_rng
    attach_trial_stream(&trial_rng, &trial_stream)
    k.rng = &trial_rng
    k.block_rng = bitgen_of(bit_generator)
    k.truncate_plies = truncate_plies
    k.variance_reduction = variance_reduction
    k.referee = <PyObject*>referee
    k.root_may_double = referee is not None and referee.root_may_double
    k.money.active = False
    money = None if referee is None else getattr(referee, "money_cube_in_c", lambda: None)()
    if money is not None:  # (jacoby, beavers, starting cube, maximum cube)
        k.money.active = True
        k.money.efficiency[0] = k.money.efficiency[1] = k.money.efficiency[2] = 0.0
        k.money.jacoby, k.money.beavers, k.money.start_cube, k.money.max_cube = money
    k.match.active = False
    match = None if referee is None or money is not None else getattr(referee, "match_cube_in_c", lambda: None)()
    if match is not None:  # (root away, other away, crawford, after Crawford, max cube, MET)
        match_cube_from(&k.match, match, 0.0)
    if money is not None or match is not None:  # x per decision, by the position's class
        efficiency_rule_from(&k.efficiency, referee.efficiency_rule_in_c())
    k.checker_plies = checker_plies
    k.cube_plies = cube_plies
    k.later_plies = later_plies
    k.later_from = later_from
    k.luck_plies = luck_plies
    k.move_filter.keep = keep
    k.move_filter.margin = margin
    k.children = <checker_t*>malloc(MAX_CHILDREN * NUM_SLOTS * sizeof(checker_t))
    k.children5 = <float*>malloc(MAX_CHILDREN * 5 * sizeof(float))
    if k.children == NULL or k.children5 == NULL:
        free(k.children)
        free(k.children5)
        raise MemoryError()
    stats = np.zeros((2, NUM_STATS), dtype=np.float64)
    cdef double[:, ::1] s = stats
    cdef double result[NUM_STATS]
    cdef long long plies = 0
    cdef int j
    # the engine's networks do not change during a rollout: the network may keep the
    # hidden sums of the sides that come back (bgcore._nn.hold_networks)
    cdef bint hold = isinstance(evaluator, EngineCEvaluator)
    try:
        with nogil:
            if hold:
                hold_networks(True)
            for t in range(n):
                cube = start_cube
                start_trial_stream(&trial_stream, k.block_rng)
                plies += run_trial(&k, root, first_die1, first_die2, forced_first[t],
                                   forced_second[t], first_roll_no_doubles, &cube, result)
                for j in range(NUM_STATS):
                    s[0, j] += result[j]
                    s[1, j] += result[j] * result[j]
                if keep_values:
                    trial_values[t] = result[NUM_STATS - 1] if start_cube.enabled else result[5]
    finally:
        if hold:
            hold_networks(False)
        free(k.children)
        free(k.children5)
    return stats, plies


cdef double equity_of_double(const double* p5) noexcept nogil:
    return 2.0 * p5[0] - 1.0 + p5[1] - p5[3] + p5[2] - p5[4]

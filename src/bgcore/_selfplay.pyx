# cython: language_level=3
"""Whole games in C: TD(lambda) self-play training and duels between fixed players.

Dice come from a numpy bit generator (``numpy.random.PCG64`` etc.), so a seed gives the
same games, and a checkpoint can store the generator state and resume exactly.

Training is TD(lambda) in its forward view: during a game each position s_t is stored with
the network's value of the chosen child (the position after the move, flipped to the
mover's view); at the end of the game the lambda-returns
G_t = (1 - lambda) V(s_t+1) + lambda G_t+1 (G of the last move = the exact result) are
computed backwards and the network takes one gradient step per position towards G_t.
This is the offline lambda-return (forward) view of TD(lambda): were all steps taken with
the weights of the game, it would equal eligibility traces accumulated over the game and
applied at its end; here the steps follow one another, at the cost of one backward pass
per position and no traces to keep.
"""

import numpy as np
from libc.stdlib cimport malloc, free
from libc.stdint cimport uint32_t
from libc.string cimport memcmp, memcpy, memset
from numpy.random cimport bitgen_t

from bgcore._types cimport checker_t, NUM_SLOTS
from bgcore._nn cimport (Network, NeuralNet, NUM_OUTPUTS, MAX_ACTIVE_INPUTS, MAX_HIDDEN,
                         encode_sparse, forward_raw, finished_probabilities,
                         flip_probabilities, add_scaled)
from bgcore._pubeval cimport PubEval, pubeval_best_child
from bgcore._evaluator cimport BoardEvaluator, CEvaluator, best_child
from bgcore._engine cimport EngineCEvaluator
from bgcore._nply cimport MoveFilter, best_reply
from bgcore._dice cimport random_die, bitgen_of, uniform_below
from bgcore._board cimport check_boards
from bgcore._movegen cimport legal_children, MAX_CHILDREN

cdef enum:
    MAX_PLIES = 4000                # a game longer than this is abandoned (never seen)
    GAME_FAILED = 1000              # play_game's answer when a player's evaluator failed

cdef checker_t INITIAL[26]
INITIAL[:] = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]

# A player that picks one child: any C evaluator searched `plies` deep with move filters
# (0-ply: the shared best_child), or PubEval's own move choice (evaluator.evaluate NULL:
# PubEval scores the position after a move, with weights chosen by the position before).
ctypedef struct Player:
    BoardEvaluator evaluator
    int plies
    MoveFilter root_filter
    MoveFilter move_filter
    const float* pubeval_contact
    const float* pubeval_race


cdef class EnginePlayer:
    """A duel player searching ``plies`` deep with ``evaluator`` (a CEvaluator such as the
    engine's ``bgcore._engine.EngineCEvaluator``, or a NeuralNet alone): candidates by
    ``root_keep``/``root_margin``, replies by ``keep``/``margin``."""
    cdef CEvaluator evaluator
    cdef int plies
    cdef MoveFilter root_filter
    cdef MoveFilter move_filter

    def __init__(self, evaluator, int plies=0, int root_keep=8, float root_margin=0.16,
                 int keep=2, float margin=0.04):
        if not 0 <= plies <= 3 or not 1 <= root_keep <= 64 or not 1 <= keep <= 64:
            raise ValueError("need plies 0..3 and filters keeping 1..64 moves")
        self.evaluator = as_c_evaluator(evaluator)
        self.plies = plies
        self.root_filter.keep = root_keep
        self.root_filter.margin = root_margin
        self.move_filter.keep = keep
        self.move_filter.margin = margin


cdef CEvaluator as_c_evaluator(obj):
    """A CEvaluator as is; a NeuralNet as the network alone (no race tables)."""
    if isinstance(obj, CEvaluator):
        return obj
    if isinstance(obj, NeuralNet):
        return EngineCEvaluator(obj)
    raise TypeError(f"an evaluator is a CEvaluator or a NeuralNet, got {type(obj).__name__}")


cdef inline void roll_dice(bitgen_t* rng, bint opening, int* d1, int* d2) noexcept nogil:
    """Two dice; the opening roll of a game is never a double."""
    while True:
        d1[0] = random_die(rng)
        d2[0] = random_die(rng)
        if not opening or d1[0] != d2[0]:
            return


# The dice of one game: drawn from ``rng`` and written to ``recorded`` (the first game of a
# pair), or read back from ``recorded`` while it lasts (the second, so both players of a
# paired duel meet the same rolls), then drawn afresh.
ctypedef struct DiceStream:
    bitgen_t* rng
    unsigned char* recorded        # MAX_PLIES pairs of dice, or NULL: always draw
    int available                  # recorded rolls to replay (0: record)
    int used


cdef inline void next_roll(DiceStream* dice, bint opening, int* d1, int* d2) noexcept nogil:
    """The next roll of ``dice``: replayed while recorded rolls last, else drawn (and recorded)."""
    if dice.recorded != NULL and dice.used < dice.available:
        d1[0] = dice.recorded[2 * dice.used]
        d2[0] = dice.recorded[2 * dice.used + 1]
    else:
        roll_dice(dice.rng, opening, d1, d2)
        if dice.recorded != NULL and dice.available == 0:
            dice.recorded[2 * dice.used] = <unsigned char>d1[0]
            dice.recorded[2 * dice.used + 1] = <unsigned char>d2[0]
    dice.used += 1


cdef inline int choose(const Player* player, const checker_t* board,
                       const checker_t* children, int n, float* scratch5) noexcept nogil:
    """Index of the child ``player`` plays, or -1 when its evaluator failed."""
    cdef float chosen5[NUM_OUTPUTS]
    if player.evaluator.evaluate == NULL:
        return pubeval_best_child(player.pubeval_contact, player.pubeval_race, board, children, n)
    return best_reply(&player.evaluator, children, n, player.plies, &player.root_filter,
                      &player.move_filter, scratch5, chosen5)


cdef int points_won_by_last_mover(const checker_t* finished) noexcept nogil:
    """1, 2 or 3 points for the player who just bore off (the board is the loser's view)."""
    cdef float p[NUM_OUTPUTS]
    finished_probabilities(finished, p)
    return 1 + <int>p[3] + <int>p[4]


cdef int play_game(const Player* first, const Player* second, DiceStream* dice,
                   checker_t* children, float* scratch5) noexcept nogil:
    """Points won by ``first`` (negative if lost) in one game where ``first`` starts."""
    cdef checker_t board[NUM_SLOTS]
    cdef int d1, d2, n, chosen, ply = 0
    cdef const Player* mover
    memcpy(board, INITIAL, NUM_SLOTS)
    while ply < MAX_PLIES:
        mover = first if ply % 2 == 0 else second
        next_roll(dice, ply == 0, &d1, &d2)
        n = legal_children(board, d1, d2, children, MAX_CHILDREN)
        chosen = choose(mover, board, children, n, scratch5)
        if chosen < 0:
            return GAME_FAILED
        memcpy(board, children + chosen * NUM_SLOTS, NUM_SLOTS)
        if finished_probabilities(board, scratch5):
            return points_won_by_last_mover(board) * (1 if ply % 2 == 0 else -1)
        ply += 1
    return 0


cdef Player player_of(obj, list keep_alive) except *:
    """The C player of a NeuralNet or CEvaluator (0-ply), an EnginePlayer or a PubEval."""
    cdef Player player
    cdef CEvaluator evaluator
    memset(&player, 0, sizeof(Player))
    if isinstance(obj, PubEval):
        player.pubeval_contact = (<PubEval>obj).contact
        player.pubeval_race = (<PubEval>obj).race
        return player
    if isinstance(obj, EnginePlayer):
        evaluator = (<EnginePlayer>obj).evaluator
        player.plies = (<EnginePlayer>obj).plies
        player.root_filter = (<EnginePlayer>obj).root_filter
        player.move_filter = (<EnginePlayer>obj).move_filter
    elif isinstance(obj, (NeuralNet, CEvaluator)):
        evaluator = as_c_evaluator(obj)
        player.root_filter.keep = 1
        player.move_filter.keep = 1
    else:
        raise TypeError(f"a player is a NeuralNet, a CEvaluator, an EnginePlayer or a PubEval,"
                        f" got {type(obj).__name__}")
    if evaluator.c.evaluate == NULL:
        raise ValueError(f"{type(evaluator).__name__} has no evaluate function")
    keep_alive.append(evaluator)
    player.evaluator = evaluator.c
    return player


def duel(player_a, player_b, int games, bit_generator, bint paired=False):
    """Points per game won by ``player_a`` (int8 array); a starts the even-numbered games.

    Cubeless money games to the end; a player is a NeuralNet or a CEvaluator (its move at
    0-ply), an EnginePlayer (n-ply) or a PubEval; dice from ``bit_generator`` (a numpy
    BitGenerator, advanced in place). ``paired``: games 2k and 2k+1 roll the same dice
    (b meets in game 2k+1 the rolls a met in game 2k), so the luck of the dice mostly cancels
    within a pair; ``games`` must then be even, and a standard error is taken over pair sums.
    """
    if games < 0:
        raise ValueError("games must be >= 0")
    if paired and games % 2:
        raise ValueError(f"a paired duel plays whole pairs of games, not {games}")
    keep_alive = []
    cdef Player a = player_of(player_a, keep_alive)
    cdef Player b = player_of(player_b, keep_alive)
    cdef bitgen_t* rng = bitgen_of(bit_generator)
    points = np.zeros(games, dtype=np.int8)
    cdef signed char[::1] out = points
    cdef checker_t* children = <checker_t*>malloc(MAX_CHILDREN * NUM_SLOTS)
    cdef float* scratch = <float*>malloc(MAX_CHILDREN * NUM_OUTPUTS * sizeof(float))
    cdef unsigned char* recorded = <unsigned char*>malloc(2 * MAX_PLIES) if paired else NULL
    cdef DiceStream dice
    cdef int g, result = 0
    if children == NULL or scratch == NULL or (paired and recorded == NULL):
        free(children)
        free(scratch)
        free(recorded)
        raise MemoryError()
    dice.rng = rng
    dice.recorded = recorded
    with bit_generator.lock, nogil:
        for g in range(games):
            dice.available = dice.used if g % 2 == 1 else 0
            dice.used = 0
            if g % 2 == 0:
                result = play_game(&a, &b, &dice, children, scratch)
            else:
                result = -play_game(&b, &a, &dice, children, scratch)
            if result == GAME_FAILED or result == -GAME_FAILED:
                break
            out[g] = result
    free(children)
    free(scratch)
    free(recorded)
    if result == GAME_FAILED or result == -GAME_FAILED:
        for evaluator in keep_alive:
            error = evaluator.failure()
            if error is not None:
                raise error
        raise RuntimeError("a player's evaluator failed during a duel")
    return points


# ----- training ----------------------------------------------------------------------------

cdef void gradient_step(Network* net, const checker_t* board, const float* target,
                        float alpha) noexcept nogil:
    """One step of gradient descent on 0.5 * |target - raw outputs|^2 for one board."""
    cdef int indices[MAX_ACTIVE_INPUTS]
    cdef float values[MAX_ACTIVE_INPUTS]
    cdef float hidden[MAX_HIDDEN]
    cdef float hidden_delta[MAX_HIDDEN]
    cdef float raw[NUM_OUTPUTS]
    cdef float out_delta[NUM_OUTPUTS]
    cdef int i, j, k, h = net.num_hidden
    cdef int active = encode_sparse(board, net.encoding, indices, values)
    cdef float step, total
    forward_raw(net, indices, values, active, hidden, raw)
    for k in range(NUM_OUTPUTS):
        out_delta[k] = (target[k] - raw[k]) * raw[k] * (1.0 - raw[k])
    for j in range(h):
        total = 0.0
        for k in range(NUM_OUTPUTS):
            total += net.output_weights[k * h + j] * out_delta[k]
        hidden_delta[j] = alpha * total * hidden[j] * (1.0 - hidden[j])
    for k in range(NUM_OUTPUTS):
        step = alpha * out_delta[k]
        add_scaled(net.output_weights + k * h, hidden, step, h)
        net.output_bias[k] += step
    add_scaled(net.hidden_bias, hidden_delta, 1.0, h)
    for i in range(active):
        add_scaled(net.hidden_weights + indices[i] * h, hidden_delta, values[i], h)


cdef int train_one_game(Network* net, const BoardEvaluator* policy, bitgen_t* rng, float alpha, float lam,
                        const checker_t* start, checker_t* children, float* scratch5,
                        checker_t* positions, float* values) noexcept nogil:
    """Play one self-play game from ``start`` and learn from it; returns its number of plies
    (0: abandoned). The first roll from the opening position is never a double."""
    cdef checker_t board[NUM_SLOTS]
    cdef int d1, d2, n, chosen, t, k, plies = 0
    cdef float next_return[NUM_OUTPUTS]
    cdef bint opening = memcmp(start, INITIAL, NUM_SLOTS) == 0
    memcpy(board, start, NUM_SLOTS)
    if finished_probabilities(board, scratch5):
        return 0
    while True:
        if plies == MAX_PLIES:
            return 0
        roll_dice(rng, opening and plies == 0, &d1, &d2)
        n = legal_children(board, d1, d2, children, MAX_CHILDREN)
        chosen = best_child(policy, children, n, scratch5)   # never fails: the network alone
        memcpy(positions + plies * NUM_SLOTS, board, NUM_SLOTS)
        flip_probabilities(scratch5 + chosen * NUM_OUTPUTS, values + plies * NUM_OUTPUTS)
        memcpy(board, children + chosen * NUM_SLOTS, NUM_SLOTS)
        plies += 1
        if finished_probabilities(board, scratch5):
            break
    # lambda-returns backwards, in place: values[t] becomes G_t (the mover at t's view)
    for t in range(plies - 2, -1, -1):
        flip_probabilities(values + (t + 1) * NUM_OUTPUTS, next_return)
        for k in range(NUM_OUTPUTS):
            values[t * NUM_OUTPUTS + k] = ((1.0 - lam) * values[t * NUM_OUTPUTS + k]
                                           + lam * next_return[k])
    for t in range(plies):
        gradient_step(net, positions + t * NUM_SLOTS, values + t * NUM_OUTPUTS, alpha)
    return plies


def _start_boards(starts):
    """(m, 26) int8 C-contiguous start boards, checked (m = 0 when ``starts`` is None)."""
    if starts is None:
        return np.zeros((0, NUM_SLOTS), dtype=np.int8)
    array = np.asarray(starts)
    if array.ndim != 2 or array.shape[1] != NUM_SLOTS or array.shape[0] == 0:
        raise ValueError(f"starts must have shape (m, {NUM_SLOTS}) with m >= 1, got {array.shape}")
    if array.dtype.kind not in "iu" or array.min() < -15 or array.max() > 15:
        raise ValueError("starts must hold checker counts between -15 and 15")
    if array.shape[0] >= 1 << 31:
        raise ValueError("too many start boards")
    array = np.ascontiguousarray(array, dtype=np.int8)
    cdef const checker_t[:, ::1] view = array
    check_boards(&view[0, 0], view.shape[0])
    return array


cdef inline float step_size(double alpha, double half_life, double min_alpha,
                            long long game) noexcept nogil:
    """alpha * h / (h + game), never below min_alpha: the step size of one game."""
    cdef double decayed = alpha * half_life / (half_life + game)
    return <float>(decayed if decayed > min_alpha else min_alpha)


def train_games(NeuralNet network, int games, long long first_game, double alpha,
                double half_life, double min_alpha, double lam, bit_generator, starts=None):
    """Train ``network`` in place on ``games`` self-play games; returns the plies played.

    Game g (counting from ``first_game``) uses the step size
    max(min_alpha, alpha * half_life / (half_life + g)); ``lam`` is the TD lambda in
    [0, 1]; dice from the numpy ``bit_generator``, advanced in place. ``starts``: an (m, 26)
    array of start boards (player on roll's view), one drawn uniformly with the same
    generator for each game (None: every game from the opening, no draw).
    """
    if games < 0 or first_game < 0 or not 0.0 <= lam <= 1.0 or not alpha > 0.0:
        raise ValueError("need games >= 0, first_game >= 0, 0 <= lam <= 1 and alpha > 0")
    if not half_life > 0.0 or min_alpha < 0.0:
        raise ValueError("need half_life > 0 and min_alpha >= 0")
    cdef const checker_t[:, ::1] start_view = _start_boards(starts)
    cdef Py_ssize_t start_count = start_view.shape[0]
    cdef const checker_t* start
    cdef bitgen_t* rng = bitgen_of(bit_generator)
    cdef checker_t* children = <checker_t*>malloc(MAX_CHILDREN * NUM_SLOTS)
    cdef float* scratch = <float*>malloc(MAX_CHILDREN * NUM_OUTPUTS * sizeof(float))
    cdef checker_t* positions = <checker_t*>malloc(MAX_PLIES * NUM_SLOTS)
    cdef float* values = <float*>malloc(MAX_PLIES * NUM_OUTPUTS * sizeof(float))
    cdef long long plies = 0
    cdef int g
    cdef float l = lam
    cdef CEvaluator policy = EngineCEvaluator(network)     # the network being trained, alone
    if children == NULL or scratch == NULL or positions == NULL or values == NULL:
        free(children)
        free(scratch)
        free(positions)
        free(values)
        raise MemoryError()
    with bit_generator.lock, nogil:
        for g in range(games):
            start = (&INITIAL[0] if start_count == 0
                     else &start_view[uniform_below(rng, <uint32_t>start_count), 0])
            plies += train_one_game(&network.net, &policy.c, rng,
                                    step_size(alpha, half_life, min_alpha, first_game + g),
                                    l, start, children, scratch, positions, values)
    free(children)
    free(scratch)
    free(positions)
    free(values)
    return plies

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
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from numpy.random cimport bitgen_t

from bgcore._types cimport checker_t, NUM_SLOTS
from bgcore._nn cimport (Network, NeuralNet, NUM_OUTPUTS, MAX_ACTIVE_INPUTS, MAX_HIDDEN,
                         encode_sparse, forward_raw, finished_probabilities, best_child,
                         flip_probabilities, add_scaled)
from bgcore._pubeval cimport PubEval, pubeval_best_child
from bgcore._nply cimport StaticEvaluator, MoveFilter, engine_static, best_reply
from bgcore._movegen cimport legal_children, MAX_CHILDREN

cdef enum:
    MAX_PLIES = 4000                # a game longer than this is abandoned (never seen)
    KIND_NETWORK = 0
    KIND_PUBEVAL = 1
    KIND_ENGINE = 2

cdef checker_t INITIAL[26]
INITIAL[:] = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]

# A player that picks one child: a network at 0-ply, PubEval, or the engine (network,
# race tables, n-ply with move filters).
ctypedef struct Player:
    int kind
    const Network* net
    const float* pubeval_contact
    const float* pubeval_race
    StaticEvaluator engine
    int plies
    MoveFilter root_filter
    MoveFilter move_filter


cdef class EnginePlayer:
    """The engine as a duel player: the network with race tables (install them first) at
    ``plies``, candidates by ``root_keep``/``root_margin``, replies by ``keep``/``margin``."""
    cdef NeuralNet network
    cdef int plies
    cdef MoveFilter root_filter
    cdef MoveFilter move_filter

    def __init__(self, NeuralNet network, int plies=0, int root_keep=8, float root_margin=0.16,
                 int keep=2, float margin=0.04):
        if not 0 <= plies <= 3 or not 1 <= root_keep <= 64 or not 1 <= keep <= 64:
            raise ValueError("need plies 0..3 and filters keeping 1..64 moves")
        self.network = network
        self.plies = plies
        self.root_filter.keep = root_keep
        self.root_filter.margin = root_margin
        self.move_filter.keep = keep
        self.move_filter.margin = margin


cdef inline int roll_die(bitgen_t* rng) noexcept nogil:
    """A fair die 1..6 by rejection from 32 random bits."""
    cdef unsigned int x
    while True:
        x = rng.next_uint32(rng.state)
        if x < 4294967292u:         # 6 * 715827882: keeps the six faces equally likely
            return 1 + x % 6


cdef inline void roll_dice(bitgen_t* rng, bint opening, int* d1, int* d2) noexcept nogil:
    """Two dice; the opening roll of a game is never a double."""
    while True:
        d1[0] = roll_die(rng)
        d2[0] = roll_die(rng)
        if not opening or d1[0] != d2[0]:
            return


cdef inline int choose(const Player* player, const checker_t* board,
                       const checker_t* children, int n, float* scratch5) noexcept nogil:
    cdef float chosen5[NUM_OUTPUTS]
    cdef int index
    if player.kind == KIND_NETWORK:
        return best_child(player.net, children, n, scratch5)
    if player.kind == KIND_ENGINE:
        index = best_reply(&player.engine, children, n, player.plies, &player.root_filter,
                           &player.move_filter, scratch5, chosen5)
        return index if index >= 0 else 0
    return pubeval_best_child(player.pubeval_contact, player.pubeval_race, board, children, n)


cdef int points_won_by_last_mover(const checker_t* finished) noexcept nogil:
    """1, 2 or 3 points for the player who just bore off (the board is the loser's view)."""
    cdef float p[NUM_OUTPUTS]
    finished_probabilities(finished, p)
    return 1 + <int>p[3] + <int>p[4]


cdef int play_game(const Player* first, const Player* second, bitgen_t* rng,
                   checker_t* children, float* scratch5) noexcept nogil:
    """Points won by ``first`` (negative if lost) in one game where ``first`` starts."""
    cdef checker_t board[NUM_SLOTS]
    cdef int d1, d2, n, chosen, ply = 0
    cdef const Player* mover
    memcpy(board, INITIAL, NUM_SLOTS)
    while ply < MAX_PLIES:
        mover = first if ply % 2 == 0 else second
        roll_dice(rng, ply == 0, &d1, &d2)
        n = legal_children(board, d1, d2, children, MAX_CHILDREN)
        chosen = choose(mover, board, children, n, scratch5)
        memcpy(board, children + chosen * NUM_SLOTS, NUM_SLOTS)
        if finished_probabilities(board, scratch5):
            return points_won_by_last_mover(board) * (1 if ply % 2 == 0 else -1)
        ply += 1
    return 0


cdef bitgen_t* bitgen_of(bit_generator) except NULL:
    capsule = bit_generator.capsule
    return <bitgen_t*>PyCapsule_GetPointer(capsule, "BitGenerator")


cdef Player player_of(obj) except *:
    cdef Player player
    memset(&player, 0, sizeof(Player))
    player.net = NULL
    player.pubeval_contact = NULL
    player.pubeval_race = NULL
    if isinstance(obj, NeuralNet):
        player.kind = KIND_NETWORK
        player.net = &(<NeuralNet>obj).net
    elif isinstance(obj, EnginePlayer):
        player.kind = KIND_ENGINE
        player.engine.evaluate = engine_static
        player.engine.context = <void*>&(<EnginePlayer>obj).network.net
        player.plies = (<EnginePlayer>obj).plies
        player.root_filter = (<EnginePlayer>obj).root_filter
        player.move_filter = (<EnginePlayer>obj).move_filter
    elif isinstance(obj, PubEval):
        player.kind = KIND_PUBEVAL
        player.pubeval_contact = (<PubEval>obj).contact
        player.pubeval_race = (<PubEval>obj).race
    else:
        raise TypeError(f"a player is a NeuralNet, an EnginePlayer or a PubEval, got {type(obj).__name__}")
    return player


def duel(player_a, player_b, int games, bit_generator):
    """Points per game won by ``player_a`` (int8 array); a starts the even-numbered games.

    Cubeless money games to the end, both players choosing their move at 0-ply; dice from
    ``bit_generator`` (a numpy BitGenerator, advanced in place).
    """
    if games < 0:
        raise ValueError("games must be >= 0")
    cdef Player a = player_of(player_a)
    cdef Player b = player_of(player_b)
    cdef bitgen_t* rng = bitgen_of(bit_generator)
    points = np.zeros(games, dtype=np.int8)
    cdef signed char[::1] out = points
    cdef checker_t* children = <checker_t*>malloc(MAX_CHILDREN * NUM_SLOTS)
    cdef float* scratch = <float*>malloc(MAX_CHILDREN * NUM_OUTPUTS * sizeof(float))
    cdef int g
    if children == NULL or scratch == NULL:
        free(children)
        free(scratch)
        raise MemoryError()
    with bit_generator.lock, nogil:
        for g in range(games):
            if g % 2 == 0:
                out[g] = play_game(&a, &b, rng, children, scratch)
            else:
                out[g] = -play_game(&b, &a, rng, children, scratch)
    free(children)
    free(scratch)
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
    cdef int active = encode_sparse(board, indices, values)
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


cdef int train_one_game(Network* net, bitgen_t* rng, float alpha, float lam,
                        checker_t* children, float* scratch5, checker_t* positions,
                        float* values) noexcept nogil:
    """Play one self-play game and learn from it; returns its number of plies (0: abandoned)."""
    cdef checker_t board[NUM_SLOTS]
    cdef int d1, d2, n, chosen, t, k, plies = 0
    cdef float next_return[NUM_OUTPUTS]
    memcpy(board, INITIAL, NUM_SLOTS)
    while True:
        if plies == MAX_PLIES:
            return 0
        roll_dice(rng, plies == 0, &d1, &d2)
        n = legal_children(board, d1, d2, children, MAX_CHILDREN)
        chosen = best_child(net, children, n, scratch5)
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


cdef inline float step_size(double alpha, double half_life, double min_alpha,
                            long long game) noexcept nogil:
    """alpha * h / (h + game), never below min_alpha: the step size of one game."""
    cdef double decayed = alpha * half_life / (half_life + game)
    return <float>(decayed if decayed > min_alpha else min_alpha)


def train_games(NeuralNet network, int games, long long first_game, double alpha,
                double half_life, double min_alpha, double lam, bit_generator):
    """Train ``network`` in place on ``games`` self-play games; returns the plies played.

    Game g (counting from ``first_game``) uses the step size
    max(min_alpha, alpha * half_life / (half_life + g)); ``lam`` is the TD lambda in
    [0, 1]; dice from the numpy ``bit_generator``, advanced in place.
    """
    if games < 0 or first_game < 0 or not 0.0 <= lam <= 1.0 or not alpha > 0.0:
        raise ValueError("need games >= 0, first_game >= 0, 0 <= lam <= 1 and alpha > 0")
    if not half_life > 0.0 or min_alpha < 0.0:
        raise ValueError("need half_life > 0 and min_alpha >= 0")
    cdef bitgen_t* rng = bitgen_of(bit_generator)
    cdef checker_t* children = <checker_t*>malloc(MAX_CHILDREN * NUM_SLOTS)
    cdef float* scratch = <float*>malloc(MAX_CHILDREN * NUM_OUTPUTS * sizeof(float))
    cdef checker_t* positions = <checker_t*>malloc(MAX_PLIES * NUM_SLOTS)
    cdef float* values = <float*>malloc(MAX_PLIES * NUM_OUTPUTS * sizeof(float))
    cdef long long plies = 0
    cdef int g
    cdef float l = lam
    if children == NULL or scratch == NULL or positions == NULL or values == NULL:
        free(children)
        free(scratch)
        free(positions)
        free(values)
        raise MemoryError()
    with bit_generator.lock, nogil:
        for g in range(games):
            plies += train_one_game(&network.net, rng,
                                    step_size(alpha, half_life, min_alpha, first_game + g),
                                    l, children, scratch, positions, values)
    free(children)
    free(scratch)
    free(positions)
    free(values)
    return plies

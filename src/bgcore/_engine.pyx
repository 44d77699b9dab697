# cython: language_level=3
"""The engine's evaluator for every kernel: one composite behind the C evaluator contract.

``EngineCEvaluator(network, tables, race_network, crashed_network)``: finished games exact;
positions without contact from ``race_network`` (a ``bgcore._race_net.RaceNet``: exact
two-sided bear-off, else the race network) when given, else from ``tables`` (a
``bgcore._race.RaceTables``: exact two-sided bear-off, else the race approximation) when
given; crashed positions (contact, and a side has at most ``CRASHED_IN_PLAY`` checkers on
its bar and points 3..24) from ``crashed_network`` when given; everything else from
``network``. ``second_stage`` (another EngineCEvaluator, e.g. with a wider contact network) with
``shortlist`` K makes the 0-ply move choice two-stage (``bgcore._evaluator.value_children``):
this evaluator values every child of a roll, the second re-values its best K and picks
among them. ``position_classes(boards)``: the class codes (``CONTACT``, ``CRASHED``,
``RACE``) of boards, the one definition.
``BearoffOracle(tables)``: the exact two-sided results, for rollouts that stop there.
The network must not change while a kernel uses it (training updates weights in place).
"""

import numpy as np

from bgcore._types cimport checker_t, NUM_SLOTS, PHASE_CONTACT
from bgcore._board cimport phase_of, checkers_in_play_of
from bgcore._outcomes cimport NUM_OUTPUTS, finished_probabilities
from bgcore._evaluator cimport EVALUATION_OK, MAX_SHORTLIST, BoardEvaluator, CEvaluator, COracle
from bgcore._nn cimport NeuralNet, Network, evaluate_boards
from bgcore._nn import checked_boards
from bgcore._race cimport RaceTables, race_probabilities
from bgcore._race_net cimport RaceNet, race_network_evaluate
from bgcore._bearoff_tables cimport TwoSidedTable, two_sided_win_probability


CONTACT, CRASHED, RACE = CLASS_CONTACT, CLASS_CRASHED, CLASS_RACE
CHECKERS_IN_PLAY_WHEN_CRASHED = CRASHED_IN_PLAY


cdef inline bint crashed(const checker_t* board) noexcept nogil:
    """A side has at most CRASHED_IN_PLAY checkers in play (the board has contact)."""
    cdef int mover, opponent
    checkers_in_play_of(board, &mover, &opponent)
    return mover <= CRASHED_IN_PLAY or opponent <= CRASHED_IN_PLAY


cdef inline PositionClass class_of(const checker_t* board, bint crashed_class) noexcept nogil:
    """The position's class; crashed boards count as contact unless ``crashed_class``."""
    if phase_of(board) != PHASE_CONTACT:
        return CLASS_RACE
    return CLASS_CRASHED if crashed_class and crashed(board) else CLASS_CONTACT


cdef PositionClass position_class(const checker_t* board) noexcept nogil:
    return class_of(board, True)


def position_classes(boards):
    """The class codes (int8: CONTACT, CRASHED or RACE) of (n, 26) or (26,) boards."""
    cdef const checker_t[:, ::1] view = checked_boards(boards)
    codes = np.empty(view.shape[0], dtype=np.int8)
    cdef signed char[::1] out = codes
    cdef Py_ssize_t b
    for b in range(view.shape[0]):
        out[b] = <signed char>position_class(&view[b, 0])
    return codes


cdef int network_evaluate(void* context, const checker_t* boards, int n,
                          float* out5) noexcept nogil:
    """The network alone (finished games exact): a BoardEvaluator function."""
    evaluate_boards(<const Network*>context, boards, n, out5)
    return EVALUATION_OK


cdef enum:
    NO_NETWORK = -1                     # a board the engine valued itself (finished, race tables)


cdef inline int evaluate_run(const Engine* engine, int kind, const checker_t* boards, int first,
                             int end, float* out5) noexcept nogil:
    """Boards first..end-1, all of class ``kind``, by that class's network in one call (a
    batch: the contact networks take it a block at a time)."""
    cdef const BoardEvaluator* network
    if kind == NO_NETWORK or end <= first:
        return EVALUATION_OK
    network = &engine.by_class[kind]
    return network.evaluate(network.context, boards + first * NUM_SLOTS, end - first,
                            out5 + first * NUM_OUTPUTS)


cdef int engine_evaluate(void* context, const checker_t* boards, int n,
                         float* out5) noexcept nogil:
    """Finished games and (unless races go by class) races in the tables valued here, the
    rest by their class's network, consecutive boards of one class in one call."""
    cdef const Engine* engine = <const Engine*>context
    cdef const checker_t* board
    cdef float* out
    cdef int b, kind, status, first = 0, run_kind = NO_NETWORK
    for b in range(n):
        board = boards + b * NUM_SLOTS
        out = out5 + b * NUM_OUTPUTS
        if finished_probabilities(board, out):
            kind = NO_NETWORK
        else:
            kind = <int>class_of(board, engine.crashed_by_class)
            if (kind == <int>CLASS_RACE and not engine.races_by_class and engine.tables != NULL
                    and race_probabilities(engine.tables, board, out) == 0):
                kind = NO_NETWORK
        if kind != run_kind:
            status = evaluate_run(engine, run_kind, boards, first, b, out5)
            if status != EVALUATION_OK:
                return status
            first = b
            run_kind = kind
    return evaluate_run(engine, run_kind, boards, first, n, out5)


cdef class EngineCEvaluator(CEvaluator):
    """The engine's 0-ply for kernels: exact finished games, ``race_network`` (a RaceNet,
    or None) for positions without contact, else ``tables`` (a RaceTables, or None) for
    them, ``crashed_network`` (a NeuralNet, or None) for crashed positions, ``network`` (a
    NeuralNet) for the rest (and the crashed ones when there is no crashed network);
    ``second_stage`` (or None) re-values the ``shortlist`` best children of a roll."""

    def __init__(self, NeuralNet network, RaceTables tables=None, RaceNet race_network=None,
                 NeuralNet crashed_network=None, EngineCEvaluator second_stage=None, int shortlist=0):
        cdef int kind
        cdef int classes = NUM_POSITION_CLASSES
        if second_stage is not None:
            if second_stage.second_stage is not None:
                raise ValueError("a second stage cannot have a second stage of its own")
            if not 1 <= shortlist <= MAX_SHORTLIST:
                raise ValueError(f"shortlist must be 1..{MAX_SHORTLIST} with a second stage, got {shortlist}")
            self.c.second = &second_stage.c
            self.c.shortlist = shortlist
        elif shortlist != 0:
            raise ValueError(f"shortlist {shortlist} without a second stage")
        self.network = network
        self.tables = tables
        self.race_network = race_network
        self.crashed_network = crashed_network
        self.second_stage = second_stage
        self.shortlist = shortlist
        self.owner = (network, tables, race_network, crashed_network, second_stage)
        for kind in range(classes):
            self.engine.by_class[kind].evaluate = network_evaluate
            self.engine.by_class[kind].context = <void*>&network.net
        self.engine.tables = NULL if tables is None else &tables.c
        self.engine.races_by_class = race_network is not None
        if race_network is not None:
            self.engine.by_class[<int>CLASS_RACE].evaluate = race_network_evaluate
            self.engine.by_class[<int>CLASS_RACE].context = <void*>&race_network.net
        self.engine.crashed_by_class = crashed_network is not None
        if crashed_network is not None:
            self.engine.by_class[<int>CLASS_CRASHED].context = <void*>&crashed_network.net
        if tables is None and race_network is None and crashed_network is None:
            # nothing to dispatch: the network alone gives the same values in one batch
            self.c.evaluate = network_evaluate
            self.c.context = <void*>&network.net
        else:
            self.c.evaluate = engine_evaluate
            self.c.context = <void*>&self.engine

    def __reduce__(self):
        return (EngineCEvaluator, (self.network, self.tables, self.race_network, self.crashed_network,
                                   self.second_stage, self.shortlist))


cdef int two_sided_exact(void* context, const checker_t* board, float* out5) noexcept nogil:
    """Exact when both sides are in the two-sided table (no gammons: both have borne off)."""
    cdef double win = two_sided_win_probability(<const TwoSidedTable*>context, board)
    if win < 0.0:
        return 0
    out5[0] = <float>win
    out5[1] = 0.0
    out5[2] = 0.0
    out5[3] = 0.0
    out5[4] = 0.0
    return 1


cdef class BearoffOracle(COracle):
    """Exact cubeless 5-vector of positions in the two-sided table of ``tables``."""

    def __init__(self, RaceTables tables):
        if tables.c.two_sided.max_checkers == 0:
            raise ValueError("these tables have no two-sided table")
        self.owner = tables
        self.c.probabilities = two_sided_exact
        self.c.context = <void*>&tables.c.two_sided

    def __reduce__(self):
        return (BearoffOracle, (self.owner,))

# The engine's composite evaluator behind the C evaluator contract (_evaluator.pxd):
# finished games exact, then (without contact) exact bear-off / race tables, then the
# network of the position's class. Used by rollouts, n-ply search and self-play.
from bgcore._types cimport checker_t
from bgcore._evaluator cimport BoardEvaluator, CEvaluator, COracle
from bgcore._race cimport RaceTableSet
from bgcore._race_net cimport RaceNet

# Position classes that may each have their own network (today one network serves all;
# a crashed-position class can be added here).
cdef enum PositionClass:
    CLASS_CONTACT = 0
    CLASS_RACE = 1
    NUM_POSITION_CLASSES = 2

cdef PositionClass position_class(const checker_t* board) noexcept nogil

ctypedef struct Engine:
    const RaceTableSet* tables      # NULL: no bear-off/race tables
    bint races_by_class             # races go to by_class[CLASS_RACE] (a race network), not tables
    BoardEvaluator by_class[NUM_POSITION_CLASSES]

# The composite as a BoardEvaluator function (context: an Engine*).
cdef int engine_evaluate(void* context, const checker_t* boards, int n,
                         float* out5) noexcept nogil

cdef class EngineCEvaluator(CEvaluator):
    cdef Engine engine
    cdef readonly object network
    cdef readonly object tables
    cdef readonly RaceNet race_network

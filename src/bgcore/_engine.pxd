# The engine's composite evaluator behind the C evaluator contract (_evaluator.pxd):
# finished games exact, then (without contact) exact bear-off / race tables, then the
# network of the position's class (contact, crashed). Used by rollouts, n-ply search and self-play.
from bgcore._types cimport checker_t
from bgcore._evaluator cimport BoardEvaluator, CEvaluator, COracle
from bgcore._race cimport RaceTableSet
from bgcore._race_net cimport RaceNet

# Position classes that may each have their own network; the codes are those of
# bgengine.training.classes.PositionClass (which also splits the exact bear-offs off races).
cdef enum PositionClass:
    CLASS_CONTACT = 0
    CLASS_CRASHED = 1               # contact, and a side has at most CRASHED_IN_PLAY checkers in play
    CLASS_RACE = 2                  # no contact (finished games too)
    NUM_POSITION_CLASSES = 3

cdef enum:
    CRASHED_IN_PLAY = 6             # checkers in play: on the bar and the own points 3..24

# The class of a board (the one definition: bgengine.training.classes calls it).
cdef PositionClass position_class(const checker_t* board) noexcept nogil

ctypedef struct Engine:
    const RaceTableSet* tables      # NULL: no bear-off/race tables
    bint races_by_class             # races go to by_class[CLASS_RACE] (a race network), not tables
    bint crashed_by_class           # crashed positions have a network of their own (else the
                                    # contact one, in by_class[CLASS_CRASHED] too: no test made)
    BoardEvaluator by_class[NUM_POSITION_CLASSES]

# The composite as a BoardEvaluator function (context: an Engine*).
cdef int engine_evaluate(void* context, const checker_t* boards, int n,
                         float* out5) noexcept nogil

cdef class EngineCEvaluator(CEvaluator):
    cdef Engine engine
    cdef readonly object network
    cdef readonly object tables
    cdef readonly RaceNet race_network
    cdef readonly object crashed_network
    cdef readonly EngineCEvaluator second_stage     # re-values the move choice's short list, or None
    cdef readonly int shortlist

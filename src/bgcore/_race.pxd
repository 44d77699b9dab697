# Race evaluation (no contact) from bear-off tables: the nogil C API for evaluators.
from bgcore._types cimport checker_t
from bgcore._bearoff_tables cimport OneSidedTable, TwoSidedTable, SideCounts

# The tables one race evaluation reads: the six-point home table (required), a wider
# one-sided table for checkers outside the home board (points 0: none) and the two-sided
# table for exact results (max_checkers 0: none). Each evaluator holds its own set.
ctypedef struct RaceTableSet:
    OneSidedTable home
    OneSidedTable wide
    TwoSidedTable two_sided

cdef enum RaceOutcome:
    RACE_CONTACT = -1               # the board has contact: no race value
    RACE_EXACT = 0                  # finished, or in the two-sided table
    RACE_APPROXIMATE = 1            # from the one-sided distributions

# Cubeless 5-vector of a possible board without contact (player on roll's view, before
# rolling) into out[0..4]; returns 0 when done, -1 when the board has contact. Boards are
# not checked here (callers pass positions they validated).
cdef int race_probabilities(const RaceTableSet* tables, const checker_t* board,
                            float* out) noexcept nogil

# How soon a side can be done, as the race model has it (the race network's inputs):
# the mean of its roll distribution, and P(done within k rolls) and P(first checker off
# within k rolls) for k = 1..RACE_WITHIN (the first-off chances are 1 once a checker is off;
# within one roll it is exact, by trying the 21 rolls, for a side with checkers outside).
cdef enum:
    RACE_WITHIN = 6

ctypedef struct RaceSideSummary:
    double expected_rolls
    double finish_within[RACE_WITHIN]
    double first_off_within[RACE_WITHIN]

# race_probabilities telling how it got the 5-vector, and for the race network's inputs
# (when not NULL; player on roll first, unless the board has contact): each side's
# summary and each side's counts. ``first_roll_exact``: a side bearing in with all 15 on
# the board gets its first-off chance for the next roll exact in the 5-vector too.
cdef RaceOutcome race_estimate(const RaceTableSet* tables, const checker_t* board,
                               float* out, RaceSideSummary* summaries,
                               SideCounts* sides, bint first_roll_exact) noexcept nogil

# The Python owner of a RaceTableSet: keeps the arrays alive, never changes after __init__.
cdef class RaceTables:
    cdef RaceTableSet c
    cdef readonly tuple arrays
    cdef object recipe

# Bear-off positions of one side: ranking by the combinatorial number system, and the
# ranks of a position's children (from legal_children), shared by the builds and lookups.
from bgcore._types cimport checker_t
from bgcore._movegen cimport MAX_CHILDREN

cdef enum:
    HOME_POINTS = 6                 # points of the home board
    MAX_TABLE_POINTS = 12           # largest one-sided table this module can index

# Rank of a one-sided position (counts[p] checkers on point p, p = 1..points) among all
# positions with up to 15 checkers on that many points; positions with up to n checkers
# come first, and every move lowers the rank.
cdef long long one_sided_rank(const int* counts, int points) noexcept nogil
cdef void one_sided_unrank(long long rank, int points, int* counts) noexcept nogil

# How many one-sided positions have at most ``checkers`` checkers on ``points`` points.
cdef long long positions_up_to(int checkers, int points) noexcept nogil

# The ranks of the children of a one-sided position for one of the 21 rolls.
cdef struct ChildScan:
    int points
    int count                       # child ranks in ranks[0..count), all distinct
    long long ranks[MAX_CHILDREN]

# Fill ``scan`` from legal_children (``buffer`` holds MAX_CHILDREN boards); the opponent
# has no checkers on the board.
cdef void scan_children(ChildScan* scan, const int* counts, int roll,
                        checker_t* buffer) noexcept nogil

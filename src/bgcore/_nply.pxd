# n-ply lookahead over the 21 rolls with move filters, on any static (0-ply) evaluator.
#
# Probabilities are the cumulative 5-vector from the player on roll, before the roll.
from bgcore._types cimport checker_t
from bgcore._nn cimport Network

# A static evaluator: writes n 5-vectors for n boards; returns 0, or -1 on error.
ctypedef int (*static_function)(void* context, const checker_t* boards, int n,
                                float* out5) noexcept nogil

ctypedef struct StaticEvaluator:
    static_function evaluate
    void* context

# Which replies are searched deeper: at most `keep` children per roll, and only those whose
# 0-ply equity is within `margin` of the best 0-ply equity.
ctypedef struct MoveFilter:
    int keep
    float margin

# The engine's 0-ply: finished games exact, non-contact positions from the installed
# bear-off/race tables, everything else from the network (context: a Network*).
cdef int engine_static(void* network, const checker_t* boards, int n,
                       float* out5) noexcept nogil

# Finished games exact, everything else from the network (context: a Network*).
cdef int network_static(void* network, const checker_t* boards, int n,
                        float* out5) noexcept nogil

# The 5-vector of `board` looked ahead `plies` rolls (0: static); returns 0 or -1.
cdef int nply_probabilities(const StaticEvaluator* evaluator, const checker_t* board,
                            int plies, const MoveFilter* move_filter,
                            float* out5) noexcept nogil

# Index of the child to play among n children (sides switched), or -1 on error: all are
# evaluated statically into `values` (n * 5 floats), the candidates `root_filter` keeps
# are looked ahead `plies` rolls (with `move_filter` below), the lowest equity wins; its
# 5-vector (next player's view) goes to best5.
cdef int best_reply(const StaticEvaluator* evaluator, const checker_t* children, int n,
                    int plies, const MoveFilter* root_filter, const MoveFilter* move_filter,
                    float* values, float* best5) noexcept nogil

# n-ply lookahead over the 21 rolls with move filters, on any evaluator of the C contract.
#
# Probabilities are the cumulative 5-vector from the player on roll, before the roll.
from bgcore._types cimport checker_t
from bgcore._evaluator cimport BoardEvaluator

# Which replies are searched deeper: at most `keep` children per roll, and only those whose
# 0-ply equity is within `margin` of the best 0-ply equity.
ctypedef struct MoveFilter:
    int keep
    float margin

# The 5-vector of `board` looked ahead `plies` rolls (0: static); returns 0 or -1.
cdef int nply_probabilities(const BoardEvaluator* evaluator, const checker_t* board,
                            int plies, const MoveFilter* move_filter,
                            float* out5) noexcept nogil

# Index of the child to play among n children (sides switched), or -1 on error: all are
# evaluated statically into `values` (n * 5 floats); with plies > 0 the candidates
# `root_filter` keeps (by the second stage's values, if any) are looked ahead `plies` rolls
# (with `move_filter` below, by the first stage alone), the lowest
# equity wins (with plies 0 this is best_child); its 5-vector (next player's view) goes
# to best5. best5 may be NULL when the value is not wanted (rollout play): then a lone
# candidate left by the filter is played without being searched.
cdef int best_reply(const BoardEvaluator* evaluator, const checker_t* children, int n,
                    int plies, const MoveFilter* root_filter, const MoveFilter* move_filter,
                    float* values, float* best5) noexcept nogil

# A search of one board as nply_probabilities does it (nply_probabilities itself, or a
# cached one): the 5-vector of `board` looked ahead `plies` rolls into out5; returns 0 or a
# failure code.
ctypedef int (*BoardSearch)(const BoardEvaluator* evaluator, const checker_t* board, int plies,
                            const MoveFilter* move_filter, float* out5) noexcept nogil

# Python boundary of the batch searches: ((n, 5) float32 results, status) of (n, 26) trusted
# boards, each searched by `search` without the GIL (stops at the first failure); ValueError
# for boards not of shape (n, 26) or a negative margin.
cdef tuple search_boards(const BoardEvaluator* evaluator, boards, int plies, int keep,
                         float margin, BoardSearch search)

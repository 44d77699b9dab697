# cython: language_level=3
"""Single-position calls from Python: one board's probabilities, one roll's ranked children.

The general path (``bgengine.evaluation.evaluator``) builds numpy arrays and a Python
object per child; this one calls the engine's C evaluator directly and keeps the children's
values in C buffers (``Ranking``) until Python asks for one. The results are the general
path's bit for bit: the same float32 evaluations, flipped in float32, widened to doubles and
clamped as ``GameProbabilities.from_estimate`` does (``clamped``), candidates chosen on
float32 equities with ties to the lower index (numpy's stable argsort), and the ranking
ordered by (plies, equity) descending with ties in generation order (Python's stable sort).
When a value is NaN the functions answer None so the caller can take the general path,
which raises the error the user would see there.

An n-ply search here reads its static evaluations through a cache that lives for that one
search (``cached_evaluate``): a search meets the same position again and again (22-74% of
the boards of a 2-ply ranking on the judge set's first decisions), and the engine gives
the same values for a board whenever it is asked, so the answers do not change. The boards
the cache misses are evaluated together, in one call of the engine.
"""

from libc.stdint cimport uint16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memcmp, memset
from cpython.object cimport PyObject_GenericSetAttr

from bgcore._types cimport checker_t, NUM_SLOTS
from bgcore._outcomes cimport NUM_OUTPUTS
from bgcore._evaluator cimport BoardEvaluator, EVALUATION_OK, keep_lowest
from bgcore._engine cimport EngineCEvaluator
from bgcore._nn cimport hold_networks
from bgcore._nply cimport MoveFilter, nply_probabilities, search_boards
from bgcore._movegen cimport MAX_CHILDREN
from bgcore._scratch cimport thread_scratch

cdef enum:
    MAX_PLIES = 4                       # as _nply
    MAX_KEEP = 64
    RANK_OK = 0
    RANK_NOT_A_NUMBER = 1               # some value is NaN: the caller takes the general path
    RANK_FAILED = -1                    # the evaluator failed (see its failure())
    RANK_NO_MEMORY = -2


cdef enum:
    CACHE_BITS = 17                     # 131,072 entries of 56 bytes: 7.3 MB per thread


ctypedef struct CacheEntry:
    uint32_t search                     # the search that stored it (0: never used)
    checker_t board[NUM_SLOTS]
    float values[NUM_OUTPUTS]


ctypedef struct EvaluationCache:       # a direct-mapped cache of static evaluations
    const BoardEvaluator* inner
    uint32_t search                     # entries of other searches are stale
    checker_t missed[MAX_CHILDREN * NUM_SLOTS]
    float missed_values[MAX_CHILDREN * NUM_OUTPUTS]
    int missed_index[MAX_CHILDREN]
    uint32_t slot[MAX_CHILDREN]         # the entry of each board of the current call
    CacheEntry entries[1 << CACHE_BITS]


ctypedef struct Scratch:               # one per thread (bgcore._scratch), zeroed at first
    float values[MAX_CHILDREN * NUM_OUTPUTS]
    double equities[MAX_CHILDREN]
    char deep[MAX_CHILDREN]             # 1 when the child was searched at the requested depth
    int merge[MAX_CHILDREN]
    EvaluationCache cache


cdef extern from *:
    """
    #include <string.h>
    #include <stdint.h>
    static inline uint64_t bgcore_board_hash(const signed char* board) {
        uint64_t a, b, c, h;
        uint16_t d;
        memcpy(&a, board, 8); memcpy(&b, board + 8, 8); memcpy(&c, board + 16, 8);
        memcpy(&d, board + 24, 2);
        h = a * 0x9E3779B97F4A7C15ULL;
        h = (h ^ (h >> 31)) + b * 0xBF58476D1CE4E5B9ULL;
        h = (h ^ (h >> 29)) + c * 0x94D049BB133111EBULL;
        h = (h ^ (h >> 32)) + (uint64_t)d * 0xD6E8FEB86659FD93ULL;
        h ^= h >> 31;
        h *= 0x9E3779B97F4A7C15ULL;
        return h ^ (h >> 29);
    }
    #if defined(__GNUC__)
    #define bgcore_prefetch(address) __builtin_prefetch(address)
    #else
    #define bgcore_prefetch(address) ((void)0)
    #endif
    """
    uint64_t board_hash "bgcore_board_hash"(const checker_t* board) noexcept nogil
    void prefetch "bgcore_prefetch"(const void* address) noexcept nogil


cdef void start_search(EvaluationCache* cache, const BoardEvaluator* inner,
                       BoardEvaluator* cached) noexcept nogil:
    """Make `cached` read `inner` through this thread's cache, emptied for a new search."""
    cache.inner = inner
    cache.search += 1
    if cache.search == 0:               # the counter wrapped: forget every entry
        memset(cache.entries, 0, sizeof(cache.entries))
        cache.search = 1
    cached.evaluate = cached_evaluate
    cached.context = <void*>cache
    cached.second = NULL                # searches use the first stage alone (_nply)
    cached.shortlist = 0


cdef int cached_evaluate(void* context, const checker_t* boards, int n,
                         float* out5) noexcept nogil:
    """A BoardEvaluator function: cached values, the misses evaluated in one call. The
    entries are looked up in two passes (hash and prefetch, then compare), so that the
    memory reads of a call overlap."""
    cdef EvaluationCache* cache = <EvaluationCache*>context
    cdef CacheEntry* entry
    cdef const checker_t* board
    cdef int b, m, missed = 0
    if n > MAX_CHILDREN:
        return cache.inner.evaluate(cache.inner.context, boards, n, out5)
    for b in range(n):
        cache.slot[b] = <uint32_t>(board_hash(boards + b * NUM_SLOTS) >> (64 - CACHE_BITS))
        prefetch(&cache.entries[cache.slot[b]])
    for b in range(n):
        board = boards + b * NUM_SLOTS
        entry = &cache.entries[cache.slot[b]]
        if entry.search == cache.search and memcmp(entry.board, board, NUM_SLOTS) == 0:
            memcpy(out5 + b * NUM_OUTPUTS, entry.values, sizeof(entry.values))
        else:
            memcpy(cache.missed + missed * NUM_SLOTS, board, NUM_SLOTS)
            cache.missed_index[missed] = b
            missed += 1
    if missed == 0:
        return EVALUATION_OK
    cdef int status = cache.inner.evaluate(cache.inner.context, cache.missed, missed,
                                           cache.missed_values)
    if status != EVALUATION_OK:
        return status
    for m in range(missed):
        board = cache.missed + m * NUM_SLOTS
        memcpy(out5 + cache.missed_index[m] * NUM_OUTPUTS, cache.missed_values + m * NUM_OUTPUTS,
               NUM_OUTPUTS * sizeof(float))
        entry = &cache.entries[cache.slot[cache.missed_index[m]]]
        entry.search = cache.search
        memcpy(entry.board, board, NUM_SLOTS)
        memcpy(entry.values, cache.missed_values + m * NUM_OUTPUTS, NUM_OUTPUTS * sizeof(float))
    return EVALUATION_OK


cdef inline double clamp(double value, double low, double high) noexcept nogil:
    """Python's ``min(max(value, low), high)``, NaN passing through as there."""
    if low > value:
        value = low
    if high < value:
        value = high
    return value


cdef inline bint clamped(const float* p5, double* out5) noexcept nogil:
    """``probabilities.clamped`` of a float32 5-vector into doubles; False when one is NaN."""
    cdef double win = clamp(p5[0], 0.0, 1.0)
    out5[0] = win
    out5[1] = clamp(p5[1], 0.0, win)
    out5[2] = clamp(p5[2], 0.0, out5[1])
    out5[3] = clamp(p5[3], 0.0, 1.0 - win)
    out5[4] = clamp(p5[4], 0.0, out5[3])
    return out5[0] == out5[0] and out5[1] == out5[1] and out5[2] == out5[2] \
        and out5[3] == out5[3] and out5[4] == out5[4]


cdef inline float float32_equity(const float* p5) noexcept nogil:
    """``probabilities.equity`` of a float32 array row: every step rounded to float32."""
    cdef float e = <float>2.0 * p5[0]
    e = e - <float>1.0
    e = e + p5[1]
    e = e - p5[3]
    e = e + p5[2]
    e = e - p5[4]
    return e


cdef inline double equity_of_doubles(const double* p5) noexcept nogil:
    """``GameProbabilities.equity``: the same expression in the same order, in doubles."""
    return 2.0 * p5[0] - 1.0 + p5[1] - p5[3] + p5[2] - p5[4]


cdef inline bint ranks_before(const Scratch* s, int a, int b) noexcept nogil:
    """Whether child a sorts strictly before child b: deeper first, then higher equity."""
    if s.deep[a] != s.deep[b]:
        return s.deep[a] > s.deep[b]
    return s.equities[a] > s.equities[b]


cdef void stable_sort(Scratch* s, int* order, int n) noexcept nogil:
    """Bottom-up merge sort of ``order`` by ``ranks_before``; equal children keep their order."""
    cdef int width = 1, start, middle, end, i, j, k
    cdef int* source = order
    cdef int* target = s.merge
    cdef int* swap
    while width < n:
        start = 0
        while start < n:
            middle = start + width if start + width < n else n
            end = start + 2 * width if start + 2 * width < n else n
            i, j, k = start, middle, start
            while i < middle and j < end:
                if ranks_before(s, source[j], source[i]):
                    target[k] = source[j]
                    j += 1
                else:
                    target[k] = source[i]
                    i += 1
                k += 1
            while i < middle:
                target[k] = source[i]
                i += 1
                k += 1
            while j < end:
                target[k] = source[j]
                j += 1
                k += 1
            start = end
        swap = source
        source = target
        target = swap
        width *= 2
    if source != order:
        memcpy(order, source, n * sizeof(int))


cdef inline int search_child(const BoardEvaluator* evaluator, const checker_t* children, int i, int plies,
                             const MoveFilter* move_filter, Scratch* s) noexcept nogil:
    """Child i looked ahead ``plies`` rolls into its row of s.values, marked deep."""
    if nply_probabilities(evaluator, children + i * NUM_SLOTS, plies, move_filter,
                          s.values + i * NUM_OUTPUTS) != 0:
        return RANK_FAILED
    s.deep[i] = 1
    return RANK_OK


cdef int rank(const BoardEvaluator* evaluator, const checker_t* children, int n, int plies,
              const MoveFilter* move_filter, const MoveFilter* candidates,
              const int* chosen, int n_chosen,
              double* out5, int* order, int* searched) noexcept nogil:
    """Every child at 0-ply, the candidates at ``plies``; mover's view into out5, ranking
    into order. The 0-ply values are the second stage's when the evaluator has one (its
    network values every play of a ranking; the searches use the evaluator itself). The
    candidates are the ``n_chosen`` children ``chosen`` when n_chosen >= 0, else the best
    by 0-ply money equity (``candidates``). See the module docstring for why each step is
    done as it is."""
    cdef Scratch* s = <Scratch*>thread_scratch(sizeof(Scratch))
    cdef int i, c, count = 0, keep = candidates.keep
    cdef float e, limit
    cdef float candidate_equity[MAX_KEEP]
    cdef int candidate[MAX_KEEP]
    cdef float mover[NUM_OUTPUTS]
    cdef float* v
    cdef BoardEvaluator cached
    cdef const BoardEvaluator* ranking = evaluator.second if evaluator.second != NULL else evaluator
    searched[0] = 0
    if s == NULL:
        return RANK_NO_MEMORY
    if ranking.evaluate(ranking.context, children, n, s.values) != EVALUATION_OK:
        return RANK_FAILED
    if plies > 0:
        start_search(&s.cache, evaluator, &cached)
        evaluator = &cached
    for i in range(n):
        s.deep[i] = 0
    if plies > 0 and n_chosen >= 0:
        for c in range(n_chosen):
            if search_child(evaluator, children, chosen[c], plies, move_filter, s) != RANK_OK:
                return RANK_FAILED
            searched[0] += 1
    elif plies > 0:
        if keep > MAX_KEEP:
            keep = MAX_KEEP
        for i in range(n):          # the `keep` lowest equities for the next player, stably
            e = float32_equity(s.values + i * NUM_OUTPUTS)
            if e != e:
                return RANK_NOT_A_NUMBER
            count = keep_lowest(candidate_equity, candidate, count, keep, e, i)
        limit = candidate_equity[0] + candidates.margin
        for c in range(count):
            if not candidate_equity[c] <= limit:
                break
            if search_child(evaluator, children, candidate[c], plies, move_filter, s) != RANK_OK:
                return RANK_FAILED
            searched[0] += 1
    for i in range(n):
        v = s.values + i * NUM_OUTPUTS
        mover[0] = <float>1.0 - v[0]    # probabilities.flipped of a float32 row
        mover[1] = v[3]
        mover[2] = v[4]
        mover[3] = v[1]
        mover[4] = v[2]
        if not clamped(mover, out5 + i * NUM_OUTPUTS):
            return RANK_NOT_A_NUMBER
        s.equities[i] = equity_of_doubles(out5 + i * NUM_OUTPUTS)
        order[i] = i
    stable_sort(s, order, n)
    return RANK_OK


cdef class Ranking:
    """Every child of one roll ranked, its values kept in C until Python asks.

    ``order``: child indices (generation order) best first; the first ``searched`` were
    searched at ``plies``, the others at 0-ply. ``probabilities(i)``: child i's clamped
    5-vector from the MOVER's view.
    """

    cdef double* values
    cdef int* indices
    cdef readonly int count
    cdef readonly int searched
    cdef readonly int plies

    def __cinit__(self):
        self.values = NULL
        self.indices = NULL

    def __dealloc__(self):
        free(self.values)
        free(self.indices)

    def __len__(self):
        return self.count

    @property
    def order(self):
        return [self.indices[r] for r in range(self.count)]

    def probabilities(self, int index):
        """Child ``index``'s clamped 5-vector (mover's view) as a tuple of floats."""
        if not 0 <= index < self.count:
            raise IndexError(f"child index {index} is outside 0..{self.count - 1}")
        cdef const double* p = self.values + index * NUM_OUTPUTS
        return (p[0], p[1], p[2], p[3], p[4])

    def lazy_items(self, cls, source):
        """One instance of ``cls`` per child, best first, built without calling ``cls``:
        each gets the attributes ``plies`` (its depth), ``_index`` (its child index),
        ``_ranking`` (this object) and ``_source`` (``source``), nothing else."""
        cdef list items = []
        cdef int r, index
        new = object.__new__
        deep = self.plies
        shallow = 0
        for r in range(self.count):
            index = self.indices[r]
            item = new(cls)
            PyObject_GenericSetAttr(item, "plies", deep if r < self.searched else shallow)
            PyObject_GenericSetAttr(item, "_index", index)
            PyObject_GenericSetAttr(item, "_ranking", self)
            PyObject_GenericSetAttr(item, "_source", source)
            items.append(item)
        return items


cdef void check_search(int plies, int keep) except *:
    if not 0 <= plies <= MAX_PLIES:
        raise ValueError(f"plies must be 0..{MAX_PLIES}, got {plies}")
    if not 1 <= keep <= MAX_KEEP:
        raise ValueError(f"keep must be 1..{MAX_KEEP}")


cdef object raise_failure(EngineCEvaluator evaluator, int status):
    if status == RANK_NO_MEMORY:
        raise MemoryError("no memory for the search")
    evaluator.raise_failure()


cdef object new_instance = object.__new__
cdef tuple PROBABILITY_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon",
                                "lose_backgammon")


def evaluation(EngineCEvaluator evaluator, bytes board, int plies, int keep, float margin,
               type probabilities_class, type evaluation_class, str source):
    """``probabilities`` as an instance of ``evaluation_class`` whose ``probabilities`` is an
    instance of ``probabilities_class`` (win, win_gammon, ... set), and ``plies`` and
    ``source`` set: both made without calling the classes (frozen dataclasses whose values
    are checked here), which is most of the time of a 0-ply evaluation. None when NaN."""
    values = probabilities(evaluator, board, plies, keep, margin)
    if values is None:
        return None
    cdef int k
    chances = new_instance(probabilities_class)
    for k in range(NUM_OUTPUTS):
        PyObject_GenericSetAttr(chances, PROBABILITY_NAMES[k], values[k])
    result = new_instance(evaluation_class)
    PyObject_GenericSetAttr(result, "probabilities", chances)
    PyObject_GenericSetAttr(result, "plies", plies)
    PyObject_GenericSetAttr(result, "source", source)
    return result


cdef int searched_probabilities(const BoardEvaluator* c, const checker_t* board, int plies,
                                const MoveFilter* move_filter, float* out5) noexcept nogil:
    """nply_probabilities of one board as a search of its own: through this thread's
    evaluation cache (emptied first) and with the networks held (kept hidden sums). The
    same floats as without them, fewer evaluations and additions."""
    cdef Scratch* s = <Scratch*>thread_scratch(sizeof(Scratch))
    cdef BoardEvaluator cached
    cdef int status
    if s == NULL:
        return RANK_NO_MEMORY
    start_search(&s.cache, c, &cached)
    hold_networks(True)
    status = nply_probabilities(&cached, board, plies, move_filter, out5)
    hold_networks(False)
    return status


def probabilities(EngineCEvaluator evaluator, bytes board, int plies, int keep=1,
                  float margin=0.0):
    """The clamped 5-vector (doubles) of one trusted board looked ahead ``plies`` rolls,
    player on roll's view; None when a value is NaN. The GIL is released for plies > 0."""
    if len(board) != NUM_SLOTS:
        raise ValueError(f"a board has {NUM_SLOTS} slots, got {len(board)}")
    check_search(plies, keep)
    cdef const checker_t* b = <const checker_t*><const char*>board
    cdef MoveFilter move_filter
    move_filter.keep = keep
    move_filter.margin = margin
    cdef BoardEvaluator c = evaluator.c
    cdef float out[NUM_OUTPUTS]
    cdef double values[NUM_OUTPUTS]
    cdef int status
    if plies == 0:                      # about a microsecond: not worth releasing the GIL
        status = nply_probabilities(&c, b, 0, &move_filter, out)
    else:
        with nogil:
            status = searched_probabilities(&c, b, plies, &move_filter, out)
    if status != 0:
        raise_failure(evaluator, RANK_NO_MEMORY if status == RANK_NO_MEMORY else RANK_FAILED)
    if not clamped(out, values):
        return None
    return (values[0], values[1], values[2], values[3], values[4])


def probabilities_of_boards(EngineCEvaluator evaluator, boards, int plies, int keep=1,
                            float margin=0.0):
    """(n, 5) float32 probabilities of (n, 26) trusted boards looked ahead ``plies`` rolls,
    each board a search of its own (searched_probabilities): the values of
    ``bgcore._nply.nply_evaluate``, sooner. Without the GIL."""
    check_search(plies, keep)
    out, status = search_boards(&evaluator.c, boards, plies, keep, margin, searched_probabilities)
    if status != 0:
        raise_failure(evaluator, RANK_NO_MEMORY if status == RANK_NO_MEMORY else RANK_FAILED)
    return out


def rank_children(EngineCEvaluator evaluator, bytes children, int plies, int keep=1,
                  float margin=0.0, int candidates_keep=8, float candidates_margin=0.16,
                  chosen=None):
    """A ``Ranking`` of the trusted children (26 bytes each, next player's view) of one
    roll: all at 0-ply, then the best ``candidates_keep`` within ``candidates_margin`` (by
    0-ply money equity) looked ahead ``plies`` rolls (the search below with
    ``keep``/``margin``); ``chosen`` (distinct child indices) names the children to look
    ahead instead. None when a value is NaN. Runs without the GIL, in this thread's
    scratch memory."""
    cdef int n = len(children) // NUM_SLOTS
    if n < 1 or n > MAX_CHILDREN or n * NUM_SLOTS != len(children):
        raise ValueError(f"children must be 1..{MAX_CHILDREN} boards of {NUM_SLOTS} bytes")
    check_search(plies, keep)
    check_search(0, candidates_keep)
    cdef int picked[MAX_CHILDREN]
    cdef int n_chosen = -1, index
    cdef char seen[MAX_CHILDREN]
    if chosen is not None:
        memset(seen, 0, n)
        n_chosen = 0
        for index in chosen:
            if not 0 <= index < n or seen[index]:
                raise ValueError(f"chosen must be distinct child indices 0..{n - 1}, got {list(chosen)!r}")
            seen[index] = 1
            picked[n_chosen] = index
            n_chosen += 1
    cdef Ranking ranking = Ranking.__new__(Ranking)
    ranking.values = <double*>malloc(n * NUM_OUTPUTS * sizeof(double))
    ranking.indices = <int*>malloc(n * sizeof(int))
    if ranking.values == NULL or ranking.indices == NULL:
        raise MemoryError("no memory for the ranking")
    ranking.count = n
    ranking.plies = plies
    cdef const checker_t* boards = <const checker_t*><const char*>children
    cdef MoveFilter move_filter, root_filter
    move_filter.keep = keep
    move_filter.margin = margin
    root_filter.keep = candidates_keep
    root_filter.margin = candidates_margin
    cdef BoardEvaluator c = evaluator.c
    cdef int status, searched = 0
    with nogil:
        if plies > 0:
            hold_networks(True)
        status = rank(&c, boards, n, plies, &move_filter, &root_filter, picked, n_chosen,
                      ranking.values, ranking.indices, &searched)
        if plies > 0:
            hold_networks(False)
    if status == RANK_NOT_A_NUMBER:
        return None
    if status != RANK_OK:
        raise_failure(evaluator, status)
    ranking.searched = searched
    return ranking

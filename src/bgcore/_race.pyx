# cython: language_level=3
"""Race evaluation from bear-off tables: exact from the two-sided table where it applies,
else from each side's roll-count distribution (exact from a one-sided table when every
checker is on its points; checkers beyond are brought in by a pip bank first, the
approximation documented in docs/bearoff.md).

Which tables an evaluation reads travels with it (a ``RaceTables`` object); the pip
banks below are derived from the dice alone, computed once and then only read.
"""

import threading

import numpy as np
cimport numpy as cnp
from libc.math cimport NAN
from libc.string cimport memcmp, memcpy

from bgcore._types cimport checker_t, NUM_SLOTS, NUM_CHECKERS, Phase, PHASE_CONTACT, PHASE_OVER
from bgcore._board cimport phase_of, checked_board, check_boards
from bgcore._scratch cimport thread_scratch
from bgcore._dice cimport NUM_ROLLS, ROLL_LOW, ROLL_HIGH, ROLL_WEIGHT
from bgcore._bearoff_index cimport HOME_POINTS, MAX_TABLE_POINTS, one_sided_rank
from bgcore._bearoff_tables cimport (OneSidedTable, SideCounts, read_sides, fill_one_sided,
                                     fill_two_sided, two_sided_win_probability,
                                     two_sided_cubeful_equity)

cnp.import_array()

cdef enum:
    RACE_WIDTH = 192                # columns of a race distribution (rolls 0..191)
    PIP_BANK_WIDTH = 128            # rolls needed to move up to MAX_PIP_BANK pips
    MAX_PIP_BANK = NUM_CHECKERS * 25
    MAX_BANK_DICE = 2 * NUM_CHECKERS   # dice demands beyond this are capped
    DIE_REACH = 4                   # a checker x pips from its target wants ceil(x / 4) dice

# BANK[d][m][k]: P(k rolls are needed before the dice total at least d pips and at
# least m dice); BANK[d][0] is the pure pip bank.
cdef double BANK[MAX_PIP_BANK + 1][MAX_BANK_DICE + 1][PIP_BANK_WIDTH]
cdef int BANK_LENGTH[MAX_PIP_BANK + 1][MAX_BANK_DICE + 1]  # BANK[d][m][k] == 0 from here
# Expected rolls that BANK[d][m] spends beyond the fair share max(d / (49/6), m / (7/3))
# (49/6 pips and 7/3 dice per roll on average): the last roll's unused part.
cdef double BANK_OVERSHOOT[MAX_PIP_BANK + 1][MAX_BANK_DICE + 1]
cdef bint BANKS_READY = False
_BANKS_LOCK = threading.Lock()


cdef void init_banks() noexcept nogil:
    """BANK[d][m]: rolls until the dice have moved >= d pips with >= m dice (a die moves
    one checker, so outside checkers need at least a die each); exact renewal recursion."""
    cdef int d, m, r, k, pips, dice
    cdef double* row
    cdef const double* source
    for d in range(MAX_PIP_BANK + 1):
        for m in range(MAX_BANK_DICE + 1):
            row = BANK[d][m]
            for k in range(PIP_BANK_WIDTH):
                row[k] = 0.0
            if d == 0 and m == 0:
                row[0] = 1.0
            else:
                for r in range(NUM_ROLLS):
                    dice = 4 if ROLL_HIGH[r] == ROLL_LOW[r] else 2
                    pips = (ROLL_HIGH[r] + ROLL_LOW[r]) * dice // 2
                    source = BANK[d - pips if d > pips else 0][m - dice if m > dice else 0]
                    for k in range(1, PIP_BANK_WIDTH):
                        row[k] += ROLL_WEIGHT[r] * source[k - 1]
                for k in range(PIP_BANK_WIDTH):
                    row[k] /= 36.0
            BANK_LENGTH[d][m] = 1
            BANK_OVERSHOOT[d][m] = -max(d * 6.0 / 49.0, m * 3.0 / 7.0)
            for k in range(PIP_BANK_WIDTH):
                if row[k] != 0.0:
                    BANK_LENGTH[d][m] = k + 1
                BANK_OVERSHOOT[d][m] += k * row[k]




cdef int ensure_banks() except -1:
    """Compute the pip banks once (6 MB, on first use), whichever thread comes first."""
    global BANKS_READY
    if BANKS_READY:
        return 0
    with _BANKS_LOCK:
        if not BANKS_READY:
            with nogil:
                init_banks()
            BANKS_READY = True
    return 0



# ----- distributions and the race 5-vector ----------------------------------------------

cdef struct Distribution:
    double p[RACE_WIDTH]            # p[k] = P(exactly k rolls); zero from `length` on
    int length


cdef extern from *:
    """
    /* y[j] += a * x[j]: y and x never overlap, so that the compiler vectorises it (each
       y[j] still gets the same single product added, so the sums are unchanged) */
    static void bg_add_multiple(double* __restrict y, const double* __restrict x, double a, int n) {
        for (int j = 0; j < n; ++j) y[j] += a * x[j];
    }
    """
    void add_multiple "bg_add_multiple"(double* y, const double* x, double a, int n) noexcept nogil


cdef void convolve(const double* a, int a_length, const double* b, int b_length,
                   Distribution* out) noexcept nogil:
    """out = distribution of the sum of two independent roll counts."""
    cdef int i
    out.length = min(RACE_WIDTH, a_length + b_length - 1)
    for i in range(out.length):
        out.p[i] = 0.0
    for i in range(a_length):
        if a[i] != 0.0:
            add_multiple(out.p + i, b, a[i], min(b_length, RACE_WIDTH - i))


cdef void credit_overshoot(Distribution* distribution, int pips, int dice) noexcept nogil:
    """Give back what the bank BANK[pips][dice] spends on its last roll's unused part:
    with probability q (that part, in rolls) one roll less, so that bringing the checkers
    in costs its fair share of rolls on average, the rest of the last roll being played
    in the home board."""
    cdef double q = BANK_OVERSHOOT[pips][dice]
    cdef int k
    if q <= 0.0:
        return
    if q > 1.0:
        q = 1.0
    for k in range(distribution.length - 1):
        distribution.p[k] = (1.0 - q) * distribution.p[k] + q * distribution.p[k + 1]
    distribution.p[distribution.length - 1] *= 1.0 - q


cdef inline void point_mass_at_zero(Distribution* out) noexcept nogil:
    out.p[0] = 1.0
    out.length = 1


cdef inline int dice_wanted(int distance) noexcept nogil:
    """Dice a checker ``distance`` pips from its target typically takes: dice are not
    shared between checkers, and small dice rarely bring a far checker in at once."""
    return (distance + DIE_REACH - 1) // DIE_REACH


# The children of one roll share the side that did not move, so its distributions come
# back board after board: each thread keeps the last two sides it computed (the tables
# never change once made, so a kept result is always right).
ctypedef struct KeptSide:
    const RaceTableSet* tables          # NULL: empty
    SideCounts side
    Distribution rolls, first, escape


ctypedef struct KeptSides:              # one per thread (bgcore._scratch), zeroed at first
    KeptSide kept[2]
    int newer                           # the index of the one used last


cdef inline void copy_distribution(const Distribution* source, Distribution* target) noexcept nogil:
    target.length = source.length
    memcpy(target.p, source.p, source.length * sizeof(double))


cdef int side_distributions(const RaceTableSet* tables, const SideCounts* side,
                            Distribution* rolls, Distribution* first,
                            Distribution* escape) noexcept nogil:
    """compute_side_distributions, or this thread's copy when it computed them last time."""
    cdef KeptSides* memo = <KeptSides*>thread_scratch(sizeof(KeptSides))
    cdef KeptSide* entry
    cdef int k
    if memo == NULL:
        return compute_side_distributions(tables, side, rolls, first, escape)
    for k in range(2):
        entry = &memo.kept[k]
        if entry.tables == tables and memcmp(&entry.side, side, sizeof(SideCounts)) == 0:
            copy_distribution(&entry.rolls, rolls)
            copy_distribution(&entry.first, first)
            copy_distribution(&entry.escape, escape)
            memo.newer = k
            return 0
    if compute_side_distributions(tables, side, rolls, first, escape) < 0:
        return -1
    memo.newer = 1 - memo.newer
    entry = &memo.kept[memo.newer]
    entry.tables = tables
    entry.side = side[0]
    copy_distribution(rolls, &entry.rolls)
    copy_distribution(first, &entry.first)
    copy_distribution(escape, &entry.escape)
    return 0


cdef int compute_side_distributions(const RaceTableSet* tables, const SideCounts* side,
                                    Distribution* rolls, Distribution* first,
                                    Distribution* escape) noexcept nogil:
    """Roll-count distributions of one side in a race: to finish, to the first checker off
    (only with 15 on the board, else 0 rolls) and to leave the other side's home board.

    Exact from a one-sided table when every checker is on its points; otherwise the
    checkers beyond are stacked on the table's top point and the pips they still need to
    get there are run off as a pip bank first, its overshoot credited back (the
    approximation documented in docs/bearoff.md).
    """
    cdef const OneSidedTable* table = &tables.home
    if tables.wide.points and side.highest > HOME_POINTS:
        table = &tables.wide
    if table.points == 0:
        return -1
    cdef int p
    cdef int stacked[MAX_TABLE_POINTS + 1]
    cdef int bank = 0, outside = 0, escape_bank = 0, escaping = 0
    cdef double certain = 1.0
    for p in range(table.points + 1):
        stacked[p] = side.counts[p]
    for p in range(table.points + 1, NUM_SLOTS):
        stacked[table.points] += side.counts[p]
        bank += (p - table.points) * side.counts[p]
        outside += side.counts[p] * dice_wanted(p - table.points)
        if p > 3 * HOME_POINTS:
            escape_bank += (p - 3 * HOME_POINTS) * side.counts[p]
            escaping += side.counts[p] * dice_wanted(p - 3 * HOME_POINTS)
    outside = min(outside, MAX_BANK_DICE)
    escaping = min(escaping, MAX_BANK_DICE)
    cdef long long rank = one_sided_rank(stacked, table.points)
    convolve(BANK[bank][0], BANK_LENGTH[bank][0], table.rolls + rank * table.width,
             table.width, rolls)
    credit_overshoot(rolls, bank, 0)
    if side.on_board == NUM_CHECKERS:
        # No checker comes off before all are home; every outside checker needs dice.
        convolve(BANK[bank][outside], BANK_LENGTH[bank][outside],
                 table.first_off + (rank - table.full_start) * table.first_width,
                 table.first_width, first)
        credit_overshoot(first, bank, outside)
        convolve(BANK[escape_bank][escaping], BANK_LENGTH[escape_bank][escaping],
                 &certain, 1, escape)
    else:
        point_mass_at_zero(first)
        point_mass_at_zero(escape)
    return 0


cdef double first_finisher_chance(const Distribution* finisher, const Distribution* other,
                                  int shift) noexcept nogil:
    """Σ_i finisher[i] × P(other count >= i + shift): the finisher is done first."""
    cdef double total = 0.0, at_least = 0.0
    cdef int i
    # Walk i downwards, accumulating P(other >= i + shift) as we go.
    for i in range(other.length - 1, finisher.length - 1 + shift, -1):
        at_least += other.p[i]
    for i in range(finisher.length - 1, -1, -1):
        if i + shift < other.length:
            at_least += other.p[i + shift]
        total += finisher.p[i] * at_least
    return total


cdef void game_over_probabilities(const SideCounts* mover, const SideCounts* opponent,
                                  float* out) noexcept nogil:
    """The settled 5-vector of a finished game, player on roll's view."""
    cdef int i
    cdef const SideCounts* loser = opponent if mover.on_board == 0 else mover
    cdef bint gammon = loser.on_board == NUM_CHECKERS
    cdef bint backgammon = gammon and loser.highest > 3 * HOME_POINTS
    for i in range(5):
        out[i] = 0.0
    if mover.on_board == 0:
        out[0] = 1.0
        out[1] = gammon
        out[2] = backgammon
    else:
        out[3] = gammon
        out[4] = backgammon


cdef double mean_rolls(const Distribution* rolls) noexcept nogil:
    """Expected value of a roll-count distribution."""
    cdef double total = 0.0
    cdef int k
    for k in range(rolls.length):
        total += k * rolls.p[k]
    return total


cdef void summarise(const Distribution* rolls, const Distribution* first,
                    RaceSideSummary* summary) noexcept nogil:
    """A side's RaceSideSummary from its roll and first-off distributions (the
    cumulative chances summed in order of rolls)."""
    cdef double finish = 0.0, first_off = 0.0
    cdef int k
    summary.expected_rolls = mean_rolls(rolls)
    for k in range(RACE_WITHIN + 1):
        if k < rolls.length:
            finish += rolls.p[k]
        if k < first.length:
            first_off += first.p[k]
        if k > 0:
            summary.finish_within[k - 1] = finish
            summary.first_off_within[k - 1] = first_off


cdef bint bears_off_with(int* counts, const int* dice, int count, int used) noexcept nogil:
    """Whether the side (``counts`` on its points 1..25, all 15 on the board) can bear a
    checker off playing ``dice[used:count]`` in that order. Moves commute in a race (no
    blocks, no hits), so outside checkers are brought in first; then a die bears off a
    checker from its own point, or the highest one when none is higher, or moves a home
    checker on. (The rule that a roll must be played in full is not checked: a play that
    bears off can nearly always finish the roll.)"""
    if used == count:
        return False
    cdef int die = dice[used], p, highest = NUM_SLOTS - 1
    while highest > 0 and counts[highest] == 0:
        highest -= 1
    cdef bint home = highest <= HOME_POINTS
    if home and (counts[die] > 0 or highest < die):
        return True
    cdef bint found = False
    for p in range(highest, die, -1):
        if counts[p] == 0:
            continue
        if not home and p <= HOME_POINTS:
            break  # outside checkers first
        counts[p] -= 1
        counts[p - die] += 1
        found = bears_off_with(counts, dice, count, used + 1)
        counts[p] += 1
        counts[p - die] -= 1
        if found:
            return True
    return False


cdef double first_off_next_roll(const SideCounts* side) noexcept nogil:
    """The exact chance that a side with all 15 on the board and checkers outside bears a
    checker off with its next roll (0 when its outside checkers need more than three dice
    to come home): each of the 21 rolls tried (a non-double in both orders)."""
    cdef int counts[NUM_SLOTS]
    cdef int dice[4]
    cdef int p, r, k, needed = 0
    for p in range(NUM_SLOTS):
        counts[p] = side.counts[p]
        if p > HOME_POINTS:
            needed += side.counts[p] * ((p - 1) // HOME_POINTS)  # at least one die of 6 per six points
    if needed > 3:
        return 0.0
    cdef double chance = 0.0
    cdef bint found
    for r in range(NUM_ROLLS):
        if ROLL_LOW[r] == ROLL_HIGH[r]:
            for k in range(4):
                dice[k] = ROLL_LOW[r]
            found = bears_off_with(counts, dice, 4, 0)
        else:
            dice[0], dice[1] = ROLL_HIGH[r], ROLL_LOW[r]
            found = bears_off_with(counts, dice, 2, 0)
            if not found:
                dice[0], dice[1] = ROLL_LOW[r], ROLL_HIGH[r]
                found = bears_off_with(counts, dice, 2, 0)
        if found:
            chance += ROLL_WEIGHT[r]
    return chance / 36.0


cdef void side_summary(const RaceTableSet* tables, const SideCounts* side,
                       RaceSideSummary* summary) noexcept nogil:
    """The race model's summary of one side (see RaceSideSummary), its first-off
    distribution's first roll exact (``exact_first_roll``)."""
    cdef Distribution rolls, first, escape
    side_distributions(tables, side, &rolls, &first, &escape)
    exact_first_roll(side, &first)
    summarise(&rolls, &first, summary)


cdef void exact_first_roll(const SideCounts* side, Distribution* first) noexcept nogil:
    """For a side with all 15 on the board and checkers outside, the first-off distribution
    with its chance for the next roll made exact (``first_off_next_roll``; the pip bank's is
    a guess there, home sides' is the table's) and the later rolls scaled to the rest."""
    if side.on_board != NUM_CHECKERS or side.highest <= HOME_POINTS:
        return
    cdef double exact = first_off_next_roll(side)
    cdef double later = 0.0
    cdef int k
    for k in range(2, first.length):
        later += first.p[k]
    if later > 0.0:
        for k in range(2, first.length):
            first.p[k] *= (1.0 - exact) / later
    else:  # all the guess's mass on the next roll: the rest one roll later
        for k in range(first.length, 3):
            first.p[k] = 0.0
        first.length = max(first.length, 3)
        first.p[2] = 1.0 - exact
    first.p[0] = 0.0
    first.p[1] = exact


cdef int race_probabilities(const RaceTableSet* tables, const checker_t* board,
                            float* out) noexcept nogil:
    return 0 if race_estimate(tables, board, out, NULL, NULL, False) != RACE_CONTACT else -1


cdef RaceOutcome race_estimate(const RaceTableSet* tables, const checker_t* board,
                               float* out, RaceSideSummary* summaries,
                               SideCounts* sides, bint first_roll_exact) noexcept nogil:
    cdef Phase phase = phase_of(board)
    cdef SideCounts mover, opponent
    if phase == PHASE_CONTACT:
        return RACE_CONTACT
    read_sides(board, &mover, &opponent)
    if sides != NULL:
        sides[0] = mover
        sides[1] = opponent
    cdef double exact = -1.0
    if phase == PHASE_OVER:
        game_over_probabilities(&mover, &opponent, out)
        exact = 1.0
    else:
        exact = two_sided_win_probability(&tables.two_sided, board)
        if exact >= 0.0:
            out[0] = min(1.0, exact)
            out[1] = out[2] = out[3] = out[4] = 0.0
    if exact >= 0.0:
        if summaries != NULL:
            side_summary(tables, &mover, summaries)
            side_summary(tables, &opponent, summaries + 1)
        return RACE_EXACT
    cdef Distribution mover_rolls, mover_first, mover_escape
    cdef Distribution opponent_rolls, opponent_first, opponent_escape
    if side_distributions(tables, &mover, &mover_rolls, &mover_first, &mover_escape) < 0:
        return RACE_CONTACT
    if side_distributions(tables, &opponent, &opponent_rolls, &opponent_first, &opponent_escape) < 0:
        return RACE_CONTACT
    if first_roll_exact:
        exact_first_roll(&mover, &mover_first)
        exact_first_roll(&opponent, &opponent_first)
    if summaries != NULL:  # (without first_roll_exact, for version-1 inputs: no within-k chances)
        summarise(&mover_rolls, &mover_first, summaries)
        summarise(&opponent_rolls, &opponent_first, summaries + 1)
    # The player on roll finishing on his i-th roll wins if the opponent needs >= i rolls;
    # the opponent finishing on his j-th roll wins if the player on roll needs >= j + 1.
    cdef double win = min(1.0, max(0.0, first_finisher_chance(&mover_rolls, &opponent_rolls, 0)))
    cdef double win_gammon = 0.0, win_backgammon = 0.0, lose_gammon = 0.0, lose_backgammon = 0.0
    if opponent.on_board == NUM_CHECKERS:
        win_gammon = min(win, first_finisher_chance(&mover_rolls, &opponent_first, 0))
        win_backgammon = min(win_gammon, first_finisher_chance(&mover_rolls, &opponent_escape, 0))
    if mover.on_board == NUM_CHECKERS:
        lose_gammon = max(0.0, min(1.0 - win, first_finisher_chance(&opponent_rolls, &mover_first, 1)))
        lose_backgammon = min(lose_gammon, first_finisher_chance(&opponent_rolls, &mover_escape, 1))
    out[0] = win
    out[1] = win_gammon
    out[2] = win_backgammon
    out[3] = lose_gammon
    out[4] = lose_backgammon
    return RACE_APPROXIMATE


# ----- the Python owner and entry points --------------------------------------------------

cdef int check_race_width(const OneSidedTable* table) except -1:
    """ValueError when a one-sided table's distributions leave no room for a pip bank."""
    if table.points and max(table.width, table.first_width) + PIP_BANK_WIDTH > RACE_WIDTH:
        raise ValueError(f"one-sided distributions wider than {RACE_WIDTH - PIP_BANK_WIDTH} rolls")
    return 0


cdef class RaceTables:
    """The bear-off tables one race evaluator reads (read-only once made; share freely).

    ``home``: the six-point one-sided table (rolls, expected, first_off); ``wide``: a
    wider one (points, rolls, expected, first_off) or None; ``two_sided``: (max_checkers,
    win, cubeful) or None. ``recipe``: an optional picklable (callable, args) that makes
    the same tables again, so pickling ships the recipe instead of the arrays.
    """

    def __init__(self, home, wide=None, two_sided=None, recipe=None):
        ensure_banks()
        self.c.home.points = 0
        self.c.wide.points = 0
        self.c.two_sided.max_checkers = 0
        rolls, expected, first_off = home
        kept = [fill_one_sided(&self.c.home, HOME_POINTS, rolls, expected, first_off), None, None]
        if wide is not None:
            points, rolls, expected, first_off = wide
            if points <= HOME_POINTS:
                raise ValueError(f"a wide table covers {HOME_POINTS + 1}..{MAX_TABLE_POINTS} points")
            kept[1] = (points, *fill_one_sided(&self.c.wide, points, rolls, expected, first_off))
        check_race_width(&self.c.home)
        check_race_width(&self.c.wide)
        if two_sided is not None:
            max_checkers, win, cubeful = two_sided
            kept[2] = (max_checkers, *fill_two_sided(&self.c.two_sided, max_checkers, win, cubeful))
        self.arrays = tuple(kept)       # (home, wide or None, two_sided or None) as given
        self.recipe = recipe

    @property
    def wide_points(self):
        """Points of the wide one-sided table, or None."""
        return self.c.wide.points or None

    @property
    def two_sided_checkers(self):
        """Checkers per side of the two-sided table, or None."""
        return self.c.two_sided.max_checkers or None

    def __reduce__(self):
        if self.recipe is not None:
            return self.recipe
        return (RaceTables, self.arrays)

    def race_probabilities_batch(self, const checker_t[:, ::1] boards, float[:, ::1] out,
                                 bint first_roll_exact=False):
        """Fill out[i] with the race 5-vector of boards[i] (player on roll's view, before
        the roll). Returns a bool array: False where a board has contact (its row is then
        NaN). Impossible boards raise ValueError. ``first_roll_exact``: the first-off
        distributions of sides bearing in with all 15 on the board get their next roll's
        chance exact (the race network's base from inputs version 2 on)."""
        if boards.shape[1] != NUM_SLOTS or out.shape[1] != 5 or out.shape[0] != boards.shape[0]:
            raise ValueError("boards must be n x 26 int8 and out n x 5 float32")
        cdef Py_ssize_t i, n = boards.shape[0]
        if n:
            check_boards(&boards[0, 0], n)
        ok = np.zeros(n, dtype=np.bool_)
        cdef cnp.npy_bool[::1] ok_view = ok
        cdef int k
        with nogil:
            for i in range(n):
                if race_estimate(&self.c, &boards[i, 0], &out[i, 0], NULL, NULL, first_roll_exact) != RACE_CONTACT:
                    ok_view[i] = True
                else:
                    for k in range(5):
                        out[i, k] = NAN
        return ok

    def race_probabilities_of(self, bytes board):
        """The race 5-vector of one board as a tuple, or None when it has contact."""
        cdef const checker_t* b = checked_board(board)
        cdef float out[5]
        if race_probabilities(&self.c, b, out) < 0:
            return None
        return out[0], out[1], out[2], out[3], out[4]

    def two_sided_lookup(self, bytes board):
        """(P(win), equity centred, owned, opponent owns) from the two-sided table, player
        on roll's view; None when the board is not in it."""
        cdef const checker_t* b = checked_board(board)
        cdef double win = two_sided_win_probability(&self.c.two_sided, b)
        if win < 0:
            return None
        return (win, two_sided_cubeful_equity(&self.c.two_sided, b, 0),
                two_sided_cubeful_equity(&self.c.two_sided, b, 1),
                two_sided_cubeful_equity(&self.c.two_sided, b, 2))

    def side_roll_distributions(self, bytes board, bint mover_side):
        """(rolls, first_off, escape) distributions of one side of a non-contact board, as
        used by the race evaluation."""
        cdef const checker_t* b = checked_board(board)
        cdef SideCounts mover, opponent
        cdef Distribution rolls, first, escape
        read_sides(b, &mover, &opponent)
        side_distributions(&self.c, &mover if mover_side else &opponent, &rolls, &first, &escape)
        return tuple(np.array([d.p[k] for k in range(d.length)]) for d in (rolls, first, escape))

    def expected_rolls_batch(self, const checker_t[:, ::1] boards, bint opponent_side):
        """Expected rolls to bear off of one side of each race board (as the race evaluation
        models them): the player on roll's, or the opponent's when ``opponent_side``.
        Impossible boards raise ValueError."""
        return self.side_summaries_batch(boards, opponent_side)[:, 0]

    def side_summaries_batch(self, const checker_t[:, ::1] boards, bint opponent_side):
        """(n, 1 + 2 * RACE_WITHIN) summaries of one side of each race board, as the race
        evaluation models it (the player on roll's, or the opponent's when
        ``opponent_side``): expected rolls to bear off, then P(done within k rolls) and
        P(first checker off within k rolls) for k = 1..RACE_WITHIN. Impossible boards
        raise ValueError."""
        if boards.shape[1] != NUM_SLOTS:
            raise ValueError("boards must be n x 26 int8")
        cdef Py_ssize_t i, n = boards.shape[0]
        if n:
            check_boards(&boards[0, 0], n)
        result = np.empty((n, 1 + 2 * RACE_WITHIN), dtype=np.float64)
        cdef double[:, ::1] out = result
        cdef SideCounts mover, opponent
        cdef RaceSideSummary summary
        cdef int k
        with nogil:
            for i in range(n):
                read_sides(&boards[i, 0], &mover, &opponent)
                side_summary(&self.c, &opponent if opponent_side else &mover, &summary)
                out[i, 0] = summary.expected_rolls
                for k in range(RACE_WITHIN):
                    out[i, 1 + k] = summary.finish_within[k]
                    out[i, 1 + RACE_WITHIN + k] = summary.first_off_within[k]
        return result


def race_within():
    """RACE_WITHIN: how many rolls ahead a side summary's cumulative chances look."""
    return RACE_WITHIN

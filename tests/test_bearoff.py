"""One-sided and two-sided bear-off tables: exact small cases, invariants, cache safety."""

from __future__ import annotations

import functools
import itertools
import warnings
from fractions import Fraction

import numpy as np
import pytest

from bgcore import _bearoff_index, _bearoff_one_sided, _bearoff_two_sided
from bearoff_fixtures import private_cache  # noqa: F401  (autouse fixture)
from bgengine.evaluation import bearoff
from bgengine import CubeOwner
from bgengine.evaluation.bearoff import BearoffCacheWarning
from bgengine.errors import InvalidPositionError
from bgengine.position import Position

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def roll_weight(roll: tuple[int, int]) -> Fraction:
    return Fraction(1 if roll[0] == roll[1] else 2, 36)


@pytest.fixture(scope="module")
def home():
    return bearoff.one_sided_table()


@pytest.fixture(scope="module")
def two_sided():
    return bearoff.two_sided_table()


@pytest.fixture(scope="module")
def all_counts(home):
    """Counts (points 1..6) of every one-sided position, row = rank."""
    return np.array([home.counts(rank) for rank in range(home.rolls.shape[0])])


# ----- a small, obviously-correct reference: moves by the rules, exact fractions -------------


def reference_children(counts: tuple[int, ...], dice: tuple[int, int]) -> set[tuple[int, ...]]:
    """Children of a one-sided position by brute force over every die order."""
    sequences = [dice[::-1], dice] if dice[0] != dice[1] else [(dice[0],) * 4]

    def plays(position, remaining):
        moved = False
        for point in range(1, len(position) + 1):
            die = remaining[0] if remaining else 0
            if not remaining or position[point - 1] == 0:
                continue
            highest = max((p for p in range(1, len(position) + 1) if position[p - 1]), default=0)
            if point > die:
                target = list(position)
                target[point - 1] -= 1
                target[point - die - 1] += 1
            elif highest <= 6 and (point == die or point == highest):
                target = list(position)
                target[point - 1] -= 1
            else:
                continue
            moved = True
            for used, child in plays(tuple(target), remaining[1:]):
                yield used + 1, child
        if not moved:
            yield 0, position

    results = [result for order in sequences for result in plays(tuple(counts), order)]
    most = max(used for used, _ in results)
    if dice[0] != dice[1] and most == 1:
        larger = [r for r in plays(tuple(counts), (max(dice),)) if r[0] == 1]
        results = larger or results
    return {child for used, child in results if used == most}


@functools.lru_cache(maxsize=None)
def reference_expected_rolls(counts: tuple[int, ...]) -> Fraction:
    """Exact expected rolls to bear off, minimising play, by direct recursion."""
    if sum(counts) == 0:
        return Fraction(0)
    return 1 + sum(
        roll_weight(roll) * min(reference_expected_rolls(c) for c in reference_children(counts, roll))
        for roll in ALL_ROLLS
    )


# ----- ranking ------------------------------------------------------------------------------


def test_rank_and_counts_are_inverse_for_every_home_position(home, all_counts):
    assert all_counts.shape == (54264, 6)
    assert [home.rank(c) for c in all_counts[::97]] == list(range(0, 54264, 97))
    assert len({tuple(c) for c in all_counts}) == 54264


def test_positions_with_at_most_n_checkers_take_the_first_ranks(all_counts):
    totals = all_counts.sum(axis=1)
    for n in range(16):
        first_with_more = int(np.argmax(totals > n)) if n < 15 else len(totals)
        assert first_with_more == _bearoff_index.one_sided_size(n, 6)
        assert np.all(totals[:first_with_more] <= n)


def test_every_move_lowers_the_rank(home, all_counts):
    for rank in range(1, 54264, 331):
        for roll in ALL_ROLLS:
            assert all(child < rank for child in _bearoff_index.bearoff_children(list(all_counts[rank]), *roll))


def test_bad_ranks_and_counts_raise_clear_errors(home):
    with pytest.raises(ValueError, match="outside"):
        home.counts(54264)
    with pytest.raises(InvalidPositionError, match="at most 15"):
        home.rank([8, 8])
    with pytest.raises(InvalidPositionError, match="non-negative"):
        home.rank([-1])
    with pytest.raises(InvalidPositionError, match="7 counts"):
        home.rank([0] * 7)
    with pytest.raises(ValueError, match="points"):
        bearoff.one_sided_table(0)


# ----- moves: legal_children on one side's bear-off, and the step-by-step build -------------


def test_one_sided_children_match_the_brute_force_reference(home, all_counts):
    rng = np.random.default_rng(5)
    for rank in rng.choice(54264, size=150, replace=False):
        counts = tuple(int(c) for c in all_counts[rank])
        for roll in ALL_ROLLS:
            expected = sorted(home.rank(c) for c in reference_children(counts, roll))
            assert _bearoff_index.bearoff_children(list(counts), *roll) == expected, (counts, roll)


@pytest.mark.parametrize("points", [5, 6, pytest.param(7, marks=pytest.mark.slow)])
def test_step_by_step_build_equals_the_build_from_legal_children(points):
    """The fast build (best single-die steps) against every roll's children from legal_children."""
    fast = _bearoff_one_sided.build_one_sided(points)
    reference = _bearoff_one_sided.build_one_sided(points, through_movegen=True)
    assert np.array_equal(fast[1], reference[1])  # expected rolls
    assert np.array_equal(fast[3], reference[3])  # expected rolls to the first checker off
    for mine, theirs in ((fast[0], reference[0]), (fast[2], reference[2])):
        assert mine.shape == theirs.shape
        assert np.abs(mine - theirs).max() < 1e-14


# ----- one-sided table: exact small cases and invariants ----------------------------------------


def test_one_checker_on_the_one_point_is_off_in_one_roll_for_sure(home):
    assert list(home.rolls_distribution([1])[:3]) == [0.0, 1.0, 0.0]
    assert home.expected_rolls({1: 1}) == 1.0


def test_two_checkers_on_the_six_point_are_off_in_one_roll_only_with_33_44_55_66(home):
    distribution = home.rolls_distribution({6: 2})
    assert distribution[1] == pytest.approx(4 / 36, abs=1e-15)
    assert distribution[0] == 0.0
    assert distribution.sum() == pytest.approx(1.0, abs=1e-14)


def test_empty_side_needs_no_rolls(home):
    assert home.rolls_distribution([])[0] == 1.0
    assert home.expected_rolls([]) == 0.0


def test_every_distribution_sums_to_one(home):
    assert np.abs(home.rolls.sum(axis=1) - 1).max() < 1e-12
    assert np.abs(home.first_off.sum(axis=1) - 1).max() < 1e-12
    assert home.rolls.min() >= 0 and home.first_off.min() >= 0


def test_expected_rolls_is_the_mean_of_the_distribution(home):
    ks = np.arange(home.rolls.shape[1])
    assert np.abs(home.rolls @ ks - home.expected).max() < 1e-9
    ks = np.arange(home.first_off.shape[1])
    assert np.abs(home.first_off @ ks - home.first_expected).max() < 1e-9


def test_expected_rolls_never_shrink_when_a_checker_is_added(home, all_counts):
    below_fifteen = np.flatnonzero(all_counts.sum(axis=1) < 15)
    for point in range(6):
        more = all_counts[below_fifteen].copy()
        more[:, point] += 1
        ranks = np.array([home.rank(c) for c in more])
        assert np.all(home.expected[ranks] >= home.expected[below_fifteen] - 1e-12)
        assert np.mean(home.expected[ranks] > home.expected[below_fifteen] + 1e-9) > 0.9


def test_expected_rolls_match_exact_recursion_for_up_to_four_checkers(home, all_counts):
    for rank in range(_bearoff_index.one_sided_size(4, 6)):
        counts = tuple(int(c) for c in all_counts[rank])
        assert home.expected[rank] == pytest.approx(float(reference_expected_rolls(counts)), abs=1e-12)


def test_epc_is_49_sixths_of_expected_rolls_and_wastage_the_excess_over_pips(home):
    assert home.effective_pip_count({1: 1}) == pytest.approx(49 / 6)
    assert home.wastage({1: 1}) == pytest.approx(49 / 6 - 1)
    counts = {6: 3, 5: 3, 4: 3}
    assert home.wastage(counts) == pytest.approx(home.effective_pip_count(counts) - 45)


def test_first_checker_off_of_fifteen_on_the_six_point_in_one_roll_is_17_in_36(home):
    # a 6 (11 rolls), 22, 33, 51 (6/5/off), 42 (6/2/off): 11 + 1 + 1 + 2 + 2 = 17
    assert home.first_off_distribution({6: 15})[1] == pytest.approx(17 / 36, abs=1e-15)


def test_first_off_is_immediate_with_a_checker_already_off(home):
    assert list(home.first_off_distribution({6: 14})[:2]) == [1.0, 0.0]


# ----- two-sided table ----------------------------------------------------------------------


def one_sided_win(home, mover_rank: int, opponent_rank: int) -> float:
    """P(player on roll wins) = Σ_i P_me(i) P_opp(>= i): he finishes first on a tie in rolls."""
    mine, theirs = home.rolls[mover_rank], home.rolls[opponent_rank]
    at_least = np.cumsum(theirs[::-1])[::-1]
    return float(mine @ at_least)


def test_two_sided_table_covers_924_by_924_positions(two_sided):
    assert two_sided.win.shape == (924, 924)
    assert two_sided.cubeful.shape == (3, 924, 924)


def test_two_sided_agrees_with_one_sided_when_the_opponent_finishes_next_roll(home, two_sided, all_counts):
    sure_next_roll = [r for r in range(1, 924) if home.rolls[r, 1] == 1.0]
    assert len(sure_next_roll) == 5  # one checker on the 1, 2 or 3-point; two on 1-1 or 1-2
    for b in sure_next_roll:
        assert np.allclose(two_sided.win[1:, b], home.rolls[1:924, 1], atol=1e-12)
        formula = [one_sided_win(home, a, b) for a in range(1, 924)]
        assert np.allclose(two_sided.win[1:, b], formula, atol=1e-12)


def test_two_sided_is_close_to_the_one_sided_formula_everywhere(home, two_sided):
    rng = np.random.default_rng(11)
    pairs = rng.integers(1, 924, size=(3000, 2))
    differences = [abs(two_sided.win[a, b] - one_sided_win(home, a, b)) for a, b in pairs]
    assert max(differences) < 0.03


def test_two_sided_win_probabilities_are_probabilities(two_sided):
    assert two_sided.win.min() >= 0.0 and two_sided.win.max() <= 1.0 + 1e-12


def test_two_sided_lookup_by_counts_and_by_position(two_sided):
    assert two_sided.win_probability({6: 2}, {1: 1}) == pytest.approx(1 / 9, abs=1e-15)
    equities = two_sided.equities(Position.from_points({6: 2}, {1: 1}))
    assert equities.win == pytest.approx(1 / 9, abs=1e-15)
    with pytest.raises(InvalidPositionError, match="1..6"):
        two_sided.win_probability({6: 7}, {1: 1})
    with pytest.raises(InvalidPositionError, match="not in the two-sided table"):
        two_sided.equities(Position.from_points({7: 1}, {1: 1}))


def test_cubeful_equity_on_the_last_roll_is_the_cubeless_equity(two_sided):
    # The opponent surely finishes next: the cube is worthless, equity = 2 P - 1.
    for owner in CubeOwner:
        assert two_sided.cubeful_equity({6: 2}, {1: 1}, owner) == pytest.approx(2 / 9 - 1, abs=1e-12)
        assert two_sided.cubeful_equity({1: 1}, {6: 6}, owner) == pytest.approx(1.0, abs=1e-12)


def test_two_roll_against_two_roll_is_a_double_and_pass(two_sided):
    # Four on the 1-point each: doubles finish at once, other rolls take two turns. The
    # player on roll wins with doubles now (1/6) or when the opponent misses them
    # (5/6 x 5/6): 31/36 > 3/4, so he doubles and the opponent passes.
    assert two_sided.win_probability({1: 4}, {1: 4}) == pytest.approx(31 / 36, abs=1e-12)
    assert two_sided.cubeful_equity({1: 4}, {1: 4}, CubeOwner.CENTRED) == pytest.approx(1.0, abs=1e-12)
    assert two_sided.cubeful_equity({1: 4}, {1: 4}, CubeOwner.PLAYER) == pytest.approx(1.0, abs=1e-12)
    # Without access to the cube he plays on; the opponent's redouble never comes in time.
    assert two_sided.cubeful_equity({1: 4}, {1: 4}, CubeOwner.OPPONENT) == pytest.approx(
        2 * 31 / 36 - 1, abs=1e-12
    )


def test_cubeful_equity_orders_by_cube_access(two_sided):
    centred, owned, theirs = two_sided.cubeful
    assert np.all(owned >= centred - 1e-12)
    assert np.all(centred >= theirs - 1e-12)
    assert np.all(np.abs(two_sided.cubeful) <= 1 + 1e-12)


@functools.lru_cache(maxsize=None)
def reference_two_sided(mover: tuple[int, ...], opponent: tuple[int, ...]) -> tuple[Fraction, ...]:
    """(P(win), equity centred, owned, opponent owns) by direct recursion with fractions.

    Money play, no gammons possible: a take gives the opponent a doubled cube, a pass +1.
    """
    totals = [Fraction(0)] * 4
    for roll in ALL_ROLLS:
        best = [Fraction(-2)] * 4
        for child in reference_children(mover, roll):
            if sum(child) == 0:
                values = [Fraction(1)] * 4
            else:
                win, centred, owned, theirs = reference_two_sided(opponent, child)
                values = [1 - win, -centred, -theirs, -owned]
            best = [max(a, b) for a, b in zip(best, values)]
        totals = [t + roll_weight(roll) * b for t, b in zip(totals, best)]
    win, no_double_centred, no_double_owned, theirs = totals
    double = min(Fraction(1), 2 * theirs)
    return win, max(no_double_centred, double), max(no_double_owned, double), theirs


def test_two_sided_matches_exact_recursion_for_up_to_two_checkers():
    win, cubeful = _bearoff_two_sided.build_two_sided(2)
    size = _bearoff_index.one_sided_size(2, 6)
    for a, b in itertools.product(range(1, size), repeat=2):
        mover = tuple(_bearoff_index.one_sided_counts_of(a, 6))
        opponent = tuple(_bearoff_index.one_sided_counts_of(b, 6))
        expected = [float(x) for x in reference_two_sided(mover, opponent)]
        assert [win[a, b], *cubeful[:, a, b]] == pytest.approx(expected, abs=1e-12), (mover, opponent)


def test_small_two_sided_table_is_the_corner_of_the_large_one(two_sided):
    win, cubeful = _bearoff_two_sided.build_two_sided(3)
    n = win.shape[0]
    assert np.array_equal(win, two_sided.win[:n, :n])
    assert np.array_equal(cubeful, two_sided.cubeful[:, :n, :n])


# ----- cache --------------------------------------------------------------------------------


def cache_file(name: str):
    return next(bearoff.cache_dir().glob(f"{name}.v*.bgtable"))


def test_cache_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(bearoff.CACHE_DIR_ENV, str(tmp_path / "x"))
    assert bearoff.cache_dir() == tmp_path / "x"
    monkeypatch.delenv(bearoff.CACHE_DIR_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert bearoff.cache_dir() == tmp_path / "xdg" / "bgengine"


def test_a_cached_table_is_read_back_without_building(home, monkeypatch):
    bearoff.forget_loaded_tables()

    def refuse(*args, **kwargs):
        raise AssertionError("built although a sound cache file exists")

    monkeypatch.setattr(_bearoff_one_sided, "build_one_sided", refuse)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = bearoff.one_sided_table()
    assert np.array_equal(again.rolls, home.rolls)


HEADER_EDITS = {  # each a one-place edit of the header line that the old checksum missed (issue 16)
    "byte order": (b'"<f8"', b'">f8"'),
    "dtype": (b'"<f8"', b'"<i8"'),
    "shape": (b'"shape": [', b'"shape": [9'),
    "array name": (b'"name": "', b'"name": "x'),
    "version": (b'"version": 2', b'"version": 9'),
    "kind": (b'"kind": "', b'"kind": "x'),
    "not json": (b'{"arrays"', b'{"arrays"}'),
}


@pytest.mark.parametrize("damage", ["flip a byte", "truncate", "garbage header", "garbage checksum", *HEADER_EDITS])
def test_a_damaged_cache_file_is_detected_and_rebuilt(home, damage):
    path = cache_file("one_sided_6pt")
    data = bytearray(path.read_bytes())
    if damage == "flip a byte":
        data[len(data) // 2] ^= 0x40
    elif damage == "truncate":
        del data[-1000:]
    elif damage == "garbage header":
        data[:20] = b"x" * 20
    elif damage == "garbage checksum":
        data[len(b"BGENGINE-TABLE\n")] ^= 0x01
    else:
        old, new = HEADER_EDITS[damage]
        assert old in data
        data = data.replace(old, new, 1)
    path.write_bytes(bytes(data))
    bearoff.forget_loaded_tables()
    with pytest.warns(BearoffCacheWarning, match="rebuilding"):
        rebuilt = bearoff.one_sided_table()
    assert np.array_equal(rebuilt.rolls, home.rolls)
    bearoff.forget_loaded_tables()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.array_equal(bearoff.one_sided_table().rolls, home.rolls)


def test_two_sided_cache_is_checksummed_too(two_sided):
    path = cache_file("two_sided_6")
    data = bytearray(path.read_bytes())
    data[-5] ^= 0x01
    path.write_bytes(bytes(data))
    bearoff.forget_loaded_tables()
    with pytest.warns(BearoffCacheWarning, match="checksum"):
        assert np.array_equal(bearoff.two_sided_table().win, two_sided.win)


def test_progress_is_reported_until_the_table_is_complete():
    calls = []
    table = bearoff.build_one_sided_table(4, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (table.rolls.shape[0], table.rolls.shape[0])
    assert all(a[0] < b[0] for a, b in itertools.pairwise(calls))


def test_core_two_sided_lookup_reads_the_same_numbers(two_sided):
    tables = bearoff.race_tables()
    position = Position.from_points({6: 2, 3: 1}, {5: 1, 1: 2})
    equities = two_sided.equities(position)
    assert tables.two_sided_lookup(position.to_bytes()) == (
        equities.win,
        equities.centred,
        equities.owned,
        equities.opponent_owns,
    )
    assert tables.two_sided_lookup(Position.from_points({7: 1}, {1: 1}).to_bytes()) is None

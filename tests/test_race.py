"""Race evaluation from the bear-off tables, and the classic race counts."""

from __future__ import annotations


import numpy as np
import pytest

from bgcore import _bearoff_index, _race
from bearoff_fixtures import private_cache  # noqa: F401  (autouse fixture)
from conftest import random_race
from bgengine.evaluation import bearoff, race
from bgengine.errors import InvalidPositionError, NotARaceError
from bgengine.position import Position

P = Position.from_points


@pytest.fixture(scope="module")
def home():
    return bearoff.one_sided_table()


def one_sided_formula(home, mover, opponent) -> float:
    """Σ_i P_me(i) P_opp(>= i): the player on roll finishing on his i-th roll wins unless
    the opponent finished within his first i - 1 rolls."""
    mine, theirs = home.rolls_distribution(mover), home.rolls_distribution(opponent)
    at_least = np.cumsum(theirs[::-1])[::-1]
    return float(mine @ at_least)


def test_one_checker_each_on_the_one_point_is_a_certain_win_for_the_player_on_roll():
    assert list(race.evaluate(P({1: 1}, {1: 1}))) == [1, 0, 0, 0, 0]


def test_exact_two_sided_value_is_used_when_both_sides_have_six_or_fewer_home():
    position = P({6: 2, 5: 1, 1: 3}, {4: 2, 3: 2})
    two_sided = bearoff.two_sided_table()
    expected = two_sided.win_probability({6: 2, 5: 1, 1: 3}, {4: 2, 3: 2})
    assert race.evaluate(position) == pytest.approx([expected, 0, 0, 0, 0], abs=1e-7)


def test_home_boards_with_more_checkers_use_the_one_sided_formula(home):
    mover, opponent = {6: 3, 5: 3, 4: 2, 2: 2}, {6: 4, 3: 4, 1: 1}
    evaluation = race.evaluate(P(mover, opponent))
    assert evaluation[0] == pytest.approx(one_sided_formula(home, mover, opponent), abs=1e-6)
    assert list(evaluation[1:]) == [0, 0, 0, 0]  # both have borne off: no gammons


def test_one_sided_formula_without_the_two_sided_table_matches_it_closely():
    position = P({6: 2, 4: 2, 1: 1}, {5: 2, 2: 2, 1: 1})
    exact = race.RaceEvaluator().evaluate(position)[0]
    formula = race.RaceEvaluator(two_sided_checkers=None).evaluate(position)[0]
    assert formula == pytest.approx(exact, abs=0.01)


def test_gammon_when_fifteen_on_the_six_point_face_a_last_checker(home):
    # The opponent is off next roll; the player on roll is gammoned unless his first roll
    # bears a checker off (17 of 36).
    assert race.evaluate(P({6: 15}, {1: 1})) == pytest.approx([0, 0, 0, 19 / 36, 0], abs=1e-7)


def test_backgammon_when_the_loser_still_has_checkers_in_the_winners_home():
    assert list(race.evaluate(P({1: 1}, {20: 15}))) == [1, 1, 1, 0, 0]


def test_gammon_chances_come_from_the_first_off_distribution(home):
    mover, opponent = {1: 2}, {6: 15}
    rolls = home.rolls_distribution(mover)
    first = home.first_off_distribution(opponent)
    at_least = np.cumsum(first[::-1])[::-1]
    expected = float(sum(rolls[i] * at_least[i] for i in range(min(len(rolls), len(at_least)))))
    assert race.evaluate(P(mover, opponent))[1] == pytest.approx(expected, abs=1e-7)


def test_finished_game_gives_the_settled_result():
    # The opponent has borne off everything; the player on roll still has all 15: gammon.
    board = np.zeros(26, dtype=np.int8)
    board[6] = 15
    assert list(race.evaluate(Position(board))) == [0, 0, 0, 1, 0]


def test_probabilities_are_cumulative_and_ordered():
    rng = np.random.default_rng(3)
    boards = [random_race(rng) for _ in range(300)]
    values = race.RaceEvaluator().evaluate_batch(boards)
    win, win_g, win_bg, lose_g, lose_bg = values.T
    assert np.all((0 <= win) & (win <= 1))
    assert np.all(win_bg <= win_g + 1e-7) and np.all(win_g <= win + 1e-7)
    assert np.all(lose_bg <= lose_g + 1e-7) and np.all(lose_g <= 1 - win + 1e-6)


def test_batch_agrees_with_single_evaluation():
    rng = np.random.default_rng(4)
    positions = [random_race(rng) for _ in range(50)]
    evaluator = race.RaceEvaluator()
    batch = evaluator.evaluate_batch(np.stack([np.asarray(p) for p in positions]))
    assert np.array_equal(batch, np.stack([evaluator.evaluate(p) for p in positions]))
    assert np.array_equal(batch, evaluator.evaluate_batch(positions))


def test_contact_positions_are_refused():
    with pytest.raises(NotARaceError, match="contact"):
        race.evaluate(Position.initial())
    with pytest.raises(NotARaceError, match="board 1"):
        race.RaceEvaluator().evaluate_batch([P({1: 1}, {1: 1}), Position.initial()])


def test_impossible_boards_are_refused():
    board = np.zeros((1, 26), dtype=np.int8)
    board[0, 3] = 16
    with pytest.raises(InvalidPositionError, match="board 0"):
        race.RaceEvaluator().evaluate_batch(board)
    with pytest.raises(InvalidPositionError, match="shape"):
        race.RaceEvaluator().evaluate_batch(np.zeros((2, 25), dtype=np.int8))
    with pytest.raises(InvalidPositionError, match="integers"):
        race.RaceEvaluator().evaluate_batch(np.zeros((2, 26)))
    with pytest.raises(InvalidPositionError, match="must be a Position"):
        race.evaluate(np.zeros(26))


# ----- seeded rollouts ------------------------------------------------------------------------


def rollout_wins(home, mover, opponent, games: int, seed: int) -> np.ndarray:
    """Play bear-off races to the end, each side minimising its expected rolls; 1 per win
    of the side first on roll."""
    rng = np.random.default_rng(seed)
    start = (home.rank(mover), home.rank(opponent))
    wins = np.zeros(games)
    for game in range(games):
        sides, turn = list(start), 0
        while True:
            dice = rng.integers(1, 7, size=2)
            counts = home.counts(sides[turn])
            children = _bearoff_index.bearoff_children(counts, int(dice[0]), int(dice[1]))
            sides[turn] = min(children, key=lambda r: home.expected[r])
            if sides[turn] == 0:
                wins[game] = turn == 0
                break
            turn = 1 - turn
    return wins


@pytest.mark.parametrize(
    "mover, opponent",
    [({6: 3, 5: 3, 4: 3, 3: 1}, {6: 2, 5: 3, 3: 3, 2: 2, 1: 1}), ({6: 5, 4: 2}, {5: 2, 4: 2, 3: 2, 1: 2})],
)
def test_seeded_rollout_agrees_with_the_table_within_its_standard_error(home, mover, opponent):
    wins = rollout_wins(home, mover, opponent, games=1500, seed=20261130)
    table = race.RaceEvaluator(two_sided_checkers=None).evaluate(P(mover, opponent))[0]
    standard_error = wins.std(ddof=1) / np.sqrt(len(wins))
    assert abs(wins.mean() - table) < 3 * standard_error


def test_rollout_is_reproducible_with_its_seed(home):
    a = rollout_wins(home, {6: 2}, {5: 2}, games=50, seed=9)
    b = rollout_wins(home, {6: 2}, {5: 2}, games=50, seed=9)
    assert np.array_equal(a, b)


# ----- checkers outside home: the approximation against exact wide tables ------------------------


@pytest.mark.slow
def test_race_approximation_error_against_an_exact_seven_point_table():
    rng = np.random.default_rng(7)
    positions = [random_race(rng, highest=7) for _ in range(600)]
    positions = [p for p in positions if max(p.points()[0]) == 7 or max(p.points()[1]) == 7]
    approximate = race.RaceEvaluator(two_sided_checkers=None).evaluate_batch(positions)
    exact = race.RaceEvaluator(two_sided_checkers=None, wide_points=7).evaluate_batch(positions)
    error = approximate[:, 0] - exact[:, 0]
    assert abs(error.mean()) < 0.005  # no systematic bias
    assert np.abs(error).mean() < 0.025
    assert np.percentile(np.abs(error), 90) < 0.06


# ----- race counts --------------------------------------------------------------------------


def test_race_counts_follow_the_published_definitions(home):
    mover = {6: 4, 5: 3, 3: 4, 2: 2, 1: 2}  # pips 24+15+12+4+2 = 57
    opponent = {6: 2, 4: 3, 1: 2}  # pips 12+12+2 = 26
    counts = race.race_counts(P(mover, opponent))
    assert counts.pips == (57, 26)
    # Keith: +2 per checker beyond 1 on the 1-point, +1 beyond 1 on the 2-point,
    # +1 beyond 3 on the 3-point, +1 per empty 4/5/6 point; on roll + 1/7 rounded down.
    keith_mover = 57 + 2 * 1 + 1 + 1 + 1
    keith_opponent = 26 + 2 * 1 + 1
    assert counts.keith == (keith_mover + keith_mover // 7, keith_opponent)
    # Thorp: + 2 per checker left, + 1 per checker on the 1-point, - 1 per occupied home
    # point; on roll + 10% when above 30.
    thorp_mover = 57 + 2 * 15 + 2 - 5
    thorp_opponent = 26 + 2 * 7 + 2 - 3
    assert counts.thorp == (pytest.approx(thorp_mover * 1.1), thorp_opponent)
    assert counts.epc == pytest.approx((home.effective_pip_count(mover), home.effective_pip_count(opponent)))


def test_race_counts_refuse_contact():
    with pytest.raises(NotARaceError):
        race.race_counts(Position.initial())


def test_race_evaluator_plugs_into_cube_decisions():
    from bgengine import cube_decision

    position = P({6: 2, 5: 2, 4: 2}, {6: 3, 5: 2, 4: 2})
    decision = cube_decision(position, evaluator=race.RaceEvaluator())
    expected = race.evaluate(position)
    assert decision.probabilities.win == pytest.approx(float(expected[0]), abs=1e-7)


@pytest.mark.slow
@pytest.mark.parametrize(
    "mover, opponent",
    [
        ({12: 3, 9: 3, 8: 3, 6: 3, 4: 3}, {11: 3, 10: 3, 7: 3, 6: 3, 3: 3}),
        ({15: 2, 10: 4, 6: 4, 3: 2}, {8: 5, 6: 5, 5: 2}),
    ],
)
def test_long_race_evaluation_agrees_with_a_seeded_rollout(mover, opponent):
    from race_rollout import rollout_race

    position = P(mover, opponent)
    outcomes = rollout_race(np.asarray(position), games=600, seed=5)
    standard_error = outcomes[:, 0].std(ddof=1) / np.sqrt(len(outcomes))
    # The approximation's own error (docs/bearoff.md) on top of the rollout's noise.
    assert abs(race.evaluate(position)[0] - outcomes[:, 0].mean()) < 3 * standard_error + 0.03


def test_an_empty_batch_gives_an_empty_result():
    assert race.RaceEvaluator().evaluate_batch([]).shape == (0, 5)
    assert race.RaceEvaluator().evaluate_batch(np.zeros((0, 26), dtype=np.int8)).shape == (0, 5)


def test_core_entry_points_refuse_impossible_boards():
    tables = bearoff.race_tables()
    too_many = np.zeros(26, dtype=np.int8)
    too_many[3], too_many[20] = 16, -1
    wrong_bar = np.zeros(26, dtype=np.int8)
    wrong_bar[0], wrong_bar[20] = 1, -1
    for board in (too_many, wrong_bar):
        with pytest.raises(ValueError, match="board 0"):
            tables.race_probabilities_of(board.tobytes())
        with pytest.raises(ValueError, match="board 0"):
            tables.race_probabilities_batch(board[None, :], np.empty((1, 5), dtype=np.float32))
        with pytest.raises(ValueError, match="board 0"):
            tables.expected_rolls_batch(board[None, :], True)
        with pytest.raises(ValueError, match="board 0"):
            tables.two_sided_lookup(board.tobytes())
    with pytest.raises(ValueError, match="26 slots"):
        tables.race_probabilities_of(b"\x00" * 25)


def test_batch_names_the_impossible_board():
    boards = np.zeros((2, 26), dtype=np.int8)
    boards[:, 1], boards[:, 24] = 1, -1
    boards[1, 0] = 1  # a checker of the player on roll on the opponent's bar
    with pytest.raises(InvalidPositionError, match="board 1: a checker of the player on roll"):
        race.RaceEvaluator().evaluate_batch(boards)


def test_siblings_give_the_same_values_in_any_order():
    # the children of one roll share the side that did not move: each thread keeps the
    # last sides' distributions (bgcore._race), which must not change any value
    rng = np.random.default_rng(12)
    evaluator = race.RaceEvaluator()
    for _ in range(5):
        legal = random_race(rng).legal_moves((int(rng.integers(1, 7)), int(rng.integers(1, 7))))
        children = np.ascontiguousarray(legal.positions)
        together = evaluator.evaluate_batch(children)
        assert np.array_equal(evaluator.evaluate_batch(children[::-1])[::-1], together)
        assert np.array_equal(np.stack([evaluator.evaluate_batch(child[None])[0] for child in children]), together)


def test_the_next_roll_first_off_chance_is_exact_for_sides_bearing_in():
    """The side summaries' first-off chance within one roll, for a side with all 15 on the
    board and checkers outside, against the legal plays of each of the 36 rolls."""
    from bgengine.move import legal_moves

    rng = np.random.default_rng(17)
    tables = bearoff.race_tables()
    checked = 0
    while checked < 60:
        outside = int(rng.integers(1, 4))
        points = list(rng.integers(7, 15, size=outside)) + list(rng.integers(1, 7, size=15 - outside))
        mover = {int(p): points.count(p) for p in set(points)}
        position = Position.from_points(mover, {1: 2, 2: 1})
        board = np.asarray(position, dtype=np.int8)[None, :]
        found = tables.side_summaries_batch(board, False)[0, 1 + _race.race_within()]
        saving = sum(1 if a == b else 2 for a in range(1, 7) for b in range(a, 7)  # children: the mover is negative
                     if (np.maximum(-legal_moves(position, (a, b)).positions.astype(int), 0).sum(axis=1) < 15).any())
        assert found == pytest.approx(saving / 36, abs=1e-12), (mover, found * 36, saving)
        checked += 1

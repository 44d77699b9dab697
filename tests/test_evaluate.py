"""Evaluation at 0..3 plies, move ranking, and the evaluator test doubles."""

import numpy as np
import pytest

from bgengine import Position
from bgengine.evaluation import race
from bgengine.evaluation.evaluator import (
    Evaluator,
    FakeEvaluator,
    MoveFilter,
    NetworkEvaluator,
    RandomEvaluator,
    best_move,
    default_evaluator,
    evaluate,
    rank_moves,
)
from bgengine.errors import InvalidPositionError
from bgengine.position import GameResult
from bgengine.probabilities import equity, flipped

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]
CONSTANT = [0.6, 0.2, 0.05, 0.1, 0.01]


def exact(position: Position) -> np.ndarray:
    """The 5-vector of a finished game from Position.winner_and_result."""
    winner, result = position.winner_and_result()
    won = np.array([1, result >= GameResult.GAMMON, result >= GameResult.BACKGAMMON, 0, 0], dtype=float)
    return won if winner == 0 else flipped(won).astype(float)


def reference_one_ply(position: Position, evaluator) -> np.ndarray:
    """Average over the 21 rolls of the best child at 0-ply, written out plainly."""
    total = np.zeros(5)
    for d1, d2 in ROLLS:
        moves = position.legal_moves((d1, d2))
        values = [
            exact(child) if child.is_game_over() else evaluator.evaluate(child)
            for child in (moves.position_after(i) for i in range(len(moves)))
        ]
        best = min(values, key=equity)
        total += (1 if d1 == d2 else 2) * flipped(np.asarray(best))
    return total / 36


def test_one_ply_equals_a_plain_average_over_the_21_rolls():
    evaluator = RandomEvaluator(seed=4)
    positions = [
        Position.initial(),
        Position.from_points({6: 2, 5: 3, 1: 4}, {6: 3, 3: 3, 23: 1}),
        Position.from_points({2: 1, 1: 1}, {1: 2, 6: 5}),  # some rolls end the game
        Position.from_points({13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3}, bar=1),  # dances
        Position.from_points({13: 13, 3: 1}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 23: 5}, bar=1),
    ]
    for position in positions:
        got = evaluate(position, plies=1, evaluator=evaluator).probabilities
        np.testing.assert_allclose(got, reference_one_ply(position, evaluator), atol=1e-6)


def test_constant_evaluator_flips_at_odd_plies_and_returns_at_even():
    evaluator = FakeEvaluator({}, default=CONSTANT)
    p = Position.initial()
    np.testing.assert_allclose(evaluate(p, plies=0, evaluator=evaluator).probabilities, CONSTANT, atol=1e-6)
    np.testing.assert_allclose(evaluate(p, plies=1, evaluator=evaluator).probabilities, flipped(CONSTANT), atol=1e-6)
    np.testing.assert_allclose(evaluate(p, plies=2, evaluator=evaluator).probabilities, CONSTANT, atol=1e-6)


def test_finished_game_is_exact_at_every_depth_without_asking_the_evaluator():
    never = FakeEvaluator({})  # raises KeyError if asked anything
    gammon_won = Position.from_points({}, {6: 15})
    for plies in range(4):
        assert evaluate(gammon_won, plies=plies, evaluator=never).probabilities.as_tuple() == (1, 1, 0, 0, 0)


def test_last_checker_borne_off_by_every_roll_wins_a_gammon_at_one_ply():
    never = FakeEvaluator({})
    p = Position.from_points({1: 1}, {6: 15})
    assert evaluate(p, plies=1, evaluator=never).probabilities == pytest.approx((1, 1, 0, 0, 0))


def test_evaluator_errors_propagate_through_lookahead():
    with pytest.raises(KeyError, match="FakeEvaluator"):
        evaluate(Position.initial(), plies=1, evaluator=FakeEvaluator({}))


def test_rank_moves_lists_every_legal_move_best_first():
    p = Position.initial()
    ranked = rank_moves(p, (3, 1), evaluator=RandomEvaluator(1))
    assert len(ranked) == len(p.legal_moves((3, 1)))
    equities = [m.equity for m in ranked]
    assert equities == sorted(equities, reverse=True)
    assert best_move(p, (3, 1), evaluator=RandomEvaluator(1)) == ranked[0]


def test_rank_moves_prefers_the_move_that_is_worst_for_the_opponent():
    p = Position.initial()
    moves = p.legal_moves((6, 5))
    target = moves.position_after(3)
    evaluator = FakeEvaluator({target: [0.1, 0.0, 0.0, 0.3, 0.0]}, default=[0.5, 0.1, 0.0, 0.1, 0.0])
    best = best_move(p, (6, 5), evaluator=evaluator)
    assert best.position == target and best.move == moves.moves[3]
    assert best.probabilities == pytest.approx((0.9, 0.3, 0.0, 0.0, 0.0))


def test_rank_moves_searches_candidates_deeper_and_lists_them_first():
    p = Position.initial()
    ranked = rank_moves(p, (4, 2), plies=1, evaluator=RandomEvaluator(2), candidates=MoveFilter(keep=3, margin=10))
    assert [m.plies for m in ranked[:3]] == [1, 1, 1]
    assert all(m.plies == 0 for m in ranked[3:])
    deep = [m.equity for m in ranked[:3]]
    assert deep == sorted(deep, reverse=True)


def test_bad_arguments_raise_clear_errors():
    p = Position.initial()
    for plies in (-1, 4, True, 1.5):
        with pytest.raises(ValueError, match="plies"):
            evaluate(p, plies=plies, evaluator=RandomEvaluator())
    with pytest.raises(InvalidPositionError, match="must be a Position, got ndarray"):
        evaluate(np.asarray(p))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        MoveFilter(keep=0)
    with pytest.raises(ValueError):
        rank_moves(p, (7, 1), evaluator=RandomEvaluator())


def test_test_doubles_follow_the_evaluator_protocol():
    assert isinstance(RandomEvaluator(), Evaluator)
    assert isinstance(FakeEvaluator({}), Evaluator)
    assert isinstance(default_evaluator(), Evaluator)
    r = RandomEvaluator(7).evaluate(Position.initial())
    assert r[1] <= r[0] and r[2] <= r[1] and r[3] <= 1 - r[0] and r[4] <= r[3]
    assert np.array_equal(r, RandomEvaluator(7).evaluate(Position.initial()))


def test_network_evaluator_takes_races_from_the_race_network_or_the_race_tables():
    p = Position.from_points({6: 3, 5: 3, 4: 2, 1: 2}, {6: 4, 3: 3, 2: 2})  # beyond the two-sided table
    approximation = default_evaluator(use_race_network=False)
    np.testing.assert_allclose(evaluate(p, evaluator=approximation).probabilities, race.evaluate(p), atol=1e-6)
    by_network = default_evaluator().race_network.c_network.evaluate(np.asarray(p)[None, :])[0]
    np.testing.assert_allclose(evaluate(p).probabilities, by_network, atol=1e-6)
    exact = Position.from_points({6: 2, 5: 1}, {3: 3})  # in the two-sided table: exact either way
    assert evaluate(exact).probabilities == evaluate(exact, evaluator=approximation).probabilities
    np.testing.assert_allclose(evaluate(exact).probabilities, race.evaluate(exact), atol=1e-6)


def test_network_evaluator_without_race_tables_uses_the_network():
    p = Position.from_points({6: 3, 5: 3, 4: 2, 1: 2}, {6: 4, 3: 3, 2: 2})
    network_only = NetworkEvaluator(default_evaluator().network, race_tables=False)
    expected = default_evaluator().network.evaluate(np.asarray(p))[0]
    np.testing.assert_allclose(network_only.evaluate(p), expected)


def test_shipped_network_gives_consistent_probabilities_at_every_depth():
    p = Position.initial()
    for plies in range(3):
        win, wg, wbg, lg, lbg = evaluate(p, plies=plies).probabilities
        assert 0.35 < win < 0.65
        assert 0 <= wbg <= wg <= win and 0 <= lbg <= lg <= 1 - win + 1e-6


def test_shipped_network_plays_the_standard_opening_three_one():
    assert str(best_move(Position.initial(), (3, 1)).move) == "8/5 6/5"


def test_rank_moves_of_a_dance_is_the_single_pass():
    closed = Position.from_points({13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 3}, bar=1)
    ranked = rank_moves(closed, (6, 6), evaluator=RandomEvaluator(1))
    assert len(ranked) == 1 and ranked[0].move.is_pass()
    assert ranked[0].position == closed.flip()


def test_rank_moves_ranks_the_winning_bear_off_first_with_certainty():
    p = Position.from_points({1: 1, 2: 1}, {20: 15})
    best = best_move(p, (2, 1), evaluator=RandomEvaluator(3))
    assert best.position.is_game_over()
    assert best.probabilities.as_tuple() == (1.0, 1.0, 1.0, 0.0, 0.0)  # opponent still in our home: backgammon
    assert best.equity == 3.0


def test_lookahead_in_c_equals_lookahead_through_a_python_evaluator():
    network = default_evaluator().network

    class NetworkThroughPython:
        def evaluate_batch(self, boards):
            return network.evaluate_trusted(np.ascontiguousarray(boards, dtype=np.int8))

    p = Position.from_points({24: 2, 13: 4, 8: 3, 6: 5, 4: 1}, {24: 2, 13: 5, 8: 3, 6: 4, 5: 1})
    in_c = NetworkEvaluator(network, race_tables=False)
    for plies in (1, 2):
        np.testing.assert_array_equal(
            evaluate(p, plies=plies, evaluator=in_c).probabilities,
            evaluate(p, plies=plies, evaluator=NetworkThroughPython()).probabilities,
        )


def test_shipped_weights_carry_their_training_record():
    from bgengine.evaluation.evaluator import weights_record

    record, network = weights_record(), default_evaluator().network
    assert record["settings"]["hidden"] == network.num_hidden
    assert record["encoding"]["encoding"] == network.encoding
    assert record["initial_weights"]["sha256_16"] and record["held_out"]["network"]["n"] > 0


def test_evaluate_fails_plies_out_of_range_with_a_typed_error():
    from bgengine import InvalidSettingsError, Position, evaluate

    with pytest.raises(InvalidSettingsError, match="plies must be an integer 0..3, got 9"):
        evaluate(Position.initial(), plies=9)

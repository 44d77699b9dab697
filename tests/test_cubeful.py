"""Cubeful n-ply search: every node makes its cube decision, the cube carried down."""

import random

import numpy as np
import pytest
from conftest import random_bearoff_positions

from bgengine import (
    InvalidCubeSettingsError,
    MatchState,
    Position,
    cube_decision,
    cubeful_equity,
    kazaross_xg2,
    parse_xgid,
    rank_moves,
    rank_moves_cubeful,
)
from bgengine.cube.cubeful import CubefulSearch
from bgengine.evaluation.evaluator import RandomEvaluator, default_evaluator
from bgengine.game.record import ROLLS
from bgengine.position import Phase


def best_answer(decision):
    """The doubler's value with the best cube action now (as the search values a node)."""
    if decision.double_take is None:
        return decision.no_double
    return max(decision.no_double, min(decision.double_take, decision.double_pass))


def one_roll_by_hand(position, match, evaluator):
    """The mover's value over the 21 rolls: each roll's best play by the mover's value after
    it, the opponent's 0-ply cube decision with the cube as in ``match`` (public API only)."""
    after = match.with_changes(on_roll=1 - match.on_roll)
    total = 0.0
    for dice in ROLLS:
        values = []
        for play in rank_moves(position, dice, evaluator=evaluator):
            opponent = best_answer(cube_decision(play.position, after, evaluator=evaluator))
            values.append(-opponent if match.is_money else 1 - opponent)
        total += (1 if dice[0] == dice[1] else 2) / 36 * max(values)
    return total


@pytest.mark.parametrize("match", [MatchState(), MatchState(match_length=7, score=(2, 4))], ids=["money", "5a3a"])
def test_one_ply_search_is_the_opponents_cube_decisions_after_each_rolls_best_play(match):
    evaluator = RandomEvaluator(seed=5)
    position = Position.initial()
    no_double, take, drop = CubefulSearch(evaluator).equities(position, match, 1)
    assert no_double == pytest.approx(one_roll_by_hand(position, match, evaluator))
    doubled = match.with_changes(cube_value=2, cube_owner=1)
    per_cube = 2.0 if match.is_money else 1.0  # money values are per current cube
    assert take == pytest.approx(per_cube * one_roll_by_hand(position, doubled, evaluator))
    assert drop == (1.0 if match.is_money else kazaross_xg2().mwc(4, 3))  # a pass: 4-away 3-away
    decision = cube_decision(position, match, plies=1, evaluator=evaluator)
    assert (decision.no_double, decision.double_take) == pytest.approx((no_double, take))
    assert decision.cubeful_search and decision.take_point is None


@pytest.mark.parametrize("points", [({3: 1, 5: 1}, {2: 1, 6: 1}), ({1: 2, 4: 1}, {5: 2}), ({6: 2}, {4: 1, 3: 1})])
def test_money_search_in_the_bearoff_table_agrees_with_the_exact_values(points):
    own, theirs = points
    position = Position.from_points(own, opponent=theirs)
    exact = cube_decision(position)
    assert exact.note.startswith("exact")
    no_double, take, _ = CubefulSearch(default_evaluator()).equities(position, MatchState(), 1)
    assert (no_double, take) == pytest.approx((exact.no_double, exact.double_take), abs=1e-6)


def test_post_crawford_opening_values_the_trailers_free_double():
    # Issue 14: No double was 0.79 EMG (GNU Backgammon's 2-ply: 0.96); the search lets the
    # trailer double on the next turn.
    position, match = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:4:0:5:10")
    decision = cube_decision(position, match, plies=1).to_emg()
    assert 0.9 < decision.no_double < decision.double_take


def test_cubeful_equity_is_the_best_cube_action_of_the_decision():
    evaluator = RandomEvaluator(seed=3)
    match = MatchState(match_length=7, score=(2, 4))
    for plies in (0, 1):
        decision = cube_decision(Position.initial(), match, plies=plies, evaluator=evaluator)
        assert cubeful_equity(Position.initial(), match, plies=plies, evaluator=evaluator) == pytest.approx(
            best_answer(decision)
        )


@pytest.mark.parametrize("match", [MatchState(), MatchState(match_length=5, score=(3, 4))], ids=["money", "2a1a"])
def test_cubeful_move_ranking_values_each_play_by_the_opponents_cube_decision(match):
    evaluator = RandomEvaluator(seed=7)
    ranked = rank_moves_cubeful(Position.initial(), (6, 4), match, evaluator=evaluator)
    assert len(ranked) == len(rank_moves(Position.initial(), (6, 4), evaluator=evaluator))
    assert [m.equity for m in ranked] == sorted((m.equity for m in ranked), reverse=True)
    after = match.with_changes(on_roll=1)
    for choice in (ranked[0], ranked[-1]):
        opponent = best_answer(cube_decision(choice.position, after, evaluator=evaluator))
        assert choice.equity == pytest.approx(-opponent if match.is_money else 1 - opponent)


def test_cubeful_helpers_refuse_bad_settings():
    with pytest.raises(InvalidCubeSettingsError, match="plies"):
        cubeful_equity(Position.initial(), plies=4)
    with pytest.raises(InvalidCubeSettingsError, match="MatchState"):
        rank_moves_cubeful(Position.initial(), (6, 4), match="money")


# ----- the leaves in C ---------------------------------------------------------------------------


def leaf_by_cube_decision(position, match, evaluator):
    """A leaf's value the slow way: the full 0-ply ``cube_decision``, then the best action."""
    decision = cube_decision(position, match, evaluator=evaluator)
    if decision.double_take is None:
        return decision.no_double
    response = min(decision.double_take, decision.double_pass)
    if match.may_beaver():
        response = min(response, 2.0 * decision.double_take)
    return max(decision.no_double, response)


LEAF_STATES = [
    MatchState(), MatchState(jacoby=True, beavers=True), MatchState(cube_value=2, cube_owner=1),
    MatchState(cube_value=4, cube_owner=0, beavers=True), MatchState(cube_value=64, cube_owner=0),
    MatchState(match_length=7, score=(4, 2)), MatchState(match_length=7, score=(5, 6)),
    MatchState(match_length=7, score=(6, 3), crawford=True), MatchState(match_length=5, score=(1, 2), cube_value=2, cube_owner=0),
    MatchState(match_length=25, score=(0, 0), cube_value=8, cube_owner=1),
]


def leaf_positions():
    """Seeded positions of every class: random games' contact positions, races, bear-offs
    in and out of the two-sided table, last rolls."""
    rng = random.Random(8)
    positions = random_bearoff_positions(12, seed=8) + [
        Position.from_points({6: 1}, opponent={1: 1}),
        Position.from_points({6: 3, 5: 3, 4: 3, 8: 2, 9: 2, 10: 2}, opponent={6: 3, 5: 3, 4: 2, 3: 2, 7: 2, 11: 3}),
        Position.from_points({6: 5, 5: 4, 4: 3, 3: 3}, opponent={6: 4, 5: 4, 4: 4, 2: 3}),
    ]
    position = Position.initial()
    while len(positions) < 40:
        legal = position.legal_moves((rng.randint(1, 6), rng.randint(1, 6)))
        position = legal.position_after(rng.randrange(len(legal)))
        if position.is_game_over():
            position = Position.initial()
        elif rng.random() < 0.3:
            positions.append(position)
    return positions


@pytest.mark.parametrize("match", LEAF_STATES, ids=range(len(LEAF_STATES)))
def test_leaf_values_in_c_equal_cube_decision_bit_for_bit(match):
    evaluator = default_evaluator()
    search = CubefulSearch(evaluator)
    for position in leaf_positions():
        probabilities = evaluator.evaluate(position)
        assert search._leaf(position, match, probabilities) == leaf_by_cube_decision(position, match, evaluator)


class Float64Evaluator:
    """The engine's evaluator with its values nudged off float32 and returned as float64,
    as a user's evaluator may: the leaves must not round them to float32."""

    def __init__(self):
        self.engine = default_evaluator()

    def evaluate(self, position):
        return self.evaluate_batch([position])[0]

    def evaluate_batch(self, boards):
        return self.engine.evaluate_batch(boards).astype("float64") * (1.0 - 1e-9)


@pytest.mark.parametrize("match", [MatchState(beavers=True), MatchState(match_length=7, score=(4, 2))], ids=["money", "3a5a"])
def test_leaf_values_keep_an_evaluators_float64_values(match):
    evaluator = Float64Evaluator()
    search = CubefulSearch(evaluator)
    for position in leaf_positions()[12:]:  # contact and races: the model, not the exact table
        probabilities = evaluator.evaluate(position)
        assert search._leaf(position, match, probabilities) == leaf_by_cube_decision(position, match, evaluator)


def test_a_double_already_offered_does_not_stop_the_search():
    position = Position.initial()
    offered = cube_decision(position, MatchState(double_offered=True), plies=1)
    plain = cube_decision(position, MatchState(), plies=1)
    assert (offered.no_double, offered.double_take, offered.action) == (plain.no_double, plain.double_take, plain.action)


# ----- the play at each roll: the best by the mover's 0-ply cubeful value ------------------------


def children_of(position):
    """Every play of every roll, as the search sees them (boards seen from the opponent)."""
    from bgengine.move import legal_children_batch
    from bgengine.cube.cubeful import _DICE

    boards = np.repeat(np.frombuffer(position.to_bytes(), dtype=np.int8)[None, :], len(ROLLS), axis=0)
    return legal_children_batch(boards, _DICE)[0]


@pytest.mark.parametrize("match", LEAF_STATES, ids=range(len(LEAF_STATES)))
@pytest.mark.parametrize("evaluator", [default_evaluator(), Float64Evaluator()], ids=["float32", "float64"])
def test_every_plays_value_in_c_equals_the_leaf_bit_for_bit(match, evaluator):
    search = CubefulSearch(evaluator)
    checked = {"bear-off": 0, "model": 0}
    for position in leaf_positions()[::3]:
        children = children_of(position)
        probabilities = np.asarray(evaluator.evaluate_batch(children), dtype=np.float64)
        values, bearoffs = search._mover_leaf_values(children, probabilities, match)
        for board, chances, value, bearoff in zip(children, probabilities, values, bearoffs):
            child = Position.from_array(board)
            assert bearoff == (child.phase is Phase.BEAROFF)
            if not bearoff:  # bear-offs: the class's x, a choice only; the chosen play is valued exactly
                assert value == search.mover_value(child, match, 0, chances)
            checked["bear-off" if bearoff else "model"] += 1
    assert checked["model"] > 100


def test_each_rolls_play_is_the_best_by_the_match_value_after_it():
    """Post-Crawford (where money equity misjudges the trailer's gammons, worth the match) the
    play at each roll is the best by the match value after it: the search's No double is
    the hand-made one and at least that of the cubeless-best plays valued the same way."""
    evaluator = default_evaluator()
    position, match = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:4:0:5:10")
    search = CubefulSearch(evaluator)
    no_double = search.equities(position, match, 1)[0]
    cubeless_choice = 0.0
    for dice in ROLLS:
        play = rank_moves(position, dice, evaluator=evaluator)[0]
        cubeless_choice += (1 if dice[0] == dice[1] else 2) / 36 * search.mover_value(play.position, match, 0)
    assert no_double >= cubeless_choice - 1e-12
    assert no_double == pytest.approx(one_roll_by_hand(position, match, evaluator), abs=1e-12)


def test_the_batched_leaf_values_refuse_mismatched_shapes():
    from bgcore._cube_janowski import money_best_values
    from bgengine.cube.efficiency import efficiency_rule

    boards = children_of(Position.initial())[:3]
    with pytest.raises(ValueError, match="money_best_values needs"):
        money_best_values(boards, np.zeros((2, 5)), efficiency_rule(), 1, 0, False, False, 64,
                          np.empty(3), np.empty(3, dtype=np.int8))

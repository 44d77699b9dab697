"""A choice network (``NetworkEvaluator(choice_network=...)``): rankings value every play by
it, and where the engine plays at 0-ply the move choice has two stages (the contact network
values every play of a roll, the choice network re-values the best few and picks among them);
n-ply searches value their replies by the contact network alone.

Checked against a reference written here from the two networks' plain values: which plays
are short-listed, their values, the play chosen, rankings (fast and general paths), n-ply
searches (the first stage alone), and self-play.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from bgcore import _engine, _evaluator, _nn, _nply, _selfplay, _single
from bgengine import Position
from bgengine.errors import InvalidSettingsError, NetworkClassError
from bgengine.evaluation.evaluator import (
    MoveFilter,
    NetworkEvaluator,
    default_evaluator,
    evaluate,
    evaluator_identity,
    rank_moves,
)
from bgengine.probabilities import equity, flipped
from bgengine.rollouts.monte_carlo import RolloutSettings, rollout
from test_fast_path import GeneralPath, POSITIONS, rolls
from test_race_corpus import uncorrecting_contact_network

SHORTLIST = 3
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def choice_network() -> _nn.NeuralNet:
    """A second stage whose tastes differ from the shipped network's (random weights)."""
    return _nn.NeuralNet.random(96, seed=24, scale=0.5, encoding=3)


def two_stage(shortlist: int = SHORTLIST, cls: type[NetworkEvaluator] = NetworkEvaluator) -> NetworkEvaluator:
    engine = default_evaluator()
    return cls(engine.network, race_network=engine.race_network, crashed_network=engine.crashed_network,
               choice_network=CHOICE, shortlist=shortlist)


CHOICE = choice_network()


def without_choice() -> NetworkEvaluator:
    """The shipped networks with no choice network (whether or not the package ships one)."""
    return default_evaluator(use_choice_network=False)


def second_stage_alone() -> NetworkEvaluator:
    """The second stage as a plain evaluator: the choice network in the contact network's place."""
    engine = default_evaluator()
    return NetworkEvaluator(CHOICE, race_network=engine.race_network, crashed_network=engine.crashed_network)


def reference(children: np.ndarray, shortlist: int) -> tuple[np.ndarray, list[int]]:
    """(values, short list best first) of one roll's children, from the two evaluators' plain
    values: the ``shortlist`` lowest equities (next player's view, ties to the lower index),
    re-valued by the second stage and ordered by its equity (float32, ties keep the first order)."""
    values = without_choice().evaluate_batch(children).copy()
    if len(children) < 2:
        return values, []
    first = equity(values.astype(np.float64)).astype(np.float32)
    chosen = list(np.argsort(first, kind="stable")[:shortlist])
    second = second_stage_alone().evaluate_batch(children[chosen])
    values[chosen] = second
    order = np.argsort(equity(second.astype(np.float64)).astype(np.float32), kind="stable")
    return values, [int(chosen[i]) for i in order]


def roll_cases(count: int) -> list[tuple[Position, tuple[int, int]]]:
    contact = [p for p in POSITIONS if p.phase.value == "contact"]
    return list(zip(contact[::7][:count], rolls(count, 31)))


@pytest.mark.parametrize("shortlist", [1, 3, 8])
def test_the_short_list_and_its_values_are_the_references(shortlist):
    kernel = two_stage(shortlist).c_evaluator()
    seen_other_choice = 0
    for position, dice in roll_cases(60):
        children = np.ascontiguousarray(position.legal_moves(dice).positions)
        values, shortlisted = _evaluator.roll_children_values(kernel, children)
        expected_values, expected_list = reference(children, shortlist)
        assert shortlisted == expected_list
        np.testing.assert_array_equal(values, expected_values)
        plain = int(np.argmin(equity(without_choice().evaluate_batch(children).astype(np.float64))))
        seen_other_choice += len(children) > 1 and shortlisted[0] != plain
    if shortlist > 1:
        assert seen_other_choice > 0  # the second stage changed some choices


def test_a_single_play_is_not_short_listed():
    kernel = two_stage().c_evaluator()
    position = Position.initial()
    children = np.ascontiguousarray(position.legal_moves((6, 5)).positions[:1])
    values, shortlisted = _evaluator.roll_children_values(kernel, children)
    assert shortlisted == []
    np.testing.assert_array_equal(values, without_choice().evaluate_batch(children))


def test_a_ranking_values_every_play_by_the_choice_network_and_the_paths_agree():
    evaluator, general = two_stage(), two_stage(cls=GeneralPath)
    alone = second_stage_alone()
    for position, dice in roll_cases(40):
        fast = rank_moves(position, dice, evaluator=evaluator)
        slow = rank_moves(position, dice, evaluator=general)
        assert [(m.move, m.probabilities, m.plies) for m in fast] == [(m.move, m.probabilities, m.plies) for m in slow]
        assert [(m.move, m.probabilities) for m in fast] == [(m.move, m.probabilities)
                                                             for m in rank_moves(position, dice, evaluator=alone)]
        equities = [m.equity for m in fast]
        assert equities == sorted(equities, reverse=True)


@pytest.mark.parametrize("plies", [1, 2])
def test_deeper_rankings_pick_candidates_by_the_choice_network_and_search_as_before(plies):
    for position, dice in roll_cases(3 if plies == 1 else 1):
        ranked = rank_moves(position, dice, plies=plies, evaluator=two_stage())
        general = rank_moves(position, dice, plies=plies, evaluator=two_stage(cls=GeneralPath))
        assert [(m.move, m.probabilities, m.plies) for m in ranked] == [(m.move, m.probabilities, m.plies)
                                                                        for m in general]
        shallow = [m for m in ranked if m.plies == 0]
        by_choice = {m.move: m.probabilities for m in rank_moves(position, dice, evaluator=second_stage_alone())}
        assert all(m.probabilities == by_choice[m.move] for m in shallow)
        for move in [m for m in ranked if m.plies == plies]:  # searched by the first stage alone
            searched = evaluate(move.position, plies=plies, evaluator=without_choice()).probabilities
            np.testing.assert_allclose(move.probabilities.as_tuple(), flipped(np.array(searched.as_tuple())), atol=1e-6)


@pytest.mark.parametrize("plies", [1, 2])
def test_searches_value_replies_by_the_first_stage_alone(plies):
    boards = np.array([np.asarray(p, dtype=np.int8) for p in POSITIONS[:: 150 if plies == 1 else 600]])
    with_choice, plain = two_stage(), without_choice()
    assert np.array_equal(with_choice.evaluate_plies(boards, plies), plain.evaluate_plies(boards, plies))
    kernel = with_choice.c_evaluator()
    assert np.array_equal(_nply.nply_evaluate(kernel, boards, plies, 2, 0.04),
                          _nply.nply_evaluate(plain.c_evaluator(), boards, plies, 2, 0.04))
    for position in POSITIONS[:: 300 if plies == 1 else 1200]:
        assert evaluate(position, plies=plies, evaluator=with_choice) == evaluate(position, plies=plies, evaluator=plain)


def first_ply_of_a_rollout(position: Position, dice: tuple[int, int], evaluator: NetworkEvaluator) -> np.ndarray:
    """The 1-ply value (mover's view) of the play a rollout at ``checker_plies=1`` makes with
    ``dice``: one trial stopped after that play, scored at 1-ply, no luck subtracted."""
    settings = RolloutSettings(trials=1, seed=1, truncate_plies=1, checker_plies=1, variance_reduction=False,
                               quasi_random=False, block_size=1)
    return np.array(rollout(position, dice=dice, settings=settings, evaluator=evaluator).probabilities.as_tuple())


def test_rollouts_at_n_plies_search_the_plays_best_move_searches():
    two, plain = two_stage(), without_choice()
    search = MoveFilter()  # a rollout's root and reply filter
    other_play = 0
    for position, dice in roll_cases(12):
        best = rank_moves(position, dice, plies=1, evaluator=two, move_filter=search, candidates=search)[0]
        played = first_ply_of_a_rollout(position, dice, two)
        np.testing.assert_allclose(played, best.probabilities.as_tuple(), atol=2e-6)
        other_play += not np.allclose(first_ply_of_a_rollout(position, dice, plain), played, atol=2e-6)
    assert other_play > 0  # the choice network's candidates changed some plays


def test_self_play_with_a_second_stage_is_seeded_and_differs():
    plain = without_choice().c_evaluator()
    kernel = two_stage().c_evaluator()

    def points(player: _engine.EngineCEvaluator) -> np.ndarray:
        return _selfplay.duel(_selfplay.EnginePlayer(player), _selfplay.EnginePlayer(plain), 40, np.random.PCG64(7))

    result = points(kernel)
    assert np.array_equal(points(pickle.loads(pickle.dumps(kernel))), result)
    assert not np.array_equal(points(plain), result)


def test_a_pickled_kernel_keeps_its_second_stage():
    kernel = two_stage(5).c_evaluator()
    copy = pickle.loads(pickle.dumps(kernel))
    assert copy.shortlist == 5 and copy.second_stage is not None
    assert np.array_equal(copy.second_stage.network.hidden_weights, CHOICE.hidden_weights)


def test_the_kernel_is_remade_when_the_choice_changes():
    evaluator = two_stage()
    kernel = evaluator.c_evaluator()
    assert evaluator.c_evaluator() is kernel
    evaluator.shortlist = 4
    assert evaluator.c_evaluator().shortlist == 4
    evaluator.choice_network = None
    assert evaluator.c_evaluator().second_stage is None


@pytest.mark.parametrize("shortlist", [0, 9, True, 2.0])
def test_a_bad_shortlist_is_refused(shortlist):
    with pytest.raises(InvalidSettingsError, match="shortlist"):
        two_stage(shortlist)


def test_a_choice_network_must_be_a_contact_network():
    engine = default_evaluator()
    from importlib import resources

    with resources.as_file(resources.files("bgengine").joinpath("data/crashed_weights.npz")) as path:
        with pytest.raises(NetworkClassError):
            NetworkEvaluator(engine.network, choice_network=path)
    with pytest.raises(NetworkClassError):
        NetworkEvaluator(engine.network, choice_network=42)  # type: ignore[arg-type]


def test_a_choice_network_does_not_go_with_a_numpy_contact_network(tmp_path):
    base = default_evaluator().network
    with pytest.raises(InvalidSettingsError, match="choice network"):
        NetworkEvaluator(base, choice_network=CHOICE, contact_network=uncorrecting_contact_network(tmp_path, base))


def test_the_core_refuses_a_second_stage_of_a_second_stage():
    network = default_evaluator().network
    second = _engine.EngineCEvaluator(CHOICE, None, None, None, _engine.EngineCEvaluator(network), 2)
    with pytest.raises(ValueError, match="second stage"):
        _engine.EngineCEvaluator(network, None, None, None, second, 2)
    with pytest.raises(ValueError, match="shortlist"):
        _engine.EngineCEvaluator(network, None, None, None, _engine.EngineCEvaluator(CHOICE), 9)
    with pytest.raises(ValueError, match="without a second stage"):
        _engine.EngineCEvaluator(network, None, None, None, None, 3)


def test_the_identity_names_the_choice_network():
    identity = evaluator_identity(two_stage())
    assert identity["shortlist"] == SHORTLIST and isinstance(identity["choice"], str)
    assert "choice" not in evaluator_identity(without_choice())


def test_a_search_through_the_caches_gives_the_uncached_searchs_values():
    kernel = two_stage().c_evaluator()
    boards = np.array([np.asarray(p, dtype=np.int8) for p in POSITIONS[::150]])
    for plies in (1, 2):
        cached = _single.probabilities_of_boards(kernel, boards, plies, 2, 0.04)
        assert np.array_equal(cached, _nply.nply_evaluate(kernel, boards, plies, 2, 0.04))


def test_the_children_values_check_their_boards():
    kernel = two_stage().c_evaluator()
    bad = np.zeros((2, 26), dtype=np.int8)
    bad[1, 3] = 16
    with pytest.raises(ValueError, match="more than 15"):
        _evaluator.roll_children_values(kernel, bad)
    with pytest.raises(ValueError, match="at least one"):
        _evaluator.roll_children_values(kernel, np.zeros((0, 26), dtype=np.int8))
    with pytest.raises(ValueError, match="shape"):
        _evaluator.roll_children_values(kernel, np.zeros((2, 25), dtype=np.int8))

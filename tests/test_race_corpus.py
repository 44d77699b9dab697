"""Race training data: the race-only job, the split by shard, and the race network switch."""

from __future__ import annotations

import numpy as np

from bgengine import Position, RolloutSettings, evaluate, rank_moves
from bgengine.evaluation.evaluator import NetworkEvaluator, default_evaluator
from bgengine.evaluation.race_features import NUM_FEATURES
from bgengine.evaluation.race_network import RaceNetwork, save_race_network
from bgengine.probabilities import flipped
from bgengine.training.classes import PositionClass
from bgengine.training.corpus import TEST, TRAIN, VALIDATION, gather, shard_role
from bgengine.training.dataset import Shard, load_shard, save_shard, shard_path
from bgengine.training.labels import LabelPlan
from bgengine.training.pipeline import build_races
from bgengine.training.positions import GenerationSettings

TINY_PLAN = LabelPlan(race=RolloutSettings(trials=4, variance_reduction=False),
                      contact=RolloutSettings(trials=4, variance_reduction=False, truncate_plies=1))


def labelled(boards: list[np.ndarray], classes: list[int], value: float) -> Shard:
    n = len(boards)
    return Shard(np.array(boards, np.int8), np.array(classes, np.int8), np.zeros(n, np.uint8), {},
                 np.full((n, 5), value), np.zeros((n, 5)), np.zeros(n), np.zeros(n, np.uint64),
                 np.zeros(n, np.int32), np.zeros(n, np.float32))


def test_race_job_chunks_hold_only_races_and_do_not_depend_on_each_other(tmp_path):
    generation = GenerationSettings(games=2, scenario_weights=(1.0, 1.0, 1.0))
    build_races(tmp_path / "a", 5, range(0, 2), generation, TINY_PLAN)
    build_races(tmp_path / "b", 5, range(1, 2), generation, TINY_PLAN)
    first = load_shard(shard_path(tmp_path / "a" / "labels", 1))
    alone = load_shard(shard_path(tmp_path / "b" / "labels", 1))
    assert len(first) > 0 and set(first.classes.tolist()) == {PositionClass.RACE}
    assert np.array_equal(first.boards, alone.boards)
    assert np.array_equal(first.probabilities, alone.probabilities)


def test_shards_are_split_by_index_and_a_board_is_kept_once_in_the_strictest_role(tmp_path):
    race = [np.asarray(Position.from_points({8: 5, 6: 5, 4: 5}, {9: 5, 7: 5, 5: 5 - k})) for k in range(4)]
    contact = np.asarray(Position.initial())
    save_shard(shard_path(tmp_path, 0), labelled([race[0], race[1], contact], [2, 2, 0], 0.1))
    save_shard(shard_path(tmp_path, 8), labelled([race[1], race[2]], [2, 2], 0.8))
    save_shard(shard_path(tmp_path, 19), labelled([race[1], race[3]], [2, 2], 0.9))
    splits = gather([tmp_path], (PositionClass.RACE,), exclude={race[3].tobytes()})
    assert [shard_role(i) for i in (0, 8, 19)] == [TRAIN, VALIDATION, TEST]
    assert [shard_role(i, every=5) for i in (0, 8, 19, 3)] == [TRAIN, VALIDATION, TEST, VALIDATION]
    assert [len(splits[role]) for role in (TRAIN, VALIDATION, TEST)] == [1, 1, 1]
    assert np.array_equal(splits[TEST].boards[0], race[1])  # claimed by the test shard first
    assert np.array_equal(splits[VALIDATION].boards[0], race[2])
    assert np.array_equal(splits[TRAIN].boards[0], race[0])  # race[3] was excluded (truth set)


def test_the_race_network_switch_values_races_only(tmp_path):
    rng = np.random.default_rng(1)
    parameters = {"hidden_weights": rng.normal(size=(NUM_FEATURES, 3)) * 0.1, "hidden_bias": np.zeros(3),
                  "output_weights": np.zeros((3, 5)), "output_bias": np.array([3.0, -3.0, -6.0, -6.0, -6.0])}
    save_race_network(tmp_path / "w.npz", parameters, {})
    network = RaceNetwork.from_file(tmp_path / "w.npz")
    switched = NetworkEvaluator(default_evaluator().network, race_network=network)
    race = Position.from_points({8: 5, 6: 5, 4: 5}, {9: 5, 7: 5, 5: 5})
    exact = Position.from_points({6: 2, 5: 1}, {3: 3})
    for position in (Position.initial(), exact):
        assert np.allclose(evaluate(position, evaluator=switched).probabilities.as_tuple(),
                           evaluate(position).probabilities.as_tuple(), atol=1e-6)
    expected = network.evaluate_batch(np.asarray(race)[None, :])[0]
    assert np.allclose(evaluate(race, evaluator=switched).probabilities.as_tuple(), expected, atol=1e-6)
    approximation = evaluate(race, evaluator=default_evaluator(use_race_network=False)).probabilities
    assert expected[0] > approximation.win + 0.15  # the output bias moved it well away
    ranked = rank_moves(race, (6, 5), evaluator=switched)
    children = network.evaluate_batch(np.array([np.asarray(m.position) for m in ranked]))
    assert np.allclose([m.probabilities.as_tuple() for m in ranked], flipped(children), atol=1e-6)


def uncorrecting_contact_network(directory, base):
    """A contact network (saved in ``directory``) whose correction of ``base`` is zero."""
    from bgengine.evaluation.contact_features import NUM_FEATURES as CONTACT_FEATURES
    from bgengine.evaluation.contact_network import ContactNetwork, save_contact_network

    inputs = CONTACT_FEATURES + base.num_hidden
    parameters = {"hidden_weights": np.ones((inputs, 2)), "hidden_bias": np.zeros(2),
                  "output_weights": np.zeros((2, 5)), "output_bias": np.zeros(5)}
    save_contact_network(directory / "c.npz", parameters, {}, base)
    return ContactNetwork.from_file(directory / "c.npz", base)


def test_a_contact_network_without_correction_gives_the_base_networks_values(tmp_path):
    from bgengine.evaluation.contact_network import ContactNetwork
    from bgengine.evaluation.evaluator import _nn

    base = default_evaluator().network
    switched = NetworkEvaluator(base, contact_network=uncorrecting_contact_network(tmp_path, base))
    for position in (Position.initial(), Position.from_gnubg_id("fnwICQgAoBQ3Pw")):
        assert np.allclose(evaluate(position, evaluator=switched).probabilities.as_tuple(),
                           evaluate(position).probabilities.as_tuple(), atol=1e-5)
    other = _nn.NeuralNet.random(base.num_hidden, 7)
    with np.testing.assert_raises_regex(ValueError, "made for inputs"):
        ContactNetwork.from_file(tmp_path / "c.npz", other)


def test_the_shipped_race_network_is_the_default_for_races():
    from bgengine.evaluation.race_network import shipped_race_network

    network = shipped_race_network()
    assert network.record["encoding"] == {"name": "race-features", "version": 2} and network.encoding_version == 2
    assert network.record["held_out"]["network"]["equity"] < network.record["held_out"]["race_approximation"]["equity"]
    assert default_evaluator() is default_evaluator(use_race_network=True) is default_evaluator(True)
    approximation = default_evaluator(use_race_network=False)
    assert approximation.race_network is None and approximation.network is default_evaluator().network
    race = Position.from_points({12: 3, 9: 4, 5: 8}, {3: 2, 2: 2, 1: 1})  # saving the gammon
    expected = network.evaluate_batch(np.asarray(race)[None, :])[0]
    assert np.allclose(evaluate(race).probabilities.as_tuple(), expected, atol=1e-6)
    assert not np.allclose(evaluate(race, evaluator=approximation).probabilities.as_tuple(), expected, atol=1e-3)
    assert np.allclose(evaluate(Position.initial(), evaluator=approximation).probabilities.as_tuple(),
                       evaluate(Position.initial()).probabilities.as_tuple(), atol=1e-6)

"""A network's input encoding: the kernels use each network's own, widening keeps outputs, weights
files and TD checkpoints record it."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from bgcore import _engine, _nn, _selfplay
from bgengine.errors import NetworkEncodingError
from bgengine.evaluation.evaluator import NetworkEvaluator, default_evaluator, evaluate
from bgengine.evaluation.network_weights import dense_inputs, load_network, network_arrays, widened
from bgengine.evaluation.pubeval import pubeval_player
from bgengine.training.td import TrainingSettings, export_weights, load_checkpoint, train
from conftest import random_play_positions
from test_fast_path import GeneralPath
from test_nn import numpy_forward, random_boards

BOARDS = random_boards(2000, 14)


def quiet(line: str) -> None:
    pass


def narrow_network() -> _nn.NeuralNet:
    """An encoding-1 network (the shipped one is encoding 2)."""
    return _nn.NeuralNet.random(64, seed=11, scale=0.5, encoding=1)


def test_a_network_says_its_encoding_and_checks_its_shape():
    wide = _nn.NeuralNet.random(8, 1, encoding=2)
    assert (wide.encoding, wide.num_inputs, wide.hidden_weights.shape) == (2, 227, (227, 8))
    assert _nn.NeuralNet(**wide.arrays()).encoding == 2  # the row count says it
    assert _nn.NeuralNet.random(8, 1).encoding == 1
    with pytest.raises(ValueError, match=r"\(211, "):
        _nn.NeuralNet(**wide.arrays(), encoding=1)
    with pytest.raises(ValueError, match="encoding must be 1 or 2"):
        _nn.NeuralNet.random(8, 1, encoding=3)
    with pytest.raises(ValueError, match="encoding must be 1 or 2"):
        _nn.encode(BOARDS[0], 0)
    copy = pickle.loads(pickle.dumps(wide))
    assert copy.encoding == 2 and np.array_equal(copy.evaluate(BOARDS), wide.evaluate(BOARDS))


def test_an_encoding_2_network_evaluates_its_own_inputs():
    net = _nn.NeuralNet.random(40, seed=5, scale=0.5, encoding=2)
    expected = np.array([numpy_forward(net, x) for x in dense_inputs(BOARDS[:300], 2)])
    np.testing.assert_allclose(net.raw_outputs(BOARDS[:300]), expected, atol=2e-5)
    assert np.array_equal(dense_inputs(BOARDS[:50], 2), _nn.encode_boards(BOARDS[:50], 2))


def test_a_widened_network_gives_the_same_outputs_exactly():
    narrow = narrow_network()
    wide = widened(narrow, 2)
    assert wide.encoding == 2 and np.array_equal(wide.hidden_weights[211:], np.zeros((16, narrow.num_hidden)))
    assert np.array_equal(wide.evaluate(BOARDS), narrow.evaluate(BOARDS))
    assert np.array_equal(wide.raw_outputs(BOARDS), narrow.raw_outputs(BOARDS))
    assert widened(narrow, 1) is narrow
    with pytest.raises(NetworkEncodingError, match="cannot narrow"):
        widened(wide, 1)
    # searches and rollouts through the engine's kernels: the same floats
    race_network = default_evaluator().race_network
    engine = NetworkEvaluator(narrow, race_network=race_network)
    wide_engine = NetworkEvaluator(wide, race_network=race_network)
    for position in random_play_positions(6, 3):
        assert evaluate(position, plies=1, evaluator=engine) == evaluate(position, plies=1, evaluator=wide_engine)
    assert np.array_equal(engine.evaluate_plies(BOARDS[:5], 2), wide_engine.evaluate_plies(BOARDS[:5], 2))


def test_kept_hidden_sums_are_right_for_encoding_2():
    # the fast path keeps the mover-only sums between boards; the general path does not
    wide = NetworkEvaluator(_nn.NeuralNet.random(32, seed=2, scale=0.5, encoding=2))
    general = GeneralPath(wide.network, race_tables=wide.race_tables)
    general._kernel = wide.c_evaluator()
    for position in random_play_positions(40, 8)[::4]:
        assert evaluate(position, plies=1, evaluator=wide) == evaluate(position, plies=1, evaluator=general)


def test_weights_files_record_the_encoding_and_loading_checks_it(tmp_path):
    wide = _nn.NeuralNet.random(8, 3, encoding=2)
    np.savez(tmp_path / "wide.npz", **network_arrays(wide))
    loaded = load_network(tmp_path / "wide.npz")
    assert loaded.encoding == 2 and np.array_equal(loaded.evaluate(BOARDS), wide.evaluate(BOARDS))
    assert NetworkEvaluator.from_file(tmp_path / "wide.npz").network.encoding == 2
    with pytest.raises(NetworkEncodingError, match="encoding 2, not 1"):
        load_network(tmp_path / "wide.npz", 1)
    np.savez(tmp_path / "old.npz", **_nn.NeuralNet.random(8, 3).arrays())  # before encoding 2: no field
    assert load_network(tmp_path / "old.npz", 1).encoding == 1
    np.savez(tmp_path / "liar.npz", **{**wide.arrays(), "encoding": np.array(1)})
    with pytest.raises(NetworkEncodingError, match="227 rows"):
        load_network(tmp_path / "liar.npz")
    np.savez(tmp_path / "unknown.npz", **{**wide.arrays(), "encoding": np.array(7)})
    with pytest.raises(NetworkEncodingError, match="must be one of"):
        load_network(tmp_path / "unknown.npz")


def test_td_training_starts_from_widened_weights_and_resumes_exactly(tmp_path):
    start = tmp_path / "start.npz"
    np.savez(start, **network_arrays(_nn.NeuralNet.random(8, 6)))
    settings = TrainingSettings(seed=3, eval_games=20, encoding=2, init=str(start))
    straight, state = train(tmp_path / "straight", 40, settings, report=quiet)
    assert straight.encoding == 2 and state.settings.hidden == 8 and len(state.settings.init_sha256_16) == 16
    assert np.any(straight.hidden_weights[211:] != 0)  # the gradient steps reach the contact units
    train(tmp_path / "split", 20, settings, report=quiet)
    resumed, resumed_state = train(tmp_path / "split", 40, resume=tmp_path / "split" / "latest.npz", report=quiet)
    assert resumed_state.settings == state.settings
    for name, array in straight.arrays().items():
        assert np.array_equal(array, resumed.arrays()[name]), name
    network, _ = load_checkpoint(tmp_path / "split" / "latest.npz")
    assert network.encoding == 2
    record = export_weights(tmp_path / "split" / "latest.npz", tmp_path / "w.npz")
    assert record["settings"]["encoding"] == 2 and load_network(tmp_path / "w.npz", 2).num_hidden == 8


def test_a_widened_network_plays_the_same_games():
    narrow = _nn.NeuralNet.random(8, 6)
    wide = widened(narrow, 2)
    assert np.array_equal(_selfplay.duel(narrow, pubeval_player(), 20, np.random.PCG64(4)),
                          _selfplay.duel(wide, pubeval_player(), 20, np.random.PCG64(4)))
    players = [_selfplay.EnginePlayer(_engine.EngineCEvaluator(net), plies=1) for net in (narrow_network(), widened(narrow_network(), 2))]
    assert np.array_equal(_selfplay.duel(players[0], pubeval_player(), 6, np.random.PCG64(5)),
                          _selfplay.duel(players[1], pubeval_player(), 6, np.random.PCG64(5)))

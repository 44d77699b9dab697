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


@pytest.mark.parametrize("encoding, inputs", [(2, 227), (3, 245)])
def test_a_network_says_its_encoding_and_checks_its_shape(encoding, inputs):
    wide = _nn.NeuralNet.random(8, 1, encoding=encoding)
    assert (wide.encoding, wide.num_inputs, wide.hidden_weights.shape) == (encoding, inputs, (inputs, 8))
    assert _nn.NeuralNet(**wide.arrays()).encoding == encoding  # the row count says it
    assert _nn.NeuralNet.random(8, 1).encoding == 1
    with pytest.raises(ValueError, match=r"\(211, "):
        _nn.NeuralNet(**wide.arrays(), encoding=1)
    with pytest.raises(ValueError, match="encoding must be 1, 2 or 3"):
        _nn.NeuralNet.random(8, 1, encoding=4)
    with pytest.raises(ValueError, match="encoding must be 1, 2 or 3"):
        _nn.encode(BOARDS[0], 0)
    copy = pickle.loads(pickle.dumps(wide))
    assert copy.encoding == encoding and np.array_equal(copy.evaluate(BOARDS), wide.evaluate(BOARDS))


@pytest.mark.parametrize("encoding", [2, 3])
def test_a_wider_network_evaluates_its_own_inputs(encoding):
    net = _nn.NeuralNet.random(40, seed=5, scale=0.5, encoding=encoding)
    expected = np.array([numpy_forward(net, x) for x in dense_inputs(BOARDS[:300], encoding)])
    np.testing.assert_allclose(net.raw_outputs(BOARDS[:300]), expected, atol=2e-5)
    assert np.array_equal(dense_inputs(BOARDS[:50], encoding), _nn.encode_boards(BOARDS[:50], encoding))


@pytest.mark.parametrize("start, encoding", [(1, 2), (1, 3), (2, 3)])
def test_a_widened_network_gives_the_same_outputs_exactly(start, encoding):
    narrow = narrow_network() if start == 1 else _nn.NeuralNet.random(64, seed=12, scale=0.5, encoding=start)
    wide = widened(narrow, encoding)
    new_rows = _nn.num_inputs(encoding) - narrow.num_inputs
    assert wide.encoding == encoding and np.array_equal(wide.hidden_weights[narrow.num_inputs:],
                                                        np.zeros((new_rows, narrow.num_hidden)))
    assert np.array_equal(wide.evaluate(BOARDS), narrow.evaluate(BOARDS))
    assert np.array_equal(wide.raw_outputs(BOARDS), narrow.raw_outputs(BOARDS))
    assert widened(narrow, start) is narrow
    with pytest.raises(NetworkEncodingError, match="cannot narrow"):
        widened(wide, start)
    # searches and rollouts through the engine's kernels: the same floats
    race_network = default_evaluator().race_network
    engine = NetworkEvaluator(narrow, race_network=race_network)
    wide_engine = NetworkEvaluator(wide, race_network=race_network)
    for position in random_play_positions(6, 3):
        assert evaluate(position, plies=1, evaluator=engine) == evaluate(position, plies=1, evaluator=wide_engine)
    assert np.array_equal(engine.evaluate_plies(BOARDS[:5], 2), wide_engine.evaluate_plies(BOARDS[:5], 2))


@pytest.mark.parametrize("encoding", [2, 3])
def test_kept_hidden_sums_are_right_for_wider_encodings(encoding):
    # the fast path keeps the mover-only sums between boards; the general path does not
    wide = NetworkEvaluator(_nn.NeuralNet.random(32, seed=2, scale=0.5, encoding=encoding))
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
    wider = widened(wide, 3)
    np.savez(tmp_path / "wider.npz", **network_arrays(wider))
    assert load_network(tmp_path / "wider.npz", 3).encoding == 3
    with pytest.raises(NetworkEncodingError, match="encoding 3, not 2"):
        load_network(tmp_path / "wider.npz", 2)
    np.savez(tmp_path / "liar3.npz", **{**wide.arrays(), "encoding": np.array(3)})
    with pytest.raises(NetworkEncodingError, match="245 inputs, the hidden weights 227 rows"):
        load_network(tmp_path / "liar3.npz")
    np.savez(tmp_path / "unknown.npz", **{**wide.arrays(), "encoding": np.array(7)})
    with pytest.raises(NetworkEncodingError, match="must be one of"):
        load_network(tmp_path / "unknown.npz")


@pytest.mark.parametrize("encoding", [2, 3])
def test_td_training_starts_from_widened_weights_and_resumes_exactly(tmp_path, encoding):
    start = tmp_path / "start.npz"
    np.savez(start, **network_arrays(_nn.NeuralNet.random(8, 6)))
    settings = TrainingSettings(seed=3, eval_games=20, encoding=encoding, init=str(start))
    straight, state = train(tmp_path / "straight", 40, settings, report=quiet)
    assert straight.encoding == encoding and state.settings.hidden == 8 and len(state.settings.init_sha256_16) == 16
    assert np.any(straight.hidden_weights[_nn.num_inputs(encoding - 1):] != 0)  # the steps reach the new units
    train(tmp_path / "split", 20, settings, report=quiet)
    resumed, resumed_state = train(tmp_path / "split", 40, resume=tmp_path / "split" / "latest.npz", report=quiet)
    assert resumed_state.settings == state.settings
    for name, array in straight.arrays().items():
        assert np.array_equal(array, resumed.arrays()[name]), name
    network, _ = load_checkpoint(tmp_path / "split" / "latest.npz")
    assert network.encoding == encoding
    record = export_weights(tmp_path / "split" / "latest.npz", tmp_path / "w.npz")
    assert record["settings"]["encoding"] == encoding and load_network(tmp_path / "w.npz", encoding).num_hidden == 8


@pytest.mark.parametrize("encoding", [2, 3])
def test_a_widened_network_plays_the_same_games(encoding):
    narrow = _nn.NeuralNet.random(8, 6)
    wide = widened(narrow, encoding)
    assert np.array_equal(_selfplay.duel(narrow, pubeval_player(), 20, np.random.PCG64(4)),
                          _selfplay.duel(wide, pubeval_player(), 20, np.random.PCG64(4)))
    players = [_selfplay.EnginePlayer(_engine.EngineCEvaluator(net), plies=1)
               for net in (narrow_network(), widened(narrow_network(), encoding))]
    assert np.array_equal(_selfplay.duel(players[0], pubeval_player(), 6, np.random.PCG64(5)),
                          _selfplay.duel(players[1], pubeval_player(), 6, np.random.PCG64(5)))

"""network_weights.side_by_side: two networks' logit average as one wider network the kernel runs."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from bgcore import _nn
from bgengine.errors import NetworkEncodingError
from bgengine.evaluation.correction_network import consistent
from bgengine.evaluation.network_weights import (dense_inputs, network_from_parameters, network_parameters,
                                                 side_by_side)
from bgengine.training.classes import possible_outcomes
from bgengine.training.supervised import layer_forward
from test_nn import random_boards

BOARDS = random_boards(300, 23)


def two_networks() -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Two encoding-3 networks of different widths, fitted apart (here: drawn apart)."""
    return (network_parameters(_nn.NeuralNet.random(16, seed=3, scale=0.5, encoding=3)),
            network_parameters(_nn.NeuralNet.random(24, seed=4, scale=0.5, encoding=3)))


def test_the_side_by_side_network_outputs_the_shares_of_both_logits():
    first, second = two_networks()
    inputs = dense_inputs(BOARDS, 3).astype(np.float64)
    combined = side_by_side(first, second, 0.3)
    assert combined["hidden_weights"].shape == (245, 40) and combined["output_weights"].shape == (40, 5)
    expected = 0.3 * layer_forward(first, inputs)[1] + 0.7 * layer_forward(second, inputs)[1]
    assert np.allclose(layer_forward(combined, inputs)[1], expected, atol=1e-12)


def test_the_kernel_runs_the_side_by_side_network_as_the_numpy_forward_pass():
    first, second = two_networks()
    combined = side_by_side(first, second)
    inputs = dense_inputs(BOARDS, 3).astype(np.float64)
    expected = 1 / (1 + np.exp(-layer_forward(combined, inputs)[1]))
    network = network_from_parameters(combined)
    assert network.num_hidden == 40
    assert np.allclose(network.raw_outputs(BOARDS), expected, atol=3e-5)  # the table sigmoid, float32
    assert np.allclose(network.evaluate(BOARDS), consistent(expected) * possible_outcomes(BOARDS), atol=3e-5)


def test_side_by_side_refuses_bad_shares_other_inputs_and_two_layers():
    first, second = two_networks()
    for share in (0.0, 1.0, -0.5):
        with pytest.raises(ValueError, match="share"):
            side_by_side(first, second, share)
    narrow = network_parameters(_nn.NeuralNet.random(8, seed=5, scale=0.5, encoding=2))
    with pytest.raises(NetworkEncodingError, match="227"):
        side_by_side(first, narrow)
    deep = {**second, "hidden2_weights": np.zeros((24, 4))}
    with pytest.raises(ValueError, match="one-hidden-layer"):
        side_by_side(first, deep)


def test_relabelled_shards_keep_everything_but_the_labels_which_are_the_networks(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from relabel_shards import relabelled

    from bgengine.training.dataset import Shard, load_shard, save_shard

    shard = Shard(BOARDS[:50], np.zeros(50, dtype=np.int8), np.arange(50, dtype=np.uint8) % 3, {"seed": 7},
                  probabilities=np.full((50, 5), 0.5), standard_errors=np.zeros((50, 5)),
                  equity_standard_errors=np.zeros(50), seeds=np.arange(50, dtype=np.uint64),
                  trials=np.ones(50, dtype=np.int32), seconds=np.zeros(50, dtype=np.float32))
    network = network_from_parameters(side_by_side(*two_networks()))
    save_shard(tmp_path / "shard-00000.npz", relabelled(shard, network, tmp_path / "w.npz"))
    again = load_shard(tmp_path / "shard-00000.npz")
    assert np.array_equal(again.boards, shard.boards) and np.array_equal(again.tags, shard.tags)
    assert np.array_equal(again.seeds, shard.seeds)
    assert np.allclose(again.probabilities, network.evaluate(BOARDS[:50]))
    assert again.meta["seed"] == 7 and "relabelled_by" in again.meta

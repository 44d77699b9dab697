"""The engine's own network (``bgcore._nn``) seen from numpy: its dense inputs, its weights
as trainable float64 parameters, and its weights file.

Parameters follow ``correction_network`` (``output_weights`` is hidden x 5), the forward
pass the supervised trainer fits; with no offsets it is the C network's forward pass (the
C one takes the hidden sigmoid from a table, within 3e-6). The weights file is the shipped
format (``output_weights`` 5 x hidden, float32, and a JSON ``record``), which
``NetworkEvaluator.from_file`` loads.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from bgcore import _nn

ENCODING = {"name": "bgcore._nn", "inputs": 211}


def dense_inputs(boards: np.ndarray) -> np.ndarray:
    """(n, 211) float32 network inputs of (n, 26) boards (player on roll's view)."""
    boards = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 26)
    out = np.zeros((len(boards), _nn.num_inputs()), dtype=np.float32)
    for i, board in enumerate(boards):
        out[i] = _nn.encode(board[None, :])
    return out


def network_parameters(network: _nn.NeuralNet) -> dict[str, np.ndarray]:
    """A network's weights as float64 parameters in the trainer's orientation."""
    arrays = network.arrays()
    return {"hidden_weights": arrays["hidden_weights"].astype(np.float64),
            "hidden_bias": arrays["hidden_bias"].astype(np.float64),
            "output_weights": arrays["output_weights"].T.astype(np.float64),
            "output_bias": arrays["output_bias"].astype(np.float64)}


def network_from_parameters(parameters: dict[str, np.ndarray]) -> _nn.NeuralNet:
    """The C network of trainer-oriented parameters (float32)."""
    return _nn.NeuralNet(np.ascontiguousarray(parameters["hidden_weights"], dtype=np.float32),
                         np.ascontiguousarray(parameters["hidden_bias"], dtype=np.float32),
                         np.ascontiguousarray(parameters["output_weights"].T, dtype=np.float32),
                         np.ascontiguousarray(parameters["output_bias"], dtype=np.float32))


def save_network_weights(path: str | Path, parameters: dict[str, np.ndarray], record: dict[str, Any]) -> None:
    """Write trainer-oriented parameters as an evaluator weights file with its record."""
    arrays: dict[str, Any] = {**network_from_parameters(parameters).arrays(),
                              "record": np.array(json.dumps(record, sort_keys=True))}
    np.savez_compressed(Path(path), **arrays)

"""Small numpy networks that correct a base estimate: one sigmoid hidden layer, 5 outputs
whose logits are the network's plus the logits of the base 5-vector (``offsets``).

The 5-vector is cumulative (win, win gammon, win backgammon, lose gammon, lose backgammon),
player on roll's view before the roll. The forward pass here is the one the trainer
(``bgengine.training.supervised``) fits, so training and inference agree.

Weights file (``.npz``): ``hidden_weights`` (inputs x hidden), ``hidden_bias``,
``output_weights`` (hidden x 5), ``output_bias`` (float32), and JSON strings
``architecture``, ``encoding`` (name and version of the inputs) and ``record`` (how the
weights were made).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

NUM_OUTPUTS = 5
PARAMETER_NAMES = ("hidden_weights", "hidden_bias", "output_weights", "output_bias")
OFFSET_FLOOR = 1e-6
Parameters = dict[str, np.ndarray]


def sigmoid(x: np.ndarray) -> np.ndarray:
    """The logistic function, without overflow warnings for large negative inputs."""
    return 0.5 * (1.0 + np.tanh(0.5 * x))


def forward(parameters: Parameters, inputs: np.ndarray,
            offsets: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(hidden activations, output logits) of a sigmoid hidden layer and 5 linear outputs,
    plus fixed per-position logit ``offsets`` when given (the network learns a correction)."""
    hidden = sigmoid(inputs @ parameters["hidden_weights"] + parameters["hidden_bias"])
    logits = hidden @ parameters["output_weights"] + parameters["output_bias"]
    return hidden, logits if offsets is None else logits + offsets


def logit(probabilities: np.ndarray) -> np.ndarray:
    """log(p / (1 - p)) with p kept within [OFFSET_FLOOR, 1 - OFFSET_FLOOR]."""
    p = np.clip(np.asarray(probabilities, dtype=np.float64), OFFSET_FLOOR, 1.0 - OFFSET_FLOOR)
    return np.log(p) - np.log1p(-p)


def consistent(probabilities: np.ndarray) -> np.ndarray:
    """Each row clamped into a valid 5-vector: gammons under wins, backgammons under gammons."""
    p = np.clip(np.asarray(probabilities, dtype=np.float64), 0.0, 1.0)
    p[:, 1] = np.minimum(p[:, 1], p[:, 0])
    p[:, 2] = np.minimum(p[:, 2], p[:, 1])
    p[:, 3] = np.minimum(p[:, 3], 1.0 - p[:, 0])
    p[:, 4] = np.minimum(p[:, 4], p[:, 3])
    return p


def corrected(parameters: Parameters, inputs: np.ndarray, offsets: np.ndarray | None) -> np.ndarray:
    """(n, 5) consistent probabilities: the network's correction of the base logits (none: a plain network)."""
    return consistent(sigmoid(forward(parameters, np.asarray(inputs, np.float64), offsets)[1]))


def save_network(path: str | Path, parameters: Parameters, record: dict[str, Any], encoding: dict[str, Any],
                 output_offset: str) -> None:
    """Write a weights file (float32 parameters, the architecture, encoding and record)."""
    architecture = {"inputs": int(parameters["hidden_weights"].shape[0]),
                    "hidden": [int(parameters["hidden_weights"].shape[1])], "hidden_activation": "sigmoid",
                    "outputs": NUM_OUTPUTS, "output_activation": "sigmoid", "output_offset": output_offset,
                    "outputs_order": ["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"]}
    arrays: dict[str, Any] = {name: parameters[name].astype(np.float32) for name in PARAMETER_NAMES}
    arrays["architecture"] = np.array(json.dumps(architecture))
    arrays["encoding"] = np.array(json.dumps(encoding))
    arrays["record"] = np.array(json.dumps(record, sort_keys=True))
    np.savez(Path(path), **arrays)


def load_network(path: str | Path, encoding: dict[str, Any],
                 inputs: int) -> tuple[Parameters, dict[str, Any], dict[str, Any]]:
    """(parameters as float64, architecture, record) of a weights file, refusing one made
    for other inputs than ``encoding`` with ``inputs`` values."""
    with np.load(path) as data:
        found = json.loads(str(data["encoding"]))
        if found != encoding:
            raise ValueError(f"{path}: made for inputs {found}, this bgengine computes {encoding}")
        parameters = {name: data[name].astype(np.float64) for name in PARAMETER_NAMES}
        architecture = json.loads(str(data["architecture"]))
        record = json.loads(str(data["record"]))
    if parameters["hidden_weights"].shape[0] != inputs:
        raise ValueError(f"{path}: {parameters['hidden_weights'].shape[0]} inputs, expected {inputs}")
    return parameters, architecture, record

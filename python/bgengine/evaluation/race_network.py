"""The race network: a one-hidden-layer perceptron on ``race_features``, in numpy, that
corrects the race approximation: its output logits are the network's plus the logits of
the approximation's 5-vector (which is among its inputs).

Probabilities are the cumulative 5-vector (win, win gammon, win backgammon, lose gammon,
lose backgammon) of the player on roll, before the roll. The forward pass here is the one
the trainer (``bgengine.training.supervised``) fits, so training and inference agree.

Weights file (``.npz``): ``hidden_weights`` (inputs x hidden), ``hidden_bias``,
``output_weights`` (hidden x 5), ``output_bias``, and JSON strings ``architecture``
(inputs, hidden, activations), ``encoding`` (name and version of the input features) and
``record`` (how the weights were made).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from bgengine.evaluation import bearoff
from bgengine.evaluation.race_features import ENCODING, ENCODING_VERSION, NUM_FEATURES, race_features

RACE_WEIGHTS_RESOURCE = "data/race_weights.npz"
NUM_OUTPUTS = 5
PARAMETER_NAMES = ("hidden_weights", "hidden_bias", "output_weights", "output_bias")
APPROXIMATION = slice(NUM_FEATURES - 5, NUM_FEATURES)  # race_features' last five: the race approximation
OFFSET_FLOOR = 1e-6


def sigmoid(x: np.ndarray) -> np.ndarray:
    """The logistic function, without overflow warnings for large negative inputs."""
    return 0.5 * (1.0 + np.tanh(0.5 * x))


def forward(parameters: dict[str, np.ndarray], inputs: np.ndarray,
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


def race_offsets(features: np.ndarray) -> np.ndarray:
    """The race network's output offsets: the logits of the race approximation's 5-vector
    (the last five features), so the network starts from it and learns what it misses."""
    return logit(np.asarray(features, dtype=np.float64)[:, APPROXIMATION])


def consistent(probabilities: np.ndarray) -> np.ndarray:
    """Each row clamped into a valid 5-vector: gammons under wins, backgammons under gammons."""
    p = np.clip(np.asarray(probabilities, dtype=np.float64), 0.0, 1.0)
    p[:, 1] = np.minimum(p[:, 1], p[:, 0])
    p[:, 2] = np.minimum(p[:, 2], p[:, 1])
    p[:, 3] = np.minimum(p[:, 3], 1.0 - p[:, 0])
    p[:, 4] = np.minimum(p[:, 4], p[:, 3])
    return p


def outside_exact_table(boards: np.ndarray) -> np.ndarray:
    """True for boards without contact that the exact two-sided table does not cover.

    Contact: a checker of the player on roll (slots 1..25) behind one of the opponent's
    (slots 0..24). The two-sided table covers both sides home with at most
    ``bearoff.DEFAULT_TWO_SIDED_CHECKERS`` checkers each.
    """
    signed = np.asarray(boards, dtype=np.int16).reshape(-1, 26)
    slots = np.arange(26)
    mover_top = np.where(signed > 0, slots, -1).max(axis=1)
    opponent_bottom = np.where(signed < 0, slots, 99).min(axis=1)
    no_contact = mover_top < opponent_bottom
    mover_home = (np.maximum(signed[:, 7:], 0).sum(axis=1) == 0)
    opponent_home = (np.maximum(-signed[:, :19], 0).sum(axis=1) == 0)
    limit = bearoff.DEFAULT_TWO_SIDED_CHECKERS
    small = (np.maximum(signed, 0).sum(axis=1) <= limit) & (np.maximum(-signed, 0).sum(axis=1) <= limit)
    finished = (np.maximum(signed, 0).sum(axis=1) == 0) | (np.maximum(-signed, 0).sum(axis=1) == 0)
    return no_contact & ~(mover_home & opponent_home & small) & ~finished


@dataclass(frozen=True, eq=False)
class RaceNetwork:
    """Race probabilities from trained weights (see the module docstring for the file)."""

    parameters: dict[str, np.ndarray]
    architecture: dict[str, Any]
    record: dict[str, Any]

    @classmethod
    def from_file(cls, path: str | Path) -> RaceNetwork:
        """Load a weights file, refusing one made for other input features."""
        with np.load(path) as data:
            encoding = json.loads(str(data["encoding"]))
            if encoding != {"name": ENCODING, "version": ENCODING_VERSION}:
                raise ValueError(f"{path}: made for inputs {encoding}, this bgengine computes "
                                 f"{ENCODING} version {ENCODING_VERSION}")
            parameters = {name: data[name].astype(np.float64) for name in PARAMETER_NAMES}
            architecture = json.loads(str(data["architecture"]))
            record = json.loads(str(data["record"]))
        if parameters["hidden_weights"].shape[0] != NUM_FEATURES:
            raise ValueError(f"{path}: {parameters['hidden_weights'].shape[0]} inputs, expected {NUM_FEATURES}")
        return cls(parameters, architecture, record)

    def evaluate_batch(self, boards: np.ndarray) -> np.ndarray:
        """(n, 5) consistent probabilities of (n, 26) race boards (no contact)."""
        features = race_features(boards).astype(np.float64)
        _, logits = forward(self.parameters, features, race_offsets(features))
        return consistent(sigmoid(logits))


def save_race_network(path: str | Path, parameters: dict[str, np.ndarray], record: dict[str, Any]) -> None:
    """Write a weights file (float32 parameters, the architecture, encoding and record)."""
    hidden = int(parameters["hidden_weights"].shape[1])
    architecture = {"inputs": int(parameters["hidden_weights"].shape[0]), "hidden": [hidden],
                    "hidden_activation": "sigmoid", "outputs": NUM_OUTPUTS, "output_activation": "sigmoid",
                    "output_offset": f"logit of inputs {APPROXIMATION.start}..{APPROXIMATION.stop - 1}"
                                     f" (the race approximation) clipped to [{OFFSET_FLOOR}, 1 - {OFFSET_FLOOR}]",
                    "outputs_order": ["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"]}
    arrays: dict[str, Any] = {name: parameters[name].astype(np.float32) for name in PARAMETER_NAMES}
    arrays["architecture"] = np.array(json.dumps(architecture))
    arrays["encoding"] = np.array(json.dumps({"name": ENCODING, "version": ENCODING_VERSION}))
    arrays["record"] = np.array(json.dumps(record, sort_keys=True))
    np.savez(Path(path), **arrays)


def shipped_race_network() -> RaceNetwork:
    """The race network shipped in the package."""
    with resources.as_file(resources.files("bgengine").joinpath(RACE_WEIGHTS_RESOURCE)) as path:
        return RaceNetwork.from_file(path)

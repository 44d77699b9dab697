"""The contact correction network: a correction network (``correction_network``) whose base
is the engine's own network (the TD-trained one): its output logits are the network's plus
the logits of the base network's raw outputs, and its inputs are ``contact_features`` and
the base network's hidden activations.

Probabilities are the cumulative 5-vector of the player on roll, before the roll. The
weights only fit the base network they were trained on: the encoding names it by a digest.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bgcore import _nn

from bgengine.evaluation.contact_features import ENCODING, ENCODING_VERSION, NUM_FEATURES, contact_features
from bgengine.evaluation.network_weights import dense_inputs, network_digest
from bgengine.evaluation.correction_network import OFFSET_FLOOR, corrected, load_network, logit, save_network, sigmoid


def base_digest(base: _nn.NeuralNet) -> str:
    """A short digest of the base network's weights (which the inputs depend on)."""
    return network_digest(base)


def contact_encoding(base: _nn.NeuralNet) -> dict[str, Any]:
    """The encoding name of the inputs made with ``base``."""
    return {"name": f"{ENCODING}+base-hidden", "version": ENCODING_VERSION, "base_network": base_digest(base)}


def contact_inputs(boards: np.ndarray, base: _nn.NeuralNet) -> tuple[np.ndarray, np.ndarray]:
    """(inputs, offsets) of (n, 26) boards: contact features then the base network's hidden
    activations; the logits of the base network's raw outputs."""
    boards = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 26)
    weights = base.arrays()
    encoded = dense_inputs(boards, base.encoding).astype(np.float64)
    hidden = sigmoid(encoded @ weights["hidden_weights"].astype(np.float64) + weights["hidden_bias"])
    inputs = np.concatenate([contact_features(boards).astype(np.float64), hidden], axis=1)
    return inputs, logit(base.raw_outputs(boards))


@dataclass(frozen=True, eq=False)
class ContactNetwork:
    """Contact probabilities: ``base``'s, corrected by trained weights."""

    parameters: dict[str, np.ndarray]
    architecture: dict[str, Any]
    record: dict[str, Any]
    base: _nn.NeuralNet

    @classmethod
    def from_file(cls, path: str | Path, base: _nn.NeuralNet) -> ContactNetwork:
        """Load a weights file, refusing one made for another base network or other inputs."""
        return cls(*load_network(path, contact_encoding(base), NUM_FEATURES + base.num_hidden), base)

    def evaluate_batch(self, boards: np.ndarray) -> np.ndarray:
        """(n, 5) consistent probabilities of (n, 26) boards."""
        inputs, offsets = contact_inputs(boards, self.base)
        return corrected(self.parameters, inputs, offsets)


def save_contact_network(path: str | Path, parameters: dict[str, np.ndarray], record: dict[str, Any],
                         base: _nn.NeuralNet) -> None:
    """Write a contact correction network's weights file."""
    save_network(path, parameters, record, contact_encoding(base),
                 f"logit of the base network's raw outputs clipped to [{OFFSET_FLOOR}, 1 - {OFFSET_FLOOR}]")

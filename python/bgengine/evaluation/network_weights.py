"""The engine's own network (``bgcore._nn``) seen from numpy: its dense inputs, its weights
as trainable float64 parameters, its weights file, and widening to a longer encoding.

Parameters follow ``correction_network`` (``output_weights`` is hidden x 5), the forward
pass the supervised trainer fits; with no offsets it is the C network's forward pass (the
C one takes the hidden sigmoid from a table, within 3e-6). The weights file is the shipped
format (``output_weights`` 5 x hidden, float32, ``encoding``: the input encoding, 1 when
absent as in files written before encoding 2, ``position_class``: the class of positions
the engine gives the network, "contact" when absent, and a JSON ``record``), which
``load_network`` (and ``NetworkEvaluator.from_file``) reads.

Each encoding starts with the previous one's inputs (encoding 2 with encoding 1's 211,
encoding 3 with encoding 2's 227), so ``widened`` turns a network into one of a later
encoding with the same outputs: zero rows for the new inputs. ``side_by_side`` turns two
networks into one whose output logits are their weighted average.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from bgcore import _nn

from bgengine.errors import NetworkClassError, NetworkEncodingError

ENCODINGS = (1, 2, 3)
#: The position classes the engine has a network slot for (``bgcore._engine``'s dispatch):
#: "contact" (every position with contact when there is no crashed network) and "crashed".
NETWORK_CLASSES = ("contact", "crashed")


def network_encoding(encoding: int = 1) -> dict[str, Any]:
    """The record of an input encoding, as weights files and fit records name it."""
    return {"name": "bgcore._nn", "encoding": encoding, "inputs": _nn.num_inputs(checked_encoding(encoding))}


def checked_encoding(encoding: Any) -> int:
    """``encoding`` if it is one the network knows, else NetworkEncodingError."""
    if isinstance(encoding, bool) or not isinstance(encoding, (int, np.integer)) or int(encoding) not in ENCODINGS:
        raise NetworkEncodingError(f"network input encoding must be one of {ENCODINGS}, got {encoding!r}")
    return int(encoding)


def dense_inputs(boards: np.ndarray, encoding: int = 1) -> np.ndarray:
    """(n, inputs of ``encoding``) float32 network inputs of (n, 26) boards (player on roll's view)."""
    boards = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 26)
    return _nn.encode_boards(boards, checked_encoding(encoding))


def widened(network: _nn.NeuralNet, encoding: int) -> _nn.NeuralNet:
    """``network`` taking ``encoding`` (at least its own), with zero weights for the inputs it
    did not have: the same outputs on every board. The network itself when nothing changes."""
    encoding = checked_encoding(encoding)
    if encoding == network.encoding:
        return network
    if encoding < network.encoding:
        raise NetworkEncodingError(f"cannot narrow a network of encoding {network.encoding} to encoding {encoding}")
    arrays = network.arrays()
    rows = np.zeros((_nn.num_inputs(encoding), network.num_hidden), dtype=np.float32)
    rows[: network.num_inputs] = arrays["hidden_weights"]
    return _nn.NeuralNet(rows, arrays["hidden_bias"], arrays["output_weights"], arrays["output_bias"], encoding)


def side_by_side(first: dict[str, np.ndarray], second: dict[str, np.ndarray],
                 first_share: float = 0.5) -> dict[str, np.ndarray]:
    """One network whose output logits are ``first_share`` of ``first``'s plus the rest of
    ``second``'s: both hidden layers side by side, each one's output weights scaled by its share.

    An average of two networks fitted apart (their errors partly independent) as one wider
    network that the C kernel runs as it is. Trainer-oriented one-layer parameters
    (``network_parameters``) of the same inputs.
    """
    if not 0.0 < first_share < 1.0:
        raise ValueError(f"the first network's share is in (0, 1), not {first_share}")
    if first["hidden_weights"].shape[0] != second["hidden_weights"].shape[0]:
        raise NetworkEncodingError(f"the networks take {first['hidden_weights'].shape[0]} and "
                                   f"{second['hidden_weights'].shape[0]} inputs: widen one first")
    if any("hidden2_weights" in parameters for parameters in (first, second)):
        raise ValueError("side_by_side takes one-hidden-layer networks")
    shares = (first_share, 1.0 - first_share)
    return {"hidden_weights": np.concatenate([first["hidden_weights"], second["hidden_weights"]], axis=1),
            "hidden_bias": np.concatenate([first["hidden_bias"], second["hidden_bias"]]),
            "output_weights": np.concatenate([shares[0] * first["output_weights"],
                                              shares[1] * second["output_weights"]], axis=0),
            "output_bias": shares[0] * first["output_bias"] + shares[1] * second["output_bias"]}


def checked_network_class(position_class: Any) -> str:
    """``position_class`` if the engine has a network slot for it, else NetworkClassError."""
    if position_class not in NETWORK_CLASSES:
        raise NetworkClassError(f"a network's position class must be one of {NETWORK_CLASSES}, got {position_class!r}")
    return str(position_class)


def network_arrays(network: _nn.NeuralNet, position_class: str = "contact") -> dict[str, np.ndarray]:
    """The arrays a weights file (or a training checkpoint) holds of a network for ``position_class``."""
    return {**network.arrays(), "encoding": np.array(network.encoding),
            "position_class": np.array(checked_network_class(position_class))}


def weights_class(path: str | Path) -> str:
    """The position class a weights file's network is for ("contact" when the file does not say)."""
    with np.load(path) as data:
        return _class_in(data, path)


def _class_in(data: Any, path: str | Path) -> str:
    if "position_class" not in data.files:
        return "contact"
    found = str(data["position_class"])
    if found not in NETWORK_CLASSES:
        raise NetworkClassError(f"{path}: unknown position class {found!r} (known: {NETWORK_CLASSES})")
    return found


def load_network(path: str | Path, encoding: int | None = None, position_class: str | None = None) -> _nn.NeuralNet:
    """The network of a weights file or checkpoint; NetworkEncodingError when ``encoding`` is
    given and the file's is another, or the file's weights do not fit its encoding;
    NetworkClassError when ``position_class`` is given and the file's network is for another."""
    with np.load(path) as data:
        found = checked_encoding(int(data["encoding"])) if "encoding" in data.files else 1
        found_class = _class_in(data, path)
        arrays = {name: data[name] for name in ("hidden_weights", "hidden_bias", "output_weights", "output_bias")}
    if position_class is not None and checked_network_class(position_class) != found_class:
        raise NetworkClassError(f"{path}: the network is for {found_class} positions, not {position_class} ones")
    if encoding is not None and checked_encoding(encoding) != found:
        raise NetworkEncodingError(f"{path}: the network takes input encoding {found}, not {encoding}")
    rows = arrays["hidden_weights"].shape[0] if arrays["hidden_weights"].ndim == 2 else None
    if rows != _nn.num_inputs(found):
        raise NetworkEncodingError(
            f"{path}: input encoding {found} has {_nn.num_inputs(found)} inputs, the hidden weights {rows} rows")
    return _nn.NeuralNet(**arrays, encoding=found)


def network_digest(network: _nn.NeuralNet) -> str:
    """The first 16 hex digits of the SHA-256 of a network's float32 weights (its identity)."""
    digest = hashlib.sha256()
    for array in network.arrays().values():
        digest.update(np.ascontiguousarray(array, dtype=np.float32).tobytes())
    return digest.hexdigest()[:16]


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


def save_network_weights(path: str | Path, parameters: dict[str, np.ndarray], record: dict[str, Any],
                         position_class: str = "contact") -> None:
    """Write trainer-oriented parameters as an evaluator weights file for ``position_class``
    with its record (which names the class too)."""
    record = {**record, "position_class": checked_network_class(position_class)}
    arrays: dict[str, Any] = {**network_arrays(network_from_parameters(parameters), position_class),
                              "record": np.array(json.dumps(record, sort_keys=True))}
    np.savez_compressed(Path(path), **arrays)

"""The race network: a correction network (``correction_network``) on ``race_features``
whose base is the race approximation: its output logits are the network's plus the logits
of the approximation's 5-vector (which is also among its inputs). A gammon or backgammon
the approximation puts at exactly 0 (the loser has borne off, or has no checker left to be
caught) stays 0.

Probabilities are the cumulative 5-vector (win, win gammon, win backgammon, lose gammon,
lose backgammon) of the player on roll, before the roll.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from bgcore import _race_net

from bgengine.evaluation import bearoff
from bgengine.evaluation.correction_network import OFFSET_FLOOR, corrected, load_network, logit, save_network
from bgengine.evaluation.race_features import (ENCODING, ENCODING_VERSION, NUM_FEATURES, VERSIONS, feature_names,
                                               race_features)

RACE_WEIGHTS_RESOURCE = "data/race_weights.npz"
RACE_ENCODING = {"name": ENCODING, "version": ENCODING_VERSION}
APPROXIMATION = slice(NUM_FEATURES - 5, NUM_FEATURES)  # race_features' last five: the race approximation
#: Encoding version of a network by its number of inputs (older weights keep working).
VERSION_OF_INPUTS = {len(feature_names(version)): version for version in VERSIONS}


def race_offsets(features: np.ndarray) -> np.ndarray:
    """The race network's output offsets: the logits of the race approximation's 5-vector
    (the last five features), so the network starts from it and learns what it misses."""
    return logit(np.asarray(features, dtype=np.float64)[:, -5:])


def with_contact(boards: np.ndarray) -> np.ndarray:
    """True where a checker of the player on roll (slots 1..25) is behind one of the
    opponent's (slots 0..24)."""
    signed = np.asarray(boards, dtype=np.int16).reshape(-1, 26)
    slots = np.arange(26)
    mover_top = np.where(signed > 0, slots, -1).max(axis=1)
    opponent_bottom = np.where(signed < 0, slots, 99).min(axis=1)
    return mover_top > opponent_bottom  # type: ignore[no-any-return]


def outside_exact_table(boards: np.ndarray) -> np.ndarray:
    """True for boards without contact that the exact two-sided table does not cover.

    The two-sided table covers both sides home with at most
    ``bearoff.DEFAULT_TWO_SIDED_CHECKERS`` checkers each.
    """
    signed = np.asarray(boards, dtype=np.int16).reshape(-1, 26)
    mover_home = (np.maximum(signed[:, 7:], 0).sum(axis=1) == 0)
    opponent_home = (np.maximum(-signed[:, :19], 0).sum(axis=1) == 0)
    limit = bearoff.DEFAULT_TWO_SIDED_CHECKERS
    small = (np.maximum(signed, 0).sum(axis=1) <= limit) & (np.maximum(-signed, 0).sum(axis=1) <= limit)
    finished = (np.maximum(signed, 0).sum(axis=1) == 0) | (np.maximum(-signed, 0).sum(axis=1) == 0)
    return ~with_contact(signed) & ~(mover_home & opponent_home & small) & ~finished


@dataclass(frozen=True, eq=False)
class RaceNetwork:
    """Race probabilities from trained weights (see the module docstring for the file)."""

    parameters: dict[str, np.ndarray]
    architecture: dict[str, Any]
    record: dict[str, Any]

    @classmethod
    def from_file(cls, path: str | Path) -> RaceNetwork:
        """Load a weights file of any supported encoding version (``VERSIONS``), refusing
        one made for other input features."""
        version = encoding_version_of(path)
        return cls(*load_network(path, {"name": ENCODING, "version": version}, len(feature_names(version))))

    @property
    def encoding_version(self) -> int:
        """The race-features version the weights were made for (by their number of inputs)."""
        rows = int(self.parameters["hidden_weights"].shape[0])
        if rows not in VERSION_OF_INPUTS:
            raise ValueError(f"a race network has {sorted(VERSION_OF_INPUTS)} inputs, this one {rows}")
        return VERSION_OF_INPUTS[rows]

    def evaluate_batch(self, boards: np.ndarray) -> np.ndarray:
        """(n, 5) consistent probabilities of (n, 26) race boards (no contact), in numpy
        (the reference the trainer fits; the engine runs ``c_network``)."""
        features = race_features(boards, self.encoding_version).astype(np.float64)
        values = corrected(self.parameters, features, race_offsets(features))
        values[:, 1:][features[:, -4:] == 0.0] = 0.0  # gammons the race can no longer bring
        return values

    @functools.cached_property
    def c_network(self) -> _race_net.RaceNet:
        """The same network in C (``bgcore._race_net``) on the default race tables, for the
        engine's kernels: equal inputs, outputs equal to float32 precision; exact values
        for boards in the two-sided table and finished games."""
        p = self.parameters
        return _race_net.RaceNet(p["hidden_weights"], p["hidden_bias"], p["output_weights"].T, p["output_bias"],
                                 bearoff.race_tables(), bearoff.one_sided_table(bearoff.HOME_POINTS).first_expected,
                                 self.encoding_version)


def encoding_version_of(path: str | Path) -> int:
    """The race-features version a weights file was made for (ValueError when it was made
    for other inputs or a version this bgengine does not compute)."""
    with np.load(path) as data:
        found = json.loads(str(data["encoding"]))
    if found.get("name") != ENCODING or found.get("version") not in VERSIONS:
        raise ValueError(f"{path}: made for inputs {found}, this bgengine computes {ENCODING} versions {VERSIONS}")
    return int(found["version"])


def save_race_network(path: str | Path, parameters: dict[str, np.ndarray], record: dict[str, Any],
                      version: int = ENCODING_VERSION) -> None:
    """Write a race network's weights file (made for race-features ``version``)."""
    inputs = len(feature_names(version))
    save_network(path, parameters, record, {"name": ENCODING, "version": version},
                 f"logit of inputs {inputs - 5}..{inputs - 1} (the race approximation)"
                 f" clipped to [{OFFSET_FLOOR}, 1 - {OFFSET_FLOOR}]")


def shipped_race_network() -> RaceNetwork:
    """The race network shipped in the package."""
    with resources.as_file(resources.files("bgengine").joinpath(RACE_WEIGHTS_RESOURCE)) as path:
        return RaceNetwork.from_file(path)

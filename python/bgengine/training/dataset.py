"""The on-disk format of the training database: sharded ``.npz`` files, written atomically.

A shard holds ``boards`` (int8[N, 26], the core's layout, player on roll's view, before the
roll), ``classes`` (int8[N], ``PositionClass``), ``tags`` (uint8[N], ``Tag`` bits) and a
``meta`` JSON string (the run seed, shard index, and the settings that made it). A label
shard adds ``probabilities`` (float64[N, 5], the rollout's mean cubeless 5-vector: win,
win gammon, win backgammon, lose gammon, lose backgammon), ``standard_errors`` (float64[N, 5])
and ``equity_standard_errors`` (float64[N]), ``seeds`` (uint64[N], each position's rollout
seed), ``trials`` (int32[N]) and ``seconds`` (float32[N], wall time of each rollout: the
only field that differs when a shard is made again). Shards are written to a temporary
file and renamed, so a shard that exists is complete: a killed job restarts by skipping
finished shards.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = "bgengine.training-shard/1"
LABEL_FIELDS = ("probabilities", "standard_errors", "equity_standard_errors", "seeds", "trials", "seconds")


@dataclass
class Shard:
    """One shard in memory: positions, and their labels once they are rolled out."""

    boards: np.ndarray
    classes: np.ndarray
    tags: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)
    probabilities: np.ndarray | None = None
    standard_errors: np.ndarray | None = None
    equity_standard_errors: np.ndarray | None = None
    seeds: np.ndarray | None = None
    trials: np.ndarray | None = None
    seconds: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.boards)

    @property
    def labelled(self) -> bool:
        """True when the shard carries rollout labels."""
        return self.probabilities is not None


def shard_path(directory: Path, index: int) -> Path:
    """Where shard ``index`` of a directory lives (names sort in index order)."""
    return Path(directory) / f"shard-{index:05d}.npz"


def save_shard(path: Path, shard: Shard) -> None:
    """Write a shard atomically: to a temporary file in the same directory, then rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {
        "boards": np.asarray(shard.boards, dtype=np.int8).reshape(-1, 26),
        "classes": np.asarray(shard.classes, dtype=np.int8),
        "tags": np.asarray(shard.tags, dtype=np.uint8),
        "meta": np.array(json.dumps({"format": FORMAT, **shard.meta}, sort_keys=True)),
    }
    if shard.labelled:
        arrays["probabilities"] = np.asarray(shard.probabilities, dtype=np.float64)
        arrays["standard_errors"] = np.asarray(shard.standard_errors, dtype=np.float64)
        arrays["equity_standard_errors"] = np.asarray(shard.equity_standard_errors, dtype=np.float64)
        arrays["seeds"] = np.asarray(shard.seeds, dtype=np.uint64)
        arrays["trials"] = np.asarray(shard.trials, dtype=np.int32)
        arrays["seconds"] = np.asarray(shard.seconds, dtype=np.float32)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "wb") as handle:
        np.savez_compressed(handle, **arrays)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def load_shard(path: Path) -> Shard:
    """Read a shard written by ``save_shard``."""
    with np.load(Path(path)) as data:
        meta = json.loads(str(data["meta"]))
        if meta.get("format") != FORMAT:
            raise ValueError(f"{path}: not a {FORMAT} file (format {meta.get('format')!r})")
        labels = {name: data[name] for name in LABEL_FIELDS if name in data}
        return Shard(data["boards"], data["classes"], data["tags"], meta, **labels)


def shard_paths(directory: Path) -> list[Path]:
    """The finished shards of a directory, in index order."""
    return sorted(Path(directory).glob("shard-*.npz"))

"""Labelled positions of one class gathered from label shards, split by shard.

A shard's role depends only on its index and the split period ``every`` (default 10):
``index % every == every - 1`` is held out for testing, ``index % every == every - 2``
validates (early stopping), the rest train. Splitting by shard, never
by position, keeps the near-duplicates of one game together. A board is kept once, in the
strictest role it appears in (test, then validation, then training), and boards of the
truth set are dropped everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bgengine.training.dataset import load_shard, shard_paths
from bgengine.training.siblings import NO_GROUP, sibling_groups

TRAIN, VALIDATION, TEST = "train", "validation", "test"
ROLES = (TEST, VALIDATION, TRAIN)  # the order in which duplicates are claimed


SPLIT_EVERY = 10


def shard_role(index: int, every: int = SPLIT_EVERY) -> str:
    """The role of shard ``index`` (the same for every label directory)."""
    if every < 3:
        raise ValueError(f"the split period must be at least 3, got {every}")
    return {every - 1: TEST, every - 2: VALIDATION}.get(index % every, TRAIN)


def shard_index(path: Path) -> int:
    """The index in a shard's name (``shard-00012.npz`` -> 12)."""
    return int(Path(path).stem.split("-")[1])


@dataclass
class Split:
    """Boards (n, 26) int8, targets (n, 5), their stored classes (n,) int8
    (``classes.PositionClass``) and where they came from, for one role. ``counted`` (n, 5):
    which of each position's labels the loss counts (None: all of them). ``groups`` (n,):
    each position's sibling group (``siblings.sibling_groups``, made unique across shards; -1
    none), when asked for."""

    boards: np.ndarray
    targets: np.ndarray
    classes: np.ndarray
    sources: list[str] = field(default_factory=list)  # one "directory/shard-i.npz (seed s)" per shard used
    counted: np.ndarray | None = None
    groups: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.boards)


#: The labels a gammons-only directory's positions count: the four gammon rates, not the win rate.
GAMMON_OUTPUTS = np.array([0, 1, 1, 1, 1], dtype=np.float64)


def gather(directories: list[Path], classes: tuple[int, ...], exclude: set[bytes] | None = None,
           every: int = SPLIT_EVERY, repeats: dict[Path, int] | None = None,
           gammons_only: set[Path] | None = None, siblings: bool = False) -> dict[str, Split]:
    """The positions of ``classes`` in the label shards of ``directories``, by role.

    ``repeats``: a directory's training and validation positions are kept that many times
    (the weight of its labels in the loss that is fitted and the one that stops the fit);
    the test split keeps each board once (errors per position).
    ``gammons_only``: directories whose labels count for the gammon rates alone (rollouts too
    short to value the win rate, kept to ground the gammon rates in game outcomes); they add
    training and validation positions only, so the test split's errors stay comparable.
    ``siblings``: give each split its positions' sibling groups (each repeat of a directory
    its own groups).
    """
    repeats = {Path(directory): count for directory, count in (repeats or {}).items()}
    if any(count < 1 for count in repeats.values()):
        raise ValueError(f"repeats must be at least 1, got {sorted(repeats.values())}")
    gammon_directories = {Path(directory) for directory in (gammons_only or ())}
    claimed = set(exclude or ())
    pieces: dict[str, list[tuple[str, np.ndarray, np.ndarray, np.ndarray, int, bool, np.ndarray]]] = {
        role: [] for role in ROLES}
    for directory in directories:
        gammon_labels = Path(directory) in gammon_directories
        for path in shard_paths(directory):
            shard = load_shard(path)
            role = shard_role(shard_index(path), every)
            if not shard.labelled or (gammon_labels and role == TEST):
                continue
            assert shard.probabilities is not None
            mask = np.isin(shard.classes, classes)
            name = f"{path.parent.parent.name}/{path.parent.name}/{path.name} (seed {shard.meta.get('label_seed')})"
            times = repeats.get(Path(directory), 1) if role != TEST else 1
            shard_groups = sibling_groups(shard)[mask] if siblings else np.full(int(mask.sum()), NO_GROUP)
            pieces[role].append((name + (f" x{times}" if times > 1 else "") + (" gammons only" if gammon_labels else ""),
                                 shard.boards[mask], shard.probabilities[mask], shard.classes[mask], times, gammon_labels,
                                 shard_groups))
    splits = {}
    next_group = 0
    for role in ROLES:
        boards, targets, kinds, counted, sources, groups = [], [], [], [], [], []
        for name, shard_boards, shard_targets, shard_classes, times, gammon_labels, shard_groups in pieces[role]:
            keep = []
            for i, board in enumerate(shard_boards):
                key = board.tobytes()
                if key not in claimed:
                    claimed.add(key)
                    keep.append(i)
            span = int(shard_groups.max()) + 1 if len(shard_groups) else 0
            for copy in range(times):  # each repeat its own groups: a copy is no sibling of itself
                kept_groups = shard_groups[keep]
                groups.append(np.where(kept_groups >= 0, kept_groups + next_group, NO_GROUP))
                next_group += span
            keep = keep * times
            boards.append(shard_boards[keep])
            targets.append(shard_targets[keep])
            kinds.append(shard_classes[keep])
            counted.append(np.tile(GAMMON_OUTPUTS if gammon_labels else np.ones(5), (len(keep), 1)))
            sources.append(name)
        splits[role] = Split(np.concatenate(boards) if boards else np.zeros((0, 26), np.int8),
                             np.concatenate(targets) if targets else np.zeros((0, 5)),
                             np.concatenate(kinds) if kinds else np.zeros(0, np.int8), sources,
                             np.concatenate(counted) if gammon_directories and counted else None,
                             (np.concatenate(groups) if groups else np.zeros(0, np.int64)) if siblings else None)
    return splits


def truth_boards(path: Path | None) -> set[bytes]:
    """The boards of the truth set's ``positions.npz`` (none for ``None``). A path that does not
    exist is an error, not an empty set: a fit that silently kept the truth boards would be
    scored on its own training data (an installed package has no benchmarks/ beside it)."""
    if path is None:
        return set()
    if not Path(path).exists():
        raise FileNotFoundError(f"truth-set positions {path} not found: pass --truth PATH from a checkout,"
                                " or --no-truth when there is no truth set to leave out")
    return {board.tobytes() for board in load_shard(path).boards}

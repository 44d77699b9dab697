"""The race network's training job: gather race labels, fit, write weights and their record.

``python -m bgengine.training fit --class race --out DIR --seed S`` reads the label shards
(default: the training set's and the race-only job's), drops truth-set boards, splits by
shard (``corpus.shard_role``), trains with ``supervised.fit`` (checkpoint ``DIR/checkpoint.npz``;
run the same command again to resume) and writes ``DIR/race_weights.npz`` with
``DIR/race_weights.md``, which also compares the network and the race approximation on the
held-out test shards.
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from bgengine.evaluation.race import RaceEvaluator
from bgengine.evaluation.race_features import ENCODING, ENCODING_VERSION, race_features
from bgengine.evaluation.race_network import consistent, forward, race_offsets, save_race_network, sigmoid

from bgengine.training.classes import PositionClass
from bgengine.training.corpus import TEST, TRAIN, VALIDATION, Split, gather, truth_boards
from bgengine.training.errors import mean_absolute_errors
from bgengine.training.supervised import Examples, FitSettings, fit

DEFAULT_DATA = [Path("/work/data/bgengine/labels"), Path("/work/data/bgengine/race/labels")]
DEFAULT_TRUTH = Path("/work/data/bgengine/truth/positions.npz")


def network_estimates(parameters: dict[str, np.ndarray], boards: np.ndarray) -> np.ndarray:
    """The network's consistent 5-vectors of race boards."""
    features = race_features(boards).astype(np.float64)
    return consistent(sigmoid(forward(parameters, features, race_offsets(features))[1]))


def race_examples(split: Split) -> Examples:
    """The race network's training examples of a split: features, labels, approximation logits."""
    features = race_features(split.boards)
    return Examples(features, split.targets, race_offsets(features))


def held_out_report(parameters: dict[str, np.ndarray], test: Split) -> dict[str, Any]:
    """Mean absolute errors of the network and of the race approximation on the test split."""
    return {
        "network": mean_absolute_errors(network_estimates(parameters, test.boards), test.targets),
        "race_approximation": mean_absolute_errors(RaceEvaluator().evaluate_batch(test.boards), test.targets),
    }


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=Path(__file__).parent, check=False).stdout.strip()
    except OSError:
        return ""


def fit_race(out: Path, settings: FitSettings, directories: list[Path], truth: Path,
             log: Callable[[str], None]) -> dict[str, Any]:
    """Run (or resume) the whole job; the record written beside the weights."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    splits = gather(directories, PositionClass.RACE, truth_boards(truth))
    log(" ".join(f"{role}={len(splits[role])}" for role in (TRAIN, VALIDATION, TEST)))
    started = time.process_time()
    state = fit(race_examples(splits[TRAIN]), race_examples(splits[VALIDATION]), settings,
                checkpoint=out / "checkpoint.npz", log=log)
    record: dict[str, Any] = {
        "command": " ".join(["python -m bgengine.training", *sys.argv[1:]]),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": _commit(),
        "encoding": {"name": ENCODING, "version": ENCODING_VERSION},
        "settings": asdict(settings),
        "loss": "binary cross-entropy of each of the 5 outputs, summed, mean over positions",
        "data": {role: {"positions": len(splits[role]), "shards": splits[role].sources}
                 for role in (TRAIN, VALIDATION, TEST)},
        "truth_set_excluded": str(truth),
        "epochs": state.epoch, "best_epoch": state.best_epoch, "best_validation_loss": state.best_loss,
        "history": [[round(a, 6), round(b, 6)] for a, b in state.history],
        "cpu_seconds_this_call": round(time.process_time() - started, 1),
        "held_out": held_out_report(state.best, splits[TEST]) if len(splits[TEST]) else None,
    }
    save_race_network(out / "race_weights.npz", state.best, record)
    (out / "race_weights.md").write_text(record_markdown(record))
    log(f"held out: {json.dumps(record['held_out'])}")
    return record


def record_markdown(record: dict[str, Any]) -> str:
    """The human-readable record written beside the weights."""
    lines = [
        "# Race network weights",
        "",
        f"Made by `{record['command']}` at commit {record['commit']} on {record['date']}.",
        f"Inputs: `{record['encoding']['name']}` version {record['encoding']['version']}"
        " (`bgengine/evaluation/race_features.py`); one sigmoid hidden layer of"
        f" {record['settings']['hidden']} units, 5 sigmoid outputs.",
        f"Loss: {record['loss']}. Adam, settings: `{json.dumps(record['settings'])}`.",
        f"Epochs run: {record['epochs']}; weights of epoch {record['best_epoch']}"
        f" (best validation loss {record['best_validation_loss']:.6f}).",
        "",
        "| split | positions | shards |",
        "| --- | --- | --- |",
    ]
    for role, data in record["data"].items():
        lines.append(f"| {role} | {data['positions']} | {len(data['shards'])} |")
    if record["held_out"]:
        lines += ["", "Held-out test shards, mean absolute error against the rollout labels:", "",
                  "| estimator | n | equity | win | win gammon | lose gammon |", "| --- | --- | --- | --- | --- | --- |"]
        for name, errors in record["held_out"].items():
            lines.append(f"| {name} | {errors['n']} | {errors['equity']:.4f} | {errors['win']:.4f} |"
                         f" {errors['win_gammon']:.4f} | {errors['lose_gammon']:.4f} |")
    lines += ["", "Shards by split:", ""]
    for role, data in record["data"].items():
        lines.append(f"* {role}: " + ", ".join(data["shards"]))
    lines += ["", "Loss per epoch (train, validation): "
              + "; ".join(f"{i + 1}: {a:.5f}, {b:.5f}" for i, (a, b) in enumerate(record["history"])), ""]
    return "\n".join(lines)

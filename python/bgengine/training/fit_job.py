"""The supervised training job: gather labels of a network's classes, fit, write weights
and their record.

``python -m bgengine.training fit --class race|contact --out DIR --seed S`` reads the label
shards (default: the training set's and the race-only job's), drops truth-set boards,
splits by shard (``corpus.shard_role``), trains with ``supervised.fit`` (checkpoint
``DIR/checkpoint.npz``; run the same command again to resume) and writes
``DIR/<kind>_weights.npz`` with ``DIR/<kind>_weights.md``, which also compares the network
and the estimate it corrects on the held-out test shards.

Kinds: ``race`` (race positions; corrects the race approximation, inputs ``race_features``),
``contact`` (contact and crashed positions; corrects the engine's TD network, inputs
``contact_features`` and that network's hidden activations) and ``evaluator`` (the engine's
own network itself, on contact and crashed positions, the ones the engine values with it
(races go to the race tables), its inputs (``--encoding``: 1, the 211 inputs, 2, those
and the contact units, or 3, those and the structure units), no base estimate: with
``--init`` it fine-tunes given weights (widened to the encoding with zero weights for the
inputs they lack), e.g. towards the engine's n-ply labels of the ``distill`` job; its
weights file is the shipped format).
``--position-class`` (evaluator only) keeps the labelled positions of one class:
``all`` (contact and crashed, the default), ``contact`` (both write ``evaluator_weights.npz``,
a network for the engine's contact slot) or ``crashed`` (``crashed_weights.npz``, for the
crashed slot). The record holds the held-out errors of the whole test split and of each
class in it.
"""

from __future__ import annotations

import datetime
import functools
import json
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bgengine.evaluation.contact_network import contact_encoding, contact_inputs, save_contact_network
from bgengine.evaluation.correction_network import Parameters, corrected
from bgengine.evaluation.evaluator import default_evaluator
from bgengine.evaluation.race import RaceEvaluator
from bgengine.evaluation.race_features import ENCODING_VERSION, race_features
from bgengine.evaluation.network_weights import (dense_inputs, load_network, network_encoding, network_parameters,
                                                 save_network_weights, widened)
from bgengine.evaluation.race_network import RACE_ENCODING, race_offsets, save_race_network

from bgengine.training.classes import PositionClass, possible_outcomes
from bgengine.training.corpus import SPLIT_EVERY, TEST, TRAIN, VALIDATION, Split, gather, truth_boards
from bgengine.training.errors import mean_absolute_errors
from bgengine.training.labels import weights_digest
from bgengine.training.supervised import Examples, FitSettings, fit

DEFAULT_DATA = [Path("/work/data/bgengine/labels"), Path("/work/data/bgengine/race/labels")]
LOSS_TEXT = {"cross_entropy": "binary cross-entropy of each of the 5 outputs, summed, mean over positions",
             "equity_squared": "squared cubeless equity error plus the summed squared errors of the 5 outputs,"
                               " mean over positions"}
DISTILL_DATA = [Path("/work/data/bgengine/distill/labels")]
#: The truth set's positions, kept in the repository's benchmarks (never trained on).
DEFAULT_TRUTH = Path(__file__).resolve().parents[3] / "benchmarks" / "data" / "truth" / "positions.npz"


@dataclass(frozen=True)
class NetworkKind:
    """What one kind of network is trained on, its inputs, and the estimate it corrects."""

    name: str
    classes: tuple[int, ...]
    inputs: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray | None]]  # boards -> (inputs, offsets)
    save: Callable[[Path, Parameters, dict[str, Any]], None]
    encoding: Callable[[], dict[str, Any]]
    baseline: Callable[[np.ndarray], np.ndarray]  # boards -> the corrected estimate's 5-vectors
    baseline_name: str
    default_data: tuple[Path, ...] = tuple(DEFAULT_DATA)
    network_encoding: int = 1  # the input encoding of the engine's network (kind ``evaluator``)
    weights_name: str = ""  # the weights file's stem (default: "<name>_weights")

    @property
    def file_stem(self) -> str:
        """The weights and record files' name without suffix."""
        return self.weights_name or f"{self.name}_weights"


def race_kind(version: int = ENCODING_VERSION) -> NetworkKind:
    """The race network on race-features ``version`` (1 or 2), correcting the race approximation."""
    def inputs(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        features = race_features(boards, version)
        return features, race_offsets(features)

    return NetworkKind("race", (PositionClass.RACE,), inputs, functools.partial(save_race_network, version=version),
                       lambda: {"name": RACE_ENCODING["name"], "version": version},
                       lambda boards: RaceEvaluator().evaluate_batch(boards), "race_approximation")


def _base_network() -> Any:
    return default_evaluator().network


#: ``--position-class`` of the evaluator fit: the classes of the positions kept, and the
#: engine's network slot (``network_weights.NETWORK_CLASSES``) the weights are for.
POSITION_CLASSES: dict[str, tuple[tuple[int, ...], str]] = {
    "all": ((PositionClass.CONTACT, PositionClass.CRASHED), "contact"),
    "contact": ((PositionClass.CONTACT,), "contact"),
    "crashed": ((PositionClass.CRASHED,), "crashed"),
}


def evaluator_kind(encoding: int = 1, position_class: str = "all") -> NetworkKind:
    """The engine's own network of input ``encoding`` (1, 2 or 3), on the distilled labels of
    ``position_class`` (a key of POSITION_CLASSES); compared with the shipped engine at
    0-ply (its contact network, and its crashed one when the package ships one)."""
    classes, slot = POSITION_CLASSES[position_class]
    return NetworkKind(
        "evaluator", classes,
        lambda boards: (dense_inputs(boards, encoding), None), functools.partial(save_network_weights, position_class=slot),
        lambda: network_encoding(encoding),
        lambda boards: default_evaluator().evaluate_batch(boards), "shipped_network_0ply", tuple(DISTILL_DATA), encoding,
        "crashed_weights" if slot == "crashed" else "")


KINDS = {
    "race": race_kind(),
    "contact": NetworkKind(
        "contact", (PositionClass.CONTACT, PositionClass.CRASHED),
        lambda boards: contact_inputs(boards, _base_network()),
        lambda path, parameters, record: save_contact_network(path, parameters, record, _base_network()),
        lambda: contact_encoding(_base_network()),
        lambda boards: _base_network().evaluate(boards), "engine_network_0ply"),
    "evaluator": evaluator_kind(1),
}


def examples(kind: NetworkKind, split: Split) -> Examples:
    """The training examples of a split: inputs, labels, the corrected estimate's logits, and
    the outputs the rules leave open (labels made before the engine applied the gammon rule
    can hold gammons a side with a checker off can no longer lose: the loss ignores them), and
    of those only the ones the split counts (``Split.counted``: gammons-only labels)."""
    inputs, offsets = kind.inputs(split.boards)
    possible = possible_outcomes(split.boards)
    return Examples(inputs, split.targets, offsets, possible if split.counted is None else possible * split.counted,
                    split.groups)


def held_out_report(kind: NetworkKind, parameters: Parameters, test: Split) -> tuple[dict[str, Any], dict[str, Any]]:
    """Mean absolute errors of the network and of the estimate it corrects on the test
    split: over all of it, and by class ({"crashed": {...}, ...}, the classes present).
    Estimates and labels alike have the outcomes the rules exclude set to 0, as the engine
    answers them."""
    inputs, offsets = kind.inputs(test.boards)
    possible = possible_outcomes(test.boards)
    estimates = {"network": corrected(parameters, inputs, offsets) * possible,
                 kind.baseline_name: kind.baseline(test.boards) * possible}
    targets = test.targets * possible
    overall = {name: mean_absolute_errors(values, targets) for name, values in estimates.items()}
    by_class = {}
    for code in kind.classes:
        rows = test.classes == code
        if rows.any():
            by_class[PositionClass(code).name.lower()] = {
                name: mean_absolute_errors(values[rows], targets[rows]) for name, values in estimates.items()}
    return overall, by_class


def _weights_parameters(path: Path, encoding: int) -> Parameters:
    return network_parameters(widened(load_network(path), encoding))


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=Path(__file__).parent, check=False).stdout.strip()
    except OSError:
        return ""


def fit_network(kind: NetworkKind, out: Path, settings: FitSettings, directories: list[Path], truth: Path | None,
                log: Callable[[str], None], split_every: int = SPLIT_EVERY, init: Path | None = None,
                repeats: dict[Path, int] | None = None, gammons_only: set[Path] | None = None) -> dict[str, Any]:
    """Run (or resume) the whole job; the record written beside the weights. ``init``: an
    evaluator weights file the run starts from (kind ``evaluator`` only). ``repeats``: how many
    times the training and validation positions of some of ``directories`` count; ``gammons_only``:
    the directories whose labels count for the gammon rates alone (``corpus.gather``)."""
    if init is not None and kind.name != "evaluator":
        raise ValueError("--init applies to the evaluator network only")
    excluded = truth_boards(truth)  # before anything is written: a missing truth file leaves no run folder
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    splits = gather(directories, kind.classes, excluded, split_every, repeats, gammons_only,
                    siblings=settings.sibling_weight > 0)
    log(" ".join(f"{role}={len(splits[role])}" for role in (TRAIN, VALIDATION, TEST))
        + " (" + ", ".join(PositionClass(code).name.lower() for code in kind.classes) + ")")
    started = time.process_time()
    state = fit(examples(kind, splits[TRAIN]), examples(kind, splits[VALIDATION]), settings,
                checkpoint=out / "checkpoint.npz", log=log, start=None if init is None else _weights_parameters(init, kind.network_encoding))
    held_out, held_out_by_class = held_out_report(kind, state.best, splits[TEST]) if len(splits[TEST]) else (None, {})
    record: dict[str, Any] = {
        "command": " ".join(["python -m bgengine.training", *sys.argv[1:]]),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": _commit(),
        "kind": kind.name,
        "position_classes": [PositionClass(code).name.lower() for code in kind.classes],
        "encoding": kind.encoding(),
        "settings": asdict(settings),
        "initial_weights": None if init is None else {"path": str(init), "sha256_16": weights_digest(init)},
        "loss": LOSS_TEXT[settings.loss] + "; outputs the rules exclude (gammons of a side with a checker off) left out",
        "data": {role: {"positions": len(splits[role]), "shards": splits[role].sources}
                 for role in (TRAIN, VALIDATION, TEST)},
        "repeats": {str(directory): count for directory, count in (repeats or {}).items()},
        "gammons_only": sorted(str(directory) for directory in (gammons_only or ())),
        "truth_set_excluded": None if truth is None else str(truth),
        "split": f"by shard index: % {split_every} == {split_every - 1} test, == {split_every - 2} validation",
        "epochs": state.epoch, "best_epoch": state.best_epoch, "best_validation_loss": state.best_loss,
        "history": [[round(a, 6), round(b, 6)] for a, b in state.history],
        "cpu_seconds_this_call": round(time.process_time() - started, 1),
        "held_out": held_out,
        "held_out_by_class": held_out_by_class,
    }
    kind.save(out / f"{kind.file_stem}.npz", state.best, record)
    (out / f"{kind.file_stem}.md").write_text(record_markdown(record))
    log(f"held out: {json.dumps(record['held_out'])}")
    for name, errors in held_out_by_class.items():
        log(f"held out, {name}: {json.dumps(errors)}")
    return record


def record_markdown(record: dict[str, Any]) -> str:
    """The human-readable record written beside the weights."""
    lines = [
        f"# {record['kind'].capitalize()} network weights",
        "",
        f"Made by `{record['command']}` at commit {record['commit']} on {record['date']}.",
        f"Inputs: `{json.dumps(record['encoding'])}` (`bgengine/evaluation/`); one sigmoid hidden layer of"
        f" {record['settings']['hidden']} units, 5 sigmoid outputs "
        + (f"(the engine's own network, started from {json.dumps(record['initial_weights'])})."
           if record["kind"] == "evaluator" else "whose logits correct the estimate named below."),
        f"Loss: {record['loss']}. Adam, settings: `{json.dumps(record['settings'])}`.",
        f"Epochs run: {record['epochs']}; weights of epoch {record['best_epoch']}"
        f" (best validation loss {record['best_validation_loss']:.6f}).",
        f"Positions of the classes {', '.join(record['position_classes'])}; split {record['split']};"
        + (f" truth-set boards ({record['truth_set_excluded']}) dropped." if record["truth_set_excluded"]
           else " no truth set left out."),
        "",
        "| split | positions | shards |",
        "| --- | --- | --- |",
    ]
    for role, data in record["data"].items():
        lines.append(f"| {role} | {data['positions']} | {len(data['shards'])} |")
    if record["held_out"]:
        lines += ["", "Held-out test shards, mean absolute error against their labels:", "",
                  "| positions | estimator | n | equity | win | win gammon | lose gammon |",
                  "| --- | --- | --- | --- | --- | --- | --- |"]
        for positions, report in [("all", record["held_out"]), *record["held_out_by_class"].items()]:
            for name, errors in report.items():
                lines.append(f"| {positions} | {name} | {errors['n']} | {errors['equity']:.4f} | {errors['win']:.4f} |"
                             f" {errors['win_gammon']:.4f} | {errors['lose_gammon']:.4f} |")
    lines += ["", "Shards by split:", ""]
    for role, data in record["data"].items():
        lines.append(f"* {role}: " + ", ".join(data["shards"]))
    shown = sorted({*range(0, len(record["history"]), 10), record["best_epoch"] - 1, len(record["history"]) - 1})
    lines += ["", "Loss (train, validation) at epochs " + "; ".join(
        f"{i + 1}: {record['history'][i][0]:.5f}, {record['history'][i][1]:.5f}" for i in shown if i >= 0), ""]
    return "\n".join(lines)

"""Does a second layer lift the contact network above the distillation's floor?

Distilling the 2-ply search into the one-hidden-layer contact network has a floor: wider
layers, more data and other rates all end at the same validation loss (docs/evaluator.md,
"Session 19"). This probe fits networks of several shapes on the same labels, from random
weights or from given ones (``--init``: a second layer added to a one-layer network starts
with its outputs, ``supervised.layer_forward``), with the loss the shipped network was fitted
with (equity squared plus the sibling term), and compares them with the shipped network:

- on the contact positions of the label shards' held-out test split: mean absolute equity
  error, and the RMS of the differences between sibling plays' errors (what a move choice sees);
- in play: each network in the engine's contact slot (numpy; crashed positions and races as
  shipped) choosing at 0-ply on the judge sets, paired with the shipped engine without its
  choice network (both one-stage).

    python benchmarks/depth_probe.py --data D/distill-x18teach-c/labels --shapes 128 128x32 \\
        --init python/bgengine/data/evaluator_weights.npz --learning-rate 1e-4 --epochs 10 \\
        --seed 20261581 --runs D/probe --out benchmarks/results/depth_probe.json

``--blend 0.5`` also scores each fit averaged with the shipped network (half each) on contact
positions: if the two networks' errors are independent, the average plays better than either.

A shape is the layers' widths ("128x32": 128 units, then a second layer of 32 over them). The
runs resume from their checkpoints in ``--runs``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge import score_checker_decision  # noqa: E402
from judge_compare import mean, paired_differences  # noqa: E402
from judge_data import CHECKER_SETS, git_commit, read_judge_set  # noqa: E402

from bgcore import _engine  # noqa: E402
from bgengine.evaluation.correction_network import consistent, sigmoid  # noqa: E402
from bgengine.evaluation.evaluator import default_evaluator  # noqa: E402
from bgengine.evaluation.network_weights import dense_inputs, load_network, network_parameters, widened  # noqa: E402
from bgengine.training.classes import PositionClass, possible_outcomes  # noqa: E402
from bgengine.training.corpus import TEST, TRAIN, VALIDATION, gather, truth_boards  # noqa: E402
from bgengine.training.fit_job import DEFAULT_TRUTH, evaluator_kind, examples  # noqa: E402
from bgengine.training.supervised import (EQUITY_WEIGHTS, FitSettings, Parameters, fit, layer_forward,  # noqa: E402
                                          sibling_squared_differences)

ENCODING = 3  # the shipped contact network's inputs


def parsed_shape(text: str) -> tuple[int, int]:
    """(first, second) hidden widths of "128" or "128x32" (second 0: one hidden layer)."""
    widths = [int(part) for part in text.split("x")]
    if not 1 <= len(widths) <= 2 or min(widths) < 1:
        raise argparse.ArgumentTypeError(f"a shape is one or two positive widths like 128 or 128x32, not {text!r}")
    return widths[0], widths[1] if len(widths) == 2 else 0


def shape_name(shape: tuple[int, int]) -> str:
    return "x".join(str(width) for width in shape if width)


def blend_name(name: str, shipped_share: float) -> str:
    """The results' name of fit ``name`` blended with the shipped network at ``shipped_share``."""
    return f"{name}+shipped@{shipped_share:g}"


def network_probabilities(parameters: Parameters, boards: np.ndarray) -> np.ndarray:
    """(n, 5) probabilities of a fitted network on contact boards, as the engine answers them:
    clamped consistent, the outcomes the rules exclude cleared."""
    logits = layer_forward(parameters, dense_inputs(boards, ENCODING).astype(np.float64))[1]
    return consistent(sigmoid(logits)) * possible_outcomes(boards)


class ContactSlot:
    """The shipped engine at 0-ply with its contact-class positions valued by a numpy network
    (one stage: every play valued alike, so the comparisons leave the choice network out).

    ``shipped_share`` > 0 values them by a blend instead: that share of the shipped network's
    probabilities plus the rest of the fitted one's (an average of consistent vectors is
    consistent), to ask whether two networks' errors are independent enough to average out.
    """

    def __init__(self, parameters: Parameters, shipped_share: float = 0.0) -> None:
        if not 0.0 <= shipped_share < 1.0:
            raise ValueError(f"the shipped network's share is in [0, 1), not {shipped_share}")
        self.parameters = parameters
        self.shipped_share = shipped_share
        self.engine = default_evaluator()

    def evaluate(self, position: Any) -> np.ndarray:
        return self.evaluate_batch(np.asarray(position, dtype=np.int8)[None, :])[0]

    def evaluate_batch(self, boards: Any) -> np.ndarray:
        boards = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 26)
        values = self.engine.evaluate_batch(boards).astype(np.float64)
        contact = _engine.position_classes(boards) == _engine.CONTACT
        if contact.any():
            fitted = network_probabilities(self.parameters, boards[contact])
            values[contact] = self.shipped_share * values[contact] + (1.0 - self.shipped_share) * fitted
        return values


def held_out_measures(probabilities: np.ndarray, targets: np.ndarray, groups: np.ndarray) -> dict[str, float]:
    """Mean absolute equity error and the RMS of sibling plays' error differences."""
    errors = (probabilities - targets) @ EQUITY_WEIGHTS
    total, _, pairs = sibling_squared_differences(errors, groups)
    return {"equity_mae": float(np.abs(errors).mean()), "sibling_rms": math.sqrt(total / pairs) if pairs else math.nan,
            "positions": len(errors), "sibling_pairs": pairs}


def judged(evaluator: Any, decisions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each decision's score at 0-ply (``judge.score_checker_decision``)."""
    return [score_checker_decision(decision, 0, evaluator) for decision in decisions]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, nargs="+", required=True, help="label shard directories (distill)")
    parser.add_argument("--shapes", type=parsed_shape, nargs="+", default=[(128, 0), (128, 32)])
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--sibling-weight", type=float, default=3.0)
    parser.add_argument("--seed", type=int, required=True, help="initial weights and shuffles")
    parser.add_argument("--init", type=Path, help="start every fit from this one-layer network (default: random)")
    parser.add_argument("--sets", nargs="*", default=["large", "xl"], choices=tuple(CHECKER_SETS),
                        help="judge sets to play (none: skip the judge)")
    parser.add_argument("--runs", type=Path, required=True, help="folder of the fits' checkpoints")
    parser.add_argument("--blend", type=float, nargs="*", default=[],
                        help="also judge each fit blended with the shipped network, at these shares of the shipped one")
    parser.add_argument("--out", type=Path, help="write the results as JSON")
    args = parser.parse_args()

    kind = evaluator_kind(ENCODING, "contact")
    splits = gather(args.data, (PositionClass.CONTACT,), truth_boards(DEFAULT_TRUTH), siblings=True)
    print(" ".join(f"{role}={len(splits[role])}" for role in (TRAIN, VALIDATION, TEST)), flush=True)
    train, validation = examples(kind, splits[TRAIN]), examples(kind, splits[VALIDATION])
    test = splits[TEST]
    possible = possible_outcomes(test.boards)
    targets = test.targets * possible
    assert test.groups is not None
    shipped_test = default_evaluator().evaluate_batch(test.boards) * possible
    results: dict[str, Any] = {"command": " ".join(["python", *sys.argv]), "commit": git_commit(),
                               "data": [str(d) for d in args.data],
                               "positions": {role: len(splits[role]) for role in (TRAIN, VALIDATION, TEST)},
                               "held_out": {"shipped": held_out_measures(shipped_test, targets, test.groups)},
                               "fits": {}, "judge": {}}
    print(f"shipped: {results['held_out']['shipped']}", flush=True)
    args.runs.mkdir(parents=True, exist_ok=True)
    start = None if args.init is None else network_parameters(widened(load_network(args.init), ENCODING))
    results["init"] = None if args.init is None else str(args.init)
    fitted: dict[str, Parameters] = {}
    for shape in args.shapes:
        name = shape_name(shape)
        settings = FitSettings(seed=args.seed, loss="equity_squared", hidden=shape[0], hidden2=shape[1],
                               learning_rate=args.learning_rate, batch_size=args.batch_size, max_epochs=args.epochs,
                               patience=args.epochs, schedule="cosine", sibling_weight=args.sibling_weight)
        started = time.process_time()
        state = fit(train, validation, settings, checkpoint=args.runs / f"{name}.npz", start=start,
                    log=lambda line, name=name: print(f"{name} {line}", flush=True))
        fitted[name] = state.best
        results["fits"][name] = {"settings": settings.__dict__, "best_epoch": state.best_epoch,
                                 "best_validation_loss": state.best_loss, "history": state.history,
                                 "cpu_seconds_this_call": round(time.process_time() - started, 1)}
        fitted_test = network_probabilities(state.best, test.boards)
        results["held_out"][name] = held_out_measures(fitted_test, targets, test.groups)
        print(f"{name}: {results['held_out'][name]}", flush=True)
        for share in args.blend:
            blended = share * shipped_test + (1.0 - share) * fitted_test
            results["held_out"][blend_name(name, share)] = held_out_measures(blended, targets, test.groups)
            print(f"{blend_name(name, share)}: {results['held_out'][blend_name(name, share)]}", flush=True)
    for set_name in args.sets:
        decisions = read_judge_set(CHECKER_SETS[set_name])[1]
        shipped = judged(default_evaluator(use_choice_network=False), decisions)  # one stage, as the slots
        table: dict[str, Any] = {"shipped": {"n": len(shipped), "mean_mEMG": mean([s["given_up"] for s in shipped])}}
        slots = [(name, ContactSlot(parameters)) for name, parameters in fitted.items()]
        slots += [(blend_name(name, share), ContactSlot(parameters, share))
                  for name, parameters in fitted.items() for share in args.blend]
        for name, slot in slots:
            paired = paired_differences(shipped, judged(slot, decisions), "checker")
            table[name] = {key: paired[key] for key in paired if key == "all" or key.startswith("engine:")}
            row = paired["all"]
            print(f"judge {set_name}: {name} {row['second_mean']:.3f} against shipped {row['first_mean']:.3f}: "
                  f"{row['mean_difference']:+.3f} +- {row['standard_error']:.3f} mEMG", flush=True)
        results["judge"][set_name] = table
    if args.out:
        args.out.write_text(json.dumps(results, indent=1, default=float) + "\n")


if __name__ == "__main__":
    main()

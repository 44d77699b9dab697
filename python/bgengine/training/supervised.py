"""Supervised training of a one-hidden-layer network (a second layer optional) on rollout labels, in numpy.

The network (``bgengine.evaluation.race_network.forward``): sigmoid hidden units, 5 sigmoid
outputs, the cumulative 5-vector (win, win gammon, win backgammon, lose gammon, lose
backgammon) of the player on roll. Loss: binary cross-entropy of each output against its
label, summed over the 5 outputs and averaged over the positions. The labels are
probabilities in [0, 1] (rollout means), so cross-entropy is their likelihood under the
sigmoid outputs: its gradient on a logit is simply output - label, it does not vanish
where an output saturates (as squared error's does), and it weighs errors in small
probabilities (gammons, backgammons) by their own scale rather than the win rate's.
Outputs the rules decide (``Examples.possible``: a side with a checker off cannot lose a
gammon) are left out of the loss, since the engine clears them whatever the network says.

Adam, minibatches from a seeded shuffle each epoch, early stopping on the validation loss
(the best weights are kept). After every epoch a checkpoint holds the weights, the Adam
moments, the shuffle generator's state, the best weights and the history, so a resumed
run gives bit for bit the weights of an uninterrupted one.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bgengine.evaluation.correction_network import NUM_OUTPUTS, PARAMETER_NAMES, forward, sigmoid

CHECKPOINT_FORMAT = "bgengine.supervised-checkpoint/1"
Parameters = dict[str, np.ndarray]


@dataclass(frozen=True)
class FitSettings:
    """Network size and optimisation: ``seed`` draws the initial weights and every shuffle.

    Training stops after ``max_epochs``, or after ``patience`` epochs without a validation
    loss below the best by more than ``min_improvement``. ``anchor`` > 0 pulls a run started
    from given weights back towards them after each step (``parameters -= learning_rate *
    anchor * (parameters - start)``): changes the labels do not keep asking for fade.
    ``schedule`` "cosine" lowers the learning rate along half a cosine from ``learning_rate``
    at the first epoch towards zero at ``max_epochs`` (see ``learning_rate_at``); "constant"
    keeps it. ``sibling_weight`` > 0 adds that weight times the squared differences of the
    equity errors of sibling plays (``Examples.groups``; see ``sibling_loss``) to the loss,
    and shuffles whole groups so that siblings share a minibatch. ``hidden2`` > 0 adds a
    second sigmoid layer of that many units on the first, feeding the outputs beside it
    (``layer_forward``); it starts with zero output weights, so a run started from a
    one-layer network starts with its outputs.
    """

    seed: int = 1
    loss: str = "cross_entropy"  # or "equity_squared" (see LOSSES)
    hidden: int = 64
    learning_rate: float = 1e-3
    batch_size: int = 128
    max_epochs: int = 400
    patience: int = 30
    min_improvement: float = 1e-6
    anchor: float = 0.0  # decoupled decay of a fine-tuning run towards its starting weights, per unit step
    beta1: float = 0.9
    beta2: float = 0.999
    epsilon: float = 1e-8
    schedule: str = "constant"  # or "cosine" (SCHEDULES)
    sibling_weight: float = 0.0
    hidden2: int = 0  # units of a second sigmoid layer over the first (0: none; see layer_forward)


@dataclass(frozen=True)
class Examples:
    """Inputs (n, k), targets (n, 5) clipped into [0, 1], optional output logit offsets (n, 5),
    optionally which outputs the loss counts (n, 5; 0 where the rules fix an output at 0,
    ``classes.possible_outcomes``: the engine clears that output whatever the network says),
    and optionally each row's sibling group (n,): rows with the same id >= 0 are plays of
    one roll (``siblings.sibling_groups``), -1 is none."""

    inputs: np.ndarray
    targets: np.ndarray
    offsets: np.ndarray | None = None
    possible: np.ndarray | None = None
    groups: np.ndarray | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "inputs", np.asarray(self.inputs, dtype=np.float64))
        object.__setattr__(self, "targets", np.clip(np.asarray(self.targets, dtype=np.float64), 0.0, 1.0))

    def subset(self, rows: np.ndarray) -> Examples:
        """The examples of ``rows``."""
        return Examples(self.inputs[rows], self.targets[rows], None if self.offsets is None else self.offsets[rows],
                        None if self.possible is None else self.possible[rows],
                        None if self.groups is None else self.groups[rows])


@dataclass
class FitState:
    """Everything a resumed run needs; ``history`` has one (train loss, validation loss) per epoch."""

    parameters: Parameters
    first_moment: Parameters
    second_moment: Parameters
    best: Parameters
    step: int = 0
    epoch: int = 0
    best_epoch: int = 0
    best_loss: float = float("inf")
    rng_state: dict[str, Any] = field(default_factory=dict)
    history: list[tuple[float, float]] = field(default_factory=list)
    start: Parameters | None = None  # the weights a fine-tuning run started from (``FitSettings.anchor``)


def cross_entropy(logits: np.ndarray, targets: np.ndarray, possible: np.ndarray | None = None) -> float:
    """Mean over positions of the summed binary cross-entropy of the 5 outputs (stable form),
    outputs that are not ``possible`` left out."""
    per_output = np.logaddexp(0.0, logits) - targets * logits
    return float(_counted(per_output, possible).sum(axis=1).mean())


#: Cubeless money equity of a cumulative 5-vector: 2 win - 1 + wg + wbg - lg - lbg.
EQUITY_WEIGHTS = np.array([2.0, 1.0, 1.0, -1.0, -1.0])


def _counted(values: np.ndarray, possible: np.ndarray | None) -> np.ndarray:
    """(n, 5) per-output values, 0 for the outputs that are not ``possible`` (the engine
    clears those, so neither the loss nor its gradient counts them)."""
    return values if possible is None else values * possible


def _output_errors(logits: np.ndarray, targets: np.ndarray, possible: np.ndarray | None) -> np.ndarray:
    """Output minus target, 0 for outputs that are not ``possible``."""
    return _counted(sigmoid(logits) - targets, possible)


def equity_squared(logits: np.ndarray, targets: np.ndarray, possible: np.ndarray | None = None) -> float:
    """Mean over positions of the squared equity error plus the summed squared errors of
    the 5 outputs: what a move choice compares (equities), the rates kept in check."""
    difference = _output_errors(logits, targets, possible)
    return float(((difference @ EQUITY_WEIGHTS) ** 2 + (difference ** 2).sum(axis=1)).mean())


def logit_gradient(logits: np.ndarray, targets: np.ndarray, loss: str, possible: np.ndarray | None = None) -> np.ndarray:
    """(n, 5) derivative of one position's loss with respect to each output logit."""
    outputs = sigmoid(logits)
    if loss == "cross_entropy":
        return _counted(outputs - targets, possible)
    difference = _output_errors(logits, targets, possible)
    return _counted(2.0 * ((difference @ EQUITY_WEIGHTS)[:, None] * EQUITY_WEIGHTS + difference)
                    * outputs * (1.0 - outputs), possible)


def sibling_squared_differences(errors: np.ndarray, groups: np.ndarray) -> tuple[float, np.ndarray, int]:
    """The sum over pairs of rows of one group (``groups`` >= 0) of the squared difference of
    their ``errors``, its gradient on each error, and the number of pairs. Per group of k rows:
    k * sum(d^2) - sum(d)^2; the gradient on d_i is 2 (k d_i - sum(d))."""
    gradient = np.zeros(len(errors))
    grouped = groups >= 0
    if not grouped.any():
        return 0.0, gradient, 0
    _, member, sizes = np.unique(groups[grouped], return_inverse=True, return_counts=True)
    inside = errors[grouped]
    sums = np.bincount(member, inside)
    total = float((sizes * np.bincount(member, inside ** 2) - sums ** 2).sum())
    gradient[grouped] = 2.0 * (sizes[member] * inside - sums[member])
    return total, gradient, int((sizes * (sizes - 1) // 2).sum())


def sibling_loss(logits: np.ndarray, targets: np.ndarray, possible: np.ndarray | None,
                 groups: np.ndarray) -> tuple[float, np.ndarray]:
    """The sum over pairs of sibling rows of the squared difference of their equity errors,
    divided by the number of rows, and its (n, 5) gradient on the logits.

    A move choice compares siblings, so only these differences decide it; errors siblings
    share cost nothing.
    """
    outputs = sigmoid(logits)
    errors = _counted(outputs - targets, possible) @ EQUITY_WEIGHTS
    total, on_errors, _ = sibling_squared_differences(errors, groups)
    gradient = _counted(on_errors[:, None] * EQUITY_WEIGHTS * outputs * (1.0 - outputs), possible)
    return total / len(errors), gradient / len(errors)


#: The training losses by name (``FitSettings.loss``). Cross-entropy is the likelihood of
#: the probability labels and weighs small rates by their own scale; equity_squared fits
#: what a move choice compares (the TD network's outputs degrade in equity under
#: cross-entropy fine-tuning, which trades win-rate accuracy for gammon rates).
LOSSES = {"cross_entropy": cross_entropy, "equity_squared": equity_squared}


def initial_state(inputs: int, settings: FitSettings) -> FitState:
    """Small random hidden weights (uniform, scaled by fan-in), zero output weights (the
    network starts at its offsets: no correction) and a fresh shuffle generator."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(settings.seed)))
    parameters = {
        "hidden_weights": rng.uniform(-1, 1, (inputs, settings.hidden)) / np.sqrt(inputs),
        "hidden_bias": np.zeros(settings.hidden),
        "output_weights": np.zeros((settings.hidden, NUM_OUTPUTS)),
        "output_bias": np.zeros(NUM_OUTPUTS),
    }
    if settings.hidden2:
        parameters["hidden2_weights"] = rng.uniform(-1, 1, (settings.hidden, settings.hidden2)) / np.sqrt(settings.hidden)
        parameters["hidden2_bias"] = np.zeros(settings.hidden2)
        parameters["output2_weights"] = np.zeros((settings.hidden2, NUM_OUTPUTS))
    zeros = {name: np.zeros_like(value) for name, value in parameters.items()}
    return FitState(parameters, zeros, {name: z.copy() for name, z in zeros.items()},
                    {name: value.copy() for name, value in parameters.items()}, rng_state=dict(rng.bit_generator.state))


def gradients(parameters: Parameters, inputs: np.ndarray, targets: np.ndarray,
              offsets: np.ndarray | None = None, loss: str = "cross_entropy",
              possible: np.ndarray | None = None, groups: np.ndarray | None = None,
              sibling_weight: float = 0.0) -> Parameters:
    """Gradient of the loss named ``loss`` (``LOSSES``), plus ``sibling_weight`` times the
    ``sibling_loss`` of ``groups`` when both are given, with respect to each parameter."""
    layers, logits = layer_forward(parameters, inputs, offsets)
    output_error = logit_gradient(logits, targets, loss, possible) / len(inputs)
    if sibling_weight and groups is not None:
        output_error += sibling_weight * sibling_loss(logits, targets, possible, groups)[1]
    hidden = layers[0]
    grads = {"output_weights": hidden.T @ output_error, "output_bias": output_error.sum(axis=0)}
    back = output_error @ parameters["output_weights"].T
    if len(layers) == 2:
        second = layers[1]
        second_error = (output_error @ parameters["output2_weights"].T) * second * (1.0 - second)
        grads["output2_weights"] = second.T @ output_error
        grads["hidden2_weights"] = hidden.T @ second_error
        grads["hidden2_bias"] = second_error.sum(axis=0)
        back = back + second_error @ parameters["hidden2_weights"].T
    hidden_error = back * hidden * (1.0 - hidden)
    grads["hidden_weights"] = inputs.T @ hidden_error
    grads["hidden_bias"] = hidden_error.sum(axis=0)
    return grads


def layer_forward(parameters: Parameters, inputs: np.ndarray,
                  offsets: np.ndarray | None = None) -> tuple[list[np.ndarray], np.ndarray]:
    """(the hidden layers' activations, output logits). One hidden layer is the engine's
    network (``correction_network.forward``). With ``hidden2_*`` a second sigmoid layer over
    the first adds its own term to the logits (``output2_weights``): the first layer's units
    still reach the outputs directly, so zero ``output2_weights`` give the one-layer network."""
    hidden, logits = forward(parameters, inputs, offsets)
    if "hidden2_weights" not in parameters:
        return [hidden], logits
    second = sigmoid(hidden @ parameters["hidden2_weights"] + parameters["hidden2_bias"])
    return [hidden, second], logits + second @ parameters["output2_weights"]


SCHEDULES = ("constant", "cosine")


def learning_rate_at(settings: FitSettings, epoch: int) -> float:
    """The step size during epoch ``epoch`` (0-based): a late, small step settles a fit that a
    constant one keeps stirring."""
    if settings.schedule == "constant":
        return settings.learning_rate
    if settings.schedule == "cosine":
        return settings.learning_rate * 0.5 * (1.0 + math.cos(math.pi * min(epoch, settings.max_epochs) / settings.max_epochs))
    raise ValueError(f"unknown learning-rate schedule {settings.schedule!r} (one of {', '.join(SCHEDULES)})")


def adam_step(state: FitState, grads: Parameters, settings: FitSettings) -> None:
    """One Adam update of ``state.parameters`` in place."""
    learning_rate = learning_rate_at(settings, state.epoch)
    state.step += 1
    correction1 = 1.0 - settings.beta1 ** state.step
    correction2 = 1.0 - settings.beta2 ** state.step
    for name in state.parameters:
        m = state.first_moment[name] = settings.beta1 * state.first_moment[name] + (1 - settings.beta1) * grads[name]
        v = state.second_moment[name] = (settings.beta2 * state.second_moment[name]
                                         + (1 - settings.beta2) * grads[name] ** 2)
        state.parameters[name] -= learning_rate * (m / correction1) / (np.sqrt(v / correction2) + settings.epsilon)
        if settings.anchor and state.start is not None:
            state.parameters[name] -= learning_rate * settings.anchor * (state.parameters[name] - state.start[name])


def loss_of(parameters: Parameters, inputs: np.ndarray, targets: np.ndarray,
            offsets: np.ndarray | None = None, loss: str = "cross_entropy",
            possible: np.ndarray | None = None, groups: np.ndarray | None = None,
            sibling_weight: float = 0.0) -> float:
    """The loss named ``loss`` (``LOSSES``) of the network on a whole set, plus
    ``sibling_weight`` times the ``sibling_loss`` of ``groups`` when both are given."""
    logits = layer_forward(parameters, inputs, offsets)[1]
    value = LOSSES[loss](logits, targets, possible)
    if sibling_weight and groups is not None:
        value += sibling_weight * sibling_loss(logits, targets, possible, groups)[0]
    return value


def examples_loss(parameters: Parameters, data: Examples, loss: str, sibling_weight: float = 0.0) -> float:
    """``loss_of`` a set of examples."""
    return loss_of(parameters, data.inputs, data.targets, data.offsets, loss, data.possible, data.groups,
                   sibling_weight)


def epoch_order(rng: np.random.Generator, data: Examples, settings: FitSettings) -> np.ndarray:
    """The rows of one epoch in a seeded random order: with a sibling loss, whole sibling
    groups in random order (each group's rows together, so they share a minibatch unless it
    ends between them)."""
    if not settings.sibling_weight or data.groups is None:
        return rng.permutation(len(data.inputs))
    units = np.where(data.groups >= 0, data.groups, -1 - np.arange(len(data.groups)))
    _, unit = np.unique(units, return_inverse=True)
    rank = np.empty(unit.max() + 1, dtype=np.int64)
    rank[rng.permutation(len(rank))] = np.arange(len(rank))
    return np.argsort(rank[unit], kind="stable")


def run_epoch(state: FitState, data: Examples, settings: FitSettings) -> float:
    """One pass over the training set in a seeded random order; the mean minibatch loss."""
    rng = np.random.Generator(np.random.PCG64())
    rng.bit_generator.state = state.rng_state
    order = epoch_order(rng, data, settings)
    state.rng_state = dict(rng.bit_generator.state)
    total = 0.0
    for start in range(0, len(order), settings.batch_size):
        batch = data.subset(order[start:start + settings.batch_size])
        total += examples_loss(state.parameters, batch, settings.loss, settings.sibling_weight) * len(batch.inputs)
        adam_step(state, gradients(state.parameters, batch.inputs, batch.targets, batch.offsets, settings.loss,
                                   batch.possible, batch.groups, settings.sibling_weight), settings)
    return total / len(order)


def finished(state: FitState, settings: FitSettings) -> bool:
    """No epochs left, or ``patience`` epochs since the best validation loss."""
    return state.epoch >= settings.max_epochs or state.epoch - state.best_epoch >= settings.patience


def starting_state(parameters: Parameters, settings: FitSettings) -> FitState:
    """A fresh run that starts from given weights (fine-tuning a trained network). With more
    hidden units in ``settings`` than the weights have, the network is widened: the new units
    take fresh random input weights and zero output weights, so it starts with the same outputs."""
    given = parameters["hidden_weights"].shape[1]
    if given > settings.hidden:
        raise ValueError(f"the starting weights have {given} hidden units, more than the settings' {settings.hidden}")
    state = initial_state(parameters["hidden_weights"].shape[0], settings)
    for name in PARAMETER_NAMES:
        start = np.array(parameters[name], dtype=np.float64)
        if name == "output_bias":
            state.parameters[name] = start
        elif name == "output_weights":
            state.parameters[name][:given] = start
        else:
            state.parameters[name][..., :given] = start
    state.best = {name: value.copy() for name, value in state.parameters.items()}
    state.start = {name: value.copy() for name, value in state.parameters.items()}
    return state


def fit(train: Examples, validation: Examples, settings: FitSettings,
        checkpoint: Path | None = None, stop_after: int | None = None,
        log: Callable[[str], None] | None = None, start: Parameters | None = None) -> FitState:
    """Train until early stopping (or ``stop_after`` epochs of this call), resuming from
    ``checkpoint`` when it exists and writing it after every epoch. A new run starts from
    ``start`` when given, else from ``initial_state``."""
    if settings.loss not in LOSSES:
        raise ValueError(f"unknown loss {settings.loss!r} (one of {', '.join(LOSSES)})")
    learning_rate_at(settings, 0)  # an unknown schedule fails before any work
    if len(train.inputs) == 0 or len(validation.inputs) == 0:
        raise ValueError("training needs positions to train on and to validate with"
                         f" ({len(train.inputs)}, {len(validation.inputs)})")
    if checkpoint is not None and Path(checkpoint).exists():
        state, saved = load_checkpoint(checkpoint)
        if saved != settings:
            raise ValueError(f"{checkpoint} was made with {saved}, not {settings}")
        if len(state.parameters["hidden_weights"]) != train.inputs.shape[1]:
            raise ValueError(f"{checkpoint} was made for {len(state.parameters['hidden_weights'])} inputs,"
                             f" not {train.inputs.shape[1]} (another input encoding)")
    elif start is not None:
        state = starting_state(start, settings)
        state.best_loss = examples_loss(state.best, validation, settings.loss, settings.sibling_weight)
        if log is not None:
            log(f"start: validation {state.best_loss:.6f}")
    else:
        state = initial_state(train.inputs.shape[1], settings)
    epochs_run = 0
    while not finished(state, settings) and (stop_after is None or epochs_run < stop_after):
        train_loss = run_epoch(state, train, settings)
        val_loss = examples_loss(state.parameters, validation, settings.loss, settings.sibling_weight)
        state.epoch += 1
        epochs_run += 1
        state.history.append((train_loss, val_loss))
        if val_loss < state.best_loss - settings.min_improvement:
            state.best_loss, state.best_epoch = val_loss, state.epoch
            state.best = {name: value.copy() for name, value in state.parameters.items()}
        if checkpoint is not None:
            save_checkpoint(checkpoint, state, settings)
        if log is not None:
            log(f"epoch {state.epoch}: train {train_loss:.6f} validation {val_loss:.6f} "
                f"(best {state.best_loss:.6f} at {state.best_epoch})")
    return state


def save_checkpoint(path: Path, state: FitState, settings: FitSettings) -> None:
    """Write the state atomically (temporary file, then rename)."""
    path = Path(path)
    arrays: dict[str, Any] = {}
    groups = [("parameters", state.parameters), ("first_moment", state.first_moment),
              ("second_moment", state.second_moment), ("best", state.best)]
    if state.start is not None:
        groups.append(("start", state.start))
    for prefix, group in groups:
        for name, value in group.items():
            arrays[f"{prefix}.{name}"] = value
    scalars = {"format": CHECKPOINT_FORMAT, "settings": asdict(settings), "step": state.step,
               "epoch": state.epoch, "best_epoch": state.best_epoch, "best_loss": state.best_loss,
               "rng_state": state.rng_state, "history": state.history}
    arrays["state"] = np.array(json.dumps(scalars))
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "wb") as handle:
        np.savez(handle, **arrays)
    os.replace(temporary, path)


def load_checkpoint(path: Path) -> tuple[FitState, FitSettings]:
    """The state and settings of a checkpoint written by ``save_checkpoint``."""
    with np.load(Path(path)) as data:
        scalars = json.loads(str(data["state"]))
        if scalars.get("format") != CHECKPOINT_FORMAT:
            raise ValueError(f"{path}: not a {CHECKPOINT_FORMAT} file")
        groups: dict[str, Parameters] = {}
        for key in data.files:
            prefix, _, name = key.partition(".")
            if name:
                groups.setdefault(prefix, {})[name] = data[key]
    state = FitState(groups["parameters"], groups["first_moment"], groups["second_moment"], groups["best"],
                     step=scalars["step"], epoch=scalars["epoch"], best_epoch=scalars["best_epoch"],
                     best_loss=scalars["best_loss"], rng_state=scalars["rng_state"],
                     history=[(float(a), float(b)) for a, b in scalars["history"]], start=groups.get("start"))
    return state, FitSettings(**scalars["settings"])

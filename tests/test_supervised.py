"""The numpy trainer: it learns, it is seeded, and a resumed run equals an uninterrupted one."""

from __future__ import annotations

import numpy as np
import pytest

from bgengine.evaluation.correction_network import forward

from bgengine.training.supervised import (Examples, FitSettings, cross_entropy, fit, gradients, initial_state,
                                          layer_forward, learning_rate_at, loss_of)

SETTINGS = FitSettings(seed=3, hidden=6, learning_rate=0.01, batch_size=16, max_epochs=8, patience=100)


def synthetic(n: int = 200, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Inputs and soft targets in [0, 1] made by a random logistic model."""
    rng = np.random.default_rng(seed)
    inputs = rng.normal(size=(n, 7))
    return inputs, 1.0 / (1.0 + np.exp(-inputs @ rng.normal(size=(7, 5))))


def halves(inputs: np.ndarray, targets: np.ndarray, offsets: np.ndarray | None = None) -> tuple[Examples, Examples]:
    """The first 160 examples to train on, the rest to validate with."""
    rows = np.arange(len(inputs))
    data = Examples(inputs, targets, offsets)
    return data.subset(rows[:160]), data.subset(rows[160:])


def test_training_reduces_the_loss_on_a_tiny_synthetic_set():
    inputs, targets = synthetic()
    state = fit(*halves(inputs, targets), SETTINGS)
    first_train, first_validation = state.history[0]
    last_train, last_validation = state.history[-1]
    assert last_train < first_train - 0.2
    assert last_validation < first_validation - 0.2
    assert state.best_loss == min(v for _, v in state.history)


def test_same_seed_gives_the_same_weights_and_another_seed_other_weights():
    inputs, targets = synthetic()
    data = halves(inputs, targets)
    first, second = fit(*data, SETTINGS), fit(*data, SETTINGS)
    other = fit(*data, FitSettings(**{**SETTINGS.__dict__, "seed": 4}))
    for name, value in first.parameters.items():
        assert np.array_equal(value, second.parameters[name])
    assert not np.array_equal(first.parameters["hidden_weights"], other.parameters["hidden_weights"])


def test_resuming_from_a_checkpoint_gives_the_weights_of_an_uninterrupted_run(tmp_path):
    inputs, targets = synthetic()
    data = halves(inputs, targets)
    straight = fit(*data, SETTINGS)
    checkpoint = tmp_path / "checkpoint.npz"
    partial = fit(*data, SETTINGS, checkpoint=checkpoint, stop_after=3)
    assert partial.epoch == 3
    resumed = fit(*data, SETTINGS, checkpoint=checkpoint)
    assert resumed.epoch == straight.epoch == SETTINGS.max_epochs
    assert resumed.history == straight.history
    for name, value in straight.parameters.items():
        assert np.array_equal(value, resumed.parameters[name])
        assert np.array_equal(straight.best[name], resumed.best[name])


def test_resuming_with_other_settings_is_refused(tmp_path):
    inputs, targets = synthetic()
    checkpoint = tmp_path / "checkpoint.npz"
    fit(Examples(inputs, targets), Examples(inputs, targets), SETTINGS, checkpoint=checkpoint, stop_after=1)
    with pytest.raises(ValueError, match="made with"):
        fit(Examples(inputs, targets), Examples(inputs, targets), FitSettings(seed=9), checkpoint=checkpoint)


def test_early_stopping_stops_patience_epochs_after_the_best():
    inputs, targets = synthetic(60)
    noise = np.random.default_rng(5).random((60, 5))  # validation labels unrelated to the inputs
    settings = FitSettings(seed=1, hidden=30, learning_rate=0.05, batch_size=8, max_epochs=200, patience=5)
    state = fit(Examples(inputs, targets), Examples(inputs, noise), settings)
    assert state.epoch < settings.max_epochs
    assert state.epoch == state.best_epoch + settings.patience


def some_excluded(n: int) -> np.ndarray:
    """A ``possible`` mask with the lose-gammon pair excluded in every third example and the
    win-gammon pair in every fifth."""
    possible = np.ones((n, 5))
    possible[::3, 3:5] = 0.0
    possible[::5, 1:3] = 0.0
    return possible


@pytest.mark.parametrize("loss", ["cross_entropy", "equity_squared"])
@pytest.mark.parametrize("with_offsets", [False, True])
@pytest.mark.parametrize("with_excluded", [False, True])
def test_loss_gradients_match_finite_differences(with_offsets, loss, with_excluded):
    inputs, targets = synthetic(20)
    offsets = np.random.default_rng(1).normal(size=(20, 5)) if with_offsets else None
    possible = some_excluded(20) if with_excluded else None
    parameters = initial_state(7, SETTINGS).parameters
    parameters["output_weights"] = np.random.default_rng(2).normal(size=parameters["output_weights"].shape)
    analytic = gradients(parameters, inputs, targets, offsets, loss, possible)
    for name in parameters:
        index = (0,) * parameters[name].ndim
        step = 1e-6
        parameters[name][index] += step
        above = loss_of(parameters, inputs, targets, offsets, loss, possible)
        parameters[name][index] -= 2 * step
        below = loss_of(parameters, inputs, targets, offsets, loss, possible)
        parameters[name][index] += step
        assert analytic[name][index] == pytest.approx((above - below) / (2 * step), rel=1e-5, abs=1e-9)


@pytest.mark.parametrize("loss", ["cross_entropy", "equity_squared"])
def test_excluded_outputs_do_not_count_whatever_their_labels(loss):
    inputs, targets = synthetic(30)
    possible = some_excluded(30)
    parameters = initial_state(7, SETTINGS).parameters
    parameters["output_weights"] = np.random.default_rng(4).normal(size=parameters["output_weights"].shape)
    other = np.where(possible == 0.0, 1.0 - targets, targets)   # labels changed only where excluded
    assert loss_of(parameters, inputs, targets, None, loss, possible) == loss_of(parameters, inputs, other, None, loss, possible)
    assert loss_of(parameters, inputs, targets, None, loss) != loss_of(parameters, inputs, other, None, loss)
    same = gradients(parameters, inputs, targets, None, loss, possible)
    changed = gradients(parameters, inputs, other, None, loss, possible)
    for name in parameters:
        assert np.array_equal(same[name], changed[name])


def test_offsets_are_added_to_the_output_logits():
    inputs, targets = synthetic(10)
    parameters = initial_state(7, SETTINGS).parameters
    offsets = np.full((10, 5), 0.5)
    plain, shifted = forward(parameters, inputs)[1], forward(parameters, inputs, offsets)[1]
    assert np.allclose(shifted, plain + 0.5)


def test_equity_squared_loss_trains_and_unknown_losses_are_refused():
    inputs, targets = synthetic()
    settings = FitSettings(**{**SETTINGS.__dict__, "loss": "equity_squared"})
    state = fit(*halves(inputs, targets), settings)
    assert state.history[-1][1] < state.history[0][1]
    with pytest.raises(ValueError, match="unknown loss"):
        fit(*halves(inputs, targets), FitSettings(**{**SETTINGS.__dict__, "loss": "hinge"}))


def test_cross_entropy_is_smallest_at_the_targets():
    targets = np.array([[0.7, 0.2, 0.01, 0.1, 0.0]])
    logits = np.log(np.clip(targets, 1e-12, 1) / np.clip(1 - targets, 1e-12, 1))
    assert cross_entropy(logits, targets) < cross_entropy(logits + 0.1, targets)
    assert cross_entropy(logits, targets) < cross_entropy(logits - 0.1, targets)


def test_the_race_fit_job_writes_weights_the_engine_loads(tmp_path):
    from bgengine.evaluation.race import RaceEvaluator
    from bgengine.evaluation.race_network import RaceNetwork
    from bgengine.training.classes import PositionClass
    from bgengine.training.dataset import Shard, save_shard, shard_path
    from bgengine.training.fit_job import KINDS, fit_network
    from bgengine.training.scenarios import long_race

    rng = np.random.default_rng(4)
    for index in range(10):
        boards = np.array([np.asarray(long_race(rng)) for _ in range(6)], dtype=np.int8)
        labels = RaceEvaluator().evaluate_batch(boards).astype(np.float64)
        save_shard(shard_path(tmp_path / "labels", index),
                   Shard(boards, np.full(6, PositionClass.RACE, np.int8), np.zeros(6, np.uint8), {},
                         labels, np.zeros((6, 5)), np.zeros(6), np.zeros(6, np.uint64), np.zeros(6, np.int32),
                         np.zeros(6, np.float32)))
    settings = FitSettings(seed=2, hidden=3, max_epochs=2)
    record = fit_network(KINDS["race"], tmp_path / "run", settings, [tmp_path / "labels"], None,
                         lambda _: None)
    assert [record["data"][role]["positions"] for role in ("train", "validation", "test")] == [48, 6, 6]
    assert record["epochs"] == 2 and record["held_out"]["network"]["n"] == 6
    assert set(record["held_out"]) == {"network", "race_approximation"}
    network = RaceNetwork.from_file(tmp_path / "run" / "race_weights.npz")
    assert network.record["settings"]["hidden"] == 3
    assert "| test | 6 | 1 |" in (tmp_path / "run" / "race_weights.md").read_text()


def test_a_run_started_from_weights_keeps_them_until_the_validation_loss_improves():
    inputs, targets = synthetic()
    train, validation = halves(inputs, targets)
    start = {name: value + 0.1 for name, value in initial_state(7, SETTINGS).parameters.items()}
    untouched = fit(train, validation, SETTINGS, stop_after=0, start=start)
    for name, value in start.items():
        assert np.array_equal(untouched.best[name], value)
    assert untouched.best_loss == loss_of(start, validation.inputs, validation.targets)
    trained = fit(train, validation, SETTINGS, start=start)
    assert trained.best_loss < untouched.best_loss
    with pytest.raises(ValueError, match="hidden units"):
        fit(train, validation, FitSettings(**{**SETTINGS.__dict__, "hidden": 5}), start=start)


def test_a_run_started_from_a_narrower_network_widens_it_with_the_same_outputs_and_trains_the_new_units():
    inputs, targets = synthetic()
    train, validation = halves(inputs, targets)
    narrow = fit(train, validation, SETTINGS).best
    wide_settings = FitSettings(**{**SETTINGS.__dict__, "hidden": 10})
    untouched = fit(train, validation, wide_settings, stop_after=0, start=narrow)
    assert untouched.best["hidden_weights"].shape == (7, 10) and untouched.best["output_weights"].shape == (10, 5)
    np.testing.assert_array_equal(untouched.best["hidden_weights"][:, :6], narrow["hidden_weights"])
    assert not untouched.best["output_weights"][6:].any() and untouched.best["hidden_weights"][:, 6:].any()
    np.testing.assert_allclose(forward(untouched.best, validation.inputs)[1], forward(narrow, validation.inputs)[1])
    trained = fit(train, validation, wide_settings, start=narrow)
    assert trained.best["output_weights"][6:].any()


def test_the_evaluator_fit_job_fine_tunes_given_weights_into_a_file_the_engine_loads(tmp_path):
    from bgengine.evaluation.evaluator import NetworkEvaluator, default_evaluator
    from bgengine.training.dataset import save_shard, shard_path
    from bgengine.training.fit_job import evaluator_kind, fit_network
    from bgengine.training.labels import search_label_shard
    from bgengine.training.positions import GenerationSettings, generate_chunk
    from bgcore import _nn
    from bgengine.evaluation.network_weights import network_parameters, save_network_weights

    from_the_opening = GenerationSettings(games=1, scenario_weights=(1.0, 0.0, 0.0, 0.0, 0.0))
    # Labels by the engine with the race approximation: with these few labels two epochs then
    # lower the validation loss (with the race network's labels the start stays the best).
    teacher = default_evaluator(use_race_network=False)
    for index in range(10):
        positions = generate_chunk(6, index, from_the_opening, set())
        save_shard(shard_path(tmp_path / "labels", index), search_label_shard(positions, teacher, 1, "t"))
    boards = generate_chunk(6, 0, from_the_opening, set()).boards
    base = tmp_path / "base-encoding1.npz"  # an encoding-1 start (the shipped weights are encoding 2)
    save_network_weights(base, network_parameters(_nn.NeuralNet.random(128, seed=4, scale=0.3)), {"made": "test"})
    for encoding, start in ((1, base), (2, base), (3, base)):  # widened: the same values at first
        runs = tmp_path / f"encoding{encoding}"
        for epochs in (0, 2):
            record = fit_network(evaluator_kind(encoding), runs / f"run{epochs}",
                                 FitSettings(seed=2, hidden=128, max_epochs=epochs),
                                 [tmp_path / "labels"], None, lambda _: None, init=start)
            assert record["initial_weights"]["path"] == str(start)
            assert record["encoding"]["encoding"] == encoding
            assert set(record["held_out"]) == {"network", "shipped_network_0ply"}
        untouched = NetworkEvaluator.from_file(runs / "run0" / "evaluator_weights.npz")
        assert untouched.network.encoding == encoding
        np.testing.assert_allclose(untouched.evaluate_batch(boards),
                                   NetworkEvaluator.from_file(start).evaluate_batch(boards), atol=1e-6)
        tuned = NetworkEvaluator.from_file(runs / "run2" / "evaluator_weights.npz")
        assert not np.allclose(tuned.evaluate_batch(boards), untouched.evaluate_batch(boards), atol=1e-6)


def test_an_anchored_run_stays_nearer_its_start_and_resumes_exactly(tmp_path):
    inputs, targets = synthetic()
    train, validation = halves(inputs, targets)
    start = initial_state(7, SETTINGS).parameters
    start["output_weights"] = np.random.default_rng(5).normal(size=start["output_weights"].shape)
    anchored = FitSettings(**{**SETTINGS.__dict__, "anchor": 50.0})
    free, held = fit(train, validation, SETTINGS, start=start), fit(train, validation, anchored, start=start)
    distance = {run: sum(float(np.abs(state.parameters[n] - start[n]).sum()) for n in start)
                for run, state in (("free", free), ("held", held))}
    assert distance["held"] < distance["free"]
    fit(train, validation, anchored, checkpoint=tmp_path / "c.npz", stop_after=3, start=start)
    resumed = fit(train, validation, anchored, checkpoint=tmp_path / "c.npz", start=start)
    for name, value in held.parameters.items():
        assert np.array_equal(resumed.parameters[name], value)


def test_the_cosine_schedule_falls_from_the_learning_rate_to_zero_and_constant_stays():
    cosine = FitSettings(learning_rate=0.01, max_epochs=10, schedule="cosine")
    rates = [learning_rate_at(cosine, epoch) for epoch in range(11)]
    assert rates[0] == pytest.approx(0.01) and rates[5] == pytest.approx(0.005) and rates[10] == pytest.approx(0.0, abs=1e-12)
    assert all(later < earlier for earlier, later in zip(rates, rates[1:]))
    assert learning_rate_at(FitSettings(learning_rate=0.01), 7) == 0.01
    with pytest.raises(ValueError, match="schedule"):
        fit(*halves(*synthetic()), FitSettings(schedule="linear"))


def test_a_cosine_run_moves_less_at_the_end_and_resumes_exactly(tmp_path):
    inputs, targets = synthetic()
    settings = FitSettings(seed=3, hidden=6, learning_rate=0.01, batch_size=16, max_epochs=8, patience=100,
                           schedule="cosine")
    whole = fit(*halves(inputs, targets), settings)
    checkpoint = tmp_path / "run.npz"
    fit(*halves(inputs, targets), settings, checkpoint=checkpoint, stop_after=3)
    resumed = fit(*halves(inputs, targets), settings, checkpoint=checkpoint)
    for name, value in whole.parameters.items():
        np.testing.assert_array_equal(resumed.parameters[name], value)
    constant = fit(*halves(inputs, targets), FitSettings(**{**settings.__dict__, "schedule": "constant"}))
    assert any(not np.array_equal(constant.parameters[n], whole.parameters[n]) for n in whole.parameters)


def test_fit_examples_leave_out_the_gammons_of_a_side_with_a_checker_off():
    from bgengine import Position
    from bgengine.training.classes import PositionClass
    from bgengine.training.corpus import Split
    from bgengine.training.fit_job import evaluator_kind, examples

    opening = np.asarray(Position.initial(), dtype=np.int8)
    mover_off = opening.copy()
    mover_off[6] -= 1
    boards = np.array([opening, mover_off])
    labels = np.array([[0.5, 0.15, 0.01, 0.13, 0.01], [0.2, 0.0, 0.0, 0.9, 0.2]])  # the second is impossible
    split = Split(boards, labels, np.full(2, PositionClass.CONTACT, np.int8))
    data = examples(evaluator_kind(3), split)
    assert data.possible.tolist() == [[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]
    assert data.inputs.shape[0] == 2 and np.array_equal(data.targets, labels)


def test_a_missing_truth_set_is_an_error_not_an_empty_set(tmp_path):
    """A fit pointed at truth positions that are not there must say so, not train on them."""
    from bgengine.training.corpus import truth_boards

    assert truth_boards(None) == set()
    with pytest.raises(FileNotFoundError, match="--no-truth"):
        truth_boards(tmp_path / "missing.npz")


TWO_LAYERS = FitSettings(seed=3, hidden=6, hidden2=4, learning_rate=0.01, batch_size=16, max_epochs=8, patience=100)


@pytest.mark.parametrize("loss", ["cross_entropy", "equity_squared"])
def test_second_layer_gradients_match_finite_differences_in_every_weight(loss):
    inputs, targets = synthetic(20)
    groups = np.repeat(np.arange(10), 2)  # pairs of siblings, so the sibling term is differentiated too
    parameters = initial_state(7, TWO_LAYERS).parameters
    assert parameters["hidden2_weights"].shape == (6, 4) and parameters["output2_weights"].shape == (4, 5)
    for name in ("output_weights", "output2_weights"):
        parameters[name] = np.random.default_rng(2).normal(size=parameters[name].shape)
    analytic = gradients(parameters, inputs, targets, None, loss, some_excluded(20), groups, 3.0)
    assert set(analytic) == set(parameters)
    for name in parameters:
        for index in np.ndindex(parameters[name].shape):
            step = 1e-6
            parameters[name][index] += step
            above = loss_of(parameters, inputs, targets, None, loss, some_excluded(20), groups, 3.0)
            parameters[name][index] -= 2 * step
            below = loss_of(parameters, inputs, targets, None, loss, some_excluded(20), groups, 3.0)
            parameters[name][index] += step
            assert analytic[name][index] == pytest.approx((above - below) / (2 * step), rel=1e-5, abs=1e-9)


def test_a_fit_with_a_second_layer_learns_and_resumes_exactly(tmp_path):
    inputs, targets = synthetic()
    data = halves(inputs, targets)
    settings = FitSettings(**{**TWO_LAYERS.__dict__, "learning_rate": 0.03, "max_epochs": 12})
    straight = fit(*data, settings)
    assert straight.history[-1][1] < straight.history[0][1] - 0.1
    checkpoint = tmp_path / "checkpoint.npz"
    fit(*data, settings, checkpoint=checkpoint, stop_after=5)
    resumed = fit(*data, settings, checkpoint=checkpoint)
    assert resumed.history == straight.history
    for name, value in straight.parameters.items():
        assert np.array_equal(value, resumed.parameters[name])


def test_a_second_layer_added_to_a_one_layer_network_starts_with_its_outputs_and_trains():
    inputs, targets = synthetic()
    train, validation = halves(inputs, targets)
    one_layer = fit(train, validation, SETTINGS).best
    settings = FitSettings(**{**TWO_LAYERS.__dict__, "learning_rate": 0.002, "max_epochs": 8})
    state = fit(train, validation, settings, start=one_layer)
    assert state.start is not None and not state.start["output2_weights"].any()
    assert np.array_equal(layer_forward(state.start, inputs)[1], forward(one_layer, inputs)[1])
    assert state.best_loss < loss_of(one_layer, validation.inputs, validation.targets) - 1e-4
    assert state.parameters["output2_weights"].any() and state.parameters["hidden2_weights"].any()

"""benchmarks/depth_probe.py: its numpy contact slot answers as the engine does, and its parts."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pytest

from bgcore import _engine
from bgengine import Position
from bgengine.evaluation.evaluator import default_evaluator
from bgengine.evaluation.network_weights import network_parameters

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import depth_probe  # noqa: E402
from sample_positions import sampled_turns  # noqa: E402


def game_boards(count: int) -> np.ndarray:
    """Boards of the engine's self-play, every class, with some checkers off (the gammon rule)."""
    return np.array([np.asarray(position, dtype=np.int8) for position, _ in sampled_turns(7, count)])


def test_the_contact_slot_with_the_shipped_weights_gives_the_engines_values():
    boards = game_boards(400)
    classes = _engine.position_classes(boards)
    assert {_engine.CONTACT, _engine.CRASHED, _engine.RACE} <= set(classes.tolist())
    slot = depth_probe.ContactSlot(network_parameters(default_evaluator().network))
    ours, engine = slot.evaluate_batch(boards), default_evaluator().evaluate_batch(boards)
    assert np.allclose(ours, engine, atol=2e-5)  # float64 numpy against the float32 kernel
    assert np.array_equal(ours[classes != _engine.CONTACT], engine[classes != _engine.CONTACT])
    start = Position.initial()
    assert np.allclose(slot.evaluate(start), default_evaluator().evaluate(start), atol=2e-5)


def test_the_contact_slot_uses_its_own_network_on_contact_positions_only():
    boards = game_boards(200)
    contact = _engine.position_classes(boards) == _engine.CONTACT
    parameters = network_parameters(default_evaluator().network)
    parameters["output_bias"] = parameters["output_bias"] + 1.0  # another network
    ours, engine = depth_probe.ContactSlot(parameters).evaluate_batch(boards), default_evaluator().evaluate_batch(boards)
    assert not np.allclose(ours[contact], engine[contact], atol=1e-3)
    assert np.array_equal(ours[~contact], engine[~contact])


def test_the_contact_slot_blends_its_network_with_the_shipped_one_on_contact_positions():
    boards = game_boards(200)
    contact = _engine.position_classes(boards) == _engine.CONTACT
    parameters = network_parameters(default_evaluator().network)
    parameters["output_bias"] = parameters["output_bias"] + 1.0
    engine = default_evaluator().evaluate_batch(boards)
    alone = depth_probe.ContactSlot(parameters).evaluate_batch(boards)
    blended = depth_probe.ContactSlot(parameters, shipped_share=0.25).evaluate_batch(boards)
    assert np.allclose(blended[contact], 0.25 * engine[contact] + 0.75 * alone[contact])
    assert np.array_equal(blended[~contact], engine[~contact])
    assert depth_probe.blend_name("128", 0.25) == "128+shipped@0.25"
    for share in (-0.1, 1.0):
        with pytest.raises(ValueError, match="share"):
            depth_probe.ContactSlot(parameters, shipped_share=share)


def test_shapes_parse_one_or_two_widths_and_refuse_others():
    assert depth_probe.parsed_shape("128") == (128, 0)
    assert depth_probe.parsed_shape("128x32") == (128, 32)
    assert depth_probe.shape_name((128, 0)) == "128" and depth_probe.shape_name((128, 32)) == "128x32"
    for text in ("0", "128x0", "1x2x3", "wide"):
        with pytest.raises((argparse.ArgumentTypeError, ValueError)):
            depth_probe.parsed_shape(text)


def test_held_out_measures_are_the_equity_error_and_the_sibling_difference_rms():
    targets = np.zeros((4, 5))
    probabilities = np.zeros((4, 5))
    probabilities[:, 0] = [0.01, 0.03, 0.0, 0.02]  # equity errors 0.02, 0.06, 0, 0.04
    measures = depth_probe.held_out_measures(probabilities, targets, np.array([0, 0, -1, -1]))
    assert measures["equity_mae"] == pytest.approx(0.03)
    assert measures["sibling_pairs"] == 1 and measures["sibling_rms"] == pytest.approx(0.04)

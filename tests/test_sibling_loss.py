"""Sibling plays in distillation shards, and the loss term on their differences."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from bgengine import Position
from bgengine.evaluation.evaluator import default_evaluator, rank_moves
from bgengine.training.classes import PositionClass, Tag, classify
from bgengine.training.corpus import TRAIN, gather
from bgengine.training.dataset import Shard, save_shard, shard_path
from bgengine.training.pipeline import only_rows
from bgengine.training.positions import GenerationSettings, generate_chunk, with_candidate_children
from bgengine.training.siblings import NO_GROUP, sampled_rolls, sibling_groups
from bgengine.training.supervised import (EQUITY_WEIGHTS, Examples, FitSettings, epoch_order, gradients,
                                          initial_state, loss_of, sibling_loss)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import sibling_errors  # noqa: E402

SEED, CHUNK = 4, 0


@pytest.fixture(scope="module")
def expanded() -> Shard:
    sampled = generate_chunk(SEED, CHUNK, GenerationSettings(games=3), set())
    return with_candidate_children(sampled, SEED, CHUNK, 3)


def expected_parents(shard: Shard) -> list[int]:
    """The parent of each child row, by replaying what ``with_candidate_children`` does: a
    literal model of it, not the membership test ``sibling_groups`` uses."""
    sampled = shard.meta["sampled"]
    rolls = sampled_rolls(SEED, CHUNK, sampled)
    seen = {board.tobytes() for board in shard.boards[:sampled]}
    parents = []
    for index in range(sampled):
        for ranked in rank_moves(Position.from_array(shard.boards[index]), rolls[index])[:3]:
            child = ranked.position
            key = child.to_bytes()
            if child.is_game_over() or classify(np.asarray(child)) is PositionClass.EXACT or key in seen:
                continue
            seen.add(key)
            parents.append(index)
    return parents


def test_each_child_is_grouped_with_the_position_whose_roll_it_is_a_play_of(expanded):
    groups = sibling_groups(expanded)
    sampled = expanded.meta["sampled"]
    assert (groups[:sampled] == NO_GROUP).all()
    assert groups[sampled:].tolist() == expected_parents(expanded)
    assert np.bincount(groups[sampled:]).max() <= 3


def test_groups_survive_dropped_rows_and_shards_without_children(expanded):
    """Rows dropped after the children were made (the contact-only filter) leave the others'
    groups as they were; a child whose parent was dropped has no group (its parent's board
    is gone)."""
    full = sibling_groups(expanded)
    keep = np.ones(len(expanded), dtype=bool)
    keep[::4] = False  # parents and children alike
    kept = only_rows(expanded, keep)
    expected = [int(full[row]) if full[row] == NO_GROUP or keep[full[row]] else NO_GROUP
                for row in np.flatnonzero(keep)]
    assert sibling_groups(kept).tolist() == expected
    assert sum(group != NO_GROUP for group in expected) > 10
    plain = Shard(expanded.boards, expanded.classes, expanded.tags, {"seed": SEED, "chunk": CHUNK})
    assert (sibling_groups(plain) == NO_GROUP).all()


def brute_force_sibling_loss(logits, targets, groups):
    errors = (1.0 / (1.0 + np.exp(-logits)) - targets) @ EQUITY_WEIGHTS
    total = 0.0
    for i in range(len(errors)):
        for j in range(i + 1, len(errors)):
            if groups[i] >= 0 and groups[i] == groups[j]:
                total += (errors[i] - errors[j]) ** 2
    return total / len(errors)


def test_the_sibling_loss_sums_squared_differences_over_pairs_of_one_group():
    rng = np.random.default_rng(5)
    logits, targets = rng.normal(size=(9, 5)), rng.uniform(size=(9, 5))
    groups = np.array([-1, 7, 7, 7, 2, -1, 2, 9, -1])
    value, _ = sibling_loss(logits, targets, None, groups)
    assert value == pytest.approx(brute_force_sibling_loss(logits, targets, groups))
    assert value > 0
    shared = targets - 0.05 * np.array([1, 0, 0, 0, 0])  # every error the same: nothing to learn
    same = sibling_loss(np.zeros((9, 5)), np.full((9, 5), 0.5) + (shared - targets), None, groups)
    assert same[0] == pytest.approx(0.0, abs=1e-12)
    assert sibling_loss(logits, targets, None, np.full(9, NO_GROUP))[0] == 0.0


def test_the_sibling_loss_gradients_match_finite_differences():
    rng = np.random.default_rng(6)
    inputs = rng.normal(size=(12, 7))
    targets = rng.uniform(size=(12, 5))
    groups = np.array([0, 0, 0, 1, 1, -1, 2, 2, 2, -1, 3, 3])
    possible = np.ones((12, 5))
    possible[::4, 3:5] = 0.0
    settings = FitSettings(seed=3, hidden=6)
    parameters = initial_state(7, settings).parameters
    parameters["output_weights"] = rng.normal(size=parameters["output_weights"].shape)
    analytic = gradients(parameters, inputs, targets, None, "equity_squared", possible, groups, 2.5)
    plain = gradients(parameters, inputs, targets, None, "equity_squared", possible)
    for name in parameters:
        index = (0,) * parameters[name].ndim
        step = 1e-6
        parameters[name][index] += step
        above = loss_of(parameters, inputs, targets, None, "equity_squared", possible, groups, 2.5)
        parameters[name][index] -= 2 * step
        below = loss_of(parameters, inputs, targets, None, "equity_squared", possible, groups, 2.5)
        parameters[name][index] += step
        assert analytic[name][index] == pytest.approx((above - below) / (2 * step), rel=1e-5, abs=1e-9)
    assert not np.allclose(analytic["hidden_weights"], plain["hidden_weights"])


def test_an_epoch_keeps_each_group_together_and_without_the_term_shuffles_as_before():
    groups = np.array([3, -1, 3, 5, -1, 5, 5, 3, -1, 8])
    data = Examples(np.zeros((10, 2)), np.zeros((10, 5)), groups=groups)
    with_term = FitSettings(sibling_weight=1.0)
    order = epoch_order(np.random.default_rng(1), data, with_term)
    assert sorted(order.tolist()) == list(range(10))
    for group in (3, 5):
        places = np.flatnonzero(groups[order] == group)
        assert places.max() - places.min() == len(places) - 1
    np.testing.assert_array_equal(epoch_order(np.random.default_rng(1), data, FitSettings()),
                                  np.random.default_rng(1).permutation(10))
    assert not np.array_equal(epoch_order(np.random.default_rng(2), data, with_term), order)


def labelled(shard: Shard) -> Shard:
    """``shard`` with placeholder labels (gather reads labelled shards only)."""
    n = len(shard)
    return Shard(shard.boards, shard.classes, shard.tags, shard.meta, probabilities=np.full((n, 5), 0.5),
                 standard_errors=np.zeros((n, 5)), equity_standard_errors=np.zeros(n), seeds=np.zeros(n, np.uint64),
                 trials=np.ones(n, np.int32), seconds=np.zeros(n, np.float32))


def test_gathered_groups_are_unique_across_shards_and_repeats(tmp_path, expanded):
    first, second = tmp_path / "a", tmp_path / "b"
    for directory in (first, second):
        directory.mkdir()
    save_shard(shard_path(first, 0), labelled(expanded))
    seen = {board.tobytes() for board in expanded.boards}
    other = with_candidate_children(generate_chunk(SEED, 1, GenerationSettings(games=3), seen), SEED, 1, 3)
    save_shard(shard_path(second, 0), labelled(other))
    classes = tuple(int(code) for code in PositionClass)
    train = gather([first, second], classes, repeats={second: 2}, siblings=True)[TRAIN]
    assert train.groups is not None and len(train.groups) == len(train)
    sizes = [len(expanded), len(other), len(other)]
    assert len(train) == sum(sizes)  # no board of one chunk repeats in the other
    starts = np.cumsum([0, *sizes])
    used = [set(train.groups[a:b][train.groups[a:b] >= 0].tolist()) for a, b in zip(starts, starts[1:])]
    assert all(used) and not (used[0] & used[1]) and not (used[1] & used[2]) and not (used[0] & used[2])
    assert len(used[1]) == len(used[2])  # the repeat has groups of its own, as many
    assert gather([first], classes)[TRAIN].groups is None


def test_the_sibling_benchmark_scores_the_test_shards_positions_of_the_class_asked(tmp_path):
    """benchmarks/sibling_errors.py: each class's errors are its own rows of the test shards
    only, in order, with their groups; a training shard is not read."""
    # Games from the opening and from back games, so that both contact and crashed rows occur
    # whatever the shipped networks play (3 games from the opening alone may never crash).
    mixed = GenerationSettings(games=3, scenario_weights=(1.0, 1.0, 0.0, 0.0, 0.0))
    shard = labelled(with_candidate_children(generate_chunk(SEED, CHUNK, mixed, set()), SEED, CHUNK, 3))
    save_shard(shard_path(tmp_path, 9), shard)  # index 9: a test shard
    save_shard(shard_path(tmp_path, 0), shard)  # index 0: training, skipped
    evaluator = default_evaluator()
    groups = sibling_groups(shard)
    for position_class in (PositionClass.CONTACT, PositionClass.CRASHED):
        rows = shard.classes == position_class
        errors, found_groups, tags = sibling_errors.held_out_errors({"shipped": evaluator}, [tmp_path], position_class)
        expected = (evaluator.evaluate_batch(shard.boards[rows]) - shard.probabilities[rows]) @ EQUITY_WEIGHTS
        np.testing.assert_array_equal(errors["shipped"], expected)
        np.testing.assert_array_equal(found_groups, groups[rows])
        np.testing.assert_array_equal(tags, shard.tags[rows])
    assert (shard.classes == PositionClass.CONTACT).any() and (shard.classes == PositionClass.CRASHED).any()


def test_groups_by_tag_keep_the_groups_one_of_whose_plays_has_the_tag():
    """benchmarks/sibling_errors.py --by-tag: a group counts under each tag of any of its rows,
    untagged when no row has one; rows outside groups stay out."""
    groups = np.array([0, 0, 1, 1, 1, 2, 2, NO_GROUP])
    tags = np.array([0, Tag.BACK_GAME, 0, 0, 0, Tag.GAMMONISH | Tag.CLOSED_OUT, 0, Tag.BACK_GAME], dtype=np.uint8)
    by_tag = sibling_errors.groups_by_tag(groups, tags)
    np.testing.assert_array_equal(by_tag["back_game"], [0, 0, NO_GROUP, NO_GROUP, NO_GROUP, NO_GROUP, NO_GROUP, NO_GROUP])
    np.testing.assert_array_equal(by_tag["untagged"], [NO_GROUP, NO_GROUP, 1, 1, 1, NO_GROUP, NO_GROUP, NO_GROUP])
    np.testing.assert_array_equal(by_tag["gammonish"], by_tag["closed_out"])
    np.testing.assert_array_equal(by_tag["gammonish"], [NO_GROUP] * 5 + [2, 2, NO_GROUP])
    assert not (by_tag["long_race"] >= 0).any()
    errors = np.array([0.1, 0.3, 0.0, 0.0, 0.0, 0.5, 0.1, 9.0])
    rms, pairs = sibling_errors.sibling_rms(errors, by_tag["gammonish"])
    assert pairs == 1 and rms == pytest.approx(0.4)

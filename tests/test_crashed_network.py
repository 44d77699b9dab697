"""The crashed-position network slot: the class test (C, against a plain model of its
definition), the dispatch in every path (batched, single, n-ply, move ranking, rollouts,
duels), bit identity without a crashed network, its weights files and typed errors, and the
fit job's --position-class."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from bgcore import _board, _engine, _evaluator, _nn, _selfplay
from bgengine import Position, evaluate, rank_moves
from bgengine.errors import NetworkClassError
from bgengine.evaluation.evaluator import (
    NetworkEvaluator,
    crashed_network_of,
    default_evaluator,
    evaluator_identity,
    _probabilities,
)
from bgengine.evaluation.network_weights import (
    load_network,
    network_arrays,
    network_parameters,
    save_network_weights,
    weights_class,
)
from bgengine.evaluation.pubeval import pubeval_player
from bgengine.rollouts.monte_carlo import RolloutSettings, rollout
from bgengine.training.classes import PositionClass, classify
from conftest import random_play_positions

CONTACT, CRASHED, RACE = int(PositionClass.CONTACT), int(PositionClass.CRASHED), int(PositionClass.RACE)


# ----- the class definition ---------------------------------------------------------------


def model_class(board: list[int]) -> int:
    """The classes' definition read literally: contact while some checker of the player on
    roll is behind an opponent's checker; then crashed when a side has at most 6 checkers on
    its bar and its own points 3..24."""
    mover_rearmost = max((slot for slot in range(1, 26) if board[slot] > 0), default=None)
    opponent_rearmost = min((slot for slot in range(0, 25) if board[slot] < 0), default=None)
    if mover_rearmost is None or opponent_rearmost is None or mover_rearmost <= opponent_rearmost:
        return RACE
    in_play = (
        sum(board[slot] for slot in range(3, 26) if board[slot] > 0),  # mover: own point p is slot p, bar 25
        sum(-board[slot] for slot in range(0, 23) if board[slot] < 0),  # opponent: own point p is slot 25 - p, bar 0
    )
    return CRASHED if min(in_play) <= 6 else CONTACT


def seeded_boards(count: int, seed: int) -> np.ndarray:
    """Possible boards of every class: each side puts a random number of checkers on random
    own points (now and then only its home board, now and then many on its 1- and 2-points
    or the bar), the rest borne off."""
    rng = np.random.default_rng(seed)
    boards = np.zeros((count, 26), dtype=np.int8)
    for board in boards:
        for sign in (1, -1):
            home_only = rng.random() < 0.3
            low_share, bar_share = rng.choice([0.0, 0.3, 0.7]), rng.choice([0.0, 0.05, 0.2])
            for _ in range(int(rng.integers(1, 16))):
                for _attempt in range(20):  # (a checker with no free point stays off)
                    draw = rng.random()
                    point = (25 if draw < bar_share and not home_only else int(rng.integers(1, 3)) if draw < bar_share + low_share
                             else int(rng.integers(1, 7 if home_only else 25)))
                    slot = point if sign == 1 else 25 - point
                    if board[slot] * sign >= 0:
                        board[slot] += sign
                        break
    return boards


def test_the_c_classes_are_the_definitions_on_seeded_boards_of_every_class():
    boards = np.concatenate([seeded_boards(20_000, 1),
                             np.array([np.asarray(p) for p in random_play_positions(3000, 2)], dtype=np.int8)])
    codes = _engine.position_classes(boards)
    expected = np.array([model_class(board.tolist()) for board in boards])
    assert np.array_equal(codes, expected)
    assert min(np.bincount(codes, minlength=3)) > 2000  # every class well represented


def test_classify_calls_the_c_definition_and_splits_exact_bear_offs_off_races():
    boards = seeded_boards(3000, 3)
    classes = np.array([int(classify(board)) for board in boards])
    codes = _engine.position_classes(boards)
    assert np.array_equal(np.where(classes == PositionClass.EXACT, RACE, classes), codes)
    assert (classes == PositionClass.EXACT).any()
    assert (PositionClass.CONTACT, PositionClass.CRASHED, PositionClass.RACE) == (
        _engine.CONTACT, _engine.CRASHED, _engine.RACE)


OPPONENT_FULL = {20: 2, 13: 5, 8: 3, 6: 5}  # its 20-point: the mover's 5, in front of every mover point used


@pytest.mark.parametrize("mover, bar, in_play, expected", [
    ({13: 6, 1: 5, 2: 4}, 0, 6, PositionClass.CRASHED),   # exactly 6 in play
    ({13: 7, 1: 4, 2: 4}, 0, 7, PositionClass.CONTACT),   # 7
    ({24: 6}, 0, 6, PositionClass.CRASHED),               # 9 borne off
    ({24: 5, 1: 5, 2: 4}, 1, 6, PositionClass.CRASHED),   # the bar checker counts
    ({24: 5, 1: 4, 2: 4}, 2, 7, PositionClass.CONTACT),
    ({24: 4, 3: 2, 2: 9}, 0, 6, PositionClass.CRASHED),   # the 3-point counts, the 2-point does not
    ({24: 4, 3: 3, 1: 8}, 0, 7, PositionClass.CONTACT),
])
def test_boundary_cases_on_either_side(mover, bar, in_play, expected):
    position = Position.from_points(mover, OPPONENT_FULL, bar=bar)
    assert _board.checkers_in_play(position.to_bytes()) == (in_play, 15)
    assert _board.checkers_in_play(position.flip().to_bytes()) == (15, in_play)
    for seen in (position, position.flip()):
        assert classify(np.asarray(seen)) is expected
        assert model_class(list(np.asarray(seen))) == expected


def test_few_checkers_in_play_without_contact_is_a_race():
    position = Position.from_points({6: 3, 5: 2}, {3: 2, 1: 1})
    assert _engine.position_classes(np.asarray(position))[0] == RACE


# ----- the dispatch -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def networks():
    """(plain, switched, reference): the shipped engine, the same with a distinct crashed
    network (encoding 1, 24 hidden units), and a Python evaluator doing what the switch must."""
    shipped = default_evaluator(use_crashed_network=False, use_choice_network=False)
    assert shipped.crashed_network is None
    crashed = _nn.NeuralNet.random(24, seed=5, scale=0.4, encoding=1)
    switched = NetworkEvaluator(shipped.network, race_network=shipped.race_network, crashed_network=crashed)

    class Reference:
        def evaluate_batch(self, boards: np.ndarray) -> np.ndarray:
            values = shipped.evaluate_batch(boards)
            rows = np.array([model_class(board.tolist()) == CRASHED for board in boards], dtype=bool)
            if rows.any():
                values[rows] = crashed.evaluate(boards[rows])
            return values

    return shipped, switched, Reference()


def boards_of_every_class() -> np.ndarray:
    boards = np.concatenate([seeded_boards(400, 8),
                             np.array([np.asarray(p) for p in random_play_positions(400, 9)], dtype=np.int8)])
    return np.array([board for board in boards if _board.phase(board.tobytes()) != 3], dtype=np.int8)


@functools.lru_cache(maxsize=1)
def crashed_play_positions() -> tuple[Position, ...]:
    """Crashed positions of seeded random play."""
    return tuple(p for p in random_play_positions(1000, 4) if _engine.position_classes(np.asarray(p, dtype=np.int8))[0] == CRASHED)


def crashed_positions(count: int) -> list[Position]:
    found = list(crashed_play_positions()[:count])
    assert len(found) == count
    return found


def test_batched_evaluations_change_on_crashed_boards_only(networks):
    plain, switched, reference = networks
    boards = boards_of_every_class()
    crashed_rows = _engine.position_classes(boards) == CRASHED
    got = switched.evaluate_batch(boards)
    assert np.array_equal(got, reference.evaluate_batch(boards))
    assert np.array_equal(np.any(got != plain.evaluate_batch(boards), axis=1), crashed_rows)
    assert crashed_rows.sum() > 50


def test_a_batch_through_the_engine_gives_the_floats_of_one_board_at_a_time(networks):
    # the engine hands runs of consecutive boards of one class to that class's network in one
    # call (bgcore._engine.engine_evaluate); finished and race boards break the runs
    _, switched, _ = networks
    boards = boards_of_every_class()
    classes = _engine.position_classes(boards)
    assert len(set(classes.tolist())) == 3 and np.any(classes[1:] != classes[:-1])
    one_at_a_time = np.concatenate([switched.evaluate_batch(boards[i : i + 1]) for i in range(len(boards))])
    assert np.array_equal(switched.evaluate_batch(boards), one_at_a_time)


def test_single_position_and_n_ply_evaluations_use_the_crashed_network(networks):
    plain, switched, reference = networks
    positions = crashed_positions(4) + random_play_positions(4, 12)
    boards = np.array([np.asarray(p) for p in positions], dtype=np.int8)
    for plies in (0, 1):
        searched = switched.evaluate_plies(boards, plies)
        assert np.array_equal(searched, _probabilities(reference, boards, plies, None))
        for i, position in enumerate(positions):  # the fast single-position path
            assert evaluate(position, plies=plies, evaluator=switched) == evaluate(position, plies=plies, evaluator=reference)
    assert not np.array_equal(switched.evaluate_plies(boards[:4], 1), plain.evaluate_plies(boards[:4], 1))
    two_ply = switched.evaluate_plies(boards[:1], 2)
    assert np.array_equal(two_ply, _probabilities(reference, boards[:1], 2, None))


def test_move_ranking_uses_the_crashed_network(networks):
    plain, switched, reference = networks
    position = crashed_positions(1)[0]
    for plies in (0, 1):
        fast = rank_moves(position, (6, 3), plies=plies, evaluator=switched)
        general = rank_moves(position, (6, 3), plies=plies, evaluator=reference)
        assert [(m.move, m.probabilities, m.plies) for m in fast] == [(m.move, m.probabilities, m.plies) for m in general]
    assert ([m.probabilities for m in rank_moves(position, (6, 3), evaluator=switched)]
            != [m.probabilities for m in rank_moves(position, (6, 3), evaluator=plain)])


def test_rollouts_use_the_crashed_network(networks):
    plain, switched, reference = networks
    position = crashed_positions(1)[0]
    settings = RolloutSettings(trials=36, seed=3, block_size=36)
    got = rollout(position, settings=settings, evaluator=switched)
    expected = rollout(position, settings=settings, evaluator=_evaluator.PythonEvaluator(reference))
    assert got.probabilities == expected.probabilities and got.equity == expected.equity
    assert got.probabilities != rollout(position, settings=settings, evaluator=plain).probabilities


def test_duels_use_the_crashed_network(networks):
    plain, switched, reference = networks

    def points(evaluator: _evaluator.CEvaluator) -> np.ndarray:
        return _selfplay.duel(_selfplay.EnginePlayer(evaluator), pubeval_player(), 40, np.random.PCG64(6))

    got = points(switched.c_evaluator())
    assert np.array_equal(got, points(_evaluator.PythonEvaluator(reference)))
    assert not np.array_equal(got, points(plain.c_evaluator()))


def test_the_contact_network_in_the_crashed_slot_gives_the_same_values_bit_for_bit(networks):
    plain, _, _ = networks
    doubled = NetworkEvaluator(plain.network, race_network=plain.race_network, crashed_network=plain.network)
    boards = boards_of_every_class()
    assert np.array_equal(doubled.evaluate_batch(boards), plain.evaluate_batch(boards))
    assert np.array_equal(doubled.evaluate_plies(boards[:6], 1), plain.evaluate_plies(boards[:6], 1))
    position = crashed_positions(1)[0]
    assert evaluate(position, plies=1, evaluator=doubled) == evaluate(position, plies=1, evaluator=plain)
    settings = RolloutSettings(trials=36, seed=3, block_size=36)
    assert (rollout(position, settings=settings, evaluator=doubled).probabilities
            == rollout(position, settings=settings, evaluator=plain).probabilities)


def test_the_default_evaluator_loads_the_shipped_crashed_network_unless_told_not_to():
    shipped = default_evaluator()
    assert shipped.crashed_network is not None
    assert shipped.c_evaluator().crashed_network is shipped.crashed_network
    plain = default_evaluator(use_crashed_network=False)
    assert plain.crashed_network is None and plain.c_evaluator().crashed_network is None
    assert plain.network is shipped.network


def test_the_kernel_follows_a_changed_crashed_network(networks):
    plain, _, _ = networks
    evaluator = NetworkEvaluator(plain.network, race_network=plain.race_network)
    first = evaluator.c_evaluator()
    evaluator.crashed_network = _nn.NeuralNet.random(8, seed=1, encoding=2)
    assert evaluator.c_evaluator() is not first
    assert evaluator.c_evaluator().crashed_network is evaluator.crashed_network


# ----- weights files, errors, identity ------------------------------------------------------


def write_weights(path, network: _nn.NeuralNet, position_class: str) -> None:
    save_network_weights(path, network_parameters(network), {"made": "test"}, position_class)


def test_weights_files_name_their_class_and_are_refused_in_the_other_slot(tmp_path):
    network = _nn.NeuralNet.random(8, seed=2, encoding=1)
    write_weights(tmp_path / "crashed.npz", network, "crashed")
    write_weights(tmp_path / "contact.npz", network, "contact")
    assert weights_class(tmp_path / "crashed.npz") == "crashed" and weights_class(tmp_path / "contact.npz") == "contact"
    with np.load(tmp_path / "crashed.npz") as data:
        assert json.loads(str(data["record"]))["position_class"] == "crashed"
    loaded = crashed_network_of(tmp_path / "crashed.npz")
    assert loaded is not None and np.array_equal(loaded.hidden_weights, network.hidden_weights)
    with pytest.raises(NetworkClassError, match="crashed positions, not contact"):
        NetworkEvaluator.from_file(tmp_path / "crashed.npz")
    with pytest.raises(NetworkClassError, match="contact positions, not crashed"):
        NetworkEvaluator(network, crashed_network=tmp_path / "contact.npz")
    with pytest.raises(NetworkClassError, match="NeuralNet, a weights path or None"):
        NetworkEvaluator(network, crashed_network=42)  # type: ignore[arg-type]
    with pytest.raises(NetworkClassError):
        write_weights(tmp_path / "race.npz", network, "race")
    np.savez(tmp_path / "odd.npz", **{**network_arrays(network), "position_class": np.array("race")})
    with pytest.raises(NetworkClassError, match="unknown position class"):
        load_network(tmp_path / "odd.npz")


def test_files_without_a_class_are_contact_networks(tmp_path):
    network = _nn.NeuralNet.random(8, seed=2, encoding=2)
    np.savez(tmp_path / "old.npz", **{k: v for k, v in network_arrays(network).items() if k != "position_class"})
    assert weights_class(tmp_path / "old.npz") == "contact"
    assert NetworkEvaluator.from_file(tmp_path / "old.npz").network.encoding == 2
    with pytest.raises(NetworkClassError):
        crashed_network_of(tmp_path / "old.npz")


def test_the_engine_kernel_takes_only_a_network_as_its_crashed_one():
    network = _nn.NeuralNet.random(8, seed=2)
    with pytest.raises(TypeError):
        _engine.EngineCEvaluator(network, None, None, "crashed.npz")
    kernel = _engine.EngineCEvaluator(network, None, None, network)
    assert kernel.crashed_network is network
    restored = __import__("pickle").loads(__import__("pickle").dumps(kernel))
    assert restored.crashed_network is not None and restored.crashed_network.num_hidden == 8


def test_the_evaluators_identity_and_the_distillation_teachers_name_include_the_crashed_network(tmp_path):
    from bgengine.training.pipeline import search_teacher

    shipped = default_evaluator()
    contact_only = default_evaluator(use_crashed_network=False)
    crashed = _nn.NeuralNet.random(8, seed=3)
    switched = NetworkEvaluator(shipped.network, crashed_network=crashed)
    assert evaluator_identity(contact_only)["crashed"] is None
    assert evaluator_identity(shipped)["crashed"] not in (None, evaluator_identity(switched)["crashed"])
    assert evaluator_identity(switched)["contact"] == evaluator_identity(shipped)["contact"]
    assert evaluator_identity(switched)["crashed"] is not None
    write_weights(tmp_path / "crashed.npz", crashed, "crashed")
    default_teacher, default_name = search_teacher()
    teacher, name = search_teacher(crashed=tmp_path / "crashed.npz")
    contact_name = default_name.split("+crashed:")[0]
    assert default_teacher.crashed_network is not None
    assert default_name == f"{contact_name}+crashed:{evaluator_identity(shipped)['crashed']}"
    assert name == f"{contact_name}+crashed:{evaluator_identity(switched)['crashed']}"
    assert teacher.crashed_network is not None


# ----- the fit job ---------------------------------------------------------------------------


def labelled_shards(directory, evaluator: NetworkEvaluator) -> None:
    """Ten label shards of boards of every class, labelled at 0-ply."""
    from bgengine.training.dataset import Shard, save_shard, shard_path

    chosen = seeded_boards(400, 11)
    for index in range(10):
        part = chosen[index * 40:(index + 1) * 40]
        classes = np.array([int(classify(b)) for b in part], dtype=np.int8)
        labels = evaluator.evaluate_batch(part).astype(np.float64)
        save_shard(shard_path(directory, index),
                   Shard(part, classes, np.zeros(40, np.uint8), {"label_seed": 1}, labels, np.zeros((40, 5)),
                         np.zeros(40), np.zeros(40, np.uint64), np.zeros(40, np.int32), np.zeros(40, np.float32)))


def test_fit_position_class_keeps_that_class_and_writes_a_network_for_its_slot(tmp_path):
    from bgengine.training.fit_job import evaluator_kind, fit_network
    from bgengine.training.supervised import FitSettings

    labelled_shards(tmp_path / "labels", default_evaluator())
    start = tmp_path / "start.npz"
    write_weights(start, _nn.NeuralNet.random(16, seed=4, scale=0.3), "contact")
    records = {}
    for position_class in ("crashed", "contact", "all"):
        records[position_class] = fit_network(
            evaluator_kind(1, position_class), tmp_path / position_class, FitSettings(seed=2, hidden=16, max_epochs=1),
            [tmp_path / "labels"], None, lambda _: None, init=start)
    counts = {name: sum(record["data"][role]["positions"] for role in ("train", "validation", "test"))
              for name, record in records.items()}
    assert counts["crashed"] + counts["contact"] == counts["all"] and counts["crashed"] > 20 and counts["contact"] > 20
    assert records["crashed"]["position_classes"] == ["crashed"]
    assert set(records["crashed"]["held_out_by_class"]) == {"crashed"}
    assert set(records["all"]["held_out_by_class"]) == {"contact", "crashed"}
    by_class = records["all"]["held_out_by_class"]
    assert by_class["contact"]["network"]["n"] + by_class["crashed"]["network"]["n"] == records["all"]["held_out"]["network"]["n"]
    assert weights_class(tmp_path / "crashed" / "crashed_weights.npz") == "crashed"
    assert "| crashed | network |" in (tmp_path / "crashed" / "crashed_weights.md").read_text()
    assert weights_class(tmp_path / "contact" / "evaluator_weights.npz") == "contact"
    assert crashed_network_of(tmp_path / "crashed" / "crashed_weights.npz") is not None
    with pytest.raises(NetworkClassError):
        NetworkEvaluator.from_file(tmp_path / "crashed" / "crashed_weights.npz")


def test_position_class_is_refused_for_the_correction_networks():
    from bgengine.training.__main__ import main

    with pytest.raises(SystemExit):
        main(["fit", "--class", "race", "--out", "x", "--seed", "1", "--position-class", "crashed"])

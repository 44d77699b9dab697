"""The hard-position job (back, holding and closed-out games rolled out to the end) and
weighting a label directory in the fit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bgengine import Position, RolloutSettings
from bgengine.training.__main__ import main
from bgengine.training.classes import PositionClass, classify, has_contact, pips, side_counts
from bgengine.training.corpus import TEST, TRAIN, VALIDATION, gather
from bgengine.training.dataset import Shard, load_shard, save_shard, shard_path
from bgengine.training.labels import HARD_PLAN, LabelPlan
from bgengine.training.pipeline import build_hard
from bgengine.training.positions import GenerationSettings
from bgengine.training.scenarios import (HARD_SCENARIOS, HOLDING_DEFICIT, ace_point_ending, closed_out_bearoff, containment_ending,
                                        holding_game)

TINY_HARD = GenerationSettings(games=2, sample_rate=0.2, scenario_weights=(1.0, 1.0, 1.0, 1.0, 1.0, 1.0))
TINY_FULL_GAMES = LabelPlan(race=RolloutSettings(trials=2, variance_reduction=False),
                            contact=RolloutSettings(trials=2, variance_reduction=False))


def test_a_holding_game_has_one_anchor_of_the_trailing_side_on_the_others_4_5_or_bar_point():
    rng = np.random.default_rng(3)
    for _ in range(30):
        board = np.asarray(holding_game(rng))
        assert has_contact(board)
        mover, opponent = side_counts(board)
        holder, ahead = (mover, opponent) if pips(mover) > pips(opponent) else (opponent, mover)
        assert HOLDING_DEFICIT <= pips(holder) - pips(ahead) <= 3 * HOLDING_DEFICIT + 30
        anchors = [point for point in range(14, 26) if holder[point] > 0]
        assert len(anchors) == 1 and anchors[0] in (18, 20, 21) and holder[anchors[0]] >= 2
        assert holder.sum() == ahead.sum() == 15


def test_a_closed_out_bearoff_has_a_side_on_the_bar_against_a_closed_board_bearing_off():
    rng = np.random.default_rng(4)
    for _ in range(30):
        board = np.asarray(closed_out_bearoff(rng))
        mover, opponent = side_counts(board)
        victim, strong = (mover, opponent) if mover[25] else (opponent, mover)
        assert 1 <= victim[25] <= 3 and not victim[7:25].any() and not strong[7:].any()
        assert int((strong[1:7] >= 2).sum()) >= 5 and strong.sum() >= 10


def _longest_prime(side: np.ndarray) -> tuple[int, int]:
    """(length, lowest point) of a side's longest run of held points."""
    best, run = (0, 0), 0
    for point in range(1, 25):
        run = run + 1 if side[point] >= 2 else 0
        best = max(best, (run, point - run + 1))
    return best


def _short_side_first(board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(side with fewer checkers left, the other side), each counted from its own side."""
    mover, opponent = side_counts(board)
    return (mover, opponent) if mover.sum() < opponent.sum() else (opponent, mover)


def test_a_containment_ending_traps_a_short_side_behind_a_prime():
    rng = np.random.default_rng(5)
    for _ in range(40):
        board = np.asarray(containment_ending(rng))
        assert classify(board) == PositionClass.CRASHED
        victim, strong = _short_side_first(board)
        length, low = _longest_prime(strong)
        assert 2 <= victim.sum() <= 4 and 12 <= strong.sum() <= 15 and length >= 4
        trapped = victim[25] + sum(victim[25 - q] for q in range(1, low))
        assert trapped >= 1


def test_an_ace_point_ending_holds_checkers_back_against_a_side_bearing_off():
    rng = np.random.default_rng(6)
    for _ in range(40):
        board = np.asarray(ace_point_ending(rng))
        assert has_contact(board)
        bearing, holder = _short_side_first(board)
        assert 1 <= bearing.sum() <= 8 and not bearing[7:].any() and holder.sum() == 15
        assert 1 <= holder[22:25].sum() <= 3 and holder[19:22].sum() == 0 and holder[25] == 0
        assert holder[7:19].sum() <= 4
        assert not any(bearing[p] and holder[25 - p] for p in range(1, 25))


def test_the_hard_job_rolls_out_contact_positions_of_hard_starts_to_the_end(tmp_path: Path):
    build_hard(tmp_path / "a", 7, range(2), TINY_HARD, TINY_FULL_GAMES)
    build_hard(tmp_path / "b", 7, range(1, 2), TINY_HARD, TINY_FULL_GAMES)
    first, alone = (load_shard(shard_path(root / "labels", 1)) for root in (tmp_path / "a", tmp_path / "b"))
    assert len(first) > 0 and PositionClass.RACE not in first.classes.tolist()
    assert first.meta["scenarios"] == list(HARD_SCENARIOS) and first.meta["plan"]["contact"]["truncate_plies"] is None
    np.testing.assert_array_equal(first.boards, alone.boards)
    np.testing.assert_array_equal(first.probabilities, alone.probabilities)
    assert HARD_PLAN.contact.truncate_plies is None and HARD_PLAN.contact.variance_reduction


def test_the_hard_command_takes_the_trials_and_the_start_mix(tmp_path: Path):
    assert main(["hard", "--out", str(tmp_path), "--seed", "3", "--chunks", "1", "--games", "1", "--trials", "2",
                 "--sample-rate", "0.1", "--scenario-weights", "0", "1", "0", "0", "0", "0"]) == 0
    shard = load_shard(shard_path(tmp_path / "labels", 0))
    assert shard.meta["plan"]["contact"]["trials"] == 2 and shard.meta["generation"]["scenario_weights"] == [0, 1, 0, 0, 0, 0]
    assert set(shard.meta["sources"]) == {1} and set(shard.trials.tolist()) <= {2}


def _labelled(boards: list[np.ndarray], value: float) -> Shard:
    n = len(boards)
    return Shard(np.array(boards, np.int8), np.zeros(n, np.int8), np.zeros(n, np.uint8), {}, np.full((n, 5), value),
                 np.zeros((n, 5)), np.zeros(n), np.zeros(n, np.uint64), np.zeros(n, np.int32), np.zeros(n, np.float32))


def test_a_weighted_directory_repeats_its_training_and_validation_positions_and_wins_shared_boards(tmp_path: Path):
    boards = [np.asarray(Position.initial())] + [np.asarray(holding_game(np.random.default_rng(s))) for s in range(3)]
    save_shard(shard_path(tmp_path / "hard", 0), _labelled(boards[:2], 0.2))
    save_shard(shard_path(tmp_path / "hard", 9), _labelled(boards[2:3], 0.2))
    save_shard(shard_path(tmp_path / "hard", 8), _labelled(boards[3:4], 0.2))
    save_shard(shard_path(tmp_path / "plain", 0), _labelled([boards[1], boards[3]], 0.7))
    splits = gather([tmp_path / "hard", tmp_path / "plain"], (PositionClass.CONTACT,),
                    repeats={tmp_path / "hard": 3})
    assert len(splits[TRAIN]) == 2 * 3 and len(splits[TEST]) == 1 and len(splits[VALIDATION]) == 3
    assert sorted(splits[TRAIN].targets[:, 0].tolist()) == [0.2] * 6  # boards[1]: the weighted directory's label
    assert any(" x3" in name for name in splits[TRAIN].sources)
    with pytest.raises(ValueError):
        gather([tmp_path / "hard"], (PositionClass.CONTACT,), repeats={tmp_path / "hard": 0})


def test_a_gammons_only_directory_counts_its_gammon_labels_alone_and_holds_no_test_positions(tmp_path: Path):
    from bgengine.training.fit_job import evaluator_kind, examples

    boards = [np.asarray(holding_game(np.random.default_rng(s))) for s in range(4)]
    save_shard(shard_path(tmp_path / "rollouts", 0), _labelled(boards[:2], 0.3))
    save_shard(shard_path(tmp_path / "rollouts", 9), _labelled(boards[2:3], 0.3))  # a test shard: left out
    save_shard(shard_path(tmp_path / "plain", 0), _labelled([boards[1], boards[3]], 0.6))
    splits = gather([tmp_path / "plain", tmp_path / "rollouts"], (PositionClass.CONTACT,),
                    repeats={tmp_path / "rollouts": 2}, gammons_only={tmp_path / "rollouts"})
    train = splits[TRAIN]
    assert len(splits[TEST]) == 0 and len(train) == 2 + 2  # boards[1] keeps the plain label; boards[0] twice
    assert train.counted is not None
    assert train.counted[train.targets[:, 0] == 0.6].tolist() == [[1, 1, 1, 1, 1]] * 2
    assert train.counted[train.targets[:, 0] == 0.3].tolist() == [[0, 1, 1, 1, 1]] * 2
    assert any(name.endswith("x2 gammons only") for name in train.sources)
    data = examples(evaluator_kind(3), train)
    assert data.possible is not None and data.possible[train.targets[:, 0] == 0.3, 0].tolist() == [0, 0]
    assert gather([tmp_path / "plain"], (PositionClass.CONTACT,))[TRAIN].counted is None


def test_the_fit_command_takes_gammon_data_for_the_evaluator_only_and_not_twice(tmp_path: Path, capsys):
    with pytest.raises(SystemExit):
        main(["fit", "--class", "race", "--out", str(tmp_path / "run"), "--seed", "1", "--no-truth",
              "--gammon-data", str(tmp_path), "1"])
    assert "--gammon-data applies to --class evaluator only" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["fit", "--class", "evaluator", "--out", str(tmp_path / "run"), "--seed", "1", "--no-truth",
              "--data", str(tmp_path), "--gammon-data", str(tmp_path), "1"])
    assert "cannot also be read for all its labels" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()

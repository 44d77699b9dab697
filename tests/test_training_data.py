"""The training-data pipeline: classes, the shard format, seeded positions and labels, resuming."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import bgengine

from bgengine import Phase, Position, RolloutSettings
from bgengine.training.classes import PositionClass, Tag, classify, has_contact, possible_outcomes, tags
from bgengine.training.dataset import Shard, load_shard, save_shard, shard_path, shard_paths
from bgengine.training.labels import LabelPlan, label_shard, position_seed, weights_digest
from bgengine.training.pipeline import build_training, build_truth
from bgengine.training.positions import GenerationSettings, generate_chunk

TINY_GENERATION = GenerationSettings(games=3)
#: Every position kept, so chunks share opening positions and resuming must deduplicate them.
RESUME_GENERATION = GenerationSettings(games=4, sample_rate=1.0)
TINY_PLAN = LabelPlan(
    race=RolloutSettings(trials=6, variance_reduction=False),
    contact=RolloutSettings(trials=6, variance_reduction=False, truncate_plies=2),
)


def board(position: Position) -> np.ndarray:
    return np.asarray(position)


# ----- classes --------------------------------------------------------------------------


def test_classify_a_long_race_without_contact():
    race = Position.from_points({10: 5, 8: 5, 6: 5}, {9: 5, 7: 5, 5: 5})
    assert classify(board(race)) is PositionClass.RACE
    assert tags(board(race)) == Tag.LONG_RACE


def test_classify_a_small_bearoff_as_exact_and_a_seven_checker_one_as_race():
    assert classify(board(Position.from_points({6: 2, 5: 1}, {3: 3}))) is PositionClass.EXACT
    assert classify(board(Position.from_points({6: 4, 5: 3}, {3: 3}))) is PositionClass.RACE


def test_gammon_saving_race_is_tagged():
    position = Position.from_points({12: 3, 9: 4, 5: 8}, {3: 2, 2: 2, 1: 1})
    assert classify(board(position)) is PositionClass.RACE
    assert Tag.GAMMON_SAVE in tags(board(position))


def test_back_game_is_contact_with_the_back_game_tag():
    back_game = Position.from_points({24: 2, 22: 2, 13: 4, 8: 3, 6: 4}, {6: 4, 5: 4, 4: 3, 2: 2})
    assert classify(board(back_game)) is PositionClass.CONTACT
    assert tags(board(back_game)) & Tag.BACK_GAME
    assert not tags(board(back_game.flip())) & Tag.CLOSED_OUT
    assert tags(board(back_game.flip())) & Tag.BACK_GAME  # the same side, seen from the other


def test_one_anchor_while_ahead_is_no_back_game():
    assert not tags(board(Position.initial())) & Tag.BACK_GAME


def test_checker_on_the_bar_against_a_closed_board_is_closed_out():
    position = Position.from_points({13: 5, 10: 2, 8: 4}, {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 8: 3}, bar=1)
    assert classify(board(position)) is PositionClass.CONTACT
    assert tags(board(position)) == Tag.CLOSED_OUT
    assert tags(board(position.flip())) == Tag.CLOSED_OUT


def test_side_with_few_checkers_in_play_is_crashed():
    crashed = Position.from_points({1: 4, 2: 4, 3: 2, 24: 2}, {13: 5, 8: 3, 6: 5})
    assert classify(board(crashed)) is PositionClass.CRASHED
    assert classify(board(crashed.flip())) is PositionClass.CRASHED


def test_gammonish_only_from_given_probabilities():
    start = board(Position.initial())
    assert not tags(start) & Tag.GAMMONISH
    assert tags(start, np.array([0.6, 0.3, 0.01, 0.1, 0.0])) & Tag.GAMMONISH
    assert not tags(start, np.array([0.6, 0.2, 0.01, 0.1, 0.0])) & Tag.GAMMONISH


def test_contact_agrees_with_the_position_phase():
    positions = generate_chunk(11, 0, GenerationSettings(games=6), set())
    assert len(positions) > 30
    for row in positions.boards:
        assert has_contact(row) == (Position.from_array(row).phase is Phase.CONTACT)


# ----- the shard format -----------------------------------------------------------------


def test_shard_round_trips(tmp_path: Path):
    positions = generate_chunk(5, 0, TINY_GENERATION, set())
    labelled = label_shard(positions, 5, 0, TINY_PLAN)
    path = shard_path(tmp_path, 0)
    save_shard(path, labelled)
    again = load_shard(path)
    assert again.boards.dtype == np.int8 and again.boards.shape == (len(positions), 26)
    for name in ("boards", "classes", "tags", "probabilities", "standard_errors",
                 "equity_standard_errors", "seeds", "trials", "seconds"):
        np.testing.assert_array_equal(getattr(again, name), getattr(labelled, name))
    assert again.meta["plan"]["contact"]["truncate_plies"] == 2
    assert again.meta["seed"] == 5 and again.meta["format"] == "bgengine.training-shard/1"
    assert shard_paths(tmp_path) == [path]


def test_unlabelled_shard_has_no_labels(tmp_path: Path):
    positions = generate_chunk(5, 0, TINY_GENERATION, set())
    save_shard(tmp_path / "p.npz", positions)
    assert not load_shard(tmp_path / "p.npz").labelled


# ----- seeds ----------------------------------------------------------------------------


def test_same_seed_gives_the_same_positions_and_labels():
    first = generate_chunk(7, 2, TINY_GENERATION, set())
    second = generate_chunk(7, 2, TINY_GENERATION, set())
    np.testing.assert_array_equal(first.boards, second.boards)
    np.testing.assert_array_equal(first.tags, second.tags)
    other = generate_chunk(8, 2, TINY_GENERATION, set())
    assert first.boards.shape != other.boards.shape or (first.boards != other.boards).any()
    labels_a = label_shard(first, 7, 2, TINY_PLAN)
    labels_b = label_shard(second, 7, 2, TINY_PLAN)
    np.testing.assert_array_equal(labels_a.probabilities, labels_b.probabilities)
    np.testing.assert_array_equal(labels_a.seeds, labels_b.seeds)


def test_positions_are_deduplicated_and_never_exact():
    seen: set[bytes] = set()
    first = generate_chunk(3, 0, GenerationSettings(games=8), seen)
    second = generate_chunk(3, 1, GenerationSettings(games=8), seen)
    keys = [row.tobytes() for row in np.concatenate([first.boards, second.boards])]
    assert len(keys) == len(set(keys))
    assert PositionClass.EXACT not in set(np.concatenate([first.classes, second.classes]).tolist())


def test_position_seeds_differ_by_shard_index_and_run_seed():
    seeds = {position_seed(1, shard, index) for shard in range(3) for index in range(50)}
    assert len(seeds) == 150
    assert position_seed(1, 0, 0) != position_seed(2, 0, 0)
    assert position_seed(1, 0, 0) == position_seed(1, 0, 0)


# ----- resuming -------------------------------------------------------------------------


class Killed(Exception):
    """Stands in for the job being killed."""


def _same_shards(a: Path, b: Path) -> None:
    names_a = sorted(p.relative_to(a) for p in a.rglob("*.npz"))
    assert names_a == sorted(p.relative_to(b) for p in b.rglob("*.npz")) and names_a
    for name in names_a:
        x, y = load_shard(a / name), load_shard(b / name)
        for field in ("boards", "classes", "tags", "probabilities", "standard_errors", "seeds", "trials"):
            np.testing.assert_array_equal(getattr(x, field), getattr(y, field))
        assert x.meta == y.meta


def test_killed_and_resumed_run_makes_the_same_shards(tmp_path: Path):
    build_training(tmp_path / "whole", 22, 3, RESUME_GENERATION, TINY_PLAN)

    def kill_after_positions_of_chunk_1(message: str) -> None:
        if message.startswith("positions 1"):
            raise Killed

    resumed = tmp_path / "resumed"
    with pytest.raises(Killed):
        build_training(resumed, 22, 3, RESUME_GENERATION, TINY_PLAN, log=kill_after_positions_of_chunk_1)
    assert not shard_path(resumed / "labels", 1).exists()
    (resumed / "labels" / ".shard-00001.npz.999.tmp").write_bytes(b"half a shard")
    build_training(resumed, 22, 3, RESUME_GENERATION, TINY_PLAN)
    _same_shards(tmp_path / "whole", resumed)


def test_truth_set_fills_every_category_interleaved_and_resumes(tmp_path: Path):
    quotas = {"back_game": 2, "closed_out": 2, "crashed": 2, "race": 2, "contact": 2}
    build_truth(tmp_path / "whole", 9, quotas, plan=TINY_PLAN, shard_size=4)

    def kill_after_first_labels(message: str) -> None:
        if message.startswith("truth labels 0"):
            raise Killed

    with pytest.raises(Killed):
        build_truth(tmp_path / "resumed", 9, quotas, plan=TINY_PLAN, shard_size=4, log=kill_after_first_labels)
    build_truth(tmp_path / "resumed", 9, quotas, plan=TINY_PLAN, shard_size=4)
    _same_shards(tmp_path / "whole", tmp_path / "resumed")
    selected = load_shard(tmp_path / "whole" / "positions.npz")
    assert selected.meta["categories"][:5] == list(quotas)
    assert sorted(selected.meta["categories"]) == sorted(c for c, n in quotas.items() for _ in range(n))
    assert len(shard_paths(tmp_path / "whole" / "labels")) == 3


def test_truth_workers_split_the_shards_and_together_make_the_same_set(tmp_path: Path):
    quotas = {"back_game": 2, "closed_out": 2, "crashed": 2, "race": 2, "contact": 2}
    build_truth(tmp_path / "whole", 9, quotas, plan=TINY_PLAN, shard_size=4)
    build_truth(tmp_path / "split", 9, quotas, plan=TINY_PLAN, shard_size=4, worker=1, workers=2)
    assert [p.name for p in shard_paths(tmp_path / "split" / "labels")] == ["shard-00001.npz"]
    build_truth(tmp_path / "split", 9, quotas, plan=TINY_PLAN, shard_size=4, worker=0, workers=2)
    _same_shards(tmp_path / "whole", tmp_path / "split")


def test_the_truth_command_takes_the_contact_trials(tmp_path: Path):
    from bgengine.training.__main__ import main
    from bgengine.training.pipeline import TRUTH_GENERATION, select_truth_positions

    quotas = {"back_game": 1, "closed_out": 0, "crashed": 0, "race": 1, "contact": 1}
    save_shard(tmp_path / "positions.npz", select_truth_positions(9, quotas, TRUTH_GENERATION))
    assert main(["truth", "--out", str(tmp_path), "--seed", "9", "--trials", "4"]) == 0
    shard = load_shard(shard_path(tmp_path / "labels", 0))
    contact = shard.classes != PositionClass.RACE
    assert shard.meta["plan"]["contact"]["trials"] == 4 and shard.meta["plan"]["race"]["trials"] == 1296
    assert contact.sum() == 2 and set(shard.trials[contact].tolist()) == {4}


# ----- distillation labels ----------------------------------------------------------------


def test_search_labels_are_the_engines_own_lookahead_values():
    import bgengine
    from bgengine.evaluation.evaluator import default_evaluator
    from bgengine.training.labels import search_label_shard

    positions = generate_chunk(5, 0, TINY_GENERATION, set())
    labelled = search_label_shard(positions, default_evaluator(), 1, "shipped")
    assert labelled.labelled and labelled.meta["plan"]["plies"] == 1 and labelled.meta["plan"]["teacher"] == "shipped"
    for board, label in list(zip(positions.boards, labelled.probabilities))[:5]:
        expected = bgengine.evaluate(Position.from_array(board), plies=1).probabilities.as_tuple()
        np.testing.assert_allclose(label, expected, atol=1e-6)
    assert not np.array_equal(labelled.probabilities,
                              search_label_shard(positions, default_evaluator(), 0, "shipped").probabilities)


def test_distill_chunks_are_the_same_from_one_worker_or_two_and_after_a_kill(tmp_path: Path):
    from bgengine.training.pipeline import build_distill

    build_distill(tmp_path / "one", 31, range(3), plies=1, generation=TINY_GENERATION)
    for worker in (1, 0):  # in either order
        build_distill(tmp_path / "two", 31, range(worker, 3, 2), plies=1, generation=TINY_GENERATION)
    _same_shards(tmp_path / "one", tmp_path / "two")

    def kill_after_positions_of_chunk_1(message: str) -> None:
        if message.startswith("distill positions 1"):
            raise Killed

    with pytest.raises(Killed):
        build_distill(tmp_path / "resumed", 31, range(3), plies=1, generation=TINY_GENERATION,
                      log=kill_after_positions_of_chunk_1)
    build_distill(tmp_path / "resumed", 31, range(3), plies=1, generation=TINY_GENERATION)
    _same_shards(tmp_path / "one", tmp_path / "resumed")


def test_rollout_distill_rolls_out_the_same_positions_the_search_would_value(tmp_path: Path):
    from bgengine.training.pipeline import build_distill

    build_distill(tmp_path / "search", 12, range(1), plies=0, generation=TINY_GENERATION)
    build_distill(tmp_path / "rollout", 12, range(1), generation=TINY_GENERATION, rollout_plan=TINY_PLAN)
    searched = load_shard(tmp_path / "search" / "labels" / "shard-00000.npz")
    rolled = load_shard(tmp_path / "rollout" / "labels" / "shard-00000.npz")
    np.testing.assert_array_equal(rolled.boards, searched.boards)
    assert rolled.meta["plan"] == TINY_PLAN.as_dict() and (rolled.trials > 0).all()
    positions = load_shard(tmp_path / "rollout" / "positions" / "shard-00000.npz")
    np.testing.assert_array_equal(rolled.probabilities, label_shard(positions, 12, 0, TINY_PLAN).probabilities)
    assert not np.allclose(rolled.probabilities, searched.probabilities, atol=1e-3)
    with pytest.raises(ValueError, match="name no teacher"):
        build_distill(tmp_path / "both", 12, range(1), generation=TINY_GENERATION, rollout_plan=TINY_PLAN,
                      teacher_weights=tmp_path / "any.npz")
    assert not (tmp_path / "both").exists()


def test_races_only_distill_keeps_races_valued_with_the_race_teacher_at_the_leaves(tmp_path: Path):
    from bgengine.evaluation.evaluator import NetworkEvaluator, WEIGHTS_RESOURCE, default_evaluator
    from bgengine.evaluation.race_network import RACE_WEIGHTS_RESOURCE
    from bgengine.training.pipeline import build_distill

    races = GenerationSettings(games=3, scenario_weights=(0, 0, 0, 1, 1))
    package = Path(bgengine.__file__).parent
    race_weights = package / RACE_WEIGHTS_RESOURCE
    build_distill(tmp_path / "races", 8, range(1), plies=1, generation=races, races_only=True, race_teacher=race_weights)
    shard = load_shard(tmp_path / "races" / "labels" / "shard-00000.npz")
    assert len(shard) > 0 and set(shard.classes.tolist()) == {PositionClass.RACE}
    assert shard.meta["plan"]["teacher"].endswith(f" races {weights_digest(race_weights)}")
    shipped = default_evaluator()  # the shipped network with the shipped race network
    np.testing.assert_allclose(shard.probabilities, shipped.evaluate_plies(shard.boards, 1), atol=1e-6)
    approximation = NetworkEvaluator.from_file(package / WEIGHTS_RESOURCE)  # races by the approximation
    assert not np.allclose(shard.probabilities, approximation.evaluate_plies(shard.boards, 1), atol=1e-4)
    with pytest.raises(ValueError):
        build_distill(tmp_path / "both", 8, range(1), plies=1, generation=races, races_only=True, contact_only=True)


def test_relabel_values_a_class_of_label_shards_again_under_the_same_indices(tmp_path: Path):
    from bgengine.evaluation.evaluator import default_evaluator
    from bgengine.training.pipeline import build_distill, build_relabel

    mixed = GenerationSettings(games=3, scenario_weights=(3, 0, 0, 1, 0))
    build_distill(tmp_path / "source", 9, range(2), plies=0, generation=mixed)
    for worker in (1, 0):
        build_relabel(tmp_path / "source" / "labels", tmp_path / "again", (PositionClass.RACE,), plies=1,
                      worker=worker, workers=2)
    for index in range(2):
        source = load_shard(tmp_path / "source" / "labels" / f"shard-{index:05d}.npz")
        again = load_shard(tmp_path / "again" / "labels" / f"shard-{index:05d}.npz")
        races = source.classes == PositionClass.RACE
        assert races.any() and not races.all()
        np.testing.assert_array_equal(again.boards, source.boards[races])
        assert again.meta["plan"]["plies"] == 1 and again.meta["chunk"] == index
        np.testing.assert_allclose(again.probabilities, default_evaluator(False).evaluate_plies(again.boards, 1),
                                       atol=1e-6)


def test_candidate_children_are_new_non_exact_best_moves_of_a_seeded_roll():
    from bgengine.evaluation.evaluator import rank_moves
    from bgengine.training.positions import with_candidate_children

    sampled = generate_chunk(4, 0, TINY_GENERATION, set())
    expanded = with_candidate_children(sampled, 4, 0, 3)
    assert expanded.meta["sampled"] == len(sampled) and expanded.meta["children"] == 3
    np.testing.assert_array_equal(expanded.boards[:len(sampled)], sampled.boards)
    children = expanded.boards[len(sampled):]
    assert len(children) > len(sampled)
    keys = [row.tobytes() for row in expanded.boards]
    assert len(keys) == len(set(keys))
    assert PositionClass.EXACT not in set(expanded.classes.tolist())
    rng = np.random.default_rng(np.random.SeedSequence(4, spawn_key=(2, 0)))
    dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
    best = [np.asarray(m.position).tobytes() for m in rank_moves(Position.from_array(sampled.boards[0]), dice)[:3]]
    assert children[0].tobytes() in best
    np.testing.assert_array_equal(with_candidate_children(sampled, 4, 0, 3).boards, expanded.boards)
    assert not np.array_equal(with_candidate_children(sampled, 5, 0, 3).boards, expanded.boards)


def test_late_gammon_saving_starts_are_races_a_few_rolls_from_a_gammon():
    from bgengine.training.scenarios import SCENARIOS, late_gammon_save

    rng = np.random.default_rng(11)
    for _ in range(200):
        board = np.asarray(late_gammon_save(rng)).astype(int)
        assert classify(board) is PositionClass.RACE
        sides = sorted((np.maximum(board, 0), np.maximum(-board[::-1], 0)), key=lambda side: side.sum())
        bearing, saving = sides  # each in its own numbering but the bar slots, which are empty
        assert 1 <= bearing.sum() <= 8 and saving.sum() == 15
        assert 1 <= saving[7:].sum() <= 5 and bearing[7:].sum() == 0
    assert list(SCENARIOS)[-1] == "late_gammon_save"


def test_scenario_weights_left_out_are_zero_and_too_many_are_refused():
    given = GenerationSettings(games=4, scenario_weights=(0.45, 0.12, 0.1, 0.18, 0.15))
    padded = GenerationSettings(games=4, scenario_weights=(0.45, 0.12, 0.1, 0.18, 0.15, 0.0))
    np.testing.assert_array_equal(generate_chunk(5, 0, given, set()).boards, generate_chunk(5, 0, padded, set()).boards)
    with pytest.raises(ValueError, match="scenario weights"):
        generate_chunk(5, 0, GenerationSettings(games=1, scenario_weights=(1.0,) * 7), set())


def test_possible_outcomes_exclude_the_gammons_of_a_side_with_a_checker_off():
    opening = np.asarray(Position.initial())
    mover_off = opening.copy()
    mover_off[6] -= 1                     # the player on roll has borne off one checker (6-point: 5 -> 4)
    opponent_off = opening.copy()
    opponent_off[19] += 1                 # the opponent has borne off one from its 6-point
    both_off = mover_off.copy()
    both_off[19] += 1
    possible = possible_outcomes(np.array([opening, mover_off, opponent_off, both_off]))
    assert possible.tolist() == [[1, 1, 1, 1, 1], [1, 1, 1, 0, 0], [1, 0, 0, 1, 1], [1, 0, 0, 0, 0]]

"""TD(lambda) self-play training and duels: seeded, deterministic, resumable."""

import numpy as np
import pytest

from bgcore import _nn, _selfplay
from bgengine.evaluation.evaluator import default_evaluator
from bgengine.evaluation.pubeval import pubeval_player
from bgengine.training.td import TrainingSettings, export_weights, load_checkpoint, train

TINY = TrainingSettings(seed=3, hidden=8, eval_games=20)


def quiet(line: str) -> None:
    pass


def weights_of(network: _nn.NeuralNet) -> list[np.ndarray]:
    return [a.copy() for a in network.arrays().values()]


def test_training_is_deterministic_for_a_seed(tmp_path):
    a, _ = train(tmp_path / "a", 30, TINY, eval_every_games=1000, report=quiet)
    b, _ = train(tmp_path / "b", 30, TINY, eval_every_games=1000, chunk_games=7, report=quiet)
    for x, y in zip(weights_of(a), weights_of(b)):
        assert np.array_equal(x, y)


def test_different_seeds_train_different_weights(tmp_path):
    a, _ = train(tmp_path / "a", 10, TINY, report=quiet)
    other = TrainingSettings(seed=4, hidden=8, eval_games=20)
    b, _ = train(tmp_path / "b", 10, other, report=quiet)
    assert not np.array_equal(a.hidden_weights, b.hidden_weights)


def test_resuming_from_a_checkpoint_gives_the_same_weights(tmp_path):
    straight, _ = train(tmp_path / "straight", 40, TINY, report=quiet)
    train(tmp_path / "split", 20, TINY, report=quiet)
    resumed, state = train(tmp_path / "split", 40, resume=tmp_path / "split" / "latest.npz", report=quiet)
    assert state.games == 40
    for x, y in zip(weights_of(straight), weights_of(resumed)):
        assert np.array_equal(x, y)


def test_training_changes_the_weights_and_records_strength(tmp_path):
    start = _nn.NeuralNet.random(8, np.random.default_rng(np.random.SeedSequence(3).spawn(2)[0]))
    network, state = train(tmp_path, 20, TINY, eval_every_games=10, report=quiet)
    assert not np.array_equal(start.hidden_weights, network.hidden_weights)
    assert [h.games_trained for h in state.history] == [10, 20]
    assert all(h.games == 20 and h.standard_error > 0 for h in state.history)
    loaded, loaded_state = load_checkpoint(tmp_path / "latest.npz")
    assert np.array_equal(loaded.output_weights, network.output_weights)
    assert loaded_state.games == 20


def test_export_weights_writes_a_loadable_network_with_its_record(tmp_path):
    train(tmp_path, 10, TINY, report=quiet)
    record = export_weights(tmp_path / "latest.npz", tmp_path / "w.npz")
    assert record["games"] == 10 and record["settings"]["seed"] == 3
    with np.load(tmp_path / "w.npz") as data:
        assert data["hidden_weights"].shape == (211, 8)


def test_duel_points_are_single_gammon_or_backgammon_and_seeded():
    net = _nn.NeuralNet.random(8, 1)
    first = _selfplay.duel(net, pubeval_player(), 50, np.random.PCG64(9))
    again = _selfplay.duel(net, pubeval_player(), 50, np.random.PCG64(9))
    assert np.array_equal(first, again)
    assert set(np.abs(first).tolist()) <= {1, 2, 3}


def test_duel_of_a_player_with_itself_alternates_starts():
    # the same dice for both games of a pair would give opposite results; here the dice
    # differ, but the player who starts alternates, so PubEval against itself is near 0
    points = _selfplay.duel(pubeval_player(), pubeval_player(), 400, np.random.PCG64(1))
    assert abs(points.mean()) < 0.25


def test_a_paired_duel_of_a_deterministic_player_with_itself_cancels_in_every_pair():
    # both games of a pair roll the same dice and the starter swaps: the same engine plays the
    # same game from the other side, so each pair's points sum to zero (unpaired dice do not)
    player = _selfplay.EnginePlayer(default_evaluator().c_evaluator())
    paired = _selfplay.duel(player, player, 40, np.random.PCG64(12), paired=True)
    assert np.all(paired.reshape(-1, 2).sum(axis=1) == 0) and np.any(paired != 0)
    unpaired = _selfplay.duel(player, player, 40, np.random.PCG64(12))
    assert np.any(unpaired.reshape(-1, 2).sum(axis=1) != 0)
    assert np.array_equal(paired, _selfplay.duel(player, player, 40, np.random.PCG64(12), paired=True))


def test_a_paired_duel_between_different_players_differs_from_an_unpaired_one_and_needs_even_games():
    net = _nn.NeuralNet.random(8, 1)
    paired = _selfplay.duel(net, pubeval_player(), 40, np.random.PCG64(13), paired=True)
    assert set(np.abs(paired).tolist()) <= {1, 2, 3}
    assert not np.array_equal(paired, _selfplay.duel(net, pubeval_player(), 40, np.random.PCG64(13)))
    with pytest.raises(ValueError, match="pairs"):
        _selfplay.duel(net, pubeval_player(), 41, np.random.PCG64(13), paired=True)


def test_train_games_rejects_bad_parameters():
    net = _nn.NeuralNet.random(8, 1)
    with pytest.raises(ValueError):
        _selfplay.train_games(net, 1, 0, 0.1, 1000, 0.01, 1.5, np.random.PCG64(1))
    with pytest.raises(ValueError):
        _selfplay.train_games(net, 1, 0, 0.0, 1000, 0.01, 0.5, np.random.PCG64(1))
    with pytest.raises(ValueError):
        _selfplay.train_games(net, 1, 0, 0.1, 0, 0.01, 0.5, np.random.PCG64(1))
    with pytest.raises(TypeError):
        _selfplay.duel(net, "pubeval", 1, np.random.PCG64(1))


def test_engine_player_duels_are_seeded_and_score_one_to_three_points():
    from bgcore._selfplay import EnginePlayer

    engine = EnginePlayer(_nn.NeuralNet.random(8, 2), plies=1, root_keep=2, keep=1)
    first = _selfplay.duel(engine, pubeval_player(), 4, np.random.PCG64(5))
    assert np.array_equal(first, _selfplay.duel(engine, pubeval_player(), 4, np.random.PCG64(5)))
    assert set(np.abs(first).tolist()) <= {1, 2, 3}
    with pytest.raises(ValueError):
        EnginePlayer(_nn.NeuralNet.random(8, 2), plies=4)


def test_command_line_trains_and_prints_progress_with_strength(tmp_path, capsys):
    from bgengine.training.td import main

    assert main(["--out", str(tmp_path), "--games", "12", "--hidden", "8", "--seed", "5",
                 "--eval-games", "10", "--eval-every", "6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all("games/s" in line and "vs PubEval" in line for line in lines)
    assert (tmp_path / "latest.npz").exists() and (tmp_path / "best.npz").exists()

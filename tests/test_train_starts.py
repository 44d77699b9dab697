"""TD self-play from a pool of hard-class starts (back games, closed-out checkers)."""

from dataclasses import replace

import numpy as np
import pytest

from bgcore import _nn, _selfplay
from bgengine.position import Position
from bgengine.training.classes import Tag, tags
from bgengine.training.td import TrainingSettings, parse_start_mix, start_pool, train

MIXED = TrainingSettings(seed=3, hidden=8, eval_games=20, start_mix={"back_game": 0.5, "closed_out": 0.25},
                         start_pool=40)


def quiet(line: str) -> None:
    pass


def test_the_pool_holds_each_scenario_in_its_share_and_the_opening_for_the_rest():
    pool = start_pool(MIXED)
    assert pool.shape == (40, 26) and pool.dtype == np.int8
    openings = (pool == np.asarray(Position.initial())).all(axis=1)
    assert openings.sum() == 10
    back_games = [Tag.BACK_GAME in tags(board) for board in pool]
    assert sum(back_games) >= 20              # the 20 back-game starts at least
    assert np.array_equal(pool, start_pool(MIXED))                       # seeded
    assert not np.array_equal(pool, start_pool(replace(MIXED, seed=4)))


def test_no_mix_means_no_pool():
    assert start_pool(TrainingSettings()) is None


@pytest.mark.parametrize("mix", [{"bogus": 0.1}, {"back_game": 1.5}, {"back_game": 0.6, "closed_out": 0.6}])
def test_a_bad_mix_is_refused(mix):
    with pytest.raises(ValueError):
        start_pool(replace(MIXED, start_mix=mix))


def test_start_mix_items_are_parsed_and_malformed_ones_named():
    assert parse_start_mix(["back_game=0.15", "closed_out=0.05"]) == {"back_game": 0.15, "closed_out": 0.05}
    for item in ("back_game", "back_game=x"):
        with pytest.raises(ValueError, match=item):
            parse_start_mix([item])


def test_games_from_starts_are_seeded_and_differ_from_opening_games():
    pool = start_pool(MIXED)

    def trained(starts):
        network = _nn.NeuralNet.random(8, np.random.default_rng(1))
        plies = _selfplay.train_games(network, 30, 0, 0.1, 1000, 0.01, 0.7, np.random.PCG64(2), starts=starts)
        return network, plies

    a, plies_a = trained(pool)
    b, plies_b = trained(pool)
    c, _ = trained(None)
    assert plies_a == plies_b and np.array_equal(a.hidden_weights, b.hidden_weights)
    assert not np.array_equal(a.hidden_weights, c.hidden_weights)


def test_a_single_start_is_where_every_game_begins():
    """Games from a closed-out start are shorter than games from the opening."""
    closed = start_pool(TrainingSettings(seed=5, start_mix={"closed_out": 1.0}, start_pool=1))
    network = _nn.NeuralNet.random(8, np.random.default_rng(1))
    from_start = _selfplay.train_games(network, 40, 0, 0.1, 1000, 0.01, 0.7, np.random.PCG64(2), starts=closed)
    from_opening = _selfplay.train_games(network, 40, 0, 0.1, 1000, 0.01, 0.7, np.random.PCG64(2))
    assert 0 < from_start < from_opening


@pytest.mark.parametrize("starts", [np.zeros((0, 26)), np.zeros((2, 25)), np.full((1, 26), 16), np.zeros((1, 26)) + 0.5])
def test_bad_start_boards_are_refused(starts):
    network = _nn.NeuralNet.random(8, np.random.default_rng(1))
    with pytest.raises(ValueError):
        _selfplay.train_games(network, 1, 0, 0.1, 1000, 0.01, 0.7, np.random.PCG64(2), starts=starts)


def test_too_many_checkers_in_a_start_are_refused():
    board = np.asarray(Position.initial()).copy()
    board[6] += 1                                         # 16 checkers for the player on roll
    network = _nn.NeuralNet.random(8, np.random.default_rng(1))
    with pytest.raises(ValueError):
        _selfplay.train_games(network, 1, 0, 0.1, 1000, 0.01, 0.7, np.random.PCG64(2), starts=board[None, :])


def test_a_run_with_starts_resumes_to_the_same_weights(tmp_path):
    straight, _ = train(tmp_path / "straight", 30, MIXED, report=quiet)
    train(tmp_path / "split", 12, MIXED, report=quiet)
    resumed, state = train(tmp_path / "split", 30, resume=tmp_path / "split" / "latest.npz", report=quiet)
    assert state.settings.start_mix == MIXED.start_mix
    assert np.array_equal(straight.hidden_weights, resumed.hidden_weights)

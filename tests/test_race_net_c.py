"""The race network in C (bgcore._race_net) against the numpy reference: the same inputs
bit for bit, the same outputs to float32 precision, and the engine using it everywhere."""

from __future__ import annotations

import pickle
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from bgcore import _engine, _nply, _race_net
from conftest import random_play_positions, random_race

from bgengine import Position
from bgengine.evaluation import bearoff
from bgengine.evaluation.evaluator import NetworkEvaluator, default_evaluator, evaluate, rank_moves
from bgengine.evaluation.race import RaceEvaluator
from bgengine.evaluation.race_features import NUM_FEATURES, VERSIONS, feature_names, race_features
from bgengine.evaluation.race_network import RaceNetwork, outside_exact_table, shipped_race_network, with_contact
from bgengine.rollouts.monte_carlo import _kernel_evaluator


def sampled_race_boards(seed: int, count: int) -> np.ndarray:
    """Boards without contact: each side's checkers on either side of a random split
    point (bear-ins with checkers off, both home, 15 on the board, far behind), finished
    games (a side with 15 off, the loser possibly on the bar)."""
    rng = np.random.default_rng(seed)
    boards = []
    while len(boards) < count:
        board = np.zeros(26, dtype=np.int8)
        split = int(rng.integers(0, 25))  # mover on points 1..split, opponent above it
        mover = int(rng.integers(0, 16)) if split else 0
        opponent = int(rng.integers(0, 16)) if split < 24 else 0
        if rng.random() < 0.3:  # many with 15 on the board: gammon and backgammon inputs
            mover, opponent = (15 if split else 0), (15 if split < 24 else 0)
        if mover:
            for point in rng.integers(max(1, split - int(rng.integers(0, 12))), split + 1, size=mover):
                board[point] += 1
        if opponent:
            for point in rng.integers(split + 1, 25, size=opponent):
                board[point] -= 1
        if mover == 0 and opponent and rng.random() < 0.3:  # finished: the loser on the bar
            board[int(np.flatnonzero(board < 0)[0])] += 1
            board[0] -= 1
        if board.any():
            boards.append(board)
    return np.array(boards, dtype=np.int8)


def race_boards() -> np.ndarray:
    """Sampled boards, random races of the shared sampler and the races of random play."""
    rng = np.random.default_rng(13)
    shared = [np.asarray(random_race(rng, highest=int(rng.integers(1, 13)))) for _ in range(400)]
    played = np.array([np.asarray(p) for p in random_play_positions(6000, seed=14)])
    return np.concatenate([sampled_race_boards(12, 3000), np.array(shared), played[~with_contact(played)]])


@pytest.fixture(scope="module")
def boards() -> np.ndarray:
    return race_boards()


@pytest.fixture(scope="module")
def network() -> RaceNetwork:
    return shipped_race_network()


def test_the_sample_covers_the_edge_cases(boards):
    on_board = np.maximum(boards, 0).sum(axis=1), np.maximum(-boards, 0).sum(axis=1)
    assert len(boards) > 3000
    assert ((on_board[0] == 0) | (on_board[1] == 0)).sum() > 50  # finished (15 off)
    assert (boards[:, 0] < 0).sum() > 5  # the loser on the bar
    assert ((on_board[0] == 15) & (on_board[1] == 15)).sum() > 300
    assert (~outside_exact_table(boards)).sum() > 200  # in the two-sided table or over
    mover_outside = np.maximum(boards[:, 7:], 0).sum(axis=1)
    assert ((mover_outside > 0) & (on_board[0] < 15)).sum() > 300  # bearing in with checkers off


def random_network(version: int = 2, hidden: int = 40) -> RaceNetwork:
    """A race network with seeded random float32 weights for an encoding version."""
    rng = np.random.default_rng(5)
    inputs = len(feature_names(version))
    parameters = {"hidden_weights": rng.normal(0, 0.5, (inputs, hidden)), "hidden_bias": rng.normal(0, 0.5, hidden),
                  "output_weights": rng.normal(0, 0.5, (hidden, 5)), "output_bias": rng.normal(0, 0.5, 5)}
    parameters = {k: v.astype(np.float32).astype(np.float64) for k, v in parameters.items()}
    return RaceNetwork(parameters, {"hidden": [hidden]}, {})


def test_inputs_equal_the_numpy_features_exactly(boards, network):
    expected = race_features(boards, network.encoding_version)
    found = network.c_network.inputs(boards)
    assert found.shape == (len(boards), len(feature_names(network.encoding_version)))
    assert found.dtype == np.float32
    assert np.array_equal(found, expected)


@pytest.mark.parametrize("version", VERSIONS)
def test_both_encoding_versions_run_in_c_as_in_numpy(boards, version):
    network = random_network(version)
    assert network.encoding_version == version == network.c_network.encoding_version
    found = network.c_network.inputs(boards)
    assert found.shape == (len(boards), _race_net.num_inputs(version)) == race_features(boards, version).shape
    assert np.array_equal(found, race_features(boards, version))
    outside = outside_exact_table(boards)
    assert np.abs(network.c_network.evaluate(outside_boards := boards[outside])
                  - network.evaluate_batch(outside_boards)).max() < 5e-6
    assert pickle.loads(pickle.dumps(network.c_network)).encoding_version == version


def test_version_1_inputs_are_version_2_without_the_within_chances(boards):
    names = feature_names(2)
    kept = [i for i, name in enumerate(names) if name in feature_names(1)]
    assert len(names) == NUM_FEATURES == len(kept) + 24 and _race_net.num_inputs() == NUM_FEATURES
    old, new = race_features(boards, 1), race_features(boards)
    assert np.array_equal(old[:, :-5], new[:, kept][:, :-5])
    # the base: the plain approximation, and from version 2 on the next roll's first-off chances exact
    assert np.array_equal(old[:, -5:], RaceEvaluator().evaluate_batch(boards))
    assert np.array_equal(new[:, -5:], RaceEvaluator().evaluate_batch(boards, first_roll_exact=True))
    assert (old[:, -5:] != new[:, -5:]).any(axis=1).sum() > 100
    within = race_features(boards)[:, [i for i, name in enumerate(names) if "_within" in name]]
    assert within.min() >= 0.0 and within.max() <= 1.0 + 1e-6
    with pytest.raises(ValueError):
        race_features(boards, 3)
    with pytest.raises(ValueError):
        _race_net.num_inputs(3)


def test_outputs_equal_the_numpy_network_to_float32_precision(boards, network):
    outside = outside_exact_table(boards)
    found = network.c_network.evaluate(boards)
    assert np.abs(found[outside] - network.evaluate_batch(boards[outside])).max() < 2e-6
    # boards in the two-sided table and finished games are exact, as in the approximation
    inside = ~outside
    assert np.array_equal(found[inside], RaceEvaluator().evaluate_batch(boards[inside]))


def test_trained_size_and_a_random_network_agree_too(boards):
    network = random_network()
    outside = boards[outside_exact_table(boards)]
    assert np.abs(network.c_network.evaluate(outside) - network.evaluate_batch(outside)).max() < 5e-6


def test_boundary_refuses_contact_impossible_boards_and_bad_weights(network):
    c = network.c_network
    with pytest.raises(ValueError, match="contact"):
        c.inputs(np.asarray(Position.initial())[None, :])
    with pytest.raises(ValueError, match="contact"):
        c.evaluate(np.asarray(Position.initial())[None, :])
    bad = np.zeros((1, 26), dtype=np.int8)
    bad[0, 3] = 16
    with pytest.raises(ValueError):
        c.evaluate(bad)
    with pytest.raises(ValueError):
        c.inputs(np.zeros((2, 25), dtype=np.int8))
    p = network.parameters
    tables = bearoff.race_tables()
    first = bearoff.one_sided_table(6).first_expected
    arguments = [p["hidden_weights"], p["hidden_bias"], p["output_weights"].T, p["output_bias"], tables, first]
    for index, value in ((0, p["hidden_weights"][:-1]), (2, p["output_weights"]), (3, np.zeros(4)),
                         (1, np.full(16, np.nan)), (5, first[:-1]), (0, np.zeros((NUM_FEATURES, 0)))):
        wrong = list(arguments)
        wrong[index] = value
        with pytest.raises(ValueError):
            _race_net.RaceNet(*wrong)
    with pytest.raises(TypeError):
        _race_net.RaceNet(*arguments[:4], None, first)


def test_a_wide_table_in_the_tables_is_ignored(boards, network):
    p = network.parameters
    wide = bearoff.race_tables(wide_points=8)
    c = _race_net.RaceNet(p["hidden_weights"], p["hidden_bias"], p["output_weights"].T, p["output_bias"], wide,
                          bearoff.one_sided_table(6).first_expected, network.encoding_version)
    assert np.array_equal(c.inputs(boards[:500]), race_features(boards[:500], network.encoding_version))


def test_pickles_with_its_tables(boards, network):
    c = network.c_network
    again = pickle.loads(pickle.dumps(c))
    assert np.array_equal(again.evaluate(boards[:300]), c.evaluate(boards[:300]))
    engine = NetworkEvaluator(default_evaluator().network, race_network=network).c_evaluator()
    copy = pickle.loads(pickle.dumps(engine))
    assert copy.race_network is not None
    board = boards[outside_exact_table(boards)][0].tobytes()
    assert copy.evaluate_board(board) == engine.evaluate_board(board)


def test_the_engine_takes_races_from_it_and_the_rest_as_before(boards, network):
    plain = default_evaluator(use_race_network=False)
    with_net = NetworkEvaluator(plain.network, race_network=network, crashed_network=plain.crashed_network)
    assert with_net.all_in_c
    kernel = with_net.c_evaluator()
    assert kernel.race_network is network.c_network and kernel is with_net.c_evaluator()
    played = np.array([np.asarray(p) for p in random_play_positions(300, seed=3)])
    mixed = np.concatenate([boards[:1000], played])
    values = with_net.evaluate_batch(mixed)
    races = ~with_contact(mixed)
    assert np.array_equal(values[races], network.c_network.evaluate(mixed[races]))
    assert np.array_equal(values[~races], plain.evaluate_batch(mixed[~races]))
    inside = races & ~outside_exact_table(mixed)
    assert np.array_equal(values[inside], plain.evaluate_batch(mixed[inside]))  # exact bear-offs unchanged


def test_search_single_position_paths_and_rollouts_use_it(network):
    plain = default_evaluator(use_race_network=False)
    with_net = NetworkEvaluator(plain.network, race_network=network, crashed_network=plain.crashed_network)
    position = Position.from_points({6: 4, 5: 3, 4: 3, 3: 2, 8: 3}, {6: 3, 5: 3, 4: 2, 10: 4, 12: 3})
    board = np.asarray(position)[None, :]
    for plies in (0, 1, 2):
        fast = evaluate(position, plies=plies, evaluator=with_net).probabilities.as_tuple()
        general = _nply.nply_evaluate(with_net.c_evaluator(), board, plies, 2, 0.04)[0]
        assert np.allclose(fast, general, atol=1e-6)
    assert np.allclose(evaluate(position, evaluator=with_net).probabilities.as_tuple(),
                       network.evaluate_batch(board)[0], atol=2e-6)
    assert not np.allclose(evaluate(position, plies=1, evaluator=with_net).probabilities.as_tuple(),
                           evaluate(position, plies=1, evaluator=plain).probabilities.as_tuple(), atol=1e-4)
    ranked = rank_moves(position, (6, 5), evaluator=with_net)
    children = np.array([np.asarray(m.position) for m in ranked])
    opponent_view = network.c_network.evaluate(children)
    assert np.allclose([m.equity for m in ranked], -(2 * opponent_view[:, 0] - 1 + opponent_view[:, 1]
                                                       - opponent_view[:, 3] + opponent_view[:, 2]
                                                       - opponent_view[:, 4]), atol=1e-5)
    assert _kernel_evaluator(with_net) is with_net.c_evaluator()


def test_evaluators_with_different_networks_run_in_threads_at_once(boards, network):
    rng = np.random.default_rng(9)
    other = RaceNetwork({k: v + rng.normal(0, 0.1, v.shape) for k, v in network.parameters.items()}, {}, {})
    outside = boards[outside_exact_table(boards)][:800]
    expected = [network.c_network.evaluate(outside), other.c_network.evaluate(outside)]
    engines = [_engine.EngineCEvaluator(default_evaluator().network, bearoff.race_tables(), n.c_network)
               for n in (network, other)]
    assert not np.array_equal(*expected)

    def run(i: int) -> bool:
        values = _nply.nply_evaluate(engines[i % 2], outside, 0, 2, 0.04)
        return np.array_equal(values, expected[i % 2])

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(run, range(8)))


def test_gammons_the_race_can_no_longer_bring_stay_zero(boards, network):
    approximation = race_features(boards, network.encoding_version)[:, -5:]  # the network's base
    impossible = approximation[:, 1:] == 0.0
    assert impossible.sum() > 1000
    for values in (network.c_network.evaluate(boards), network.evaluate_batch(boards)):
        assert (values[:, 1:][impossible] == 0.0).all()
        assert (values[:, 1:][~impossible] > 0.0).all()

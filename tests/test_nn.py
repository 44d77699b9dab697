"""The evaluator network kernel: input encoding, forward pass, consistency of outputs."""

import numpy as np
import pytest
from hypothesis import given, settings

from bgcore import _nn
from bgengine import Position
from conftest import random_play_positions
from strategies import positions

MOVER, OPPONENT = 0, 105  # first unit of each side's block
CONTACT_FLAG = 210


def point_units(side_base: int, point: int) -> slice:
    return slice(side_base + (point - 1) * 4, side_base + point * 4)


def board(position: Position) -> np.ndarray:
    return np.asarray(position).copy()


def test_encode_initial_position_point_units_for_both_sides():
    x = _nn.encode(board(Position.initial()))
    for base in (MOVER, OPPONENT):
        assert x[point_units(base, 6)].tolist() == [1, 1, 1, 1.0]  # 5 checkers: excess (5-3)/2
        assert x[point_units(base, 8)].tolist() == [1, 1, 1, 0]
        assert x[point_units(base, 13)].tolist() == [1, 1, 1, 1.0]
        assert x[point_units(base, 24)].tolist() == [1, 1, 0, 0]
        assert x[point_units(base, 7)].tolist() == [0, 0, 0, 0]


def test_encode_initial_position_features():
    x = _nn.encode(board(Position.initial()))
    for base in (MOVER, OPPONENT):
        assert x[base + 96] == 0 and x[base + 97] == 0  # nobody on the bar
        assert x[base + 98] == 0  # nothing borne off
        assert x[base + 99] == pytest.approx(167 / 150)
        assert x[base + 100] == 0  # no blots
        assert x[base + 101] == pytest.approx(0.5)  # one anchor (the 24-point)
        assert x[base + 102] == 0  # no two adjacent points
        assert x[base + 103] == pytest.approx(1 / 6)  # the enemy 6-point in front of the 24
    assert x[CONTACT_FLAG] == 1


def test_encode_excess_bar_and_off_units():
    p = Position.from_points({1: 7, 2: 1}, {1: 2}, bar=2)  # 5 off, 2 on the bar
    x = _nn.encode(board(p))
    assert x[point_units(MOVER, 1)].tolist() == [1, 1, 1, 2.0]
    assert x[MOVER + 96] == 1 and x[MOVER + 97] == pytest.approx(0.5)
    assert x[MOVER + 98] == pytest.approx(5 / 15)
    assert x[OPPONENT + 98] == pytest.approx(13 / 15)


def test_encode_counts_a_blot_in_direct_range_and_the_danger_of_the_enemy_board():
    # mover blot on its 5-point; an enemy checker on the enemy's 21-point hits it with a 1
    p = Position.from_points({5: 1, 6: 14}, {21: 1, 1: 2, 2: 2, 3: 10})
    x = _nn.encode(board(p))
    assert x[MOVER + 100] == pytest.approx(0.25)
    assert x[MOVER + 104] == pytest.approx(1 * 3 / 12)  # enemy holds 3 home points
    far = Position.from_points({5: 1, 6: 14}, {10: 1, 1: 2, 2: 2, 3: 10})
    assert _nn.encode(board(far))[MOVER + 100] == 0


def test_encode_longest_prime():
    p = Position.from_points({4: 2, 5: 2, 6: 2, 7: 2, 9: 2, 10: 5}, {24: 15})
    assert _nn.encode(board(p))[MOVER + 102] == pytest.approx(4 / 6)


def test_encode_of_flipped_position_swaps_the_two_sides():
    rng = np.random.default_rng(3)
    p = Position.initial()
    for _ in range(30):
        moves = p.legal_moves((int(rng.integers(1, 7)), int(rng.integers(1, 7))))
        p = moves.position_after(int(rng.integers(len(moves))))
        if p.is_game_over():
            break
        x, y = _nn.encode(board(p)), _nn.encode(board(p.flip()))
        assert np.array_equal(x[:105], y[105:210]) and np.array_equal(x[105:210], y[:105])
        assert x[CONTACT_FLAG] == y[CONTACT_FLAG]


def test_encode_race_has_no_contact_flag():
    p = Position.from_points({1: 5, 2: 5, 3: 5}, {1: 5, 2: 5, 3: 5})
    assert _nn.encode(board(p))[CONTACT_FLAG] == 0


def numpy_forward(net: _nn.NeuralNet, x: np.ndarray) -> np.ndarray:
    """Reference forward pass in float64."""
    w = net.arrays()
    hidden = 1 / (1 + np.exp(-(x.astype(np.float64) @ w["hidden_weights"] + w["hidden_bias"])))
    return 1 / (1 + np.exp(-(w["output_weights"] @ hidden + w["output_bias"])))


def random_boards(count: int, seed: int) -> np.ndarray:
    return np.array([np.asarray(p) for p in random_play_positions(count, seed)], dtype=np.int8)


@pytest.mark.parametrize("hidden", [40, 100, 200])
def test_forward_pass_equals_numpy_reference(hidden):
    # widths that take each of the kernel's slices of hidden units (8, 4 and 1 vectors, then units)
    net = _nn.NeuralNet.random(hidden, seed=5, scale=0.5)
    boards = random_boards(200, seed=1)
    raw = net.raw_outputs(boards)
    expected = np.array([numpy_forward(net, _nn.encode(b)) for b in boards])
    np.testing.assert_allclose(raw, expected, atol=2e-5)


@pytest.mark.parametrize("hidden", [5, 100, 136, 200, 512])
@pytest.mark.parametrize("encoding", [1, 3])
def test_batches_evaluated_in_blocks_give_the_floats_of_one_board_at_a_time(hidden, encoding):
    # A batch is encoded and summed a block of boards at a time (_nn.BoardBlock); widths that
    # are not multiples of the vector slices take every tail loop. The board-by-board path is
    # raw_outputs; finished boards and checkers off are mixed in.
    net = _nn.NeuralNet.random(hidden, seed=4, scale=0.5, encoding=encoding)
    boards = random_boards(300, seed=11)
    finished = np.array([board(Position.from_points({}, {1: 3})), board(Position.from_points({}, {1: 15}))])
    boards = np.concatenate([boards[:77], finished, boards[77:]])
    batch = net.evaluate_trusted(boards)
    assert np.array_equal(batch, np.concatenate([net.evaluate_trusted(b[None]) for b in boards]))
    playing = np.array([np.abs(b[b > 0]).sum() == 15 and np.abs(b[b < 0]).sum() == 15 for b in boards])
    raw = net.raw_outputs(boards[playing])
    win = np.clip(raw[:, 0], 0, 1)
    wg = np.minimum(raw[:, 1], win)
    lg = np.minimum(raw[:, 3], np.float32(1) - win)
    expected = np.stack([win, wg, np.minimum(raw[:, 2], wg), lg, np.minimum(raw[:, 4], lg)], axis=1)
    assert playing.sum() > 250 and np.array_equal(batch[playing], expected)


def test_weights_are_own_cache_line_aligned_copies():
    rows = np.random.default_rng(3).uniform(-1, 1, 211 * 24 + 1).astype(np.float32)
    hidden_weights = rows[1:].reshape(211, 24)  # 4 bytes past wherever numpy put the block
    net = _nn.NeuralNet(hidden_weights, np.zeros(24), np.ones((5, 24)), np.zeros(5))
    for array in net.arrays().values():
        assert array.ctypes.data % 64 == 0 and array.flags.c_contiguous and array.flags.writeable
    assert np.array_equal(net.hidden_weights, hidden_weights)
    assert not np.shares_memory(net.hidden_weights, hidden_weights)


def test_evaluate_outputs_are_consistent_probabilities():
    net = _nn.NeuralNet.random(30, seed=9, scale=3.0)  # large weights: raw outputs disagree
    out = net.evaluate(random_boards(300, seed=2))
    win, wg, wbg, lg, lbg = out.T
    assert np.all((0 <= out) & (out <= 1))
    assert np.all(wg <= win) and np.all(wbg <= wg)
    assert np.all(lg <= 1 - win + 1e-7) and np.all(lbg <= lg)
    raw = net.raw_outputs(random_boards(300, seed=2))
    assert np.any(raw[:, 1] > raw[:, 0]) or np.any(raw[:, 3] > 1 - raw[:, 0])  # the clamp mattered


def test_evaluate_finished_game_is_exact():
    net = _nn.NeuralNet.random(10, seed=1)
    won_single = Position.from_points({}, {1: 3})  # opponent has borne off 12
    gammon = Position.from_points({}, {1: 15})
    backgammon = Position.from_points({}, {20: 14}, opponent_bar=1)
    lost_gammon = Position.from_points({10: 15}, {})
    out = net.evaluate(np.array([board(won_single), board(gammon), board(backgammon), board(lost_gammon)]))
    assert out.tolist() == [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 1, 1, 0, 0], [0, 0, 0, 1, 0]]


def test_a_side_that_has_borne_off_a_checker_has_no_gammon_to_lose():
    h = 8  # zero weights: every raw output is sigmoid(0) = 0.5 whatever the board
    net = _nn.NeuralNet(np.zeros((211, h)), np.zeros(h), np.zeros((5, h)), np.zeros(5))
    closed = {1: 3, 2: 2, 3: 2, 4: 2, 5: 3, 6: 3}  # the opponent's closed board, 15 checkers
    mover_off = Position.from_points({6: 5, 5: 4, 4: 3}, closed, bar=2)  # 14 in play: one borne off
    mover_in = Position.from_points({6: 5, 5: 4, 4: 4}, closed, bar=2)
    opponent_off = Position.from_points({1: 2, 2: 2, 3: 2, 4: 3, 5: 3, 6: 3}, {13: 5, 8: 4, 7: 3}, opponent_bar=2)
    out = net.evaluate(np.array([board(mover_off), board(mover_in), board(opponent_off)]))
    assert out.tolist() == [[0.5, 0.5, 0.5, 0, 0], [0.5] * 5, [0.5, 0, 0, 0.5, 0.5]]


def test_evaluate_rejects_bad_boards():
    net = _nn.NeuralNet.random(10, seed=1)
    with pytest.raises(ValueError, match="shape"):
        net.evaluate(np.zeros((2, 25), dtype=np.int8))
    bad = np.zeros(26, dtype=np.int8)
    bad[0] = 3  # mover's checkers on the opponent's bar slot
    with pytest.raises(ValueError, match="board 0"):
        net.evaluate(bad)
    with pytest.raises(ValueError, match="15"):
        net.evaluate(np.full(26, 16))
    with pytest.raises(ValueError, match="integers"):
        net.evaluate(np.zeros(26, dtype=float))


def test_network_rejects_wrong_weight_shapes():
    with pytest.raises(ValueError, match="hidden_weights"):
        _nn.NeuralNet(np.zeros((10, 4)), np.zeros(4), np.zeros((5, 4)), np.zeros(5))
    with pytest.raises(ValueError, match="shapes"):
        _nn.NeuralNet(np.zeros((211, 4)), np.zeros(3), np.zeros((5, 4)), np.zeros(5))
    with pytest.raises(ValueError, match="non-finite"):
        _nn.NeuralNet(np.full((211, 4), np.nan), np.zeros(4), np.zeros((5, 4)), np.zeros(5))


def reference_encoding(slots: np.ndarray) -> np.ndarray:
    """The input vector as the _nn module docstring describes it, in plain Python."""
    x = np.zeros(_nn.num_inputs(), dtype=np.float32)
    mover = [0] + [max(int(slots[p]), 0) for p in range(1, 25)] + [int(slots[25])]
    opponent = [0] + [max(-int(slots[25 - p]), 0) for p in range(1, 25)] + [-int(slots[0])]
    for base, own, enemy in ((MOVER, mover, opponent), (OPPONENT, opponent, mover)):
        for p in range(1, 25):
            n = own[p]
            x[base + (p - 1) * 4: base + p * 4] = [n >= 1, n >= 2, n >= 3, max(n - 3, 0) * 0.5]
        x[base + 96], x[base + 97] = own[25] > 0, own[25] * 0.25
        x[base + 98] = (15 - sum(own)) / 15
        x[base + 99] = sum(p * own[p] for p in range(1, 26)) / 150
        blots = sum(1 for p in range(1, 25) if own[p] == 1 and any(enemy[q] for q in range(26 - p, min(31 - p, 25) + 1)))
        x[base + 100] = blots * 0.25
        x[base + 104] = blots * sum(enemy[q] >= 2 for q in range(1, 7)) / 12
        x[base + 101] = sum(own[p] >= 2 for p in range(19, 25)) * 0.5
        runs = "".join("x" if own[p] >= 2 else "." for p in range(1, 25)).split(".")
        prime = max(len(run) for run in runs)
        x[base + 102] = prime / 6 if prime > 1 else 0
        rearmost = max([p for p in range(1, 26) if own[p]], default=0)
        x[base + 103] = sum(enemy[25 - p] >= 2 for p in range(max(rearmost - 6, 1), rearmost)) / 6
    x[CONTACT_FLAG] = Position(slots).phase.value == "contact"
    return x


@settings(max_examples=400, deadline=None)
@given(positions())
def test_encode_equals_a_plain_reference_on_any_position(position):
    slots = board(position)
    np.testing.assert_allclose(_nn.encode(slots), reference_encoding(slots), rtol=1e-6, atol=1e-7)

"""The single-position fast path (bgcore._single) gives exactly the general path's answers.

``evaluate`` and ``rank_moves`` with the engine's own ``NetworkEvaluator`` go straight to
the C kernels; any other evaluator (here a subclass of it, reading the same network and
tables) takes the general numpy path. Both must agree to the last bit on every position.
"""

import copy
import pickle
import threading

import numpy as np
import pytest

from bgengine import Position
from bgengine.move import legal_moves
from bgengine.evaluation.evaluator import (
    MoveFilter,
    NetworkEvaluator,
    RankedMove,
    choose_candidates,
    default_evaluator,
    evaluate,
    rank_legal_moves,
    rank_moves,
)
from bgcore import _engine, _movegen, _nn, _nply, _single


class GeneralPath(NetworkEvaluator):
    """The engine's evaluator through the general path (the fast path takes the exact type only)."""


def general_path() -> GeneralPath:
    engine = default_evaluator()
    general = GeneralPath(engine.network, race_tables=engine.race_tables, race_network=engine.race_network,
                          crashed_network=engine.crashed_network, choice_network=engine.choice_network,
                          shortlist=engine.shortlist)
    general._kernel = engine.c_evaluator()  # the very same tables, not a second load
    return general


def seeded_positions(games: int, seed: int) -> list[Position]:
    """Positions of random games from the opening to the end (contact, race, bear-off)."""
    rng = np.random.default_rng(seed)
    seen: dict[Position, None] = {}
    for _ in range(games):
        position = Position.initial()
        while not position.is_game_over():
            seen.setdefault(position, None)
            legal = position.legal_moves(tuple(int(d) for d in rng.integers(1, 7, size=2)))
            position = legal.position_after(int(rng.integers(len(legal))))
    return list(seen)


POSITIONS = seeded_positions(games=12, seed=18)


def rolls(count: int, seed: int) -> list[tuple[int, int]]:
    rng = np.random.default_rng(seed)
    return [tuple(int(d) for d in rng.integers(1, 7, size=2)) for _ in range(count)]  # type: ignore[misc]


def test_the_seeded_positions_cover_every_phase():
    phases = {position.phase.value for position in POSITIONS}
    assert {"contact", "race", "bearoff"} <= phases
    assert len(POSITIONS) > 500


def test_evaluate_at_0_ply_is_the_general_paths_on_every_position():
    general = general_path()
    for position in POSITIONS:
        assert evaluate(position) == evaluate(position, evaluator=general)


@pytest.mark.parametrize("plies", [1, 2])
def test_evaluate_at_n_ply_is_the_general_paths(plies):
    general = general_path()
    few = POSITIONS[:: 60 if plies == 1 else 400]
    for position in few:
        fast = evaluate(position, plies=plies)
        assert fast == evaluate(position, plies=plies, evaluator=general)
        assert fast.source == f"{plies}-ply"


def test_rank_moves_at_0_ply_is_the_general_paths_on_every_position():
    general = general_path()
    for position, dice in zip(POSITIONS, rolls(len(POSITIONS), seed=5)):
        fast = rank_moves(position, dice)
        assert fast == rank_moves(position, dice, evaluator=general)
        assert [m.equity for m in fast] == [m.equity for m in rank_moves(position, dice, evaluator=general)]


def test_rank_moves_at_1_ply_is_the_general_paths_with_any_filters():
    general = general_path()
    filters = [MoveFilter(), MoveFilter(keep=1), MoveFilter(keep=3, margin=0.2), MoveFilter(keep=8, margin=0.0)]
    for n, (position, dice) in enumerate(zip(POSITIONS[::25], rolls(len(POSITIONS), seed=6))):
        candidates = filters[n % len(filters)]
        fast = rank_moves(position, dice, plies=1, candidates=candidates)
        slow = rank_moves(position, dice, plies=1, candidates=candidates, evaluator=general)
        assert fast == slow
        assert [m.plies for m in fast] == [m.plies for m in slow]


def test_rank_moves_at_2_ply_is_the_general_paths():
    general = general_path()
    for position, dice in zip(POSITIONS[::150], rolls(len(POSITIONS), seed=7)):
        assert rank_moves(position, dice, plies=2) == rank_moves(position, dice, plies=2, evaluator=general)


def test_ties_rank_in_generation_order_as_the_general_path():
    # 6-6 from a symmetrical bear-off: many plays leave equal equities
    position = Position.from_points({1: 2, 2: 2, 3: 2}, {1: 2, 2: 2, 3: 2})
    fast = rank_moves(position, (2, 1))
    assert fast == rank_moves(position, (2, 1), evaluator=general_path())


def test_a_numpy_margin_takes_the_general_path_with_its_float64_comparison():
    position, dice = POSITIONS[40], (6, 5)
    candidates = MoveFilter(keep=8, margin=np.float64(0.16))  # type: ignore[arg-type]
    assert rank_moves(position, dice, plies=1, candidates=candidates) == rank_moves(
        position, dice, plies=1, candidates=candidates, evaluator=general_path()
    )


def money_worst_first(mover: np.ndarray) -> np.ndarray:
    """Minus the cubeless money equity: candidates chosen by it are the worst plays."""
    return 1.0 - np.asarray(mover, dtype=np.float64) @ np.array([2.0, 1.0, 1.0, -1.0, -1.0])


def test_candidates_chosen_by_another_equity_are_the_ones_searched_on_both_paths():
    general = general_path()
    for position, dice in zip(POSITIONS[::40], rolls(len(POSITIONS), seed=8)):
        legal = legal_moves(position, dice)
        fast = rank_legal_moves(legal, plies=1, candidate_equity=money_worst_first)
        slow = rank_legal_moves(legal, plies=1, candidate_equity=money_worst_first, evaluator=general)
        assert fast == slow
        assert [m.plies for m in fast] == [m.plies for m in slow]
        zero_ply = {m.move: m.probabilities for m in rank_legal_moves(legal, plies=0)}
        mover = np.array([tuple(zero_ply[move]) for move in legal.moves])
        expected = {legal.move(i) for i in choose_candidates(money_worst_first(mover)).tolist()}
        assert {m.move for m in fast if m.plies == 1} == expected


def test_candidates_chosen_by_money_equity_are_the_defaults():
    money = lambda mover: -money_worst_first(mover)  # noqa: E731
    for position, dice in zip(POSITIONS[::60], rolls(len(POSITIONS), seed=9)):
        legal = legal_moves(position, dice)
        assert rank_legal_moves(legal, plies=1, candidate_equity=money) == rank_legal_moves(legal, plies=1)


def test_choose_candidates_keeps_the_best_within_the_margin_ties_to_the_lower_index():
    equities = np.array([0.1, 0.5, 0.45, 0.2, 0.5, 0.39])
    assert choose_candidates(equities, MoveFilter(keep=8, margin=0.1)).tolist() == [1, 4, 2]
    assert choose_candidates(equities, MoveFilter(keep=2, margin=0.1)).tolist() == [1, 4]
    assert choose_candidates(equities, MoveFilter(keep=8, margin=0.0)).tolist() == [1, 4]


def test_lazy_ranked_moves_read_like_constructed_ones():
    legal = Position.initial().legal_moves((3, 1))
    ranked = rank_legal_moves(legal)
    best = ranked[0]
    built = RankedMove(best.move, best.position, best.probabilities, best.plies)
    assert best == built and hash(best) == hash(built) and repr(best) == repr(built)
    assert best.move is legal.move(ranked[0]._index)  # the MoveList's own move, built once
    assert pickle.loads(pickle.dumps(ranked[3])) == ranked[3]
    assert copy.deepcopy(ranked[5]) == ranked[5]
    with pytest.raises(AttributeError):
        best.plies = 2  # type: ignore[misc]


def failures_from_threads(check, threads: int, repeats: int) -> list[str]:
    """Run ``check`` (returning what went wrong) ``repeats`` times in each of ``threads`` threads."""
    failures: list[str] = []

    def work() -> None:
        for _ in range(repeats):
            failures.extend(check())

    running = [threading.Thread(target=work) for _ in range(threads)]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join()
    return failures


def test_the_fast_path_gives_the_same_answers_from_many_threads():
    positions = POSITIONS[::20]
    dice = rolls(len(positions), seed=8)
    expected = [rank_moves(p, d) for p, d in zip(positions, dice)]
    children = [_movegen.children_and_moves(p.to_bytes(), *d) for p, d in zip(positions, dice)]

    def check() -> list[str]:
        return [f"{p!r} {d}" for p, d, want, kids in zip(positions, dice, expected, children)
                if rank_moves(p, d) != want or _movegen.children_and_moves(p.to_bytes(), *d) != kids]

    assert failures_from_threads(check, threads=6, repeats=5) == []


@pytest.mark.parametrize("plies", [1, 2])
def test_searched_batches_equal_the_plain_search(plies):
    # _single.probabilities_of_boards (each board a search with the evaluation cache and kept
    # hidden sums; NetworkEvaluator.evaluate_plies uses it) against _nply.nply_evaluate, which
    # has neither, on every phase and twice over, so that a second search starts after a first
    kernel = default_evaluator().c_evaluator()
    each = 5 if plies == 1 else 2
    few = [p for phase in ("contact", "race", "bearoff") for p in [q for q in POSITIONS if q.phase.value == phase][3::9][:each]]
    assert len(few) == 3 * each
    boards = np.array([np.asarray(p) for p in few + few])
    move_filter = MoveFilter()
    plain = _nply.nply_evaluate(kernel, boards, plies, move_filter.keep, move_filter.margin)
    searched = _single.probabilities_of_boards(kernel, boards, plies, move_filter.keep, move_filter.margin)
    assert searched.dtype == np.float32 and np.array_equal(searched, plain)
    assert np.array_equal(default_evaluator().evaluate_plies(boards, plies), plain)


def test_the_kernel_refuses_bad_arguments():
    kernel = default_evaluator().c_evaluator()
    with pytest.raises(ValueError):
        _single.probabilities(kernel, b"\x00" * 25, 0)
    with pytest.raises(ValueError):
        _single.probabilities(kernel, Position.initial().to_bytes(), 5)
    with pytest.raises(ValueError):
        _single.rank_children(kernel, b"", 0)
    with pytest.raises(ValueError):
        _single.rank_children(kernel, Position.initial().to_bytes(), 0, candidates_keep=0)
    for chosen in ([1], [-1], [0, 0]):  # one child: index 0, once
        with pytest.raises(ValueError):
            _single.rank_children(kernel, Position.initial().to_bytes(), 1, chosen=chosen)
    with pytest.raises(ValueError):
        _single.probabilities_of_boards(kernel, np.zeros((2, 25), dtype=np.int8), 1)
    with pytest.raises(ValueError):
        _single.probabilities_of_boards(kernel, np.zeros((2, 26), dtype=np.int8), 5)
    with pytest.raises(ValueError):
        _single.probabilities_of_boards(kernel, np.zeros((2, 26), dtype=np.int8), 1, margin=-0.1)
    assert _single.probabilities_of_boards(kernel, np.zeros((0, 26), dtype=np.int8), 1).shape == (0, 5)
    ranking = _single.rank_children(kernel, Position.initial().to_bytes(), 0)
    assert ranking is not None and ranking.order == [0]
    with pytest.raises(IndexError):
        ranking.probabilities(1)


def test_searches_from_many_threads_give_the_same_answers():
    # each thread keeps its own hidden sums between boards of a search (bgcore._nn)
    positions = POSITIONS[5::90]
    dice = rolls(len(positions), seed=9)
    expected = [rank_moves(p, d, plies=1) for p, d in zip(positions, dice)]

    def check() -> list[str]:
        return [f"{p!r} {d}" for p, d, want in zip(positions, dice, expected) if rank_moves(p, d, plies=1) != want]

    assert failures_from_threads(check, threads=4, repeats=2) == []


def test_a_network_changed_in_place_between_searches_is_read_afresh():
    # The hidden sums a search keeps must not outlive it (training changes weights in
    # place). From the opening no roll can hit, so every board of a 1-ply search starts
    # with the same mover-only units: a second search would start from kept sums.
    engine = default_evaluator()
    network = _nn.NeuralNet(**engine.network.arrays())
    tables = engine.c_evaluator().tables
    opening = Position.initial().to_bytes()
    before = _single.probabilities(_engine.EngineCEvaluator(network, tables), opening, 1)
    network.hidden_weights[:] *= 0.5
    after = _single.probabilities(_engine.EngineCEvaluator(network, tables), opening, 1)
    fresh = _engine.EngineCEvaluator(_nn.NeuralNet(**network.arrays()), tables)
    assert after == _single.probabilities(fresh, opening, 1) and after != before

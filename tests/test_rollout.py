"""Rollouts: reproducibility across executors, stratified dice, variance reduction,
truncation, the cube inside games, stop rules, and clear errors for bad settings."""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import itertools
import math

import numpy as np
import pytest

from bgcore._testing import OneRollFinishOracle, PipCountEvaluator
from bgengine import DiceError, EquityUnit, MatchState, Position
from bgengine.cube.referee import CubeReferee, cube_referee
from bgengine.rollouts.blocks import (
    BlockPlan,
    BlockTask,
    RolloutWorkerError,
    forced_rolls,
    play_block,
)
from bgengine.evaluation.bearoff import two_sided_table
from bgengine.errors import IllegalMoveError, InvalidMatchStateError, InvalidPositionError, InvalidSettingsError
from bgengine.rollouts.monte_carlo import RolloutSettings, default_kernel_evaluator, rollout, rollout_moves

PIP_COUNT = PipCountEvaluator()
# Single checkers, no contact: the player on roll wins at once with 27 of the 36 rolls
# (any roll worth 6 pips or more), else the opponent bears off at once.
LAST_CHECKERS = Position.from_points({6: 1}, {1: 1})
BEAROFF = Position.from_points({6: 2, 5: 1, 3: 1}, {6: 1, 4: 2, 2: 1})
CONTACT = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
FAST = RolloutSettings(trials=144, seed=7, block_size=24, variance_reduction=False)


def probabilities_of(result):
    return (result.probabilities, result.probability_standard_errors, result.equity, result.equity_standard_error)


# ----- evaluators --------------------------------------------------------------------


def test_kernel_network_evaluator_matches_bgengine_evaluate_at_0_ply():
    from bgengine.evaluation.evaluator import default_evaluator

    evaluator = default_evaluator()
    kernel = default_kernel_evaluator()
    for position in (CONTACT, BEAROFF, Position.from_points({12: 3, 6: 5, 3: 4}, {10: 2, 5: 5, 4: 5})):
        np.testing.assert_array_equal(kernel.evaluate_board(position.to_bytes()), evaluator.evaluate(position))


@pytest.mark.parametrize("position", [CONTACT, Position.from_points({12: 3, 6: 5, 3: 4}, {10: 2, 5: 5, 4: 5})])
def test_network_and_race_tables_are_safe_to_share_between_threads(position):
    settings = RolloutSettings(trials=32, seed=3, block_size=2, variance_reduction=False)
    evaluator = default_kernel_evaluator()
    results = []
    for workers in (1, 2, 16):
        with cf.ThreadPoolExecutor(workers) as pool:
            results.append(probabilities_of(rollout(position, settings=settings, evaluator=evaluator, executor=pool)))
    assert results[0] == results[1] == results[2]


def test_network_evaluator_rolls_out_the_same_in_another_process():
    from bgengine.evaluation.evaluator import default_evaluator

    settings = dataclasses.replace(FAST, trials=8, block_size=4)
    reference = rollout(CONTACT, settings=settings, evaluator=default_evaluator())
    with cf.ProcessPoolExecutor(1) as pool:
        result = rollout(CONTACT, settings=settings, evaluator=default_evaluator(), executor=pool)
    assert probabilities_of(result) == probabilities_of(reference)


# ----- reproducibility ---------------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2, 16])
@pytest.mark.parametrize("variance_reduction", [False, True])
def test_same_seed_same_result_bit_for_bit_whatever_the_number_of_threads(workers, variance_reduction):
    settings = dataclasses.replace(FAST, trials=24, block_size=4, variance_reduction=variance_reduction)
    reference = rollout(CONTACT, settings=settings, evaluator=PIP_COUNT)
    with cf.ThreadPoolExecutor(workers) as pool:
        result = rollout(CONTACT, settings=settings, evaluator=PIP_COUNT, executor=pool)
    assert probabilities_of(result) == probabilities_of(reference)
    assert result.trials == reference.trials == 24


def test_process_pool_gives_the_same_answer_as_threads():
    settings = dataclasses.replace(FAST, trials=48)
    reference = rollout(CONTACT, settings=settings, evaluator=PIP_COUNT)
    with cf.ProcessPoolExecutor(2) as pool:
        result = rollout(CONTACT, settings=settings, evaluator=PIP_COUNT, executor=pool)
    assert probabilities_of(result) == probabilities_of(reference)


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_answer_as_local():
    distributed = pytest.importorskip("distributed")
    settings = dataclasses.replace(FAST, trials=48)
    reference = rollout(CONTACT, settings=settings, evaluator=PIP_COUNT)
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            result = rollout(CONTACT, settings=settings, evaluator=PIP_COUNT, executor=client.get_executor())
    assert probabilities_of(result) == probabilities_of(reference)


def test_different_seeds_give_different_games():
    a = rollout(CONTACT, settings=FAST, evaluator=PIP_COUNT)
    b = rollout(CONTACT, settings=dataclasses.replace(FAST, seed=8), evaluator=PIP_COUNT)
    assert a.equity != b.equity


def test_no_seed_draws_one_and_records_it_so_the_result_can_be_repeated():
    first = rollout(CONTACT, settings=dataclasses.replace(FAST, seed=None), evaluator=PIP_COUNT)
    assert first.settings.seed is not None
    again = rollout(CONTACT, settings=first.settings, evaluator=PIP_COUNT)
    assert probabilities_of(again) == probabilities_of(first)


class FlakyExecutor(cf.Executor):
    """Runs tasks in threads but fails the first `failures` submissions of chosen blocks."""

    def __init__(self, failing_blocks, failures=1):
        self.pool = cf.ThreadPoolExecutor(2)
        self.remaining = {block: failures for block in failing_blocks}
        self.submitted = []

    def submit(self, fn, task, *args, **kwargs):
        self.submitted.append(task.index)
        if self.remaining.get(task.index, 0) > 0:
            self.remaining[task.index] -= 1
            future = cf.Future()
            future.set_exception(ConnectionError(f"worker holding block {task.index} was lost"))
            return future
        return self.pool.submit(fn, task, *args, **kwargs)

    def shutdown(self, wait=True, **kwargs):
        self.pool.shutdown(wait=wait)


def test_lost_blocks_are_resubmitted_and_counted_once():
    reference = rollout(CONTACT, settings=FAST, evaluator=PIP_COUNT)
    flaky = FlakyExecutor(failing_blocks=[0, 3, 5], failures=2)
    result = rollout(CONTACT, settings=FAST, evaluator=PIP_COUNT, executor=flaky)
    flaky.shutdown()
    assert probabilities_of(result) == probabilities_of(reference)
    assert result.trials == FAST.trials
    assert sorted(flaky.submitted) == sorted(list(range(6)) + [0, 0, 3, 3, 5, 5])


def test_a_block_failing_more_than_max_retries_raises():
    flaky = FlakyExecutor(failing_blocks=[2], failures=5)
    with pytest.raises(RolloutWorkerError, match="block 2 failed"):
        rollout(CONTACT, settings=dataclasses.replace(FAST, max_retries=2), evaluator=PIP_COUNT, executor=flaky)
    flaky.shutdown()


# ----- quasi-random dice ---------------------------------------------------------------


def template(**changes):
    task = BlockTask(
        index=0, first_trial=0, trials=1296, board=CONTACT.to_bytes(), evaluator=PIP_COUNT, oracle=None,
        entropy=12345, quasi_random=True, opening=False, dice=(0, 0), truncate_plies=0,
        variance_reduction=False, referee=None,
    )
    return dataclasses.replace(task, **changes)


def test_first_roll_covers_all_36_rolls_in_every_36_trials_and_pairs_in_every_1296():
    first, second = forced_rolls(template(trials=2 * 1296))
    for start in range(0, len(first), 36):
        assert sorted(first[start : start + 36]) == list(range(36))
    for start in (0, 1296):
        pairs = set(zip(first[start : start + 1296], second[start : start + 1296]))
        assert len(pairs) == 1296


def test_opening_first_roll_covers_the_30_non_doubles_in_every_30_trials():
    first, second = forced_rolls(template(trials=1080, opening=True))
    non_doubles = [r for r in range(36) if r // 6 != r % 6]
    for start in range(0, 1080, 30):
        assert sorted(first[start : start + 30]) == non_doubles
    assert len(set(zip(first, second))) == 1080


def test_stratification_does_not_depend_on_the_block_size():
    whole = forced_rolls(template(trials=400))
    parts = [forced_rolls(t) for t in BlockPlan(template(), 400, 37)]
    assert np.array_equal(whole[0], np.concatenate([p[0] for p in parts]))
    assert np.array_equal(whole[1], np.concatenate([p[1] for p in parts]))


def test_quasi_random_first_roll_gives_the_exact_answer_in_36_trials():
    settings = RolloutSettings(trials=36, seed=3, variance_reduction=False, bearoff_tables=False)
    result = rollout(LAST_CHECKERS, settings=settings, evaluator=PIP_COUNT)
    assert result.probabilities[0] == pytest.approx(27 / 36, abs=1e-12)


def test_plain_dice_do_not_stratify():
    settings = RolloutSettings(trials=36, seed=3, variance_reduction=False, bearoff_tables=False, quasi_random=False)
    wins = [rollout(LAST_CHECKERS, settings=dataclasses.replace(settings, seed=s), evaluator=PIP_COUNT).probabilities[0]
            for s in range(5)]
    assert any(abs(w - 27 / 36) > 1e-9 for w in wins)


def test_opening_rollout_never_throws_a_double_first():
    settings = RolloutSettings(trials=30, seed=3, variance_reduction=False, bearoff_tables=False)
    result = rollout(LAST_CHECKERS, settings=settings, evaluator=PIP_COUNT, opening=True)
    assert result.probabilities[0] == pytest.approx(22 / 30, abs=1e-12)  # 22 non-doubles worth 6+
    free = dataclasses.replace(settings, trials=6000, quasi_random=False)
    result = rollout(LAST_CHECKERS, settings=free, evaluator=PIP_COUNT, opening=True)
    assert abs(result.probabilities[0] - 22 / 30) < 4 * result.probability_standard_errors[0]
    assert abs(result.probabilities[0] - 27 / 36) > 2 * result.probability_standard_errors[0]


# ----- exact answers and variance reduction ---------------------------------------------------


def test_bearoff_tables_finish_games_exactly():
    result = rollout(BEAROFF, settings=RolloutSettings(trials=10, seed=1), evaluator=default_kernel_evaluator())
    exact = two_sided_table().win_probability({6: 2, 5: 1, 3: 1}, {6: 1, 4: 2, 2: 1})
    assert result.probabilities[0] == pytest.approx(exact, abs=1e-6)
    assert result.average_plies == 0


@pytest.mark.parametrize("variance_reduction", [False, True])
def test_played_out_bearoff_agrees_with_the_exact_table(variance_reduction):
    exact = two_sided_table().win_probability({6: 2, 5: 1, 3: 1}, {6: 1, 4: 2, 2: 1})
    settings = RolloutSettings(trials=1296, seed=5, bearoff_tables=False, variance_reduction=variance_reduction)
    result = rollout(BEAROFF, settings=settings, evaluator=default_kernel_evaluator())
    assert abs(result.probabilities[0] - exact) < 4 * result.probability_standard_errors[0]


def test_variance_reduction_lowers_the_standard_error():
    plain = RolloutSettings(trials=1296, seed=5, bearoff_tables=False, variance_reduction=False)
    reduced = dataclasses.replace(plain, variance_reduction=True)
    evaluator = default_kernel_evaluator()
    a = rollout(BEAROFF, settings=plain, evaluator=evaluator)
    b = rollout(BEAROFF, settings=reduced, evaluator=evaluator)
    assert b.equity_standard_error < a.equity_standard_error / 3


def test_variance_reduction_is_unbiased_with_a_poor_evaluator():
    # The pip-count heuristic plays and judges this bear-off poorly; the luck it
    # measures must still average zero, so the mean stays on the plain rollout's.
    plain = RolloutSettings(trials=2016, seed=9, bearoff_tables=False, variance_reduction=False)
    a = rollout(BEAROFF, settings=plain, evaluator=PIP_COUNT)
    b = rollout(BEAROFF, settings=dataclasses.replace(plain, variance_reduction=True), evaluator=PIP_COUNT)
    assert abs(a.equity - b.equity) < 4 * math.hypot(a.equity_standard_error, b.equity_standard_error)


def test_gammons_and_backgammons_are_scored_by_the_rules():
    # The player on roll bears off the last checker with any roll; the opponent has a
    # checker on the bar: a sure backgammon.
    position = Position.from_points({2: 1}, {6: 5, 5: 5, 4: 4}, opponent_bar=1)
    result = rollout(position, settings=RolloutSettings(trials=36, seed=1, bearoff_tables=False), evaluator=PIP_COUNT)
    assert result.probabilities.as_tuple() == (1.0, 1.0, 1.0, 0.0, 0.0)
    assert result.equity == 3.0


def test_an_exact_oracle_ends_games_where_it_knows_the_answer():
    position = Position.from_points({2: 1}, {6: 5, 5: 5, 4: 4}, opponent_bar=1)
    task = dataclasses.replace(template(trials=4, quasi_random=False), board=position.to_bytes(), oracle=OneRollFinishOracle())
    outcome = play_block(task)
    assert outcome.plies == 0
    assert list(outcome.sums[:6]) == [4.0, 4.0, 4.0, 0.0, 0.0, 12.0]


# ----- truncation ------------------------------------------------------------------------------


def one_ply_average(position, evaluator):
    """Mean over the 36 rolls of the evaluator's value of the best play (mover's view)."""
    total = np.zeros(5)
    for d1, d2 in itertools.product(range(1, 7), repeat=2):
        moves = position.legal_moves((d1, d2))
        values = [np.array(evaluator.evaluate_board(moves.position_after(i).to_bytes())) for i in range(len(moves))]
        equities = [2 * v[0] - 1 + v[1] - v[3] + v[2] - v[4] for v in values]
        win, wg, wbg, lg, lbg = values[int(np.argmin(equities))]
        total += (1 - win, lg, lbg, wg, wbg)
    return total / 36


def test_truncation_after_one_ply_is_the_one_ply_average():
    settings = RolloutSettings(trials=36, seed=2, truncate_plies=1, variance_reduction=False, bearoff_tables=False)
    result = rollout(CONTACT, settings=settings, evaluator=PIP_COUNT)
    assert result.average_plies == 1
    np.testing.assert_allclose(result.probabilities, one_ply_average(CONTACT, PIP_COUNT), atol=1e-6)


def test_truncated_games_stop_at_the_limit():
    settings = dataclasses.replace(FAST, truncate_plies=5)
    assert rollout(CONTACT, settings=settings, evaluator=PIP_COUNT).average_plies == 5


# ----- the cube ---------------------------------------------------------------------------------


class RecordingReferee(CubeReferee):
    """A referee that remembers every cube state it was asked to decide in (in Python: the
    kernel would otherwise decide money games in C without asking)."""

    def __init__(self, match, calls):
        super().__init__(match, in_c=False)
        object.__setattr__(self, "calls", calls)

    def decide(self, mover5, cube_value, owner_from_mover, mover_is_root, board):
        action = super().decide(mover5, cube_value, owner_from_mover, mover_is_root, board)
        self.calls.append((cube_value, owner_from_mover, mover_is_root, action))
        return action


def play_with_referee(match, trials=24):
    calls = []
    task = dataclasses.replace(template(trials=trials, quasi_random=False), referee=RecordingReferee(match, calls))
    return play_block(task), calls


def test_cube_is_offered_only_by_a_player_who_has_access_to_it():
    outcome, calls = play_with_referee(MatchState())
    assert calls, "the cube was never considered"
    assert any(action != 0 for *_, action in calls), "nobody ever doubled"
    for cube_value, owner, _, _ in calls:
        assert owner in (0, 1)  # centred, or owned by the player on roll
        assert cube_value * 2 <= 64


def test_the_root_never_doubles_before_its_first_roll_in_a_rollout():
    # Truncated after one ply: the only cube decision could be the root's before rolling.
    calls = []
    task = template(trials=12, quasi_random=False, truncate_plies=1, referee=RecordingReferee(MatchState(), calls))
    play_block(task)
    assert calls == []


def test_after_a_move_the_next_player_may_double_at_once():
    calls = []
    referee = RecordingReferee(MatchState(), calls)
    object.__setattr__(referee, "root_may_double", True)
    play_block(template(trials=12, quasi_random=False, truncate_plies=1, referee=referee))
    assert len(calls) == 12 and all(mover_is_root for _, _, mover_is_root, _ in calls)


def test_rollout_moves_cubeful_gives_each_play_its_cubeful_value():
    position = Position.from_points({2: 1, 1: 1}, {1: 1})
    settings = RolloutSettings(trials=24, seed=1, block_size=24, bearoff_tables=False)
    ranked = rollout_moves(position, (2, 1), settings=settings, evaluator=PIP_COUNT, referee=cube_referee())
    assert [r.cubeful_equity for _, r in ranked] == [1.0, -1.0]


def test_crawford_game_never_turns_the_cube():
    outcome, calls = play_with_referee(MatchState(match_length=5, score=(4, 2), crawford=True))
    assert calls == []
    assert outcome.trials == 24


def test_money_cubeful_results_are_whole_points_times_the_cube():
    settings = RolloutSettings(trials=1, variance_reduction=False, bearoff_tables=False)
    for seed in range(8):
        result = rollout(CONTACT, settings=dataclasses.replace(settings, seed=seed), evaluator=PIP_COUNT,
                         referee=cube_referee())
        value = abs(result.cubeful_equity)
        assert value in {k * 2**j for k in (1, 2, 3) for j in range(7)}, value


def test_match_cubeful_value_is_a_match_winning_chance():
    match = MatchState(match_length=7, score=(2, 4))
    result = rollout(CONTACT, match=match, settings=FAST, evaluator=PIP_COUNT, referee=cube_referee())
    assert 0.0 <= result.cubeful_equity <= 1.0
    assert result.cubeful_unit is EquityUnit.MWC


def test_cubeful_with_a_sure_win_cashes_or_wins_the_game():
    # The player on roll owns nothing and will surely win: a backgammon as computed above.
    position = Position.from_points({2: 1}, {6: 5, 5: 5, 4: 4}, opponent_bar=1)
    settings = RolloutSettings(trials=36, seed=1, bearoff_tables=False)
    result = rollout(position, settings=settings, evaluator=PIP_COUNT, referee=cube_referee())
    assert result.cubeful_equity == 3.0


def test_jacoby_rule_counts_gammons_as_single_games_while_the_cube_is_centred():
    position = Position.from_points({2: 1}, {6: 5, 5: 5, 4: 4}, opponent_bar=1)
    settings = RolloutSettings(trials=12, seed=1, bearoff_tables=False)
    result = rollout(position, match=MatchState(jacoby=True), settings=settings, evaluator=PIP_COUNT,
                     referee=cube_referee())
    assert result.cubeful_equity == 1.0
    assert result.equity == 3.0  # the cubeless result still counts the backgammon


# ----- stop rules, progress, results ------------------------------------------------------------------


def test_target_standard_error_stops_early_the_same_way_for_any_workers():
    settings = RolloutSettings(trials=2000, seed=4, block_size=24, min_trials=48, target_standard_error=0.2)
    with cf.ThreadPoolExecutor(1) as one, cf.ThreadPoolExecutor(2) as two:
        a = rollout(CONTACT, settings=settings, evaluator=PIP_COUNT, executor=one)
        b = rollout(CONTACT, settings=settings, evaluator=PIP_COUNT, executor=two)
    assert a.trials < 2000 and a.trials % 24 == 0
    assert a.equity_standard_error <= 0.2
    assert probabilities_of(a) == probabilities_of(b) and a.trials == b.trials


def test_one_block_in_flight_gives_the_same_answer():
    reference = rollout(CONTACT, settings=FAST, evaluator=PIP_COUNT)
    result = rollout(CONTACT, settings=dataclasses.replace(FAST, max_pending_blocks=1), evaluator=PIP_COUNT)
    assert probabilities_of(result) == probabilities_of(reference)


def test_progress_reports_every_block_in_order():
    seen = []
    rollout(CONTACT, settings=FAST, evaluator=PIP_COUNT, progress=lambda done, total, est: seen.append((done, total, est.trials)))
    assert seen == [(24 * i, 144, 24 * i) for i in range(1, 7)]


def test_result_never_claims_more_precision_than_it_has():
    one = rollout(CONTACT, settings=dataclasses.replace(FAST, trials=1), evaluator=PIP_COUNT)
    assert math.isinf(one.equity_standard_error)
    assert "error unknown" in str(one)
    many = rollout(CONTACT, settings=FAST, evaluator=PIP_COUNT)
    low, high = many.equity_ci95
    assert low < many.equity < high
    assert "±" in str(many)


def test_flipped_result_is_the_other_players_view():
    result = rollout(CONTACT, settings=FAST, evaluator=PIP_COUNT)
    flipped = result.flipped()
    assert flipped.equity == -result.equity
    assert flipped.probabilities[0] == pytest.approx(1 - result.probabilities[0])
    assert flipped.flipped().probabilities == pytest.approx(result.probabilities)


def test_kept_trial_values_average_to_the_result_and_flip_with_it():
    from bgengine.rollouts.monte_carlo import paired_standard_error

    result = rollout(CONTACT, settings=FAST, evaluator=PIP_COUNT, keep_trial_values=True)
    assert len(result.trial_values) == result.trials
    assert result.trial_values.mean() == pytest.approx(result.equity)
    assert np.array_equal(result.flipped().trial_values, -result.trial_values)
    assert rollout(CONTACT, settings=FAST, evaluator=PIP_COUNT).trial_values is None
    assert paired_standard_error(result, result) == 0.0
    with pytest.raises(InvalidSettingsError, match="keep their trial values"):
        paired_standard_error(result, rollout(CONTACT, settings=FAST, evaluator=PIP_COUNT))
    other_seed = rollout(CONTACT, settings=dataclasses.replace(FAST, seed=FAST.seed + 1), evaluator=PIP_COUNT,
                         keep_trial_values=True)
    with pytest.raises(InvalidSettingsError, match="same seed"):
        paired_standard_error(result, other_seed)


def test_a_staged_rollout_plays_the_blocks_of_one_rollout():
    from bgengine.rollouts.monte_carlo import StagedRollout

    settings = dataclasses.replace(FAST, trials=120)  # blocks of 24, the last one whole too
    whole = rollout(CONTACT, settings=settings, evaluator=PIP_COUNT, keep_trial_values=True)
    staged = StagedRollout(CONTACT, settings=settings, evaluator=PIP_COUNT)
    staged.extend(30)  # whole blocks: 48 trials
    assert staged.trials == 48
    staged.extend(40)  # nothing more to play
    assert staged.trials == 48
    staged.extend(500)
    result = staged.result()
    assert result.trials == 120 and result.equity == pytest.approx(whole.equity)
    assert np.array_equal(result.trial_values, whole.trial_values)


def test_decision_z_is_checked():
    with pytest.raises(InvalidSettingsError, match="decision_z must be a number > 0"):
        RolloutSettings(decision_z=0)


def test_rollout_moves_ranks_plays_and_drops_the_clearly_worse():
    # 2-1 with checkers on the 2 and 1 points: bearing both off wins; 2/1 1/off leaves
    # one checker and the opponent (one checker on their 1-point) wins at once.
    position = Position.from_points({2: 1, 1: 1}, {1: 1})
    settings = RolloutSettings(trials=96, seed=1, min_trials=24, block_size=24, drop_clearly_worse=True, bearoff_tables=False)
    ranked = rollout_moves(position, (2, 1), settings=settings, evaluator=PIP_COUNT)
    assert len(ranked) == 2
    (best, best_result), (worst, worst_result) = ranked
    assert best_result.equity == 1.0 and best_result.trials == 96 and not best_result.dropped
    assert worst_result.equity == -1.0 and worst_result.trials == 24 and worst_result.dropped


def test_rollout_moves_pairs_the_candidates_trial_by_trial():
    from bgengine.rollouts.monte_carlo import paired_standard_error

    settings = dataclasses.replace(FAST, trials=48)
    ranked = rollout_moves(CONTACT, (3, 1), moves=["8/5 6/5", "24/21 24/23"], settings=settings,
                           evaluator=PIP_COUNT, keep_trial_values=True)
    (_, best), (_, other) = ranked
    differences = best.trial_values - other.trial_values
    assert best.equity - other.equity == pytest.approx(differences.mean())
    assert paired_standard_error(other, best) == pytest.approx(differences.std(ddof=1) / len(differences) ** 0.5)
    plain = rollout_moves(CONTACT, (3, 1), moves=["8/5 6/5"], settings=settings, evaluator=PIP_COUNT)
    assert plain[0][1].trial_values is None


def test_rollout_moves_accepts_move_text_and_refuses_illegal_plays():
    settings = dataclasses.replace(FAST, trials=24)
    ranked = rollout_moves(CONTACT, (3, 1), moves=["8/5 6/5", "24/21 24/23"], settings=settings, evaluator=PIP_COUNT)
    assert len(ranked) == 2
    with pytest.raises(IllegalMoveError):
        rollout_moves(CONTACT, (3, 1), moves=["8/2"], settings=settings, evaluator=PIP_COUNT)
    with pytest.raises(IllegalMoveError):
        rollout_moves(CONTACT, (3, 1), moves=[CONTACT], settings=settings, evaluator=PIP_COUNT)


# ----- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"trials": -5}, "trials"),
        ({"trials": 0}, "trials"),
        ({"trials": 2.5}, "trials"),
        ({"truncate_plies": 0}, "truncate_plies"),
        ({"target_standard_error": -0.1}, "target_standard_error"),
        ({"target_standard_error": float("nan")}, "target_standard_error"),
        ({"block_size": 0}, "block_size"),
        ({"seed": -1}, "seed"),
        ({"variance_reduction": 1}, "variance_reduction"),
        ({"min_trials": 1}, "min_trials"),
        ({"max_retries": -1}, "max_retries"),
        ({"max_pending_blocks": 0}, "max_pending_blocks"),
    ],
)
def test_invalid_settings_raise_a_clear_typed_error(changes, message):
    with pytest.raises(InvalidSettingsError, match=message):
        RolloutSettings(**changes)


def test_invalid_rollout_arguments_raise_clear_typed_errors():
    with pytest.raises(InvalidSettingsError, match="C-level evaluator"):
        rollout(CONTACT, settings=FAST, evaluator=object())
    with pytest.raises(DiceError, match="the first roll must be two dice"):
        rollout(CONTACT, dice=(7, 1), settings=FAST, evaluator=PIP_COUNT)
    with pytest.raises(IllegalMoveError, match="double"):
        rollout(CONTACT, dice=(3, 3), settings=FAST, evaluator=PIP_COUNT, opening=True)
    with pytest.raises(InvalidPositionError, match="over"):
        rollout(Position.from_points({}, {1: 1}), settings=FAST, evaluator=PIP_COUNT)
    with pytest.raises(InvalidPositionError):
        rollout(CONTACT.to_bytes(), settings=FAST, evaluator=PIP_COUNT)
    with pytest.raises(InvalidSettingsError):
        rollout(CONTACT, settings={"trials": 10}, evaluator=PIP_COUNT)


def test_a_huge_trial_count_costs_no_memory_before_the_stop_rule_ends_it():
    """The work list is made lazily (issue 16): 10**9 trials with a loose target stop at once."""
    import tracemalloc

    settings = RolloutSettings(trials=10**9, seed=3, block_size=72, min_trials=144, target_standard_error=0.5,
                               variance_reduction=False, bearoff_tables=False)
    tracemalloc.start()
    try:
        result = rollout(CONTACT, settings=settings, evaluator=PIP_COUNT)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.trials < 10_000 and result.equity_standard_error <= 0.5
    assert peak < 20 * 2**20, f"{peak / 2**20:.0f} MiB traced"


def test_block_plan_makes_each_block_on_demand_and_covers_every_trial():
    plan = BlockPlan(template(), 10**12, 1000)
    assert len(plan) == 10**9
    last = plan[len(plan) - 1]
    assert (last.index, last.first_trial, last.trials) == (10**9 - 1, 10**12 - 1000, 1000)
    short = BlockPlan(template(), 2500, 1000)
    assert [task.trials for task in short] == [1000, 1000, 500]
    with pytest.raises(IndexError):
        short[3]


# ----- lookahead play (checker play, cube decisions and truncation at n plies) ----------------

from bgcore import _nply  # noqa: E402
from bgengine.evaluation.evaluator import MoveFilter  # noqa: E402

ONE_PLY = RolloutSettings(trials=12, seed=7, block_size=3, checker_plies=1, truncate_plies=6)
TWO_PLY = dataclasses.replace(ONE_PLY, trials=4, block_size=1, checker_plies=2, truncate_plies=2)
EVERY_CANDIDATE = MoveFilter(keep=64, margin=100.0)


def equity5(v):
    return 2 * v[0] - 1 + v[1] - v[3] + v[2] - v[4]


def nply_value(evaluator, position, plies, move_filter=MoveFilter()):
    return _nply.nply_evaluate(evaluator, np.frombuffer(position.to_bytes(), dtype=np.int8)[None, :], plies,
                               move_filter.keep, move_filter.margin)[0]


def best_after(evaluator, position, dice, plies):
    """The position after the play of least equity for the next player, every play searched."""
    legal = position.legal_moves(dice)
    after = [legal.position_after(i) for i in range(len(legal))]
    return min(after, key=lambda child: equity5(nply_value(evaluator, child, plies, EVERY_CANDIDATE)))


def a_roll_played_differently_at_0_and_1_ply(evaluator):
    """The first roll (in a fixed order) whose best play from CONTACT differs between the 0-ply
    and the 1-ply search, so a test can tell which depth chose (which roll it is depends on
    the shipped networks)."""
    for high in range(6, 0, -1):
        for low in range(high, 0, -1):
            if best_after(evaluator, CONTACT, (high, low), 0) != best_after(evaluator, CONTACT, (high, low), 1):
                return high, low
    pytest.fail("every roll is played the same at 0 and 1 ply from CONTACT: pick another position")


@pytest.mark.parametrize("plies", [0, 1])
def test_lookahead_play_chooses_the_move_of_the_n_ply_search_and_truncates_at_that_depth(plies):
    # The first roll is given and the game stops at ply 1: the result is the n-ply value of
    # the n-ply choice, from the root's view (0-ply play would choose and value otherwise).
    evaluator = default_kernel_evaluator()
    dice = a_roll_played_differently_at_0_and_1_ply(evaluator)
    settings = RolloutSettings(trials=1, seed=1, truncate_plies=1, variance_reduction=False,
                               checker_plies=plies, move_filter=EVERY_CANDIDATE)
    result = rollout(CONTACT, dice=dice, settings=settings, evaluator=evaluator)
    chosen = best_after(evaluator, CONTACT, dice, plies)
    expected = -equity5(nply_value(evaluator, chosen, plies))
    assert result.equity == pytest.approx(expected, abs=1e-5)
    assert chosen != best_after(evaluator, CONTACT, dice, 1 - plies)


def test_later_plies_take_over_from_later_from():
    # 0-ply play at ply 0, then from ply 1 on 1-ply: the truncation at ply 1 values at 1 ply.
    evaluator = default_kernel_evaluator()
    settings = RolloutSettings(trials=1, seed=1, truncate_plies=1, variance_reduction=False,
                               later_plies=1, later_from=1, move_filter=EVERY_CANDIDATE)
    result = rollout(CONTACT, dice=(6, 4), settings=settings, evaluator=evaluator)
    chosen = best_after(evaluator, CONTACT, (6, 4), 0)
    assert result.equity == pytest.approx(-equity5(nply_value(evaluator, chosen, 1)), abs=1e-5)


class ProbabilityRecordingReferee(CubeReferee):
    """A referee that remembers the 5-vectors it decides from (in Python: the kernel would
    otherwise decide money games in C without asking)."""

    def __init__(self, match, seen):
        super().__init__(match, root_may_double=True, in_c=False)
        object.__setattr__(self, "seen", seen)

    def decide(self, mover5, cube_value, owner_from_mover, mover_is_root, board):
        self.seen.append(tuple(mover5))
        return 0


@pytest.mark.parametrize("cube_plies", [0, 1])
def test_cube_decisions_see_the_probabilities_at_the_cube_depth(cube_plies):
    # After a move the next player may double at once: the referee's first question is
    # about the root position, with its cube_plies-deep 5-vector.
    seen = []
    evaluator = default_kernel_evaluator()
    lookahead = RolloutSettings(cube_plies=cube_plies).lookahead
    task = template(trials=2, quasi_random=False, truncate_plies=1, evaluator=evaluator,
                    referee=ProbabilityRecordingReferee(MatchState(), seen), lookahead=lookahead)
    play_block(task)
    assert len(seen) == 2
    np.testing.assert_allclose(seen[0], nply_value(evaluator, CONTACT, cube_plies), atol=1e-6)


@pytest.mark.parametrize("workers", [1, 2, 16])
@pytest.mark.parametrize("settings", [ONE_PLY, TWO_PLY, dataclasses.replace(ONE_PLY, variance_reduction=False)])
def test_lookahead_rollouts_are_the_same_whatever_the_number_of_threads(workers, settings):
    reference = rollout(CONTACT, settings=settings, evaluator=PIP_COUNT)
    with cf.ThreadPoolExecutor(workers) as pool:
        result = rollout(CONTACT, settings=settings, evaluator=PIP_COUNT, executor=pool)
    assert probabilities_of(result) == probabilities_of(reference)


def test_lookahead_cubeful_rollouts_are_the_same_in_processes_as_in_threads():
    settings = dataclasses.replace(ONE_PLY, cube_plies=2, later_plies=0, later_from=3)
    reference = rollout(CONTACT, settings=settings, evaluator=PIP_COUNT, referee=cube_referee())
    with cf.ProcessPoolExecutor(2) as pool:
        result = rollout(CONTACT, settings=settings, evaluator=PIP_COUNT, referee=cube_referee(), executor=pool)
    assert probabilities_of(result) == probabilities_of(reference)
    assert result.cubeful_equity == reference.cubeful_equity


@pytest.mark.slow
def test_lookahead_rollouts_on_a_dask_local_cluster_give_the_local_answer():
    distributed = pytest.importorskip("distributed")
    reference = rollout(CONTACT, settings=ONE_PLY, evaluator=default_kernel_evaluator())
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            result = rollout(CONTACT, settings=ONE_PLY, evaluator=default_kernel_evaluator(),
                             executor=client.get_executor())
    assert probabilities_of(result) == probabilities_of(reference)


def test_lookahead_play_changes_the_games():
    zero = rollout(CONTACT, settings=dataclasses.replace(ONE_PLY, checker_plies=0), evaluator=default_kernel_evaluator())
    one = rollout(CONTACT, settings=ONE_PLY, evaluator=default_kernel_evaluator())
    assert zero.equity != one.equity


def test_variance_reduction_with_lookahead_play_stays_unbiased():
    # The luck is measured at 0-ply while the play is 1-ply: its average must still be zero.
    plain = RolloutSettings(trials=648, seed=9, bearoff_tables=False, variance_reduction=False, checker_plies=1)
    a = rollout(BEAROFF, settings=plain, evaluator=PIP_COUNT)
    b = rollout(BEAROFF, settings=dataclasses.replace(plain, variance_reduction=True), evaluator=PIP_COUNT)
    assert abs(a.equity - b.equity) < 4 * math.hypot(a.equity_standard_error, b.equity_standard_error)
    assert b.equity_standard_error < a.equity_standard_error


def test_zero_ply_settings_are_the_default_lookahead():
    explicit = dataclasses.replace(FAST, checker_plies=0, cube_plies=0)
    assert explicit.lookahead == FAST.lookahead
    assert probabilities_of(rollout(CONTACT, settings=explicit, evaluator=PIP_COUNT)) == probabilities_of(
        rollout(CONTACT, settings=FAST, evaluator=PIP_COUNT))


def test_rollout_moves_takes_the_lookahead_settings():
    settings = dataclasses.replace(ONE_PLY, trials=4, block_size=2)
    ranked = rollout_moves(CONTACT, (3, 1), moves=["8/5 6/5", "24/21 24/23"], settings=settings, evaluator=PIP_COUNT)
    zero = rollout_moves(CONTACT, (3, 1), moves=["8/5 6/5", "24/21 24/23"],
                         settings=dataclasses.replace(settings, checker_plies=0), evaluator=PIP_COUNT)
    assert [r.settings.checker_plies for _, r in ranked] == [1, 1]
    assert [r.equity for _, r in ranked] != [r.equity for _, r in zero]


def test_presets_name_the_depths_and_take_overrides():
    assert RolloutSettings.preset("fast").checker_plies == 0
    assert RolloutSettings.preset("standard").lookahead.cube_plies == 1
    strong = RolloutSettings.preset("strong", seed=3, trials=36)
    assert (strong.checker_plies, strong.seed, strong.trials) == (2, 3, 36)
    with pytest.raises(InvalidSettingsError, match="preset"):
        RolloutSettings.preset("xg-roller")


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"checker_plies": 4}, "checker_plies"),
        ({"checker_plies": -1}, "checker_plies"),
        ({"checker_plies": None}, "checker_plies"),
        ({"cube_plies": 1.0}, "cube_plies"),
        ({"later_plies": 1}, "later_from"),
        ({"later_plies": 1, "later_from": 0}, "later_from"),
        ({"later_plies": 9, "later_from": 4}, "later_plies"),
        ({"move_filter": (2, 0.04)}, "move_filter"),
    ],
)
def test_invalid_lookahead_settings_raise_a_clear_typed_error(changes, message):
    with pytest.raises(InvalidSettingsError, match=message):
        RolloutSettings(**changes)

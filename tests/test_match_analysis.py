"""analyze_match: checker plays, cube decisions and luck rated, hand-checked; totals and rates; workers."""

from __future__ import annotations

import concurrent.futures as cf
from pathlib import Path

import pytest

import bgengine as bg
from bgengine import AnalysisThresholds, Match, MatchState, Position, analyze_match, rank_moves
from bgengine.analysis.match_analysis import CubeError, Mark, _cube_choices, turn_tasks
from bgengine.analysis.turns import ROLL_WEIGHTS, CubeAction, EquityWeights, PlayValue, TurnTask, _luck, analyse_turn
from bgengine.cube.match_equity import MatchScore, cubeless_mwc, emg_reference, mwc_to_emg
from bgengine.errors import InvalidSettingsError
from bgengine.game.actions import Double, Pass, Play, Roll

DATA = Path(__file__).parent / "data"
GNUBG_MATCH = DATA / "gnubg_match_5.sgf"


@pytest.fixture(scope="module")
def recorded() -> Match:
    return bg.read_sgf(GNUBG_MATCH)


@pytest.fixture(scope="module")
def analysis(recorded: Match) -> bg.MatchAnalysis:
    return analyze_match(recorded, plies=0)


def two_plays(second_choice: int) -> Match:
    """A 3-point match: player 0 opens 31 with the best 0-ply play, player 1 rolls 64 and plays choice n."""
    match = Match(3)
    match.push(Roll((3, 1)))
    match.push(Play(rank_moves(match.game.position, (3, 1), plies=0)[0].move))
    match.push(Roll((6, 4)))
    ranked = rank_moves(match.game.position, (6, 4), plies=0)
    match.push(Play(ranked[second_choice].move))
    return match


def test_the_best_move_has_zero_error():
    plays = analyze_match(two_plays(0), plies=0, equity="money").checker_plays
    assert [play.error for play in plays] == [0.0, 0.0]
    assert all(play.played == play.best and play.mark is Mark.NONE for play in plays)


def test_a_worse_move_costs_its_equity_gap_and_is_marked():
    match = two_plays(-1)
    position = position_before_second_play(match)
    by_hand = rank_moves(position, (6, 4), plies=0)
    play = analyze_match(match, plies=0, equity="money").checker_plays[1]
    assert play.best == by_hand[0].move and play.played == by_hand[-1].move
    assert play.error == pytest.approx(by_hand[0].equity - by_hand[-1].equity)
    assert play.error > 0.12 and play.mark is Mark.VERY_BAD
    win, lose = emg_reference(bg.default_met(), MatchScore.from_match_state(play.where.match))
    assert play.error_mwc == pytest.approx(play.error * (win - lose) / 2)


def position_before_second_play(match: Match) -> Position:
    tasks = list(turn_tasks(match.games[0]))
    assert [task.dice for task in tasks] == [(3, 1), (6, 4)]
    return tasks[1].position


def test_a_forced_move_has_no_error_and_is_not_counted_as_unforced(analysis, recorded):
    forced = [play for play in analysis.checker_plays if play.forced]
    assert forced, "the recorded match has rolls that could not be played"
    for play in forced:
        assert len(play.where.position.legal_moves(play.dice)) == 1
        assert play.error == 0.0 and play.mark is Mark.NONE
    for player, stats in enumerate(analysis.players):
        mine = [play for play in analysis.checker_plays if play.where.player == player]
        assert stats.moves == len(mine)
        assert stats.unforced_moves == sum(1 for play in mine if not play.forced)


def test_passing_a_too_good_double_is_right_and_the_double_is_wrong():
    too_good = Position.from_points({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {6: 3, 5: 3, 4: 3, 3: 3}, opponent_bar=3)
    task = TurnTask(0, 0, 0, too_good, MatchState(match_length=7), False, CubeAction.DOUBLE_PASS, None, None)
    result = analyse_turn(task, plies=0)
    assert result.cube is not None and result.cube.action is bg.CubeAction.TOO_GOOD_PASS
    doubler, taker = _cube_choices(task, result.cube, AnalysisThresholds())
    assert (taker.role, taker.chosen, taker.error, taker.mistake) == ("taker", "pass", 0.0, None)
    emg = result.cube.to_emg()
    assert doubler.mistake is CubeError.WRONG_DOUBLE
    assert doubler.error == pytest.approx(emg.no_double - emg.double_pass) and doubler.error > 0


def test_taking_a_too_good_double_is_a_wrong_take_and_not_doubling_is_right():
    too_good = Position.from_points({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {6: 3, 5: 3, 4: 3, 3: 3}, opponent_bar=3)
    take = TurnTask(0, 0, 0, too_good, MatchState(match_length=7), False, CubeAction.DOUBLE_TAKE, None, None)
    decision = analyse_turn(take, plies=0).cube
    assert decision is not None
    _, taker = _cube_choices(take, decision, AnalysisThresholds())
    assert taker.mistake is CubeError.WRONG_TAKE and taker.error > 0.12 and taker.mark is Mark.VERY_BAD
    rolled = TurnTask(0, 0, 0, too_good, MatchState(match_length=7), False, CubeAction.NO_DOUBLE, None, None)
    (kept,) = _cube_choices(rolled, decision, AnalysisThresholds())
    assert (kept.chosen, kept.error, kept.mistake) == ("no double", 0.0, None)


@pytest.mark.parametrize("measure", ["money", "cubeful"])
def test_the_luck_of_the_36_rolls_averages_to_zero(measure):
    position = Position.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    value = PlayValue.of(measure, MatchState(match_length=7, score=(2, 4)))
    lucks = {dice: _luck(position, dice, False, None, value).luck for dice, _ in ROLL_WEIGHTS}
    assert sum(lucks[dice] * weight for dice, weight in ROLL_WEIGHTS) / 36 == pytest.approx(0.0, abs=1e-9)
    assert max(lucks.values()) > 0 > min(lucks.values())


def test_cubeful_is_the_default_and_a_play_is_valued_after_the_opponents_best_cube_action():
    match = two_plays(-1)
    play = analyze_match(match, plies=0).checker_plays[1]
    assert play.where.match.dice == (6, 4)
    state = play.where.match.with_changes(dice=None)
    (after,) = [m for m in rank_moves(play.where.position, (6, 4), plies=0) if m.move == play.played]
    opponent = state.with_changes(on_roll=1 - state.on_roll)
    decision = bg.cube_decision(after.position, opponent, probabilities=after.probabilities.flipped())
    assert decision.double_take is not None and decision.double_pass is not None
    theirs = max(decision.no_double, min(decision.double_take, decision.double_pass))  # the opponent's MWC
    table, score = bg.default_met(), MatchScore.from_match_state(state)
    assert play.played_equity == pytest.approx(mwc_to_emg(1.0 - theirs, table, score))
    assert play.error > 0.0 and play.error == pytest.approx(play.best_equity - play.played_equity)


def test_the_plays_compared_are_the_best_at_0_ply_by_the_measure_at_the_score():
    # 21 at 3-2 in a 5-point match, cube 2 on the mover's side: cubeless money equity and
    # the cubeful measure at the score pick different candidates at 0-ply.
    position = Position.from_gnubg_id("XQEA/BPMrWsBAA")
    before = MatchState(match_length=5, score=(3, 2), cube_value=2, cube_owner=0)
    at_roll = before.with_changes(dice=(2, 1))
    legal = position.legal_moves((2, 1))
    played = legal.move(0)
    measure = PlayValue.of("cubeful", at_roll)
    children = [legal.position_after(i) for i in range(len(legal))]
    zero_ply = [bg.evaluate(child).probabilities.flipped() for child in children]
    by_measure = [measure.after(child, p) for child, p in zip(children, zero_ply)]
    by_money = [p.equity for p in zero_ply]

    def best_eight(values: list[float]) -> set[int]:
        top = sorted(range(len(values)), key=lambda i: -values[i])[:8]
        return {i for i in top if values[i] >= values[top[0]] - 0.16}

    compared = best_eight(by_measure) | {0}
    assert best_eight(by_money) | {0} != compared
    one_ply = {i: measure.after(children[i], bg.evaluate(children[i], plies=1).probabilities.flipped())
               for i in compared}
    best = max(one_ply, key=lambda i: one_ply[i])
    task = TurnTask(0, 0, 0, position, before, False, None, (2, 1), played, checker_match=at_roll)
    checker = analyse_turn(task, 1).checker
    assert checker is not None and checker.best == legal.move(best)
    assert checker.error == pytest.approx(one_ply[best] - one_ply[0], abs=1e-6)  # float32 searches
    assert {c.move for c in checker.candidates} <= {legal.move(i) for i in compared}


def test_in_the_crawford_game_cubeful_is_cubeless_at_the_score():
    crawford = MatchState(match_length=5, score=(4, 2), crawford=True, on_roll=1)
    position = Position.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    cubeful, at_score = PlayValue.of("cubeful", crawford), EquityWeights.at_score(crawford)
    for move in rank_moves(position, (6, 4), plies=0)[:5]:
        assert cubeful.after(move.position, move.probabilities) == pytest.approx(at_score.equity(move.probabilities))


def test_a_play_that_ends_the_game_is_worth_its_result():
    state = MatchState(match_length=7, score=(2, 4), cube_value=2, cube_owner=0)
    last_checkers = Position.from_points({1: 2}, {6: 5, 5: 5, 4: 5})
    (finish,) = [m for m in rank_moves(last_checkers, (2, 1), plies=0) if m.position.phase.name == "OVER"][:1]
    assert PlayValue.of("cubeful", state).after(finish.position, finish.probabilities) == pytest.approx(
        EquityWeights.at_score(state).equity(finish.probabilities))


def test_player_luck_is_the_sum_of_their_rolls_and_adjusts_the_result(analysis, recorded):
    for player, stats in enumerate(analysis.players):
        rolls = [roll for roll in analysis.rolls if roll.where.player == player]
        assert stats.rolls == len(rolls) == stats.moves
        assert stats.luck == pytest.approx(sum(roll.luck for roll in rolls))
        assert stats.luck_mwc == pytest.approx(sum(roll.luck_mwc for roll in rolls))
    assert recorded.winner == 0 and analysis.result_mwc == (0.5, -0.5)
    luck = analysis.players[0].luck_mwc - analysis.players[1].luck_mwc
    assert analysis.luck_adjusted_mwc == pytest.approx((0.5 - luck, -0.5 + luck))


def test_rates_follow_their_definitions(analysis):
    for stats in analysis.players:
        assert stats.checker_rate == pytest.approx(1000 * stats.checker_error / stats.unforced_moves)
        decisions = stats.unforced_moves + stats.close_cube_decisions
        assert stats.performance_rating == pytest.approx(500 * (stats.checker_error + stats.cube_error) / decisions)
    total = sum(play.error for play in analysis.checker_plays)
    assert sum(stats.checker_error for stats in analysis.players) == pytest.approx(total)
    per_game = sum(game.players[0].checker_error for game in analysis.games)
    assert analysis.players[0].checker_error == pytest.approx(per_game)


def test_every_cube_turn_is_analysed_including_missed_doubles(analysis, recorded):
    doubles = sum(1 for game in recorded.games for action in game.actions if isinstance(action, Double))
    choices = analysis.cube_choices
    assert sum(1 for choice in choices if choice.chosen == "double") == doubles
    assert any(choice.chosen == "no double" for choice in choices)
    for choice in choices:
        if choice.chosen == "no double" and choice.decision.action.doubles:
            assert choice.mistake is CubeError.MISSED_DOUBLE and choice.error > 0 and choice.close


def test_marked_lists_bad_and_worse_in_match_order(analysis):
    marked = analysis.marked()
    assert marked and all(item.mark in (Mark.BAD, Mark.VERY_BAD) for item in marked)
    order = [(item.where.game, item.where.turn) for item in marked]
    assert order == sorted(order)


def test_answers_are_the_same_for_any_number_of_workers(recorded):
    serial = analyze_match(recorded, plies=0)
    with cf.ThreadPoolExecutor(max_workers=1) as one:
        threaded_one = analyze_match(recorded, plies=0, executor=one)
    with cf.ThreadPoolExecutor(max_workers=3) as three:
        threaded_three = analyze_match(recorded, plies=0, executor=three)
    assert serial == threaded_one == threaded_three


def test_answers_are_the_same_in_worker_processes():
    match = two_plays(-1)
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        assert analyze_match(match, plies=1, executor=pool) == analyze_match(match, plies=1)


def test_progress_counts_every_turn():
    seen = []
    analyze_match(two_plays(0), plies=0, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(0, 2), (1, 2), (2, 2)]


def test_a_double_passed_ends_the_turn_without_a_play():
    match = two_plays(0)
    match.push(Double())
    match.push(Pass())
    analysis = analyze_match(match, plies=0)
    no_double, doubler, taker = analysis.cube_choices  # player 1's turn had the cube too
    assert (no_double.where.player, no_double.chosen) == (1, "no double")
    assert (doubler.where.player, doubler.chosen, taker.where.player, taker.chosen) == (0, "double", 1, "pass")
    assert analysis.games[0].winner == 0 and len(analysis.checker_plays) == 2


@pytest.mark.parametrize("plies", [-1, 4, 1.0, True])
def test_bad_depth_is_refused(plies):
    with pytest.raises(InvalidSettingsError):
        analyze_match(Match(3), plies=plies)


def test_thresholds_are_checked_and_used():
    with pytest.raises(InvalidSettingsError):
        AnalysisThresholds(doubtful=0.1, bad=0.05)
    with pytest.raises(InvalidSettingsError):
        AnalysisThresholds(lucky=0.0)
    strict = AnalysisThresholds(doubtful=0.001, bad=0.002, very_bad=0.003)
    play = analyze_match(two_plays(1), plies=0, thresholds=strict).checker_plays[1]
    assert play.error > 0.003 and play.mark is Mark.VERY_BAD


def test_a_match_is_required():
    with pytest.raises(TypeError):
        analyze_match("match.mat")  # type: ignore[arg-type]


def test_match_equity_is_the_cubeless_mwc_at_the_score_as_emg():
    state = MatchState(match_length=7, score=(4, 1), cube_value=2, cube_owner=1, on_roll=1)
    measure = EquityWeights.at_score(state)
    for probabilities in ((0.6, 0.2, 0.02, 0.1, 0.01), (0.3, 0.05, 0.0, 0.25, 0.03), (1.0, 1.0, 1.0, 0.0, 0.0)):
        table, score = bg.default_met(), MatchScore.from_match_state(state)
        expected = mwc_to_emg(cubeless_mwc(probabilities, state), table, score)
        assert measure.equity(probabilities) == pytest.approx(expected)
    assert EquityWeights.money().equity((0.6, 0.2, 0.02, 0.1, 0.01)) == pytest.approx(0.2 + 0.2 + 0.02 - 0.1 - 0.01)


def test_gammons_are_worth_nothing_at_double_match_point():
    assert EquityWeights.at_score(MatchState(match_length=5, score=(4, 4))).weights == (2.0, 0.0, 0.0, 0.0, 0.0)


def test_the_match_measure_is_named_in_the_note_and_other_measures_are_refused():
    analysis = analyze_match(two_plays(0), plies=0, equity="match")
    assert "match winning chance" in analysis.equity_note and analysis.equity == "match"
    assert all(play.error >= 0 for play in analysis.checker_plays)
    with pytest.raises(InvalidSettingsError):
        analyze_match(two_plays(0), plies=0, equity="cubeless")


@pytest.mark.slow
def test_a_dask_cluster_executor_gives_the_same_answers():
    distributed = pytest.importorskip("distributed")
    match = two_plays(-1)
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            assert analyze_match(match, plies=0, executor=client.get_executor()) == analyze_match(match, plies=0)


def test_a_bad_executor_or_progress_is_a_typed_error():
    with pytest.raises(InvalidSettingsError, match="executor"):
        analyze_match(two_plays(0), plies=0, executor=2)  # type: ignore[arg-type]
    with pytest.raises(InvalidSettingsError, match="progress"):
        analyze_match(two_plays(0), plies=0, progress="bar")  # type: ignore[arg-type]


def test_a_clear_no_double_keeps_its_0_ply_decision_and_a_double_is_searched_deep():
    start = Position.initial()
    rolled = TurnTask(0, 1, 0, start, MatchState(match_length=7), False, CubeAction.NO_DOUBLE, None, None)
    doubled = TurnTask(0, 1, 0, start, MatchState(match_length=7), False, CubeAction.DOUBLE_TAKE, None, None)
    kept, searched = analyse_turn(rolled, plies=1).cube, analyse_turn(doubled, plies=1).cube
    assert kept is not None and searched is not None
    assert (kept.plies, searched.plies) == (0, 1)
    assert kept.probabilities == bg.evaluate(start, plies=0).probabilities
    assert searched.probabilities == bg.evaluate(start, plies=1).probabilities


@pytest.mark.parametrize("state", [
    MatchState(match_length=7, score=(2, 4)),
    MatchState(match_length=7, score=(2, 4), cube_value=2, cube_owner=0),
    MatchState(match_length=7, score=(2, 4), cube_value=2, cube_owner=1),
    MatchState(match_length=5, score=(1, 4), crawford=False),
    MatchState(),
])
def test_the_cubeful_value_after_a_play_is_the_opponents_best_action_by_cube_decision(state):
    # ``state`` is the opponent's, on roll in ``position`` after the mover's play
    position = Position.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    mover = state.with_changes(on_roll=1 - state.on_roll)
    measure = PlayValue.of("cubeful", mover)
    for chances in ((0.72, 0.25, 0.01, 0.05, 0.002), (0.55, 0.15, 0.01, 0.1, 0.005), (0.3, 0.05, 0.0, 0.2, 0.02)):
        probabilities = bg.GameProbabilities.from_vector(chances)
        decision = bg.cube_decision(position, state, probabilities=probabilities)
        best = decision.no_double
        if decision.double_take is not None and decision.double_pass is not None:
            best = max(best, min(decision.double_take, decision.double_pass))
        expected = -best if state.is_money else mwc_to_emg(1.0 - best, bg.default_met(), MatchScore.from_match_state(mover))
        assert measure.after(position, probabilities.flipped()) == pytest.approx(expected, abs=1e-9)

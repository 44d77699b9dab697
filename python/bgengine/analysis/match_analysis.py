"""``analyze_match``: every checker play, cube decision and roll of a recorded match, rated.

Checker plays and luck are measured by default cubefully at the match score: each play's
n-ply cubeless probabilities put through the cube model with the opponent on roll (its
best cube action counted), as match winning chance rescaled to EMG, GNU Backgammon's
"equivalent to money game" per unit of the current cube. ``equity="match"`` drops the
cube (cubeless match winning chance at the score), ``equity="money"`` also the score
(cubeless money equity). Each EMG amount also gets its match winning chance (MWC) at the
score, by the linear map that makes a single game won at the current cube +1 EMG and one
lost -1 EMG. Cube decisions use the match's cube logic (``cube_decision`` at the score, in
MWC, then EMG). docs/analysis.md defines every figure.
"""

from __future__ import annotations

import concurrent.futures as cf
import enum
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bgengine.analysis.turns import (
    EQUITY_MEASURES,
    Candidate,
    CheckerResult,
    CubeAction,
    TurnResult,
    TurnTask,
    analyse_turn,
)
from bgengine.cube.decision import CubeDecision
from bgengine.cube.match_equity import MatchScore, emg_reference
from bgengine.cube.met import MatchEquityTable, default_met
from bgengine.errors import InvalidSettingsError
from bgengine.evaluation.evaluator import Evaluator, MAX_PLIES
from bgengine.game.actions import Decision, Double, Pass, Play, Take
from bgengine.game.match import Match
from bgengine.game.record import Game
from bgengine.match_state import MatchState
from bgengine.move import Move
from bgengine.position import Position

#: What the numbers are, by equity measure: said in every report.
EQUITY_NOTES = {
    "money": "checker plays and luck in cubeless money equity per current cube (EMG), converted to MWC at the score;"
             " cube decisions by the match cube model from cubeless probabilities",
    "match": "checker plays and luck in cubeless match winning chance at the score, as EMG (equity per current cube);"
             " cube decisions by the match cube model from cubeless probabilities",
    "cubeful": "checker plays and luck cubeful at the score (the opponent's cube decision after each play by the cube"
               " model, from cubeless probabilities), as EMG (equity per current cube); cube decisions by the same model",
}


@dataclass(frozen=True)
class AnalysisThresholds:
    """Where marks start, in EMG (equity per current cube); the defaults are GNU Backgammon 1.07's.

    A checker play or cube decision losing at least ``doubtful`` is doubtful, ``bad`` bad,
    ``very_bad`` very bad. A roll whose luck is at least ``lucky`` (``very_lucky``) is
    lucky (very lucky), at most minus those unlucky (very unlucky). A cube decision is
    close when doubling and not doubling are within ``close_cube`` of each other.
    """

    doubtful: float = 0.03
    bad: float = 0.06
    very_bad: float = 0.12
    lucky: float = 0.3
    very_lucky: float = 0.6
    close_cube: float = 0.16

    def __post_init__(self) -> None:
        if not 0.0 < self.doubtful <= self.bad <= self.very_bad:
            raise InvalidSettingsError(
                f"thresholds must satisfy 0 < doubtful <= bad <= very_bad, got {self.doubtful}, {self.bad}, {self.very_bad}"
            )
        if not 0.0 < self.lucky <= self.very_lucky:
            raise InvalidSettingsError(f"thresholds must satisfy 0 < lucky <= very_lucky, got {self.lucky}, {self.very_lucky}")
        if not self.close_cube >= 0.0:
            raise InvalidSettingsError(f"close_cube must be >= 0, got {self.close_cube}")

    def mark(self, error: float) -> Mark:
        if error >= self.very_bad:
            return Mark.VERY_BAD
        if error >= self.bad:
            return Mark.BAD
        if error >= self.doubtful:
            return Mark.DOUBTFUL
        return Mark.NONE

    def luck_mark(self, luck: float) -> LuckMark:
        if luck >= self.very_lucky:
            return LuckMark.VERY_LUCKY
        if luck >= self.lucky:
            return LuckMark.LUCKY
        if luck <= -self.very_lucky:
            return LuckMark.VERY_UNLUCKY
        if luck <= -self.lucky:
            return LuckMark.UNLUCKY
        return LuckMark.NONE


class Mark(enum.Enum):
    """How bad a decision was (by ``AnalysisThresholds``)."""

    NONE = ""
    DOUBTFUL = "doubtful"
    BAD = "bad"
    VERY_BAD = "very bad"

    @property
    def severity(self) -> int:
        return list(Mark).index(self)


class LuckMark(enum.Enum):
    NONE = ""
    VERY_LUCKY = "very lucky"
    LUCKY = "lucky"
    UNLUCKY = "unlucky"
    VERY_UNLUCKY = "very unlucky"


class CubeError(enum.Enum):
    """What went wrong at a cube decision."""

    MISSED_DOUBLE = "missed double"
    WRONG_DOUBLE = "wrong double"
    WRONG_TAKE = "wrong take"
    WRONG_PASS = "wrong pass"


@dataclass(frozen=True)
class Where:
    """The place of a decision in the match: game and turn (0-based), player, the board before it."""

    game: int
    turn: int
    player: int
    position: Position  # before the roll (or before the play, for checker plays), player on roll's view
    match: MatchState  # with the dice for checker plays


@dataclass(frozen=True)
class CheckerPlay:
    """A checker play: the played move against the best at the analysis depth (mover's view)."""

    where: Where
    dice: tuple[int, int]
    played: Move
    best: Move
    played_equity: float  # EMG by the analysis's equity measure (mover's view)
    best_equity: float
    error: float  # EMG, >= 0
    error_mwc: float
    forced: bool
    mark: Mark
    candidates: tuple[Candidate, ...]  # best first, the played one among them

    @property
    def kind(self) -> str:
        return "checker"


@dataclass(frozen=True)
class CubeChoice:
    """One player's cube choice: whether to double (``doubler``) or how to answer (taker)."""

    where: Where  # ``player`` is the one choosing; ``position`` seen from the doubler
    decision: CubeDecision  # the doubler's view, in MWC (``decision.to_emg()`` for EMG)
    role: str  # "doubler" or "taker"
    chosen: str  # "no double", "double", "take" or "pass"
    error: float  # EMG, >= 0
    error_mwc: float
    close: bool  # a close decision or an actual double (counted in the rates)
    mistake: CubeError | None
    mark: Mark

    @property
    def kind(self) -> str:
        return "cube"


@dataclass(frozen=True)
class RollLuck:
    """The luck of one roll: its equity after the best play against the average roll (EMG)."""

    where: Where
    dice: tuple[int, int]
    luck: float
    luck_mwc: float
    mark: LuckMark


@dataclass
class PlayerStatistics:
    """One player's totals over a game or the match. Errors and luck in EMG, ``*_mwc`` in MWC."""

    moves: int = 0
    unforced_moves: int = 0
    checker_error: float = 0.0
    checker_error_mwc: float = 0.0
    checker_marks: dict[str, int] = field(default_factory=lambda: {m.value: 0 for m in Mark if m is not Mark.NONE})
    cube_decisions: int = 0
    close_cube_decisions: int = 0
    doubles: int = 0
    takes: int = 0
    passes: int = 0
    cube_mistakes: dict[str, int] = field(default_factory=lambda: {e.value: 0 for e in CubeError})
    cube_error: float = 0.0
    cube_error_mwc: float = 0.0
    rolls: int = 0
    luck: float = 0.0
    luck_mwc: float = 0.0
    luck_marks: dict[str, int] = field(default_factory=lambda: {m.value: 0 for m in LuckMark if m is not LuckMark.NONE})

    @property
    def error(self) -> float:
        return self.checker_error + self.cube_error

    @property
    def error_mwc(self) -> float:
        return self.checker_error_mwc + self.cube_error_mwc

    @property
    def decisions(self) -> int:
        """Non-obvious decisions: unforced checker plays plus close (or actual) cube decisions."""
        return self.unforced_moves + self.close_cube_decisions

    @property
    def checker_rate(self) -> float:
        """mEMG per unforced move (GNU Backgammon's checker-play error rate)."""
        return _per(1000.0 * self.checker_error, self.unforced_moves)

    @property
    def checker_rate_mwc(self) -> float:
        """MWC (as a fraction) lost per unforced move."""
        return _per(self.checker_error_mwc, self.unforced_moves)

    @property
    def cube_rate(self) -> float:
        """mEMG per close or actual cube decision."""
        return _per(1000.0 * self.cube_error, self.close_cube_decisions)

    @property
    def overall_rate(self) -> float:
        """mEMG per non-obvious decision (checker and cube)."""
        return _per(1000.0 * self.error, self.decisions)

    @property
    def overall_rate_mwc(self) -> float:
        return _per(self.error_mwc, self.decisions)

    @property
    def performance_rating(self) -> float:
        """PR: 500 x the mean EMG error per non-obvious decision (lower is better; 0 is perfect)."""
        return _per(500.0 * self.error, self.decisions)

    @property
    def luck_rate(self) -> float:
        """mEMG of luck per roll."""
        return _per(1000.0 * self.luck, self.rolls)

    def add(self, other: PlayerStatistics) -> None:
        """Add ``other``'s counts and totals to these."""
        for name in ("moves", "unforced_moves", "checker_error", "checker_error_mwc", "cube_decisions",
                     "close_cube_decisions", "doubles", "takes", "passes", "cube_error", "cube_error_mwc",
                     "rolls", "luck", "luck_mwc"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for mine, theirs in ((self.checker_marks, other.checker_marks), (self.cube_mistakes, other.cube_mistakes),
                             (self.luck_marks, other.luck_marks)):
            for key, count in theirs.items():
                mine[key] += count


def _per(total: float, count: int) -> float:
    return total / count if count else 0.0


@dataclass(frozen=True)
class GameAnalysis:
    """One game: its decisions in order, each player's totals, the result and the luck-adjusted result.

    ``result_mwc[p]`` is player p's gain in match winning chance from this game (MWC at
    the score after it minus before it); ``luck_adjusted_mwc[p]`` that gain less p's luck
    plus the opponent's luck.
    """

    number: int  # 1-based
    score: tuple[int, int]  # before the game
    winner: int | None
    points: int
    checker_plays: tuple[CheckerPlay, ...]
    cube_choices: tuple[CubeChoice, ...]
    rolls: tuple[RollLuck, ...]
    players: tuple[PlayerStatistics, PlayerStatistics]
    result_mwc: tuple[float, float]

    @property
    def luck_adjusted_mwc(self) -> tuple[float, float]:
        return _luck_adjusted(self.result_mwc, self.players)

    def decisions(self) -> list[CheckerPlay | CubeChoice]:
        """Checker plays and cube choices in the order they were made."""
        return sorted([*self.checker_plays, *self.cube_choices], key=_order)


def _order(item: CheckerPlay | CubeChoice) -> tuple[int, int, int]:
    return (item.where.game, item.where.turn, 1 if isinstance(item, CheckerPlay) else 0)


def _luck_adjusted(result: tuple[float, float], players: Sequence[PlayerStatistics]) -> tuple[float, float]:
    luck = players[0].luck_mwc - players[1].luck_mwc
    return result[0] - luck, result[1] + luck


@dataclass(frozen=True)
class MatchAnalysis:
    """The analysis of a match: its games, each player's totals, results and luck-adjusted results."""

    names: tuple[str, str]
    length: int
    score: tuple[int, int]
    winner: int | None
    plies: int
    thresholds: AnalysisThresholds
    games: tuple[GameAnalysis, ...]
    players: tuple[PlayerStatistics, PlayerStatistics]
    result_mwc: tuple[float, float]  # final MWC minus MWC at 0-0 (+0.5 / -0.5 for a finished match)
    equity: str = "cubeful"  # the measure of checker plays and luck: one of EQUITY_MEASURES

    @property
    def equity_note(self) -> str:
        """What the equities are, in words."""
        return EQUITY_NOTES[self.equity]

    @property
    def luck_adjusted_mwc(self) -> tuple[float, float]:
        return _luck_adjusted(self.result_mwc, self.players)

    @property
    def checker_plays(self) -> list[CheckerPlay]:
        return [play for game in self.games for play in game.checker_plays]

    @property
    def cube_choices(self) -> list[CubeChoice]:
        return [choice for game in self.games for choice in game.cube_choices]

    @property
    def rolls(self) -> list[RollLuck]:
        return [roll for game in self.games for roll in game.rolls]

    def marked(self, at_least: Mark = Mark.BAD) -> list[CheckerPlay | CubeChoice]:
        """The decisions marked ``at_least`` as bad, in match order."""
        return [item for game in self.games for item in game.decisions() if item.mark.severity >= at_least.severity]

    def __str__(self) -> str:
        lines = [f"{self.names[0]} vs {self.names[1]}, {self.length}-point match, {self.plies}-ply ({self.equity_note})"]
        for player, stats in enumerate(self.players):
            lines.append(
                f"  {self.names[player]}: checker {stats.checker_rate:.1f} mEMG/unforced move, PR {stats.performance_rating:.1f},"
                f" luck {stats.luck:+.3f} EMG"
            )
        return "\n".join(lines)


Progress = Callable[[int, int], None]


def analyze_match(
    match: Match,
    plies: int = 2,
    *,
    executor: cf.Executor | None = None,
    progress: Progress | None = None,
    thresholds: AnalysisThresholds = AnalysisThresholds(),
    evaluator: Evaluator | None = None,
    met: MatchEquityTable | None = None,
    equity: str = "cubeful",
) -> MatchAnalysis:
    """Analyse every checker play, cube decision and roll of ``match`` at ``plies`` (0..3).

    Turns are analysed independently: with ``executor`` (any ``concurrent.futures``
    executor: threads work, the kernels release the GIL) in parallel, else one after the
    other in this thread; the answers are the same either way. ``progress(done, total)``
    is called in this thread as turns finish. ``evaluator`` replaces the engine's network
    (it must be picklable for a process pool); ``met`` the default match equity table.
    ``equity`` measures checker plays and luck: "cubeful" (the default: cubeful at the
    score, the opponent's cube decision after each play valued by the cube model, as GNU
    Backgammon and eXtreme Gammon rate), "match" (cubeless match winning chance at the
    score) or "money" (cubeless money equity); all as EMG.
    """
    if not isinstance(match, Match):
        raise TypeError(f"expected a Match, got {type(match).__name__}")
    if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= MAX_PLIES:
        raise InvalidSettingsError(f"plies must be a whole number 0..{MAX_PLIES}, got {plies!r}")
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise InvalidSettingsError(f"executor must be a concurrent.futures.Executor or None, got {type(executor).__name__}")
    if progress is not None and not callable(progress):
        raise InvalidSettingsError(f"progress must be callable or None, got {type(progress).__name__}")
    if not isinstance(thresholds, AnalysisThresholds):
        raise InvalidSettingsError(f"thresholds must be AnalysisThresholds, got {type(thresholds).__name__}")
    if equity not in EQUITY_MEASURES:
        raise InvalidSettingsError(f"equity must be one of {', '.join(EQUITY_MEASURES)}, got {equity!r}")
    tasks = [replace(task, equity=equity, met=met)
             for index, game in enumerate(match.games) for task in turn_tasks(game, index)]
    results = _run(tasks, plies, executor, progress, evaluator)
    table = met or default_met()
    games = []
    by_game: dict[int, list[TurnResult]] = {}
    for result in results:
        by_game.setdefault(result.task.game, []).append(result)
    for index, game in enumerate(match.games):
        if len(game) == 0:
            continue  # the next game, not started
        games.append(_game_analysis(index, game, by_game.get(index, []), thresholds, table, match.length))
    players = (PlayerStatistics(), PlayerStatistics())
    for game_analysis in games:
        for total, part in zip(players, game_analysis.players, strict=True):
            total.add(part)
    start = table.mwc(match.length, match.length)
    final = _mwc_of_score(match.score, match.length, table, post_crawford=_post_crawford(match))
    return MatchAnalysis(
        names=(str(match.names[0]), str(match.names[1])),
        length=match.length,
        score=match.score,
        winner=match.winner,
        plies=plies,
        thresholds=thresholds,
        games=tuple(games),
        players=players,
        result_mwc=(final - start, start - final),
        equity=equity,
    )


def _run(
    tasks: list[TurnTask], plies: int, executor: cf.Executor | None, progress: Progress | None,
    evaluator: Evaluator | None,
) -> list[TurnResult]:
    total = len(tasks)
    if progress is not None:
        progress(0, total)
    if executor is None:
        results = []
        for done, task in enumerate(tasks, start=1):
            results.append(analyse_turn(task, plies, evaluator))
            if progress is not None:
                progress(done, total)
        return results
    futures = {executor.submit(analyse_turn, task, plies, evaluator): index for index, task in enumerate(tasks)}
    ordered: list[TurnResult | None] = [None] * total
    try:
        for done, future in enumerate(cf.as_completed(futures), start=1):
            ordered[futures[future]] = future.result()
            if progress is not None:
                progress(done, total)
    finally:
        for future in futures:
            future.cancel()
    return [result for result in ordered if result is not None]


# ----- from the record to turns -----------------------------------------------------------


def turn_tasks(game: Game, game_index: int = 0) -> Iterator[TurnTask]:
    """The turns of a recorded game, replayed through the rules, each with its position before the roll.

    A turn starts at a roll decision (with or without access to the cube) and ends with
    the checker play, or with the game (a pass). Resignations are not analysed: a turn
    that ends in one without a cube action or play is left out.
    """
    replay = Game(game.starting_state)
    turn: dict[str, Any] | None = None
    number = 0
    for action in game.actions:
        decision, state = replay.decision, replay.state
        if turn is None and decision in (Decision.OPENING_ROLL, Decision.CUBE_OR_ROLL, Decision.ROLL):
            access = decision is Decision.CUBE_OR_ROLL
            turn = dict(position=replay.position, match=state, opening=decision is Decision.OPENING_ROLL,
                        cube_action=CubeAction.NO_DOUBLE if access else None, dice=None, played=None,
                        player=state.on_roll, checker_match=None)
        if turn is not None:
            if isinstance(action, Double):
                turn["cube_action"] = CubeAction.DOUBLE_ONLY
            elif isinstance(action, Take):
                turn["cube_action"] = CubeAction.DOUBLE_TAKE
            elif isinstance(action, Pass):
                turn["cube_action"] = CubeAction.DOUBLE_PASS
            elif isinstance(action, Play):
                turn.update(dice=state.dice, played=action.move, player=state.on_roll, checker_match=state)
                if turn["opening"]:  # who opens is known only now
                    turn["match"] = state.with_changes(dice=None)
        replay.push(action)
        if turn is not None and (isinstance(action, Play) or replay.is_over):
            acted = turn["played"] is not None or turn["cube_action"] not in (None, CubeAction.NO_DOUBLE)
            if acted:
                yield TurnTask(game=game_index, turn=number, **turn)
                number += 1
            turn = None
    if turn is not None and turn["cube_action"] is CubeAction.DOUBLE_ONLY:
        yield TurnTask(game=game_index, turn=number, **turn)


# ----- from turn results to the analysis ----------------------------------------------------


def _mwc_scale(match: MatchState, table: MatchEquityTable) -> float:
    """MWC per EMG at this score and cube: half the gap between winning and losing a single game."""
    win, lose = emg_reference(table, MatchScore.from_match_state(match))
    return (win - lose) / 2.0


def _game_analysis(
    index: int, game: Game, results: list[TurnResult], thresholds: AnalysisThresholds,
    table: MatchEquityTable, length: int,
) -> GameAnalysis:
    plays: list[CheckerPlay] = []
    choices: list[CubeChoice] = []
    rolls: list[RollLuck] = []
    players = (PlayerStatistics(), PlayerStatistics())
    for result in results:
        task = result.task
        if result.cube is not None:
            for choice in _cube_choices(task, result.cube, thresholds):
                choices.append(choice)
                _count_cube(players[choice.where.player], choice)
        if result.checker is not None and result.luck is not None and task.checker_match is not None:
            assert task.dice is not None
            scale = _mwc_scale(task.checker_match, table)  # the cube may have turned this turn
            where = Where(task.game, task.turn, task.player, task.position, task.checker_match)
            play = _checker_play(where, task.dice, result.checker, scale, thresholds)
            plays.append(play)
            stats = players[task.player]
            stats.moves += 1
            stats.unforced_moves += 0 if play.forced else 1
            stats.checker_error += play.error
            stats.checker_error_mwc += play.error_mwc
            if play.mark is not Mark.NONE:
                stats.checker_marks[play.mark.value] += 1
            luck = result.luck.luck
            mark = thresholds.luck_mark(luck)
            rolls.append(RollLuck(where, task.dice, luck, luck * scale, mark))
            stats.rolls += 1
            stats.luck += luck
            stats.luck_mwc += luck * scale
            if mark is not LuckMark.NONE:
                stats.luck_marks[mark.value] += 1
    start = game.starting_state
    outcome = game.outcome
    before = _mwc_of_score(start.score, length, table, post_crawford=start.is_post_crawford)
    after = before
    if outcome is not None:
        score = list(start.score)
        score[outcome.winner] += outcome.points
        # The next game is post-Crawford once the Crawford game (this one or an earlier one) is played.
        after = _mwc_of_score((score[0], score[1]), length, table,
                              post_crawford=start.crawford or start.is_post_crawford)
    return GameAnalysis(
        number=index + 1,
        score=start.score,
        winner=None if outcome is None else outcome.winner,
        points=0 if outcome is None else outcome.points,
        checker_plays=tuple(plays),
        cube_choices=tuple(choices),
        rolls=tuple(rolls),
        players=players,
        result_mwc=(after - before, before - after),
    )


def _mwc_of_score(score: tuple[int, int], length: int, table: MatchEquityTable, *, post_crawford: bool) -> float:
    """Player 0's match winning chance at the start of a game at ``score`` (1 or 0 once won)."""
    if score[0] >= length:
        return 1.0
    if score[1] >= length:
        return 0.0
    return table.mwc(length - score[0], length - score[1], post_crawford=post_crawford)


def _post_crawford(match: Match) -> bool:
    return match.game.starting_state.is_post_crawford


def _checker_play(
    where: Where, dice: tuple[int, int], checker: CheckerResult, scale: float, thresholds: AnalysisThresholds
) -> CheckerPlay:
    error = checker.error
    return CheckerPlay(
        where=where, dice=dice, played=checker.played, best=checker.best,
        played_equity=checker.played_equity, best_equity=checker.best_equity,
        error=error, error_mwc=error * scale, forced=checker.forced,
        mark=thresholds.mark(error), candidates=checker.candidates,
    )


def _cube_choices(task: TurnTask, decision: CubeDecision, thresholds: AnalysisThresholds) -> list[CubeChoice]:
    """The doubler's choice and, after a double, the taker's answer, each with its error."""
    emg = decision.to_emg()
    errors, errors_mwc = emg.errors, decision.errors
    assert errors is not None and errors_mwc is not None
    assert emg.double_take is not None and emg.double_pass is not None
    doubling_gap = abs(emg.no_double - min(emg.double_take, emg.double_pass))
    action = task.cube_action
    doubled = action is not CubeAction.NO_DOUBLE
    where = Where(task.game, task.turn, task.player, task.position, task.match)
    if doubled:
        error, error_mwc = errors.doubler_double, errors_mwc.doubler_double
        mistake = CubeError.WRONG_DOUBLE if error > 0 else None
    else:
        error, error_mwc = errors.doubler_no_double, errors_mwc.doubler_no_double
        mistake = CubeError.MISSED_DOUBLE if error > 0 else None
    close = doubled or mistake is not None or doubling_gap < thresholds.close_cube
    choices = [CubeChoice(where, decision, "doubler", "double" if doubled else "no double", error, error_mwc,
                          close, mistake, thresholds.mark(error) if close else Mark.NONE)]
    if action in (CubeAction.DOUBLE_TAKE, CubeAction.DOUBLE_PASS):
        taker = Where(task.game, task.turn, 1 - task.player, task.position, task.match)
        if action is CubeAction.DOUBLE_TAKE:
            chosen, error, error_mwc, wrong = "take", errors.taker_take, errors_mwc.taker_take, CubeError.WRONG_TAKE
        else:
            chosen, error, error_mwc, wrong = "pass", errors.taker_pass, errors_mwc.taker_pass, CubeError.WRONG_PASS
        choices.append(CubeChoice(taker, decision, "taker", chosen, error, error_mwc, True,
                                  wrong if error > 0 else None, thresholds.mark(error)))
    return choices


def _count_cube(stats: PlayerStatistics, choice: CubeChoice) -> None:
    stats.cube_decisions += 1
    if choice.close:
        stats.close_cube_decisions += 1
        stats.cube_error += choice.error
        stats.cube_error_mwc += choice.error_mwc
    if choice.chosen == "double":
        stats.doubles += 1
    elif choice.chosen == "take":
        stats.takes += 1
    elif choice.chosen == "pass":
        stats.passes += 1
    if choice.mistake is not None:
        stats.cube_mistakes[choice.mistake.value] += 1

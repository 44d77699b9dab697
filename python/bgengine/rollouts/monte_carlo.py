"""Monte Carlo rollouts: play many games from a position with an n-ply policy and average.

``rollout(position)`` estimates the cubeless 5-vector and equity of the player on roll
before the roll (and, given a cube referee, the cubeful equity: see ``rollouts.referee``);
``rollout_moves(position, dice)`` compares candidate plays of a roll. Trials run in the nogil kernel ``bgcore._rollout`` in
blocks (see ``_rollout_runner``): the answer depends on the settings and seed only, never
on the executor or the number of workers.
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from bgcore import _engine, _evaluator, _nn

from bgengine.dice import checked_roll
from bgengine.evaluation.evaluator import MoveFilter
from bgengine.rollouts.blocks import Accumulator, BlockPlan, BlockTask, Lookahead, run_blocks
from bgengine.rollouts.referee import RefereeFactory
from bgengine.errors import IllegalMoveError, InvalidMatchStateError, InvalidPositionError, InvalidSettingsError
from bgengine.match_state import MatchState
from bgengine.move import Move
from bgengine.position import Phase, Position, checked_position
from bgengine.probabilities import FIELD_NAMES, EquityUnit, GameProbabilities, flipped

#: Normal quantile of a two-sided 95% confidence interval.
Z95 = 1.959963984540054
ProgressCallback = Callable[[int, int, "RolloutResult"], None]
#: The deepest search a rollout's play may use (the kernel's n-ply search goes to 4).
MAX_ROLLOUT_PLIES = 3


@dataclass(frozen=True)
class RolloutSettings:
    """How to roll out; every field is checked when the settings are made.

    trials: games to play (the most, when ``target_standard_error`` may stop earlier).
    seed: the seed of all dice; None draws one, recorded in the result's settings.
    quasi_random: stratify dice: the first roll over the 36 rolls in every 36 trials, the
        first two rolls over the 1296 pairs in every 1296 (30 and 1080 at the opening).
    variance_reduction: subtract each turn's luck (value of the roll thrown minus the
        average over all 21 rolls, each after its 0-ply move, whatever the play's depth);
        unbiased, usually far smaller errors.
    checker_plies: depth of checker play inside the games, 0..3: 0 plays the child of
        best static value; n > 0 searches the candidates ``move_filter`` keeps n rolls ahead.
    cube_plies: depth of the probabilities the cube decisions inside cubeful games are made
        from, 0..3; None: ``checker_plies``.
    later_plies, later_from: from ply ``later_from`` of each game on (plies counted from
        the rollout's start, the first move being ply 0), checker play and cube decisions
        use ``later_plies`` instead; both None (the default) or both set.
    move_filter: the n-ply search's move filter (candidates per roll searched deeper).
    truncate_plies: stop each game after this many plies (half-moves) and score the
        position with the evaluator at the checker-play depth of that ply; None plays every
        game to the end.
    bearoff_tables: finish games exactly in the two-sided bear-off table when they reach it.
    target_standard_error: stop once the equity's standard error (cubeful when cubeful)
        is at most this, after ``min_trials``; None always plays ``trials``.
    min_trials: trials before the stop rule or ``drop_clearly_worse`` may act.
    drop_clearly_worse: in ``rollout_moves``, stop candidates whose equity is below the
        best by more than ``drop_z`` standard errors of the difference (trial by trial) after ``min_trials``.
    drop_z: see ``drop_clearly_worse``.
    decision_z: cube decisions by rollout (``cube_decision(..., rollout=...)``): stop once both
        choices are clear, the doubler's (No double against the taker's best answer) and the
        taker's (take against pass), each by this many standard errors of its difference
        (the two lines paired trial by trial), checked every ``min_trials`` after the first
        ``min_trials``; None plays every trial (or stops by ``target_standard_error``).
    block_size: trials per block of work (the unit shipped to a worker and of the stop rule).
    max_retries: times a failed block (a lost worker) is resubmitted before giving up.
    max_pending_blocks: blocks submitted but not yet reduced, at most; None is four per
        local core (raise it to keep a large cluster busy). Never changes the result.
    """

    trials: int = 1296
    seed: int | None = None
    quasi_random: bool = True
    variance_reduction: bool = True
    truncate_plies: int | None = None
    bearoff_tables: bool = True
    target_standard_error: float | None = None
    min_trials: int = 144
    drop_clearly_worse: bool = False
    drop_z: float = 3.0
    decision_z: float | None = None
    block_size: int = 72
    max_retries: int = 3
    max_pending_blocks: int | None = None
    checker_plies: int = 0
    cube_plies: int | None = None
    later_plies: int | None = None
    later_from: int | None = None
    move_filter: MoveFilter = MoveFilter()

    @classmethod
    def preset(cls, name: str, **changes: Any) -> RolloutSettings:
        """Named settings users know: ``"fast"`` (0-ply play), ``"standard"`` (1-ply play
        and cube) or ``"strong"`` (2-ply); ``changes`` override fields (e.g. ``seed=1``).
        Their measured speed and accuracy are in docs/rollout.md."""
        if name not in PRESETS:
            raise InvalidSettingsError(f"preset must be one of {', '.join(map(repr, PRESETS))}, got {name!r}")
        return replace(PRESETS[name], **changes)

    @property
    def lookahead(self) -> Lookahead:
        """The kernel's depths for these settings."""
        cube = self.checker_plies if self.cube_plies is None else self.cube_plies
        later = self.later_plies
        return Lookahead(
            checker_plies=self.checker_plies,
            cube_plies=cube,
            later_plies=0 if later is None else later,
            later_from=0 if self.later_from is None else self.later_from,
            keep=self.move_filter.keep,
            margin=float(self.move_filter.margin),
        )

    def __post_init__(self) -> None:
        problem = self._problem()
        if problem:
            raise InvalidSettingsError(problem)

    def _problem(self) -> str | None:  # noqa: C901 - one check a line reads best
        if not _is_int(self.trials) or self.trials < 1:
            return f"trials must be a whole number >= 1, got {self.trials!r}"
        if self.seed is not None and (not _is_int(self.seed) or self.seed < 0):
            return f"seed must be a whole number >= 0 or None, got {self.seed!r}"
        for name in ("quasi_random", "variance_reduction", "bearoff_tables", "drop_clearly_worse"):
            if not isinstance(getattr(self, name), bool):
                return f"{name} must be True or False, got {getattr(self, name)!r}"
        if self.truncate_plies is not None and (not _is_int(self.truncate_plies) or self.truncate_plies < 1):
            return (
                f"truncate_plies must be a whole number >= 1 (or None to play to the end),"
                f" got {self.truncate_plies!r}"
            )
        if self.target_standard_error is not None and not (
            _is_real(self.target_standard_error) and self.target_standard_error > 0
        ):
            return f"target_standard_error must be a number > 0 or None, got {self.target_standard_error!r}"
        if not _is_int(self.min_trials) or self.min_trials < 2:
            return f"min_trials must be a whole number >= 2, got {self.min_trials!r}"
        if not (_is_real(self.drop_z) and self.drop_z > 0):
            return f"drop_z must be a number > 0, got {self.drop_z!r}"
        if self.decision_z is not None and not (_is_real(self.decision_z) and self.decision_z > 0):
            return f"decision_z must be a number > 0 or None, got {self.decision_z!r}"
        if not _is_int(self.block_size) or self.block_size < 1:
            return f"block_size must be a whole number >= 1, got {self.block_size!r}"
        if not _is_int(self.max_retries) or self.max_retries < 0:
            return f"max_retries must be a whole number >= 0, got {self.max_retries!r}"
        if self.max_pending_blocks is not None and (
            not _is_int(self.max_pending_blocks) or self.max_pending_blocks < 1
        ):
            return f"max_pending_blocks must be a whole number >= 1 or None, got {self.max_pending_blocks!r}"
        return self._lookahead_problem()

    def _lookahead_problem(self) -> str | None:
        for name in ("checker_plies", "cube_plies", "later_plies"):
            value = getattr(self, name)
            if (value is not None or name == "checker_plies") and (
                not _is_int(value) or not 0 <= value <= MAX_ROLLOUT_PLIES
            ):
                none = "" if name == "checker_plies" else " or None"
                return f"{name} must be a whole number 0..{MAX_ROLLOUT_PLIES}{none}, got {value!r}"
        if self.later_from is not None and (not _is_int(self.later_from) or self.later_from < 1):
            return f"later_from must be a whole number >= 1 or None, got {self.later_from!r}"
        if (self.later_plies is None) != (self.later_from is None):
            return (
                "later_plies and later_from go together (both None, or the depth and the ply it"
                f" starts at), got later_plies={self.later_plies!r}, later_from={self.later_from!r}"
            )
        if not isinstance(self.move_filter, MoveFilter):
            return f"move_filter must be a MoveFilter, got {type(self.move_filter).__name__}"
        return None


@dataclass(frozen=True)
class RolloutResult:
    """What a rollout found, from the player on roll's view (before the roll, or, for
    ``rollout_moves``, before playing the given dice), with its uncertainty.

    Standard errors are those of the means over trials (infinite below two trials); with
    quasi-random dice they are conservative (the dice are stratified, the formula assumes
    independent games). ``cubeful_equity`` (in ``cubeful_unit``, the referee's) is money
    equity per cube of the position's match state or a match winning chance; None when
    the rollout had no referee.
    """

    probabilities: GameProbabilities
    probability_standard_errors: tuple[float, float, float, float, float]
    equity: float
    equity_standard_error: float
    cubeful_equity: float | None
    cubeful_standard_error: float | None
    trials: int
    seconds: float
    average_plies: float
    settings: RolloutSettings
    cubeful_unit: EquityUnit | None = None
    dropped: bool = False
    #: each trial's cubeful value (cubeless equity without a referee), in trial order, when
    #: asked for (``rollout(..., keep_trial_values=True)``); see ``paired_standard_error``
    trial_values: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def equity_ci95(self) -> tuple[float, float]:
        """95% confidence interval of the cubeless equity (normal approximation)."""
        return _interval(self.equity, self.equity_standard_error)

    @property
    def cubeful_ci95(self) -> tuple[float, float] | None:
        if self.cubeful_equity is None or self.cubeful_standard_error is None:
            return None
        return _interval(self.cubeful_equity, self.cubeful_standard_error)

    @property
    def probability_ci95(self) -> tuple[tuple[float, float], ...]:
        return tuple(_interval(m, s) for m, s in zip(self.probabilities, self.probability_standard_errors))

    def flipped(self) -> RolloutResult:
        """The same result from the other player's view (win <-> lose, equities negated).

        A match's cubeful value (a winning chance) becomes one minus it.
        """
        cubeful = self.cubeful_equity
        if cubeful is not None:
            cubeful = 1.0 - cubeful if self.cubeful_unit is EquityUnit.MWC else -cubeful
        return replace(
            self,
            probabilities=self.probabilities.flipped(),
            probability_standard_errors=flipped(self.probability_standard_errors),  # win's error stays
            equity=-self.equity,
            cubeful_equity=cubeful,
            trial_values=_flipped_values(self.trial_values, self.cubeful_unit is EquityUnit.MWC and cubeful is not None),
        )

    def __str__(self) -> str:
        lines = [f"Cubeless equity {_with_error(self.equity, self.equity_standard_error)}"]
        if self.cubeful_equity is not None and self.cubeful_standard_error is not None:
            unit = self.cubeful_unit.value if self.cubeful_unit is not None else ""
            lines.append(f"Cubeful {unit}: {_with_error(self.cubeful_equity, self.cubeful_standard_error)}")
        lines.append(
            "  ".join(
                f"{name} {_with_error(m, s, signed=False)}"
                for name, m, s in zip(FIELD_NAMES, self.probabilities, self.probability_standard_errors)
            )
        )
        lines.append(f"{self.trials} trials in {self.seconds:.2f} s, seed {self.settings.seed}")
        return "\n".join(lines)


def rollout(
    position: Position,
    match: MatchState | None = None,
    *,
    dice: tuple[int, int] | str | None = None,
    settings: RolloutSettings | None = None,
    executor: cf.Executor | None = None,
    progress: ProgressCallback | None = None,
    evaluator: Any = None,
    referee: RefereeFactory | None = None,
    opening: bool = False,
    keep_trial_values: bool = False,
) -> RolloutResult:
    """Roll out ``position`` for the player on roll (before the roll unless ``dice`` are given).

    ``referee``: makes the cube decisions inside the games and values them (cubeful;
    e.g. ``bgengine.cube_referee()``); None rolls out cubeless. ``match`` (money, centred
    cube by default) is what the referee plays to. ``dice``: the
    roll to play first (with the 0-ply policy). ``opening``: the position is the start
    of a game, so the first roll is never a double. ``executor``: any
    ``concurrent.futures.Executor`` (a thread pool on all cores by default; a Dask
    ``client.get_executor()`` runs on a cluster). ``progress(done, total, estimate)`` is
    called after each block. ``evaluator``: a C-level evaluator (``bgcore._evaluator.CEvaluator``)
    or an object with ``c_evaluator()``; None uses the default evaluator.
    ``keep_trial_values``: keep each trial's value in the result (``trial_values``), so that
    two rollouts with one seed can be compared trial by trial (``paired_standard_error``).
    """
    task, settings = _prepared(position, match, dice, settings, evaluator, referee, opening)
    return _run(replace(task, keep_trial_values=bool(keep_trial_values)), settings, executor, progress)


class StagedRollout:
    """A rollout of the position before the roll played in stages: ``extend(trials)`` plays
    the blocks up to that many trials (the very blocks, so the same dice, of one ``rollout``
    with these settings), ``result()`` sums up those played so far, trial values kept (see
    ``paired_standard_error``). For stop rules that look at several rollouts at once."""

    def __init__(self, position: Position, match: MatchState | None = None, *,
                 settings: RolloutSettings | None = None, evaluator: Any = None,
                 referee: RefereeFactory | None = None) -> None:
        task, self.settings = _prepared(position, match, None, settings, evaluator, referee, False)
        self._plan = BlockPlan(replace(task, keep_trial_values=True), self.settings.trials, self.settings.block_size)
        self._unit = task.referee.unit if task.referee is not None else None
        self._total = Accumulator(7)
        self._blocks = 0
        self._seconds = 0.0

    @property
    def trials(self) -> int:
        """Trials played so far."""
        return self._total.trials

    def extend(self, trials: int, executor: cf.Executor | None = None) -> None:
        """Play on to ``trials`` (at most the settings' trials; whole blocks, the last one's rest)."""
        blocks = min(len(self._plan), math.ceil(trials / self.settings.block_size))
        if blocks <= self._blocks:
            return
        started = time.perf_counter()
        settings = self.settings
        played = run_blocks(self._plan[self._blocks:blocks], executor, 7, settings.max_retries,
                            settings.max_pending_blocks, lambda total: False)
        self._total.absorb(played)
        self._blocks = blocks
        self._seconds += time.perf_counter() - started

    def result(self) -> RolloutResult:
        return _result(self._total, self.settings, self._seconds, self._unit is not None, self._unit)


def rollout_moves(
    position: Position,
    dice: tuple[int, int],
    moves: Sequence[Position | Move | str] | None = None,
    match: MatchState | None = None,
    *,
    settings: RolloutSettings | None = None,
    executor: cf.Executor | None = None,
    progress: Callable[[int, int, RolloutResult], None] | None = None,
    evaluator: Any = None,
    referee: RefereeFactory | None = None,
    keep_trial_values: bool = False,
) -> list[tuple[Position, RolloutResult]]:
    """Roll out candidate plays of ``dice`` from ``position``; best first (mover's view).

    ``moves``: candidate plays as moves (``Move`` or text such as "13/7 8/7") or as the
    positions after them (next player's view); None takes every legal play.
    Every candidate uses the same seed, so trial t of each throws the same dice and
    differences are sharper than the errors suggest: ``keep_trial_values`` keeps each
    trial's value so that ``paired_standard_error`` measures them. ``referee`` as for
    ``rollout``. With ``drop_clearly_worse`` candidates more than ``drop_z`` paired standard
    errors behind the best after ``min_trials`` stop there (their result says ``dropped``).
    """
    settings = settings if settings is not None else RolloutSettings()
    _check_settings(settings)
    match = _checked_match(match)
    _check_position(position)
    checked_dice = _checked_dice(dice, False)
    if checked_dice == (0, 0):
        raise IllegalMoveError("rollout_moves needs the dice to play, got None")
    candidates = _checked_candidates(position, checked_dice, moves)
    settings = _with_seed(settings)
    after_move = match.with_changes(on_roll=1 - match.on_roll, dice=None, double_offered=False)
    first_stage = settings
    if settings.drop_clearly_worse and len(candidates) > 1 and settings.min_trials < settings.trials:
        first_stage = replace(settings, trials=settings.min_trials, target_standard_error=None)
    def run(candidate: Position, stage: RolloutSettings, keep: bool) -> RolloutResult:
        task = _block_template(candidate, after_move, (0, 0), stage, evaluator, referee, False, True)
        return _run(replace(task, keep_trial_values=keep), stage, executor, progress).flipped()

    keep = bool(keep_trial_values)
    results = [run(c, first_stage, keep or first_stage is not settings) for c in candidates]
    if first_stage is not settings:
        best = max(results, key=_decisive_equity)
        for i, (candidate, result) in enumerate(zip(candidates, results)):
            if result is best or not _clearly_worse(result, best, settings.drop_z):
                results[i] = run(candidate, settings, keep)
            else:
                results[i] = replace(result, dropped=True, trial_values=result.trial_values if keep else None)
    ranked = sorted(zip(candidates, results), key=lambda pair: -_decisive_equity(pair[1]))
    return ranked


# ----- the work ------------------------------------------------------------------------


def _prepared(
    position: Position,
    match: MatchState | None,
    dice: tuple[int, int] | str | None,
    settings: RolloutSettings | None,
    evaluator: Any,
    referee: RefereeFactory | None,
    opening: bool,
) -> tuple[BlockTask, RolloutSettings]:
    """A rollout's arguments checked, its seed drawn when None, and its block template."""
    settings = settings if settings is not None else RolloutSettings()
    _check_settings(settings)
    match = _checked_match(match)
    _check_position(position)
    checked = _checked_dice(dice if dice is not None else match.dice, opening)
    settings = _with_seed(settings)
    return _block_template(position, match, checked, settings, evaluator, referee, opening), settings


def _run(
    template: BlockTask, settings: RolloutSettings, executor: cf.Executor | None, progress: ProgressCallback | None
) -> RolloutResult:
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise InvalidSettingsError(
            f"executor must be a concurrent.futures.Executor (or None for all local cores), got {type(executor).__name__}"
        )
    if progress is not None and not callable(progress):
        raise InvalidSettingsError(f"progress must be callable or None, got {type(progress).__name__}")
    started = time.perf_counter()
    cubeful = template.referee is not None
    unit = template.referee.unit if template.referee is not None else None

    def summary(total: Accumulator) -> RolloutResult:
        return _result(total, settings, time.perf_counter() - started, cubeful, unit)

    def after_block(total: Accumulator) -> bool:
        if progress is not None:
            progress(total.trials, settings.trials, summary(total))
        target = settings.target_standard_error
        if target is None or total.trials < settings.min_trials:
            return False
        errors = total.standard_errors()
        return bool(errors[6 if cubeful else 5] <= target)

    plan = BlockPlan(template, settings.trials, settings.block_size)
    total = run_blocks(plan, executor, 7, settings.max_retries, settings.max_pending_blocks, after_block)
    return summary(total)


def _result(
    total: Accumulator, settings: RolloutSettings, seconds: float, cubeful: bool, unit: EquityUnit | None
) -> RolloutResult:
    means = total.means()
    errors = total.standard_errors()
    return RolloutResult(
        probabilities=GameProbabilities.from_estimate(means[:5]),  # sampling can stray outside 0..1
        probability_standard_errors=tuple(float(x) for x in errors[:5]),  # type: ignore[arg-type]
        equity=float(means[5]),
        equity_standard_error=float(errors[5]),
        cubeful_equity=float(means[6]) if cubeful else None,
        cubeful_standard_error=float(errors[6]) if cubeful else None,
        trials=total.trials,
        seconds=seconds,
        average_plies=total.plies / max(total.trials, 1),
        settings=settings,
        cubeful_unit=unit,
        trial_values=np.concatenate(total.trial_values) if total.trial_values else None,
    )


def paired_standard_error(first: RolloutResult, second: RolloutResult, second_scale: float = 1.0) -> float:
    """Standard error of ``second_scale`` times ``second``'s mean value minus ``first``'s, two
    rollouts with the same seed and trials kept trial by trial (``keep_trial_values``): trial
    t of both threw the same dice, so the difference is taken per trial. Infinite below two
    trials (conservative with quasi-random dice, as the single errors)."""
    if first.trial_values is None or second.trial_values is None:
        raise InvalidSettingsError("both rollouts must keep their trial values (keep_trial_values=True)")
    if len(first.trial_values) != len(second.trial_values) or first.settings.seed != second.settings.seed:
        raise InvalidSettingsError("paired rollouts need the same seed and the same number of trials")
    differences = second_scale * second.trial_values - first.trial_values
    if len(differences) < 2:
        return math.inf
    return float(np.std(differences, ddof=1) / math.sqrt(len(differences)))


def _flipped_values(values: np.ndarray | None, match_chances: bool) -> np.ndarray | None:
    """Trial values from the other player's view: 1 - v for match winning chances, else -v."""
    if values is None:
        return None
    return 1.0 - values if match_chances else -values


def _block_template(
    position: Position,
    match: MatchState,
    dice: tuple[int, int],
    settings: RolloutSettings,
    evaluator: Any,
    referee: RefereeFactory | None,
    opening: bool,
    root_may_double: bool = False,
) -> BlockTask:
    assert settings.seed is not None
    return BlockTask(
        index=0,
        first_trial=0,
        trials=0,
        board=position.to_bytes(),
        evaluator=_kernel_evaluator(evaluator),
        oracle=_oracle(settings),
        entropy=settings.seed,
        quasi_random=settings.quasi_random,
        opening=opening,
        dice=dice,
        truncate_plies=settings.truncate_plies or 0,
        variance_reduction=settings.variance_reduction,
        referee=None if referee is None else referee(match, root_may_double=root_may_double),
        lookahead=settings.lookahead,
    )


def _kernel_evaluator(evaluator: Any) -> _evaluator.CEvaluator:
    """The C-level evaluator the kernel runs: given, adapted, or the default one."""
    if evaluator is None:
        return default_kernel_evaluator()
    if isinstance(evaluator, _evaluator.CEvaluator):
        return evaluator
    adapt = getattr(evaluator, "c_evaluator", None)
    if callable(adapt):
        adapted = adapt()
        if isinstance(adapted, _evaluator.CEvaluator):
            return adapted
    network = getattr(evaluator, "network", None)
    if isinstance(network, _nn.NeuralNet):
        crashed = getattr(evaluator, "crashed_network", None)
        return network_kernel_evaluator(network, race_tables=bool(getattr(evaluator, "race_tables", True)),
                                        crashed_network=crashed if isinstance(crashed, _nn.NeuralNet) else None)
    raise InvalidSettingsError(
        f"the rollout kernel runs without the GIL and needs a C-level evaluator"
        f" (bgcore._evaluator.CEvaluator, a NetworkEvaluator, or an object with c_evaluator());"
        f" got {type(evaluator).__name__}"
    )


def network_kernel_evaluator(network: _nn.NeuralNet, *, race_tables: bool = True,
                             crashed_network: _nn.NeuralNet | None = None) -> _evaluator.CEvaluator:
    """The network as the kernel's evaluator; race positions from the race tables when asked
    and crashed ones from ``crashed_network`` when given (as
    ``bgengine.evaluation.evaluator.NetworkEvaluator`` does at 0-ply)."""
    from bgengine.evaluation.bearoff import race_tables as tables

    return _engine.EngineCEvaluator(network, tables() if race_tables else None, None, crashed_network)


def default_kernel_evaluator() -> _evaluator.CEvaluator:
    """The evaluator rollouts use when none is given: ``bgengine.evaluation.evaluator.default_evaluator()``
    (the shipped network, race tables for races)."""
    from bgengine.evaluation.evaluator import default_evaluator

    return _kernel_evaluator(default_evaluator())


def _oracle(settings: RolloutSettings) -> _evaluator.COracle:
    if not settings.bearoff_tables:
        return _evaluator.COracle()
    from bgengine.evaluation.bearoff import race_tables

    return _engine.BearoffOracle(race_tables())


# ----- checks --------------------------------------------------------------------------


def _check_settings(settings: object) -> None:
    if not isinstance(settings, RolloutSettings):
        raise InvalidSettingsError(f"settings must be RolloutSettings, got {type(settings).__name__}")


def _checked_match(match: object) -> MatchState:
    if match is None:
        return MatchState()
    if not isinstance(match, MatchState):
        raise InvalidMatchStateError(f"match must be a MatchState or None, got {type(match).__name__}")
    return match


def _check_position(position: object) -> None:
    if checked_position(position).phase is Phase.OVER:
        raise InvalidPositionError("the game is over: there is nothing to roll out")


def _checked_dice(dice: object, opening: bool) -> tuple[int, int]:
    """(die1, die2), or (0, 0) when the first roll is random."""
    if dice is None:
        return (0, 0)
    dice = checked_roll(dice, "the first roll")
    if opening and dice[0] == dice[1]:
        raise IllegalMoveError(f"the opening roll is never a double, got {dice}")
    return (int(dice[0]), int(dice[1]))


def _checked_candidates(
    position: Position, dice: tuple[int, int], moves: Sequence[Position | Move | str] | None
) -> list[Position]:
    """The positions after each candidate play (next player's view), legal and distinct."""
    legal = position.legal_moves(dice)
    if moves is None:
        return [legal.position_after(i) for i in range(len(legal))]
    candidates = list(moves)
    if not candidates:
        raise IllegalMoveError("no candidate moves given")
    after = []
    for candidate in candidates:
        if isinstance(candidate, Position):
            if candidate not in legal:
                raise IllegalMoveError(
                    f"{candidate!r} is not reachable by playing {dice[0]}-{dice[1]} here"
                    " (candidates are positions after the move, seen from the next player)"
                )
            after.append(candidate)
        else:
            after.append(legal.play(candidate))
    return list(dict.fromkeys(after))


def _with_seed(settings: RolloutSettings) -> RolloutSettings:
    """The settings with the seed actually used (a fresh one when None)."""
    if settings.seed is not None:
        return settings
    entropy = np.random.SeedSequence().entropy
    assert isinstance(entropy, int)  # a fresh SeedSequence draws one 128-bit integer
    return replace(settings, seed=entropy)


def _decisive_equity(result: RolloutResult) -> float:
    return result.cubeful_equity if result.cubeful_equity is not None else result.equity


def _clearly_worse(result: RolloutResult, best: RolloutResult, z: float) -> bool:
    """Whether ``result`` is more than ``z`` standard errors of the difference, taken trial by
    trial (both kept their trial values), behind ``best``."""
    return _decisive_equity(best) - _decisive_equity(result) > z * paired_standard_error(result, best)


def _interval(mean: float, error: float) -> tuple[float, float]:
    return (mean - Z95 * error, mean + Z95 * error)


def _with_error(mean: float, error: float, *, signed: bool = True) -> str:
    """``mean ± 1.96 error`` with as many decimals as the error supports (at most 4)."""
    if not math.isfinite(error):
        return f"{mean:+.3f} (error unknown)" if signed else f"{mean:.3f} (error unknown)"
    half = Z95 * error
    decimals = 4 if half == 0 else min(4, max(1, 1 - math.floor(math.log10(half))))
    sign = "+" if signed else ""
    return f"{mean:{sign}.{decimals}f} ± {half:.{decimals}f}"


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _is_real(value: object) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool) and math.isfinite(value)


#: ``RolloutSettings.preset``'s named settings (measured in docs/rollout.md).
PRESETS: dict[str, RolloutSettings] = {
    "fast": RolloutSettings(),
    "standard": RolloutSettings(checker_plies=1, block_size=36),
    "strong": RolloutSettings(checker_plies=2, block_size=6),
}


__all__ = [
    "RolloutResult",
    "RolloutSettings",
    "default_kernel_evaluator",
    "network_kernel_evaluator",
    "rollout",
    "rollout_moves",
]

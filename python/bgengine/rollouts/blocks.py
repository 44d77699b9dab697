"""Runs a rollout's blocks of trials on any executor and reduces them deterministically.

Block ``i`` seeds its trials' dice streams (one 64-bit draw each, in order; see
``bgcore._rollout.run_block``) from ``SeedSequence(entropy, spawn_key=(0, i))`` (the i-th
child that ``SeedSequence(entropy).spawn`` would give under key 0) and its quasi-random
first rolls from the groups ``SeedSequence(entropy, spawn_key=(1, g))``; blocks are
reduced in index order. So a result depends on the settings and seed only, never on
the executor, the number of workers or the order in which blocks finish.
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, overload

import numpy as np

from bgcore import _rollout

from bgengine.errors import BgEngineError

#: Ordered roll index: 6 * (die1 - 1) + (die2 - 1).
ALL_ROLLS = np.arange(36, dtype=np.int16)
NON_DOUBLE_ROLLS = np.array([r for r in range(36) if r // 6 != r % 6], dtype=np.int16)
NO_ROLL = -1
BLOCK_SEED_KEY = 0
STRATA_SEED_KEY = 1


class RolloutWorkerError(BgEngineError, RuntimeError):
    """A block of trials failed more often than the retry limit allows."""


@dataclass(frozen=True)
class Lookahead:
    """The depths of the kernel's play (see ``bgcore._rollout.run_block``): checker play,
    the cube's evaluation, both from ply ``later_from`` on (0: never), variance
    reduction's luck (-1: the play's depth) and the n-ply search's move filter."""

    checker_plies: int = 0
    cube_plies: int = 0
    later_plies: int = 0
    later_from: int = 0
    luck_plies: int = 0
    keep: int = 2
    margin: float = 0.04


@dataclass(frozen=True)
class BlockTask:
    """Everything a worker needs to play one block of trials (picklable)."""

    index: int
    first_trial: int
    trials: int
    board: bytes
    evaluator: Any  # bgcore._evaluator.CEvaluator
    oracle: Any  # bgcore._evaluator.COracle
    entropy: int
    quasi_random: bool
    opening: bool
    dice: tuple[int, int]  # (0, 0) when the first roll is random
    truncate_plies: int
    variance_reduction: bool
    referee: Any  # a rollouts.referee.Referee, or None for cubeless
    lookahead: Lookahead = Lookahead()
    keep_trial_values: bool = False  # return each trial's cubeful value (cubeless equity without a referee)


@dataclass(frozen=True)
class BlockOutcome:
    """Sufficient statistics of one block: column sums, sums of squares, plies played."""

    index: int
    trials: int
    sums: np.ndarray
    squares: np.ndarray
    plies: int
    trial_values: np.ndarray | None = None  # per trial, when the task kept them


def play_block(task: BlockTask) -> BlockOutcome:
    """Play one block in the nogil kernel (runs on a worker; releases the GIL)."""
    seed = np.random.SeedSequence(task.entropy, spawn_key=(BLOCK_SEED_KEY, task.index))
    bit_generator = np.random.PCG64(seed)
    first, second = forced_rolls(task)
    lookahead = task.lookahead
    values = np.empty(task.trials) if task.keep_trial_values else None
    stats, plies = _rollout.run_block(
        task.board, task.evaluator, task.oracle, bit_generator, first, second,
        task.dice[0], task.dice[1], task.truncate_plies, task.variance_reduction,
        task.opening, task.referee,
        checker_plies=lookahead.checker_plies, cube_plies=lookahead.cube_plies,
        later_plies=lookahead.later_plies, later_from=lookahead.later_from,
        luck_plies=lookahead.luck_plies, keep=lookahead.keep, margin=lookahead.margin, trial_values=values,
    )
    return BlockOutcome(task.index, task.trials, stats[0].copy(), stats[1].copy(), int(plies), values)


def forced_rolls(task: BlockTask) -> tuple[np.ndarray, np.ndarray]:
    """The block's first two random rolls per trial (quasi-random), or -1 (free dice)."""
    if not task.quasi_random:
        free = np.full(task.trials, NO_ROLL, dtype=np.int16)
        return free, free.copy()
    first_choices = NON_DOUBLE_ROLLS if task.opening and task.dice == (0, 0) else ALL_ROLLS
    group_size = len(first_choices) * len(ALL_ROLLS)
    trials = np.arange(task.first_trial, task.first_trial + task.trials)
    first = np.empty(task.trials, dtype=np.int16)
    second = np.empty(task.trials, dtype=np.int16)
    for group in np.unique(trials // group_size):
        in_group = trials // group_size == group
        group_first, group_second = stratified_group(task.entropy, int(group), task.opening and task.dice == (0, 0))
        first[in_group] = group_first[trials[in_group] % group_size]
        second[in_group] = group_second[trials[in_group] % group_size]
    return first, second


@lru_cache(maxsize=64)
def stratified_group(entropy: int, group: int, opening: bool) -> tuple[np.ndarray, np.ndarray]:
    """First and second rolls of one group of S*36 trials (S = 36, or 30 at the opening).

    Trial j = a*S + b of the group throws first roll perm_a[b] (every run of S trials
    covers each first roll once) and second roll tau_x[a] for first roll x (over the
    group each pair (first, second) occurs exactly once).
    """
    first_choices = NON_DOUBLE_ROLLS if opening else ALL_ROLLS
    strata = len(first_choices)
    rng = np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(STRATA_SEED_KEY, group)))
    first = np.concatenate([rng.permutation(first_choices) for _ in range(len(ALL_ROLLS))])
    second_by_first = {int(x): rng.permutation(ALL_ROLLS) for x in first_choices}
    runs = np.arange(len(first)) // strata
    second = np.array([second_by_first[int(x)][a] for x, a in zip(first, runs)], dtype=np.int16)
    first.flags.writeable = False
    second.flags.writeable = False
    return first, second


class BlockPlan(Sequence[BlockTask]):
    """The blocks of a rollout of ``total_trials``, in order, each made only when asked for.

    A plan of 10**9 trials costs no memory: the runner asks for blocks as workers free up.
    """

    def __init__(self, template: BlockTask, total_trials: int, block_size: int) -> None:
        self.template = template
        self.total_trials = total_trials
        self.block_size = block_size

    def __len__(self) -> int:
        return math.ceil(self.total_trials / self.block_size)

    @overload
    def __getitem__(self, index: int) -> BlockTask: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[BlockTask]: ...

    def __getitem__(self, index: int | slice) -> BlockTask | Sequence[BlockTask]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not 0 <= index < len(self):
            raise IndexError(f"block {index} of {len(self)}")
        first = index * self.block_size
        return replace(self.template, index=index, first_trial=first,
                       trials=min(self.block_size, self.total_trials - first))


class Accumulator:
    """Running sums of the blocks reduced so far, always in block order."""

    def __init__(self, width: int) -> None:
        self.trials = 0
        self.plies = 0
        self.sums = np.zeros(width)
        self.squares = np.zeros(width)
        self.trial_values: list[np.ndarray] = []  # the blocks' kept values, in order

    def add(self, outcome: BlockOutcome) -> None:
        values = [] if outcome.trial_values is None else [outcome.trial_values]
        self._add(outcome.trials, outcome.plies, outcome.sums, outcome.squares, values)

    def absorb(self, later: Accumulator) -> None:
        """Add the sums of the blocks that come after these (reduced by another run)."""
        self._add(later.trials, later.plies, later.sums, later.squares, later.trial_values)

    def _add(self, trials: int, plies: int, sums: np.ndarray, squares: np.ndarray,
             trial_values: list[np.ndarray]) -> None:
        self.trials += trials
        self.plies += plies
        self.sums += sums
        self.squares += squares
        self.trial_values.extend(trial_values)

    def means(self) -> np.ndarray:
        return self.sums / max(self.trials, 1)

    def standard_errors(self) -> np.ndarray:
        """Standard error of each mean (sample variance / n); infinite below two trials."""
        n = self.trials
        if n < 2:
            return np.full(self.sums.shape, math.inf)
        variance = (self.squares - self.sums * self.sums / n) / (n - 1)
        return np.sqrt(np.maximum(variance, 0.0) / n)


def run_blocks(
    tasks: Sequence[BlockTask],
    executor: cf.Executor | None,
    width: int,
    max_retries: int,
    max_pending: int | None,
    after_block: Callable[[Accumulator], bool],
) -> Accumulator:
    """Play ``tasks`` on ``executor`` (a thread pool on all cores when None).

    Blocks are reduced strictly in index order; ``after_block`` is called after each and
    returns True to stop (only blocks before that point count). At most ``max_pending``
    blocks are in flight (None: four per core). A block whose future fails is resubmitted
    up to ``max_retries`` times; a block is never counted twice.
    """
    if executor is None:
        with cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            return run_blocks(tasks, pool, width, max_retries, max_pending, after_block)
    in_flight_limit = max_pending or 4 * (os.cpu_count() or 1)
    total = Accumulator(width)
    pending: dict[cf.Future[BlockOutcome], int] = {}
    arrived: dict[int, BlockOutcome] = {}
    failures: dict[int, int] = {}
    next_task = 0
    reduced = 0
    try:
        while reduced < len(tasks):
            while next_task < len(tasks) and len(pending) < in_flight_limit:
                pending[executor.submit(play_block, tasks[next_task])] = next_task
                next_task += 1
            done, _ = cf.wait(list(pending), return_when=cf.FIRST_COMPLETED)
            for future in done:
                index = pending.pop(future)
                try:
                    outcome = future.result()
                except Exception as error:  # a lost worker, a cancelled future, ...
                    failures[index] = failures.get(index, 0) + 1
                    if failures[index] > max_retries:
                        raise RolloutWorkerError(
                            f"block {index} failed {failures[index]} times; last error: {error!r}"
                        ) from error
                    pending[executor.submit(play_block, tasks[index])] = index
                    continue
                if index >= reduced and index not in arrived:
                    arrived[index] = outcome
            while reduced in arrived:
                total.add(arrived.pop(reduced))
                reduced += 1
                if after_block(total):
                    return total
        return total
    finally:
        for future in pending:
            future.cancel()

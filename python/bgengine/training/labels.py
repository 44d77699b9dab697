"""Labels: each position rolled out cubeless by the current engine at 0-ply, with a seed
derived from the run seed and the position's (shard, index), so any label shard can be made
again bit for bit; or (``search_label_shard``) valued by the engine's own n-ply search, the
teacher that distillation trains the 0-ply network towards.

Race positions are rolled out to the end (bear-off table finish); contact and crashed
positions with truncated rollouts; hard positions with full games; the truth set with long
full-game rollouts. The
settings chosen here were measured (training/README.md).
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np

from bgengine.evaluation.evaluator import MoveFilter, NetworkEvaluator
from bgengine.position import Position
from bgengine.rollouts.monte_carlo import RolloutSettings, rollout

from bgengine.training.classes import PositionClass
from bgengine.training.dataset import Shard

LABEL_SEED_KEY = 1


@dataclass(frozen=True)
class LabelPlan:
    """Rollout settings by class (seeds are filled in per position)."""

    race: RolloutSettings
    contact: RolloutSettings  # also crashed positions

    def settings_for(self, position_class: int) -> RolloutSettings:
        """The settings that label a position of this class."""
        return self.race if position_class == PositionClass.RACE else self.contact

    def as_dict(self) -> dict[str, dict]:
        """JSON-ready record of the plan (stored in each label shard)."""
        return {"race": asdict(self.race), "contact": asdict(self.contact)}


TRAINING_PLAN = LabelPlan(
    race=RolloutSettings(trials=144, variance_reduction=True, bearoff_tables=True),
    contact=RolloutSettings(trials=72, variance_reduction=True, truncate_plies=7),
)
#: Hard positions (back, holding and closed-out games): full games, no truncation, so the
#: label sees what the engine's own play makes of the position to the end (a backgammon
#: 30 plies away), which a truncated rollout or a 2-ply search cannot.
HARD_PLAN = LabelPlan(
    race=RolloutSettings(trials=144, variance_reduction=True, bearoff_tables=True),
    contact=RolloutSettings(trials=72, variance_reduction=True, bearoff_tables=True),
)
TRUTH_PLAN = LabelPlan(
    race=RolloutSettings(trials=1296, variance_reduction=True, bearoff_tables=True),
    contact=RolloutSettings(trials=1296, variance_reduction=True),
)


def position_seed(run_seed: int, shard: int, index: int) -> int:
    """The rollout seed of position ``index`` of shard ``shard`` (64 bits from SeedSequence)."""
    state = np.random.SeedSequence(run_seed, spawn_key=(LABEL_SEED_KEY, shard, index)).generate_state(2)
    return (int(state[0]) << 32) | int(state[1])


def label_shard(positions: Shard, run_seed: int, shard: int, plan: LabelPlan,
                executor: cf.Executor | None = None) -> Shard:
    """Roll out every position of a shard; the shard with its labels and their settings."""
    count = len(positions)
    probabilities = np.zeros((count, 5))
    errors = np.zeros((count, 5))
    equity_errors = np.zeros(count)
    seeds = np.zeros(count, dtype=np.uint64)
    trials = np.zeros(count, dtype=np.int32)
    seconds = np.zeros(count, dtype=np.float32)
    for i in range(count):
        seeds[i] = position_seed(run_seed, shard, i)
        settings = replace(plan.settings_for(int(positions.classes[i])), seed=int(seeds[i]))
        result = rollout(Position.from_array(positions.boards[i]), settings=settings, executor=executor)
        probabilities[i] = result.probabilities.as_tuple()
        errors[i] = result.probability_standard_errors
        equity_errors[i] = result.equity_standard_error
        trials[i] = result.trials
        seconds[i] = result.seconds
    meta = {**positions.meta, "kind": "labels", "label_seed": run_seed, "shard": shard, "plan": plan.as_dict()}
    return replace(positions, meta=meta, probabilities=probabilities, standard_errors=errors,
                   equity_standard_errors=equity_errors, seeds=seeds, trials=trials, seconds=seconds)


def weights_digest(path: Path) -> str:
    """The first 16 hex digits of a weights file's SHA-256 (which network taught a label)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def search_label_shard(positions: Shard, teacher: NetworkEvaluator, plies: int, teacher_name: str,
                       move_filter: MoveFilter | None = None) -> Shard:
    """Value every position of a shard by ``teacher``'s ``plies``-ply search (cubeless 5-vector).

    The search is deterministic: no seeds, no standard errors (stored as zeros, trials as 0);
    ``seconds`` is each position's CPU time. ``teacher_name`` (e.g. its weights digest) is
    recorded in the shard's meta.
    """
    move_filter = move_filter or MoveFilter()
    count = len(positions)
    probabilities = np.zeros((count, 5))
    seconds = np.zeros(count, dtype=np.float32)
    for i in range(count):
        started = time.process_time()
        probabilities[i] = teacher.evaluate_plies(positions.boards[i:i + 1], plies, move_filter)[0]
        seconds[i] = time.process_time() - started
    meta = {**positions.meta, "kind": "search labels", "shard": positions.meta.get("chunk"),
            "label_seed": positions.meta.get("seed"),
            "plan": {"plies": plies, "move_filter": asdict(move_filter), "teacher": teacher_name}}
    return replace(positions, meta=meta, probabilities=probabilities, standard_errors=np.zeros((count, 5)),
                   equity_standard_errors=np.zeros(count), seeds=np.zeros(count, dtype=np.uint64),
                   trials=np.zeros(count, dtype=np.int32), seconds=seconds)

"""Rollout labels: each position rolled out cubeless by the current engine at 0-ply, with a
seed derived from the run seed and the position's (shard, index), so any label shard can be
made again bit for bit.

Race positions are rolled out to the end (bear-off table finish); contact and crashed
positions with truncated rollouts; the truth set with long full-game rollouts. The
settings chosen here were measured (training/README.md).
"""

from __future__ import annotations

import concurrent.futures as cf
from dataclasses import asdict, dataclass, replace

import numpy as np

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

"""The limits a running server keeps: request size, rollout trials, concurrent rollout jobs."""

from __future__ import annotations

from dataclasses import dataclass

from bgengine.errors import InvalidSettingsError

#: The address ``bgengine serve`` binds unless told otherwise: this machine only.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


@dataclass(frozen=True)
class ServiceSettings:
    """Limits of one server; every field is checked when the settings are made.

    max_body_bytes: the largest request body accepted (larger ones get 413).
    max_rollout_trials: the most trials a rollout job may ask for (per play rolled out).
    max_running_jobs: rollout jobs running at once; one more is refused with 429.
    max_kept_jobs: finished jobs kept for ``GET /api/rollouts/{id}``; the oldest go first.
    event_interval: seconds between looks at a job's progress in its event stream.
    """

    max_body_bytes: int = 16 * 1024
    max_rollout_trials: int = 20_736
    max_running_jobs: int = 2
    max_kept_jobs: int = 32
    event_interval: float = 0.1

    def __post_init__(self) -> None:
        for name in ("max_body_bytes", "max_rollout_trials", "max_running_jobs", "max_kept_jobs"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidSettingsError(f"{name} must be a whole number >= 1, got {value!r}")
        if not 0 < self.event_interval <= 10:
            raise InvalidSettingsError(f"event_interval must be in (0, 10] seconds, got {self.event_interval!r}")

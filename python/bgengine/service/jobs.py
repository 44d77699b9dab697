"""Rollout jobs: started by one request, watched and cancelled by others.

Each job runs on a worker thread of its own (the rollout kernel releases the GIL and
plays its blocks on a thread pool), reports after every block of trials, and stops at
the next block when cancelled: the progress callback raises ``RolloutCancelled``, which
the block runner lets through after cancelling the blocks not yet started.
"""

from __future__ import annotations

import concurrent.futures as cf
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from bgengine.errors import BgEngineError

RUNNING, DONE, CANCELLED, FAILED = "running", "done", "cancelled", "failed"
FINISHED = (DONE, CANCELLED, FAILED)

#: progress(label, done, total, estimate): what ``bgengine.cli.rollout_report.run_rollout`` calls.
Progress = Callable[[str, int, int, Any], None]
#: The work of a job: given the progress callback, returns the finished JSON document.
Work = Callable[[Progress], dict[str, Any]]
#: Turns a running estimate (a RolloutResult) into JSON.
Describe = Callable[[Any], dict[str, Any]]


class RolloutCancelled(Exception):
    """Raised from a job's progress callback to stop its rollout."""


class TooManyJobs(BgEngineError, RuntimeError):
    """Every rollout slot of the server is busy."""


class RolloutJob:
    """One rollout in the background: progress after each block, the result at the end.

    ``plays`` is how many rollouts the job runs one after the other (the candidate plays
    of a roll, or 1 for the position before the roll), so that progress covers them all.
    """

    def __init__(self, job_id: str, plays: int, trials: int, describe: Describe) -> None:
        self.id = job_id
        self._plays = plays
        self._trials = trials
        self._describe = describe
        self._cancel = threading.Event()
        self._lock = threading.Lock()
        self._status = RUNNING
        self._label: str | None = None
        self._plays_done = 0
        self._done = 0
        self._total = trials
        self._estimate: dict[str, Any] | None = None
        self._result: dict[str, Any] | None = None
        self._error: str | None = None
        self.version = 0  # goes up at every change; event streams compare it

    @property
    def finished(self) -> bool:
        return self._status in FINISHED

    def cancel(self) -> None:
        """Ask the rollout to stop after the block it is playing."""
        self._cancel.set()

    def progress(self, label: str, done: int, total: int, estimate: Any) -> None:
        """The rollout's callback after each block; raises ``RolloutCancelled`` once cancelled."""
        if self._cancel.is_set():
            raise RolloutCancelled
        described = self._describe(estimate)
        with self._lock:
            if self._label is not None and label != self._label:
                self._plays_done += 1
            self._label, self._done, self._total = label, done, total
            self._estimate = described
            self.version += 1

    def run(self, work: Work) -> None:
        """Do ``work`` with this job's progress callback; record the result or why there is none."""
        try:
            result = work(self.progress)
        except RolloutCancelled:
            self._finish(CANCELLED)
        except ValueError as error:  # a typed error found once the rollout started (e.g. a bad play)
            self._finish(FAILED, error=str(error))
        except Exception as error:  # noqa: BLE001 - a job never takes the server down
            self._finish(FAILED, error=f"internal error: {type(error).__name__}: {error}")
        else:
            self._finish(DONE, result=result)

    def _finish(self, status: str, *, result: dict[str, Any] | None = None, error: str | None = None) -> None:
        with self._lock:
            self._status, self._result, self._error = status, result, error
            if status == DONE:
                self._plays_done, self._done = self._plays, self._total
            self.version += 1

    def snapshot(self) -> dict[str, Any]:
        """The job as JSON: status, progress over all its plays, the estimate so far, the result."""
        with self._lock:
            whole = self._plays * max(self._total, 1)
            fraction = 1.0 if self._status == DONE else min((self._plays_done * self._total + self._done) / whole, 1.0)
            return {
                "id": self.id,
                "status": self._status,
                "progress": {
                    "label": self._label,
                    "done": self._done,
                    "total": self._total,
                    "plays_done": self._plays_done,
                    "plays": self._plays,
                    "fraction": round(fraction, 4),
                },
                "estimate": self._estimate,
                "result": self._result,
                "error": self._error,
            }


class RolloutJobs:
    """The server's rollout jobs: at most ``max_running`` at once, the last ``max_kept`` remembered."""

    def __init__(self, max_running: int, max_kept: int) -> None:
        self._max_running = max_running
        self._max_kept = max_kept
        self._jobs: OrderedDict[str, RolloutJob] = OrderedDict()
        self._lock = threading.Lock()
        self._pool = cf.ThreadPoolExecutor(max_workers=max_running, thread_name_prefix="bgengine-rollout")

    def start(self, work: Work, *, plays: int, trials: int, describe: Describe) -> RolloutJob:
        """Start ``work`` on a worker thread; raises ``TooManyJobs`` when every slot is busy."""
        with self._lock:
            running = sum(not job.finished for job in self._jobs.values())
            if running >= self._max_running:
                raise TooManyJobs(
                    f"{running} rollouts are running, the most this server runs at once; "
                    "wait for one to finish or cancel one"
                )
            job = RolloutJob(secrets.token_hex(8), plays, trials, describe)
            self._jobs[job.id] = job
            self._forget_old()
        self._pool.submit(job.run, work)
        return job

    def _forget_old(self) -> None:
        finished = [job_id for job_id, job in self._jobs.items() if job.finished]
        for job_id in finished[: max(0, len(self._jobs) - self._max_kept)]:
            del self._jobs[job_id]

    def get(self, job_id: str) -> RolloutJob | None:
        with self._lock:
            return self._jobs.get(job_id)

    def shutdown(self) -> None:
        """Cancel every job and wait for the workers to stop."""
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            job.cancel()
        self._pool.shutdown(wait=True, cancel_futures=True)

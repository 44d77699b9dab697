"""Rollout speed side by side with the GNU Backgammon command line, in one run.

The opening position, 1296 trials, cubeless, 0-ply checker play, no variance reduction, one
thread, rolled out as the first position of a game (no doubles on the first roll), by
bgengine (``rollout(..., opening=True)`` on a one-thread executor) and by ``gnubg -t``
(``set threads 1``). Times are process CPU seconds, so a shared machine's load weighs less;
gnubg's start-up (loading its networks) is measured in a run without the rollout and
subtracted. Rounds alternate bgengine, gnubg, ... and the medians are compared.

    python benchmarks/bench_rollout_vs_gnubg.py --gnubg /usr/games/gnubg --rounds 3
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from bgengine import Position
from bgengine.evaluation.evaluator import default_evaluator
from bgengine.rollouts.monte_carlo import RolloutSettings, default_kernel_evaluator, rollout

TRIALS = 1296
GNUBG_SETTINGS = f"""set threads 1
set rollout trials {TRIALS}
set rollout cubeful off
set rollout varredn off
set rollout truncation enable off
set rollout chequerplay plies 0
set rollout initial on
set rollout quasirandom on
set rollout seed 11
new game
set turn 0
set board 4HPwATDgc/ABMA
"""


def bgengine_seconds(race_approximation: bool = False) -> float:
    """CPU seconds of one seeded rollout of the opening on one thread (races by the default
    race network, or by the race approximation)."""
    settings = RolloutSettings(trials=TRIALS, seed=11, variance_reduction=False, block_size=72)
    evaluator = (default_evaluator(use_race_network=False).c_evaluator() if race_approximation
                 else default_kernel_evaluator())
    with cf.ThreadPoolExecutor(1) as pool:
        started = time.process_time()
        result = rollout(Position.initial(), settings=settings, evaluator=evaluator, executor=pool, opening=True)
        spent = time.process_time() - started
    if result.trials != TRIALS:
        raise AssertionError(f"rollout played {result.trials} trials, not {TRIALS}")
    return spent


def gnubg_cpu_seconds(gnubg: str, commands: str, rolls_out: bool) -> float:
    """CPU seconds (user + system) of one ``gnubg -t`` process running ``commands``."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as script:
        script.write(commands)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        done = subprocess.run([gnubg, "-t", "-q", "-c", script.name], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=3600)
    finally:
        os.unlink(script.name)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if rolls_out and "Rollout done" not in done.stdout:
        raise AssertionError(f"gnubg did not finish the rollout:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gnubg", default="/usr/games/gnubg")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--race-approximation", action="store_true",
                        help="value races by the race approximation instead of the default race network")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    bgengine_seconds(args.race_approximation)  # tables and network loaded once, as gnubg loads its own
    ours, theirs = [], []
    for _ in range(args.rounds):
        ours.append(bgengine_seconds(args.race_approximation))
        startup = gnubg_cpu_seconds(args.gnubg, GNUBG_SETTINGS, rolls_out=False)
        theirs.append(gnubg_cpu_seconds(args.gnubg, GNUBG_SETTINGS + "rollout\n", rolls_out=True) - startup)
    mine, other = statistics.median(ours), statistics.median(theirs)
    print(f"load average before/after: {load_before:.2f} / {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"opening, {TRIALS} trials, cubeless 0-ply, one thread (median CPU seconds of {args.rounds} rounds)")
    print(f"bgengine {mine:.3f} s ({TRIALS / mine:.0f} games/s), gnubg {other:.3f} s ({TRIALS / other:.0f} games/s):"
          f" {other / mine:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Rollouts with lookahead play (issue 19): speed and accuracy against GNU Backgammon.

    nice python benchmarks/bench_rollout_lookahead.py speed [--rounds 3]
    nice python benchmarks/bench_rollout_lookahead.py accuracy [--trials 216,72,12]
    nice python benchmarks/bench_rollout_lookahead.py luck [--plies 1]

``speed``: CPU time per trial (process time, one thread each side, medians over rounds,
bgengine and gnubg alternating in one run) of cubeless rollouts with variance reduction at
0, 1 and 2 plies, from the opening position (doubles allowed, as gnubg rolls it out) and
a middle game. ``accuracy``: bgengine's and gnubg's rollouts of hard positions (back and
holding games) at each depth, with standard errors. ``luck``: variance reduction with
lookahead play, luck at 0-ply (bgengine's choice) against luck at the play's depth and
none: standard error, CPU seconds, and variance x CPU seconds per trial (lower is better).
gnubg (Debian package) is a measuring stick only; see gnubg_bridge.py.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gnubg_bridge import gnubg_rollouts  # noqa: E402

from bgengine import MatchState, Position  # noqa: E402
from bgengine.rollouts.blocks import BlockPlan, play_block  # noqa: E402
from bgengine.rollouts.monte_carlo import RolloutSettings, _block_template, rollout  # noqa: E402

OPENING = Position.initial()
MIDDLE_GAME = Position.from_points({20: 2, 13: 4, 8: 3, 6: 4, 5: 2}, {24: 1, 23: 1, 13: 4, 8: 2, 6: 4, 4: 2, 3: 1})
HARD = {
    "back game fnwICQgAoBQ3Pw": Position.from_gnubg_id("fnwICQgAoBQ3Pw"),
    "3hlIaQDRAMTOMQ": Position.from_gnubg_id("3hlIaQDRAMTOMQ"),
    "middle game " + MIDDLE_GAME.gnubg_id(): MIDDLE_GAME,
}
SPEED_TRIALS = {0: 72, 1: 12, 2: 2}


def ours(position: Position, plies: int, trials: int, seed: int, **changes: object) -> tuple[float, object]:
    """(CPU seconds, result) of a bgengine rollout on one thread."""
    settings = RolloutSettings(trials=trials, seed=seed, block_size=trials, checker_plies=plies, **changes)
    with cf.ThreadPoolExecutor(1) as pool:
        started = time.process_time()
        result = rollout(position, settings=settings, executor=pool)
        return time.process_time() - started, result


def speed(rounds: int) -> None:
    print(f"{'position':<28}{'plies':>6}{'trials':>7}{'bgengine ms':>13}{'gnubg ms':>11}{'ratio':>8}  gnubg play")
    for name, position in (("opening 4HPwATDgc/ABMA", OPENING), ("middle " + MIDDLE_GAME.gnubg_id(), MIDDLE_GAME)):
        for plies, trials in SPEED_TRIALS.items():
            mine, theirs, play = [], [], ""
            for r in range(rounds):
                seconds, _ = ours(position, plies, trials, seed=100 + r)
                mine.append(1000 * seconds / trials)
                (g,) = gnubg_rollouts([(position, plies, trials, 100 + r)])
                theirs.append(1000 * g.cpu_seconds / trials)
                play = g.play
            a, b = statistics.median(mine), statistics.median(theirs)
            print(f"{name:<28}{plies:>6}{trials:>7}{a:>13.1f}{b:>11.1f}{b / a:>7.2f}x  {play}", flush=True)


def accuracy(trials: dict[int, int]) -> None:
    print(f"{'position':<36}{'plies':>6}{'trials':>7}  {'bgengine':>16}  {'gnubg':>16}  {'difference':>16}")
    for name, position in HARD.items():
        for plies, n in trials.items():
            seconds, result = ours(position, plies, n, seed=1)
            (g,) = gnubg_rollouts([(position, plies, n, 1)])
            difference = result.equity - g.equity
            error = (result.equity_standard_error ** 2 + g.equity_standard_error ** 2) ** 0.5
            print(f"{name:<36}{plies:>6}{n:>7}  {result.equity:+.3f} ± {result.equity_standard_error:.3f}"
                  f"  {g.equity:+.3f} ± {g.equity_standard_error:.3f}  {difference:+.3f} ± {error:.3f}"
                  f"   ({seconds:.0f} s / {g.cpu_seconds:.0f} s CPU)", flush=True)


def luck(plies: int, trials: int) -> None:
    """Luck at 0-ply, at the play's depth, and no variance reduction, on the same dice."""
    print(f"{plies}-ply play; {'position':<24}{'luck':>8}{'trials':>7}{'equity':>9}{'SE':>8}{'CPU ms/trial':>14}"
          f"{'SE^2 x CPU s/trial':>20}")
    for name, position in (("opening", OPENING), ("middle game", MIDDLE_GAME)):
        for label, vr, luck_plies, n in (("none", False, 0, 4 * trials), ("0-ply", True, 0, trials),
                                          ("depth", True, -1, max(2, trials // 8))):
            settings = RolloutSettings(trials=n, seed=3, block_size=n, checker_plies=plies, variance_reduction=vr)
            template = _block_template(position, MatchState(), (0, 0), settings, None, None, False)
            task = BlockPlan(replace(template, lookahead=replace(template.lookahead, luck_plies=luck_plies)), n, n)[0]
            started = time.process_time()
            outcome = play_block(task)
            seconds = (time.process_time() - started) / n
            mean = outcome.sums[5] / n
            variance = (outcome.squares[5] - outcome.sums[5] ** 2 / n) / (n - 1)
            print(f"{'':<13}{name:<24}{label:>8}{n:>7}{mean:>+9.3f}{(variance / n) ** 0.5:>8.3f}"
                  f"{1000 * seconds:>14.1f}{variance * seconds:>20.5f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("speed").add_argument("--rounds", type=int, default=3)
    sub.add_parser("accuracy").add_argument("--trials", default="216,72,12", help="trials at 0, 1, 2 plies")
    luck_parser = sub.add_parser("luck")
    luck_parser.add_argument("--plies", type=int, default=1)
    luck_parser.add_argument("--trials", type=int, default=36)
    options = parser.parse_args()
    if options.command == "speed":
        speed(options.rounds)
    elif options.command == "accuracy":
        accuracy(dict(enumerate(int(t) for t in options.trials.split(","))))
    else:
        luck(options.plies, options.trials)


if __name__ == "__main__":
    main()

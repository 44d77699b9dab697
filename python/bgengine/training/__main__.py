"""Command line of the training jobs: ``python -m bgengine.training train|truth|races|hard|distill|relabel|fit``."""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from bgengine.training.pipeline import HARD_GENERATION, build_distill, build_hard, build_races, build_relabel, build_training, build_truth
from bgengine.training.labels import HARD_PLAN, TRUTH_PLAN
from bgengine.training.positions import GenerationSettings
from bgengine.training.scenarios import HARD_SCENARIOS
from bgengine.evaluation.network_weights import ENCODINGS
from bgengine.evaluation.race_features import VERSIONS as RACE_VERSIONS
from bgengine.training.corpus import SPLIT_EVERY
from bgengine.training.fit_job import (DEFAULT_DATA, DEFAULT_TRUTH, DISTILL_DATA, KINDS, POSITION_CLASSES, evaluator_kind,
                                      fit_network, race_kind)
from bgengine.training.supervised import LOSSES, SCHEDULES, FitSettings


def log(message: str) -> None:
    """One timestamped line on stdout, flushed (the jobs run under nohup)."""
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {message}", flush=True)


def _add_worker_arguments(parser: argparse.ArgumentParser, units: str) -> None:
    """``--worker``/``--workers``: independent processes share a job's chunks or shards by index."""
    parser.add_argument("--worker", type=int, default=0,
                        help=f"this process makes the {units} with index %% workers == worker")
    parser.add_argument("--workers", type=int, default=1)


def main(argv: list[str] | None = None) -> int:
    """Parse the command and run the job on one thread (rollouts run on a one-worker pool)."""
    parser = argparse.ArgumentParser(prog="python -m bgengine.training")
    jobs = parser.add_subparsers(dest="job", required=True)
    train = jobs.add_parser("train", help="positions and labels of the training set, chunk by chunk")
    train.add_argument("--out", type=Path, required=True)
    train.add_argument("--seed", type=int, required=True)
    train.add_argument("--chunks", type=int, required=True)
    train.add_argument("--games", type=int, default=GenerationSettings.games, help="games per chunk")
    truth = jobs.add_parser("truth", help="the truth set: class-balanced positions rolled out long")
    truth.add_argument("--out", type=Path, required=True)
    truth.add_argument("--seed", type=int, required=True)
    truth.add_argument("--trials", type=int, default=TRUTH_PLAN.contact.trials,
                       help="full-game trials (variance reduction) per contact or crashed position (races: always "
                            f"{TRUTH_PLAN.race.trials})")
    _add_worker_arguments(truth, "shards")
    races = jobs.add_parser("races", help="race-only positions and labels (independent chunks)")
    races.add_argument("--out", type=Path, required=True)
    races.add_argument("--seed", type=int, required=True)
    races.add_argument("--chunks", type=int, required=True)
    _add_worker_arguments(races, "chunks")
    hard = jobs.add_parser("hard", help="back, holding and closed-out games rolled out to the end (independent chunks)")
    hard.add_argument("--out", type=Path, required=True)
    hard.add_argument("--seed", type=int, required=True)
    hard.add_argument("--chunks", type=int, required=True)
    hard.add_argument("--games", type=int, default=HARD_GENERATION.games, help="games per chunk")
    hard.add_argument("--sample-rate", type=float, default=HARD_GENERATION.sample_rate,
                      help="chance that each position of a game is kept")
    hard.add_argument("--trials", type=int, default=HARD_PLAN.contact.trials,
                      help="full-game trials (variance reduction) per contact or crashed position")
    hard.add_argument("--scenario-weights", type=float, nargs=len(HARD_SCENARIOS), default=list(HARD_GENERATION.scenario_weights),
                      help="relative frequency of each start (back game, closed out, holding game, closed-out bear-off,"
                           " containment ending, ace-point ending)")
    _add_worker_arguments(hard, "chunks")
    distill = jobs.add_parser("distill", help="positions valued by the engine's own n-ply search (independent chunks)")
    distill.add_argument("--out", type=Path, required=True)
    distill.add_argument("--seed", type=int, required=True)
    distill.add_argument("--chunks", type=int, required=True)
    distill.add_argument("--plies", type=int, default=2, help="the teacher's search depth")
    distill.add_argument("--teacher", type=Path, help="the teacher's weights (default: the shipped network)")
    distill.add_argument("--teacher-crashed", type=Path,
                         help="the teacher's crashed-position network (default: the shipped one with the shipped weights)")
    distill.add_argument("--children", type=int, default=0,
                         help="add the positions after the K best 0-ply moves of a seeded roll of each position")
    keep = distill.add_mutually_exclusive_group()
    keep.add_argument("--contact-only", action="store_true", help="drop race positions (the engine values them with tables)")
    keep.add_argument("--races-only", action="store_true", help="keep race positions only (data for the race network)")
    distill.add_argument("--race-teacher", type=Path,
                         help="race network weights valuing races at the teacher's leaves (default: the race approximation)")
    distill.add_argument("--scenario-weights", type=float, nargs="+", default=list(GenerationSettings.scenario_weights),
                         help="relative frequency of each start (opening, back game, bar, long race, gammon-saving race,"
                         " late gammon-saving race; those not given: 0)")
    distill.add_argument("--rollout-trials", type=int,
                         help="label by full-game rollouts of the shipped engine with this many trials (variance"
                              " reduction) instead of the teacher's search")
    _add_worker_arguments(distill, "chunks")
    relabel = jobs.add_parser("relabel", help="the positions of label shards valued again by the n-ply search")
    relabel.add_argument("--data", type=Path, required=True, help="a label directory")
    relabel.add_argument("--out", type=Path, required=True)
    relabel.add_argument("--class", dest="kind", choices=sorted(KINDS), required=True, help="keep this network's classes")
    relabel.add_argument("--plies", type=int, default=2, help="the teacher's search depth")
    relabel.add_argument("--teacher", type=Path, help="the teacher's weights (default: the shipped network)")
    relabel.add_argument("--race-teacher", type=Path,
                         help="race network weights valuing races at the teacher's leaves (default: the race approximation)")
    _add_worker_arguments(relabel, "shards")
    fit = jobs.add_parser("fit", help="supervised training of a network on the labels (resumes from OUT)")
    fit.add_argument("--class", dest="kind", choices=sorted(KINDS), required=True)
    fit.add_argument("--out", type=Path, required=True)
    fit.add_argument("--seed", type=int, required=True)
    fit.add_argument("--data", type=Path, action="append", help="a label directory (repeat; default: "
                     + ", ".join(str(d) for d in DEFAULT_DATA) + "; for --class evaluator "
                     + ", ".join(str(d) for d in DISTILL_DATA) + ")")
    fit.add_argument("--weighted-data", nargs=2, action="append", default=[], metavar=("DIR", "TIMES"),
                     help="a label directory whose training and validation positions count TIMES times (repeat; read before --data,"
                          " so its label wins a board that several directories hold)")
    fit.add_argument("--gammon-data", nargs=2, action="append", default=[], metavar=("DIR", "TIMES"),
                     help="a label directory whose labels count for the gammon rates alone, TIMES times (repeat;"
                          " rollouts too short for the win rate that ground the gammon rates in game outcomes;"
                          " training and validation shards only)")
    fit.add_argument("--init", type=Path, help="evaluator weights to start from (--class evaluator)")
    fit.add_argument("--race-encoding", type=int, choices=RACE_VERSIONS, default=RACE_VERSIONS[-1],
                     help="--class race: the race-features version of the inputs (1: without the within-k chances)")
    fit.add_argument("--encoding", type=int, choices=ENCODINGS, default=1,
                     help="input encoding of the network (--class evaluator; --init weights are widened to it)")
    fit.add_argument("--position-class", choices=tuple(POSITION_CLASSES), default="all",
                     help="--class evaluator: fit on the labelled positions of this class (all: contact and crashed;"
                          " crashed writes crashed_weights.npz, a network for the engine's crashed slot)")
    truth_choice = fit.add_mutually_exclusive_group()
    truth_choice.add_argument("--truth", type=Path, default=DEFAULT_TRUTH,
                              help="truth-set positions to leave out (default: the checkout's benchmarks/data/truth)")
    truth_choice.add_argument("--no-truth", dest="truth", action="store_const", const=None,
                              help="leave no truth-set positions out")
    fit.add_argument("--split-every", type=int, default=SPLIT_EVERY,
                     help="shard index %% N == N-1 is the test set, == N-2 validation")
    defaults = FitSettings()
    fit.add_argument("--loss", choices=sorted(LOSSES), default=FitSettings.loss)
    fit.add_argument("--schedule", choices=SCHEDULES, default=FitSettings.schedule,
                     help="learning rate by epoch: constant, or cosine from --learning-rate to 0 at --max-epochs")
    for name in ("hidden", "learning_rate", "batch_size", "max_epochs", "patience", "anchor"):
        fit.add_argument("--" + name.replace("_", "-"), type=type(getattr(defaults, name)), default=getattr(defaults, name))
    fit.add_argument("--sibling-weight", type=float, default=defaults.sibling_weight,
                     help="add this weight times the squared differences of sibling plays' equity errors to the loss"
                          " (the candidate children of one roll in distill shards; 0: off)")
    args = parser.parse_args(argv)
    log(f"start: {' '.join(sys.argv)}")
    if args.job == "fit":
        settings = FitSettings(seed=args.seed, loss=args.loss, hidden=args.hidden, learning_rate=args.learning_rate,
                               batch_size=args.batch_size, max_epochs=args.max_epochs, patience=args.patience,
                               anchor=args.anchor, schedule=args.schedule, sibling_weight=args.sibling_weight)
        if settings.sibling_weight < 0:
            parser.error("--sibling-weight must be 0 or more")
        if args.kind != "evaluator" and (args.encoding != 1 or args.position_class != "all"):
            parser.error("--encoding and --position-class apply to --class evaluator only")
        if args.kind != "race" and args.race_encoding != RACE_VERSIONS[-1]:
            parser.error("--race-encoding applies to --class race only")
        kind = (evaluator_kind(args.encoding, args.position_class) if args.kind == "evaluator"
                else race_kind(args.race_encoding) if args.kind == "race" else KINDS[args.kind])
        try:
            repeats = {Path(directory): int(times) for directory, times in args.weighted_data}
            gammon_repeats = {Path(directory): int(times) for directory, times in args.gammon_data}
        except ValueError:
            parser.error("--weighted-data and --gammon-data take a directory and a whole number of times")
        if gammon_repeats and args.kind != "evaluator":
            parser.error("--gammon-data applies to --class evaluator only")
        full = [*repeats, *(args.data or ([] if repeats or gammon_repeats else list(kind.default_data)))]
        if set(full) & set(gammon_repeats):
            parser.error("a --gammon-data directory cannot also be read for all its labels (--data, --weighted-data)")
        fit_network(kind, args.out, settings, [*full, *gammon_repeats], args.truth, log, args.split_every, args.init,
                    {**gammon_repeats, **repeats}, set(gammon_repeats))
        log("done")
        return 0
    if args.job == "relabel":
        build_relabel(args.data, args.out, KINDS[args.kind].classes, args.plies, args.teacher, args.race_teacher,
                      args.worker, args.workers, log=log)
        log("done")
        return 0
    if args.job == "distill":
        generation = replace(GenerationSettings(), scenario_weights=tuple(args.scenario_weights))
        if args.rollout_trials is not None and (args.rollout_trials < 1 or args.teacher or args.teacher_crashed
                                                or args.race_teacher):
            parser.error("--rollout-trials takes a positive number and no teacher (the shipped engine plays)")
        rollout_plan = (None if args.rollout_trials is None
                        else replace(HARD_PLAN, contact=replace(HARD_PLAN.contact, trials=args.rollout_trials)))
        build_distill(args.out, args.seed, range(args.worker, args.chunks, args.workers), args.plies, args.teacher,
                      generation, args.children, args.contact_only, args.races_only, args.race_teacher, log=log,
                      teacher_crashed=args.teacher_crashed, rollout_plan=rollout_plan)
        log("done")
        return 0
    with ThreadPoolExecutor(1) as executor:
        if args.job == "train":
            generation = replace(GenerationSettings(), games=args.games)
            build_training(args.out, args.seed, args.chunks, generation, executor=executor, log=log)
        elif args.job == "hard":
            generation = replace(HARD_GENERATION, games=args.games, sample_rate=args.sample_rate,
                                 scenario_weights=tuple(args.scenario_weights))
            plan = replace(HARD_PLAN, contact=replace(HARD_PLAN.contact, trials=args.trials))
            build_hard(args.out, args.seed, range(args.worker, args.chunks, args.workers), generation, plan,
                       executor=executor, log=log)
        elif args.job == "races":
            build_races(args.out, args.seed, range(args.worker, args.chunks, args.workers), executor=executor, log=log)
        else:
            plan = replace(TRUTH_PLAN, contact=replace(TRUTH_PLAN.contact, trials=args.trials))
            build_truth(args.out, args.seed, plan=plan, executor=executor, log=log, worker=args.worker,
                        workers=args.workers)
    log("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Command line of the training-data jobs: ``python -m bgengine.training train|truth``."""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from bgengine.training.pipeline import build_training, build_truth
from bgengine.training.positions import GenerationSettings


def log(message: str) -> None:
    """One timestamped line on stdout, flushed (the jobs run under nohup)."""
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {message}", flush=True)


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
    args = parser.parse_args(argv)
    log(f"start: {' '.join(sys.argv)}")
    with ThreadPoolExecutor(1) as executor:
        if args.job == "train":
            generation = replace(GenerationSettings(), games=args.games)
            build_training(args.out, args.seed, args.chunks, generation, executor=executor, log=log)
        else:
            build_truth(args.out, args.seed, executor=executor, log=log)
    log("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())

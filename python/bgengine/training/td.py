"""Train the evaluator network by TD(lambda) self-play, from random weights, given weights or
a checkpoint.

``python -m bgengine.training.td --out DIR --games N --seed S`` plays N self-play games (the
C kernel in ``bgcore._selfplay``), prints games per second and a running strength figure
(points per game against PubEval over a fixed set of seeded games), and writes
checkpoints to DIR (``latest.npz`` regularly, ``best.npz`` when the strength improves).
``--encoding 2`` (or 3) trains a network of that input encoding (``bgcore._nn``); ``--init W.npz``
starts from the weights file W (its hidden size), widened to that encoding with zero
weights for the inputs it lacks, instead of random weights. ``--start-mix back_game=0.15
closed_out=0.05`` starts that share of the games from seeded hard-class starts
(``training.scenarios``) instead of the opening: self-play from the opening alone rarely
reaches back games and closed-out checkers, which the engine misplays.
A run is resumable: ``--resume DIR/latest.npz`` continues with the same dice stream.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from bgcore import _nn, _selfplay

from bgengine.evaluation.network_weights import ENCODINGS, load_network, network_arrays, widened
from bgengine.evaluation.pubeval import pubeval_player
from bgengine.position import Position
from bgengine.training.labels import weights_digest
from bgengine.training.scenarios import SCENARIOS

CHECKPOINT_FORMAT = 1


@dataclass(frozen=True)
class TrainingSettings:
    """Hyper-parameters of a run; stored in every checkpoint."""

    seed: int = 1
    hidden: int = 80
    alpha: float = 0.1  # step size at the start
    alpha_half_life_games: int = 200_000  # alpha(g) = alpha * h / (h + g)
    min_alpha: float = 0.01
    lam: float = 0.7
    eval_games: int = 2000  # games against PubEval per strength measurement
    eval_seed: int = 12345  # the same dice for every measurement, so figures compare
    encoding: int = 1  # the network's input encoding (bgcore._nn)
    init: str = ""  # weights file the run started from ("": random weights from the seed)
    init_sha256_16: str = ""  # that file's digest
    start_mix: dict[str, float] = field(default_factory=dict)  # scenario name -> share of the games' starts
    start_pool: int = 20_000  # start boards drawn once per run when start_mix is not empty


@dataclass
class Strength:
    """Points per game against PubEval (network's view) with its standard error."""

    games_trained: int
    points_per_game: float
    standard_error: float
    games: int


@dataclass
class TrainingState:
    """Everything needed to resume: settings, progress, dice stream and history."""

    settings: TrainingSettings
    games: int = 0
    plies: int = 0
    seconds: float = 0.0
    bit_generator_state: dict[str, Any] = field(default_factory=dict)
    history: list[Strength] = field(default_factory=list)

    def alpha(self) -> float:
        s = self.settings
        decayed = s.alpha * s.alpha_half_life_games / (s.alpha_half_life_games + self.games)
        return max(s.min_alpha, decayed)


def strength_against_pubeval(network: _nn.NeuralNet, games: int, seed: int) -> tuple[float, float]:
    """(points per game, standard error) of ``network`` at 0-ply vs PubEval, cubeless money.

    The two sides alternate who starts; dice from ``seed``.
    """
    points = _selfplay.duel(network, pubeval_player(), games, np.random.PCG64(seed))
    values = points.astype(np.float64)
    return float(values.mean()), float(values.std(ddof=1) / math.sqrt(len(values)))


def save_checkpoint(path: Path, network: _nn.NeuralNet, state: TrainingState) -> None:
    """Weights plus a JSON record of the state, written atomically."""
    meta = {
        "format": CHECKPOINT_FORMAT,
        "settings": asdict(state.settings),
        "games": state.games,
        "plies": state.plies,
        "seconds": state.seconds,
        "bit_generator_state": state.bit_generator_state,
        "history": [asdict(h) for h in state.history],
    }
    temporary = path.with_name(path.name + ".tmp.npz")
    arrays: dict[str, Any] = {**network_arrays(network), "meta": np.array(json.dumps(meta))}  # numpy's stub: Any
    np.savez_compressed(temporary, **arrays)
    temporary.replace(path)


def load_checkpoint(path: str | Path) -> tuple[_nn.NeuralNet, TrainingState]:
    """A network and its training state from a checkpoint written by ``save_checkpoint``
    (NetworkEncodingError when its weights are not of the encoding its settings name)."""
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
    if meta.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{path}: unknown checkpoint format {meta.get('format')!r}")
    settings = TrainingSettings(**meta["settings"])
    network = load_network(path, settings.encoding)
    state = TrainingState(
        settings=settings,
        games=meta["games"],
        plies=meta["plies"],
        seconds=meta["seconds"],
        bit_generator_state=meta["bit_generator_state"],
        history=[Strength(**h) for h in meta["history"]],
    )
    return network, state


def export_weights(checkpoint: str | Path, destination: str | Path) -> dict[str, Any]:
    """Write the weights of a checkpoint (no optimiser state) for shipping; returns its record."""
    network, state = load_checkpoint(checkpoint)
    record = {
        "settings": asdict(state.settings),
        "games": state.games,
        "training_seconds": round(state.seconds, 1),
        "strength_history": [asdict(h) for h in state.history],
    }
    arrays: dict[str, Any] = {**network_arrays(network), "record": np.array(json.dumps(record))}  # numpy's stub: Any
    np.savez_compressed(destination, **arrays)
    return record


START_POOL_STREAM = 2  # SeedSequence(seed).spawn(3)[2] draws the start pool (0: weights, 1: dice)


def start_pool(settings: TrainingSettings) -> np.ndarray | None:
    """The (start_pool, 26) boards the run's games start from, one drawn per game: each
    scenario of ``start_mix`` (``training.scenarios``) its share, the rest the opening. None
    when the mix is empty (every game from the opening). Seeded by the run's seed."""
    if not settings.start_mix:
        return None
    unknown = sorted(set(settings.start_mix) - set(SCENARIOS))
    if unknown:
        raise ValueError(f"unknown start scenarios {unknown}; known: {sorted(SCENARIOS)}")
    shares = settings.start_mix
    if any(not 0.0 <= share <= 1.0 for share in shares.values()) or sum(shares.values()) > 1.0:
        raise ValueError(f"start shares must lie in [0, 1] and sum to at most 1, got {shares}")
    if settings.start_pool < 1:
        raise ValueError(f"start_pool must be positive, got {settings.start_pool}")
    rng = np.random.default_rng(np.random.SeedSequence(settings.seed).spawn(START_POOL_STREAM + 1)[START_POOL_STREAM])
    boards = [np.asarray(SCENARIOS[name](rng)) for name in sorted(shares)
              for _ in range(round(shares[name] * settings.start_pool))]
    opening = np.asarray(Position.initial())
    boards += [opening] * (settings.start_pool - len(boards))
    return np.array(boards, dtype=np.int8)


def initial_network(settings: TrainingSettings, rng: np.random.Generator) -> tuple[_nn.NeuralNet, TrainingSettings]:
    """The network a run starts from and its settings: ``settings.init`` widened to
    ``settings.encoding`` (its hidden size and digest recorded), else random weights from ``rng``."""
    if not settings.init:
        return _nn.NeuralNet.random(settings.hidden, rng, encoding=settings.encoding), settings
    network = widened(load_network(settings.init), settings.encoding)
    return network, replace(settings, hidden=network.num_hidden, init_sha256_16=weights_digest(Path(settings.init)))


def train(
    out: str | Path,
    games: int,
    settings: TrainingSettings | None = None,
    *,
    resume: str | Path | None = None,
    chunk_games: int = 2000,
    eval_every_games: int = 20_000,
    checkpoint_seconds: float = 180.0,
    report=print,
) -> tuple[_nn.NeuralNet, TrainingState]:
    """Train until ``games`` games in total have been played; checkpoints go to ``out``.

    Seeded and deterministic: the same settings (or the same checkpoint) give the same
    weights, whatever the chunk sizes. Returns the network and its final state.
    """
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    if resume is not None:
        network, state = load_checkpoint(resume)
        bit_generator = np.random.PCG64()
        bit_generator.state = state.bit_generator_state  # type: ignore[assignment]  # numpy types it as a TypedDict
    else:
        seeds = np.random.SeedSequence((settings or TrainingSettings()).seed).spawn(2)
        network, settings = initial_network(settings or TrainingSettings(), np.random.default_rng(seeds[0]))
        bit_generator = np.random.PCG64(seeds[1])
        state = TrainingState(settings=settings)
    starts = start_pool(state.settings)
    best = max((h.points_per_game for h in state.history), default=-math.inf)
    last_checkpoint = time.monotonic()
    next_eval = (state.games // eval_every_games + 1) * eval_every_games
    while state.games < games:
        batch = min(chunk_games, games - state.games, next_eval - state.games)
        started = time.monotonic()
        s = state.settings
        state.plies += _selfplay.train_games(
            network, batch, state.games, s.alpha, s.alpha_half_life_games, s.min_alpha, s.lam, bit_generator,
            starts=starts,
        )
        elapsed = time.monotonic() - started
        state.games += batch
        state.seconds += elapsed
        state.bit_generator_state = dict(bit_generator.state)
        line = (
            f"games {state.games:>9,}  {batch / max(elapsed, 1e-9):7.0f} games/s  "
            f"alpha {state.alpha():.4f}  plies/game {state.plies / max(state.games, 1):5.1f}"
        )
        if state.games >= next_eval or state.games == games:
            ppg, se = strength_against_pubeval(
                network, state.settings.eval_games, state.settings.eval_seed
            )
            state.history.append(Strength(state.games, ppg, se, state.settings.eval_games))
            line += f"  vs PubEval {ppg:+.3f} ± {se:.3f} ppg"
            next_eval += eval_every_games
            if ppg > best:
                best = ppg
                save_checkpoint(out_dir / "best.npz", network, state)
                line += "  (best)"
        report(line)
        if time.monotonic() - last_checkpoint >= checkpoint_seconds or state.games >= games:
            save_checkpoint(out_dir / "latest.npz", network, state)
            last_checkpoint = time.monotonic()
    return network, state


def parse_start_mix(items: list[str]) -> dict[str, float]:
    """``["back_game=0.15", ...]`` as a mix (ValueError names a malformed item)."""
    mix = {}
    for item in items:
        name, equals, share = item.partition("=")
        try:
            mix[name] = float(share)
        except ValueError:
            raise ValueError(f"--start-mix takes SCENARIO=SHARE items, got {item!r}") from None
        if not equals:
            raise ValueError(f"--start-mix takes SCENARIO=SHARE items, got {item!r}")
    return mix


def main(argv: list[str] | None = None) -> int:
    """The ``python -m bgengine.training.td`` command line."""
    defaults = TrainingSettings()
    parser = argparse.ArgumentParser(prog="python -m bgengine.training.td", description=__doc__)
    parser.add_argument("--out", required=True, help="directory for checkpoints")
    parser.add_argument("--games", type=int, required=True, help="total games to reach")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--hidden", type=int, default=defaults.hidden)
    parser.add_argument("--alpha", type=float, default=defaults.alpha)
    parser.add_argument("--alpha-half-life", type=int, default=defaults.alpha_half_life_games)
    parser.add_argument("--min-alpha", type=float, default=defaults.min_alpha)
    parser.add_argument("--lam", type=float, default=defaults.lam)
    parser.add_argument("--eval-games", type=int, default=defaults.eval_games)
    parser.add_argument("--eval-every", type=int, default=20_000)
    parser.add_argument("--checkpoint-seconds", type=float, default=180.0)
    parser.add_argument("--encoding", type=int, choices=ENCODINGS, default=defaults.encoding,
                        help="input encoding of the network (bgcore._nn)")
    parser.add_argument("--init", default="", help="weights file to start from, widened to --encoding (its hidden size)")
    parser.add_argument("--resume", help="checkpoint to continue from (its settings win)")
    parser.add_argument("--start-mix", nargs="*", default=[], metavar="SCENARIO=SHARE",
                        help="share of games starting from a training.scenarios start, e.g. back_game=0.15")
    parser.add_argument("--start-pool", type=int, default=defaults.start_pool,
                        help="start boards drawn once for the run when --start-mix is given")
    args = parser.parse_args(argv)
    settings = TrainingSettings(
        seed=args.seed,
        hidden=args.hidden,
        alpha=args.alpha,
        alpha_half_life_games=args.alpha_half_life,
        min_alpha=args.min_alpha,
        lam=args.lam,
        eval_games=args.eval_games,
        encoding=args.encoding,
        init=args.init,
        start_mix=parse_start_mix(args.start_mix),
        start_pool=args.start_pool,
    )

    def report(line: str) -> None:
        print(line, flush=True)

    train(
        args.out,
        args.games,
        settings,
        resume=args.resume,
        eval_every_games=args.eval_every,
        checkpoint_seconds=args.checkpoint_seconds,
        report=report,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

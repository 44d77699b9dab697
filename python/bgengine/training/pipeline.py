"""The resumable jobs: the training database (positions then labels, chunk by chunk), the
race-only, hard-position and distillation sets (independent chunks), and the truth set (a separately
seeded, class-balanced set rolled out long).

Every output is a shard written atomically; a restarted job skips finished shards and
makes the rest exactly as an uninterrupted run would.
"""

from __future__ import annotations

import concurrent.futures as cf
import time
from collections.abc import Callable
from dataclasses import asdict, replace
from importlib import resources
from pathlib import Path

import numpy as np

from bgengine.evaluation.evaluator import WEIGHTS_RESOURCE, NetworkEvaluator, crashed_network_of, shipped_crashed_network
from bgengine.evaluation.network_weights import load_network, network_digest
from bgengine.evaluation.race_network import RaceNetwork

from bgengine.training.classes import PositionClass, Tag
from bgengine.training.corpus import shard_index
from bgengine.training.dataset import Shard, load_shard, save_shard, shard_path, shard_paths
from bgengine.training.labels import HARD_PLAN, TRAINING_PLAN, TRUTH_PLAN, LabelPlan, label_shard, search_label_shard, weights_digest
from bgengine.training.positions import GenerationSettings, generate_chunk, with_candidate_children
from bgengine.training.scenarios import HARD_SCENARIOS, RACE_SCENARIOS

Log = Callable[[str], None]

#: Truth-set categories, filled in this order of precedence: tags first, then the class.
TRUTH_QUOTAS = {"back_game": 350, "closed_out": 350, "crashed": 300, "race": 500, "contact": 500}
TRUTH_GENERATION = GenerationSettings(scenario_weights=(0.4, 0.25, 0.2, 0.075, 0.075))
TRUTH_SHARD_SIZE = 50
#: The race-only job: short games from race starts (equal weights), labelled like the
#: training set's races.
RACE_GENERATION = GenerationSettings(games=30, scenario_weights=(1.0, 1.0, 1.0))
#: The hard-position job: games from back-game, closed-out and holding-game starts
#: (``HARD_SCENARIOS``), few positions a game so that the costly labels cover many games.
HARD_GENERATION = GenerationSettings(games=20, sample_rate=0.15, scenario_weights=(1.0, 1.0, 1.0, 0.0, 0.0, 0.0))


def _quiet(message: str) -> None:
    pass


def describe(shard: Shard) -> str:
    """Counts by class and the labels' cost and precision, for the logs."""
    counts = " ".join(f"{c.name.lower()}={int((shard.classes == c).sum())}" for c in PositionClass if c != PositionClass.EXACT)
    text = f"{len(shard)} positions ({counts})"
    if shard.labelled:
        assert shard.seconds is not None and shard.equity_standard_errors is not None
        for name, mask in (("race", shard.classes == PositionClass.RACE), ("contact+crashed", shard.classes != PositionClass.RACE)):
            if mask.any():
                text += (f"; {name}: {float(shard.seconds[mask].mean()):.3f} s/pos,"
                         f" mean equity se {float(shard.equity_standard_errors[mask].mean()):.4f}")
    return text


def label_chunk(root: Path, positions: Shard, seed: int, chunk: int, plan: LabelPlan,
                executor: cf.Executor | None, log: Log, what: str) -> None:
    """Roll out a chunk's positions into ``root/labels`` unless that shard exists."""
    labels_path = shard_path(Path(root) / "labels", chunk)
    if not labels_path.exists():
        started = time.perf_counter()
        labelled = label_shard(positions, seed, chunk, plan, executor)
        save_shard(labels_path, labelled)
        log(f"{what} {chunk}: {describe(labelled)} in {time.perf_counter() - started:.1f} s")


def build_training(root: Path, seed: int, chunks: int, generation: GenerationSettings = GenerationSettings(),
                   plan: LabelPlan = TRAINING_PLAN, executor: cf.Executor | None = None, log: Log = _quiet) -> None:
    """Make chunks ``0..chunks-1``: each one's positions (``root/positions``), then its labels
    (``root/labels``), skipping shards already made."""
    seen: set[bytes] = set()
    for chunk in range(chunks):
        positions_path = shard_path(Path(root) / "positions", chunk)
        if positions_path.exists():
            positions = load_shard(positions_path)
            seen.update(board.tobytes() for board in positions.boards)
        else:
            started = time.perf_counter()
            positions = generate_chunk(seed, chunk, generation, seen)
            save_shard(positions_path, positions)
            log(f"positions {chunk}: {describe(positions)} in {time.perf_counter() - started:.1f} s")
        label_chunk(root, positions, seed, chunk, plan, executor, log, "labels")


def build_independent_chunks(root: Path, chunks: range, make: Callable[[int], Shard],
                             label: Callable[[Shard, int], Shard], log: Log, what: str) -> None:
    """Chunks (``root/positions``, ``root/labels``) that depend only on the seed and their index.

    Unlike ``build_training``, duplicates are dropped within a chunk only (readers
    deduplicate across shards), so several processes can make disjoint ranges of chunks
    side by side. ``make(chunk)`` draws one chunk's positions, ``label(positions, chunk)``
    labels them.
    """
    for chunk in chunks:
        positions_path = shard_path(Path(root) / "positions", chunk)
        if positions_path.exists():
            positions = load_shard(positions_path)
        else:
            started = time.perf_counter()
            positions = make(chunk)
            save_shard(positions_path, positions)
            log(f"{what} positions {chunk}: {describe(positions)} in {time.perf_counter() - started:.1f} s")
        labels_path = shard_path(Path(root) / "labels", chunk)
        if not labels_path.exists():
            started = time.perf_counter()
            labelled = label(positions, chunk)
            save_shard(labels_path, labelled)
            log(f"{what} labels {chunk}: {describe(labelled)} in {time.perf_counter() - started:.1f} s")


def build_races(root: Path, seed: int, chunks: range, generation: GenerationSettings = RACE_GENERATION,
                plan: LabelPlan = TRAINING_PLAN, executor: cf.Executor | None = None, log: Log = _quiet) -> None:
    """Race-only chunks, each from ``RACE_SCENARIOS``, rolled out by ``plan``."""
    build_independent_chunks(root, chunks, lambda chunk: generate_chunk(seed, chunk, generation, set(), RACE_SCENARIOS),
                             lambda positions, chunk: label_shard(positions, seed, chunk, plan, executor), log, "race")


def build_hard(root: Path, seed: int, chunks: range, generation: GenerationSettings = HARD_GENERATION,
               plan: LabelPlan = HARD_PLAN, executor: cf.Executor | None = None, log: Log = _quiet) -> None:
    """Hard-position chunks: the contact and crashed positions of games from ``HARD_SCENARIOS``
    (races dropped), each rolled out by ``plan`` (full games: ``HARD_PLAN``)."""

    def make(chunk: int) -> Shard:
        sampled = generate_chunk(seed, chunk, generation, set(), HARD_SCENARIOS)
        return only_rows(sampled, sampled.classes != PositionClass.RACE)

    build_independent_chunks(root, chunks, make,
                             lambda positions, chunk: label_shard(positions, seed, chunk, plan, executor), log, "hard")


def build_distill(root: Path, seed: int, chunks: range, plies: int = 2, teacher_weights: Path | None = None,
                  generation: GenerationSettings = GenerationSettings(), children: int = 0, contact_only: bool = False,
                  races_only: bool = False, race_teacher: Path | None = None, log: Log = _quiet,
                  teacher_crashed: Path | None = None, rollout_plan: LabelPlan | None = None) -> None:
    """Distillation chunks: the training set's kind of positions (opening and hard-class
    starts), with the ``children`` best 0-ply moves of a seeded roll of each
    (``positions.with_candidate_children``) when ``children`` > 0, races dropped when
    ``contact_only`` (the engine values them with its race tables), everything but races
    dropped when ``races_only`` (data for the race network), each valued by the teacher's
    ``plies``-ply search (``search_teacher``). Each labels shard's meta names the teacher's
    networks. With ``rollout_plan`` the same positions are rolled out by the shipped engine
    instead (``label_shard``): labels that carry no search bias, such as the gammon rates a
    search inherits from its leaves, at a larger cost and with noise."""
    if contact_only and races_only:
        raise ValueError("contact_only and races_only exclude each other")
    if rollout_plan is not None and (teacher_weights or teacher_crashed or race_teacher):
        raise ValueError("rollout labels are played by the package's engine: name no teacher")

    def make(chunk: int) -> Shard:
        sampled = generate_chunk(seed, chunk, generation, set())
        made = with_candidate_children(sampled, seed, chunk, children) if children else sampled
        if contact_only:
            return only_rows(made, made.classes != PositionClass.RACE)
        return only_rows(made, made.classes == PositionClass.RACE) if races_only else made

    if rollout_plan is not None:
        plan = rollout_plan
        build_independent_chunks(root, chunks, make,
                                 lambda positions, chunk: label_shard(positions, seed, chunk, plan), log, "rollout")
        return
    teacher, name = search_teacher(teacher_weights, race_teacher, teacher_crashed)
    build_independent_chunks(root, chunks, make,
                             lambda positions, chunk: search_label_shard(positions, teacher, plies, name), log, "distill")


def search_teacher(weights: Path | None = None, race_teacher: Path | None = None,
                   crashed: Path | None = None) -> tuple[NetworkEvaluator, str]:
    """The n-ply teacher and its name for the shards' meta: the contact weights file's digest
    (default: the shipped file); then "+crashed:" and the crashed network's digest when it
    has one (``crashed``, else the shipped one when ``weights`` is the shipped file); then
    " races " and the race network's digest when races at its leaves are valued by
    ``race_teacher`` (else by the race approximation)."""
    races = None if race_teacher is None else RaceNetwork.from_file(race_teacher)
    if weights is None:
        with resources.as_file(resources.files("bgengine").joinpath(WEIGHTS_RESOURCE)) as path:
            network, name = load_network(path, position_class="contact"), weights_digest(path)
        crashed_network = shipped_crashed_network() if crashed is None else crashed_network_of(crashed)
    else:
        network, name = load_network(weights, position_class="contact"), weights_digest(weights)
        crashed_network = crashed_network_of(crashed)
    teacher = NetworkEvaluator(network, race_network=races, crashed_network=crashed_network)
    if teacher.crashed_network is not None:
        name += f"+crashed:{network_digest(teacher.crashed_network)}"
    if race_teacher is not None:
        name += f" races {weights_digest(race_teacher)}"
    return teacher, name


def build_relabel(source: Path, root: Path, classes: tuple[int, ...], plies: int = 2,
                  teacher_weights: Path | None = None, race_teacher: Path | None = None, worker: int = 0,
                  workers: int = 1, log: Log = _quiet) -> None:
    """The positions of ``classes`` in every label shard of ``source`` valued again by the
    teacher's ``plies``-ply search (``search_teacher``), into ``root/labels`` under the same
    shard index (so ``corpus`` gives them the same role): the same positions under
    another kind of label. Finished shards are skipped; this process takes the shards
    ``worker``, ``worker + workers``, ... of the sorted list."""
    teacher, name = search_teacher(teacher_weights, race_teacher)
    for path in shard_paths(Path(source))[worker::workers]:
        target = Path(root) / "labels" / path.name
        if target.exists():
            continue
        started = time.perf_counter()
        shard = load_shard(path)
        kept = only_rows(shard, np.isin(shard.classes, classes))
        labelled = search_label_shard(replace(kept, meta={**kept.meta, "chunk": shard_index(path),
                                                          "relabelled_from": str(path)}), teacher, plies, name)
        save_shard(target, labelled)
        log(f"relabel {path}: {describe(labelled)} in {time.perf_counter() - started:.1f} s")


def only_rows(shard: Shard, keep: np.ndarray) -> Shard:
    """The unlabelled shard's rows where ``keep`` is true (``meta["kept_rows"]`` records which)."""
    rows = np.flatnonzero(keep)
    return Shard(shard.boards[rows], shard.classes[rows], shard.tags[rows], {**shard.meta, "kept_rows": rows.tolist()})


def truth_category(position_class: int, tag: int) -> str:
    """The truth-set category of a position (back game and closed-out tags come first)."""
    if tag & Tag.BACK_GAME:
        return "back_game"
    if tag & Tag.CLOSED_OUT:
        return "closed_out"
    return PositionClass(position_class).name.lower()


def select_truth_positions(seed: int, quotas: dict[str, int], generation: GenerationSettings) -> Shard:
    """Positions of the truth set: chunks of seed ``seed`` scanned in order, each category
    filled to its quota, then interleaved so every prefix covers all categories."""
    buckets: dict[str, list[int]] = {name: [] for name in quotas}
    boards: list[np.ndarray] = []
    classes: list[int] = []
    found_tags: list[int] = []
    seen: set[bytes] = set()
    chunk = 0
    while any(len(buckets[name]) < quota for name, quota in quotas.items()):
        shard = generate_chunk(seed, chunk, generation, seen)
        for board, position_class, tag in zip(shard.boards, shard.classes, shard.tags):
            bucket = buckets[truth_category(int(position_class), int(tag))]
            if len(bucket) < quotas[truth_category(int(position_class), int(tag))]:
                bucket.append(len(boards))
                boards.append(board)
                classes.append(int(position_class))
                found_tags.append(int(tag))
        chunk += 1
    order = [bucket[i] for i in range(max(quotas.values())) for bucket in buckets.values() if i < len(bucket)]
    meta = {"seed": seed, "kind": "truth positions", "chunks_scanned": chunk, "quotas": quotas,
            "generation": asdict(generation), "categories": [truth_category(classes[i], found_tags[i]) for i in order]}
    return Shard(np.array(boards, dtype=np.int8)[order], np.array(classes, dtype=np.int8)[order],
                 np.array(found_tags, dtype=np.uint8)[order], meta)


def build_truth(root: Path, seed: int, quotas: dict[str, int] = TRUTH_QUOTAS,
                generation: GenerationSettings = TRUTH_GENERATION, plan: LabelPlan = TRUTH_PLAN,
                shard_size: int = TRUTH_SHARD_SIZE, executor: cf.Executor | None = None, log: Log = _quiet,
                worker: int = 0, workers: int = 1) -> None:
    """Select the truth positions (``root/positions.npz``) and label them in shards
    (``root/labels``), skipping whatever is already made; this process labels the shards whose
    index is ``worker`` modulo ``workers`` (a shard's labels depend only on the seed and its index)."""
    positions_path = Path(root) / "positions.npz"
    if positions_path.exists():
        selected = load_shard(positions_path)
    else:
        selected = select_truth_positions(seed, quotas, generation)
        save_shard(positions_path, selected)
        log(f"truth positions: {describe(selected)}")
    for index, start in enumerate(range(0, len(selected), shard_size)):
        labels_path = shard_path(Path(root) / "labels", index)
        if labels_path.exists() or index % workers != worker:
            continue
        part = slice(start, start + shard_size)
        piece = Shard(selected.boards[part], selected.classes[part], selected.tags[part],
                      {**selected.meta, "categories": selected.meta["categories"][part], "first": start})
        started = time.perf_counter()
        labelled = label_shard(piece, seed, index, plan, executor)
        save_shard(labels_path, labelled)
        log(f"truth labels {index}: {describe(labelled)} in {time.perf_counter() - started:.1f} s")

"""How well networks tell sibling plays apart, on the held-out test shards of distillation sets.

Sibling plays are the candidate children of one roll (``bgengine.training.siblings``). For each
network: the RMS of its equity errors against the labels, and the RMS of the differences
between the errors of two siblings (what a move choice sees; 0 if every sibling's error were
the same). Contact positions by default, the crashed slot holding the shipped crashed network
unless ``--crashed-weights`` says otherwise; ``--class crashed`` compares crashed networks
instead, on the crashed positions, with the shipped contact network beside them.
``--by-tag`` also gives the difference RMS by the kind of position (``classes.Tag``: a group
counts under every tag one of its plays has, "untagged" when none has any).

    python benchmarks/sibling_errors.py --weights A.npz B.npz --data D/distill-x14teach/labels D/distill-x15teach/labels
    python benchmarks/sibling_errors.py --class crashed --weights C1.npz C2.npz --data ...
    python benchmarks/sibling_errors.py --by-tag --weights A.npz --data ...
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np

from bgengine.evaluation.evaluator import NetworkEvaluator, default_evaluator, shipped_crashed_network
from bgengine.evaluation.network_weights import load_network
from bgengine.training.classes import PositionClass, Tag
from bgengine.training.corpus import TEST, shard_index, shard_role
from bgengine.training.dataset import load_shard, shard_paths
from bgengine.training.siblings import NO_GROUP, sibling_groups
from bgengine.training.supervised import EQUITY_WEIGHTS, sibling_squared_differences


def held_out_errors(evaluators: dict[str, NetworkEvaluator], directories: list[Path],
                    position_class: PositionClass = PositionClass.CONTACT
                    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """Each network's equity errors on the test shards' positions of ``position_class``, their
    groups (unique across shards, NO_GROUP for none) and their tags (``classes.Tag`` masks)."""
    errors: dict[str, list[np.ndarray]] = {name: [] for name in evaluators}
    groups, tags, offset = [], [], 0
    for directory in directories:
        for path in shard_paths(directory):
            if shard_role(shard_index(path)) != TEST:
                continue
            shard = load_shard(path)
            if not shard.labelled:
                continue
            chosen = shard.classes == position_class
            for name, evaluator in evaluators.items():
                errors[name].append((evaluator.evaluate_batch(shard.boards[chosen]) - shard.probabilities[chosen])
                                    @ EQUITY_WEIGHTS)
            shard_groups = sibling_groups(shard)
            groups.append(np.where(shard_groups >= 0, shard_groups + offset, NO_GROUP)[chosen])
            tags.append(shard.tags[chosen])
            offset += int(shard_groups.max(initial=NO_GROUP)) + 1
    return ({name: np.concatenate(rows) for name, rows in errors.items()}, np.concatenate(groups),
            np.concatenate(tags))


def sibling_rms(errors: np.ndarray, groups: np.ndarray) -> tuple[float, int]:
    """RMS of the difference of two siblings' errors over all pairs, and the number of pairs."""
    total, _, pairs = sibling_squared_differences(errors, groups)
    return math.sqrt(total / pairs), pairs


def groups_by_tag(groups: np.ndarray, tags: np.ndarray) -> dict[str, np.ndarray]:
    """Per tag (and "untagged"), ``groups`` with every group none of whose rows has the tag
    (untagged: any tag) set to NO_GROUP, so that sibling_rms counts only the others' pairs."""
    grouped = groups >= 0
    union = np.zeros(int(groups.max(initial=-1)) + 1, dtype=np.int64)
    np.bitwise_or.at(union, groups[grouped], tags[grouped].astype(np.int64))
    group_tags = np.where(grouped, union[np.maximum(groups, 0)], 0)
    kept = {"untagged": grouped & (group_tags == 0)}
    kept.update({tag.name.lower(): grouped & ((group_tags & tag.value) != 0) for tag in Tag if tag.value})
    return {name: np.where(mask, groups, NO_GROUP) for name, mask in kept.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--class", dest="position_class", choices=("contact", "crashed"), default="contact",
                        help="the networks compared and the positions they are scored on")
    parser.add_argument("--weights", type=Path, nargs="+", required=True, help="networks of that class to compare")
    parser.add_argument("--crashed-weights", type=Path,
                        help="contact: the crashed slot (default: the shipped crashed network)")
    parser.add_argument("--data", type=Path, nargs="+", required=True, help="label directories of distillation sets")
    parser.add_argument("--by-tag", action="store_true", help="also the difference RMS by kind of position")
    args = parser.parse_args()
    if args.position_class == "crashed":
        if args.crashed_weights:
            parser.error("--crashed-weights is for --class contact; with --class crashed, --weights are the crashed networks")
        contact = default_evaluator().network
        evaluators = {str(path): NetworkEvaluator(contact, crashed_network=load_network(path, position_class="crashed"))
                      for path in args.weights}
    else:
        crashed = args.crashed_weights or shipped_crashed_network()
        evaluators = {str(path): NetworkEvaluator.from_file(path, crashed_network=crashed) for path in args.weights}
    errors, groups, tags = held_out_errors(evaluators, args.data, PositionClass[args.position_class.upper()])
    tagged = groups_by_tag(groups, tags) if args.by_tag else {}
    for name, values in errors.items():
        rms, pairs = sibling_rms(values, groups)
        print(f"{name}: {len(values)} positions, equity error RMS {np.sqrt(np.mean(values ** 2)):.5f},"
              f" mean |error| {np.mean(np.abs(values)):.5f}; {pairs} sibling pairs, difference RMS {rms:.5f}")
        for tag, tag_groups in tagged.items():
            if (tag_groups >= 0).any():
                tag_rms, tag_pairs = sibling_rms(values, tag_groups)
                print(f"  {tag}: {tag_pairs} pairs, difference RMS {tag_rms:.5f}")


if __name__ == "__main__":
    main()

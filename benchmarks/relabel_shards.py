"""Copy label shards with a network's 0-ply probabilities as their labels: the data for fitting
one network to another (a 128-unit student of a wider side-by-side network, say).

    python benchmarks/relabel_shards.py D/set22/labels D/set22-pair/labels --weights D/cand/avg256.npz

Everything but the probabilities is kept (boards, classes, tags, seeds, so the same splits and
sibling groups); the meta records the network that gave the labels.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

import numpy as np

from bgengine.evaluation.network_weights import load_network, network_digest
from bgengine.training.dataset import Shard, load_shard, save_shard, shard_paths


def relabelled(shard: Shard, network, weights: Path) -> Shard:
    """``shard`` with ``network``'s probabilities of its boards (player on roll's view) as labels."""
    probabilities = network.evaluate(np.ascontiguousarray(shard.boards, dtype=np.int8)).astype(np.float64)
    meta = {**shard.meta, "relabelled_by": {"weights": str(weights), "digest": network_digest(network)}}
    return dataclasses.replace(shard, meta=meta, probabilities=probabilities)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="a folder of label shards")
    parser.add_argument("destination", type=Path)
    parser.add_argument("--weights", type=Path, required=True, help="the network whose 0-ply gives the labels")
    args = parser.parse_args()
    network = load_network(args.weights)
    paths = shard_paths(args.source)
    for path in paths:
        save_shard(args.destination / path.name, relabelled(load_shard(path), network, args.weights))
    print(f"{len(paths)} shards relabelled into {args.destination}")


if __name__ == "__main__":
    main()

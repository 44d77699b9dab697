"""Write two one-layer networks' logit average as one wider weights file the engine loads.

    python benchmarks/side_by_side.py python/bgengine/data/evaluator_weights.npz \\
        training/candidates/s22-fresh128.npz --first-share 0.5 --out D/avg256.npz

Each input is a weights file or a ``depth_probe.py`` checkpoint (its best weights). The result
is ``network_weights.side_by_side``: judge it with ``judge.py --weights``, duel it with
``bench_evaluator.py strength --weights``.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

import numpy as np

from bgengine.evaluation.network_weights import (load_network, network_parameters, save_network_weights,
                                                 side_by_side, widened)
from bgengine.training.labels import weights_digest
from bgengine.training.supervised import load_checkpoint

ENCODING = 3


def one_layer_parameters(path: Path) -> dict[str, np.ndarray]:
    """Trainer-oriented parameters of a weights file, or of a fit checkpoint's best weights."""
    with np.load(path) as data:
        is_checkpoint = "state" in data.files
    if is_checkpoint:
        return {key: np.asarray(value, dtype=np.float64) for key, value in load_checkpoint(path)[0].best.items()}
    return network_parameters(widened(load_network(path), ENCODING))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("--first-share", type=float, default=0.5)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--name", default="side by side", help="the network's name in its record")
    parser.add_argument("--note", help="a line for the record (what the network is for)")
    args = parser.parse_args()
    combined = side_by_side(one_layer_parameters(args.first), one_layer_parameters(args.second), args.first_share)
    record = {"name": args.name, "encoding": ENCODING, "first": str(args.first), "second": str(args.second),
              "first_share": args.first_share,
              "inputs_sha256_16": [weights_digest(args.first), weights_digest(args.second)],
              "made_by": "python benchmarks/side_by_side.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])}
    if args.note:
        record["note"] = args.note
    save_network_weights(args.out, combined, record)
    print(f"{args.out}: {combined['hidden_bias'].size} hidden units")


if __name__ == "__main__":
    main()

"""Write two one-layer networks' logit average as one wider weights file the engine loads.

    python benchmarks/side_by_side.py python/bgengine/data/evaluator_weights.npz \\
        training/candidates/s22-fresh128.npz --first-share 0.5 --out D/avg256.npz

Each input is a weights file or a ``depth_probe.py`` checkpoint (its best weights). The result
is ``network_weights.side_by_side``: judge it with ``judge.py --weights``, duel it with
``bench_evaluator.py strength --weights``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from bgengine.evaluation.network_weights import (load_network, network_parameters, save_network_weights,
                                                 side_by_side, widened)
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
    args = parser.parse_args()
    combined = side_by_side(one_layer_parameters(args.first), one_layer_parameters(args.second), args.first_share)
    record = {"name": "side by side", "encoding": ENCODING, "first": str(args.first), "second": str(args.second),
              "first_share": args.first_share}
    save_network_weights(args.out, combined, record)
    print(f"{args.out}: {combined['hidden_bias'].size} hidden units")


if __name__ == "__main__":
    main()

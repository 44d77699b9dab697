"""Are the 0-ply gammon rates too low, and would scaling them help checker play?

    python benchmarks/gammon_calibration.py            # the large checker judge set, contact decisions
    python benchmarks/gammon_calibration.py --scales 1 1.05 1.1 1.2

Two measuring sticks on the committed judge set (gnubg is not needed; nothing is fitted on
its values):

* **bias**: the engine's 0-ply 5-vector of every listed play's resulting position (as its
  rankings value it: by the choice network when the package ships one) minus
  gnubg's 2-ply one, averaged (the mover's view): a negative win-gammon and lose-gammon bias
  is a network that sees too few gammons for both sides;
* **scaled choice**: the 0-ply best play among the listed plays (every legal play) when both
  gammon rates are multiplied by ``k`` (capped by the win and loss rates), scored as the
  judge scores it (mEMG given up against gnubg's best). ``k`` = 1 reproduces
  ``judge.py checker --plies 0 --set large`` on the same decisions.

The truth set gives the same bias against the engine's own full rollouts
(``truth_set.py``, second table).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge_data import CHECKER_SETS, read_judge_set  # noqa: E402

from bgengine import Position  # noqa: E402
from bgengine.evaluation.evaluator import default_evaluator  # noqa: E402
from bgengine.probabilities import equity, flipped  # noqa: E402

OUTPUTS = ("win", "win gammon", "win backgammon", "lose gammon", "lose backgammon")


def candidate_values(decisions: list[dict]) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int]]]:
    """(ours, gnubg's) mover's 5-vectors of every listed play, and (decision, play) indices."""
    boards, theirs, index = [], [], []
    for i, decision in enumerate(decisions):
        for j, play in enumerate(decision["plays"]):
            boards.append(np.frombuffer(Position.from_gnubg_id(play["position_id"]).to_bytes(), dtype=np.int8))
            theirs.append(play["probabilities"])
            index.append((i, j))
    ranking = default_evaluator().ranking_evaluator()  # what plays are ranked by (a choice network, if shipped)
    after = np.asarray(ranking.evaluate_batch(np.array(boards)), dtype=np.float64)  # opponent on roll
    return flipped(after), np.asarray(theirs, dtype=np.float64), index


def with_scaled_gammons(values: np.ndarray, scale: float) -> np.ndarray:
    """Both gammon rates times ``scale``, capped by the win and the loss rates."""
    scaled = values.copy()
    scaled[:, 1] = np.minimum(values[:, 1] * scale, values[:, 0])
    scaled[:, 3] = np.minimum(values[:, 3] * scale, 1.0 - values[:, 0])
    return scaled


def given_up(decisions: list[dict], values: np.ndarray, index: list[tuple[int, int]]) -> float:
    """Mean mEMG given up (gnubg's equities) by the best listed play by ``values``' equity."""
    equities = equity(values)
    best: dict[int, tuple[float, int]] = {}
    for k, (i, j) in enumerate(index):
        if i not in best or equities[k] > best[i][0]:
            best[i] = (float(equities[k]), j)
    return float(np.mean([1000 * (decisions[i]["plays"][0]["equity"] - decisions[i]["plays"][j]["equity"])
                          for i, (_, j) in best.items()]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(CHECKER_SETS), default="large")
    parser.add_argument("--class", dest="kind", choices=("contact", "race"), default="contact")
    parser.add_argument("--scales", type=float, nargs="+", default=[1.0, 1.05, 1.1, 1.2])
    args = parser.parse_args()
    decisions = [d for d in read_judge_set(CHECKER_SETS[args.set])[1] if d["class"] == args.kind]
    ours, theirs, index = candidate_values(decisions)
    difference = ours - theirs
    print(f"{len(decisions)} {args.kind} decisions, {len(index)} plays: engine 0-ply minus gnubg 2-ply")
    for column, name in enumerate(OUTPUTS):
        print(f"  {name:16} bias {difference[:, column].mean():+.4f}   mean |difference| {np.abs(difference[:, column]).mean():.4f}")
    print(f"  {'equity':16} bias {(equity(ours) - equity(theirs)).mean():+.4f}")
    for scale in args.scales:
        print(f"gammons x {scale:g}: {given_up(decisions, with_scaled_gammons(ours, scale), index):.3f} mEMG given up")


if __name__ == "__main__":
    main()

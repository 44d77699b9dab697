"""Paired differences between two judge.py runs on the same decisions: is B better than A beyond noise?

    python benchmarks/judge.py checker --plies 0 --set large --out A.json
    python benchmarks/judge.py checker --plies 0 --set large --weights W.npz --out B.json
    python benchmarks/judge.py checker --compare A.json B.json

Both runs face the same decisions, so the difference B - A of what each gives up (checker
play: mEMG given up; cube: |ND diff| + |DT diff|) is taken decision by decision and averaged
per class, with the standard error of that mean: the spread between easy and hard decisions
cancels. A few big misses still carry the mean, so the share of decisions where each run did
better, with a two-sided sign test over those decisions, stands beside it.
"""

from __future__ import annotations

import datetime
import json
import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Row = dict[str, Any]


class UnpairedRunsError(ValueError):
    """The two runs did not score the same decisions of the same set."""


@dataclass(frozen=True)
class Compared:
    """What is compared for one kind of judge set: the per-decision loss, the grouping, the decision's key."""

    loss: str
    group: str
    key: Callable[[Row], tuple[Any, ...]]
    unit: str
    engine_group: str = ""  # a second grouping, by the engine's own class, in runs that record it


COMPARED = {
    "checker": Compared("given_up", "class", lambda s: (s["position_id"], *s["dice"]), "mEMG given up", "engine_class"),
    "cube": Compared("equity_gap", "scenario", lambda s: (s["xgid"],), "|ND diff| + |DT diff|"),
}


def mean(values: list[float]) -> float:
    """The mean, nan for no values."""
    return sum(values) / len(values) if values else float("nan")


def standard_error(values: list[float]) -> float:
    """The standard error of the mean (sample standard deviation over sqrt(n)); nan below two values."""
    if len(values) < 2:
        return float("nan")
    centre = mean(values)
    return math.sqrt(sum((v - centre) ** 2 for v in values) / (len(values) - 1) / len(values))


def sign_test_p(wins: int, losses: int) -> float:
    """Two-sided exact sign test: the chance of a split at least this uneven if either side were as likely to win."""
    trials = wins + losses
    if trials == 0:
        return 1.0
    tail = sum(math.comb(trials, k) for k in range(min(wins, losses) + 1))
    return min(1.0, 2 * tail / 2**trials)


def write_run(path: Path, command: list[str], commit: str, summary: Row, scores: list[Row]) -> None:
    """Write a run's ``--out`` file: the command, the commit, the date, the summary, one line per decision."""
    head = {"command": " ".join(["python", *command]), "bgengine_commit": commit,
            "date": datetime.date.today().isoformat(), "summary": summary}
    lines = ",\n  ".join(json.dumps(score) for score in scores)
    Path(path).write_text(json.dumps(head, indent=1)[:-2] + f',\n "scores": [\n  {lines}\n ]\n}}\n')


def read_run(path: Path) -> tuple[Row, list[Row]]:
    """(summary, per-decision scores) of a ``judge.py --out`` file."""
    data = json.loads(Path(path).read_text())
    return data["summary"], data["scores"]


def paired_differences(first: list[Row], second: list[Row], kind: str, tie: float = 1e-6) -> dict[str, Row]:
    """Per group and "all": n, each run's mean loss, the mean of second - first with its standard
    error, the shares where each did better (by more than ``tie``) or the same, and the sign test."""
    compared = COMPARED[kind]
    by_key = {compared.key(score): score for score in first}
    if len(by_key) != len(first) or {compared.key(score) for score in second} != set(by_key) \
            or len(second) != len(first):
        raise UnpairedRunsError(f"the runs scored different decisions ({len(first)} and {len(second)})")
    groups: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for score in second:
        pair = (by_key[compared.key(score)][compared.loss], score[compared.loss])
        groups[score[compared.group]].append(pair)
        if compared.engine_group in score:
            groups[f"engine: {score[compared.engine_group]}"].append(pair)
        groups["all"].append(pair)
    table = {}
    for name in sorted(groups, key=lambda g: (g == "all", g)):
        pairs = groups[name]
        differences = [b - a for a, b in pairs]
        second_better = sum(d < -tie for d in differences)
        first_better = sum(d > tie for d in differences)
        table[name] = {
            "n": len(pairs), "first_mean": mean([a for a, _ in pairs]), "second_mean": mean([b for _, b in pairs]),
            "mean_difference": mean(differences), "standard_error": standard_error(differences),
            "second_better": second_better / len(pairs), "first_better": first_better / len(pairs),
            "same": (len(pairs) - second_better - first_better) / len(pairs),
            "sign_test_p": sign_test_p(second_better, first_better),
        }
    return table


def compare_runs(first_path: Path, second_path: Path, kind: str) -> dict[str, Row]:
    """``paired_differences`` of two ``judge.py --out`` files, checked to be runs on the same set."""
    (first_summary, first), (second_summary, second) = read_run(first_path), read_run(second_path)
    for summary, path in ((first_summary, first_path), (second_summary, second_path)):
        if ("by_class" in summary) != (kind == "checker"):
            raise UnpairedRunsError(f"{path} is not a {kind} run")
    if first_summary["set"] != second_summary["set"]:
        raise UnpairedRunsError(f"the runs used different sets: {first_summary['set']} and {second_summary['set']}")
    return paired_differences(first, second, kind)


def print_comparison(table: dict[str, Row], kind: str, first_path: Path, second_path: Path) -> None:
    """The paired table: B - A below zero means B gives up less."""
    print(f"A = {first_path}\nB = {second_path}\n{COMPARED[kind].unit}: B - A per decision "
          f"(below zero: B better); shares of decisions where each did better; sign test over those\n")
    print(f"  {'':28}{'n':>5}{'A mean':>10}{'B mean':>10}{'B - A':>10}{'+- se':>9}"
          f"{'B better':>10}{'A better':>10}{'same':>8}{'sign p':>9}")
    for name, row in table.items():
        print(f"  {name:28}{row['n']:>5}{row['first_mean']:>10.3f}{row['second_mean']:>10.3f}"
              f"{row['mean_difference']:>10.3f}{row['standard_error']:>9.3f}{row['second_better']:>10.1%}"
              f"{row['first_better']:>10.1%}{row['same']:>8.1%}{row['sign_test_p']:>9.3g}")

"""The judge sets' files: where they are, how they are read and written, and the words they use.

Each file is JSON Lines: the first line is ``{"header": {...}}`` (how the set was made), every
other line one decision. Written by make_judge_checker.py and make_judge_cube.py (with gnubg),
read by judge.py and tests/test_judge_sets.py (without it).
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bgengine import Phase, Position

DATA = Path(__file__).resolve().parent / "data"
CHECKER_SET = DATA / "judge_checker.jsonl"
#: The checker-play sets by name: the first 440 decisions, a larger one (seed 14) for finer comparisons
#: and 3,000 contact decisions (seed 15) for comparisons with gnubg's own 0-ply.
CHECKER_SETS = {"small": CHECKER_SET, "large": DATA / "judge_checker_large.jsonl",
                "xl": DATA / "judge_checker_xl.jsonl"}

CUBE_SET = DATA / "judge_cube.jsonl"


def add_set_option(parser: Any) -> None:
    """The judge scripts' ``--set`` option (on a parser or an argument group): which checker-play set."""
    parser.add_argument("--set", dest="checker_set", choices=tuple(CHECKER_SETS), default="small",
                        help="checker play: the committed 440-decision set (small, the default) or the 2,000 one")


def chosen_set(kind: str, checker_set: str) -> Path:
    """The set file of ``kind`` ("checker" or "cube") and ``--set``; SystemExit for a cube ``--set``."""
    if kind != "checker" and checker_set != "small":
        raise SystemExit("--set applies to checker play only (there is one cube set)")
    return CHECKER_SETS[checker_set] if kind == "checker" else CUBE_SET


#: Verdict families compared by the cube judge.
FAMILIES = ("no double", "double-take", "double-pass", "too good")


def read_judge_set(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(header, decisions) of a judge-set file."""
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])["header"]
    return header, [json.loads(line) for line in lines[1:] if line.strip()]


def write_judge_set(path: Path, header: dict[str, Any], decisions: list[dict[str, Any]]) -> None:
    """Write a judge-set file: the header line, then one compact line per decision."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"header": header})] + [json.dumps(row, separators=(",", ":")) for row in decisions]
    path.write_text("\n".join(lines) + "\n")


def decision_class(position: Position) -> str:
    """ "contact" while the sides can still hit each other, else "race" (bear-offs included)."""
    return "contact" if position.phase is Phase.CONTACT else "race"


def verdict_family(text: str) -> str:
    """The family of a cube verdict, gnubg's ("Double, take") or ours ("Double / take").

    Redoubles count as doubles, beavers as takes, gnubg's "Optional double" as a double.
    """
    lowered = text.lower()
    if lowered.startswith("too good"):
        return "too good"
    if lowered.startswith(("no double", "no redouble")):
        return "no double"
    if not lowered.startswith(("double", "redouble", "optional double", "optional redouble")):
        raise ValueError(f"unknown cube verdict {text!r}")
    return "double-pass" if lowered.replace("/", ",").rsplit(",", 1)[-1].strip().startswith("pass") else "double-take"


def git_commit() -> str:
    """The short commit of the checkout this runs from."""
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          cwd=Path(__file__).parent)
    return done.stdout.strip()


def provenance(seed: int, games: int, started: float) -> dict[str, Any]:
    """How a set was made, for its header: command, seeds, gnubg's version, date, commit, time taken."""
    from gnubg_bridge import gnubg_version  # the makers need gnubg; readers of the sets do not

    return {
        "command": " ".join(["python", *sys.argv]), "seed": seed, "games": games, "gnubg": gnubg_version(),
        "selfplay": "gnubg 0-ply vs itself, cube off, dice: set rng mersenne + set seed SEED",
        "date": datetime.date.today().isoformat(), "bgengine_commit": git_commit(),
        "seconds": round(time.perf_counter() - started),
    }

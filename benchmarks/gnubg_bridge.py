"""A bridge to GNU Backgammon (Debian package ``gnubg``), used only as an external measuring stick.

Never imported by the bgengine package: benchmarks and comparison tests use it and skip
when gnubg is absent. Each call starts one gnubg process in its Python-script mode
(``gnubg -t -q -p _gnubg_worker.py``) and sends it a whole batch of jobs as JSON, so
thousands of positions cost one start-up. Probabilities and equities are cubeless unless
said otherwise, from the view of the player on roll of the position given.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bgengine import CubeAction, MatchState, Move, Position

WORKER = Path(__file__).resolve().parent / "_gnubg_worker.py"
DEBIAN_PATH = "/usr/games/gnubg"
TIMEOUT_SECONDS_PER_JOB = 5.0
TIMEOUT_SECONDS_PER_GAME = 3.0  # self-play: gnubg sleeps ~10 ms between its moves


class GnubgError(RuntimeError):
    """gnubg could not be run, or did not answer a job."""


def gnubg_executable() -> str | None:
    """The gnubg program: $BGENGINE_GNUBG, else ``gnubg`` on PATH, else Debian's /usr/games/gnubg."""
    for candidate in (os.environ.get("BGENGINE_GNUBG"), shutil.which("gnubg"), DEBIAN_PATH):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def gnubg_available() -> bool:
    """Is a gnubg with Python scripting installed? (Runs one empty batch the first time.)"""
    global _AVAILABLE
    if _AVAILABLE is None:
        try:
            _AVAILABLE = gnubg_executable() is not None and run_jobs([]) == []
        except GnubgError:
            _AVAILABLE = False
    return _AVAILABLE


_AVAILABLE: bool | None = None


def run_jobs(jobs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Send ``jobs`` to one gnubg process and return its replies in order (see _gnubg_worker.py)."""
    program = gnubg_executable()
    if program is None:
        raise GnubgError("gnubg is not installed (Debian: apt-get install gnubg)")
    with tempfile.TemporaryDirectory(prefix="bgengine-gnubg-") as folder:
        request, reply = Path(folder) / "request.json", Path(folder) / "reply.json"
        request.write_text(json.dumps(list(jobs)))
        env = dict(os.environ, BGENGINE_GNUBG_REQUEST=str(request), BGENGINE_GNUBG_REPLY=str(reply))
        try:
            done = subprocess.run(
                [program, "-t", "-q", "-p", str(WORKER)],
                env=env, cwd=folder, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                timeout=30 + TIMEOUT_SECONDS_PER_JOB * len(jobs)
                + TIMEOUT_SECONDS_PER_GAME * sum(job.get("games", 0) for job in jobs),
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            raise GnubgError(f"running {program} failed: {error}") from error
        if not reply.exists():
            raise GnubgError(f"{program} wrote no reply (exit {done.returncode}): {done.stderr.strip()[-500:]}")
        replies: list[dict[str, Any]] = json.loads(reply.read_text())
    if len(replies) != len(jobs):
        raise GnubgError(f"gnubg answered {len(replies)} of {len(jobs)} jobs")
    return replies


def _answered(reply: dict[str, Any]) -> dict[str, Any]:
    if "error" in reply:
        raise GnubgError(reply["error"])
    return reply


# ----- our positions and states in gnubg's terms ----------------------------------------


def gnubg_board(position: Position) -> list[list[int]]:
    """gnubg's board: [opponent's, player on roll's] counts on points 1..24 (own view), then bar."""
    slots = position.to_bytes()
    signed = [s - 256 if s > 127 else s for s in slots]
    mover = [max(signed[p], 0) for p in range(1, 25)] + [signed[25]]
    opponent = [max(-signed[25 - p], 0) for p in range(1, 25)] + [-signed[0]]
    return [opponent, mover]


def _cube_job(kind: str, position: Position | None, match: MatchState, plies: int = 0) -> dict[str, Any]:
    job = {
        "kind": kind, "cube": match.cube_value, "owner": match.cube_owner, "on_roll": match.on_roll,
        "match_length": match.match_length, "score": list(match.score), "crawford": int(match.crawford),
        "jacoby": int(match.jacoby),
        "dice": list(match.dice) if match.dice else None, "plies": plies,
    }
    if position is not None:
        job["board"] = gnubg_board(position)
    return job


# ----- results ----------------------------------------------------------------------------


@dataclass(frozen=True)
class GnubgMove:
    """One legal move as gnubg ranks it: its text, our Move and the position after it, equity, probabilities.

    ``equity`` and ``probabilities`` are the mover's (cubeless unless asked for cubeful);
    ``position`` is seen from the next player, as bgengine's move generation gives it.
    """

    text: str
    move: Move
    position: Position
    equity: float
    probabilities: tuple[float, ...]
    plies: int


@dataclass(frozen=True)
class GnubgEvaluation:
    """gnubg's cubeless evaluation of a position (player on roll, before rolling)."""

    probabilities: tuple[float, ...]
    equity: float
    position_class: int  # gnubg's class: 4 = two-sided bear-off database (exact), 8 = race, 10 = contact

    BEAROFF_DATABASE = 4


@dataclass(frozen=True)
class GnubgCube:
    """gnubg's cubeful cube decision; equities are the doubler's, normalised (money per cube, EMG)."""

    no_double: float
    double_take: float
    double_pass: float
    optimal: float
    recommendation: str

    @property
    def doubler_choice(self) -> str:
        """ "no double", "double" or "too good", from gnubg's recommendation text."""
        return doubler_choice(self.recommendation)

    @property
    def response(self) -> str:
        """ "take", "pass" or "beaver", from gnubg's recommendation text."""
        return self.recommendation.lower().rsplit(",", 1)[-1].strip().split()[0]


def doubler_choice(text: str) -> str:
    """The doubler's part of a recommendation (gnubg's or ours): "no double", "double", "too good"."""
    lowered = text.lower()
    if lowered.startswith("too good"):
        return "too good"
    if lowered.startswith(("no double", "no redouble")):
        return "no double"
    if lowered.startswith(("double", "redouble", "optional double", "optional redouble")):
        return "double"
    raise GnubgError(f"unknown cube recommendation {text!r}")


def our_doubler_choice(action: CubeAction) -> str:
    """Our CubeAction in the same three words as ``doubler_choice``."""
    return doubler_choice(action.value)


# ----- queries: jobs plus the reading of their replies, batched into one process --------


@dataclass(frozen=True)
class Query:
    """Jobs for the worker and how to read their replies; ``run_queries`` sends many in one process."""

    jobs: list[dict[str, Any]]
    read: Callable[[list[dict[str, Any]]], Any]


def run_queries(*queries: Query) -> list[Any]:
    """Answer every query with a single gnubg process; one result per query, in order."""
    replies = run_jobs([job for query in queries for job in query.jobs])
    results, start = [], 0
    for query in queries:
        results.append(query.read(replies[start:start + len(query.jobs)]))
        start += len(query.jobs)
    return results


def best_moves_query(requests: Iterable[tuple[Position, tuple[int, int]]], plies: int = 0,
                     full_width: bool = False) -> Query:
    """For each (position, dice): every legal move, gnubg's best first, cubeless money equity.

    gnubg's defaults (move filters, pruning nets) take only its best candidates to ``plies``;
    with ``full_width`` every legal move is searched to ``plies`` without pruning nets. A roll that cannot be played
    gives an empty list (bgengine lists one empty move).
    """
    pairs = list(requests)

    def read(replies: list[dict[str, Any]]) -> list[list[GnubgMove]]:
        results = []
        for (position, dice), reply in zip(pairs, replies, strict=True):
            legal = position.legal_moves(dice)
            moves = []
            for row in _answered(reply)["moves"]:
                move = Move.parse(row["move"])
                after = legal.play(move)  # raises IllegalMoveError if gnubg's text does not read as a legal play
                moves.append(GnubgMove(row["move"], move, after, row["equity"], tuple(row["probabilities"]),
                                       row["plies"]))
            results.append(moves)
        return results

    jobs = [{"kind": "moves", "position_id": p.gnubg_id(), "dice": list(d), "plies": plies, "full_width": full_width}
            for p, d in pairs]
    return Query(jobs, read)


def selfplay_query(seed: int, games: int, plies: int = 0) -> Query:
    """gnubg's own cubeless money self-play (dice seeded in gnubg): per game, every turn's (position, dice).

    Positions are seen from the player on roll; games end at the last move or at gnubg's resignation.
    """
    def read(replies: list[dict[str, Any]]) -> list[list[tuple[Position, tuple[int, int]]]]:
        return [[(Position.from_gnubg_id(turn["position_id"]), (turn["dice"][0], turn["dice"][1])) for turn in game]
                for game in _answered(replies[0])["games"]]

    return Query([{"kind": "selfplay", "seed": seed, "games": games, "plies": plies}], read)


def evaluations_query(positions: Iterable[Position], plies: int = 0) -> Query:
    """gnubg's cubeless evaluations of positions (player on roll, before the roll)."""
    jobs = [{"kind": "evaluate", "board": gnubg_board(p), "plies": plies} for p in positions]
    return Query(jobs, lambda replies: [
        GnubgEvaluation(tuple(r["probabilities"]), r["equity"], r["class"]) for r in map(_answered, replies)
    ])


def cube_actions_query(requests: Iterable[tuple[Position, MatchState]], plies: int = 0) -> Query:
    """gnubg's cube decisions of (position, match state) pairs; position seen from ``state.on_roll``."""
    jobs = [_cube_job("cube", position, match, plies) for position, match in requests]
    return Query(jobs, lambda replies: [
        GnubgCube(r["no_double"], r["double_take"], r["double_pass"], r["optimal"], r["recommendation"])
        for r in map(_answered, replies)
    ])


def position_ids_query(positions: Iterable[Position]) -> Query:
    """(gnubg's Position ID of each board, gnubg's board decoded from our Position ID)."""
    jobs = [{"kind": "position_id", "board": gnubg_board(p), "position_id": p.gnubg_id()} for p in positions]
    return Query(jobs, lambda replies: [
        (r["position_id"], [list(side) for side in r["board_from_id"]]) for r in map(_answered, replies)
    ])


def match_ids_query(states: Iterable[MatchState]) -> Query:
    """gnubg's Match ID of each state (game in play, no double or resignation pending)."""
    jobs = [_cube_job("match_id", None, state) for state in states]
    return Query(jobs, lambda replies: [_answered(r)["match_id"] for r in replies])


def met_query(length: int) -> Query:
    """gnubg's match equity table up to ``length`` away: (pre-Crawford rows, post-Crawford rows of both players)."""
    jobs = [{"kind": "met", "length": length}]
    return Query(jobs, lambda replies: [
        (r["pre_crawford"], r["post_crawford"]) for r in map(_answered, replies)
    ][0])


# ----- one process per call ---------------------------------------------------------------


def gnubg_best_moves(requests: Iterable[tuple[Position, tuple[int, int]]], plies: int = 0,
                     full_width: bool = False) -> list[list[GnubgMove]]:
    """See ``best_moves_query``."""
    return run_queries(best_moves_query(requests, plies, full_width))[0]


def gnubg_selfplay(seed: int, games: int, plies: int = 0) -> list[list[tuple[Position, tuple[int, int]]]]:
    """See ``selfplay_query``."""
    return run_queries(selfplay_query(seed, games, plies))[0]


def gnubg_version() -> str:
    """gnubg's version line, e.g. "GNU Backgammon 1.07.001 20230103"."""
    done = subprocess.run([gnubg_executable() or "gnubg", "--version"], capture_output=True, text=True, timeout=30)
    return done.stdout.splitlines()[0].strip() if done.stdout else "unknown"


def gnubg_evaluations(positions: Iterable[Position], plies: int = 0) -> list[GnubgEvaluation]:
    """See ``evaluations_query``."""
    return run_queries(evaluations_query(positions, plies))[0]


def gnubg_evaluation(position: Position, plies: int = 0) -> GnubgEvaluation:
    """gnubg's cubeless evaluation of one position."""
    return gnubg_evaluations([position], plies)[0]


def gnubg_cube_actions(requests: Iterable[tuple[Position, MatchState]], plies: int = 0) -> list[GnubgCube]:
    """See ``cube_actions_query``."""
    return run_queries(cube_actions_query(requests, plies))[0]


def gnubg_cube_action(position: Position, match: MatchState | None = None, plies: int = 0) -> GnubgCube:
    """gnubg's cube decision for the player on roll (money, cube centred, unless ``match`` says)."""
    return gnubg_cube_actions([(position, match or MatchState())], plies)[0]


# ----- rollouts (a terminal is needed: gnubg prints rollout results only to one) --------

@dataclass(frozen=True)
class GnubgRollout:
    """gnubg's cubeless rollout of a position (player on roll, before rolling): the
    5-vector, equity, their standard errors, the settings line and the CPU seconds it took."""

    probabilities: tuple[float, ...]
    equity: float
    probability_standard_errors: tuple[float, ...]
    equity_standard_error: float
    play: str  # gnubg's description of its checker play, e.g. "1-ply cubeful prune [world class]"
    cpu_seconds: float


def gnubg_rollouts(jobs: Sequence[tuple[Position, int, int, int]], variance_reduction: bool = True) -> list[GnubgRollout]:
    """Roll out each (position, checker-play plies, trials, seed) with gnubg on one thread:
    cubeless, quasi-random dice, variance reduction as asked, no truncation; gnubg's own
    move filters and pruning nets at that depth."""
    program = gnubg_executable()
    script = shutil.which("script")
    if program is None or script is None:
        raise GnubgError("gnubg and script (util-linux) are needed for gnubg rollouts")
    request_jobs = [
        {"kind": "rollout", "position_id": position.gnubg_id(), "plies": plies, "trials": trials, "seed": seed,
         "variance_reduction": variance_reduction}
        for position, plies, trials, seed in jobs
    ]
    with tempfile.TemporaryDirectory(prefix="bgengine-gnubg-") as folder:
        request, reply = Path(folder) / "request.json", Path(folder) / "reply.json"
        request.write_text(json.dumps(request_jobs))
        env = dict(os.environ, BGENGINE_GNUBG_REQUEST=str(request), BGENGINE_GNUBG_REPLY=str(reply))
        command = f"{program} -t -q -p {WORKER} < /dev/null"
        try:
            done = subprocess.run([script, "-qec", command, "/dev/null"], env=env, cwd=folder,
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace")
        except OSError as error:
            raise GnubgError(f"running {program} failed: {error}") from error
        if not reply.exists():
            raise GnubgError(f"{program} wrote no reply (exit {done.returncode}): {done.stdout.strip()[-500:]}")
        times = [_answered(r) for r in json.loads(reply.read_text())]
    sections = done.stdout.replace("\r", "\n").split("BGENGINE-JOB-START")[1:]
    if len(sections) != len(jobs) or len(times) != len(jobs):
        raise GnubgError(f"gnubg answered {len(sections)} of {len(jobs)} rollouts")
    return [_read_rollout(section.split("BGENGINE-JOB-END")[0], t["cpu_seconds"]) for section, t in zip(sections, times)]


def _read_rollout(text: str, cpu_seconds: float) -> GnubgRollout:
    """gnubg's final table: 'Current Position:', the means line, the [errors] line, 'Play: ...'."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    try:
        at = max(i for i, line in enumerate(lines) if line.startswith("Current Position:"))
    except ValueError:
        raise GnubgError(f"no rollout result in gnubg's output: {text[-300:]!r}") from None

    means = lines[at + 1].split()
    errors = lines[at + 2].split("[", 1)[1].split("]", 1)[0].split()
    # win, win gammon, win backgammon - lose, lose gammon, lose backgammon CL equity
    mean_values = [float(w) for w in means if w not in ("-", "CL", "CF")]
    error_values = [float(w) for w in errors if w not in ("-", "CL", "CF")]
    if len(mean_values) != 7 or len(error_values) != 7:
        raise GnubgError(f"unexpected rollout result lines: {lines[at + 1]!r} {lines[at + 2]!r}")
    play = next((line.split(":", 1)[1].strip() for line in lines[at:] if line.startswith("Play:")), "")
    return GnubgRollout(
        probabilities=tuple(mean_values[i] for i in (0, 1, 2, 4, 5)), equity=mean_values[6],
        probability_standard_errors=tuple(error_values[i] for i in (0, 1, 2, 4, 5)), equity_standard_error=error_values[6],
        play=play, cpu_seconds=float(cpu_seconds),
    )

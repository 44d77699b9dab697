"""Matches played and analysed by GNU Backgammon (Debian ``gnubg``), a measuring stick for ``analyze_match``.

Never imported by the bgengine package. ``play_match_with_gnubg`` has two gnubg players
of different strength (evaluation noise) play a match and saves it as ``.sgf`` and
``.mat``; ``analyse_with_gnubg`` runs gnubg's own ``analyse match`` at a depth on one
thread and returns its per-player statistics, its very bad checker plays and its time.
Both drive ``gnubg -t -q`` with a command file.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from gnubg_bridge import gnubg_executable


class GnubgRunError(RuntimeError):
    """gnubg is missing, failed, or did not write what it was asked to."""


def _run(commands: list[str], timeout: float) -> str:
    program = gnubg_executable()
    if program is None:
        raise GnubgRunError("gnubg is not installed (Debian: apt-get install gnubg)")
    done = subprocess.run(
        [program, "-t", "-q"], input="\n".join(commands) + "\n", capture_output=True, text=True, timeout=timeout
    )
    return done.stdout + done.stderr


def play_match_with_gnubg(
    length: int, seed: int, noise: tuple[float, float], folder: Path, name: str, *, timeout: float = 600.0
) -> tuple[Path, Path]:
    """gnubg plays a ``length``-point match against itself, player 0 with ``noise[0]``, 1 with ``noise[1]``.

    Both players search 0-ply with pseudo-random evaluation noise (standard deviation in
    equity) on checker play and cube. Returns the .sgf and .mat files written in ``folder``.
    gnubg's ``set seed`` does not make the match repeatable (the noise is drawn apart from
    the dice), so keep the files that a measurement used.
    """
    folder.mkdir(parents=True, exist_ok=True)
    sgf, mat = folder / f"{name}.sgf", folder / f"{name}.mat"
    commands = [f"set seed {seed}"]
    for player, sigma in enumerate(noise):
        commands += [
            f"set player {player} gnubg",
            f"set player {player} chequerplay evaluation plies 0",
            f"set player {player} chequerplay evaluation noise {sigma}",
            f"set player {player} chequerplay evaluation deterministic off",
            f"set player {player} cubedecision evaluation plies 0",
            f"set player {player} cubedecision evaluation noise {sigma}",
            f"set player {player} cubedecision evaluation deterministic off",
        ]
    commands += [f"new match {length}", f"save match {sgf}", f"export match mat {mat}"]
    output = _run(commands, timeout)
    if not sgf.exists() or not mat.exists():
        raise GnubgRunError(f"gnubg wrote no match files; its output ended with: {output[-500:]}")
    return sgf, mat


@dataclass(frozen=True)
class GnubgPlayerStatistics:
    name: str
    unforced_moves: int
    checker_error: float  # EMG
    checker_rate: float  # mEMG per unforced move
    checker_error_mwc: float  # as a fraction
    very_bad_moves: int
    cube_error: float
    overall_rate: float
    luck: float  # EMG


@dataclass(frozen=True)
class GnubgCandidate:
    """A play gnubg's analysis lists: its hops in .sgf letters, the mover's cubeless
    probabilities, gnubg's equity (cubeful when it analysed cubefully, EMG) and its depth."""

    letters: str
    probabilities: tuple[float, float, float, float, float]
    equity: float
    plies: int


@dataclass(frozen=True)
class GnubgCheckerPlay:
    """One checker play as gnubg's analysis rates it (EMG: its normalised equities)."""

    player: int  # 0 for the file's first player (white in .sgf), 1 for the second
    dice: tuple[int, int]
    error: float | None  # best equity minus the played one's; None: not analysed
    legal_shown: int  # the plays gnubg kept in the analysis (1: forced)
    luck: float | None
    candidates: tuple[GnubgCandidate, ...] = ()  # as gnubg lists them (best first)
    played_index: int | None = None  # the played one among ``candidates``

    def compared(self, plies: int) -> tuple[GnubgCandidate, ...]:
        """The plays gnubg's analysis at ``plies`` compares: the ones searched that deep; when
        its 0-ply filter leaves a single play, gnubg searches none deeper and keeps that one."""
        deep = tuple(c for c in self.candidates if c.plies == plies)
        return deep or self.candidates[:1]


@dataclass(frozen=True)
class GnubgAnalysis:
    players: tuple[GnubgPlayerStatistics, GnubgPlayerStatistics]
    very_bad_checker_plays: frozenset[tuple[int, int]]  # (game, index of the checker play in the game)
    bad_checker_plays: frozenset[tuple[int, int]]  # bad or very bad
    seconds: float
    output: str
    checker_plays: dict[tuple[int, int], GnubgCheckerPlay]  # by (game, index of the checker play in the game)


def analyse_with_gnubg(sgf: Path, plies: int, *, cubeful: bool = True, timeout: float = 3600.0) -> GnubgAnalysis:
    """gnubg's ``analyse match`` of ``sgf`` (or a ``.mat`` file) at ``plies`` on one thread, timed, with its statistics.

    ``cubeful=False`` has gnubg rate checker plays and cube decisions cubeless (at the
    score in a match): a diagnostic of how much of its rates the cube accounts for.
    """
    switch = "on" if cubeful else "off"
    with tempfile.TemporaryDirectory(prefix="bgengine-gnubg-analysis-") as folder:
        analysed = Path(folder) / "analysed.sgf"
        commands = [
            "set threads 1",
            f"import mat {sgf}" if sgf.suffix == ".mat" else f"load match {sgf}",
            f"set analysis chequerplay evaluation plies {plies}",
            f"set analysis cubedecision evaluation plies {plies}",
            f"set analysis chequerplay evaluation cubeful {switch}",
            f"set analysis cubedecision evaluation cubeful {switch}",
        ]
        started = time.perf_counter()
        output = _run([*commands, "analyse match", "show statistics match", f"save match {analysed}"], timeout)
        seconds = time.perf_counter() - started
        if not analysed.exists():
            raise GnubgRunError(f"gnubg did not save the analysis; its output ended with: {output[-500:]}")
        text = analysed.read_text(encoding="utf-8", errors="replace")
    very_bad, bad = _marked_checker_plays(text)
    return GnubgAnalysis(_statistics(output), very_bad, bad, seconds, output, checker_plays_of(text))


def analysis_thresholds() -> dict[str, float]:
    """gnubg's marks thresholds as ``show analysis`` lists them (EMG, positive): "doubtful",
    "bad", "very bad", "lucky", "very lucky", ..."""
    output = _run(["show analysis"], 60.0)
    found = re.findall(r"^\s*([-+]\d+\.\d+)\s+(very bad|bad|doubtful|very lucky|lucky|unlucky|very unlucky)\s*$",
                       output, re.MULTILINE)
    return {name: abs(float(value)) for value, name in found}


def _row(output: str, label: str, section: str) -> list[str]:
    """The two players' cells of a row of ``show statistics match`` in a section."""
    body = output[output.index(section):]
    for line in body.splitlines():
        if line.startswith(label):
            rest = line[len(label):]
            cells = re.findall(r"[-+]?\d+(?:\.\d+)?%?(?:\s*\(\s*[-+]?\d+(?:\.\d+)?%?\))?", rest)
            return cells
    raise GnubgRunError(f"no row {label!r} in gnubg's statistics")


def _first_number(cell: str) -> float:
    return float(re.match(r"[-+]?\d+(?:\.\d+)?", cell).group(0))  # type: ignore[union-attr]


def _in_brackets(cell: str) -> float:
    return float(re.search(r"\(\s*([-+]?\d+(?:\.\d+)?)%\)", cell).group(1)) / 100.0  # type: ignore[union-attr]


def _statistics(output: str) -> tuple[GnubgPlayerStatistics, GnubgPlayerStatistics]:
    names_line = next(line for line in output.splitlines() if line.startswith("Player "))
    names = names_line.split()[1:3]
    checker, cube, overall, luck = "Chequerplay statistics", "Cube statistics", "Overall statistics", "Luck statistics"
    unforced = _row(output, "Unforced moves", checker)
    error = _row(output, "Error total EMG (MWC)", checker)
    rate = _row(output, "Error rate mEMG (MWC)", checker)
    very_bad = _row(output, "Moves marked very bad", checker)
    cube_error = _row(output, "Error total EMG (MWC)", cube)
    overall_rate = _row(output, "Error rate mEMG (MWC)", overall)
    luck_total = _row(output, "Luck total EMG (MWC)", luck)
    return tuple(  # type: ignore[return-value]
        GnubgPlayerStatistics(
            name=names[player],
            unforced_moves=int(unforced[player]),
            checker_error=-_first_number(error[player]),
            checker_rate=-_first_number(rate[player]),
            checker_error_mwc=-_in_brackets(error[player]),
            very_bad_moves=int(very_bad[player]),
            cube_error=-_first_number(cube_error[player]),
            overall_rate=-_first_number(overall_rate[player]),
            luck=_first_number(luck_total[player]),
        )
        for player in (0, 1)
    )


_NODE_MOVE = re.compile(r";([WB])\[([1-6][1-6][a-z]*)\]")
_NODE_DICE = re.compile(r";([WB])\[([1-6])([1-6])")
_ANALYSIS = re.compile(r"A\[(\d+)\]((?:\[[^\]]*\])+)")
_LUCK = re.compile(r"LU\[([-+0-9.eE]+)\]")


def _move_nodes(text: str) -> Iterator[tuple[int, int, str]]:
    """(game, ordinal of the checker play in its game, node text) of every checker play (dances too)."""
    for game, tree in enumerate(text.split("(;")[1:]):
        ordinal = 0
        for node in tree.split("\n;")[1:]:
            if _NODE_MOVE.match(";" + node):
                yield game, ordinal, node
                ordinal += 1


def checker_plays_of(text: str) -> dict[tuple[int, int], GnubgCheckerPlay]:
    """gnubg's rating of each checker play of an analysed .sgf: ``A[i][play E ver 3 p1..p5 equity ...]...``
    lists the plays kept with their equities, ``i`` the played one; ``LU[x]`` is the roll's luck."""
    plays = {}
    for game, ordinal, node in _move_nodes(text):
        dice = _NODE_DICE.match(";" + node)
        assert dice is not None
        analysis = _ANALYSIS.search(node)
        error, shown, candidates, played = None, 1, (), None
        if analysis:
            candidates = tuple(_candidate(entry) for entry in re.findall(r"\[([^\]]*)\]", analysis.group(2)))
            equities = [c.equity for c in candidates]
            played = int(analysis.group(1))
            error, shown = max(equities) - equities[played], len(equities)
        luck = _LUCK.search(node)
        plays[(game, ordinal)] = GnubgCheckerPlay(
            player=0 if dice.group(1) == "W" else 1, dice=(int(dice.group(2)), int(dice.group(3))),
            error=error, legal_shown=shown, luck=float(luck.group(1)) if luck else None,
            candidates=candidates, played_index=played)
    return plays


def _candidate(entry: str) -> GnubgCandidate:
    """``hops E ver 3 p1 p2 p3 p4 p5 equity <plies>C ...`` (an ``A`` property's entry)."""
    fields = entry.split()
    probabilities = tuple(float(value) for value in fields[4:9])
    return GnubgCandidate(fields[0], probabilities, float(fields[9]), int(fields[10].rstrip("C")))  # type: ignore[arg-type]


def _marked_checker_plays(text: str) -> tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]:
    """(game, ordinal of the checker play in its game) of the plays gnubg marked very bad / bad or worse."""
    very_bad, bad = set(), set()
    for game, ordinal, node in _move_nodes(text):
        if "BM[2]" in node:
            very_bad.add((game, ordinal))
        if "BM[" in node:
            bad.add((game, ordinal))
    return frozenset(very_bad), frozenset(bad)

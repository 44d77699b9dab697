"""``bgengine analyze-match``: read a match file, analyse it, show it as tables, JSON or an HTML report.

Players are numbered as in the file: player 0 is the left column of a ``.mat`` file and
white in an ``.sgf`` file. Errors and luck are in EMG (equity per current cube) with their
MWC beside them; ``bgengine.analysis.match_analysis`` says how each figure is made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bgengine.analysis.match_analysis import (
    CheckerPlay,
    CubeChoice,
    GameAnalysis,
    MatchAnalysis,
    Mark,
    PlayerStatistics,
)
from bgengine.errors import MatchFileError
from bgengine.formats.gnubg_id import encode_match_id
from bgengine.formats.mat import parse_mat
from bgengine.formats.sgf import parse_sgf
from bgengine.game.match import Match


def read_match_file(path: str | Path) -> Match:
    """A ``.sgf`` or ``.mat`` match file, told apart by its first character ('(' starts an .sgf)."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise MatchFileError(0, f"cannot read {path}: {error.strerror or error}") from None
    if text.lstrip().startswith("("):
        return parse_sgf(text)
    return parse_mat(text)


# ----- JSON -----------------------------------------------------------------------------


def _rounded(value: float, digits: int = 6) -> float:
    return round(float(value), digits)


def statistics_dict(stats: PlayerStatistics) -> dict[str, Any]:
    """One player's totals and rates (EMG, MWC as fractions, rates in mEMG)."""
    return {
        "moves": stats.moves,
        "unforced_moves": stats.unforced_moves,
        "checker_error": _rounded(stats.checker_error),
        "checker_error_mwc": _rounded(stats.checker_error_mwc),
        "checker_rate": _rounded(stats.checker_rate, 3),
        "checker_rate_mwc": _rounded(stats.checker_rate_mwc),
        "checker_marks": {key.replace(" ", "_"): count for key, count in stats.checker_marks.items()},
        "cube_decisions": stats.cube_decisions,
        "close_cube_decisions": stats.close_cube_decisions,
        "doubles": stats.doubles,
        "takes": stats.takes,
        "passes": stats.passes,
        "cube_mistakes": {key.replace(" ", "_"): count for key, count in stats.cube_mistakes.items()},
        "cube_error": _rounded(stats.cube_error),
        "cube_error_mwc": _rounded(stats.cube_error_mwc),
        "cube_rate": _rounded(stats.cube_rate, 3),
        "error": _rounded(stats.error),
        "error_mwc": _rounded(stats.error_mwc),
        "overall_rate": _rounded(stats.overall_rate, 3),
        "overall_rate_mwc": _rounded(stats.overall_rate_mwc),
        "performance_rating": _rounded(stats.performance_rating, 3),
        "rolls": stats.rolls,
        "luck": _rounded(stats.luck),
        "luck_mwc": _rounded(stats.luck_mwc),
        "luck_rate": _rounded(stats.luck_rate, 3),
        "luck_marks": {key.replace(" ", "_"): count for key, count in stats.luck_marks.items()},
    }


def _players(names: tuple[str, str] | None, stats: tuple[PlayerStatistics, ...], result: tuple[float, float],
             adjusted: tuple[float, float]) -> list[dict[str, Any]]:
    players = []
    for player in (0, 1):
        entry: dict[str, Any] = {"player": player}
        if names is not None:
            entry["name"] = names[player]
        entry.update(statistics_dict(stats[player]))
        entry["result_mwc"] = _rounded(result[player])
        entry["luck_adjusted_mwc"] = _rounded(adjusted[player])
        players.append(entry)
    return players


def decision_dict(item: CheckerPlay | CubeChoice) -> dict[str, Any]:
    """A checker play or cube choice; the position is the decider's (the doubler's for a take or pass)."""
    where = item.where
    position_id = where.position.gnubg_id()
    common = {
        "game": where.game + 1,
        "turn": where.turn + 1,
        "player": where.player,
        "kind": item.kind,
        "gnubg_id": f"{position_id}:{encode_match_id(where.match)}",
        "xgid": where.position.xgid(where.match),
        "error": _rounded(item.error),
        "error_mwc": _rounded(item.error_mwc),
        "mark": item.mark.value or None,
    }
    if isinstance(item, CheckerPlay):
        return {
            **common,
            "dice": list(item.dice),
            "played": str(item.played),
            "best": str(item.best),
            "played_equity": _rounded(item.played_equity),
            "best_equity": _rounded(item.best_equity),
            "forced": item.forced,
        }
    emg = item.decision.to_emg()
    return {
        **common,
        "role": item.role,
        "chosen": item.chosen,
        "proper_action": str(item.decision.action),
        "mistake": None if item.mistake is None else item.mistake.value,
        "close": item.close,
        "no_double": _rounded(emg.no_double),
        "double_take": None if emg.double_take is None else _rounded(emg.double_take),
        "double_pass": None if emg.double_pass is None else _rounded(emg.double_pass),
    }


def _game_dict(game: GameAnalysis) -> dict[str, Any]:
    return {
        "number": game.number,
        "score": list(game.score),
        "winner": game.winner,
        "points": game.points,
        "players": _players(None, game.players, game.result_mwc, game.luck_adjusted_mwc),
    }


def match_analysis_dict(analysis: MatchAnalysis, file: str | None = None) -> dict[str, Any]:
    """The JSON body of ``bgengine analyze-match --json`` (see docs/cli.md)."""
    thresholds = analysis.thresholds
    return {
        "file": file,
        "match": {
            "length": analysis.length,
            "names": list(analysis.names),
            "score": list(analysis.score),
            "winner": analysis.winner,
            "games": len(analysis.games),
        },
        "plies": analysis.plies,
        "equity": analysis.equity_note,
        "equity_measure": analysis.equity,
        "thresholds": {
            "doubtful": thresholds.doubtful, "bad": thresholds.bad, "very_bad": thresholds.very_bad,
            "lucky": thresholds.lucky, "very_lucky": thresholds.very_lucky, "close_cube": thresholds.close_cube,
        },
        "players": _players(analysis.names, analysis.players, analysis.result_mwc, analysis.luck_adjusted_mwc),
        "games": [_game_dict(game) for game in analysis.games],
        "decisions": [decision_dict(item) for game in analysis.games for item in game.decisions()],
        "rolls": [
            {"game": roll.where.game + 1, "turn": roll.where.turn + 1, "player": roll.where.player,
             "dice": list(roll.dice), "luck": _rounded(roll.luck), "luck_mwc": _rounded(roll.luck_mwc),
             "mark": roll.mark.value or None}
            for roll in analysis.rolls
        ],
    }


# ----- the terminal ---------------------------------------------------------------------


@contextmanager
def analysis_progress(enabled: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A live progress bar of turns analysed on standard error (None when not on a terminal)."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("Analysing turns"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True)) as bar:
        task = bar.add_task("turns", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def _summary_rows(analysis: MatchAnalysis) -> list[tuple[str, str, str]]:
    first, second = analysis.players

    def row(label: str, value: Callable[[PlayerStatistics], str]) -> tuple[str, str, str]:
        return label, value(first), value(second)

    def count(name: str, key: str) -> Callable[[PlayerStatistics], str]:
        return lambda stats: str(getattr(stats, name)[key])

    result, adjusted = analysis.result_mwc, analysis.luck_adjusted_mwc
    return [
        row("Moves (unforced)", lambda s: f"{s.moves} ({s.unforced_moves})"),
        row("Checker error EMG (MWC)", lambda s: f"{s.checker_error:.3f} ({100 * s.checker_error_mwc:.2f}%)"),
        row("Checker error rate mEMG", lambda s: f"{s.checker_rate:.1f}"),
        row("  doubtful / bad / very bad", lambda s: "{doubtful} / {bad} / {very bad}".format(**s.checker_marks)),
        row("Cube decisions (close or actual)", lambda s: f"{s.cube_decisions} ({s.close_cube_decisions})"),
        row("  doubles / takes / passes", lambda s: f"{s.doubles} / {s.takes} / {s.passes}"),
        row("  missed doubles", count("cube_mistakes", "missed double")),
        row("  wrong doubles", count("cube_mistakes", "wrong double")),
        row("  wrong takes", count("cube_mistakes", "wrong take")),
        row("  wrong passes", count("cube_mistakes", "wrong pass")),
        row("Cube error EMG (MWC)", lambda s: f"{s.cube_error:.3f} ({100 * s.cube_error_mwc:.2f}%)"),
        row("Overall error rate mEMG", lambda s: f"{s.overall_rate:.1f}"),
        row("Performance rating (PR)", lambda s: f"{s.performance_rating:.1f}"),
        row("Luck EMG (MWC)", lambda s: f"{s.luck:+.3f} ({100 * s.luck_mwc:+.2f}%)"),
        row("  very lucky / lucky", lambda s: "{very lucky} / {lucky}".format(**s.luck_marks)),
        row("  unlucky / very unlucky", lambda s: "{unlucky} / {very unlucky}".format(**s.luck_marks)),
        ("Result MWC", f"{100 * result[0]:+.2f}%", f"{100 * result[1]:+.2f}%"),
        ("Luck-adjusted result MWC", f"{100 * adjusted[0]:+.2f}%", f"{100 * adjusted[1]:+.2f}%"),
    ]


def describe(item: CheckerPlay | CubeChoice, names: tuple[str, str]) -> tuple[str, str, str, str]:
    """(where, who, what was done, what was best) of a decision, for lists."""
    where = f"game {item.where.game + 1}, move {item.where.turn + 1}"
    who = names[item.where.player]
    if isinstance(item, CheckerPlay):
        return where, who, f"{item.dice[0]}{item.dice[1]}: {item.played}", str(item.best)
    what = item.chosen if item.mistake is None else f"{item.chosen} ({item.mistake.value})"
    return where, who, what, str(item.decision.action)


def print_match_analysis(console: Any, analysis: MatchAnalysis) -> None:
    """The per-player summary table and the list of bad and very bad decisions."""
    from rich import box
    from rich.table import Table

    score = f"{analysis.score[0]}-{analysis.score[1]}"
    console.print(f"{analysis.names[0]} vs {analysis.names[1]}: {analysis.length}-point match, {score},"
                  f" {len(analysis.games)} games; {analysis.plies}-ply analysis")
    console.print(f"Note: {analysis.equity_note}.")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("", no_wrap=True)
    for name in analysis.names:
        table.add_column(name, justify="right", no_wrap=True)
    for label, first, second in _summary_rows(analysis):
        table.add_row(label, first, second)
    console.print(table)
    marked = analysis.marked(Mark.BAD)
    if not marked:
        console.print("No bad or very bad decisions.")
        return
    listing = Table(title="Bad and very bad decisions (game.move)", title_justify="left", box=box.SIMPLE_HEAD,
                    pad_edge=False, show_edge=False)
    for header in ("At", "Player", "Played", "Best", "EMG", "MWC", "Mark"):
        listing.add_column(header, justify="right" if header in ("EMG", "MWC") else "left",
                           no_wrap=header not in ("Played", "Best"), overflow="fold")
    for item in marked:
        _, who, played, best = describe(item, analysis.names)
        listing.add_row(f"{item.where.game + 1}.{item.where.turn + 1}", who, played, best, f"{item.error:.3f}",
                        f"{100 * item.error_mwc:.1f}%", item.mark.value)
    console.print(listing)

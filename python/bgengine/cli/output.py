"""How the command line shows results to a person: the board, facts and tables (rich).

Machine-readable output is JSON (see ``bgengine.cli.report``); this module is only for
people, so its layout may change between versions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from bgengine.cli.report import Analysis, MoveChoice
from bgengine.cli.rollout_report import difference_standard_error
from bgengine.evaluation.evaluator import Evaluation
from bgengine.formats.gnubg_id import encode_match_id
from bgengine.match_state import CubeOwner, MatchState
from bgengine.position import Position
from bgengine.probabilities import EquityUnit

_PROBABILITY_HEADERS = ("Win", "W g", "W bg", "L g", "L bg")  # probabilities.FIELD_NAMES order


def _table(title: str) -> Table:
    """A compact table (fits 80 columns with the probabilities) whose cells never wrap."""
    return Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False,
                 show_edge=False)


def _column(table: Table, header: str, right: bool = True) -> None:
    table.add_column(header, justify="right" if right else "left", no_wrap=True)


def make_console() -> Console:
    """A console on the current standard output (plain text when it is not a terminal)."""
    return Console(highlight=False, soft_wrap=True)


def describe_match(match: MatchState) -> str:
    """One line on the score and cube, from the player on roll's side."""
    opponent = 1 - match.on_roll
    if match.match_length:
        text = (
            f"{match.match_length}-point match, score {match.score[match.on_roll]}-{match.score[opponent]}"
            f" (on roll {match.away(match.on_roll)}-away, opponent {match.away(opponent)}-away)"
        )
        if match.crawford:
            text += ", Crawford game"
        elif match.is_post_crawford:
            text += ", post-Crawford"
    else:
        rules = [name for name, on in (("Jacoby", match.jacoby), ("beavers", match.beavers)) if on]
        text = "Money game" + (f" ({', '.join(rules)})" if rules else "")
    if match.crawford:
        return text + ", no cube"
    owner = match.relative_cube_owner()
    if owner is CubeOwner.CENTRED:
        cube = f"cube {match.cube_value} centred" if match.cube_value > 1 else "cube centred"
    else:
        owned_by = "the player on roll" if owner is CubeOwner.PLAYER else "the opponent"
        cube = f"cube {match.cube_value} owned by {owned_by}"
    return f"{text}, {cube}" + (", double offered" if match.double_offered else "")


def print_position(console: Console, position: Position, match: MatchState) -> None:
    """The text board, the IDs, the match line and the pip counts."""
    console.print(Text(str(position)))
    console.print()
    on_roll_pips, opponent_pips = position.pip_counts()
    facts = (
        ("XGID", position.xgid(match)),
        ("GNU Backgammon ID", f"{position.gnubg_id()}:{encode_match_id(match)}"),
        ("Match", describe_match(match)),
        ("Pips", f"on roll {on_roll_pips}, opponent {opponent_pips} ({_lead(opponent_pips - on_roll_pips)})"),
        ("Phase", position.phase.value),
    )
    for label, value in facts:  # plain lines: IDs must stay whole for copying
        console.print(Text(f"{label + ':':<19}{value}"), crop=False, overflow="ignore")


def _lead(difference: int) -> str:
    if difference == 0:
        return "even"
    return f"on roll {'leads' if difference > 0 else 'trails'} by {abs(difference)}"


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def probability_table(title: str, rows: Sequence[tuple[str, Iterable[float], float]]) -> Table:
    """Rows of (label, 5-vector, equity) with the probabilities as percentages."""
    table = _table(title)
    _column(table, "", right=False)
    for header in _PROBABILITY_HEADERS:
        _column(table, header)
    _column(table, "Equity")
    for label, probabilities, equity in rows:
        table.add_row(label, *(_percent(p) for p in probabilities), f"{equity:+.3f}")
    return table


def evaluation_table(evaluation: Evaluation) -> Table:
    """The position's cubeless chances and equity, the player on roll's view before rolling."""
    title = f"Evaluation ({evaluation.source}, cubeless, player on roll before the roll)"
    return probability_table(title, [("on roll", evaluation.probabilities, evaluation.equity)])


def moves_table(moves: Sequence[MoveChoice], dice: tuple[int, int], ranked_by: str | None) -> Table:
    """The legal plays, ranked with equity and difference to the best when an evaluator exists."""
    roll = f"{dice[0]}{dice[1]}"
    plays = f"{len(moves)} legal play{'s' if len(moves) != 1 else ''}"
    if ranked_by:
        title = f"Moves for {roll}: {plays}, ranked by {ranked_by} cubeless equity"
    else:
        title = f"Moves for {roll}: {plays} (not ranked: no evaluator in this build yet)"
    table = _table(title)
    _column(table, "#")
    _column(table, "Move", right=False)
    show_plies = bool(ranked_by) and len({choice.plies for choice in moves}) > 1  # when depths differ
    if show_plies:
        _column(table, "Ply")
    if ranked_by:
        _column(table, "Equity")
        _column(table, "Diff")
        for header in _PROBABILITY_HEADERS:
            _column(table, header)
    best = moves[0].equity if moves and ranked_by else None
    for index, choice in enumerate(moves, start=1):
        cells = [str(index), choice.move]
        if show_plies:
            cells.append("" if choice.plies is None else str(choice.plies))
        if ranked_by and choice.equity is not None and choice.probabilities is not None and best is not None:
            cells += [f"{choice.equity:+.3f}", f"{choice.equity - best:+.3f}" if index > 1 else ""]
            cells += [_percent(p) for p in choice.probabilities]
        table.add_row(*cells, style="bold" if index == 1 and ranked_by else None)
    return table


def cube_table(decision: Any) -> Table:
    """No double / Double-Take / Double-Pass with the doubler's equities and each one's cost."""
    unit = "money equity" if decision.unit is EquityUnit.MONEY else "match winning chance"
    table = _table(f"Cube decision before the roll (player on roll doubles; {unit})")
    _column(table, "", right=False)
    _column(table, "Equity")
    _column(table, "Diff")
    emg = decision.to_emg() if decision.unit is EquityUnit.MWC else None
    if emg is not None:
        _column(table, "EMG")
    rolled_out = decision.trials is not None
    if rolled_out:
        _column(table, "± 95%")
    best = max(v for v in (decision.no_double, _response(decision)) if v is not None)
    double = "Redouble" if decision.match.relative_cube_owner() is CubeOwner.PLAYER else "Double"
    for label, name in ((f"No {double.lower()}", "no_double"), (f"{double}/Take", "double_take"),
                        (f"{double}/Pass", "double_pass"), (f"{double}/Beaver", "double_beaver")):
        value = getattr(decision, name)
        if value is None:
            continue
        number = f"{100 * value:.2f}%" if emg is not None else f"{value:+.3f}"
        cells = [label, number, f"{value - best:+.3f}" if emg is None else f"{100 * (value - best):+.2f}%"]
        if emg is not None:
            cells.append(f"{getattr(emg, name):+.3f}")
        if rolled_out:
            cells.append(_spread(getattr(decision, f"{name}_standard_error", None), percent=emg is not None))
        table.add_row(*cells)
    if rolled_out:
        table.caption = (f"cubeful rollout, {decision.trials} games per line, seed {decision.rollout_settings.seed}"
                         f" (same dice for both lines){_paired_difference(decision)}")
    return table


def _paired_difference(decision: Any) -> str:
    """"; Double/Take - No double d ± 95%" of a rolled-out decision that may double (else "")."""
    error = decision.double_take_minus_no_double_standard_error
    if error is None or decision.double_take is None:
        return ""
    label = "Redouble" if decision.match.relative_cube_owner() is CubeOwner.PLAYER else "Double"
    difference = decision.double_take - decision.no_double
    if decision.unit is EquityUnit.MWC:
        return f"; {label}/Take - No {label.lower()} {100 * difference:+.2f}% ± {100 * 1.96 * error:.2f}%"
    return f"; {label}/Take - No {label.lower()} {difference:+.3f} ± {1.96 * error:.3f}"


def _spread(error: float | None, *, percent: bool) -> str:
    """Half the 95% interval of a rolled-out equity ("exact" for Double/Pass)."""
    if error is None:
        return "exact"
    return f"{100 * 1.96 * error:.2f}%" if percent else f"{1.96 * error:.3f}"


def _response(decision: Any) -> float | None:
    """The doubler's equity after the taker's best response (None when no double is possible)."""
    responses = [v for v in (decision.double_take, decision.double_pass, decision.double_beaver) if v is not None]
    return min(responses) if responses else None


def cube_summary(decision: Any) -> str:
    """The proper action, then the take and cash points when a double is possible."""
    text = f"Proper cube action: [bold]{escape(str(decision.action))}[/bold]"
    text += f" ({escape(decision.note)})" if decision.note else ""
    if decision.take_point is not None and decision.cash_point is not None:
        text += f"; take point {100 * decision.take_point:.1f}%, cash point {100 * decision.cash_point:.1f}%"
    if decision.trials is None:  # a rollout says its source in the table's caption
        text += f"\nFrom {escape(decision.source)}"
    return text


def print_analysis(console: Console, analysis: Analysis) -> None:
    """The whole report: board and facts, evaluation, cube advice, moves."""
    print_position(console, analysis.position, analysis.match)
    console.print()
    finished = analysis.position.winner_and_result()
    if finished is not None:
        winner, result = finished
        side = "the player on roll" if winner == 0 else "the opponent"
        console.print(f"Game over: {side} wins ({result.name.lower()}).")
        return
    if analysis.evaluation is not None:
        console.print(evaluation_table(analysis.evaluation))
    if analysis.cube is not None:
        console.print()
        console.print(cube_table(analysis.cube))
        console.print(cube_summary(analysis.cube))
    if analysis.dice is not None and analysis.moves is not None:
        console.print()
        console.print(moves_table(analysis.moves, analysis.dice, analysis.moves_ranked_by))


# ----- rollouts ---------------------------------------------------------------------------


@contextmanager
def rollout_progress(enabled: bool) -> Iterator[Callable[[str, int, int, Any], None] | None]:
    """A live progress bar on standard error: trials done, the estimate with its error, time left."""
    if not enabled:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[estimate]}"), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True)) as bar:
        tasks: dict[str, Any] = {}

        def update(label: str, done: int, total: int, estimate: Any) -> None:
            if label not in tasks:
                tasks[label] = bar.add_task(label, total=total, estimate="")
            text = f"equity {estimate.equity:+.3f} ± {estimate.equity_standard_error:.3f}"
            bar.update(tasks[label], completed=done, total=total, estimate=text)

        yield update


def _with_error(value: float, error: float, percent: bool = False) -> str:
    if percent:
        return f"{100 * value:.1f}% ± {100 * error:.1f}"
    return f"{value:+.3f} ± {error:.3f}"


def rollout_result_table(title: str, result: Any) -> Table:
    """One rollout's probabilities and equities, each with its standard error."""
    table = _table(title)
    for header in (*_PROBABILITY_HEADERS, "Equity"):
        _column(table, header)
    cells = [_with_error(p, e, percent=True) for p, e in zip(result.probabilities, result.probability_standard_errors)]
    table.add_row(*cells, _with_error(result.equity, result.equity_standard_error))
    return table


def rollout_moves_table(report: Any) -> Table:
    """Candidate plays, best first, with equity ± standard error and the difference to the best."""
    dice = report.dice
    cubeful = any(play.result.cubeful_equity is not None for play in report.plays)
    table = _table(f"Rollout of the plays of {dice[0]}{dice[1]} (the mover's view, same dice for every play)")
    _column(table, "#")
    _column(table, "Move", right=False)
    _column(table, "Cubeful" if cubeful else "Equity")
    _column(table, "Diff")
    _column(table, "Win")
    _column(table, "W g")
    _column(table, "L g")
    best = None
    for rank, play in enumerate(report.plays, start=1):
        result = play.result
        if cubeful:
            value, error = result.cubeful_equity, result.cubeful_standard_error
        else:
            value, error = result.equity, result.equity_standard_error
        best = value if best is None else best
        win, win_g, _, lose_g, _ = result.probabilities
        difference = ""
        if rank > 1:
            paired = difference_standard_error(play, report.plays[0])
            difference = f"{value - best:+.3f}" + ("" if paired is None else f" ± {paired:.3f}")
        table.add_row(str(rank), play.move, _with_error(value, error), difference,
                      _percent(win), _percent(win_g), _percent(lose_g))
    if len(report.plays) > 1:
        table.caption = "± standard errors; Diff's taken trial by trial (the plays share their dice)"
    return table


def rollout_footer(report: Any) -> str:
    """Trials, time and the seed that repeats the run."""
    results = [report.result] if report.result is not None else [play.result for play in report.plays]
    trials = sum(result.trials for result in results)
    seconds = sum(result.seconds for result in results)
    seed = report.settings.seed
    return f"{trials} trials in {seconds:.1f} s; repeat with --seed {seed}"


def print_rollout(console: Console, report: Any) -> None:
    """The rollout part of a report: the position's result or the candidate plays."""
    if report.result is not None:
        result = report.result
        console.print(rollout_result_table("Rollout (cubeless, player on roll before the roll)", result))
        if result.cubeful_equity is not None:
            cubeful = _with_error(result.cubeful_equity, result.cubeful_standard_error)
            console.print(f"Cubeful ({result.cubeful_unit.value}): {cubeful}")
    else:
        console.print(rollout_moves_table(report))
    console.print(rollout_footer(report))


# ----- bench ------------------------------------------------------------------------------


def _duration(seconds: float) -> str:
    for unit, scale in (("µs", 1e6), ("ms", 1e3)):
        if seconds * scale < 1000:
            return f"{seconds * scale:.2f} {unit}"
    return f"{seconds:.2f} s"


def bench_table(results: Sequence[Any], machine: dict[str, Any], version: str) -> Table:
    """Operations with their calls, calls per second and time per call."""
    title = f"bgengine {version} on {machine['implementation']} {machine['python']}, {machine['cpu_count']} cores"
    table = _table(title)
    _column(table, "Operation", right=False)
    for header in ("Calls", "Per second", "Time per call"):
        _column(table, header)
    for result in results:
        table.add_row(result.name, f"{result.calls:,}", f"{result.per_second:,.0f}",
                      _duration(result.seconds / result.calls))
    return table

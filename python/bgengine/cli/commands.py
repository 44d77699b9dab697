"""The ``bgengine`` command: analyse, list moves, draw and benchmark from a terminal.

Exit codes: 0 success; 2 bad input, or a capability this build does not have yet, with
one line on standard error saying what and where; 1 internal error. ``--json`` writes
one JSON document to standard output in the schema of docs/cli.md.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import traceback
from pathlib import Path
from collections.abc import Callable
from dataclasses import asdict
from typing import Any, NoReturn, TypeVar

import click

from bgengine import __version__
from bgengine.cli.report import analysis_dict, match_dict
from bgengine.cli.report import analyze as analyze_position
from bgengine.cli.report import cube_advice, cube_dict, evaluation_dict, moves_dict, position_dict, ranked_moves
from bgengine.errors import BgEngineError
from bgengine.match_state import MatchState
from bgengine.position import Position
from bgengine.cli.rollout_report import make_settings, run_rollout
from bgengine.formats.svg import board as draw_board
from bgengine.cli.rollout_report import report_dict as rollout_dict
from bgengine.formats.user_input import parse_dice, parse_probabilities, parse_score, read_position, with_match_options

#: Names the JSON documents' format; the number changes only when a field changes meaning or goes away.
JSON_SCHEMA = "bgengine.cli/2"
EXIT_BAD_INPUT = 2
EXIT_INTERNAL_ERROR = 1
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C

F = TypeVar("F", bound=Callable[..., Any])


# ----- argument types: each turns text into a value or fails with a one-line reason -----


class ParsedText(click.ParamType):
    """A parameter read by one of bgengine's parsers; its error becomes click's one-line message."""

    def __init__(self, name: str, parse: Callable[[str], Any]) -> None:
        self.name = name
        self.parse = parse

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value  # already converted (a default or a second pass)
        try:
            return self.parse(value)
        except ValueError as error:
            self.fail(str(error), param, ctx)


#: An XGID, a GNU Backgammon ``posid:matchid`` or a bare Position ID -> (Position, MatchState | None).
POSITION = ParsedText("position", read_position)
DICE = ParsedText("dice", parse_dice)
SCORE = ParsedText("score", parse_score)
PROBABILITIES = ParsedText("probabilities", parse_probabilities)


# ----- the group: one-line errors and exit codes ------------------------------------------


def _fail(message: str, code: int) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(code)


class BgEngineGroup(click.Group):
    """A click group whose errors are one line on stderr with the documented exit codes."""

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        prog = prog_name or "bgengine"
        if not standalone_mode:  # the caller handles exceptions and exit codes itself
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        previous_handler = signal.signal(signal.SIGINT, _raise_interrupted)
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except Interrupted:
            _fail(f"{prog}: interrupted", EXIT_INTERRUPTED)
        except click.UsageError as error:
            where = error.ctx.command_path if error.ctx is not None else prog
            _fail(f"{where}: {_one_line(error.format_message())}", EXIT_BAD_INPUT)
        except click.ClickException as error:
            where = error.where if isinstance(error, BadInput) else prog
            _fail(f"{where}: {_one_line(error.format_message())}", error.exit_code)
        except click.Abort:
            _fail(f"{prog}: aborted", EXIT_INTERNAL_ERROR)
        except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(EXIT_INTERNAL_ERROR)
        except (BgEngineError, ValueError) as error:
            _fail(f"{prog}: {_one_line(str(error))}", EXIT_BAD_INPUT)
        except Exception as error:  # noqa: BLE001 - the promise is: exit 1 with a message
            if os.environ.get("BGENGINE_DEBUG"):
                traceback.print_exc()
            _fail(
                f"{prog}: internal error: {type(error).__name__}: {_one_line(str(error))}"
                " (set BGENGINE_DEBUG=1 for the traceback; please report it)",
                EXIT_INTERNAL_ERROR,
            )
        finally:
            signal.signal(signal.SIGINT, previous_handler)
        sys.exit(result if isinstance(result, int) else 0)


class Interrupted(BaseException):
    """Ctrl-C in the command line. Not a KeyboardInterrupt, which click would turn into an
    Abort after printing a blank line: the promise is one line on standard error and 130."""


def _raise_interrupted(signum: int, frame: object) -> None:
    raise Interrupted()


def _one_line(text: str) -> str:
    return " ".join(text.split())


class BadInput(click.ClickException):
    """Bad input found after parsing (e.g. a score that does not fit the match)."""

    exit_code = EXIT_BAD_INPUT

    def __init__(self, message: str) -> None:
        super().__init__(message)
        context = click.get_current_context(silent=True)
        self.where = context.command_path if context is not None else "bgengine"


def _checked(action: Callable[[], Any], where: str) -> Any:
    """Run ``action``; turn a typed bgengine error into a one-line message naming ``where``."""
    try:
        return action()
    except ValueError as error:
        raise BadInput(f"{where}: {error}") from None


# ----- shared options -------------------------------------------------------------------


def json_option(function: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Write one JSON document (see docs/cli.md).")(function)


def match_options(function: F) -> F:
    """--match, --score and --crawford: set or change the match state read with the position."""
    function = click.option("--crawford/--no-crawford", default=None,
                            help="This game is (or is not) the Crawford game.")(function)
    function = click.option("--score", type=SCORE, metavar="A-B",
                            help="Points won so far, the player on roll's first (needs a match length).")(function)
    function = click.option("--match", "match_length", type=int, metavar="LENGTH",
                            help="Match length in points (default: from POSITION, else money play).")(function)
    return function


def _match_for(read_match: MatchState | None, match_length: int | None, score: tuple[int, int] | None,
               crawford: bool | None) -> MatchState:
    where = "--score" if score is not None else "--match" if match_length is not None else "--crawford"
    return _checked(lambda: with_match_options(read_match, length=match_length, score=score, crawford=crawford),
                    where)


def _busy(message: str | None) -> Any:
    """A spinner on standard error while something slow runs, only when a person watches it."""
    import contextlib

    if message is None or not sys.stderr.isatty():
        return contextlib.nullcontext()
    from rich.console import Console

    return Console(stderr=True).status(message + "…")


def _emit_json(command: str, body: dict[str, Any]) -> None:
    click.echo(json.dumps({"schema": JSON_SCHEMA, "command": command, **body}, indent=2))


# ----- commands ---------------------------------------------------------------------------


_EXAMPLES = """\b
Examples:
  bgengine analyze "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"
  bgengine analyze 4HPwATDgc/ABMA --match 7 --score 2-4 --plies 2
  bgengine moves 4HPwATDgc/ABMA 31 --json
  bgengine cube 4HPwATDgc/ABMA --probabilities 0.7,0.2,0.01,0.05,0
  bgengine rollout 4HPwATDgc/ABMA --dice 31 --trials 1296 --seed 1
  bgengine render 4HPwATDgc/ABMA -o board.svg
  bgengine play --match 5
"""


@click.group(cls=BgEngineGroup, context_settings={"help_option_names": ["-h", "--help"]}, epilog=_EXAMPLES)
@click.version_option(__version__, prog_name="bgengine")
def cli() -> None:
    """bgengine: backgammon analysis from the command line.

    POSITION is an XGID (XGID=...), a GNU Backgammon posid:matchid, or a bare Position ID;
    everything is shown from the player on roll. --json on any command writes one JSON
    document (docs/cli.md). Exit codes: 0 ok, 2 bad input, 1 internal error.
    """


@cli.command(short_help="Board, evaluation, cube advice and moves of a position.")
@click.argument("position", type=POSITION)
@click.option("--dice", type=DICE, help="Dice to play, e.g. 31 (default: the dice in POSITION, if any).")
@click.option("--plies", type=click.IntRange(0, 3), help="Evaluation depth 0..3 (needs the evaluator).")
@click.option("--rollout", "rollout_trials", type=click.IntRange(min=1), metavar="TRIALS",
              help="Also roll out the position (or, with dice, the best plays) with TRIALS games each.")
@click.option("--seed", type=click.IntRange(min=0), help="Seed of the rollout (default: drawn and shown).")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also draw the position (with the best play's arrows) to an SVG file.")
@match_options
@json_option
def analyze(position: tuple[Position, MatchState | None], dice: tuple[int, int] | None, plies: int | None,
            rollout_trials: int | None, seed: int | None, svg_path: str | None, match_length: int | None,
            score: tuple[int, int] | None, crawford: bool | None, as_json: bool) -> None:
    """Board, pip counts, IDs, evaluation, cube advice and, with dice, the moves."""
    board, read_match = position
    match = _match_for(read_match, match_length, score, crawford)
    settings = None
    if rollout_trials is not None:
        settings = _checked(lambda: make_settings(rollout_trials, seed=seed), "--rollout")
    with _busy(f"Analysing at {plies} plies" if plies else None):
        where = "--plies" if plies else "POSITION"
        report = _checked(lambda: analyze_position(board, match, dice=dice, plies=plies), where)
    rollout = None
    if settings is not None and not board.is_game_over():
        rollout = _rollout_with_progress(board, match, settings, "--rollout", dice=report.dice, plies=plies)
    if svg_path is not None:
        best = report.moves[0].move if report.moves and report.moves_ranked_by else ()
        _write_svg(svg_path, draw_board(board, match=match, dice=report.dice, arrows=best), "--svg")
    if as_json:
        body = analysis_dict(report)
        body["rollout"] = None if rollout is None else rollout_dict(rollout)
        body["svg"] = svg_path
        _emit_json("analyze", body)
        return
    from bgengine.cli.output import make_console, print_analysis, print_rollout

    console = make_console()
    print_analysis(console, report)
    if rollout is not None:
        console.print()
        print_rollout(console, rollout)


def _rollout_with_progress(board: Position, match: MatchState, settings: Any, where: str, **options: Any) -> Any:
    """Run a rollout with a live progress bar on a terminal's standard error."""
    from bgengine.cli.output import rollout_progress

    with rollout_progress(sys.stderr.isatty()) as progress:
        return _checked(lambda: run_rollout(board, match, settings, progress=progress, **options), where)


@cli.command(short_help="Legal plays of a roll, best first.")
@click.argument("position", type=POSITION)
@click.argument("dice", type=DICE)
@click.option("--plies", type=click.IntRange(0, 3), help="Search depth of the best candidates (needs the evaluator).")
@json_option
def moves(position: tuple[Position, MatchState | None], dice: tuple[int, int], plies: int | None,
          as_json: bool) -> None:
    """Every distinct legal play of DICE in POSITION, best first.

    DICE is a roll such as 31 or 3-1. Plays are ranked by the evaluator (at --plies).
    """
    board, read_match = position
    match = read_match if read_match is not None else MatchState()
    if board.is_game_over():
        raise BadInput("POSITION: the game is over; there is nothing to play")
    with _busy(f"Ranking at {plies} plies" if plies else None):
        choices, ranked_by = _checked(lambda: ranked_moves(board, dice, plies), "--plies" if plies else "DICE")
    if as_json:
        _emit_json("moves", {"position": position_dict(board, match), "match": match_dict(match),
                             "dice": list(dice), "moves": moves_dict(choices, ranked_by)})
        return
    from bgengine.cli.output import make_console, moves_table

    make_console().print(moves_table(choices, dice, ranked_by))


@cli.command(short_help="Draw a position as an SVG picture.")
@click.argument("position", type=POSITION)
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, writable=True, allow_dash=True),
              help="SVG file to write, or - for standard output.")
@click.option("--dice", type=DICE, help="Dice to draw (default: the dice in POSITION, if any).")
@click.option("--size", type=click.IntRange(min=50, max=10000), default=600, show_default=True,
              help="Width in pixels.")
@click.option("--orientation", type=click.Choice(["right", "left"]), default="right", show_default=True,
              help="Side of the board where the player on roll bears off.")
@click.option("--arrows", "arrow_move", metavar="MOVE",
              help='A play of the player on roll to draw as arrows, e.g. "8/5 6/5".')
@match_options
@json_option
def render(position: tuple[Position, MatchState | None], output: str, dice: tuple[int, int] | None, size: int,
           orientation: str, arrow_move: str | None, match_length: int | None, score: tuple[int, int] | None,
           crawford: bool | None, as_json: bool) -> None:
    """Draw POSITION as an SVG picture."""
    board, read_match = position
    match = _match_for(read_match, match_length, score, crawford)
    if as_json and output == "-":
        raise BadInput("--json: the JSON report goes to standard output, so write the SVG to a file with -o FILE")
    arrows = _checked(lambda: _play_to_draw(board, arrow_move, dice or match.dice), "--arrows")
    picture = draw_board(board, match=match, dice=dice, size=size, orientation=orientation, arrows=arrows)
    if output == "-":
        click.echo(picture)
        return
    _write_svg(output, picture, "-o")
    if as_json:
        _emit_json("render", {"output": output, "bytes": len(picture.encode("utf-8")) + 1, "size": size,
                              "orientation": orientation, "position": position_dict(board, match)})
    else:
        click.echo(f"wrote {output}")


def _write_svg(path: str, picture: str, option: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(picture)
            handle.write("\n")
    except OSError as error:
        raise BadInput(f"{option} {path}: cannot write: {error.strerror}") from None


def _play_to_draw(board: Position, text: str | None, dice: tuple[int, int] | None) -> Any:
    """The Move that ``text`` names; checked against the legal plays when the dice are known."""
    if text is None:
        return ()
    if dice is not None:
        legal = board.legal_moves(dice)
        return legal.moves[legal.index(text)]
    from bgengine.move import Move

    return Move.parse(text)


@cli.command(short_help="Double or not, take or pass.")
@click.argument("position", type=POSITION)
@click.option("--probabilities", type=PROBABILITIES, metavar="W,WG,WBG,LG,LBG",
              help="The player on roll's cubeless chances, instead of the engine's evaluation.")
@click.option("--plies", type=click.IntRange(0, 3), default=0, show_default=True,
              help="Depth of the cubeless chances put through the cube model (not a cubeful search);"
                   " with --rollout, the depth of checker play and cube decisions inside the games.")
@click.option("--rollout", "rollout_trials", type=click.IntRange(min=1), metavar="TRIALS",
              help="Roll out No double and Double/Take cubeful, TRIALS games each (common dice).")
@click.option("--seed", type=click.IntRange(min=0), help="Seed of the rollout's dice (default: drawn and shown).")
@click.option("--until-clear", "decision_z", type=click.FloatRange(min=0, min_open=True), metavar="Z",
              help="With --rollout: stop once take/pass and double/no double are each clear by Z standard"
                   " errors (checked every 144 trials).")
@match_options
@json_option
def cube(position: tuple[Position, MatchState | None], probabilities: tuple[float, ...] | None, plies: int,
         rollout_trials: int | None, seed: int | None, decision_z: float | None, match_length: int | None,
         score: tuple[int, int] | None, crawford: bool | None, as_json: bool) -> None:
    """Double or not, take or pass: the cube decision of the player on roll before rolling."""
    board, read_match = position
    match = _match_for(read_match, match_length, score, crawford)
    rollout_plies = plies if rollout_trials is not None else 0
    plies = 0 if rollout_trials is not None else plies
    given = [name for name, value in (("--probabilities", probabilities), ("--plies", plies or None),
                                      ("--rollout", rollout_trials)) if value is not None]
    if len(given) > 1:
        raise BadInput(f"{given[1]}: give only one of {' / '.join(given)}")
    if seed is not None and rollout_trials is None:
        raise BadInput("--seed: the seed is for --rollout")
    if decision_z is not None and rollout_trials is None:
        raise BadInput("--until-clear: the stop rule is for --rollout")
    settings = None
    if rollout_trials is not None:
        settings = _checked(lambda: make_settings(rollout_trials, seed=seed, checker_plies=rollout_plies,
                                                  decision_z=decision_z), "--rollout")
    where = given[0] if given else "POSITION"
    evaluation, decision = _checked(
        lambda: cube_advice(board, match, probabilities, plies=plies, rollout=settings), where)
    if as_json:
        _emit_json("cube", {"position": position_dict(board, match), "match": match_dict(match),
                            "evaluation": evaluation_dict(evaluation), "cube": cube_dict(decision)})
        return
    from bgengine.cli.output import cube_summary, cube_table, describe_match, evaluation_table, make_console

    console = make_console()
    console.print(describe_match(match))
    console.print()
    console.print(evaluation_table(evaluation))
    console.print()
    console.print(cube_table(decision))
    console.print(cube_summary(decision))


@cli.command(short_help="Play against the engine in this terminal.")
@click.option("--match", "match_length", type=click.IntRange(min=0), default=0, metavar="LENGTH",
              help="Play a match to LENGTH points (default: one money game).")
@click.option("--opponent", type=click.Choice(["engine", "pubeval", "heuristic", "random"]), default="engine",
              show_default=True,
              help="The agent you play against: the engine's evaluator, Tesauro's PubEval, a heuristic, or random.")
@click.option("--plies", type=click.IntRange(0, 3), default=0, show_default=True,
              help="Search depth of the engine opponent.")
@click.option("--seed", type=click.IntRange(min=0), help="Seed of the dice (and of the random agent).")
@click.option("--seat", type=click.Choice(["0", "1"]), default="0", show_default=True,
              help="Your seat: player 0 (X in XGIDs) or 1.")
@click.option("--name", default="You", show_default=True, help="Your name in the record.")
@click.option("--save", type=click.Path(dir_okay=False, writable=True), metavar="FILE.mat",
              help="Write the match record in Jellyfish .mat format (matches only).")
@json_option
def play(match_length: int, opponent: str, plies: int, seed: int | None, seat: str, name: str, save: str | None,
         as_json: bool) -> None:
    """Play against the engine in this terminal; type moves such as 24/18 13/11.

    With --json the session is written to standard error and a summary of the result to
    standard output.
    """
    from bgengine.game.match import Match
    from bgengine.formats.mat import write_mat
    from bgengine.cli.play_terminal import play_in_terminal

    if save is not None and not match_length:
        raise BadInput("--save: a .mat record holds a match; give --match LENGTH")
    if plies and opponent != "engine":
        raise BadInput(f"--plies: the {opponent} opponent does not search; --plies is for --opponent engine")
    agent = _opponent(opponent, plies, seed)
    human = int(seat)
    engine_name = "bgengine" if opponent == "engine" else f"bgengine ({opponent})"
    record = play_in_terminal(
        agent, length=match_length, human=human, seed=seed, names=(name, engine_name),
        input=sys.stdin, output=sys.stderr if as_json else sys.stdout,
    )
    if save is not None and isinstance(record, Match):
        try:
            write_mat(record, save)
        except OSError as error:
            raise BadInput(f"--save {save}: cannot write: {error.strerror}") from None
    if as_json:
        _emit_json("play", _play_summary(record, human, match_length, opponent, save))


def _opponent(kind: str, plies: int, seed: int | None) -> Any:
    """The agent behind ``play --opponent``."""
    if kind == "engine":
        from bgengine.agents.engine import EngineAgent

        return EngineAgent(plies)
    if kind == "pubeval":
        from bgengine.agents.pubeval import PubEvalAgent

        return PubEvalAgent()
    from bgengine.agents.base import HeuristicAgent, RandomAgent

    return HeuristicAgent() if kind == "heuristic" else RandomAgent(seed)


def _play_summary(record: Any, human: int, match_length: int, opponent: str, save: str | None) -> dict[str, Any]:
    """The ``play`` JSON body: who won what, from the human's side ("you") and the engine's."""
    def side(player: int | None) -> str | None:
        return None if player is None else ("you" if player == human else "engine")

    if match_length:
        games = list(record.games)
        winner, score = record.winner, record.score
    else:
        games = [record]
        outcome = record.outcome
        winner = None if outcome is None else outcome.winner
        points = 0 if outcome is None else outcome.points
        score = tuple(points if outcome is not None and player == outcome.winner else 0 for player in (0, 1))
    finished = [game.outcome for game in games if game.outcome is not None]
    return {
        "match_length": match_length,
        "opponent": opponent,
        "finished": record.is_over,
        "winner": side(winner),
        "score": {"you": score[human], "engine": score[1 - human]},
        "games": [{"winner": side(o.winner), "result": o.result.name.lower(), "cube": o.cube_value,
                   "points": o.points} for o in finished],
        "saved": save,
    }


@cli.command(short_help="Monte Carlo rollout with a live progress bar.")
@click.argument("position", type=POSITION)
@click.option("--trials", type=click.IntRange(min=1), default=1296, show_default=True, help="Games per rollout.")
@click.option("--seed", type=click.IntRange(min=0), help="Seed of the dice (default: drawn and shown).")
@click.option("--dice", type=DICE, help="Roll out plays of these dice (default: the dice in POSITION, if any).")
@click.option("--move", "moves", multiple=True, metavar="MOVE",
              help="A play to roll out (repeatable); default: the best --candidates plays.")
@click.option("--candidates", type=click.IntRange(1, 100), default=5, show_default=True,
              help="How many of the best plays to roll out when no --move is given.")
@click.option("--cubeful", is_flag=True, help="Also estimate the cubeful equity (cube decisions at --plies).")
@click.option("--plies", type=click.IntRange(0, 3), metavar="N",
              help="Depth of checker play and cube decisions inside the games (default 0, or the preset's).")
@click.option("--preset", type=click.Choice(["fast", "standard", "strong"]),
              help="Named settings: fast (0-ply play), standard (1-ply), strong (2-ply).")
@click.option("--truncate", type=click.IntRange(min=1), metavar="PLIES",
              help="Stop each game after PLIES half-moves and score it with the evaluator.")
@click.option("--variance-reduction/--no-variance-reduction", default=True, show_default=True,
              help="Subtract each roll's luck (unbiased, smaller errors).")
@click.option("--quasi-random/--no-quasi-random", default=True, show_default=True,
              help="Stratify the first two rolls over all dice.")
@click.option("--target-se", type=click.FloatRange(min=0, min_open=True), metavar="SE",
              help="Stop once the equity's standard error is at most SE.")
@match_options
@json_option
def rollout(position: tuple[Position, MatchState | None], trials: int, seed: int | None,
            dice: tuple[int, int] | None, moves: tuple[str, ...], candidates: int, cubeful: bool,
            plies: int | None, preset: str | None, truncate: int | None, variance_reduction: bool, quasi_random: bool, target_se: float | None,
            match_length: int | None, score: tuple[int, int] | None, crawford: bool | None, as_json: bool) -> None:
    """Monte Carlo rollout of POSITION before the roll, or of plays of the dice, with a live progress bar."""
    board, read_match = position
    match = _match_for(read_match, match_length, score, crawford)
    dice = dice if dice is not None else match.dice
    if board.is_game_over():
        raise BadInput("POSITION: the game is over; there is nothing to roll out")
    if moves and dice is None:
        raise BadInput("--move: plays need dice; give --dice")
    # smaller blocks for deeper play, so the progress bar (and its time left) moves every few seconds
    depth: dict[str, Any] = {} if plies is None else {"checker_plies": plies, "cube_plies": None,
                                                       "later_plies": None, "later_from": None,
                                                       "block_size": max(2, 72 // 6 ** plies)}
    settings = _checked(lambda: make_settings(trials, seed=seed, preset=preset, truncate_plies=truncate,
                                              variance_reduction=variance_reduction, quasi_random=quasi_random,
                                              target_standard_error=target_se, **depth),
                        "--plies" if plies is not None else "--trials")
    report = _rollout_with_progress(board, match, settings, "--move" if moves else "POSITION", dice=dice, moves=moves,
                                    candidates=candidates, cubeful=cubeful)
    if as_json:
        _emit_json("rollout", {"position": position_dict(board, match), "match": match_dict(match),
                               "rollout": rollout_dict(report)})
        return
    from bgengine.cli.output import describe_match, make_console, print_rollout

    console = make_console()
    console.print(describe_match(match))
    print_rollout(console, report)


@cli.command(short_help="Train the evaluator by TD(lambda) self-play.")
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Directory for the checkpoints.")
@click.option("--games", required=True, type=click.IntRange(min=1), help="Total self-play games to reach.")
@click.option("--seed", type=int, default=None, help="Seed of the weights and dice (default: TrainingSettings').")
@click.option("--hidden", type=click.IntRange(min=1), default=None, help="Hidden units of a new network.")
@click.option("--alpha", type=click.FloatRange(min=0, min_open=True), default=None, help="Step size at the start.")
@click.option("--lam", type=click.FloatRange(0, 1), default=None, help="TD(lambda) trace decay.")
@click.option("--eval-games", type=click.IntRange(min=1), default=None,
              help="Games against PubEval per strength measurement.")
@click.option("--eval-every", type=click.IntRange(min=1), default=20_000, show_default=True,
              help="Measure the strength every this many games.")
@click.option("--encoding", type=click.IntRange(1, 3), default=None, help="Input encoding of the network (default 1).")
@click.option("--init", type=click.Path(dir_okay=False, exists=True), default=None,
              help="Weights file to start from (widened to --encoding), instead of random weights.")
@click.option("--resume", type=click.Path(dir_okay=False, exists=True), help="Checkpoint to continue from.")
@json_option
def train(out: str, games: int, seed: int | None, hidden: int | None, alpha: float | None, lam: float | None,
          eval_games: int | None, eval_every: int, encoding: int | None, init: str | None, resume: str | None,
          as_json: bool) -> None:
    """Train the evaluator network by TD(lambda) self-play (seeded, resumable).

    Progress lines go to standard output, or to standard error with --json, which then
    writes a summary of the run (games, time, strength against PubEval) to standard output.
    """
    from dataclasses import replace

    from bgengine.training import td as training

    given: dict[str, Any] = {"seed": seed, "hidden": hidden, "alpha": alpha, "lam": lam, "eval_games": eval_games,
                             "encoding": encoding, "init": init}
    settings = replace(training.TrainingSettings(), **{k: v for k, v in given.items() if v is not None})

    def report(line: str) -> None:
        click.echo(line, err=as_json)

    _network, state = _checked(
        lambda: training.train(out, games, settings, resume=resume, eval_every_games=eval_every, report=report),
        "--resume" if resume else "--out",
    )
    if as_json:
        _emit_json("train", {
            "out": out,
            "games": state.games,
            "seconds": round(state.seconds, 3),
            "settings": asdict(state.settings),
            "strength": [{"games_trained": h.games_trained, "points_per_game": round(h.points_per_game, 6),
                          "standard_error": round(h.standard_error, 6), "games": h.games} for h in state.history],
        })


@cli.command(short_help="A quick speed report of this machine.")
@click.option("--seconds", type=click.FloatRange(0.01, 10.0), default=0.2, show_default=True,
              help="Time spent on each operation.")
@json_option
def bench(seconds: float, as_json: bool) -> None:
    """A quick speed report of this machine for what this build can do (answers checked first)."""
    from bgengine.cli.quick_bench import machine_summary, run_quick_bench

    results = run_quick_bench(seconds)
    if as_json:
        _emit_json("bench", {
            "machine": machine_summary(),
            "results": [{"name": r.name, "calls": r.calls, "seconds": round(r.seconds, 6),
                         "per_second": round(r.per_second, 1)} for r in results],
        })
        return
    from bgengine.cli.output import bench_table, make_console

    make_console().print(bench_table(results, machine_summary(), __version__))


@cli.command("analyze-match", short_help="Rate every decision of a .sgf or .mat match.")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--plies", type=click.IntRange(0, 3), default=2, show_default=True,
              help="Depth of the analysis: plays' candidates, cube decisions.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Threads analysing turns (default: one per core). The answers do not depend on it.")
@click.option("--equity", type=click.Choice(["cubeful", "match", "money"]), default="cubeful", show_default=True,
              help="Measure checker plays and luck cubefully at the score, by cubeless MWC at the score,"
                   " or by cubeless money equity.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), metavar="REPORT.html",
              help="Also write a self-contained HTML report with the marked decisions' boards.")
@json_option
def analyze_match(file: str, plies: int, workers: int | None, equity: str, html_path: str | None,
                  as_json: bool) -> None:
    """Every checker play, cube decision and roll of a match file (GNU Backgammon .sgf or Jellyfish .mat)
    rated: error rates and PR per player, luck, and the bad and very bad decisions."""
    import concurrent.futures as cf

    from bgengine.analysis.match_analysis import analyze_match as analyse
    from bgengine.cli.match_report import analysis_progress, match_analysis_dict, print_match_analysis, read_match_file

    match = _checked(lambda: read_match_file(file), "FILE")
    with cf.ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        with analysis_progress(sys.stderr.isatty()) as progress:
            analysis = analyse(match, plies, executor=pool, progress=progress, equity=equity)
    if html_path is not None:
        from bgengine.cli.match_html import html_report

        try:
            Path(html_path).write_text(html_report(analysis), encoding="utf-8")
        except OSError as error:
            raise BadInput(f"--html: cannot write {html_path}: {error.strerror or error}") from None
    if as_json:
        _emit_json("analyze-match", {**match_analysis_dict(analysis, file), "html": html_path})
        return
    from bgengine.cli.output import make_console

    console = make_console()
    print_match_analysis(console, analysis)
    if html_path is not None:
        console.print(f"HTML report: {html_path}")


def main() -> None:
    """Entry point of the ``bgengine`` console script."""
    cli(prog_name="bgengine")


if __name__ == "__main__":
    main()

"""Match records in the Jellyfish ``.mat`` text format that backgammon programs exchange.

Layout (player 0 is the left column, player 1 the right)::

     7 point match

     Game 1
     Alice : 0                          Bob : 0
      1) 31: 8/5 6/5                    42: 8/4 6/4
      2)  Doubles => 2                   Takes
      3) 62: 24/18 13/11                51:
                                        Wins 2 points

Each numbered line holds one turn of each player: a roll and its play (``51:`` alone
when nothing can be played), `` Doubles => N``, `` Takes`` or `` Drops``. ``Wins N
point(s)`` in the winner's column ends a game; without a bear-off or a drop before it,
it is a resignation. Lines before `` N point match`` (such as ``; [Site "..."]``) are
header comments. Reading replays every action through the rules (``Match``), so an
illegal move is refused with its line number and the reason. Not in the format, so not
written: rejected resignation offers, beavers (money play only).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bgengine.game.actions import Accept, Action, Decision, Double, Pass, Play, Resign, Roll, Take
from bgengine.errors import BgEngineError, MatchFileError, quoted
from bgengine.formats._record import entries, read_dice
from bgengine.game.record import Game
from bgengine.game.match import Match
from bgengine.move import Move
from bgengine.position import GameResult

_LEFT_WIDTH = 28  # width of the left column, after "NNN) "
_RIGHT_COLUMN = 5 + _LEFT_WIDTH + 1  # where the right column starts on a line
_LEFT_LIMIT = 20  # a lone cell starting left of this column is in the left column

#: Longer than any line a match file needs (move lines are under 80; comments are free text).
MAT_LINE_LIMIT = 2000
_MATCH_HEADER = re.compile(r"^\s*([0-9]{1,5})\s+point\s+match\s*$", re.IGNORECASE)
_GAME_HEADER = re.compile(r"^\s*Game\s+([0-9]{1,5})\s*$", re.IGNORECASE)
_SCORE_LINE = re.compile(r"^\s*(.+?)\s*:\s*([0-9]{1,5})\s+(.+?)\s*:\s*([0-9]{1,5})\s*$")
_NUMBER = re.compile(r"^\s*([0-9]{1,5})\)")
_CELL_START = re.compile(r"(?<!\S)(?:[1-6][1-6]:|Doubles\b|Takes\b|Drops\b|Wins\b)", re.IGNORECASE)
_ROLL_CELL = re.compile(r"^([1-6])([1-6]):\s*(.*)$")
_DOUBLE_CELL = re.compile(r"^Doubles\s*=>\s*([0-9]{1,5})$", re.IGNORECASE)
_WINS_CELL = re.compile(r"^Wins\s+([0-9]{1,5})\s+points?(\s+and\s+the\s+match)?$", re.IGNORECASE)


# ----- writing ----------------------------------------------------------------------


def format_mat(match: Match) -> str:
    """The whole match as .mat text."""
    names = tuple(_clean_name(name) for name in match.names)
    lines = ['; [Site "bgengine"]', f'; [Player 1 "{names[0]}"]', f'; [Player 2 "{names[1]}"]', ""]
    lines += [f" {match.length} point match", ""]
    for number, game in enumerate(match.games, start=1):
        if len(game) == 0 and game is not match.games[0]:
            continue  # the next game, started but not yet played
        lines += _game_lines(number, game, names, match)
        lines.append("")
    return "\n".join(lines) + "\n"


def write_mat(match: Match, path: str | Path) -> None:
    """Write ``match`` to the file ``path`` as .mat text."""
    Path(path).write_text(format_mat(match), encoding="utf-8")


def _game_lines(number: int, game: Game, names: tuple[str, ...], match: Match) -> list[str]:
    score = game.starting_state.score
    left = f"{names[0]} : {score[0]}"
    lines = [f" Game {number}", f" {left:<{_RIGHT_COLUMN - 2}} {names[1]} : {score[1]}"]
    cells = list(_cells(game))
    if cells and cells[0][0] == 1:
        cells.insert(0, (0, ""))
    for row, start in enumerate(range(0, len(cells), 2), start=1):
        pair = cells[start : start + 2]
        right = pair[1][1] if len(pair) > 1 else ""
        lines.append(_move_line(row, pair[0][1], right))
    outcome = game.outcome
    if outcome is not None:
        plural = "s" if outcome.points != 1 else ""
        ends_match = match.is_over and game is match.games[-1]
        wins = f"Wins {outcome.points} point{plural}" + (" and the match" if ends_match else "")
        indent = " " * (_RIGHT_COLUMN if outcome.winner == 1 else 6)
        lines.append(indent + wins)
    return lines


def _move_line(row: int, left: str, right: str) -> str:
    gap = " " if len(left) < _LEFT_WIDTH else "  "
    return f"{row:3d}) {left:<{_LEFT_WIDTH}}{gap}{right}".rstrip()


def _cells(game: Game) -> Iterator[tuple[int, str]]:
    """(player, text) of each cell of the record: a roll with its play, or a cube action."""
    for entry in entries(game, ".mat"):
        if entry.kind == "play":
            played = "" if entry.move.is_pass() else str(entry.move)
            yield entry.player, f"{entry.dice[0]}{entry.dice[1]}: {played}".rstrip()
        elif entry.kind == "double":
            yield entry.player, f" Doubles => {entry.cube}"
        else:
            yield entry.player, " Takes" if entry.kind == "take" else " Drops"


def _clean_name(name: str) -> str:
    """A player's name as the format can hold it: one line, no colon."""
    cleaned = re.sub(r"[:\s]+", "_", name.strip())
    return cleaned or "Player"


# ----- reading ----------------------------------------------------------------------


@dataclass
class _Line:
    number: int
    text: str


def parse_mat(text: str) -> Match:
    """Read .mat text and replay it through the rules; ``MatchFileError`` names the bad line."""
    if not isinstance(text, str):
        raise MatchFileError(0, f".mat text must be a string, got {type(text).__name__}")
    lines = _lines(text)
    header = None
    for line in lines:
        if _MATCH_HEADER.match(line.text):
            header = line
            break
        if line.text.strip() and not line.text.lstrip().startswith(";"):
            raise MatchFileError(line.number, f"expected ' N point match', got {quoted(line.text)}")
    if header is None:
        raise MatchFileError(0, "no ' N point match' line: not a .mat match file")
    length = int(_MATCH_HEADER.match(header.text).group(1))  # type: ignore[union-attr]
    if length == 0:
        raise MatchFileError(header.number, "money sessions (0 point match) are not supported; only matches")
    try:
        match = Match(length)
    except BgEngineError as error:
        raise MatchFileError(header.number, str(error)) from None
    reader = _GameReader(match)
    for line in lines:
        reader.read(line)
    reader.finish()
    return match


def _lines(text: str) -> Iterator[_Line]:
    """The numbered lines of ``text`` one at a time (a large file is never copied whole);
    a line longer than any a match file needs is refused at once."""
    for number, raw in enumerate(io.StringIO(text, newline=None), start=1):
        if len(raw) > MAT_LINE_LIMIT:
            raise MatchFileError(number, f"the line is {len(raw)} characters; .mat lines are at most {MAT_LINE_LIMIT}")
        yield _Line(number, raw.rstrip("\r\n"))


def read_mat(path: str | Path) -> Match:
    """Read the .mat file at ``path`` (see ``parse_mat``)."""
    return parse_mat(Path(path).read_text(encoding="utf-8", errors="replace"))


class _GameReader:
    """Feeds the lines of the games to a ``Match``, one cell at a time."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.games_read = 0
        self.current: Game | None = None  # the game whose lines are being read
        self.expect_score_line = False
        self.game_started_line = 0
        self.next_move_number = 1  # the "N)" the next numbered line of the game must carry

    def read(self, line: _Line) -> None:
        text = line.text
        if not text.strip() or text.lstrip().startswith(";"):
            return
        game_header = _GAME_HEADER.match(text)
        if game_header:
            self._start_game(line, int(game_header.group(1)))
        elif self.expect_score_line:
            self._score_line(line)
        elif self.current is None:
            raise MatchFileError(line.number, f"expected ' Game 1', got {text.strip()!r}")
        else:
            self._check_move_number(line)
            for player, cell in _split_cells(line):
                self._cell(line, self.current, player, cell)

    def _check_move_number(self, line: _Line) -> None:
        """Numbered lines must count 1, 2, 3, ... in each game: a swapped, dropped or repeated
        line is an error even when its moves happen to stay legal."""
        numbered = _NUMBER.match(line.text)
        if numbered is None:
            return
        number = int(numbered.group(1))
        if number != self.next_move_number:
            raise MatchFileError(
                line.number,
                f"move number {number}) where {self.next_move_number}) was due: lines swapped, dropped or repeated",
            )
        self.next_move_number += 1

    def finish(self) -> None:
        if self.expect_score_line:
            raise MatchFileError(self.game_started_line, "the game has no score line")

    def _start_game(self, line: _Line, number: int) -> None:
        match = self.match
        if number != self.games_read + 1:
            raise MatchFileError(line.number, f"expected Game {self.games_read + 1}, got Game {number}")
        if self.current is not None and not self.current.is_over:
            raise MatchFileError(line.number, f"Game {number} starts before Game {number - 1} has ended")
        if match.is_over:
            raise MatchFileError(line.number, f"Game {number} after the match is over (score {match.score})")
        self.games_read += 1
        self.current = match.game
        self.next_move_number = 1
        self.expect_score_line = True
        self.game_started_line = line.number

    def _score_line(self, line: _Line) -> None:
        found = _SCORE_LINE.match(line.text)
        if not found:
            expected = "a score line 'name : points   name : points'"
            raise MatchFileError(line.number, f"expected {expected}, got {line.text!r}")
        score = (int(found.group(2)), int(found.group(4)))
        if score != self.match.score:
            raise MatchFileError(
                line.number,
                f"score {score[0]}-{score[1]} does not follow from the games before it"
                f" ({self.match.score[0]}-{self.match.score[1]})",
            )
        if self.games_read == 1:
            self.match.names = (found.group(1), found.group(3))
        self.expect_score_line = False

    def _cell(self, line: _Line, game: Game, player: int, cell: str) -> None:
        wins = _WINS_CELL.match(cell)
        if wins:
            self._wins(line, game, player, int(wins.group(1)))
            return
        if game.is_over:
            raise MatchFileError(line.number, f"{cell!r} after the game has ended")
        turn = player if game.decision is Decision.OPENING_ROLL else game.turn
        if player != turn:
            raise MatchFileError(
                line.number,
                f"{cell!r} is in the column of player {player}, but player {turn} is to act ({game.decision.value})",
            )
        for action in _actions_of_cell(line, player, cell, game):
            self._push(line, action, cell)

    def _wins(self, line: _Line, game: Game, player: int, points: int) -> None:
        outcome = game.outcome
        if outcome is not None:
            if outcome.winner != player or outcome.points != points:
                raise MatchFileError(
                    line.number,
                    f"says player {player} wins {points} point(s), but the game was won by player"
                    f" {outcome.winner} for {outcome.points}",
                )
            return
        # The moves did not end the game: the loser resigned.
        cube = game.state.cube_value
        level, remainder = divmod(points, cube)
        if remainder or level not in (1, 2, 3):
            raise MatchFileError(
                line.number, f"{points} point(s) is not a resignation of 1, 2 or 3 times the cube ({cube})"
            )
        self._push(line, Resign(GameResult(level), 1 - player), "resignation")
        self._push(line, Accept(), "resignation")

    def _push(self, line: _Line, action: Action, cell: str) -> None:
        try:
            self.match.push(action)
        except BgEngineError as error:
            raise MatchFileError(line.number, f"{cell.strip()!r}: {error}") from None


def _actions_of_cell(line: _Line, player: int, cell: str, game: Game) -> list[Action]:
    roll = _ROLL_CELL.match(cell)
    if roll:
        dice = read_dice(game, player, int(roll.group(1)), int(roll.group(2)), line.number, repr(cell))
        try:
            move = Move.parse(roll.group(3).strip() or "pass")  # "51:" alone: nothing to play
        except BgEngineError as error:
            raise MatchFileError(line.number, f"cannot read the move {roll.group(3)!r}: {error}") from None
        return [Roll(dice), Play(move)]
    double = _DOUBLE_CELL.match(cell)
    if double:
        offered = int(double.group(1))
        if offered != game.state.cube_value * 2:
            raise MatchFileError(line.number, f"'Doubles => {offered}' but the cube is at {game.state.cube_value}")
        return [Double()]
    word = cell.strip().lower()
    if word.startswith("take"):
        return [Take()]
    if word.startswith("drop") or word.startswith("pass"):
        return [Pass()]
    raise MatchFileError(line.number, f"cannot read {cell!r}")


def _split_cells(line: _Line) -> list[tuple[int, str]]:
    """The cells of a line with their column (0 left, 1 right)."""
    text = line.text
    numbered = _NUMBER.match(text)
    body_start = numbered.end() if numbered else 0
    body = text[body_start:]
    starts = [found.start() for found in _CELL_START.finditer(body)]
    if not starts:
        raise MatchFileError(line.number, f"cannot read {text.strip()!r}")
    if body[: starts[0]].strip():
        raise MatchFileError(line.number, f"cannot read {body[: starts[0]].strip()!r}")
    if len(starts) > 2:
        raise MatchFileError(line.number, "more than two entries on one line")
    cells = [body[start:end].strip() for start, end in zip(starts, [*starts[1:], len(body)], strict=True)]
    if len(cells) == 2:
        return [(0, cells[0]), (1, cells[1])]
    return [(0 if body_start + starts[0] < _LEFT_LIMIT else 1, cells[0])]

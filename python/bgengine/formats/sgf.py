"""Match records in GNU Backgammon's ``.sgf`` format (Smart Game Format, game GM[6]).

A file is one game tree per game, each ``(;root properties ;node ;node ...)``. The root
of each game says ``GM[6]`` (backgammon), ``MI[length:7][game:0][ws:0][bs:0]`` (match
length, the game's 0-based number, white's and black's score before it), ``PW``/``PB``
(the players' names), ``RU`` (``Crawford``, with ``:CrawfordGame`` in that game) and,
once decided, ``RE[W+2]`` (the winner and points; ``R`` after a resignation). White is
player 0 (the left column of a .mat file), black player 1.

A node's ``W[...]`` or ``B[...]`` is that player's action: ``double``, ``take``, ``drop``
or a roll and its play: two dice then a pair of letters per hop. Letters ``a``..``x``
are the points 1..24 in white's numbering (black's point p is letter 24 - p), ``y`` the
bar and ``z`` off; ``W[61]`` alone is a roll that cannot be played. Other properties
(GNU Backgammon's stored analysis ``A``, ``DA``, ``LU``, marks ``BM``, ``DO``, ...) are
read past. Reading replays every action through the rules (``Match``): a bad file
raises ``MatchFileError`` with the line and the property at fault. Not read: positions
set up by hand (``AW``, ``AB``, ``AE``), variations, money sessions.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bgengine.errors import QUOTE_LIMIT, BgEngineError, MatchFileError
from bgengine.formats._record import entries, read_dice
from bgengine.game.actions import Accept, Action, Decision, Double, Pass, Play, Resign, Roll, Take
from bgengine.game.match import Match
from bgengine.game.record import Game
from bgengine.move import Move
from bgengine.position import GameResult

_PLAYER_OF = {"W": 0, "B": 1}
_COLOUR = ("W", "B")
_BAR, _OFF = "y", "z"
_SETUP = {"AW", "AB", "AE", "PL", "CO", "CV", "DI"}
_RESULT = re.compile(r"^([WB])\+(\d+)(R?)$")
_MATCH_INFO = re.compile(r"^(length|game|ws|bs):(\d+)$")
_ROLL = re.compile(r"^([1-6])([1-6])((?:[a-z][a-z])*)$")


# ----- writing ----------------------------------------------------------------------


def format_sgf(match: Match, *, application: str = "bgengine") -> str:
    """The whole match as ``.sgf`` text, one game tree per game played."""
    trees = []
    for number, game in enumerate(match.games):
        if len(game) == 0 and number > 0:
            continue  # the next game, started but not yet played
        trees.append(_game_tree(number, game, match, application))
    return "\n".join(trees) + "\n"


def write_sgf(match: Match, path: str | Path) -> None:
    """Write ``match`` to the file ``path`` as ``.sgf`` text."""
    Path(path).write_text(format_sgf(match), encoding="utf-8")


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _game_tree(number: int, game: Game, match: Match, application: str) -> str:
    start = game.starting_state
    rules = "Crawford:CrawfordGame" if start.crawford else "Crawford"
    root = (
        f"(;FF[4]GM[6]CA[UTF-8]AP[{_escape(application)}]"
        f"MI[length:{match.length}][game:{number}][ws:{start.score[0]}][bs:{start.score[1]}]"
        f"PW[{_escape(match.names[0])}]PB[{_escape(match.names[1])}]RU[{rules}]"
    )
    outcome = game.outcome
    if outcome is not None:
        resigned = any(isinstance(action, Accept) for action in game.actions)
        root += f"RE[{_COLOUR[outcome.winner]}+{outcome.points}{'R' if resigned else ''}]"
    nodes = [f";{colour}[{value}]" for colour, value in _nodes(game)]
    return "\n".join([root, *nodes]) + ")"


def _nodes(game: Game) -> Iterator[tuple[str, str]]:
    for entry in entries(game, ".sgf"):
        colour = _COLOUR[entry.player]
        if entry.kind == "play":
            hops = "".join(_letter(entry.player, step[0]) + _letter(entry.player, step[1]) for step in entry.move.steps)
            yield colour, f"{entry.dice[0]}{entry.dice[1]}{hops}"
        else:
            yield colour, {"double": "double", "take": "take", "pass": "drop"}[entry.kind]


def _letter(player: int, point: int) -> str:
    """The letter of a point (25 bar, 0 off) in the mover's numbering."""
    if point == 25:
        return _BAR
    if point == 0:
        return _OFF
    return chr(ord("a") + (point - 1 if player == 0 else 24 - point))


def _point(player: int, letter: str) -> int | None:
    """The mover's point of a letter (25 bar, 0 off), None if it is no point."""
    if letter == _BAR:
        return 25
    if letter == _OFF:
        return 0
    index = ord(letter) - ord("a")
    if not 0 <= index <= 23:
        return None
    return index + 1 if player == 0 else 24 - index


# ----- the syntax: game trees of nodes of properties --------------------------------


@dataclass
class _Property:
    name: str
    values: list[str]
    line: int


@dataclass
class _Node:
    line: int
    properties: list[_Property] = field(default_factory=list)

    def get(self, name: str) -> _Property | None:
        return next((p for p in self.properties if p.name == name), None)


def _trees(text: str) -> list[list[_Node]]:
    """The game trees of an SGF collection as lists of nodes; ``MatchFileError`` on bad syntax."""
    trees: list[list[_Node]] = []
    position, line, length = 0, 1, len(text)
    current: list[_Node] | None = None

    def fail(reason: str) -> MatchFileError:
        return MatchFileError(line, reason)

    while position < length:
        char = text[position]
        if char == "\n":
            line += 1
            position += 1
        elif char.isspace():
            position += 1
        elif char == "(":
            if current is not None:
                raise fail("variations (a '(' inside a game) are not supported")
            current = []
            position += 1
        elif char == ")":
            if current is None:
                raise fail("')' without a game tree to close")
            if not current:
                raise fail("an empty game tree '()'")
            trees.append(current)
            current = None
            position += 1
        elif char == ";":
            if current is None:
                raise fail("a node ';' outside a game tree '( ... )'")
            current.append(_Node(line))
            position += 1
        elif char.isalpha() and char.isupper():
            if current is None or not current:
                raise fail(f"property {char}... outside a node")
            start = position
            while position < length and text[position].isalpha():
                position += 1
            name = text[start:position]
            if not name.isupper():
                raise fail(f"property names are capital letters, got {name!r}")
            prop = _Property(name, [], line)
            while True:
                while position < length and text[position].isspace():
                    line += text[position] == "\n"
                    position += 1
                if position >= length or text[position] != "[":
                    break
                value, position, line = _value(text, position + 1, line, name)
                prop.values.append(value)
            if not prop.values:
                raise fail(f"property {name} has no value '[...]'")
            current[-1].properties.append(prop)
        else:
            raise fail(f"unexpected character {char!r}")
    if current is not None:
        raise fail("the file ends inside a game tree: ')' is missing")
    return trees


def _value(text: str, position: int, line: int, name: str) -> tuple[str, int, int]:
    """One ``[...]`` value from just after its '[': (value, position after ']', line)."""
    start_line = line
    chars: list[str] = []
    while position < len(text):
        char = text[position]
        if char == "\\" and position + 1 < len(text):
            position += 1
            char = text[position]
        elif char == "]":
            return "".join(chars), position + 1, line
        line += char == "\n"
        chars.append(char)
        position += 1
    raise MatchFileError(start_line, f"{name}: the value is not closed by ']'")


# ----- reading ----------------------------------------------------------------------


def parse_sgf(text: str) -> Match:
    """Read ``.sgf`` text and replay it through the rules; ``MatchFileError`` names the line and property."""
    if not isinstance(text, str):
        raise MatchFileError(0, f".sgf text must be a string, got {type(text).__name__}")
    trees = _trees(text)
    if not trees:
        raise MatchFileError(0, "no game tree '(;...)': not an .sgf file")
    match: Match | None = None
    for number, tree in enumerate(trees):
        root = tree[0]
        match = _check_root(root, number, match)
        game = match.game
        for node in tree[1:]:
            _read_node(node, match, game)
        _finish_game(root, match, game, last=number == len(trees) - 1)
    assert match is not None
    return match


def read_sgf(path: str | Path) -> Match:
    """Read the ``.sgf`` file at ``path`` (see ``parse_sgf``)."""
    return parse_sgf(Path(path).read_text(encoding="utf-8", errors="replace"))


def _single(prop: _Property) -> str:
    if len(prop.values) != 1:
        raise MatchFileError(prop.line, f"{prop.name} takes one value, got {len(prop.values)}")
    return prop.values[0]


def _check_root(root: _Node, number: int, match: Match | None) -> Match:
    """Check a game's root properties against the match so far; the first root makes the match."""
    game_type = root.get("GM")
    if game_type is None:
        raise MatchFileError(root.line, "GM is missing: the game type must be GM[6] (backgammon)")
    if _single(game_type).strip() != "6":
        raise MatchFileError(game_type.line, f"GM[{_single(game_type)}] is not backgammon (GM[6])")
    info = root.get("MI")
    if info is None:
        raise MatchFileError(root.line, "MI is missing: the match information MI[length:N][game:N][ws:N][bs:N]")
    fields: dict[str, int] = {}
    for value in info.values:
        found = _MATCH_INFO.match(value.strip())
        if found:
            fields[found.group(1)] = int(found.group(2))
    if "length" not in fields:
        raise MatchFileError(info.line, "MI has no length:N")
    if fields["length"] == 0:
        raise MatchFileError(info.line, "MI[length:0] is a money session; only matches are supported")
    if match is None:
        try:
            match = Match(fields["length"])
        except BgEngineError as error:
            raise MatchFileError(info.line, f"MI: {error}") from None
        names = [match.names[0], match.names[1]]
        for player, name in enumerate(("PW", "PB")):
            prop = root.get(name)
            if prop is not None and _single(prop).strip():
                names[player] = _single(prop).strip()
        match.names = (names[0], names[1])
    elif fields["length"] != match.length:
        raise MatchFileError(info.line, f"MI[length:{fields['length']}] but the match is to {match.length}")
    if match.is_over:
        raise MatchFileError(root.line, f"game {number + 1} after the match is over (score {match.score})")
    if fields.get("game", number) != number:
        raise MatchFileError(info.line, f"MI[game:{fields['game']}] but this is game {number} (counted from 0)")
    score = (fields.get("ws", match.score[0]), fields.get("bs", match.score[1]))
    if score != match.score:
        raise MatchFileError(
            info.line, f"MI score {score[0]}-{score[1]} does not follow from the games before it"
            f" ({match.score[0]}-{match.score[1]})"
        )
    for prop in root.properties:
        if prop.name in _SETUP:
            raise MatchFileError(prop.line, f"{prop.name}: positions set up by hand are not supported")
    return match


def _read_node(node: _Node, match: Match, game: Game) -> None:
    for prop in node.properties:
        if prop.name in _SETUP:
            raise MatchFileError(prop.line, f"{prop.name}: positions set up by hand are not supported")
    moves = [prop for prop in node.properties if prop.name in _PLAYER_OF]
    if len(moves) > 1:
        raise MatchFileError(node.line, "a node holds one move (W or B), got " + ", ".join(p.name for p in moves))
    if not moves:
        return  # a node with comments or analysis only
    prop = moves[0]
    player = _PLAYER_OF[prop.name]
    value = _single(prop).strip()
    where = _shown(prop.name, value)
    if game.is_over:
        raise MatchFileError(prop.line, f"{where} after the game has ended")
    for action in _actions(prop, player, value, game):
        try:
            match.push(action)
        except BgEngineError as error:
            raise MatchFileError(prop.line, f"{where}: {error}") from None


def _shown(name: str, value: str) -> str:
    """A property as an error message shows it, a long value cut short."""
    return f"{name}[{value}]" if len(value) <= QUOTE_LIMIT else f"{name}[{value[:QUOTE_LIMIT]}...]"


def _actions(prop: _Property, player: int, value: str, game: Game) -> list[Action]:
    where = _shown(prop.name, value)
    turn = None if game.decision is Decision.OPENING_ROLL else game.turn
    if turn is not None and player != turn:
        raise MatchFileError(
            prop.line, f"{where}: player {player} acts but player {turn} is to act ({game.decision.value})"
        )
    word = value.lower()
    if word == "double":
        return [Double()]
    if word == "take":
        return [Take()]
    if word in ("drop", "pass"):
        return [Pass()]
    roll = _ROLL.match(value)
    if not roll:
        raise MatchFileError(prop.line, f"{where}: expected double, take, drop or dice and hops such as 31hefe")
    dice = read_dice(game, player, int(roll.group(1)), int(roll.group(2)), prop.line, where)
    letters = roll.group(3)
    steps = []
    for index in range(0, len(letters), 2):
        start, end = _point(player, letters[index]), _point(player, letters[index + 1])
        if start is None or end is None:
            raise MatchFileError(prop.line, f"{where}: {letters[index:index + 2]!r} is not a hop (letters a..z)")
        steps.append((start, end))
    try:
        move = Move(steps)
    except BgEngineError as error:
        raise MatchFileError(prop.line, f"{where}: {error}") from None
    return [Roll(dice), Play(move)]


def _finish_game(root: _Node, match: Match, game: Game, *, last: bool) -> None:
    """Check the result RE against the play; a game that did not end in play ended by resignation."""
    result = root.get("RE")
    if result is None:
        if not game.is_over and not last:
            raise MatchFileError(root.line, "RE is missing and the game did not end in play")
        return
    text = _single(result).strip()
    found = _RESULT.match(text)
    if not found:
        if not game.is_over and not last:
            raise MatchFileError(result.line, f"RE[{text}] is not a result such as W+2 or B+1R")
        return
    winner, points = _PLAYER_OF[found.group(1)], int(found.group(2))
    outcome = game.outcome
    if outcome is not None:
        if outcome.winner != winner or outcome.points != points:
            raise MatchFileError(
                result.line,
                f"RE[{text}] but the play gives player {outcome.winner} {outcome.points} point(s)",
            )
        return
    cube = game.state.cube_value
    level, remainder = divmod(points, cube)
    if remainder or level not in (1, 2, 3) or game.decision is Decision.TAKE_OR_PASS:
        raise MatchFileError(result.line, f"RE[{text}]: not a resignation of 1, 2 or 3 times the cube ({cube})")
    for action in (Resign(GameResult(level), 1 - winner), Accept()):
        try:
            match.push(action)
        except BgEngineError as error:
            raise MatchFileError(result.line, f"RE[{text}]: {error}") from None

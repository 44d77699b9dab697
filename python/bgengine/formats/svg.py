"""SVG pictures of positions, built with the standard library (``xml.etree``).

``board(position, ...)`` returns an ``SvgBoard``: a ``str`` holding the SVG document
that Jupyter shows as a picture (``_repr_svg_``). The player on roll sits at the
bottom and bears off on the side given by ``orientation``; point numbers are theirs.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

from bgengine.dice import checked_roll
from bgengine.errors import InvalidMatchStateError, InvalidNotationError
from bgengine.match_state import OWNER_NAMES

if TYPE_CHECKING:
    from bgengine.game.record import Game
    from bgengine.match_state import MatchState
    from bgengine.position import Position

SVG_NAMESPACE = "http://www.w3.org/2000/svg"

#: Default colours; pass ``colors={...}`` with any of these keys to change some.
DEFAULT_COLORS: dict[str, str] = {
    "background": "#fbfaf6",
    "frame": "#5b3a29",
    "frame_text": "#f3e9d2",
    "field": "#eadbb8",
    "point_odd": "#b4533a",
    "point_even": "#3e5c54",
    "player_checker": "#fdfcf7",
    "player_checker_edge": "#2b2b2b",
    "player_checker_text": "#1d1d1d",
    "opponent_checker": "#2e2e33",
    "opponent_checker_edge": "#000000",
    "opponent_checker_text": "#f5f5f5",
    "tray": "#d9c59c",
    "die": "#fdfcf7",
    "die_edge": "#2b2b2b",
    "die_pip": "#1d1d1d",
    "cube": "#ffffff",
    "cube_edge": "#1d1d1d",
    "cube_text": "#1d1d1d",
    "text": "#222222",
    "arrow": "#1f6fd1",
    "last_move": "#d1431f",
}

ORIENTATIONS = ("right", "left")

# Geometry in viewBox units; the picture scales to ``size`` pixels wide.
_CUBE_COLUMN = 70
_FRAME = 22
_POINT_WIDTH = 50
_BAR_WIDTH = 56
_TRAY_WIDTH = 56
_INFO_BAND = 34
_CHECKER_RADIUS = 23
_STACK_SHOWN = 5  # checkers drawn on a point; a taller stack shows its count
_BAR_SHOWN = 4
_FIELD_HEIGHT = 2 * _STACK_SHOWN * 2 * _CHECKER_RADIUS + 60
_POINT_HEIGHT = _STACK_SHOWN * 2 * _CHECKER_RADIUS + 6
_SLAB_HEIGHT = 12
_DIE_SIZE = 44
_CUBE_SIZE = 46

_BOARD_LEFT = _CUBE_COLUMN
_FIELD_LEFT = _BOARD_LEFT + _FRAME
_BAR_LEFT = _FIELD_LEFT + 6 * _POINT_WIDTH
_FIELD_RIGHT = _BAR_LEFT + _BAR_WIDTH  # left edge of the home-board quarter
_TRAY_LEFT = _FIELD_RIGHT + 6 * _POINT_WIDTH + _FRAME
_WIDTH = _TRAY_LEFT + _TRAY_WIDTH + _FRAME
_FIELD_TOP = _INFO_BAND + _FRAME
_FIELD_BOTTOM = _FIELD_TOP + _FIELD_HEIGHT
_HEIGHT = _FIELD_BOTTOM + _FRAME + _INFO_BAND
_MIDDLE = (_FIELD_TOP + _FIELD_BOTTOM) / 2

_FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"

# Pip layout of a die face on a 3 x 3 grid (column, row).
_DIE_PIPS = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}

#: A checker movement as (from point, to point) in one side's numbering: 25 bar, 0 off.
Movement = tuple[int, int]
#: Movements: move text ("24/18 13/11*"), a ``bgengine.move.Move``, or (from, to) pairs.
MovementsArgument = Union[str, Iterable[Movement], Any]
CubeArgument = Union[int, tuple[int, Union[str, None]], None]
_CUBE_OWNERS = tuple(OWNER_NAMES.values())


class SvgBoard(str):
    """An SVG document as a string; Jupyter renders it through ``_repr_svg_``."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


@dataclass(frozen=True)
class _Cube:
    value: int
    owner: str | None  # None centred, "on_roll", "opponent"


def board(
    position: Position,
    *,
    dice: tuple[int, int] | None = None,
    cube: CubeArgument = None,
    match: MatchState | None = None,
    last_move: MovementsArgument | None = None,
    arrows: MovementsArgument = (),
    size: int = 600,
    orientation: str = "right",
    colors: Mapping[str, str] | None = None,
) -> SvgBoard:
    """Draw ``position`` (seen from the player on roll, who sits at the bottom) as SVG.

    ``dice`` defaults to ``match.dice``; ``cube`` is a value (centred) or ``(value,
    owner)`` with owner None, ``"on_roll"`` or ``"opponent"``, defaulting to the match's
    cube; ``match`` also gives the score. ``last_move`` is the opponent's previous play in
    the opponent's numbering; ``arrows`` a play in the player on roll's numbering; each
    as move text, a ``Move`` or (from, to) pairs (25 bar, 0 off). ``size`` is the width
    in pixels, ``orientation`` the side of the player on roll's home board: "right" or
    "left"; ``colors`` overrides keys of ``DEFAULT_COLORS``.
    """
    from bgengine.position import checked_position

    checked_position(position)
    if orientation not in ORIENTATIONS:
        raise InvalidNotationError(f"orientation must be 'right' or 'left', got {orientation!r}")
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
        raise InvalidNotationError(f"size must be a positive number of pixels, got {size!r}")
    palette = dict(DEFAULT_COLORS)
    if colors:
        unknown = sorted(set(colors) - set(DEFAULT_COLORS))
        if unknown:
            raise InvalidNotationError(f"unknown colour keys {unknown}; known: {sorted(DEFAULT_COLORS)}")
        palette.update(colors)
    if dice is None and match is not None:
        dice = match.dice
    drawing = _Drawing(palette, mirrored=orientation == "left")
    drawing.frame_and_points()
    drawing.checkers(position)
    drawing.trays(position)
    drawing.cube(_cube_from(cube, match))
    if dice is not None:
        drawing.dice(checked_roll(dice))
    drawing.info(position, match)
    if last_move is not None:
        drawing.arrows(position, _checked_movements(last_move), "last_move", mine=False)
    drawing.arrows(position, _checked_movements(arrows), "arrow", mine=True)
    title = f"Backgammon position {position.gnubg_id()}"
    return SvgBoard(drawing.document(size, title))


def game_board(game: Game, **options: Any) -> SvgBoard:
    """The current position of a ``Game`` with its match state and the opponent's last play.

    ``options`` are those of ``board``; ``last_move`` defaults to the previous checker play
    when the other player made it.
    """
    if "last_move" not in options:
        for before, action in reversed(game.history):
            move = getattr(action, "move", None)
            if move is not None:
                if before.on_roll != game.state.on_roll and not move.is_pass():
                    options["last_move"] = move
                break
    return board(game.position, match=game.state, **options)


def _cube_from(cube: CubeArgument, match: MatchState | None) -> _Cube | None:
    """The cube to draw: the argument if given, else the match's; None in the Crawford game."""
    if cube is None:
        if match is None:
            return _Cube(1, None)
        if match.crawford:
            return None
        return _Cube(match.cube_value, OWNER_NAMES[match.relative_cube_owner()])
    value, owner = (cube, None) if isinstance(cube, int) else cube
    if isinstance(value, bool) or not isinstance(value, int) or value < 1 or value & (value - 1):
        raise InvalidMatchStateError(f"cube value must be a power of two, got {value!r}")
    if owner not in _CUBE_OWNERS:
        raise InvalidMatchStateError(f"cube owner must be None, 'on_roll' or 'opponent', got {owner!r}")
    if value == 1 and owner is not None:
        raise InvalidMatchStateError("a cube of value 1 is centred; it cannot be owned")
    return _Cube(value, owner)


def _checked_movements(movements: MovementsArgument) -> list[Movement]:
    """(from, to) pairs from move text, a ``Move`` (its hops) or pairs given directly."""
    if isinstance(movements, str):
        from bgengine.move import Move

        movements = Move.parse(movements)
    steps = getattr(movements, "steps", None)
    if steps is not None:
        return [(int(start), int(end)) for start, end, _hit in steps]
    checked = []
    for pair in movements:  # type: ignore[union-attr]
        if (
            not isinstance(pair, tuple)
            or len(pair) != 2
            or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 25 for p in pair)
        ):
            raise InvalidNotationError(f"a movement is a pair (from, to) of points 0..25, got {pair!r}")
        checked.append((int(pair[0]), int(pair[1])))
    return checked


def _num(value: float) -> str:
    """A coordinate as short, stable text (snapshot tests compare documents exactly)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _pips(count: int) -> str:
    return f"{count} pip" if count == 1 else f"{count} pips"


def _point_centre_x(point: int) -> float:
    """Centre of a point's column (player on roll's numbering), home board on the right."""
    if point <= 12:
        column = 12 - point  # 12 leftmost, 1 rightmost on the bottom row
    else:
        column = point - 13  # 13 leftmost, 24 rightmost on the top row
    left = _FIELD_LEFT if column < 6 else _FIELD_RIGHT - 6 * _POINT_WIDTH
    return left + (column + 0.5) * _POINT_WIDTH


def _stack_y(point: int, index: int) -> float:
    """Centre of the index-th checker (0 at the edge) on a point."""
    offset = _CHECKER_RADIUS + 2 * _CHECKER_RADIUS * min(index, _STACK_SHOWN - 1)
    return _FIELD_BOTTOM - offset if point <= 12 else _FIELD_TOP + offset


class _Drawing:
    """Accumulates the SVG elements of one board; mirrors x when home is on the left."""

    def __init__(self, colors: dict[str, str], mirrored: bool) -> None:
        self.colors = colors
        self.mirrored = mirrored
        self.root = ET.Element(
            "svg",
            {
                "xmlns": SVG_NAMESPACE,
                "viewBox": f"0 0 {_WIDTH} {_HEIGHT}",
                "font-family": _FONT,
            },
        )

    # ----- primitives ---------------------------------------------------------------

    def x(self, value: float, width: float = 0) -> float:
        return _WIDTH - value - width if self.mirrored else value

    def add(self, tag: str, parent: ET.Element | None = None, **attributes: object) -> ET.Element:
        attrs = {name.rstrip("_").replace("_", "-"): _num(v) if isinstance(v, (int, float)) else str(v)
                 for name, v in attributes.items()}
        return ET.SubElement(self.root if parent is None else parent, tag, attrs)

    def rect(self, x: float, y: float, width: float, height: float, fill: str, parent: ET.Element | None = None,
             **extra: object) -> ET.Element:
        return self.add("rect", parent, x=self.x(x, width), y=y, width=width, height=height, fill=fill, **extra)

    def text(self, x: float, y: float, content: str, *, size: float, fill: str, anchor: str = "middle",
             weight: str = "normal", parent: ET.Element | None = None) -> ET.Element:
        if self.mirrored and anchor != "middle":
            anchor = "end" if anchor == "start" else "start"
        element = self.add("text", parent, x=self.x(x), y=y, font_size=size, fill=fill,
                           text_anchor=anchor, dominant_baseline="central", font_weight=weight)
        element.text = content
        return element

    # ----- parts of the board -------------------------------------------------------

    def frame_and_points(self) -> None:
        c = self.colors
        self.add("rect", x=0, y=0, width=_WIDTH, height=_HEIGHT, fill=c["background"])
        self.rect(_BOARD_LEFT, _INFO_BAND, _WIDTH - _BOARD_LEFT, _FIELD_HEIGHT + 2 * _FRAME, c["frame"], rx=6)
        for field_left in (_FIELD_LEFT, _FIELD_RIGHT):
            self.rect(field_left, _FIELD_TOP, 6 * _POINT_WIDTH, _FIELD_HEIGHT, c["field"])
        for top in (_FIELD_TOP, _MIDDLE + 3):
            self.rect(_TRAY_LEFT, top, _TRAY_WIDTH, _FIELD_HEIGHT / 2 - 3, c["tray"])
        points = self.add("g", id="points")
        numbers = self.add("g", id="point-numbers")
        for point in range(1, 25):
            centre = _point_centre_x(point)
            left, right = self.x(centre - _POINT_WIDTH / 2), self.x(centre + _POINT_WIDTH / 2)
            base = _FIELD_BOTTOM if point <= 12 else _FIELD_TOP
            tip = base - _POINT_HEIGHT if point <= 12 else base + _POINT_HEIGHT
            fill = c["point_odd"] if point % 2 else c["point_even"]
            self.add("polygon", points, class_="point", points=f"{_num(left)},{_num(base)} {_num(right)},{_num(base)} "
                     f"{_num(self.x(centre))},{_num(tip)}", fill=fill)
            label_y = _FIELD_BOTTOM + _FRAME / 2 if point <= 12 else _FIELD_TOP - _FRAME / 2
            self.text(centre, label_y, str(point), size=15, fill=c["frame_text"], weight="bold", parent=numbers)

    def checker(self, parent: ET.Element, cx: float, cy: float, mine: bool, label: str | None) -> None:
        side = "player_checker" if mine else "opponent_checker"
        c = self.colors
        self.add("circle", parent, class_="checker " + ("on-roll" if mine else "opponent"), cx=self.x(cx), cy=cy,
                 r=_CHECKER_RADIUS - 1, fill=c[side],
                 stroke=c[f"{side}_edge"], stroke_width=1.5)
        self.add("circle", parent, cx=self.x(cx), cy=cy, r=_CHECKER_RADIUS - 7, fill="none",
                 stroke=c[f"{side}_edge"], stroke_width=0.8, stroke_opacity=0.35)
        if label is not None:
            self.text(cx, cy + 1, label, size=20, fill=c[f"{side}_text"], weight="bold", parent=parent)

    def checkers(self, position: Position) -> None:
        group = self.add("g", id="checkers")
        for point in range(1, 25):
            count = position[point]
            for index in range(min(abs(count), _STACK_SHOWN)):
                label = str(abs(count)) if index == _STACK_SHOWN - 1 and abs(count) > _STACK_SHOWN else None
                self.checker(group, _point_centre_x(point), _stack_y(point, index), count > 0, label)
        bar_x = _BAR_LEFT + _BAR_WIDTH / 2
        for count, direction, mine in ((position[25], 1, True), (-position[0], -1, False)):
            for index in range(min(count, _BAR_SHOWN)):
                label = str(count) if index == _BAR_SHOWN - 1 and count > _BAR_SHOWN else None
                cy = _MIDDLE + direction * (40 + 2 * _CHECKER_RADIUS * index)
                self.checker(group, bar_x, cy, mine, label)

    def trays(self, position: Position) -> None:
        """Borne-off checkers as slabs: the player on roll's at the bottom, the opponent's on top."""
        c = self.colors
        group = self.add("g", id="borne-off")
        mover_off, opponent_off = position.checkers_off()
        left = _TRAY_LEFT + 5
        width = _TRAY_WIDTH - 10
        for count, mine in ((mover_off, True), (opponent_off, False)):
            side = "player_checker" if mine else "opponent_checker"
            for index in range(count):
                y = _FIELD_BOTTOM - 4 - (index + 1) * _SLAB_HEIGHT if mine else _FIELD_TOP + 4 + index * _SLAB_HEIGHT
                self.rect(left, y, width, _SLAB_HEIGHT - 1, c[side], group,
                          class_="off " + ("on-roll" if mine else "opponent"),
                          stroke=c[f"{side}_edge"], stroke_width=1, rx=2)
            if count:
                stack = 16 + count * _SLAB_HEIGHT
                label_y = _FIELD_BOTTOM - stack if mine else _FIELD_TOP + stack
                self.text(_TRAY_LEFT + _TRAY_WIDTH / 2, label_y, f"{count} off", size=12, fill=c["text"], parent=group)

    def cube(self, cube: _Cube | None) -> None:
        if cube is None:
            return
        c = self.colors
        centre_y = {None: _MIDDLE, "opponent": _FIELD_TOP + _CUBE_SIZE / 2 + 6,
                    "on_roll": _FIELD_BOTTOM - _CUBE_SIZE / 2 - 6}[cube.owner]
        left = (_CUBE_COLUMN - _CUBE_SIZE) / 2
        group = self.add("g", id="cube")
        self.add("rect", group, class_="cube", x=self.x(left, _CUBE_SIZE), y=centre_y - _CUBE_SIZE / 2,
                 width=_CUBE_SIZE, height=_CUBE_SIZE, rx=6, fill=c["cube"], stroke=c["cube_edge"], stroke_width=2)
        shown = 64 if cube.value == 1 else cube.value
        self.text(_CUBE_COLUMN / 2, centre_y + 1, str(shown), size=24 if shown < 100 else 17,
                  fill=c["cube_text"], weight="bold", parent=group)

    def dice(self, dice: tuple[int, int]) -> None:
        """The dice of the player on roll, in the middle of their home-board half."""
        c = self.colors
        group = self.add("g", id="dice")
        centre = _FIELD_RIGHT + 3 * _POINT_WIDTH
        for die_index, face in enumerate(dice):
            left = centre + (-_DIE_SIZE - 8 if die_index == 0 else 8)
            top = _MIDDLE - _DIE_SIZE / 2
            self.add("rect", group, class_="die", x=self.x(left, _DIE_SIZE), y=top, width=_DIE_SIZE,
                     height=_DIE_SIZE, rx=7, fill=c["die"], stroke=c["die_edge"], stroke_width=2)
            for column, row in _DIE_PIPS[face]:
                self.add("circle", group, class_="die-pip", cx=self.x(left + _DIE_SIZE * (0.22 + 0.28 * column)),
                         cy=top + _DIE_SIZE * (0.22 + 0.28 * row), r=4.2, fill=c["die_pip"])

    def info(self, position: Position, match: MatchState | None) -> None:
        """Pip counts, checkers off and the score, one line per side outside the frame."""
        c = self.colors
        mover_pips, opponent_pips = position.pip_counts()
        lines = {"on_roll": f"On roll: {_pips(mover_pips)}", "opponent": f"Opponent: {_pips(opponent_pips)}"}
        right_text = "Money game"
        if match is not None:
            if match.match_length:
                for side, player in (("on_roll", match.on_roll), ("opponent", 1 - match.on_roll)):
                    points = match.score[player]
                    lines[side] += f"  ·  score {points} ({match.away(player)}-away)"
                right_text = f"{match.match_length}-point match" + ("  ·  Crawford" if match.crawford else "")
            elif match.jacoby or match.beavers:
                rules = [name for name, on in (("Jacoby", match.jacoby), ("beavers", match.beavers)) if on]
                right_text += " (" + ", ".join(rules) + ")"
        group = self.add("g", id="info")
        for side, y in (("opponent", _INFO_BAND / 2), ("on_roll", _HEIGHT - _INFO_BAND / 2)):
            checker = "player_checker" if side == "on_roll" else "opponent_checker"
            self.add("circle", group, cx=self.x(_BOARD_LEFT + 10), cy=y, r=8, fill=c[checker],
                     stroke=c[f"{checker}_edge"], stroke_width=1.5)
            self.text(_BOARD_LEFT + 24, y, lines[side], size=15, fill=c["text"], anchor="start",
                      weight="bold" if side == "on_roll" else "normal", parent=group)
        self.text(_WIDTH - 4, _INFO_BAND / 2, right_text, size=15, fill=c["text"], anchor="end", parent=group)

    def arrows(self, position: Position, movements: list[Movement], color_key: str, *, mine: bool) -> None:
        """Arrows for a play in its player's own numbering (25 bar, 0 off).

        The player on roll's play (``mine``) is still to be made: each arrow runs from the
        top checker to the next free place. The opponent's play is already on the board:
        traced back from where its checkers stand now.
        """
        if not movements:
            return
        color = self.colors[color_key]
        marker_id = f"head-{color_key.replace('_', '-')}"
        defs = self.add("defs")
        marker = self.add("marker", defs, id=marker_id, viewBox="0 0 10 10", refX=8, refY=5, markerWidth=4,
                          markerHeight=4, orient="auto-start-reverse")
        self.add("path", marker, d="M0,0 L10,5 L0,10 z", fill=color)
        group = self.add("g", id=f"{color_key.replace('_', '-')}-arrows")
        sign = 1 if mine else -1
        heights = {point: max(sign * position[point if mine else 25 - point], 0) for point in range(1, 25)}
        ends = []
        for start, end in movements if mine else reversed(movements):
            if mine:  # the checker leaves the top of its stack and lands on the next free place
                heights[start] = heights.get(start, 1) - 1
                ends.append((self.anchor(start, heights[start], mine), self.anchor(end, heights.get(end, 0), mine)))
                heights[end] = heights.get(end, 0) + 1
            else:  # undo the play: the checker is the top of its stack now
                heights[end] = heights.get(end, 1) - 1
                ends.append((self.anchor(start, heights.get(start, 0), mine), self.anchor(end, heights[end], mine)))
                heights[start] = heights.get(start, 0) + 1
        for (x1, y1), (x2, y2) in ends:
            self.add("line", group, x1=self.x(x1), y1=y1, x2=self.x(x2), y2=y2, stroke=color, stroke_width=5,
                     stroke_linecap="round", stroke_opacity=0.8, marker_end=f"url(#{marker_id})")

    def anchor(self, point: int, index: int, mine: bool) -> tuple[float, float]:
        """Where an arrow meets a point (the index-th checker place), the bar or the tray of one side."""
        direction = 1 if mine else -1
        if point == 25:
            return _BAR_LEFT + _BAR_WIDTH / 2, _MIDDLE + direction * 40
        if point == 0:
            return _TRAY_LEFT + _TRAY_WIDTH / 2, _MIDDLE + direction * (_FIELD_HEIGHT / 2 - 40)
        board_point = point if mine else 25 - point
        return _point_centre_x(board_point), _stack_y(board_point, max(index, 0))

    def document(self, size: int, title: str) -> str:
        self.root.set("width", str(size))
        self.root.set("height", _num(size * _HEIGHT / _WIDTH))
        self.root.set("role", "img")
        title_element = ET.Element("title")
        title_element.text = title
        self.root.insert(0, title_element)
        return ET.tostring(self.root, encoding="unicode")

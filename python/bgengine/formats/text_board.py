"""The familiar text diagram of a position: points 13..24 on top, 12..1 below.

The player on roll plays X, moving from the top-left round to the bottom-right, and
bears off beyond point 1; the opponent plays O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bgengine.position import Position

_ROWS = 5  # checkers drawn per point; a taller stack shows its count in the last row


def _cell(count: int, row: int) -> str:
    """What one point shows on one row (row 0 is next to the board's edge)."""
    owner = "X" if count > 0 else "O"
    n = abs(count)
    if n <= row:
        return " "
    if row == _ROWS - 1 and n > _ROWS:
        return str(n)
    return owner


def _half(position: Position, points: list[int], top: bool) -> list[str]:
    lines = []
    rows = range(_ROWS) if top else reversed(range(_ROWS))
    for row in rows:
        cells = [f"{_cell(position[p], row):^3}" for p in points]
        lines.append(f" |{''.join(cells[:6])}|   |{''.join(cells[6:])}|")
    return lines


def _edge(points: list[int]) -> str:
    numbers = [f"{p:-^3}" for p in points]
    return f" +{''.join(numbers[:6])}+---+{''.join(numbers[6:])}+"


def text_board(position: Position) -> str:
    """A plain-text board with bars, borne-off counts and pip counts."""
    top_points = list(range(13, 25))
    bottom_points = list(range(12, 0, -1))
    mover_pips, opponent_pips = position.pip_counts()
    mover_off, opponent_off = position.checkers_off()
    mover_bar, opponent_bar = position[25], -position[0]
    lines = [
        _edge(top_points),
        *_half(position, top_points, top=True),
        f" |{' ' * 18}|BAR|{' ' * 18}|  O on bar: {opponent_bar}, X on bar: {mover_bar}",
        *_half(position, bottom_points, top=False),
        _edge(bottom_points),
        f" X (on roll): {mover_pips} pips, {mover_off} off    O: {opponent_pips} pips, {opponent_off} off",
    ]
    return "\n".join(lines)

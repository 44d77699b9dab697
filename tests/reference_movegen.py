"""A deliberately simple legal-move generator, written from the rules, to check the core.

It shares no code with ``bgcore._movegen``: boards are plain lists (the core's layout, seen
from the player on roll), every order of the dice is tried one checker step at a time, and
the "play as many dice as possible, else the larger die" rule is applied at the end.
Slow, obvious, and the source of truth for tests/data/perft.json.
"""

from __future__ import annotations

from itertools import permutations

Board = tuple[int, ...]

BAR = 25
OPPONENT_BAR = 0


def switch_sides(board: Board) -> Board:
    """The board seen by the other player."""
    return tuple(-board[25 - i] for i in range(26))


def all_checkers_home(board: Board) -> bool:
    """True when the player on roll has no checker on points 7..24 or on the bar."""
    return all(board[point] <= 0 for point in range(7, 26))


def step_is_legal(board: Board, source: int, die: int) -> bool:
    """Can one checker of the player on roll move `die` pips from `source` (25 = bar)?"""
    if board[source] <= 0:
        return False
    if board[BAR] > 0 and source != BAR:
        return False  # checkers on the bar must enter first
    target = source - die
    if target >= 1:
        return board[target] >= -1  # not held by two or more opposing checkers
    if not all_checkers_home(board):
        return False
    if target == 0:
        return True  # bears off from the die's own point
    # A higher die bears off from the highest occupied point only.
    return all(board[point] <= 0 for point in range(source + 1, 7))


def play_step(board: Board, source: int, die: int) -> tuple[Board, bool]:
    """The board after one legal step, and whether it hit an opposing blot."""
    slots = list(board)
    target = source - die
    slots[source] -= 1
    hit = False
    if target >= 1:
        if slots[target] == -1:
            hit = True
            slots[target] = 0
            slots[OPPONENT_BAR] -= 1
        slots[target] += 1
    return tuple(slots), hit


def dice_orders(die1: int, die2: int) -> set[tuple[int, ...]]:
    """The dice as single steps in every order: four equal steps for a double."""
    if die1 == die2:
        return {(die1,) * 4}
    return set(permutations((die1, die2)))


def _plays(board: Board, dice: tuple[int, ...], played: tuple[int, ...]):
    """Yield (final board, dice played) for every maximal sequence of steps."""
    moved = False
    if dice:
        for source in range(1, 26):
            if step_is_legal(board, source, dice[0]):
                moved = True
                after, _ = play_step(board, source, dice[0])
                yield from _plays(after, dice[1:], played + (dice[0],))
    if not moved:
        yield board, played


def reference_children(board: Board, die1: int, die2: int) -> set[Board]:
    """Every distinct legal result of the roll, each seen from the next player on roll."""
    board = tuple(board)
    plays = [play for order in dice_orders(die1, die2) for play in _plays(board, order, ())]
    most = max(len(played) for _, played in plays)
    kept = [(after, played) for after, played in plays if len(played) == most]
    if most == 1 and die1 != die2:
        larger = [(after, played) for after, played in kept if played[0] == max(die1, die2)]
        kept = larger or kept
    return {switch_sides(after) for after, _ in kept}

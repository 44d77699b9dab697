"""Encoding 2's contact units (``bgcore._nn``) in deliberately plain Python: per board, loops
over points, the 36 rolls and the checkers' moves one die at a time, no bit sets.

``contact_unit_counts(slots)`` gives, for the player on roll and then the opponent, the
eight counts before scaling (``SCALES`` divides them into the network's units).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

import numpy as np

UNIT_NAMES = ["hit_rolls", "hit_loss", "escape_rolls", "containment", "indirect_shots", "mobility",
              "break_contact", "dance_rolls"]
SCALES = np.array([36.0, 36.0 * 24.0, 36.0, 12.0, 10.0, 60.0, 100.0, 36.0])
FIRST_UNIT = 211  # encoding 1 has 211 inputs; the mover's units, then the opponent's


def sides(slots: Sequence[int]) -> tuple[list[int], list[int]]:
    """Both sides' checker counts, each in its own numbering: index p = own point p, 25 = bar."""
    mover = [0] + [max(int(slots[p]), 0) for p in range(1, 25)] + [int(slots[25])]
    opponent = [0] + [max(-int(slots[25 - p]), 0) for p in range(1, 25)] + [-int(slots[0])]
    return mover, opponent


def hittable_blots(own: list[int], enemy_at: list[int], dice: tuple[int, int]) -> set[int]:
    """Own points of the blots the enemy can hit on ``dice`` (``enemy_at[q]``: its checkers on
    own point q, 0 its bar). Its bar checkers enter first, on own point d (a die each; a
    double enters up to four); the dice left then move one checker each, or one checker
    with both (either order; a double: up to all its steps), up (own numbering), every
    point landed on one this side does not hold; hitting does not stop a checker. Whether
    the roll can be played in full is not asked."""
    bar = enemy_at[0]
    starts = [q for q in range(1, 25) if enemy_at[q]]
    hit: set[int] = set()

    def land(point: int) -> bool:
        """Land on own point ``point`` if it is open, noting a hit; False when blocked."""
        if point > 24 or own[point] >= 2:
            return False
        if own[point] == 1:
            hit.add(point)
        return True

    if dice[0] == dice[1]:
        die, steps = dice[0], 4
        if bar:
            if not land(die):
                return hit
            steps = max(4 - bar, 0)
            starts.append(die)
        orders = [[die] * steps]
    elif bar == 1:
        for enter, free in (dice, tuple(reversed(dice))):
            if land(enter):  # that die is spent; the other moves any checker, the entered one too
                for start in [*starts, enter]:
                    land(start + free)
        return hit
    elif bar >= 2:
        land(dice[0])
        land(dice[1])
        return hit
    else:
        orders = [list(dice), list(reversed(dice))]
    for start in starts:
        for order in orders:
            point = start
            for die in order:
                point += die
                if not land(point):
                    break
    return hit


def rearmost(own: list[int]) -> int:
    return max((p for p in range(1, 26) if own[p]), default=0)


def enemy_points_in_front(own: list[int], enemy_at: list[int]) -> list[int]:
    """Own points the enemy holds among the 12 in front of this side's rearmost checker."""
    rear = rearmost(own)
    return [p for p in range(max(rear - 12, 1), rear) if enemy_at[p] >= 2]


def escapes(own: list[int], enemy_at: list[int], dice: tuple[int, int]) -> bool:
    """Whether the rearmost checker, moved alone, lands past the enemy points in front of it."""
    blocks = enemy_points_in_front(own, enemy_at)
    if not blocks:
        return True
    orders = [[dice[0]] * 4] if dice[0] == dice[1] else [list(dice), list(reversed(dice))]
    for order in orders:
        point = rearmost(own)
        for die in order:
            point -= die
            if point < 1 or enemy_at[point] >= 2:
                break
            if point < min(blocks):
                return True
    return False


def side_counts(own: list[int], enemy: list[int]) -> list[int]:
    """The eight counts of one side (own numbering) against the other."""
    enemy_at = [enemy[25]] + [enemy[25 - p] for p in range(1, 25)]  # own point q; 0: enemy bar
    hit_rolls = hit_loss = escape_rolls = 0
    for dice in product(range(1, 7), repeat=2):
        hit = hittable_blots(own, enemy_at, dice)
        if hit:
            hit_rolls += 1
            hit_loss += 25 - min(hit)
        escape_rolls += escapes(own, enemy_at, dice)
    indirect = 0
    for p in range(1, 25):
        if own[p] == 1:
            indirect += sum(1 for q in range(p - 12, p - 6) if q >= 0 and enemy_at[q] > 0)
    mobility = 0
    for p in range(7, 26):
        for die in range(1, 7):
            if enemy_at[p - die] < 2:
                mobility += own[p]
    enemy_rear = min((q for q in range(25) if enemy_at[q]), default=26)
    break_contact = sum(own[p] * (p - enemy_rear + 1) for p in range(1, 26) if p > enemy_rear)
    enemy_home_points = sum(1 for p in range(1, 7) if enemy[p] >= 2)
    dance = enemy_home_points ** 2 if own[25] else 0
    return [hit_rolls, hit_loss, escape_rolls, len(enemy_points_in_front(own, enemy_at)), indirect, mobility,
            break_contact, dance]


def contact_unit_counts(slots: Sequence[int]) -> np.ndarray:
    """(2, 8) counts: the player on roll's, then the opponent's."""
    mover, opponent = sides(slots)
    return np.array([side_counts(mover, opponent), side_counts(opponent, mover)], dtype=np.float64)


def contact_units(slots: Sequence[int]) -> np.ndarray:
    """The 16 units encoding 2 appends (scaled counts)."""
    return (contact_unit_counts(slots) / SCALES).ravel()

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


# ----- encoding 3: more units of each side, appended after encoding 2's -----------------

UNIT_NAMES_3 = ["double_hit_rolls", "trapped_checkers", "prime_in_front", "deepest_anchor", "advanced_anchor",
                "next_blocked_rolls", "passed_checkers", "rearmost_to_home", "spread"]
SCALES_3 = np.array([36.0, 10.0, 6.0, 6.0, 6.0, 36.0, 15.0, 19.0, 64.0])
FIRST_UNIT_3 = FIRST_UNIT + 2 * len(UNIT_NAMES)  # 227: encoding 2 has 227 inputs


def hits_two(own: list[int], enemy_at: list[int], dice: tuple[int, int]) -> bool:
    """Whether the enemy can hit two of this side's blots on ``dice``: some sequence of its
    single-die moves (bar checkers first, every point landed on one this side does not hold,
    stopping whenever it likes) lands on two different blots. A plain search over the moves."""
    steps = [dice[0]] * 4 if dice[0] == dice[1] else None
    orders = [steps] if steps else [list(dice), list(reversed(dice))]
    seen: set[tuple[tuple[int, ...], frozenset[int], int]] = set()

    def search(counts: list[int], hit: frozenset[int], left: list[int]) -> bool:
        if len(hit) >= 2:
            return True
        key = (tuple(counts), hit, len(left))
        if not left or key in seen:
            return False
        seen.add(key)
        die = left[0]
        starts = [0] if counts[0] else [q for q in range(1, 25) if counts[q]]
        for start in starts:
            end = start + die
            if end > 24 or own[end] >= 2:
                continue
            moved = list(counts)
            moved[start] -= 1
            moved[end] += 1
            if search(moved, hit | {end} if own[end] == 1 else hit, left[1:]):
                return True
        return False

    for order in orders:
        seen.clear()
        if search(list(enemy_at), frozenset(), order):
            return True
    return False


def longest_run(points: list[int]) -> int:
    """The most consecutive numbers in ``points``."""
    best = run = 0
    for p in range(0, 27):
        run = run + 1 if p in points else 0
        best = max(best, run)
    return best


def escape_rolls_from(start: int, enemy_at: list[int]) -> int:
    """Rolls of 36 on which a checker on own point ``start`` escapes (``escapes``); 36 with no checker there."""
    if start == 0:
        return 36
    alone = [0] * 26
    alone[start] = 1
    return sum(escapes(alone, enemy_at, dice) for dice in product(range(1, 7), repeat=2))


def side_counts_3(own: list[int], enemy: list[int]) -> list[float]:
    """Encoding 3's nine counts of one side (own numbering) against the other."""
    enemy_at = [enemy[25]] + [enemy[25 - p] for p in range(1, 25)]  # own point q; 0: enemy bar
    blots = [p for p in range(1, 25) if own[p] == 1]
    double_hits = 0
    if len(blots) >= 2:
        double_hits = sum(hits_two(own, enemy_at, dice) for dice in product(range(1, 7), repeat=2))
    enemy_points = [q for q in range(1, 25) if enemy_at[q] >= 2]
    prime_tops = [q + 3 for q in enemy_points if all(q + k in enemy_points for k in range(4))]
    trapped = sum(own[p] for p in range(1, 26) if prime_tops and p > min(prime_tops))
    rear = rearmost(own)
    prime_in_front = longest_run([q for q in enemy_points if q < rear])
    anchors = [p for p in range(19, 25) if own[p] >= 2]
    deepest = max(anchors) - 18 if anchors else 0
    advanced = 25 - min(anchors) if anchors else 0
    next_point = max((p for p in range(1, rear) if own[p]), default=0)
    next_blocked = 36 - escape_rolls_from(next_point, enemy_at)
    enemy_rear = min((q for q in range(25) if enemy_at[q]), default=26)
    passed = sum(own[p] for p in range(1, 26) if p < enemy_rear)
    to_home = max(rear - 6, 0)
    checkers = [p for p in range(1, 26) for _ in range(own[p])]
    spread = 0.0
    if checkers:
        mean = sum(checkers) / len(checkers)
        spread = sum((p - mean) ** 2 for p in checkers) / len(checkers)
    return [double_hits, trapped, prime_in_front, deepest, advanced, next_blocked, passed, to_home, spread]


def contact_unit_counts_3(slots: Sequence[int]) -> np.ndarray:
    """(2, 9) encoding-3 counts: the player on roll's, then the opponent's."""
    mover, opponent = sides(slots)
    return np.array([side_counts_3(mover, opponent), side_counts_3(opponent, mover)], dtype=np.float64)


def contact_units_3(slots: Sequence[int]) -> np.ndarray:
    """The 18 units encoding 3 appends after encoding 2's (scaled counts)."""
    return (contact_unit_counts_3(slots) / SCALES_3).ravel()

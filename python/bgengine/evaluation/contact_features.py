"""Hand-made contact features of many boards at once (numpy), for contact and crashed networks.

Boards are the core's (n, 26) int8 layout, player on roll's view before the roll. Each side
is described from its own numbering (point 1 is where it bears off, its bar is point 25)
against the other side, first the player on roll, then the opponent. A side "holds" a
point with 2+ checkers; its "rearmost" checker is the one on its highest point (the bar
first). Features of a side (``SIDE_FEATURES``, in order):

* ``anchors``: points held in the other side's home board (own points 19..24) / 3;
* ``prime``: the longest run of consecutive held points / 6;
* ``home_points``: held points in its own home board (1..6) / 6;
* ``blots``: single checkers on points 1..24 / 5;
* ``direct_shots``: pairs (blot, enemy checker 1..6 pips before it, bar included) / 10;
* ``indirect_shots``: the same pairs at 7..12 pips / 10;
* ``front_blocks``: enemy-held points among the 6 in front of the rearmost checker / 6;
* ``containment``: enemy-held points among the 12 in front of the rearmost checker / 12;
* ``rear_mobility``: die values 1..6 that move the rearmost checker onto a point the enemy
  does not hold / 6;
* ``mobility``: (checker, die value) pairs, over all checkers not yet home, that land on a
  point the enemy does not hold / 60;
* ``timing``: pips its checkers outside the home board still have to travel to reach it / 100;
* ``break_contact``: pips its checkers behind the enemy's rearmost checker need to pass it / 100;
* ``on_bar``: checkers on the bar / 3.

``ENCODING`` and ``ENCODING_VERSION`` name this list; change the version whenever a feature
changes. Blocking ignores that a roll's second die could jump a blocked point.
"""

from __future__ import annotations

import numpy as np

from bgengine.evaluation.race_features import side_slots

ENCODING = "contact-features"
ENCODING_VERSION = 1
POINTS = 24
HOME_POINTS = 6
SIDE_FEATURES = ["anchors", "prime", "home_points", "blots", "direct_shots", "indirect_shots", "front_blocks",
                 "containment", "rear_mobility", "mobility", "timing", "break_contact", "on_bar"]
FEATURE_NAMES = [f"mover_{name}" for name in SIDE_FEATURES] + [f"opponent_{name}" for name in SIDE_FEATURES]
NUM_FEATURES = len(FEATURE_NAMES)
_POINT = np.arange(1, POINTS + 2)  # slot k of a side's (n, 25) counts is its point k + 1


def longest_run(held: np.ndarray) -> np.ndarray:
    """Length of the longest run of True along each row."""
    run = np.zeros(len(held), dtype=np.int64)
    best = np.zeros(len(held), dtype=np.int64)
    for column in held.T:
        run = np.where(column, run + 1, 0)
        best = np.maximum(best, run)
    return best


def _side_features(own: np.ndarray, other: np.ndarray) -> np.ndarray:
    """(n, len(SIDE_FEATURES)) features of ``own`` (n, 25) counts against ``other``'s."""
    n = len(own)
    held = own[:, :POINTS] >= 2
    # enemy_held[:, k]: the other side holds own point k + 1 (its point 24 - k), for k = 0..23.
    enemy_held = other[:, POINTS - 1::-1] >= 2
    # enemy_at[:, k]: the other side's checkers on own point k + 1; its bar stands at own point 0.
    enemy_at = other[:, POINTS - 1::-1]
    enemy_bar = other[:, POINTS]
    blot = own[:, :POINTS] == 1
    direct = np.zeros(n)
    indirect = np.zeros(n)
    for k in range(POINTS):  # a blot on own point k + 1, hit by enemy checkers on lower own points
        if not blot[:, k].any():
            continue
        for distance in range(1, 13):
            source = k + 1 - distance  # own point of the hitter; 0 is the enemy's bar
            if source < 0:
                break
            hitters = enemy_bar if source == 0 else enemy_at[:, source - 1]
            target = direct if distance <= 6 else indirect
            target += blot[:, k] * hitters
    occupied = own > 0
    rear = np.where(occupied.any(axis=1), POINTS + 1 - np.argmax(occupied[:, ::-1], axis=1), 0)
    front_blocks = np.zeros(n)
    containment = np.zeros(n)
    rear_mobility = np.zeros(n)
    for distance in range(1, 13):
        point = rear - distance
        inside = point >= 1
        blocked = inside & enemy_held[np.arange(n), np.clip(point - 1, 0, POINTS - 1)]
        containment += blocked
        if distance <= 6:
            front_blocks += blocked
            rear_mobility += (rear > 0) & ~blocked
    mobility = np.zeros(n)
    for k in range(HOME_POINTS, POINTS + 1):  # checkers on own points 7..24 and the bar
        for die in range(1, 7):
            landing = k + 1 - die
            mobility += own[:, k] * ~enemy_held[:, landing - 1]
    enemy_occupied = other > 0
    enemy_rear = np.where(enemy_occupied.any(axis=1), POINTS + 1 - np.argmax(enemy_occupied[:, ::-1], axis=1), 0)
    enemy_rear_here = 25 - enemy_rear  # the other's rearmost checker on own numbering (25: none)
    behind = _POINT[None, :] > enemy_rear_here[:, None]
    break_contact = (own * behind * (_POINT[None, :] - enemy_rear_here[:, None] + 1)).sum(axis=1)
    outside = _POINT > HOME_POINTS
    columns = [
        held[:, 18:24].sum(axis=1) / 3.0, longest_run(held) / 6.0, held[:, :HOME_POINTS].sum(axis=1) / 6.0,
        blot.sum(axis=1) / 5.0, direct / 10.0, indirect / 10.0, front_blocks / 6.0, containment / 12.0,
        rear_mobility / 6.0, mobility / 60.0, (own * outside * (_POINT - HOME_POINTS)).sum(axis=1) / 100.0,
        break_contact / 100.0, own[:, POINTS] / 3.0,
    ]
    return np.stack(columns, axis=1)



def contact_features(boards: np.ndarray) -> np.ndarray:
    """(n, NUM_FEATURES) float32 features of (n, 26) boards."""
    boards = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 26)
    mover, opponent = side_slots(boards)
    features = np.concatenate([_side_features(mover, opponent), _side_features(opponent, mover)], axis=1)
    return features.astype(np.float32)

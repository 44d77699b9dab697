"""Seeded start positions of the hard classes (back games, closed-out checkers, long and
gammon-saving races) that self-play from the opening rarely reaches; games are then played
from them, so the database also holds what these positions turn into.

Each side is built as 26 counts numbered from its own side (index 25 its bar) and the two
are composed into the core's layout with a random side on roll.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from bgengine.position import Position

from bgengine.training.classes import Tag, has_contact, pips, tags

Side = np.ndarray
MAX_TRIES = 100
HOLDING_DEFICIT = 10  # the holding side trails by 10 to 60 pips


def compose(on_roll: Side, opponent: Side) -> Position:
    """The position with ``on_roll``'s checkers as the player on roll (validated)."""
    board = np.zeros(26, dtype=np.int8)
    board[1:25] = on_roll[1:25] - opponent[24:0:-1]
    board[25] = on_roll[25]
    board[0] = -opponent[25]
    return Position.from_array(board)


def _free(points: Sequence[int], other: Side) -> list[int]:
    """Own points among ``points`` that the other side does not hold (its point 25 - p)."""
    return [p for p in points if other[25 - p] == 0]


def _spread(rng: np.random.Generator, side: Side, count: int, points: Sequence[int]) -> None:
    """Add ``count`` checkers to ``side`` over ``points`` with random (Dirichlet) weights."""
    if count <= 0:
        return
    shares = rng.multinomial(count, rng.dirichlet(np.ones(len(points))))
    for point, checkers in zip(points, shares):
        side[point] += checkers


def _either_on_roll(rng: np.random.Generator, first: Side, second: Side) -> Position:
    return compose(first, second) if rng.random() < 0.5 else compose(second, first)


def back_game(rng: np.random.Generator) -> Position:
    """A side with two or three anchors in the other's home board, trailing by 30+ pips."""
    for _ in range(MAX_TRIES):
        back, ahead = np.zeros(26, np.int64), np.zeros(26, np.int64)
        for point in rng.choice(np.arange(19, 25), size=int(rng.integers(2, 4)), replace=False):
            back[point] = int(rng.integers(2, 4))
        back[25] = int(rng.integers(0, 2))
        _spread(rng, ahead, 15 - int(rng.integers(0, 4)), _free(range(1, 12), back))
        _spread(rng, back, 15 - int(back.sum()), _free(range(1, 16), ahead))
        position = _either_on_roll(rng, back, ahead)
        if Tag.BACK_GAME in tags(np.asarray(position)):
            return position
    raise RuntimeError("no back game found")  # pragma: no cover - the odds are tiny


def closed_out(rng: np.random.Generator) -> Position:
    """Checkers on the bar against five or six home-board points."""
    for _ in range(MAX_TRIES):
        strong, victim = np.zeros(26, np.int64), np.zeros(26, np.int64)
        for point in rng.choice(np.arange(1, 7), size=int(rng.integers(5, 7)), replace=False):
            strong[point] = 2
        _spread(rng, strong, 15 - int(strong.sum()), range(1, 19))
        victim[25] = int(rng.integers(1, 4))
        _spread(rng, victim, 15 - int(victim[25]) - int(rng.integers(0, 4)), _free(range(1, 25), strong))
        position = _either_on_roll(rng, strong, victim)
        if Tag.CLOSED_OUT in tags(np.asarray(position)):
            return position
    raise RuntimeError("no closed-out position found")  # pragma: no cover


def long_race(rng: np.random.Generator) -> Position:
    """A race without contact, each side spread up to its furthest point (8..16)."""
    first, second = np.zeros(26, np.int64), np.zeros(26, np.int64)
    furthest = int(rng.integers(8, 17))
    for side, top in ((first, furthest), (second, 24 - furthest)):
        side[top] = 1
        _spread(rng, side, 14, range(1, top + 1))
    return _either_on_roll(rng, first, second)


def gammon_save_race(rng: np.random.Generator) -> Position:
    """A race in which one side is home (some off) and the other has none off, some outside."""
    home, outside = np.zeros(26, np.int64), np.zeros(26, np.int64)
    _spread(rng, home, 15 - int(rng.integers(0, 12)), range(1, 7))
    furthest = int(rng.integers(8, 19))
    outside[furthest] = 1
    _spread(rng, outside, 14, range(1, furthest + 1))
    return _either_on_roll(rng, home, outside)


def late_gammon_save(rng: np.random.Generator) -> Position:
    """The end of a gammon race: one side home with 1..8 checkers left (a few rolls from
    done), the other with all 15 on the board, 1..5 of them outside up to the 7..16-point:
    whether it gets a checker off in time turns on the dice it needs, which the race
    model's pip bank blurs."""
    bearing, saving = np.zeros(26, np.int64), np.zeros(26, np.int64)
    _spread(rng, bearing, int(rng.integers(1, 9)), range(1, 7))
    furthest = int(rng.integers(7, 17))
    saving[furthest] = 1
    _spread(rng, saving, int(rng.integers(0, 5)), range(7, furthest + 1))
    _spread(rng, saving, 15 - int(saving.sum()), range(1, 7))
    return _either_on_roll(rng, bearing, saving)


def uneven_race(rng: np.random.Generator) -> Position:
    """A race of any length and lead: each side's furthest checker on a random point (the two
    leave no contact), 0..3 checkers already off each."""
    first, second = np.zeros(26, np.int64), np.zeros(26, np.int64)
    first_top = int(rng.integers(7, 18))
    second_top = int(rng.integers(7, 25 - first_top))
    for side, top in ((first, first_top), (second, second_top)):
        side[top] = 1
        _spread(rng, side, 14 - int(rng.integers(0, 4)), range(1, top + 1))
    return _either_on_roll(rng, first, second)


def holding_game(rng: np.random.Generator) -> Position:
    """A side holding one anchor on the other's 4-, 5- or bar point, trailing by 10 to 60
    pips, while the other still has 1..3 checkers to bring past the anchor."""
    for _ in range(MAX_TRIES):
        holder, ahead = np.zeros(26, np.int64), np.zeros(26, np.int64)
        anchor = int(rng.choice((18, 20, 21)))
        holder[anchor] = int(rng.integers(2, 4))
        behind = int(rng.integers(1, 4))  # the other's checkers still to pass the anchor
        _spread(rng, ahead, behind, _free(range(26 - anchor, 13), holder))
        _spread(rng, ahead, 15 - behind, _free(range(1, 13), holder))
        _spread(rng, holder, 15 - int(holder.sum()), _free(range(1, 14), ahead))
        if HOLDING_DEFICIT <= pips(holder) - pips(ahead) <= 3 * HOLDING_DEFICIT + 30 and has_contact(np.asarray(compose(holder, ahead))):
            return _either_on_roll(rng, holder, ahead)
    raise RuntimeError("no holding game found")  # pragma: no cover


def closed_out_bearoff(rng: np.random.Generator) -> Position:
    """Late closed-out checkers: one side on the bar (1..3) with its other checkers home or
    off, against five or six home points whose side bears off (0..5 off, all home)."""
    for _ in range(MAX_TRIES):
        strong, victim = np.zeros(26, np.int64), np.zeros(26, np.int64)
        for point in rng.choice(np.arange(1, 7), size=int(rng.integers(5, 7)), replace=False):
            strong[point] = 2
        _spread(rng, strong, 15 - int(strong.sum()) - int(rng.integers(0, 6)), range(1, 7))
        victim[25] = int(rng.integers(1, 4))
        _spread(rng, victim, int(rng.integers(0, 15 - int(victim[25]) + 1)), _free(range(1, 7), strong))
        position = _either_on_roll(rng, strong, victim)
        if Tag.CLOSED_OUT in tags(np.asarray(position)):
            return position
    raise RuntimeError("no closed-out bear-off found")  # pragma: no cover


def containment_ending(rng: np.random.Generator) -> Position:
    """A containment ending: one side with 2..4 checkers left (the rest off), 1..3 of them
    trapped behind the other's prime of 4..6 points (on the bar or below the prime), its
    others free; the priming side has all its checkers on the board but 0..3 off, 0..3 of
    them still back in the trapped side's home board, the rest bearing in."""
    for _ in range(MAX_TRIES):
        strong, victim = np.zeros(26, np.int64), np.zeros(26, np.int64)
        length = int(rng.integers(4, 7))
        low = int(rng.integers(1, min(5, 11 - length) + 1))  # the prime holds low .. low + length - 1
        top = low + length - 1
        strong[low:top + 1] = 2
        left = int(rng.integers(2, 5))
        trapped = int(rng.integers(1, min(left, 3) + 1))
        behind = [25] + [25 - q for q in range(1, low)]  # the bar and the points below the prime
        _spread(rng, victim, trapped, behind)
        _spread(rng, victim, left - trapped, range(1, 25 - top))
        _spread(rng, strong, int(rng.integers(0, 4)), _free(range(19, 25), victim))
        _spread(rng, strong, 15 - int(rng.integers(0, 4)) - int(strong.sum()), _free(range(1, min(top + 4, 19)), victim))
        position = _either_on_roll(rng, strong, victim)
        if has_contact(np.asarray(position)):
            return position
    raise RuntimeError("no containment ending found")  # pragma: no cover


def ace_point_ending(rng: np.random.Generator) -> Position:
    """An ace-point ending: one side bearing off with 1..8 checkers left, all in its home
    board (the rest off); the other with all 15 on the board, 1..3 of them held back on the
    bearing side's 1..3 points waiting for a shot, 0..4 in its outfield, the rest home. The
    shot, when it comes, decides wins and gammons a few plies later: a 2-ply teacher whose
    leaves undervalue the hit sees neither (our networks gave `DgAAYNtOQAICAA` 6-4's keeping
    play 0.1% wins where the engine's own rollout gives 7%)."""
    for _ in range(MAX_TRIES):
        bearing, holder = np.zeros(26, np.int64), np.zeros(26, np.int64)
        back = int(rng.integers(1, 4))
        outfield = int(rng.integers(0, 5))
        _spread(rng, holder, back, range(22, 25))
        _spread(rng, holder, outfield, range(7, 19))
        _spread(rng, holder, 15 - back - outfield, range(1, 7))
        _spread(rng, bearing, int(rng.integers(1, 9)), _free(range(1, 7), holder))
        position = _either_on_roll(rng, bearing, holder)
        if has_contact(np.asarray(position)):
            return position
    raise RuntimeError("no ace-point ending found")  # pragma: no cover


def opening(rng: np.random.Generator) -> Position:
    """The starting position (self-play from the opening)."""
    return Position.initial()


#: Start kinds of generated games, in a fixed order (the stored ``source`` code is the index).
SCENARIOS: dict[str, Callable[[np.random.Generator], Position]] = {
    "opening": opening,
    "back_game": back_game,
    "closed_out": closed_out,
    "long_race": long_race,
    "gammon_save_race": gammon_save_race,
    "late_gammon_save": late_gammon_save,
}

#: Start kinds of the race-only job (no contact can come back, so every game stays a race).
RACE_SCENARIOS: dict[str, Callable[[np.random.Generator], Position]] = {
    "long_race": long_race,
    "gammon_save_race": gammon_save_race,
    "uneven_race": uneven_race,
}

#: Start kinds of the hard-position rollout job (games that stay contact for long).
HARD_SCENARIOS: dict[str, Callable[[np.random.Generator], Position]] = {
    "back_game": back_game,
    "closed_out": closed_out,
    "holding_game": holding_game,
    "closed_out_bearoff": closed_out_bearoff,
    "containment_ending": containment_ending,
    "ace_point_ending": ace_point_ending,
}

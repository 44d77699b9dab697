"""Cube efficiency x by position class: how much of the fully-live cube's value is realised.

Chosen from the engine's own data, never from another engine's answers (docs/cube.md,
"How the efficiencies were chosen", gives the commands, seeds and fits):

* **contact, race, bear-off**: the least-squares x that makes Janowski's model reproduce the
  engine's own cubeful rollouts of positions from its seeded self-play
  (``benchmarks/fit_cube_efficiency.py``): contact 0.84; races a straight line in the pip
  count of the player on roll from 0.78 at 40 pips to 0.93 at 120 (clamped outside);
  bear-offs (every checker home) 0.81.
* **last roll** (from the rules): one side bears off with every roll of its next turn, so
  the game ends before anyone can use the cube again: the cube is dead, x = 0 (and the
  taker of a double cannot redouble in time to matter).
* **post-Crawford free double**: after the Crawford game the leader (1-away) gains nothing
  from the cube, so the trailer's double costs nothing and is never late by more than an
  exchange; the class's x is moved a share ``FREE_DOUBLE_SHARE`` of the way to 1, the share
  fitted the same way on post-Crawford rollouts.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgengine.errors import InvalidCubeSettingsError, InvalidPositionError
from bgengine.match_state import MatchState
from bgengine.position import Phase, Position

# Fitted on the engine's own cubeful rollouts (benchmarks/fit_cube_efficiency.py, seed 2027).
CONTACT_EFFICIENCY = 0.84
BEAROFF_EFFICIENCY = 0.81
LAST_ROLL_EFFICIENCY = 0.0
RACE_EFFICIENCY_SHORT, RACE_EFFICIENCY_LONG = 0.78, 0.93
RACE_PIPS_SHORT, RACE_PIPS_LONG = 40, 120
#: How far towards a fully live cube (x = 1) the trailer's free double post-Crawford moves x.
FREE_DOUBLE_SHARE = 0.67

HOME_POINTS = 6


@dataclass(frozen=True)
class CubeEfficiency:
    """The x a decision used and why: ``position_class`` is "contact", "race", "bear-off",
    "last roll", "given" (by the caller) or "no position" (the contact value), with
    ", post-Crawford free double" appended when that raised it."""

    value: float
    position_class: str

    def __str__(self) -> str:
        return f"{self.value:.3f} ({self.position_class})"


def race_efficiency(pips: int) -> float:
    """Cube efficiency of a race in which the player on roll has ``pips`` to go."""
    share = (min(max(pips, RACE_PIPS_SHORT), RACE_PIPS_LONG) - RACE_PIPS_SHORT) / (
        RACE_PIPS_LONG - RACE_PIPS_SHORT
    )
    return RACE_EFFICIENCY_SHORT + share * (RACE_EFFICIENCY_LONG - RACE_EFFICIENCY_SHORT)


def is_last_roll(position: Position) -> bool:
    """Does either side bear off its last checker with every roll of its next turn?

    Then the game ends before the cube can be turned again (the player on roll wins now or
    the opponent wins next): the cube has no future.
    """
    if position.phase is not Phase.BEAROFF:
        return False
    own, theirs, _, _ = position.points()
    return _off_in_one_roll(own) or _off_in_one_roll(theirs)


def _off_in_one_roll(points: dict[int, int]) -> bool:
    from bgengine.evaluation import bearoff

    if not points or any(p > HOME_POINTS for p in points):
        return False
    distribution = bearoff.one_sided_table().rolls_distribution(points)
    return bool(distribution[1] >= 1.0 - 1e-9)


def cube_efficiency(position: Position) -> float:
    """The Janowski cube efficiency x for this position's class (see the module docstring)."""
    return position_efficiency(position).value


def position_efficiency(position: Position) -> CubeEfficiency:
    """x and the class of the position it comes from."""
    phase = position.phase
    if phase is Phase.CONTACT:
        return CubeEfficiency(CONTACT_EFFICIENCY, "contact")
    if phase is Phase.RACE:
        return CubeEfficiency(race_efficiency(position.pip_counts()[0]), "race")
    if phase is Phase.BEAROFF:
        if is_last_roll(position):
            return CubeEfficiency(LAST_ROLL_EFFICIENCY, "last roll")
        return CubeEfficiency(BEAROFF_EFFICIENCY, "bear-off")
    raise InvalidPositionError("the game is over: there is no cube decision")


def has_free_double(match: MatchState) -> bool:
    """Post-Crawford with one side 1-away: the trailer's double costs nothing."""
    return match.is_post_crawford


def efficiency_for(position: Position | None, given: float | None, match: MatchState | None = None) -> CubeEfficiency:
    """The given cube efficiency (checked, used as is), else the position class's, raised
    for the post-Crawford free double (not in a last roll, where the cube is dead)."""
    if given is not None:
        return CubeEfficiency(checked_efficiency(given), "given")
    base = CubeEfficiency(CONTACT_EFFICIENCY, "no position") if position is None else position_efficiency(position)
    if match is not None and has_free_double(match) and base.value > 0.0:
        value = base.value + FREE_DOUBLE_SHARE * (1.0 - base.value)
        return CubeEfficiency(value, f"{base.position_class}, post-Crawford free double")
    return base


def checked_efficiency(value: float) -> float:
    """A user-given cube efficiency, refused unless it is a number in 0..1."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise InvalidCubeSettingsError(f"cube efficiency must be a number in 0..1, got {value!r}")
    return float(value)

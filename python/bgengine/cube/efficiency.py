"""Cube efficiency x by position type: how much of the fully-live cube's value is realised.

Values after Rick Janowski, as GNU Backgammon documents them: 0.68 in contact, 0.6 in a
one-sided bear-off (every checker home), and in a race a straight line in the pip count
of the player on roll from 0.6 at 40 pips to 0.7 at 120 pips (clamped outside).
"""

from __future__ import annotations

from bgengine.errors import InvalidCubeSettingsError, InvalidPositionError
from bgengine.position import Phase, Position

CONTACT_EFFICIENCY = 0.68
BEAROFF_EFFICIENCY = 0.6
RACE_EFFICIENCY_SHORT, RACE_EFFICIENCY_LONG = 0.6, 0.7
RACE_PIPS_SHORT, RACE_PIPS_LONG = 40, 120


def race_efficiency(pips: int) -> float:
    """Cube efficiency of a race in which the player on roll has ``pips`` to go."""
    share = (min(max(pips, RACE_PIPS_SHORT), RACE_PIPS_LONG) - RACE_PIPS_SHORT) / (
        RACE_PIPS_LONG - RACE_PIPS_SHORT
    )
    return RACE_EFFICIENCY_SHORT + share * (RACE_EFFICIENCY_LONG - RACE_EFFICIENCY_SHORT)


def cube_efficiency(position: Position) -> float:
    """The Janowski cube efficiency x for this position's type (see the module docstring)."""
    phase = position.phase
    if phase is Phase.CONTACT:
        return CONTACT_EFFICIENCY
    if phase is Phase.RACE:
        return race_efficiency(position.pip_counts()[0])
    if phase is Phase.BEAROFF:
        return BEAROFF_EFFICIENCY
    raise InvalidPositionError("the game is over: there is no cube decision")


def checked_efficiency(value: float) -> float:
    """A user-given cube efficiency, refused unless it is a number in 0..1."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise InvalidCubeSettingsError(f"cube efficiency must be a number in 0..1, got {value!r}")
    return float(value)

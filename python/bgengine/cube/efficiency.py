"""Cube efficiency x by position class: how much of the fully-live cube's value is realised.

Chosen from the engine's own data, never from another engine's answers (docs/cube.md,
"How the efficiencies were chosen", gives the commands, seeds and fits):

* **contact, race, bear-off**: the least-squares x that makes Janowski's model reproduce the
  engine's own cubeful rollouts of positions from its seeded self-play
  (``benchmarks/fit_cube_efficiency.py``), over the lines in the decision window (the player
  on roll the favourite, 50..90 %: where its double is the question): contact 0.79; races a
  straight line in the pip count of the player on roll from 0.74 at 40 pips to 0.85 at 120
  (clamped outside); bear-offs (every checker home) 0.66.
* **last roll** (from the rules): one side bears off with every roll of its next turn, so
  the game ends before anyone can use the cube again: the cube is dead, x = 0 (and the
  taker of a double cannot redouble in time to matter).
* **post-Crawford free double**: after the Crawford game the leader (1-away) gains nothing
  from the cube, so the trailer's double costs nothing and is never late by more than an
  exchange; the class's x is moved a share ``FREE_DOUBLE_SHARE`` of the way to 1, the share
  fitted the same way on post-Crawford rollouts (the trailer on roll and the favourite: the
  only side whose double is a question there).
"""

from __future__ import annotations

from dataclasses import dataclass

from bgcore import _cube_efficiency

from bgengine.errors import InvalidCubeSettingsError, InvalidPositionError
from bgengine.match_state import MatchState
from bgengine.position import Position

# Fitted on the engine's own cubeful rollouts (benchmarks/fit_cube_efficiency.py, seed 2027),
# on the lines of the decision window (the player on roll the favourite, 50..90 %).
CONTACT_EFFICIENCY = 0.79
BEAROFF_EFFICIENCY = 0.66
LAST_ROLL_EFFICIENCY = 0.0
RACE_EFFICIENCY_SHORT, RACE_EFFICIENCY_LONG = 0.74, 0.85
RACE_PIPS_SHORT, RACE_PIPS_LONG = 40, 120
#: How far towards a fully live cube (x = 1) the trailer's free double post-Crawford moves x.
FREE_DOUBLE_SHARE = 0.60

#: The class names of bgcore._cube_efficiency's codes.
_CLASS_NAMES = {
    _cube_efficiency.CONTACT: "contact",
    _cube_efficiency.RACE: "race",
    _cube_efficiency.BEAROFF: "bear-off",
    _cube_efficiency.LAST_ROLL: "last roll",
}


@dataclass(frozen=True)
class CubeEfficiency:
    """The x a decision used and why: ``position_class`` is "contact", "race", "bear-off",
    "last roll", "given" (by the caller) or "no position" (the contact value), with
    ", post-Crawford free double" appended when that raised it."""

    value: float
    position_class: str

    def __str__(self) -> str:
        return f"{self.value:.3f} ({self.position_class})"


def has_free_double(match: MatchState | None) -> bool:
    """Post-Crawford with one side 1-away: the trailer's double costs nothing."""
    return match is not None and match.is_post_crawford


def efficiency_rule(given: float | None = None, match: MatchState | None = None) -> tuple[float, ...]:
    """The numbers of the efficiency rule for bgcore._cube_efficiency (the classes and the curve
    are defined there, once, for the cube model and the rollout referee alike): (given x or -1,
    contact, race short, race long, race pips short, race pips long, bear-off, last roll,
    post-Crawford free-double share or 0)."""
    return (
        -1.0 if given is None else checked_efficiency(given),
        CONTACT_EFFICIENCY, RACE_EFFICIENCY_SHORT, RACE_EFFICIENCY_LONG, float(RACE_PIPS_SHORT),
        float(RACE_PIPS_LONG), BEAROFF_EFFICIENCY, LAST_ROLL_EFFICIENCY,
        FREE_DOUBLE_SHARE if has_free_double(match) else 0.0,
    )


_CLASS_RULE = efficiency_rule()


def race_efficiency(pips: int) -> float:
    """Cube efficiency of a race in which the player on roll has ``pips`` to go."""
    return _cube_efficiency.efficiency_of_class(_CLASS_RULE, _cube_efficiency.RACE, pips)


def is_last_roll(position: Position) -> bool:
    """Does either side bear off its last checker with every roll of its next turn?

    Then the game ends before the cube can be turned again (the player on roll wins now or
    the opponent wins next): the cube has no future.
    """
    return _cube_efficiency.position_class(position.to_bytes()) == _cube_efficiency.LAST_ROLL


def cube_efficiency(position: Position) -> float:
    """The Janowski cube efficiency x for this position's class (see the module docstring)."""
    return position_efficiency(position).value


def position_efficiency(position: Position) -> CubeEfficiency:
    """x and the class of the position it comes from."""
    board = position.to_bytes()
    position_class = _cube_efficiency.position_class(board)
    if position_class == _cube_efficiency.OVER:
        raise InvalidPositionError("the game is over: there is no cube decision")
    return CubeEfficiency(_cube_efficiency.efficiency(_CLASS_RULE, board), _CLASS_NAMES[position_class])


def efficiency_for(position: Position | None, given: float | None, match: MatchState | None = None) -> CubeEfficiency:
    """The given cube efficiency (checked, used as is), else the position class's, raised
    for the post-Crawford free double (not in a last roll, where the cube is dead)."""
    if given is not None:
        return CubeEfficiency(checked_efficiency(given), "given")
    if position is None:
        base = CubeEfficiency(CONTACT_EFFICIENCY, "no position")
        value = _cube_efficiency.efficiency_of_class(efficiency_rule(None, match), _cube_efficiency.CONTACT, 0)
    else:
        base = position_efficiency(position)
        value = _cube_efficiency.efficiency(efficiency_rule(None, match), position.to_bytes())
    if value != base.value:
        return CubeEfficiency(value, f"{base.position_class}, post-Crawford free double")
    return base


def checked_efficiency(value: float) -> float:
    """A user-given cube efficiency, refused unless it is a number in 0..1."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise InvalidCubeSettingsError(f"cube efficiency must be a number in 0..1, got {value!r}")
    return float(value)

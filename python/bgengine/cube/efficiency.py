"""Cube efficiency x by position class and cube state: how much of the live cube's value is realised.

Chosen from the engine's own data, never from another engine's answers (docs/cube.md,
"How the efficiencies were chosen", gives the commands, seeds and fits):

* **contact, race, bear-off**: the least-squares x that makes Janowski's model reproduce the
  engine's own cubeful rollouts of positions from its seeded self-play
  (``benchmarks/fit_cube_efficiency.py``), over the lines in the decision window (the player
  on roll the favourite, 50..90 %: where its double is the question), fitted apart for each
  cube state (centred, owned by the player on roll, owned by the opponent), since the
  rollouts realise different shares of the live cube in each: contact 0.81 / 0.82 / 0.77;
  races a straight line in the pip count of the player on roll from 40 to 120 pips
  (clamped outside), 0.80-0.91 / 0.73-0.78 / 0.63-0.72; bear-offs (every checker home)
  0.74 / 0.71 / 0.40.
* **short bear-offs in the two-sided table**: each state's x from the table's exact money
  values at the position's exact chances (``bearoff_efficiency``), not the class's.
* **last roll** (from the rules): one side bears off with every roll of its next turn, so
  the game ends before anyone can use the cube again: the cube is dead, x = 0 (and the
  taker of a double cannot redouble in time to matter).
* **post-Crawford free double**: after the Crawford game the leader (1-away) gains nothing
  from the cube, so the trailer's double costs nothing and is never late by more than an
  exchange; the class's x is moved a share ``FREE_DOUBLE_SHARE`` of the way to 1, the share
  fitted the same way on post-Crawford rollouts (the trailer on roll and the favourite: the
  only side whose double is a question there) against the centred contact x.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgcore import _cube_efficiency

from bgengine.cube.bearoff_efficiency import exact_bearoff_efficiencies
from bgengine.cube.state_efficiency import StateEfficiencies
from bgengine.errors import InvalidCubeSettingsError, InvalidPositionError
from bgengine.match_state import CubeOwner, MatchState
from bgengine.position import Position

# Fitted on the engine's own cubeful rollouts (benchmarks/fit_cube_efficiency.py, seed 2027),
# on the lines of the decision window (the player on roll the favourite, 50..90 %), each
# cube state apart.
CONTACT = StateEfficiencies(centred=0.81, owned=0.82, opponent_owns=0.77)
BEAROFF = StateEfficiencies(centred=0.74, owned=0.71, opponent_owns=0.40)
RACE_SHORT = StateEfficiencies(centred=0.80, owned=0.73, opponent_owns=0.63)  # at RACE_PIPS_SHORT or fewer
RACE_LONG = StateEfficiencies(centred=0.91, owned=0.78, opponent_owns=0.72)  # at RACE_PIPS_LONG or more
LAST_ROLL_EFFICIENCY = 0.0
RACE_PIPS_SHORT, RACE_PIPS_LONG = 40, 120
#: How far towards a fully live cube (x = 1) the trailer's free double post-Crawford moves x.
FREE_DOUBLE_SHARE = 0.56
#: The centred cube's x of each class (the x of a decision without a position is the contact one).
CONTACT_EFFICIENCY = CONTACT.centred
BEAROFF_EFFICIENCY = BEAROFF.centred
RACE_EFFICIENCY_SHORT, RACE_EFFICIENCY_LONG = RACE_SHORT.centred, RACE_LONG.centred

#: The class names of bgcore._cube_efficiency's codes.
_CLASS_NAMES = {
    _cube_efficiency.CONTACT: "contact",
    _cube_efficiency.RACE: "race",
    _cube_efficiency.BEAROFF: "bear-off",
    _cube_efficiency.LAST_ROLL: "last roll",
}


@dataclass(frozen=True)
class CubeEfficiency:
    """The x a decision used and why: ``value`` is the x of the cube as it stands (No double),
    ``states`` the x of each cube state (Double/Take values the doubled cube, owned by the
    opponent, with ``states.opponent_owns``); ``position_class`` is "contact", "race",
    "bear-off", "exact bear-off" (from the two-sided table), "last roll", "given" (by the
    caller) or "no position" (the contact values), with ", post-Crawford free double"
    appended when that raised it."""

    value: float
    position_class: str
    states: StateEfficiencies

    def __str__(self) -> str:
        return f"{self.value:.3f} ({self.position_class})"


def has_free_double(match: MatchState | None) -> bool:
    """Post-Crawford with one side 1-away: the trailer's double costs nothing."""
    return match is not None and match.is_post_crawford


def efficiency_rule(given: float | None = None, match: MatchState | None = None) -> tuple[object, ...]:
    """The numbers of the efficiency rule for bgcore._cube_efficiency (the classes and the curve
    are defined there, once, for the cube model and the rollout referee alike): (given x or -1,
    contact, race short, race long by state, race pips short, race pips long, bear-off by state,
    last roll, post-Crawford free-double share or 0); states in bgcore's order."""
    return (
        -1.0 if given is None else checked_efficiency(given),
        CONTACT.in_c(), RACE_SHORT.in_c(), RACE_LONG.in_c(), float(RACE_PIPS_SHORT),
        float(RACE_PIPS_LONG), BEAROFF.in_c(), LAST_ROLL_EFFICIENCY,
        FREE_DOUBLE_SHARE if has_free_double(match) else 0.0,
    )


_CLASS_RULE = efficiency_rule()


def race_efficiency(pips: int) -> float:
    """Cube efficiency (centred cube) of a race in which the player on roll has ``pips`` to go."""
    return race_efficiencies(pips).centred


def race_efficiencies(pips: int) -> StateEfficiencies:
    """Cube efficiency by cube state of a race in which the player on roll has ``pips`` to go."""
    return StateEfficiencies.from_c(_cube_efficiency.efficiency_of_class(_CLASS_RULE, _cube_efficiency.RACE, pips))


def is_last_roll(position: Position) -> bool:
    """Does either side bear off its last checker with every roll of its next turn?

    Then the game ends before the cube can be turned again (the player on roll wins now or
    the opponent wins next): the cube has no future.
    """
    return _cube_efficiency.position_class(position.to_bytes()) == _cube_efficiency.LAST_ROLL


def cube_efficiency(position: Position) -> float:
    """The Janowski cube efficiency x of this position with the cube centred (see the module docstring)."""
    return position_efficiency(position).states.centred


def position_efficiency(position: Position, match: MatchState | None = None, *, exact: bool = True) -> CubeEfficiency:
    """x by cube state and the class it comes from (from the exact values in the two-sided
    table, unless ``exact`` is off), the free double's raise left out; ``value`` is the x of
    the cube as ``match`` has it."""
    board = position.to_bytes()
    position_class = _cube_efficiency.position_class(board)
    if position_class == _cube_efficiency.OVER:
        raise InvalidPositionError("the game is over: there is no cube decision")
    states = StateEfficiencies.from_c(_cube_efficiency.efficiency(_CLASS_RULE, board))
    name = _CLASS_NAMES[position_class]
    if exact and position_class == _cube_efficiency.BEAROFF:
        from_table = exact_bearoff_efficiencies(position, states)
        if from_table is not None:
            states, name = from_table, "exact bear-off"
    return CubeEfficiency(states.of(_owner(match)), name, states)


def efficiency_for(
    position: Position | None, given: float | None, match: MatchState | None = None, *, exact: bool = True
) -> CubeEfficiency:
    """The given cube efficiency (checked, used as is, in every cube state), else the
    position's by class and cube state (exact in the two-sided table unless ``exact`` is off,
    as the rollout referee decides), raised for the post-Crawford free double (not in a last
    roll, where the cube is dead)."""
    owner = _owner(match)
    if given is not None:
        return CubeEfficiency(checked_efficiency(given), "given", StateEfficiencies.every_state(checked_efficiency(given)))
    base = (CubeEfficiency(CONTACT.of(owner), "no position", CONTACT) if position is None
            else position_efficiency(position, match, exact=exact))
    if not has_free_double(match):
        return base
    rule = efficiency_rule(None, match)
    states = base.states.mapped(lambda x: _cube_efficiency.raised_for_free_double(rule, x))
    if states == base.states:
        return base
    return CubeEfficiency(states.of(owner), f"{base.position_class}, post-Crawford free double", states)


def _owner(match: MatchState | None) -> CubeOwner:
    return CubeOwner.CENTRED if match is None else match.relative_cube_owner()


def checked_efficiency(value: float) -> float:
    """A user-given cube efficiency, refused unless it is a number in 0..1."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise InvalidCubeSettingsError(f"cube efficiency must be a number in 0..1, got {value!r}")
    return float(value)

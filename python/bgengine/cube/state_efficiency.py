"""Janowski's cube efficiency x by the cube's state: centred, owned, or owned by the opponent.

The engine's own rollouts realise different shares of the live cube's value in the three
states (docs/cube.md, "How the efficiencies were chosen"), so a model values each cubeful
line with the x of its own state. States are seen from the player whose equity is valued.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bgengine.match_state import CubeOwner


@dataclass(frozen=True)
class StateEfficiencies:
    """x of each cube state, from the player whose equity is valued. ``exact``: the x come from
    exact cubeful values, which already hold every later cube action (the taker's redoubles
    among them), so the model's Double/Take takes no immediate-redouble correction."""

    centred: float
    owned: float
    opponent_owns: float
    exact: bool = False

    @classmethod
    def every_state(cls, x: float) -> StateEfficiencies:
        """One x whatever the cube's state (a given x, a last roll's dead cube)."""
        return cls(x, x, x)

    @classmethod
    def from_c(cls, values: tuple[float, float, float]) -> StateEfficiencies:
        """From bgcore's order (opponent owns, centred, owned)."""
        opponent_owns, centred, owned = values
        return cls(centred, owned, opponent_owns)

    def in_c(self) -> tuple[float, float, float]:
        """bgcore's order: (opponent owns, centred, owned), i.e. by the owner code + 1."""
        return self.opponent_owns, self.centred, self.owned

    def of(self, owner: CubeOwner) -> float:
        """x of the cube owned so (from the player valued)."""
        if owner is CubeOwner.CENTRED:
            return self.centred
        return self.owned if owner is CubeOwner.PLAYER else self.opponent_owns

    def mapped(self, change: Callable[[float], float]) -> StateEfficiencies:
        """Each state's x through ``change``."""
        return StateEfficiencies(change(self.centred), change(self.owned), change(self.opponent_owns), self.exact)

    @property
    def taker_redoubles_at_once(self) -> bool:
        """Does the model let the taker of a double redouble at once? Not when the doubler's
        owned cube is dead (x = 0: the game ends first) nor when the x are exact."""
        return self.owned > 0.0 and not self.exact


def as_state_efficiencies(efficiency: float | StateEfficiencies) -> StateEfficiencies:
    """One x for every state, or the states' own."""
    return efficiency if isinstance(efficiency, StateEfficiencies) else StateEfficiencies.every_state(efficiency)

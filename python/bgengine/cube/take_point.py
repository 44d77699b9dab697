"""Take points at a score, both ways: the numbers match players learn by heart."""

from __future__ import annotations

from typing import Any

from bgengine.cube.decision import cube_decision
from bgengine.cube.efficiency import CONTACT_EFFICIENCY
from bgengine.match_state import MatchState
from bgengine.cube.met import MatchEquityTable
from bgengine.probabilities import GameProbabilities

GAMMONLESS = GameProbabilities(0.5)


def take_points(
    match: MatchState,
    probabilities: Any = GAMMONLESS,
    *,
    cube_efficiency: float = CONTACT_EFFICIENCY,
    met: MatchEquityTable | None = None,
) -> tuple[float | None, float | None]:
    """(the opponent's take point if the player on roll doubles, the player's if the opponent does).

    Each is the taker's own least winning chance to take, with the gammon shares of
    ``probabilities`` (player on roll's view; gammonless by default); None where that
    side may not double. The winning chance itself does not matter, only its shares.
    """
    chances = GameProbabilities.from_vector(probabilities)
    player_doubles = cube_decision(match=match, probabilities=chances, met=met, cube_efficiency=cube_efficiency)
    opponent_on_roll = match.with_changes(on_roll=1 - match.on_roll, dice=None, double_offered=False)
    opponent_doubles = cube_decision(
        match=opponent_on_roll, probabilities=chances.flipped(), met=met, cube_efficiency=cube_efficiency
    )
    return player_doubles.take_point, opponent_doubles.take_point

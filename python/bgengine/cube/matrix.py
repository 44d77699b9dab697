"""Cube decisions over every score of a match at once, as match players study them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bgengine.cube.decision import CubeDecision, cube_decision
from bgengine.match_state import CubeOwner
from bgengine.errors import InvalidCubeSettingsError
from bgengine.match_state import MatchState
from bgengine.cube.met import MatchEquityTable, default_met
from bgengine.probabilities import GameProbabilities


@dataclass(frozen=True)
class CubeDecisionMatrix(Mapping[tuple[int, int], CubeDecision]):
    """Decisions keyed by (player on roll's away, opponent's away); 1-away rows are post-Crawford."""

    match_length: int
    decisions: Mapping[tuple[int, int], CubeDecision]

    def __getitem__(self, aways: tuple[int, int]) -> CubeDecision:
        return self.decisions[aways]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self.decisions)

    def __len__(self) -> int:
        return len(self.decisions)

    def __str__(self) -> str:
        """A grid of actions: rows the player's away score, columns the opponent's."""
        aways = range(1, self.match_length + 1)
        width = 6
        lines = ["away " + "".join(f"{b:>{width}}" for b in aways)]
        for a in aways:
            cells = "".join(f"{self.decisions[a, b].action.abbreviation:>{width}}" for b in aways)
            lines.append(f"{a:>4} " + cells)
        return "\n".join(lines)


def cube_decision_matrix(
    probabilities: Any,
    match_length: int,
    *,
    cube_value: int = 1,
    cube_owner: CubeOwner = CubeOwner.CENTRED,
    cube_efficiency: float | None = None,
    met: MatchEquityTable | None = None,
) -> CubeDecisionMatrix:
    """The decision of the player on roll with these probabilities at every pair of away scores.

    Scores with a player 1-away are taken as post-Crawford (the Crawford game has no cube
    action). The cube owner is seen from the player on roll. ``cube_efficiency`` None: as
    ``cube_decision`` without a position (the contact value; raised post-Crawford for the
    trailer's free double).
    """
    if isinstance(match_length, bool) or not isinstance(match_length, int) or match_length < 1:
        raise InvalidCubeSettingsError(f"match length must be a whole number >= 1, got {match_length!r}")
    chances = GameProbabilities.from_vector(probabilities)
    table = met or default_met()
    table.check_covers(match_length)
    owner = {CubeOwner.CENTRED: None, CubeOwner.PLAYER: 0, CubeOwner.OPPONENT: 1}[CubeOwner(cube_owner)]
    decisions = {}
    for away in range(1, match_length + 1):
        for opponent_away in range(1, match_length + 1):
            match = MatchState(
                match_length=match_length,
                score=(match_length - away, match_length - opponent_away),
                cube_value=cube_value,
                cube_owner=owner,
            )
            decisions[away, opponent_away] = cube_decision(
                match=match, probabilities=chances, met=table, cube_efficiency=cube_efficiency
            )
    return CubeDecisionMatrix(match_length, decisions)

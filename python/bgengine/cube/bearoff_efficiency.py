"""The cube efficiency of a short bear-off, from the exact two-sided table.

Where the table covers a position it holds the exact money cubeful equities, so Janowski's
x need not be guessed by class: for each cube state it is the x with which the money model
gives the table's value at the position's exact cubeless chance,
x = (exact - dead) / (live - dead) (no gammons at these counts, W = L = 1). Short bear-offs
realise much less of the live cube than the bear-off class (docs/cube.md: about 0.4 in the
decision window against the class's 0.74), and match play, which has no exact cubeful
table, uses these x in its model (without the immediate-redouble correction of Double/Take:
the exact values hold the taker's redoubles, made after the doubler's roll, which matters in
a short bear-off). Near the chances where live and dead meet the ratio says
nothing, so it is shrunk towards the class's x there (a ridge with scale ``SHRINK``).
"""

from __future__ import annotations

from functools import lru_cache

from bgengine.cube.bearoff_exact import exact_no_doubles
from bgengine.cube.janowski import dead_equity, live_equity
from bgengine.cube.state_efficiency import StateEfficiencies
from bgengine.evaluation import bearoff
from bgengine.match_state import CubeOwner
from bgengine.position import Position

#: |live - dead| (money per cube) below which the exact value says little about x.
SHRINK = 0.01


def exact_bearoff_efficiencies(position: Position, class_x: StateEfficiencies) -> StateEfficiencies | None:
    """x of each cube state from the exact table (None: the table does not cover the position)."""
    if not bearoff.two_sided_table().covers(position):
        return None
    return StateEfficiencies(*_exact_efficiencies(position, class_x), exact=True)


@lru_cache(maxsize=1 << 14)
def _exact_efficiencies(position: Position, class_x: StateEfficiencies) -> tuple[float, float, float]:
    """(centred, owned, opponent owns) x of a covered position (cached: search leaves repeat)."""
    equities = bearoff.two_sided_table().equities(position)
    centred, owned = exact_no_doubles(position, (CubeOwner.CENTRED, CubeOwner.PLAYER))
    exact = {
        CubeOwner.CENTRED: centred,
        CubeOwner.PLAYER: owned,
        CubeOwner.OPPONENT: equities.opponent_owns,  # the player cannot double: no cube action now
    }
    p = equities.win
    dead = dead_equity(1.0, 1.0)(p)
    result = []
    for owner in (CubeOwner.CENTRED, CubeOwner.PLAYER, CubeOwner.OPPONENT):
        gap = live_equity(1.0, 1.0, owner)(p) - dead
        prior = class_x.of(owner)
        x = prior + (exact[owner] - dead - prior * gap) * gap / (gap * gap + SHRINK * SHRINK)
        result.append(min(max(x, 0.0), 1.0))
    return result[0], result[1], result[2]

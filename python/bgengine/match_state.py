"""MatchState: score, match length, cube, Crawford and whose turn it is, as one value."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from bgengine.dice import checked_roll
from bgengine.errors import InvalidMatchStateError

#: The largest cube value the rules of play allow (the cube's faces are 2..64).
RULES_MAX_CUBE = 64
#: The largest cube value the position formats can carry (GNU Backgammon's 2**15).
FORMAT_MAX_CUBE = 2**15
#: The longest match the GNU Backgammon Match ID can carry (15 bits).
MAX_MATCH_LENGTH = 2**15 - 1


class CubeOwner(enum.Enum):
    """Who holds the cube, seen from the player on roll (or from a player named).

    ``MatchState.cube_owner`` names the owner absolutely (None, 0 or 1);
    ``MatchState.relative_cube_owner()`` and ``CubeOwner.absolute`` convert between the two.
    """

    CENTRED = "centred"
    PLAYER = "player on roll"
    OPPONENT = "opponent"

    def absolute(self, player: int) -> int | None:
        """The owner as ``MatchState.cube_owner`` names it, when this is seen from ``player``."""
        if self is CubeOwner.CENTRED:
            return None
        return player if self is CubeOwner.PLAYER else 1 - player


#: The owner as the CLI's JSON and the SVG board's ``cube`` argument name it, seen from the player on roll.
OWNER_NAMES: dict[CubeOwner, str | None] = {CubeOwner.CENTRED: None, CubeOwner.PLAYER: "on_roll", CubeOwner.OPPONENT: "opponent"}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class MatchState:
    """Everything about a game in progress that is not the checkers.

    Players are numbered 0 and 1; ``on_roll`` is the player whose turn it is (who rolls
    or rolled the dice, and who is doubling when ``double_offered``). ``match_length``
    0 means money play. ``cube_owner`` is None while the cube is centred, else the
    owning player. ``crawford`` marks *this* game as the Crawford game. ``max_cube``
    is the largest value the cube may reach: 64 by the rules, larger values are
    accepted from XGIDs that carry them (up to 2**15).
    """

    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    cube_value: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    dice: tuple[int, int] | None = None
    double_offered: bool = False
    max_cube: int = RULES_MAX_CUBE
    resignation_offered: int = field(default=0)  # 0 none, 1 single, 2 gammon, 3 backgammon

    def __post_init__(self) -> None:
        if self.dice is not None:
            object.__setattr__(self, "dice", checked_roll(self.dice, "MatchState.dice"))
        problem = self._problem()
        if problem:
            raise InvalidMatchStateError(problem)

    def _problem(self) -> str | None:  # noqa: C901 - one check a line reads best
        length = self.match_length
        if not _is_int(length) or length < 0:
            return f"match length must be a whole number >= 0 (0 = money), got {length!r}"
        if length > MAX_MATCH_LENGTH:
            return f"match length {length} is longer than {MAX_MATCH_LENGTH} points"
        if not (isinstance(self.score, tuple) and len(self.score) == 2):
            return f"score must be a pair (player 0, player 1), got {self.score!r}"
        for player, points in enumerate(self.score):
            if not _is_int(points) or points < 0:
                return f"score of player {player} must be a whole number >= 0, got {points!r}"
            if points > MAX_MATCH_LENGTH:
                return f"score of player {player} is {points}; the formats carry scores up to {MAX_MATCH_LENGTH}"
            if length and points >= length:
                return (
                    f"score of player {player} is {points} in a {length}-point match;"
                    " a match in play has both scores below its length"
                )
        if not _is_int(self.max_cube) or not _is_power_of_two(self.max_cube) or self.max_cube > FORMAT_MAX_CUBE:
            return f"maximum cube must be a power of two up to {FORMAT_MAX_CUBE}, got {self.max_cube!r}"
        value = self.cube_value
        if not _is_int(value) or not _is_power_of_two(value):
            return f"cube value must be a power of two (1, 2, 4, ..., 64), got {value!r}"
        if value > self.max_cube:
            return f"cube value {value} is above the maximum cube {self.max_cube}"
        if self.cube_owner is not None and not (_is_int(self.cube_owner) and self.cube_owner in (0, 1)):
            return f"cube owner must be None (centred), 0 or 1, got {self.cube_owner!r}"
        if self.cube_owner is not None and value == 1:
            return "a cube of value 1 is centred; it cannot be owned"
        if not (_is_int(self.on_roll) and self.on_roll in (0, 1)):
            return f"player on roll must be 0 or 1, got {self.on_roll!r}"
        for flag in ("crawford", "jacoby", "beavers", "double_offered"):
            if not isinstance(getattr(self, flag), bool):
                return f"{flag} must be True or False, got {getattr(self, flag)!r}"
        if self.crawford:
            if not length:
                return "the Crawford rule applies to matches only, not to money play"
            if length - 1 not in self.score:
                return "the Crawford game needs a player one point away from winning"
            if self.score == (length - 1, length - 1):
                return "both players are one point away: the Crawford game has been played"
            if value != 1 or self.cube_owner is not None:
                return "the cube stays centred at 1 in the Crawford game"
        if length and (self.jacoby or self.beavers):
            return "the Jacoby rule and beavers apply to money play only"
        if self.double_offered:
            if self.dice is not None:
                return "a double is offered before rolling, but dice are set"
            reason = self.why_no_double()
            if reason:
                return f"player {self.on_roll} cannot double here: {reason}"
        if not (_is_int(self.resignation_offered) and self.resignation_offered in (0, 1, 2, 3)):
            return "resignation offered must be 0 (none), 1 (single), 2 (gammon) or 3 (backgammon)"
        return None

    # ----- derived facts ------------------------------------------------------------

    @property
    def is_money(self) -> bool:
        return self.match_length == 0

    def away(self, player: int) -> int:
        """Points player still needs to win the match (0 in money play)."""
        return self.match_length - self.score[player] if self.match_length else 0

    @property
    def away_scores(self) -> tuple[int, int]:
        """(player 0 away, player 1 away); (0, 0) in money play."""
        return self.away(0), self.away(1)

    @property
    def is_crawford_game(self) -> bool:
        return self.crawford

    @property
    def is_post_crawford(self) -> bool:
        """A game after the Crawford game: some player is 1-away and the cube is live."""
        return bool(self.match_length) and not self.crawford and 1 in self.away_scores

    # ----- the rules of the cube (every layer asks here) -----------------------------

    def why_no_double(self, player: int | None = None) -> str:
        """Why the rules forbid ``player`` (default: the player on roll) to double now; "" when
        they may: the cube is centred or theirs, this is not the Crawford game, and doubling
        stays within ``max_cube``."""
        player = self.on_roll if player is None else player
        if self.crawford:
            return "Crawford game: the cube is out of play"
        if self.cube_owner is not None and self.cube_owner != player:
            return "the opponent owns the cube"
        if self.cube_value * 2 > self.max_cube:
            return f"the cube is at its maximum ({self.cube_value})"
        return ""

    def may_double(self, player: int | None = None) -> bool:
        """May ``player`` (default: the player on roll) double or redouble now, by the rules?"""
        return not self.why_no_double(player)

    def may_beaver(self) -> bool:
        """May the player doubled beaver (take and redouble at once, keeping the cube):
        money play with beavers on, and room on the cube for twice the doubled value."""
        return self.is_money and self.beavers and self.cube_value * 4 <= self.max_cube

    def relative_cube_owner(self, player: int | None = None) -> CubeOwner:
        """Who holds the cube seen from ``player`` (default: the player on roll)."""
        player = self.on_roll if player is None else player
        if self.cube_owner is None:
            return CubeOwner.CENTRED
        return CubeOwner.PLAYER if self.cube_owner == player else CubeOwner.OPPONENT

    def game_points(self, result: int, cube_value: int | None = None, *, centred: bool | None = None) -> int:
        """Points a game won with ``result`` (1 single, 2 gammon, 3 backgammon) is worth at
        ``cube_value``: the cube times the result, except that under the Jacoby rule (money
        play) gammons and backgammons count single while the cube is ``centred``. Both
        default to this state's cube."""
        cube = self.cube_value if cube_value is None else cube_value
        centred = self.cube_owner is None if centred is None else centred
        multiple = 1 if self.is_money and self.jacoby and centred else int(result)
        return cube * multiple

    def with_changes(self, **changes: object) -> MatchState:
        """A copy with some fields replaced (and checked again)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def _with_trusted_changes(self, **changes: object) -> MatchState:
        """``with_changes`` without checking again: only for changes that cannot make a
        valid state invalid, already checked by the caller (the game's checked dice set
        at a roll, the dice cleared and the turn passed after a play)."""
        state = object.__new__(MatchState)
        state.__dict__.update(self.__dict__, **changes)
        return state


def _is_power_of_two(value: int) -> bool:
    return value >= 1 and value & (value - 1) == 0

"""GameProbabilities: the cubeless 5-vector, checked, with the values cube logic derives from it.

The vector is GNU Backgammon's, cumulative (a gammon counts as a win too, a backgammon
as a gammon), always from the player on roll before rolling: ``win, win_gammon,
win_backgammon, lose_gammon, lose_backgammon``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bgengine.errors import InvalidProbabilitiesError

#: How far outside 0..1 (or above its parent) a value may stray through float rounding.
ROUNDING_TOLERANCE = 1e-7

FIELD_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


@dataclass(frozen=True)
class GameProbabilities:
    """Cubeless chances of the player on roll, before rolling, cumulative as GNU Backgammon's.

    Build with ``GameProbabilities.from_vector(v)`` (or the constructor) which checks:
    every value in 0..1, ``win_backgammon <= win_gammon <= win`` and
    ``lose_backgammon <= lose_gammon <= 1 - win``.
    """

    win: float
    win_gammon: float = 0.0
    win_backgammon: float = 0.0
    lose_gammon: float = 0.0
    lose_backgammon: float = 0.0

    def __post_init__(self) -> None:
        values = [_checked_value(name, getattr(self, name)) for name in FIELD_NAMES]
        win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = values
        _check_not_above(win_gammon, "win_gammon", win, "win")
        _check_not_above(win_backgammon, "win_backgammon", win_gammon, "win_gammon")
        _check_not_above(lose_gammon, "lose_gammon", 1.0 - win, "the chance of losing (1 - win)")
        _check_not_above(lose_backgammon, "lose_backgammon", lose_gammon, "lose_gammon")
        # Clip rounding noise so that every derived value is a true probability.
        win = min(max(win, 0.0), 1.0)
        win_gammon = min(max(win_gammon, 0.0), win)
        win_backgammon = min(max(win_backgammon, 0.0), win_gammon)
        lose_gammon = min(max(lose_gammon, 0.0), 1.0 - win)
        lose_backgammon = min(max(lose_backgammon, 0.0), lose_gammon)
        clipped = (win, win_gammon, win_backgammon, lose_gammon, lose_backgammon)
        for name, value in zip(FIELD_NAMES, clipped, strict=True):
            object.__setattr__(self, name, value)

    @classmethod
    def from_vector(cls, values: Iterable[float] | GameProbabilities) -> GameProbabilities:
        """Check and wrap a 5-vector (list, tuple, numpy array) in GNU Backgammon's order."""
        if isinstance(values, GameProbabilities):
            return values
        try:
            items = [v for v in values]
        except TypeError:
            raise InvalidProbabilitiesError(
                f"probabilities must be a sequence of 5 numbers, got {values!r}"
            ) from None
        if len(items) != len(FIELD_NAMES):
            raise InvalidProbabilitiesError(
                f"probabilities need 5 values ({', '.join(FIELD_NAMES)}), got {len(items)}"
            )
        return cls(*items)

    def __iter__(self) -> Iterator[float]:
        return iter(self.as_tuple())

    def as_tuple(self) -> tuple[float, float, float, float, float]:
        return (self.win, self.win_gammon, self.win_backgammon, self.lose_gammon, self.lose_backgammon)

    @property
    def lose(self) -> float:
        return 1.0 - self.win

    def cubeless_equity(self) -> float:
        """Cubeless money equity of the player on roll, per point of stake."""
        return (
            2.0 * self.win - 1.0
            + self.win_gammon - self.lose_gammon
            + self.win_backgammon - self.lose_backgammon
        )

    def win_shares(self) -> tuple[float, float, float]:
        """Of the games won: the shares won single, gammon (not backgammon) and backgammon."""
        return _shares(self.win, self.win_gammon, self.win_backgammon)

    def loss_shares(self) -> tuple[float, float, float]:
        """Of the games lost: the shares lost single, gammon (not backgammon) and backgammon."""
        return _shares(self.lose, self.lose_gammon, self.lose_backgammon)

    def average_win_value(self) -> float:
        """W: the average number of points of a game won (1 if no game is won)."""
        single, gammon, backgammon = self.win_shares()
        return single + 2.0 * gammon + 3.0 * backgammon

    def average_loss_value(self) -> float:
        """L: the average number of points of a game lost, as a positive number."""
        single, gammon, backgammon = self.loss_shares()
        return single + 2.0 * gammon + 3.0 * backgammon

    def flipped(self) -> GameProbabilities:
        """The same chances seen from the opponent."""
        return GameProbabilities(
            self.lose, self.lose_gammon, self.lose_backgammon, self.win_gammon, self.win_backgammon
        )


def _shares(total: float, gammon: float, backgammon: float) -> tuple[float, float, float]:
    if total <= 0.0:
        return (1.0, 0.0, 0.0)
    return ((total - gammon) / total, (gammon - backgammon) / total, backgammon / total)


def _checked_value(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
        raise InvalidProbabilitiesError(f"{name} must be a number, got {value!r}")
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InvalidProbabilitiesError(f"{name} must be a number, got {value!r}") from None
    if math.isnan(number):
        raise InvalidProbabilitiesError(f"{name} is NaN")
    if not -ROUNDING_TOLERANCE <= number <= 1.0 + ROUNDING_TOLERANCE:
        raise InvalidProbabilitiesError(f"{name} must be a probability in 0..1, got {number}")
    return number


def _check_not_above(value: float, name: str, limit: float, limit_name: str) -> None:
    if value > limit + ROUNDING_TOLERANCE:
        raise InvalidProbabilitiesError(
            f"{name} ({value:.6g}) is above {limit_name} ({limit:.6g});"
            " the vector is cumulative: a gammon is also a win, a backgammon also a gammon"
        )

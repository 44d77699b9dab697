"""GameProbabilities: the cubeless 5-vector, checked, with the values cube logic derives from it.

The vector is GNU Backgammon's, cumulative (a gammon counts as a win too, a backgammon
as a gammon), always from the player on roll before rolling: ``win, win_gammon,
win_backgammon, lose_gammon, lose_backgammon``.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, overload

import numpy as np

from bgengine.errors import InvalidProbabilitiesError

#: How far outside 0..1 (or above its parent) a value may stray through float rounding.
ROUNDING_TOLERANCE = 1e-7

#: The names of the 5-vector's values, in GNU Backgammon's order (the vector's fields).
FIELD_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")

Vector5 = tuple[float, float, float, float, float]


class EquityUnit(enum.Enum):
    """The unit an equity is given in."""

    MONEY = "money equity per current cube (Double/Pass = +1)"
    MWC = "match winning chance"
    EMG = "normalised money equity of the match (EMG)"


# ----- the 5-vector's rules: equity, the other side's view, clamping, finished games -------


@overload
def equity(probabilities: np.ndarray) -> Any: ...
@overload
def equity(probabilities: Iterable[float]) -> float: ...
def equity(probabilities: Any) -> Any:
    """Cubeless money equity of 5-vector(s), from the same player's view, per point of stake:
    ``2 win - 1 + win_gammon - lose_gammon + win_backgammon - lose_backgammon``.

    One vector (a ``GameProbabilities``, tuple or list) gives a float; an array gives
    one equity per vector of its last axis.
    """
    if isinstance(probabilities, np.ndarray):
        p = probabilities
        return 2 * p[..., 0] - 1 + p[..., 1] - p[..., 3] + p[..., 2] - p[..., 4]
    win, win_g, win_bg, lose_g, lose_bg = (float(x) for x in probabilities)
    return 2.0 * win - 1.0 + win_g - lose_g + win_bg - lose_bg


@overload
def flipped(probabilities: np.ndarray) -> np.ndarray: ...
@overload
def flipped(probabilities: Iterable[float]) -> Vector5: ...
def flipped(probabilities: Any) -> Any:
    """The same 5-vector(s) seen by the other player: win <-> lose, gammons swapped.

    One vector gives a tuple of floats; an array gives an array of the same dtype, one
    flipped vector per vector of its last axis.
    """
    if isinstance(probabilities, np.ndarray):
        p = probabilities
        return np.stack([1 - p[..., 0], p[..., 3], p[..., 4], p[..., 1], p[..., 2]], axis=-1)
    win, win_g, win_bg, lose_g, lose_bg = (float(x) for x in probabilities)
    return (1.0 - win, lose_g, lose_bg, win_g, win_bg)


def clamped(probabilities: Iterable[float]) -> Vector5:
    """The nearest valid vector: each value into 0..1 and under its parent (win_gammon <= win,
    lose_gammon <= 1 - win, ...); for float rounding and estimates such as rollout means."""
    win, win_g, win_bg, lose_g, lose_bg = (float(x) for x in probabilities)
    win = min(max(win, 0.0), 1.0)
    win_g = min(max(win_g, 0.0), win)
    win_bg = min(max(win_bg, 0.0), win_g)
    lose_g = min(max(lose_g, 0.0), 1.0 - win)
    lose_bg = min(max(lose_bg, 0.0), lose_g)
    return (win, win_g, win_bg, lose_g, lose_bg)


def finished_probabilities(won: bool, result: int) -> GameProbabilities:
    """The 5-vector of a finished game for a player who ``won`` (or lost) it with ``result``
    (1 single, 2 gammon, 3 backgammon: ``position.GameResult``)."""
    gammon, backgammon = float(result >= 2), float(result >= 3)
    if won:
        return GameProbabilities(1.0, gammon, backgammon, 0.0, 0.0)
    return GameProbabilities(0.0, 0.0, 0.0, gammon, backgammon)


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
        for name, value in zip(FIELD_NAMES, clamped(values), strict=True):
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

    @classmethod
    def from_estimate(cls, values: Iterable[float]) -> GameProbabilities:
        """The nearest valid vector to an estimate (rollout means, float32 network output)
        that rounding or sampling may have put slightly out of order (see ``clamped``)."""
        values = clamped(values)
        if any(math.isnan(value) for value in values):
            raise InvalidProbabilitiesError(f"probabilities must be numbers, got {values!r}")
        return cls._trusted(values)

    @classmethod
    def _trusted(cls, values: Vector5) -> GameProbabilities:
        """Wrap five floats already ``clamped`` and not NaN (the core's fast path clamps in
        C exactly as ``from_estimate`` does); no checks."""
        estimate = object.__new__(cls)  # valid by construction: no second check
        win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = values
        estimate.__dict__.update(win=win, win_gammon=win_gammon, win_backgammon=win_backgammon,
                                 lose_gammon=lose_gammon, lose_backgammon=lose_backgammon)
        return estimate

    def __iter__(self) -> Iterator[float]:
        return iter(self.as_tuple())

    def __len__(self) -> int:
        return len(FIELD_NAMES)

    def __getitem__(self, index: int) -> float:
        """The values in GNU Backgammon's order: ``p[0]`` is ``win``, ``p[4]`` ``lose_backgammon``."""
        return self.as_tuple()[index]

    def as_tuple(self) -> Vector5:
        return (self.win, self.win_gammon, self.win_backgammon, self.lose_gammon, self.lose_backgammon)

    def as_dict(self) -> dict[str, float]:
        """``{"win": ..., "win_gammon": ..., ...}``."""
        return dict(zip(FIELD_NAMES, self.as_tuple(), strict=True))

    @property
    def lose(self) -> float:
        return 1.0 - self.win

    @property
    def equity(self) -> float:
        """Cubeless money equity of the player on roll, per point of stake (see ``equity``)."""
        return equity(self.as_tuple())

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
        return GameProbabilities(*flipped(self.as_tuple()))


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

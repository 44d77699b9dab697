"""Cube decisions: No double, Double/Take, Double/Pass, the proper action, errors, take point.

``cube_decision`` answers for the player on roll, from cubeless probabilities (given, or
from an evaluator at 0..3 plies), in money play (Janowski's model, ``janowski``) or in a
match (interpolation in match winning chances over a match equity table, ``match_cube``);
or from cubeful rollouts of No double and Double/Take (``cube_rollout``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bgengine.cube.bearoff_exact import exact_money_doubling_functions
from bgengine.cube.efficiency import CubeEfficiency, efficiency_for
from bgengine.match_state import CubeOwner
from bgengine.cube.doubling import DoublingFunctions
from bgengine.errors import InvalidMatchStateError, InvalidCubeSettingsError, InvalidPositionError, MissingEvaluatorError
from bgengine.cube.janowski import money_doubling_functions
from bgengine.cube.match_model import MatchCubeModel
from bgengine.cube.match_equity import MatchScore, emg_reference
from bgengine.match_state import MatchState
from bgengine.cube.met import MatchEquityTable, default_met
from bgengine.position import Phase, Position, checked_position
from bgengine.probabilities import EquityUnit, GameProbabilities

if TYPE_CHECKING:
    from bgengine.evaluation.evaluator import Evaluator

#: Deepest lookahead for the cubeless probabilities (as ``bgengine.evaluate``).
MAX_PLIES = 3


class CubeAction(enum.Enum):
    """The proper cube action, named as players name it: doubler's action / taker's."""

    NO_DOUBLE_TAKE = "No double / take"
    DOUBLE_TAKE = "Double / take"
    DOUBLE_PASS = "Double / pass"
    TOO_GOOD_PASS = "Too good to double / pass"
    TOO_GOOD_TAKE = "Too good to double / take"
    NO_DOUBLE_BEAVER = "No double / beaver"
    DOUBLE_BEAVER = "Double / beaver"
    NO_REDOUBLE_TAKE = "No redouble / take"
    REDOUBLE_TAKE = "Redouble / take"
    REDOUBLE_PASS = "Redouble / pass"
    TOO_GOOD_REDOUBLE_PASS = "Too good to redouble / pass"
    TOO_GOOD_REDOUBLE_TAKE = "Too good to redouble / take"
    NO_REDOUBLE_BEAVER = "No redouble / beaver"
    REDOUBLE_BEAVER = "Redouble / beaver"
    NO_CUBE_ACTION = "No cube action"

    def __str__(self) -> str:
        return self.value

    @property
    def doubles(self) -> bool:
        """Is turning the cube the doubler's right choice?"""
        return self.value.startswith(("Double", "Redouble"))

    @property
    def abbreviation(self) -> str:
        """Short form for tables: "ND/T", "D/P", "TG/P", "R/T", ...; "-" for no cube action."""
        if self is CubeAction.NO_CUBE_ACTION:
            return "-"
        doubler, response = self.value.split(" / ")
        short = {"No double": "ND", "Double": "D", "Too good to double": "TG", "No redouble": "NR",
                 "Redouble": "R", "Too good to redouble": "TG"}[doubler]
        return f"{short}/{response[0].upper()}"

    @property
    def response(self) -> str | None:
        """The taker's right response if doubled: "take", "pass", "beaver" (None: no cube action)."""
        return self.value.split(" / ")[1] if " / " in self.value else None


@dataclass(frozen=True)
class CubeErrors:
    """What each choice costs against the best one, in the decision's unit (0 for the right choice).

    The doubler's errors assume a correct response; the taker's are measured from the
    doubler's equity (how much a wrong response gives away).
    """

    doubler_no_double: float
    doubler_double: float
    taker_take: float
    taker_pass: float
    taker_beaver: float | None = None


@dataclass(frozen=True)
class CubeDecision:
    """A cube decision of the player on roll; every equity is the doubler's, in ``unit``.

    ``take_point`` is the least winning chance (the taker's own) for which taking beats
    passing; ``cash_point`` is the doubler's winning chance where the taker's take and
    pass are equal (1 - take point), both with the gammon shares of ``probabilities``.
    Equities of doubling, the points and the errors are None when the player may not
    double (``note`` says why); the points are None too when the equities are exact
    table values (money play in the two-sided bear-off table), which no model inverts, and
    for rollouts. ``plies`` is the depth of the probabilities; a rollout decision also
    carries ``*_standard_error`` (standard errors of its rolled-out equities, same unit, and of
    Double/Take minus No double, whose lines share their dice trial by trial), ``trials``
    per line and ``rollout_settings`` (with the seed used); all None otherwise.
    """

    no_double: float
    double_take: float | None
    double_pass: float | None
    double_beaver: float | None
    action: CubeAction
    take_point: float | None
    cash_point: float | None
    errors: CubeErrors | None
    probabilities: GameProbabilities
    unit: EquityUnit
    cube_efficiency: float
    match: MatchState
    note: str = ""
    emg_reference: tuple[float, float] | None = None  # MWC after winning, losing the cube
    plies: int = 0  # depth of the cubeless probabilities (0 for rollouts and given ones)
    no_double_standard_error: float | None = None  # of rolled-out equities (None: not rolled out)
    double_take_standard_error: float | None = None
    double_beaver_standard_error: float | None = None
    # of Double/Take minus No double, the two lines paired (the same dice trial by trial)
    double_take_minus_no_double_standard_error: float | None = None
    trials: int | None = None  # rollout trials of each line (None: no rollout)
    rollout_settings: Any = None  # the RolloutSettings used, with the seed actually drawn
    cube_efficiency_class: str = ""  # where cube_efficiency comes from: "contact", "last roll", "given", ...
    cube_efficiency_doubled: float | None = None  # x of the doubled cube the opponent owns (Double/Take's)
    cubeful_search: bool = False  # the equities come from a cubeful n-ply search (plies > 0)

    def to_emg(self) -> CubeDecision:
        """The same decision with match winning chances rescaled to normalised money equity."""
        if self.unit is EquityUnit.EMG:
            return self
        if self.unit is not EquityUnit.MWC or self.emg_reference is None:
            raise InvalidCubeSettingsError("only match decisions (in MWC) convert to EMG")
        win, lose = self.emg_reference
        scale = 2.0 / (win - lose)

        def emg(mwc: float) -> float:
            return scale * (mwc - lose) - 1.0

        def maybe_emg(mwc: float | None) -> float | None:
            return None if mwc is None else emg(mwc)

        def maybe_scaled(error: float | None) -> float | None:
            return None if error is None else error * scale

        errors = self.errors
        if errors is not None:
            errors = CubeErrors(
                errors.doubler_no_double * scale,
                errors.doubler_double * scale,
                errors.taker_take * scale,
                errors.taker_pass * scale,
                maybe_scaled(errors.taker_beaver),
            )
        return replace(
            self,
            no_double=emg(self.no_double),
            double_take=maybe_emg(self.double_take),
            double_pass=maybe_emg(self.double_pass),
            double_beaver=maybe_emg(self.double_beaver),
            errors=errors,
            unit=EquityUnit.EMG,
            no_double_standard_error=maybe_scaled(self.no_double_standard_error),
            double_take_standard_error=maybe_scaled(self.double_take_standard_error),
            double_beaver_standard_error=maybe_scaled(self.double_beaver_standard_error),
            double_take_minus_no_double_standard_error=maybe_scaled(self.double_take_minus_no_double_standard_error),
        )

    @property
    def source(self) -> str:
        """Where the equities come from, in words (model, depth, or rollout with 95% intervals)."""
        if self.trials is not None:
            return f"cubeful rollout, {self.trials} trials per line (± is 95%)"
        efficiency = f"cube efficiency {self.cube_efficiency:.3f}"
        if self.cube_efficiency_doubled is not None and self.cube_efficiency_doubled != self.cube_efficiency:
            efficiency += f", {self.cube_efficiency_doubled:.3f} once doubled"
        if self.cube_efficiency_class:
            efficiency += f" ({self.cube_efficiency_class})"
        if self.cubeful_search:
            return f"{self.plies}-ply cubeful search (a cube decision at every node; at the root {efficiency})"
        return f"{self.plies}-ply cubeless probabilities, {efficiency}"

    def __str__(self) -> str:
        lines = [f"Proper cube action: {self.action}" + (f" ({self.note})" if self.note else "")]
        best = self.no_double if self.errors is None else self.no_double + self.errors.doubler_no_double
        for label, value, error in (
            ("No double", self.no_double, self.no_double_standard_error),
            ("Double/Take", self.double_take, self.double_take_standard_error),
            ("Double/Pass", self.double_pass, None),
            ("Double/Beaver", self.double_beaver, self.double_beaver_standard_error),
        ):
            if value is not None:
                spread = "" if error is None else f" ± {1.96 * error:.4f}"
                lines.append(f"  {label:<14}{value:+.4f} ({value - best:+.4f}){spread}")
        paired = self.double_take_minus_no_double_standard_error
        if paired is not None and self.double_take is not None:
            lines.append(f"  Double/Take - No double {self.double_take - self.no_double:+.4f} ± {1.96 * paired:.4f}"
                         " (the lines paired)")
        if self.take_point is not None:
            lines.append(f"  Take point {self.take_point:.1%}, cash point {self.cash_point:.1%}")
        lines.append(f"  Unit: {self.unit.value}; {self.source}")
        return "\n".join(lines)


def cube_decision(
    position: Position | None = None,
    match: MatchState | None = None,
    *,
    plies: int = 0,
    evaluator: Evaluator | None = None,
    probabilities: Any = None,
    rollout: Any = None,
    met: MatchEquityTable | None = None,
    cube_efficiency: float | None = None,
    cubeful: bool = True,
    exact_bearoff_efficiency: bool = True,
) -> CubeDecision:
    """The cube decision of the player on roll of ``position`` at ``match`` (money by default).

    Probabilities come from ``probabilities`` (the 5-vector, player on roll's view) or from
    ``bgengine.evaluate(position, plies, evaluator=...)``. With ``plies`` 1..3 the equities
    come from a cubeful search (``bgengine.cube.cubeful``: every node makes its cube
    decision, the cube's value and owner carried down, the model at the leaves);
    ``cubeful=False`` puts the n-ply cubeless probabilities through the model instead
    (much faster, less accurate). Without an evaluator, the engine's default one (races
    outside the two-sided table by the race network). In money play a position
    in the two-sided bear-off table gets exact cubeful equities (unless probabilities are
    given, or beavers are on). ``rollout=RolloutSettings(...)`` rolls out No double and
    Double/Take cubeful instead (see ``cube_rollout``). Match decisions are in MWC
    (``.to_emg()`` rescales), money decisions per current cube. A short bear-off in the
    two-sided table takes its cube efficiencies from the table's exact values
    (``exact_bearoff_efficiency=False``: the bear-off class's, as the rollout referee in C).
    """
    match = match if match is not None else MatchState()
    if not isinstance(match, MatchState):
        raise InvalidCubeSettingsError(f"match must be a MatchState, got {type(match).__name__}")
    if match.dice is not None:
        raise InvalidMatchStateError(
            f"the cube is turned before rolling, but dice {match.dice[0]}{match.dice[1]} are already rolled"
        )
    if position is not None:
        checked_position(position)
    if position is not None and position.phase is Phase.OVER:
        raise InvalidPositionError("the game is over: there is no cube decision")
    plies = _checked_plies(plies, probabilities, rollout)
    if rollout is not None:
        from bgengine.cube.by_rollout import rollout_decision

        if position is None:
            raise InvalidCubeSettingsError("a rollout needs a position")
        return rollout_decision(position, match, rollout, evaluator, met, cube_efficiency)
    chances = _probabilities(position, evaluator, probabilities, plies)
    efficiency = efficiency_for(position, cube_efficiency, match, exact=exact_bearoff_efficiency)
    if match.is_money:
        owner = match.relative_cube_owner()
        exact = None
        if position is not None and probabilities is None:
            exact = exact_money_doubling_functions(position, match, owner)
        if exact is None and plies and cubeful and position is not None:
            return _searched(position, match, plies, evaluator, met, cube_efficiency, chances, efficiency)
        functions = exact or money_doubling_functions(chances, match, owner, efficiency.states)
        return replace(_decision(functions, chances, match, efficiency, EquityUnit.MONEY, None), plies=plies)
    if plies and cubeful and position is not None:
        return _searched(position, match, plies, evaluator, met, cube_efficiency, chances, efficiency)
    table = met or default_met()
    score = MatchScore.from_match_state(match)
    model = MatchCubeModel(chances, score, table, efficiency.states)
    functions = model.doubling_functions(match.why_no_double())
    decision = _decision(functions, chances, match, efficiency, EquityUnit.MWC, emg_reference(table, score))
    return replace(decision, plies=plies)


def _searched(
    position: Position,
    match: MatchState,
    plies: int,
    evaluator: Any,
    met: MatchEquityTable | None,
    given_efficiency: float | None,
    chances: GameProbabilities,
    efficiency: CubeEfficiency,
) -> CubeDecision:
    """The decision from a cubeful ``plies``-ply search; ``chances`` (n-ply cubeless) are reported."""
    from bgengine.cube.cubeful import CubefulSearch
    from bgengine.evaluation.evaluator import default_evaluator

    search = CubefulSearch(evaluator or default_evaluator(), met, given_efficiency)
    no_double, take, drop = search.equities(position, match, plies)
    emg_ref = None
    if not match.is_money:
        emg_ref = emg_reference(met or default_met(), MatchScore.from_match_state(match))
    reason = match.why_no_double()
    dead = not match.is_money and match.cube_value >= match.away(match.on_roll)
    note = reason or ("dead cube: the doubler cannot gain" if dead else "")
    return decision_from_equities(
        no_double, take, drop, 2.0 * take if take is not None and match.may_beaver() else None,
        probabilities=chances, unit=EquityUnit.MONEY if match.is_money else EquityUnit.MWC,
        **efficiency_fields(efficiency), match=match,
        note=note, emg_reference=emg_ref, plies=plies, cubeful_search=True,
    )


def _checked_plies(plies: Any, probabilities: Any, rollout: Any) -> int:
    """``plies`` as an int 0..3, or a typed error (also for combinations that make no sense)."""
    if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= MAX_PLIES:
        raise InvalidCubeSettingsError(f"plies must be a whole number 0..{MAX_PLIES}, got {plies!r}")
    if plies and probabilities is not None:
        raise InvalidCubeSettingsError("plies evaluate the position: give plies or probabilities, not both")
    if rollout is not None and (plies or probabilities is not None):
        raise InvalidCubeSettingsError(
            "a rollout replaces the evaluation: give rollout=... without plies or probabilities"
        )
    return plies


def _probabilities(position: Position | None, evaluator: Any, probabilities: Any, plies: int) -> GameProbabilities:
    if probabilities is not None and evaluator is not None:
        raise InvalidCubeSettingsError("give probabilities or an evaluator, not both")
    if probabilities is not None:
        return GameProbabilities.from_vector(probabilities)
    if position is None:
        raise MissingEvaluatorError("give a position (with an evaluator or not), or probabilities")
    if plies == 0 and evaluator is not None:
        return GameProbabilities.from_vector(evaluator.evaluate(position))
    if evaluator is not None and not hasattr(evaluator, "evaluate_batch"):
        raise InvalidCubeSettingsError(
            f"{plies}-ply lookahead needs an evaluator with evaluate_batch (bgengine.evaluation.evaluator.Evaluator),"
            f" got {type(evaluator).__name__}"
        )
    from bgengine.evaluation.evaluator import evaluate

    return evaluate(position, plies=plies, evaluator=evaluator).probabilities


def _decision(
    functions: DoublingFunctions,
    chances: GameProbabilities,
    match: MatchState,
    efficiency: CubeEfficiency,
    unit: EquityUnit,
    emg_ref: tuple[float, float] | None,
) -> CubeDecision:
    p = chances.win
    common: dict[str, Any] = dict(
        probabilities=chances, unit=unit, **efficiency_fields(efficiency), match=match,
        note=functions.note, emg_reference=emg_ref,
    )
    if functions.double_take is None or functions.double_pass is None:
        return decision_from_equities(functions.no_double(p), None, None, None, **common)
    beaver = functions.double_beaver(p) if functions.double_beaver is not None else None
    decision = decision_from_equities(
        functions.no_double(p), functions.double_take(p), functions.double_pass, beaver, **common
    )
    if functions.exact:
        return decision
    cash_point = functions.double_take.solve(functions.double_pass)
    return replace(decision, take_point=1.0 - cash_point, cash_point=cash_point)


def efficiency_fields(efficiency: CubeEfficiency) -> dict[str, Any]:
    """The ``CubeDecision`` fields that report the cube efficiency used."""
    return {"cube_efficiency": efficiency.value, "cube_efficiency_class": efficiency.position_class,
            "cube_efficiency_doubled": efficiency.states.opponent_owns}


def decision_from_equities(
    no_double: float, take: float | None, drop: float | None, beaver: float | None, **fields: Any
) -> CubeDecision:
    """The decision (action, errors) from the doubler's equities; ``take``/``drop`` None: no double allowed.

    ``fields`` are the remaining ``CubeDecision`` fields (``match`` among them); the take
    and cash points are left None.
    """
    if take is None or drop is None:
        return CubeDecision(no_double, None, None, None, CubeAction.NO_CUBE_ACTION, None, None, None, **fields)
    response = min(v for v in (take, drop, beaver) if v is not None)
    best = max(no_double, response)
    errors = CubeErrors(
        doubler_no_double=_cost(best - no_double),
        doubler_double=_cost(best - response),
        taker_take=_cost(take - response),
        taker_pass=_cost(drop - response),
        taker_beaver=None if beaver is None else _cost(beaver - response),
    )
    redouble = fields["match"].relative_cube_owner() is CubeOwner.PLAYER
    action = _action(no_double, take, drop, beaver, redouble=redouble)
    return CubeDecision(no_double, take, drop, beaver, action, None, None, errors, **fields)


#: Equities closer than this are equal: float rounding must not flip an action.
TIE = 1e-12


def _cost(difference: float) -> float:
    """An error: the equity given away, 0 when it is within rounding of nothing."""
    return difference if difference > TIE else 0.0


def _beats(a: float, b: float) -> bool:
    """a is larger than b by more than rounding."""
    return a - b > TIE


_REDOUBLE = {
    CubeAction.NO_DOUBLE_TAKE: CubeAction.NO_REDOUBLE_TAKE,
    CubeAction.DOUBLE_TAKE: CubeAction.REDOUBLE_TAKE,
    CubeAction.DOUBLE_PASS: CubeAction.REDOUBLE_PASS,
    CubeAction.TOO_GOOD_PASS: CubeAction.TOO_GOOD_REDOUBLE_PASS,
    CubeAction.TOO_GOOD_TAKE: CubeAction.TOO_GOOD_REDOUBLE_TAKE,
    CubeAction.NO_DOUBLE_BEAVER: CubeAction.NO_REDOUBLE_BEAVER,
    CubeAction.DOUBLE_BEAVER: CubeAction.REDOUBLE_BEAVER,
}


def _action(no_double: float, take: float, drop: float, beaver: float | None, *, redouble: bool) -> CubeAction:
    """Name the proper action from the doubler's equities.

    Ties: a cash worth as much as playing on is a double (nothing is lost by cashing);
    a take worth as much as not doubling is no double (the cube stays); take beats pass.
    """
    if beaver is not None and _beats(min(take, drop), beaver):
        action = CubeAction.DOUBLE_BEAVER if _beats(beaver, no_double) else CubeAction.NO_DOUBLE_BEAVER
    elif _beats(take, drop):  # the taker passes
        action = CubeAction.TOO_GOOD_PASS if _beats(no_double, drop) else CubeAction.DOUBLE_PASS
    elif _beats(take, no_double):
        action = CubeAction.DOUBLE_TAKE
    else:
        action = CubeAction.TOO_GOOD_TAKE if _beats(no_double, drop) else CubeAction.NO_DOUBLE_TAKE
    return _REDOUBLE[action] if redouble else action

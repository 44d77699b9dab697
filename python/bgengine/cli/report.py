"""The analysis report of one position: board facts, IDs, and whatever this build can add.

``analyze(position, match, dice=...)`` gathers what the engine knows about a position:
pip counts and IDs always; the legal moves when move generation is there; evaluation,
move ranking and cube advice as those capabilities land. What the build cannot do yet
is listed in ``Analysis.unavailable`` and asking for it raises ``FeatureUnavailableError``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bgengine.errors import BgEngineError
from bgengine.evaluation.evaluator import Evaluation
from bgengine.formats.gnubg_id import encode_match_id
from bgengine.match_state import OWNER_NAMES, MatchState
from bgengine.position import Position
from bgengine.probabilities import FIELD_NAMES, GameProbabilities, finished_probabilities, flipped

#: What ``Analysis.unavailable`` may list.
MOVES, EVALUATION, CUBE, ROLLOUT = "legal_moves", "evaluation", "cube", "rollout"

#: A position evaluator: Position -> 5-vector from that position's player on roll.
Evaluate = Callable[[Position], Sequence[float]]


class FeatureUnavailableError(BgEngineError):
    """Asked for a capability this build of bgengine does not have yet."""


@dataclass(frozen=True)
class MoveChoice:
    """One legal play: its notation, the position it leaves (seen from the opponent, who
    is then on roll) and, when an evaluator exists, its value for the player who moves."""

    move: str
    result: Position
    probabilities: GameProbabilities | None = None  # after the move, the mover's view
    plies: int | None = None  # how deep this play was searched, when the evaluator says

    @property
    def equity(self) -> float | None:
        """Cubeless, the mover's view (None when unranked)."""
        return None if self.probabilities is None else self.probabilities.equity


@dataclass(frozen=True)
class Analysis:
    """Everything the engine can say about one position with its match state (and dice)."""

    position: Position
    match: MatchState
    dice: tuple[int, int] | None = None
    evaluation: Evaluation | None = None
    moves: tuple[MoveChoice, ...] | None = None
    moves_ranked_by: str | None = None
    unavailable: tuple[str, ...] = field(default=())
    cube: Any | None = None  # a bgengine.cube.decision.CubeDecision for the player on roll, before the roll

    def _repr_svg_(self) -> str:
        """The board with the dice and cube, so an analysis shows as a picture in Jupyter."""
        from bgengine.formats.svg import board

        return board(self.position, match=self.match, dice=self.dice)


def mover_view(child_probabilities: Sequence[float]) -> GameProbabilities:
    """A child's 5-vector (the opponent's view, on roll next) turned to the view of the mover."""
    return _five(flipped(child_probabilities))


# ----- capabilities: each returns None (or raises) while its branch has not landed -----


_MODULES = {
    "cube": "bgengine.cube.decision",
    "evaluate": "bgengine.evaluation.evaluator",
    "race": "bgengine.evaluation.race",
    "rollout": "bgengine.rollouts.monte_carlo",
    "train": "bgengine.evaluation.training.td",
}


def _optional_module(name: str) -> Any | None:
    try:
        return importlib.import_module(_MODULES[name])
    except ModuleNotFoundError as error:
        if error.name != _MODULES[name]:
            raise
        return None


def has_move_generation() -> bool:
    """Whether this build can list legal moves (``Position.legal_moves``)."""
    return hasattr(Position, "legal_moves")


def legal_plays(position: Position, dice: tuple[int, int]) -> list[tuple[str, Position]]:
    """(notation, resulting position) for every distinct legal play; needs move generation."""
    if not has_move_generation():
        raise FeatureUnavailableError("legal moves need move generation, which is not available yet in this build")
    return [(str(legal.move), legal.position) for legal in position.legal_moves(dice)]


def position_evaluator(position: Position, plies: int | None) -> tuple[Evaluate, str] | None:
    """The best evaluator this build has for ``position`` and its name, or None.

    A general evaluator (``bgengine.evaluate``) when it exists; else the race evaluator
    for non-contact positions at 0 plies.
    """
    evaluate_module = _optional_module("evaluate")
    if evaluate_module is not None and hasattr(evaluate_module, "evaluate"):
        depth = plies or 0

        def evaluate(p: Position) -> Sequence[float]:
            result = evaluate_module.evaluate(p, plies=depth)
            return getattr(result, "probabilities", result)  # an Evaluation, or a bare 5-vector

        return evaluate, f"{depth}-ply"
    if plies:
        raise FeatureUnavailableError(
            "evaluation at more than 0 plies needs the neural-network evaluator,"
            " which is not available yet in this build"
        )
    race = _optional_module("race")
    if race is not None and position.phase.value in ("race", "bearoff"):
        return race.evaluate, "race"
    return None


# ----- the report -----------------------------------------------------------------------


def analyze(
    position: Position,
    match: MatchState | None = None,
    *,
    dice: tuple[int, int] | None = None,
    plies: int | None = None,
) -> Analysis:
    """Analyse ``position`` (player on roll's view) with ``match`` and optional ``dice``.

    ``dice`` default to the match's dice. Raises ``FeatureUnavailableError`` for ``plies``
    that this build cannot honour. (Rollouts: ``bgengine.cli.rollout_report``.)
    """
    match = match if match is not None else MatchState()
    dice = dice if dice is not None else match.dice
    unavailable = []
    evaluator = position_evaluator(position, plies) if not position.is_game_over() else None
    evaluation = None
    if evaluator is not None:
        evaluate, source = evaluator
        evaluation = Evaluation(_five(evaluate(position)), plies or 0, source)
    elif not position.is_game_over():
        unavailable.append(EVALUATION)
    cube = None
    if not position.is_game_over():
        # The cube is turned before the roll: with dice, this is the advice for the position
        # before they were thrown (what a player reviewing the turn asks first).
        before_roll = match.with_changes(dice=None) if match.dice is not None else match
        cube = _cube_advice(position, before_roll, evaluation)
        if cube is None:
            unavailable.append(CUBE)
    moves = None
    ranked_by = None
    if dice is not None and not position.is_game_over():
        if has_move_generation():
            moves, ranked_by = ranked_moves(position, dice, plies)
        else:
            unavailable.append(MOVES)
    if _optional_module("rollout") is None:
        unavailable.append(ROLLOUT)
    return Analysis(position, match, dice, evaluation, moves, ranked_by, tuple(unavailable), cube)


def cube_advice(
    position: Position,
    match: MatchState,
    probabilities: Sequence[float] | None = None,
    *,
    plies: int | None = None,
    rollout: Any = None,
) -> tuple[Evaluation, Any]:
    """(the evaluation used, the cube decision) of the player on roll before rolling.

    ``probabilities`` (the player on roll's 5-vector) replace the evaluator; ``plies`` are
    the depth of the cubeless probabilities put through the cube model; ``rollout`` (a
    ``RolloutSettings``) rolls out No double and Double/Take instead. Raises
    ``FeatureUnavailableError`` without the cube module or any way to evaluate.
    """
    if position.is_game_over():
        raise FeatureUnavailableError("the game is over: there is no cube decision")
    cube_module = _optional_module("cube")
    if probabilities is None and cube_module is not None and _optional_module("evaluate") is not None:
        decision = cube_module.cube_decision(position, match, plies=plies or 0, rollout=rollout)
        source = "rollout" if rollout is not None else f"{plies or 0}-ply"
        return Evaluation(decision.probabilities, decision.plies, source), decision
    if probabilities is not None:
        evaluation = Evaluation(GameProbabilities.from_vector(probabilities), source="given")
    else:
        evaluator = position_evaluator(position, plies)
        if evaluator is None:
            raise FeatureUnavailableError(
                f"cube advice needs an evaluation of this {position.phase.value} position, which this build"
                " cannot give yet; give the probabilities instead (bgengine cube --probabilities W,WG,WBG,LG,LBG)"
            )
        evaluate, source = evaluator
        evaluation = Evaluation(_five(evaluate(position)), plies or 0, source)
    decision = _cube_advice(position, match, evaluation)
    if decision is None:
        raise FeatureUnavailableError("cube advice needs the cube module, which is not available yet in this build")
    return evaluation, decision


def _cube_advice(position: Position, match: MatchState, evaluation: Evaluation | None) -> Any | None:
    """The cube decision of the player on roll from ``evaluation``; None without the cube
    module or an evaluation (cube advice needs both)."""
    cube_module = _optional_module("cube")
    if cube_module is None or evaluation is None:
        return None
    return cube_module.cube_decision(position, match, probabilities=evaluation.probabilities)


def _five(values: Sequence[float] | np.ndarray) -> GameProbabilities:
    """Five probabilities (a list, tuple or array) as the one probabilities type."""
    return GameProbabilities.from_estimate(values)


def ranked_moves(
    position: Position, dice: tuple[int, int], plies: int | None = None
) -> tuple[tuple[MoveChoice, ...], str | None]:
    """Every legal play of ``dice``, best first by the best evaluator this build has.

    The engine's own ranking (``bgengine.evaluation.evaluator.rank_moves``: all plays at 0-ply, the
    best candidates searched to ``plies``) when it exists; else each play's position
    scored by ``position_evaluator`` (races); else the plays unranked, as generated.
    """
    evaluate_module = _optional_module("evaluate")
    if evaluate_module is not None and hasattr(evaluate_module, "rank_moves"):
        depth = plies or 0
        ranked = evaluate_module.rank_moves(position, dice, plies=depth)
        choices = tuple(
            MoveChoice(str(r.move), r.position, r.probabilities, int(r.plies))
            for r in ranked
        )
        return choices, f"{depth}-ply"
    return rank_plays(legal_plays(position, dice), position_evaluator(position, plies))


def rank_plays(
    plays: list[tuple[str, Position]], evaluator: tuple[Evaluate, str] | None
) -> tuple[tuple[MoveChoice, ...], str | None]:
    """Plays best first by cubeless equity when an evaluator exists, else as generated."""
    if evaluator is None:
        return tuple(MoveChoice(move, child) for move, child in plays), None
    evaluate, source = evaluator
    choices = []
    for move, child in plays:
        probabilities = _child_probabilities(child, evaluate)
        choices.append(MoveChoice(move, child, probabilities))
    choices.sort(key=lambda choice: -(choice.equity or 0.0))
    return tuple(choices), source


def _child_probabilities(child: Position, evaluate: Evaluate) -> GameProbabilities:
    """The mover's 5-vector after a play; a play that ends the game is scored exactly."""
    finished = child.winner_and_result()
    if finished is None:
        return mover_view(evaluate(child))
    winner, result = finished  # winner 1 = the mover (the child is seen from the opponent)
    return finished_probabilities(winner == 1, result)


# ----- JSON-ready dictionaries (the schema is documented in docs/cli.md) -----------------


def position_dict(position: Position, match: MatchState) -> dict[str, Any]:
    """The ``position`` object of the CLI's JSON output."""
    on_roll_pips, opponent_pips = position.pip_counts()
    on_roll_off, opponent_off = position.checkers_off()
    position_id = position.gnubg_id()
    match_id = encode_match_id(match)
    return {
        "xgid": position.xgid(match),
        "gnubg_id": f"{position_id}:{match_id}",
        "position_id": position_id,
        "match_id": match_id,
        "board": [position[slot] for slot in range(26)],
        "phase": position.phase.value,
        "pips": {"on_roll": on_roll_pips, "opponent": opponent_pips},
        "checkers_off": {"on_roll": on_roll_off, "opponent": opponent_off},
        "on_bar": {"on_roll": position[25], "opponent": -position[0]},
    }


def match_dict(match: MatchState) -> dict[str, Any]:
    """The ``match`` object of the CLI's JSON output, from the player on roll's side."""
    opponent = 1 - match.on_roll
    owner = OWNER_NAMES[match.relative_cube_owner()]
    return {
        "length": match.match_length,
        "score": {"on_roll": match.score[match.on_roll], "opponent": match.score[opponent]},
        "away": (
            {"on_roll": match.away(match.on_roll), "opponent": match.away(opponent)} if match.match_length else None
        ),
        "on_roll_player": match.on_roll,
        "cube": {"value": match.cube_value, "owner": owner},
        "crawford": match.crawford,
        "jacoby": match.jacoby,
        "beavers": match.beavers,
        "double_offered": match.double_offered,
    }


def probabilities_dict(probabilities: Iterable[float]) -> dict[str, float]:
    return {name: round(float(p), 6) for name, p in zip(FIELD_NAMES, probabilities)}


def moves_dict(moves: Sequence[MoveChoice], ranked_by: str | None) -> dict[str, Any]:
    """The ``moves`` object: every legal play, best first when ranked."""
    best = moves[0].equity if moves and ranked_by else None
    entries = []
    for index, choice in enumerate(moves, start=1):
        entries.append(
            {
                "rank": index if ranked_by else None,
                "move": choice.move,
                "position_id": choice.result.gnubg_id(),
                "equity": None if choice.equity is None else round(choice.equity, 6),
                "difference": None if choice.equity is None or best is None else round(choice.equity - best, 6),
                "probabilities": None if choice.probabilities is None else probabilities_dict(choice.probabilities),
                "plies": choice.plies,
            }
        )
    return {"count": len(moves), "ranked_by": ranked_by, "moves": entries}


def evaluation_dict(evaluation: Evaluation | None) -> dict[str, Any] | None:
    """The ``evaluation`` object: where the numbers come from, the 5-vector and its equity."""
    if evaluation is None:
        return None
    return {
        "source": evaluation.source,
        "probabilities": probabilities_dict(evaluation.probabilities),
        "cubeless_equity": round(evaluation.equity, 6),
    }


def analysis_dict(analysis: Analysis) -> dict[str, Any]:
    """The body of ``bgengine analyze --json`` (without the schema/command header)."""
    evaluation = evaluation_dict(analysis.evaluation)
    return {
        "position": position_dict(analysis.position, analysis.match),
        "match": match_dict(analysis.match),
        "dice": list(analysis.dice) if analysis.dice else None,
        "game_over": _game_over_dict(analysis.position),
        "evaluation": evaluation,
        "cube": None if analysis.cube is None else cube_dict(analysis.cube),
        "moves": None if analysis.moves is None else moves_dict(analysis.moves, analysis.moves_ranked_by),
        "unavailable": list(analysis.unavailable),
    }


def cube_dict(decision: Any) -> dict[str, Any]:
    """The ``cube`` object: a ``bgengine.cube.decision.CubeDecision`` in plain numbers (the doubler's view)."""
    errors = decision.errors
    unit = {"MONEY": "money", "MWC": "mwc", "EMG": "emg"}[decision.unit.name]
    result: dict[str, Any] = {
        "action": str(decision.action),
        "abbreviation": decision.action.abbreviation,
        "unit": unit,
        "no_double": _rounded(decision.no_double),
        "double_take": _rounded(decision.double_take),
        "double_pass": _rounded(decision.double_pass),
        "double_beaver": _rounded(decision.double_beaver),
        "take_point": _rounded(decision.take_point),
        "cash_point": _rounded(decision.cash_point),
        "cube_efficiency": _rounded(decision.cube_efficiency),
        "errors": None if errors is None else {
            "doubler_no_double": _rounded(errors.doubler_no_double),
            "doubler_double": _rounded(errors.doubler_double),
            "taker_take": _rounded(errors.taker_take),
            "taker_pass": _rounded(errors.taker_pass),
            "taker_beaver": _rounded(errors.taker_beaver),
        },
        "note": decision.note,
        "emg": None,
        "plies": None if decision.trials is not None else decision.plies,
        "trials": decision.trials,
        "seed": None if decision.rollout_settings is None else decision.rollout_settings.seed,
        **{key: _rounded(getattr(decision, name)) for key, name in STANDARD_ERRORS.items()},
    }
    if unit == "mwc":
        emg = decision.to_emg()
        result["emg"] = {name: _rounded(getattr(emg, name)) for name in ("no_double", "double_take", "double_pass")}
    return result


#: The standard errors of rolled-out equities in the ``cube`` object (null without a rollout):
#: the schema's keys (``bgengine.cli/1`` keeps its short names) and the decision's fields.
STANDARD_ERRORS = {
    "no_double_se": "no_double_standard_error",
    "double_take_se": "double_take_standard_error",
    "double_beaver_se": "double_beaver_standard_error",
}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(float(value), 6)


def _game_over_dict(position: Position) -> dict[str, str] | None:
    finished = position.winner_and_result()
    if finished is None:
        return None
    winner, result = finished
    return {"winner": "on_roll" if winner == 0 else "opponent", "result": result.name.lower()}

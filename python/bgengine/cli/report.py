"""The analysis report of one position: board facts, IDs, evaluation, cube advice, ranked plays.

``analyze(position, match, dice=...)`` gathers what the engine says about a position for
the command line (and its JSON): pip counts and IDs, the evaluation at the plies asked,
the cube decision before the roll and, with dice, every legal play ranked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bgengine.cube.decision import CubeDecision, cube_decision
from bgengine.evaluation.evaluator import Evaluation, evaluate, rank_moves
from bgengine.formats.gnubg_id import encode_match_id
from bgengine.match_state import OWNER_NAMES, MatchState
from bgengine.position import Position
from bgengine.probabilities import FIELD_NAMES, GameProbabilities, flipped


@dataclass(frozen=True)
class MoveChoice:
    """One legal play: its notation, the position it leaves (seen from the opponent, who
    is then on roll) and its value for the player who moves."""

    move: str
    result: Position
    probabilities: GameProbabilities | None = None  # after the move, the mover's view
    plies: int | None = None  # how deep this play was searched

    @property
    def equity(self) -> float | None:
        """Cubeless, the mover's view (None when unranked)."""
        return None if self.probabilities is None else self.probabilities.equity


@dataclass(frozen=True)
class Analysis:
    """Everything the engine says about one position with its match state (and dice)."""

    position: Position
    match: MatchState
    dice: tuple[int, int] | None = None
    evaluation: Evaluation | None = None  # None once the game is over
    moves: tuple[MoveChoice, ...] | None = None  # with dice, every legal play best first
    moves_ranked_by: str | None = None
    cube: CubeDecision | None = None  # the player on roll's, before the roll

    def _repr_svg_(self) -> str:
        """The board with the dice and cube, so an analysis shows as a picture in Jupyter."""
        from bgengine.formats.svg import board

        return board(self.position, match=self.match, dice=self.dice)


def mover_view(child_probabilities: Iterable[float]) -> GameProbabilities:
    """A child's 5-vector (the opponent's view, on roll next) turned to the view of the mover."""
    return GameProbabilities.from_estimate(flipped(child_probabilities))


def analyze(
    position: Position,
    match: MatchState | None = None,
    *,
    dice: tuple[int, int] | None = None,
    plies: int | None = None,
) -> Analysis:
    """Analyse ``position`` (player on roll's view) with ``match`` and optional ``dice``.

    ``dice`` default to the match's dice; ``plies`` is the depth of the evaluation and of
    the best plays' search. (Rollouts: ``bgengine.cli.rollout_report``.)
    """
    match = match if match is not None else MatchState()
    dice = dice if dice is not None else match.dice
    if position.is_game_over():
        return Analysis(position, match, dice)
    depth = plies or 0
    evaluation = Evaluation(GameProbabilities.from_estimate(evaluate(position, plies=depth).probabilities), depth)
    # The cube is turned before the roll: with dice, this is the advice for the position
    # before they were thrown (what a player reviewing the turn asks first).
    before_roll = match.with_changes(dice=None) if match.dice is not None else match
    cube = cube_decision(position, before_roll, probabilities=evaluation.probabilities)
    moves = ranked_by = None
    if dice is not None:
        moves, ranked_by = ranked_moves(position, dice, plies)
    return Analysis(position, match, dice, evaluation, moves, ranked_by, cube)


def cube_advice(
    position: Position,
    match: MatchState,
    probabilities: Sequence[float] | None = None,
    *,
    plies: int | None = None,
    rollout: Any = None,
) -> tuple[Evaluation, CubeDecision]:
    """(the evaluation used, the cube decision) of the player on roll before rolling.

    ``probabilities`` (the player on roll's 5-vector) replace the evaluator; ``plies`` are
    the depth of the cubeless probabilities put through the cube model; ``rollout`` (a
    ``RolloutSettings``) rolls out No double and Double/Take instead.
    """
    if probabilities is not None:
        evaluation = Evaluation(GameProbabilities.from_vector(probabilities), source="given")
        return evaluation, cube_decision(position, match, probabilities=evaluation.probabilities)
    decision = cube_decision(position, match, plies=plies or 0, rollout=rollout)
    source = "rollout" if rollout is not None else f"{plies or 0}-ply"
    return Evaluation(decision.probabilities, decision.plies, source), decision


def ranked_moves(
    position: Position, dice: tuple[int, int], plies: int | None = None
) -> tuple[tuple[MoveChoice, ...], str]:
    """Every legal play of ``dice``, best first by the engine (``rank_moves``: all plays at
    0-ply, the best candidates searched to ``plies``)."""
    depth = plies or 0
    ranked = rank_moves(position, dice, plies=depth)
    choices = tuple(MoveChoice(str(r.move), r.position, r.probabilities, int(r.plies)) for r in ranked)
    return choices, f"{depth}-ply"


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
    }


def cube_dict(decision: CubeDecision) -> dict[str, Any]:
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
        "cube_efficiency_class": decision.cube_efficiency_class,
        "cubeful_search": decision.cubeful_search,
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
#: the schema's keys (short names, kept from ``bgengine.cli/1``) and the decision's fields.
STANDARD_ERRORS = {
    "no_double_se": "no_double_standard_error",
    "double_take_se": "double_take_standard_error",
    "double_beaver_se": "double_beaver_standard_error",
    "double_take_minus_no_double_se": "double_take_minus_no_double_standard_error",
}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(float(value), 6)


def _game_over_dict(position: Position) -> dict[str, str] | None:
    finished = position.winner_and_result()
    if finished is None:
        return None
    winner, result = finished
    return {"winner": "on_roll" if winner == 0 else "opponent", "result": result.name.lower()}

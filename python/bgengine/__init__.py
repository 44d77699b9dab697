"""bgengine: backgammon analysis for Python.

Positions and their formats (XGID, GNU Backgammon IDs), match state, and, as they land,
legal moves, evaluation, rollouts and cube advice. Positions are always seen from the
player on roll.
"""

from .actions import Decision
from .agents import Agent, CubeQuestion, HeuristicAgent, RandomAgent
from .cube import CubeAction, CubeDecision, CubeErrors, EquityUnit, cube_decision
from .cube_efficiency import cube_efficiency
from .cube_matrix import CubeDecisionMatrix, cube_decision_matrix
from .dice import FixedDice, RandomDice
from .doubling import CubeOwner
from .errors import (
    BgEngineError,
    DiceError,
    IllegalMoveError,
    InvalidCubeSettingsError,
    InvalidMatchEquityTableError,
    InvalidMatchStateError,
    InvalidNotationError,
    InvalidPositionError,
    InvalidProbabilitiesError,
    InvalidSettingsError,
    MatchFileError,
    MissingEvaluatorError,
    NotARaceError,
)
from .game import Game, GameOutcome
from .gnubg_id import format_gnubg_ids, parse_gnubg_ids
from .match import Match
from .match_equity import cubeless_mwc, gammon_values
from .match_state import MatchState
from .matfile import format_mat, parse_mat, read_mat, write_mat
from .met import MatchEquityTable, default_met, kazaross_xg2, load_met
from .met_generator import generate_met
from .move import LegalMove, Move, MoveList, legal_children_batch
from .position import GameResult, Phase, Position
from .probabilities import GameProbabilities
from .race import RaceEvaluator
from .rollout import RolloutResult, RolloutSettings, rollout, rollout_moves
from .selfplay import play_game, play_match
from .xgid import format_xgid, parse_xgid

__version__ = "0.1.0.dev0"

__all__ = [
    "Agent",
    "BgEngineError",
    "CubeAction",
    "CubeDecision",
    "CubeDecisionMatrix",
    "CubeErrors",
    "CubeOwner",
    "CubeQuestion",
    "Decision",
    "DiceError",
    "EquityUnit",
    "FixedDice",
    "Game",
    "GameOutcome",
    "GameProbabilities",
    "GameResult",
    "HeuristicAgent",
    "IllegalMoveError",
    "InvalidCubeSettingsError",
    "InvalidMatchEquityTableError",
    "InvalidMatchStateError",
    "InvalidNotationError",
    "InvalidPositionError",
    "InvalidProbabilitiesError",
    "InvalidSettingsError",
    "LegalMove",
    "Match",
    "MatchEquityTable",
    "MatchFileError",
    "MatchState",
    "MissingEvaluatorError",
    "Move",
    "MoveList",
    "NotARaceError",
    "Phase",
    "Position",
    "RaceEvaluator",
    "RandomAgent",
    "RandomDice",
    "RolloutResult",
    "RolloutSettings",
    "cube_decision",
    "cube_decision_matrix",
    "cube_efficiency",
    "cubeless_mwc",
    "default_met",
    "format_gnubg_ids",
    "format_mat",
    "format_xgid",
    "gammon_values",
    "generate_met",
    "kazaross_xg2",
    "legal_children_batch",
    "load_met",
    "parse_gnubg_ids",
    "parse_mat",
    "parse_xgid",
    "play_game",
    "play_match",
    "read_mat",
    "write_mat",
    "rollout",
    "rollout_moves",
]

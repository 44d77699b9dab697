"""bgengine: backgammon analysis for Python.

Positions and their formats (XGID, GNU Backgammon IDs), match state, and, as they land,
legal moves, evaluation, rollouts and cube advice. Positions are always seen from the
player on roll.
"""

from .actions import Decision
from .agents import Agent, CubeQuestion, HeuristicAgent, RandomAgent
from .cube import CubeAction, CubeDecision, CubeErrors, EquityUnit, cube_decision
from .cube_agent import CubeAdvisedAgent
from .cube_efficiency import cube_efficiency
from .cube_matrix import CubeDecisionMatrix, cube_decision_matrix
from .dice import FixedDice, RandomDice
from .doubling import CubeOwner
from .engine_agent import EngineAgent
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
    MoveIndexError,
    NotARaceError,
)
from .evaluate import Evaluation, MoveFilter, RankedMove, best_move, evaluate, rank_moves
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
from .pubeval import PubEvalAgent
from .race import RaceEvaluator
from .rollout import RolloutResult, RolloutSettings, rollout, rollout_moves
from .selfplay import play_game, play_match
from .take_points import take_points
from .xgid import format_xgid, parse_xgid

__version__ = "0.1.0.dev0"

__all__ = [
    "Agent",
    "BgEngineError",
    "CubeAction",
    "CubeAdvisedAgent",
    "CubeDecision",
    "CubeDecisionMatrix",
    "CubeErrors",
    "CubeOwner",
    "CubeQuestion",
    "Decision",
    "DiceError",
    "EngineAgent",
    "EquityUnit",
    "Evaluation",
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
    "MoveFilter",
    "MoveIndexError",
    "MoveList",
    "NotARaceError",
    "Phase",
    "Position",
    "PubEvalAgent",
    "RaceEvaluator",
    "RandomAgent",
    "RandomDice",
    "RankedMove",
    "RolloutResult",
    "RolloutSettings",
    "best_move",
    "cube_decision",
    "cube_decision_matrix",
    "cube_efficiency",
    "cubeless_mwc",
    "default_met",
    "evaluate",
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
    "rank_moves",
    "read_mat",
    "rollout",
    "rollout_moves",
    "take_points",
    "write_mat",
]

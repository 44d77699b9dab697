"""bgengine: backgammon analysis for Python.

Positions and their formats (XGID, GNU Backgammon IDs, .mat), legal moves, games and
matches, evaluation, rollouts and cube advice. Positions are always seen from the player
on roll. The package is laid out by area (``formats``, ``game``, ``evaluation``,
``rollouts``, ``cube``, ``agents``, ``cli``); the names below are the public API.
"""

from bgengine.game.actions import Decision
from bgengine.analysis.match_analysis import AnalysisThresholds, MatchAnalysis, analyze_match
from bgengine.agents.base import Agent, CubeQuestion, HeuristicAgent, RandomAgent
from bgengine.cube.decision import CubeAction, CubeDecision, CubeErrors, cube_decision
from bgengine.cube.cubeful import CubefulMove, cubeful_equity, rank_moves_cubeful
from bgengine.agents.cube_advised import CubeAdvisedAgent
from bgengine.cube.efficiency import cube_efficiency
from bgengine.cube.referee import cube_referee
from bgengine.cube.matrix import CubeDecisionMatrix, cube_decision_matrix
from bgengine.dice import FixedDice, RandomDice, checked_roll
from bgengine.match_state import CubeOwner
from bgengine.agents.engine import EngineAgent
from bgengine.errors import (
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
from bgengine.evaluation.evaluator import Evaluation, MoveFilter, RankedMove, best_move, evaluate, rank_moves
from bgengine.game.record import Game, GameOutcome
from bgengine.formats.gnubg_id import format_gnubg_ids, parse_gnubg_ids
from bgengine.game.match import Match
from bgengine.cube.match_equity import cubeless_mwc, gammon_values
from bgengine.match_state import MatchState
from bgengine.formats.mat import format_mat, parse_mat, read_mat, write_mat
from bgengine.formats.sgf import format_sgf, parse_sgf, read_sgf, write_sgf
from bgengine.cube.met import MatchEquityTable, default_met, kazaross_xg2, load_met
from bgengine.cube.met_generator import generate_met
from bgengine.move import LegalMove, Move, MoveList, legal_children_batch
from bgengine.position import GameResult, Phase, Position
from bgengine.probabilities import EquityUnit, GameProbabilities
from bgengine.agents.pubeval import PubEvalAgent
from bgengine.evaluation.race import RaceEvaluator
from bgengine.rollouts.monte_carlo import RolloutResult, RolloutSettings, rollout, rollout_moves
from bgengine.agents.play import play_game, play_match
from bgengine.cube.take_point import take_points
from bgengine.formats.xgid import format_xgid, parse_xgid

__version__ = "0.1.0.dev0"

__all__ = [
    "Agent",
    "AnalysisThresholds",
    "BgEngineError",
    "CubeAction",
    "CubeAdvisedAgent",
    "CubeDecision",
    "CubeDecisionMatrix",
    "CubeErrors",
    "CubefulMove",
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
    "MatchAnalysis",
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
    "analyze_match",
    "best_move",
    "cube_decision",
    "cube_decision_matrix",
    "checked_roll",
    "cube_efficiency",
    "cube_referee",
    "cubeful_equity",
    "cubeless_mwc",
    "default_met",
    "evaluate",
    "format_gnubg_ids",
    "format_mat",
    "format_sgf",
    "format_xgid",
    "gammon_values",
    "generate_met",
    "kazaross_xg2",
    "legal_children_batch",
    "load_met",
    "parse_gnubg_ids",
    "parse_mat",
    "parse_sgf",
    "parse_xgid",
    "play_game",
    "play_match",
    "rank_moves",
    "rank_moves_cubeful",
    "read_mat",
    "read_sgf",
    "rollout",
    "rollout_moves",
    "take_points",
    "write_mat",
    "write_sgf",
]

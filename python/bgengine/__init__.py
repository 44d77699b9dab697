"""bgengine: backgammon analysis for Python.

Positions and their formats (XGID, GNU Backgammon IDs), match state, and, as they land,
legal moves, evaluation, rollouts and cube advice. Positions are always seen from the
player on roll.
"""

from .agents import Agent, CubeQuestion, HeuristicAgent, RandomAgent
from .dice import FixedDice, RandomDice
from .engine_agent import EngineAgent
from .errors import (
    BgEngineError,
    DiceError,
    IllegalMoveError,
    InvalidMatchStateError,
    InvalidNotationError,
    InvalidPositionError,
    MatchFileError,
)
from .evaluate import Evaluation, MoveFilter, RankedMove, best_move, evaluate, rank_moves
from .game import Game, GameOutcome
from .gnubg_id import format_gnubg_ids, parse_gnubg_ids
from .actions import Decision
from .match import Match
from .match_state import MatchState
from .matfile import format_mat, parse_mat, read_mat, write_mat
from .position import GameResult, Phase, Position
from .pubeval import PubEvalAgent
from .selfplay import play_game, play_match
from .xgid import format_xgid, parse_xgid

__version__ = "0.1.0.dev0"

__all__ = [
    "Agent",
    "BgEngineError",
    "CubeQuestion",
    "Decision",
    "DiceError",
    "EngineAgent",
    "Evaluation",
    "FixedDice",
    "Game",
    "GameOutcome",
    "GameResult",
    "HeuristicAgent",
    "IllegalMoveError",
    "InvalidMatchStateError",
    "InvalidNotationError",
    "InvalidPositionError",
    "Match",
    "MatchFileError",
    "MatchState",
    "MoveFilter",
    "Phase",
    "Position",
    "PubEvalAgent",
    "RandomAgent",
    "RandomDice",
    "RankedMove",
    "best_move",
    "evaluate",
    "format_gnubg_ids",
    "format_mat",
    "format_xgid",
    "parse_gnubg_ids",
    "parse_mat",
    "parse_xgid",
    "play_game",
    "play_match",
    "rank_moves",
    "read_mat",
    "write_mat",
]

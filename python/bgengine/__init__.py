"""bgengine: backgammon analysis for Python.

Positions and their formats (XGID, GNU Backgammon IDs), match state, and, as they land,
legal moves, evaluation, rollouts and cube advice. Positions are always seen from the
player on roll.
"""

from .errors import (
    BgEngineError,
    IllegalMoveError,
    InvalidMatchStateError,
    InvalidNotationError,
    InvalidPositionError,
)
from .gnubg_id import format_gnubg_ids, parse_gnubg_ids
from .match_state import MatchState
from .move import LegalMove, Move, MoveList, legal_children_batch
from .position import GameResult, Phase, Position
from .xgid import format_xgid, parse_xgid

__version__ = "0.1.0.dev0"

__all__ = [
    "BgEngineError",
    "GameResult",
    "IllegalMoveError",
    "InvalidMatchStateError",
    "InvalidNotationError",
    "InvalidPositionError",
    "LegalMove",
    "MatchState",
    "Move",
    "MoveList",
    "Phase",
    "Position",
    "format_gnubg_ids",
    "format_xgid",
    "legal_children_batch",
    "parse_gnubg_ids",
    "parse_xgid",
]

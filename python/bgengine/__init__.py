"""bgengine: backgammon analysis for Python.

Positions and their formats (XGID, GNU Backgammon IDs), match state, and, as they land,
legal moves, evaluation, rollouts and cube advice. Positions are always seen from the
player on roll.
"""

from .cube import CubeAction, CubeDecision, CubeErrors, EquityUnit, cube_decision
from .cube_efficiency import cube_efficiency
from .cube_matrix import CubeDecisionMatrix, cube_decision_matrix
from .doubling import CubeOwner
from .errors import (
    BgEngineError,
    IllegalMoveError,
    InvalidCubeSettingsError,
    InvalidMatchEquityTableError,
    InvalidMatchStateError,
    InvalidNotationError,
    InvalidPositionError,
    InvalidProbabilitiesError,
    InvalidSettingsError,
    MissingEvaluatorError,
)
from .gnubg_id import format_gnubg_ids, parse_gnubg_ids
from .match_equity import cubeless_mwc, gammon_values
from .match_state import MatchState
from .met import MatchEquityTable, default_met, kazaross_xg2, load_met
from .met_generator import generate_met
from .position import GameResult, Phase, Position
from .probabilities import GameProbabilities
from .rollout import RolloutResult, RolloutSettings, rollout, rollout_moves
from .xgid import format_xgid, parse_xgid

__version__ = "0.1.0.dev0"

__all__ = [
    "BgEngineError",
    "CubeAction",
    "CubeDecision",
    "CubeDecisionMatrix",
    "CubeErrors",
    "CubeOwner",
    "EquityUnit",
    "GameProbabilities",
    "GameResult",
    "IllegalMoveError",
    "InvalidCubeSettingsError",
    "InvalidMatchEquityTableError",
    "InvalidMatchStateError",
    "InvalidNotationError",
    "InvalidPositionError",
    "InvalidProbabilitiesError",
    "InvalidSettingsError",
    "MatchEquityTable",
    "MatchState",
    "MissingEvaluatorError",
    "Phase",
    "Position",
    "RolloutResult",
    "RolloutSettings",
    "cube_decision",
    "cube_decision_matrix",
    "cube_efficiency",
    "cubeless_mwc",
    "default_met",
    "format_gnubg_ids",
    "format_xgid",
    "gammon_values",
    "generate_met",
    "kazaross_xg2",
    "load_met",
    "parse_gnubg_ids",
    "parse_xgid",
    "rollout",
    "rollout_moves",
]

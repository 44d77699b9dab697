"""The exceptions bgengine raises for bad input; each says what is wrong."""


class BgEngineError(Exception):
    """Base class of every error bgengine raises on purpose."""


class InvalidNotationError(BgEngineError, ValueError):
    """Text that is not well formed: bad characters, length, base64 or field count."""


class InvalidPositionError(BgEngineError, ValueError):
    """A well-formed description of a position that cannot occur in backgammon."""


class IllegalMoveError(BgEngineError, ValueError):
    """A well-formed move or roll that the rules do not allow here."""


class InvalidMatchStateError(BgEngineError, ValueError):
    """Impossible match data: scores, cube value or owner, Crawford flag, dice."""


class InvalidSettingsError(BgEngineError, ValueError):
    """Options that cannot work together or are out of range (e.g. rollout settings)."""

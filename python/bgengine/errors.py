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


class DiceError(BgEngineError, ValueError):
    """Dice that cannot be used: a face outside 1..6, a fixed list run dry or left unused."""


class MatchFileError(BgEngineError, ValueError):
    """A match file (Jellyfish .mat) that cannot be read: bad syntax or an illegal action.

    ``line_number`` is the 1-based line of the file at fault (0 when the whole file is),
    ``reason`` what is wrong there.
    """

    def __init__(self, line_number: int, reason: str) -> None:
        self.line_number = line_number
        self.reason = reason
        where = f"line {line_number}: " if line_number else ""
        super().__init__(f"{where}{reason}")


class InvalidProbabilitiesError(BgEngineError, ValueError):
    """Game probabilities that cannot be: out of 0..1, NaN, or a gammon above its win."""


class InvalidMatchEquityTableError(BgEngineError, ValueError):
    """A match equity table that is malformed or not a table of match winning chances."""


class MissingEvaluatorError(BgEngineError, ValueError):
    """A position needs evaluating but no evaluator (or probabilities) was given."""


class InvalidCubeSettingsError(BgEngineError, ValueError):
    """Cube or match-equity settings out of range: cube efficiency, gammon rates, table size."""


class NotARaceError(BgEngineError, ValueError):
    """A position with contact given to something that needs a race (no contact)."""


class InvalidSettingsError(BgEngineError, ValueError):
    """Options that cannot work together or are out of range (e.g. rollout settings)."""


class NetworkEncodingError(BgEngineError, ValueError):
    """Network weights whose input encoding is not the one asked for, or does not fit their shape."""


class NetworkClassError(BgEngineError, ValueError):
    """Network weights made for another position class (a crashed network given as the contact one, or the reverse)."""


class MoveIndexError(IllegalMoveError, IndexError):
    """An index into a ``MoveList`` that is not a whole number within the list's length."""


#: How much of a user's text an error message repeats.
QUOTE_LIMIT = 60


def quoted(text: str) -> str:
    """``text`` as an error message shows it: its repr, cut to a short prefix when long."""
    if len(text) <= QUOTE_LIMIT:
        return repr(text)
    return f"{text[:QUOTE_LIMIT]!r}... ({len(text)} characters)"


def checked_text(text: object, what: str, longest: int) -> str:
    """``text`` if it is a string no longer than ``longest`` (more than any legal one);
    else InvalidNotationError at once, before any parsing work."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"{what} must be a string, got {type(text).__name__}")
    if len(text) > longest:
        raise InvalidNotationError(f"{what} is {len(text)} characters, longer than any legal one: {quoted(text)}")
    return text

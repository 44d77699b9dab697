"""Little-endian bit strings and unpadded base64, shared by the GNU Backgammon IDs."""

from __future__ import annotations

import base64
import binascii
import re

from bgengine.errors import InvalidNotationError, quoted

_BASE64_CHARS = re.compile(r"[A-Za-z0-9+/]*")
_BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def decode_base64_key(text: str, length: int, what: str) -> int:
    """The key behind ``length`` base64 characters (no padding), as a little-endian integer."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"{what} must be a string, got {type(text).__name__}")
    if len(text) != length:
        raise InvalidNotationError(f"{what} has {length} characters, got {len(text)}: {quoted(text)}")
    if not _BASE64_CHARS.fullmatch(text):
        bad = next(c for c in text if not _BASE64_CHARS.fullmatch(c))
        raise InvalidNotationError(f"{what} {text!r} has a character outside base64: {bad!r}")
    unused_bits = 6 * length % 8  # base64 decoding drops these bits silently: they must be 0
    if unused_bits and _BASE64_ALPHABET.index(text[-1]) & ((1 << unused_bits) - 1):
        raise InvalidNotationError(f"{what} {text!r} has bits set beyond its key in the last character")
    padded = text + "=" * (-len(text) % 4)
    try:
        raw = base64.b64decode(padded, validate=True)
    except binascii.Error as error:
        raise InvalidNotationError(f"{what} {text!r} is not valid base64: {error}") from None
    return int.from_bytes(raw, "little")


def encode_base64_key(key: int, num_bytes: int, length: int) -> str:
    """``key`` as ``num_bytes`` little-endian bytes in base64, cut to ``length`` characters."""
    return base64.b64encode(key.to_bytes(num_bytes, "little")).decode("ascii")[:length]


class BitReader:
    """Reads fields from a little-endian bit string, lowest bit first."""

    def __init__(self, key: int) -> None:
        self._key = key
        self.offset = 0

    def read(self, width: int) -> int:
        value = (self._key >> self.offset) & ((1 << width) - 1)
        self.offset += width
        return value


class BitWriter:
    """Appends fields to a little-endian bit string, lowest bit first."""

    def __init__(self) -> None:
        self.key = 0
        self.offset = 0

    def write(self, value: int, width: int) -> None:
        if not 0 <= value < (1 << width):
            raise ValueError(f"{value} does not fit in {width} bits")
        self.key |= value << self.offset
        self.offset += width

"""Match equity tables: match winning chances by away scores, shipped as data or loaded.

A table has a pre-Crawford part (``pre_crawford[i][j]``: the chance of the player needing
i+1 points against one needing j+1, at the start of a game; a 1-away row or column is the
start of the Crawford game) and a post-Crawford row (``post_crawford[j]``: the trailer
needing j+1 points against a leader needing 1, after the Crawford game). The default is
Kazaross-XG2 (``data/met_kazaross_xg2.json``). Users load their own tables in this JSON
format or in GNU Backgammon's XML format (explicit tables).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from bgengine.errors import InvalidMatchEquityTableError, InvalidMatchStateError

FORMAT_TAG = "bgengine match equity table, version 1"
#: Largest tolerated |M(a, b) + M(b, a) - 1|, to accept tables printed with 4 decimals.
SYMMETRY_TOLERANCE = 5e-4


class MwcSource(Protocol):
    """What cube logic needs of a table: MWC by away scores, and a check of its range."""

    def mwc(self, away: int, opponent_away: int, *, post_crawford: bool = False) -> float: ...

    def check_covers(self, *aways: int) -> None: ...


class MatchEquityTable:
    """Match winning chances at the start of a game, by away scores (see the module docstring)."""

    def __init__(
        self,
        pre_crawford: Any,
        post_crawford: Any,
        *,
        name: str = "custom",
        description: str = "",
        source: str = "",
    ) -> None:
        self.pre_crawford = _checked_pre_crawford(pre_crawford)
        self.post_crawford = _checked_post_crawford(post_crawford, len(self.pre_crawford))
        self.name = name
        self.description = description
        self.source = source

    @property
    def length(self) -> int:
        """The longest away score the table covers."""
        return len(self.pre_crawford)

    def __repr__(self) -> str:
        return f"<MatchEquityTable {self.name!r}, up to {self.length}-away>"

    def mwc(self, away: int, opponent_away: int, *, post_crawford: bool = False) -> float:
        """Chance of the player needing ``away`` points to win the match, at the start of a game.

        ``post_crawford`` says the Crawford game has been played (one of the two must then
        be 1-away). A player needing 0 or fewer points has won.
        """
        if away <= 0 and opponent_away <= 0:
            raise InvalidMatchStateError("both players cannot have won the match")
        if away <= 0:
            return 1.0
        if opponent_away <= 0:
            return 0.0
        self.check_covers(away, opponent_away)
        if post_crawford:
            if away == 1 and opponent_away == 1:
                return 0.5
            if away == 1:
                return 1.0 - float(self.post_crawford[opponent_away - 1])
            if opponent_away == 1:
                return float(self.post_crawford[away - 1])
            raise InvalidMatchStateError(
                f"after the Crawford game one player is 1-away, got {away}-away {opponent_away}-away"
            )
        return float(self.pre_crawford[away - 1, opponent_away - 1])

    def check_covers(self, *aways: int) -> None:
        """Refuse away scores beyond the table with a clear message."""
        longest = max(aways)
        if longest > self.length:
            raise InvalidMatchStateError(
                f"the match equity table {self.name!r} covers up to {self.length}-away;"
                f" this score needs {longest}-away"
            )

    # ----- storage ----------------------------------------------------------------------

    def to_json(self) -> str:
        """The table in bgengine's JSON format (what ``load_met`` reads back)."""
        document = {
            "format": FORMAT_TAG,
            "name": self.name,
            "description": self.description,
            "source": self.source,
            "pre_crawford": [[round(float(v), 8) for v in row] for row in self.pre_crawford],
            "post_crawford": [round(float(v), 8) for v in self.post_crawford],
        }
        return json.dumps(document, indent=1) + "\n"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")


def load_met(path: str | Path) -> MatchEquityTable:
    """Load a table from bgengine's JSON format or GNU Backgammon's XML format (explicit tables)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise InvalidMatchEquityTableError(f"cannot read match equity table {path}: {error}") from None
    if text.lstrip().startswith("{"):
        return met_from_json(text)
    if "<met" in text:
        return met_from_gnubg_xml(text)
    raise InvalidMatchEquityTableError(
        f"{path}: not a match equity table (expected bgengine JSON or GNU Backgammon XML)"
    )


def met_from_json(text: str) -> MatchEquityTable:
    """Parse bgengine's JSON format (see ``data/met_kazaross_xg2.json``)."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidMatchEquityTableError(f"match equity table is not valid JSON: {error}") from None
    if not isinstance(document, dict):
        raise InvalidMatchEquityTableError("match equity table JSON must be an object")
    missing = [key for key in ("pre_crawford", "post_crawford") if key not in document]
    if missing:
        raise InvalidMatchEquityTableError(f"match equity table JSON lacks {', '.join(missing)}")
    return MatchEquityTable(
        document["pre_crawford"],
        document["post_crawford"],
        name=str(document.get("name", "custom")),
        description=str(document.get("description", "")),
        source=str(document.get("source", "")),
    )


def met_from_gnubg_xml(text: str) -> MatchEquityTable:
    """Parse GNU Backgammon's MET XML (explicit tables only), tolerating its known stray tags."""
    pre = _xml_section(text, "pre-crawford-table")
    posts = re.findall(r"<post-crawford-table([^>]*)>(.*?)</post-crawford-table>", text, re.S)
    if pre is None or not posts:
        raise InvalidMatchEquityTableError(
            "GNU Backgammon MET needs a pre-crawford-table and a post-crawford-table"
        )
    pre_attributes, pre_body = pre
    for attributes in [pre_attributes] + [attrs for attrs, _ in posts]:
        kind = re.search(r'type\s*=\s*"([^"]*)"', attributes)
        if kind and kind.group(1) != "explicit":
            raise InvalidMatchEquityTableError(
                f"only explicit tables can be loaded, this one is of type {kind.group(1)!r};"
                " use bgengine.generate_met for tables from a gammon rate"
            )
    rows = [_xml_numbers(row) for row in re.findall(r"<row>(.*?)</row>", pre_body, re.S)]
    post_rows = [_xml_numbers(row) for _, body in posts for row in re.findall(r"<row>(.*?)</row>", body, re.S)]
    if not post_rows:
        raise InvalidMatchEquityTableError("the post-crawford-table has no row")
    post = post_rows[0]
    for other in post_rows[1:]:
        if len(other) != len(post) or any(abs(a - b) > SYMMETRY_TOLERANCE for a, b in zip(post, other, strict=True)):
            raise InvalidMatchEquityTableError("the two players' post-Crawford rows differ")
    name = re.search(r"<name>(.*?)</name>", text, re.S)
    description = re.search(r"<description>(.*?)</description>", text, re.S)
    return MatchEquityTable(
        rows,
        post,
        name=name.group(1).strip() if name else "custom",
        description=description.group(1).strip() if description else "",
        source="GNU Backgammon MET XML",
    )


@lru_cache(maxsize=1)
def kazaross_xg2() -> MatchEquityTable:
    """The Kazaross-XG2 table (published figures, 25-away), the default of bgengine."""
    text = resources.files("bgengine").joinpath("data", "met_kazaross_xg2.json").read_text(encoding="utf-8")
    return met_from_json(text)


def default_met() -> MatchEquityTable:
    return kazaross_xg2()


# ----- checks ---------------------------------------------------------------------------


def _as_float_array(values: Any, what: str) -> np.ndarray:
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidMatchEquityTableError(f"{what} must hold numbers only") from None
    if not np.all(np.isfinite(array)):
        raise InvalidMatchEquityTableError(f"{what} holds a value that is not a finite number")
    if array.size and (array.min() < 0.0 or array.max() > 1.0):
        raise InvalidMatchEquityTableError(f"{what} holds a value outside 0..1")
    return array


def _checked_pre_crawford(values: Any) -> np.ndarray:
    if isinstance(values, Sequence) and values and isinstance(values[0], Sequence):
        if len({len(row) for row in values}) != 1:
            raise InvalidMatchEquityTableError("the pre-Crawford table's rows differ in length")
    table = _as_float_array(values, "the pre-Crawford table")
    if table.ndim != 2 or table.shape[0] != table.shape[1] or table.shape[0] < 1:
        raise InvalidMatchEquityTableError(
            f"the pre-Crawford table must be square (n x n), got shape {table.shape}"
        )
    asymmetry = np.abs(table + table.T - 1.0)
    worst = np.unravel_index(int(np.argmax(asymmetry)), asymmetry.shape)
    if asymmetry[worst] > SYMMETRY_TOLERANCE:
        a, b = int(worst[0]) + 1, int(worst[1]) + 1
        raise InvalidMatchEquityTableError(
            f"MWC({a}-away, {b}-away) + MWC({b}-away, {a}-away) = "
            f"{table[worst] + table.T[worst]:.6f}; the two must add up to 1"
        )
    table.setflags(write=False)
    return table


def _checked_post_crawford(values: Any, length: int) -> np.ndarray:
    row = _as_float_array(values, "the post-Crawford row")
    if row.ndim != 1 or len(row) != length:
        raise InvalidMatchEquityTableError(
            f"the post-Crawford row must have {length} values (one per away score), got shape {row.shape}"
        )
    if abs(row[0] - 0.5) > SYMMETRY_TOLERANCE:
        raise InvalidMatchEquityTableError(
            f"post-Crawford 1-away against 1-away must be 0.5, got {row[0]}"
        )
    row.setflags(write=False)
    return row


def _xml_section(text: str, tag: str) -> tuple[str, str] | None:
    match = re.search(rf"<{tag}([^>]*)>(.*?)</{tag}>", text, re.S)
    return (match.group(1), match.group(2)) if match else None


def _xml_numbers(row: str) -> list[float]:
    try:
        return [float(value) for value in re.findall(r"<me>\s*([^<\s]+)\s*</me>", row)]
    except ValueError as error:
        raise InvalidMatchEquityTableError(f"a table entry is not a number: {error}") from None

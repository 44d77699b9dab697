"""Bear-off databases: built by the core, cached on disk with a checksum, loaded once.

The one-sided table gives, for every distribution of up to 15 checkers on one side's
points 1..P, the probability of bearing everything off in exactly k rolls; the two-sided
table gives exact cubeless and cubeful results for both sides home with few checkers.
Cache folder: ``$BGENGINE_CACHE_DIR``, else ``$XDG_CACHE_HOME/bgengine``, else
``~/.cache/bgengine``. A cache file that fails its checksum is rebuilt, never used.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bgcore import _bearoff_index, _bearoff_one_sided, _bearoff_two_sided, _race

from bgengine.match_state import CubeOwner
from bgengine.errors import InvalidPositionError
from bgengine.position import Position

CACHE_DIR_ENV = "BGENGINE_CACHE_DIR"
HOME_POINTS = 6
MAX_ONE_SIDED_POINTS = 10  # 8 points: 191 MB; 9: 586 MB; 10: see docs/bearoff.md
MAX_TWO_SIDED_CHECKERS = 8  # 32 x C(N + 6, 6)^2 bytes: 27 MB at 6, 94 MB at 7, 289 MB at 8
DEFAULT_TWO_SIDED_CHECKERS = 6
PIPS_PER_ROLL = 49 / 6  # average pips of a roll, doubles counted four times

_FORMAT_VERSION = 2  # bump when a build algorithm or the file layout changes (2: checksum covers the header)
_MAGIC = b"BGENGINE-TABLE\n"
_HEADER_LIMIT = 1 << 16  # bytes: no header line of ours comes near it

Progress = Callable[[int, int], None]
#: One side's checkers: counts for points 1, 2, ... in order, or {point: count}.
SideCounts = Sequence[int] | Mapping[int, int]


class BearoffCacheWarning(UserWarning):
    """A cached table was unreadable or failed its checksum and has been rebuilt."""


#: Index of each cube state in ``TwoSidedTable.cubeful`` (and in the core's tables).
CUBEFUL_INDEX = {CubeOwner.CENTRED: 0, CubeOwner.PLAYER: 1, CubeOwner.OPPONENT: 2}


# ----- cache folder and file format ------------------------------------------------------


def cache_dir() -> Path:
    """The folder for cached tables (see the module docstring for how it is chosen)."""
    explicit = os.environ.get(CACHE_DIR_ENV)
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "bgengine"


def _digest(header_line: bytes, arrays: Mapping[str, np.ndarray]) -> str:
    """SHA-256 of the header line and every array: a change to either is caught."""
    digest = hashlib.sha256(header_line)
    for array in arrays.values():
        digest.update(np.ascontiguousarray(array).data)
    return digest.hexdigest()


def _write_table(path: Path, kind: str, params: dict, arrays: Mapping[str, np.ndarray]) -> None:
    """Write magic, checksum line, header line and raw arrays atomically (temporary file, then rename)."""
    header = {
        "kind": kind,
        "version": _FORMAT_VERSION,
        "params": params,
        "arrays": [{"name": n, "dtype": a.dtype.str, "shape": list(a.shape)} for n, a in arrays.items()],
    }
    header_line = json.dumps(header, sort_keys=True).encode() + b"\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(_MAGIC)
            out.write(_digest(header_line, arrays).encode() + b"\n")
            out.write(header_line)
            for array in arrays.values():
                out.write(np.ascontiguousarray(array).data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _read_table(path: Path, kind: str, params: dict) -> dict[str, np.ndarray]:
    """The arrays of a cache file; ValueError when anything about it is not right.

    Nothing in the file is trusted before the checksum over header and data agrees: the
    header's sizes are only used after they are found to add up to the file's size.
    """
    try:
        with open(path, "rb") as source:
            if source.read(len(_MAGIC)) != _MAGIC:
                raise ValueError("not a bgengine table file")
            expected = source.readline(_HEADER_LIMIT).strip().decode("ascii")
            header_line = source.readline(_HEADER_LIMIT)
            header = json.loads(header_line)
            specs = [(spec["name"], np.dtype(spec["dtype"]), tuple(int(n) for n in spec["shape"]))
                     for spec in header["arrays"]]
            sizes = [int(np.prod(shape)) * dtype.itemsize for _, dtype, shape in specs]
            if sum(sizes) != os.fstat(source.fileno()).st_size - source.tell():
                raise ValueError("the header's array sizes do not match the file")
            arrays = {}
            for (name, dtype, shape), size in zip(specs, sizes):
                buffer = bytearray(size)
                if source.readinto(buffer) != size:
                    raise ValueError("file is truncated")
                arrays[name] = np.frombuffer(buffer, dtype=dtype).reshape(shape)
    except ValueError:
        raise
    except Exception as error:  # garbled header: JSON, keys, dtypes, shapes, encodings
        raise ValueError(f"unreadable header ({type(error).__name__}: {error})") from None
    if _digest(header_line, arrays) != expected:
        raise ValueError("checksum mismatch")
    if header.get("kind") != kind or header.get("version") != _FORMAT_VERSION:
        raise ValueError("table of another kind or format version")
    if header.get("params") != params:
        raise ValueError("table built with other parameters")
    return arrays


def _cached_arrays(
    name: str, kind: str, params: dict, build: Callable[[], dict[str, np.ndarray]], cache: bool
) -> dict[str, np.ndarray]:
    """Arrays from the cache file when it is sound, else built (and cached when allowed)."""
    path = cache_dir() / f"{name}.v{_FORMAT_VERSION}.bgtable"
    if cache and path.exists():
        try:
            return _read_table(path, kind, params)
        except (OSError, ValueError) as error:
            warnings.warn(f"rebuilding {path}: {error}", BearoffCacheWarning, stacklevel=3)
    arrays = build()
    if cache:
        try:
            _write_table(path, kind, params, arrays)
        except OSError as error:
            warnings.warn(f"could not cache {path}: {error}", BearoffCacheWarning, stacklevel=3)
    return arrays


# ----- tables -------------------------------------------------------------------------------


def _side_counts(counts: SideCounts, points: int) -> list[int]:
    """Counts for points 1..points from a sequence (index 0 = 1-point) or a point mapping."""
    if isinstance(counts, Mapping):
        if any(not isinstance(p, (int, np.integer)) or not 1 <= p <= points for p in counts):
            raise InvalidPositionError(f"points of a {points}-point table are 1..{points}: {dict(counts)}")
        values = [counts.get(p, 0) for p in range(1, points + 1)]
    else:
        values = list(counts)
        if len(values) > points:
            raise InvalidPositionError(f"{len(values)} counts given for a {points}-point table")
        values += [0] * (points - len(values))
    if any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0 for v in values):
        raise InvalidPositionError(f"checker counts must be non-negative integers: {values}")
    if sum(values) > 15:
        raise InvalidPositionError(f"a side has at most 15 checkers, got {sum(values)}")
    return [int(v) for v in values]


@dataclass(frozen=True, eq=False)
class OneSidedTable:
    """Roll-count distributions of one side bearing off from points 1..points.

    ``rolls[r, k]``: P(all off in exactly k rolls) for the position of rank r, playing to
    minimise the expected number of rolls; ``first_off[r - first_rank, k]``: P(first
    checker off in exactly k rolls) for positions with all 15 checkers.
    """

    points: int
    rolls: np.ndarray
    expected: np.ndarray
    first_off: np.ndarray
    first_expected: np.ndarray

    @property
    def first_rank(self) -> int:
        """Rank of the first position with all 15 checkers on the board."""
        return int(_bearoff_index.one_sided_size(14, self.points))

    def rank(self, counts: SideCounts) -> int:
        """Rank of a side's position: counts for points 1..points, or {point: count}."""
        return int(_bearoff_index.one_sided_rank_of(_side_counts(counts, self.points)))

    def counts(self, rank: int) -> list[int]:
        """Counts for points 1..points of the position of this rank."""
        return list(_bearoff_index.one_sided_counts_of(rank, self.points))

    def rolls_distribution(self, counts: SideCounts) -> np.ndarray:
        """P(all checkers off in exactly k rolls), k = 0, 1, ...; the side rolls every turn."""
        return self.rolls[self.rank(counts)].copy()

    def first_off_distribution(self, counts: SideCounts) -> np.ndarray:
        """P(first checker off in exactly k rolls); certain at k = 0 with fewer than 15 on board."""
        rank = self.rank(counts)
        if rank < self.first_rank:
            distribution = np.zeros(self.first_off.shape[1])
            distribution[0] = 1.0
            return distribution
        return self.first_off[rank - self.first_rank].copy()

    def expected_rolls(self, counts: SideCounts) -> float:
        """Mean number of rolls to bear off, with play that minimises it."""
        return float(self.expected[self.rank(counts)])

    def effective_pip_count(self, counts: SideCounts) -> float:
        """EPC = 49/6 x expected rolls: the pip count of a wastage-free equivalent."""
        return PIPS_PER_ROLL * self.expected_rolls(counts)

    def wastage(self, counts: SideCounts) -> float:
        """EPC minus the pip count: pips lost to the way the checkers are placed."""
        values = _side_counts(counts, self.points)
        pips = sum(point * n for point, n in enumerate(values, start=1))
        return self.effective_pip_count(values) - pips

    @property
    def size_bytes(self) -> int:
        """Memory held by the table's arrays."""
        return sum(a.nbytes for a in (self.rolls, self.expected, self.first_off, self.first_expected))


@dataclass(frozen=True, eq=False)
class TwoSidedTable:
    """Exact results when both sides are home with at most ``max_checkers`` each.

    ``win[a, b]``: cubeless P(player on roll wins), a his rank, b the opponent's;
    ``cubeful[owner, a, b]``: money equity per unit cube, player on roll's view.
    """

    max_checkers: int
    win: np.ndarray
    cubeful: np.ndarray

    def _ranks(self, mover: SideCounts, opponent: SideCounts) -> tuple[int, int]:
        ranks = []
        for side, counts in (("player on roll", mover), ("opponent", opponent)):
            values = _side_counts(counts, HOME_POINTS)
            if not 1 <= sum(values) <= self.max_checkers:
                raise InvalidPositionError(
                    f"{side} has {sum(values)} checkers; this table holds 1..{self.max_checkers}"
                )
            ranks.append(int(_bearoff_index.one_sided_rank_of(values)))
        return ranks[0], ranks[1]

    def win_probability(self, mover: SideCounts, opponent: SideCounts) -> float:
        """Cubeless P(the player on roll wins), both sides playing for the win."""
        a, b = self._ranks(mover, opponent)
        return float(self.win[a, b])

    def cubeful_equity(
        self,
        mover: SideCounts,
        opponent: SideCounts,
        owner: CubeOwner = CubeOwner.CENTRED,
    ) -> float:
        """Money equity per unit cube before the roll (player on roll's view), optimal cube play."""
        a, b = self._ranks(mover, opponent)
        if owner not in CUBEFUL_INDEX:
            raise ValueError(f"owner must be a CubeOwner, got {owner!r}")
        return float(self.cubeful[CUBEFUL_INDEX[owner], a, b])

    def covers(self, position: Position) -> bool:
        """True when both sides are home with 1..max_checkers checkers each."""
        return self._home_counts(position) is not None

    def _home_counts(self, position: Position) -> tuple[list[int], list[int]] | None:
        own, theirs, bar, opponent_bar = position.points()
        if bar or opponent_bar or any(p > HOME_POINTS for p in (*own, *theirs)):
            return None
        mover = [own.get(p, 0) for p in range(1, HOME_POINTS + 1)]
        opponent = [theirs.get(p, 0) for p in range(1, HOME_POINTS + 1)]
        if not (1 <= sum(mover) <= self.max_checkers and 1 <= sum(opponent) <= self.max_checkers):
            return None
        return mover, opponent

    def equities(self, position: Position) -> BearoffEquities:
        """Every exact result of a covered position, player on roll's view."""
        counts = self._home_counts(position)
        if counts is None:
            raise InvalidPositionError(
                f"not in the two-sided table: both sides must be home with 1..{self.max_checkers} checkers"
            )
        a, b = self._ranks(*counts)
        win = float(self.win[a, b])
        return BearoffEquities(
            win=win,
            cubeless=2 * win - 1,
            centred=float(self.cubeful[0, a, b]),
            owned=float(self.cubeful[1, a, b]),
            opponent_owns=float(self.cubeful[2, a, b]),
        )

    @property
    def size_bytes(self) -> int:
        """Memory held by the table's arrays."""
        return self.win.nbytes + self.cubeful.nbytes


@dataclass(frozen=True)
class BearoffEquities:
    """Exact results of a two-sided position, player on roll's view, per unit cube."""

    win: float
    cubeless: float
    centred: float
    owned: float
    opponent_owns: float


# ----- building and loading (once per process) ---------------------------------------------

_LOCK = threading.Lock()
_ONE_SIDED: dict[int, OneSidedTable] = {}
_TWO_SIDED: dict[int, TwoSidedTable] = {}
_RACE_TABLES: dict[tuple[int | None, int | None], _race.RaceTables] = {}


def build_one_sided_table(points: int = HOME_POINTS, progress: Progress | None = None) -> OneSidedTable:
    """Build (no cache) the one-sided table for ``points`` points; see docs/bearoff.md for costs."""
    _check_points(points)
    rolls, expected, first_off, first_expected = _bearoff_one_sided.build_one_sided(points, progress)
    return OneSidedTable(points, rolls, expected, first_off, first_expected)


def build_two_sided_table(max_checkers: int = DEFAULT_TWO_SIDED_CHECKERS) -> TwoSidedTable:
    """Build (no cache) the two-sided table for up to ``max_checkers`` checkers per side."""
    _check_two_sided_checkers(max_checkers)
    win, cubeful = _bearoff_two_sided.build_two_sided(max_checkers)
    return TwoSidedTable(max_checkers, win, cubeful)


def one_sided_table(
    points: int = HOME_POINTS, *, progress: Progress | None = None, cache: bool = True
) -> OneSidedTable:
    """The one-sided table for ``points`` points, loaded or built once per process."""
    _check_points(points)
    with _LOCK:
        if points not in _ONE_SIDED:

            def build() -> dict[str, np.ndarray]:
                table = build_one_sided_table(points, progress)
                return {
                    "rolls": table.rolls,
                    "expected": table.expected,
                    "first_off": table.first_off,
                    "first_expected": table.first_expected,
                }

            arrays = _cached_arrays(f"one_sided_{points}pt", "one-sided", {"points": points}, build, cache)
            _ONE_SIDED[points] = OneSidedTable(points, **arrays)
        return _ONE_SIDED[points]


def two_sided_table(max_checkers: int = DEFAULT_TWO_SIDED_CHECKERS, *, cache: bool = True) -> TwoSidedTable:
    """The two-sided table for up to ``max_checkers`` per side, loaded or built once."""
    _check_two_sided_checkers(max_checkers)
    with _LOCK:
        if max_checkers not in _TWO_SIDED:

            def build() -> dict[str, np.ndarray]:
                table = build_two_sided_table(max_checkers)
                return {"win": table.win, "cubeful": table.cubeful}

            arrays = _cached_arrays(
                f"two_sided_{max_checkers}", "two-sided", {"max_checkers": max_checkers}, build, cache
            )
            _TWO_SIDED[max_checkers] = TwoSidedTable(max_checkers, **arrays)
        return _TWO_SIDED[max_checkers]


def race_tables(
    *,
    two_sided_checkers: int | None = DEFAULT_TWO_SIDED_CHECKERS,
    wide_points: int | None = None,
    cache: bool = True,
) -> _race.RaceTables:
    """The tables a race evaluation reads, for the core's kernels (made once per choice).

    The six-point one-sided table always; the two-sided table unless
    ``two_sided_checkers`` is None; a wider one-sided table when ``wide_points`` > 6.
    Each evaluator holds the set it asked for, so evaluators with different choices can
    be used from any threads at once; the sets are read-only and shared.
    """
    key = (two_sided_checkers or None, wide_points if wide_points and wide_points > HOME_POINTS else None)
    found = _RACE_TABLES.get(key)
    if found is not None:
        return found
    home = one_sided_table(HOME_POINTS, cache=cache)
    wide = None
    if key[1] is not None:
        table = one_sided_table(key[1], cache=cache)
        wide = (table.points, table.rolls, table.expected, table.first_off)
    two_sided = None
    if key[0] is not None:
        pair = two_sided_table(key[0], cache=cache)
        two_sided = (pair.max_checkers, pair.win, pair.cubeful)
    made = _race.RaceTables(
        (home.rolls, home.expected, home.first_off), wide, two_sided, recipe=(_race_tables_by_key, key)
    )
    with _LOCK:
        return _RACE_TABLES.setdefault(key, made)


def _race_tables_by_key(two_sided_checkers: int | None, wide_points: int | None) -> _race.RaceTables:
    """``race_tables`` by position, so a pickled RaceTables is rebuilt from its choice."""
    return race_tables(two_sided_checkers=two_sided_checkers, wide_points=wide_points)


def forget_loaded_tables() -> None:
    """Drop the tables held in memory (the next use loads them again); for tests."""
    with _LOCK:
        _ONE_SIDED.clear()
        _TWO_SIDED.clear()
        _RACE_TABLES.clear()


def _check_points(points: object) -> None:
    _check_whole_number(points, 1, MAX_ONE_SIDED_POINTS, "one-sided tables cover {} points")


def _check_two_sided_checkers(checkers: object) -> None:
    _check_whole_number(checkers, 1, MAX_TWO_SIDED_CHECKERS, "two-sided tables hold {} checkers per side")


def _check_whole_number(value: object, low: int, high: int, what: str) -> None:
    """ValueError unless ``value`` is an int in low..high; ``what`` names the range."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{what.format(f'{low}..{high}')}, got {value!r}")

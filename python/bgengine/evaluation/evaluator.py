"""Position evaluation (0-ply and n-ply) and move ranking.

Probabilities are the cumulative 5-vector (win, win_gammon, win_backgammon, lose_gammon,
lose_backgammon) from the player on roll, before the roll. An evaluator is anything with
``evaluate(position)`` and ``evaluate_batch(boards)``; the engine's own is
``NetworkEvaluator`` (finished games exact, races from the bear-off/race tables, contact
positions from the network trained by ``bgengine.training.td``). n-ply lookahead averages the
21 rolls, each with the best reply searched one ply less among the few best 0-ply
candidates (``MoveFilter``).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from bgcore import _engine, _evaluator, _nn, _nply

from bgengine.errors import InvalidPositionError, InvalidSettingsError
from bgengine.move import Move, MoveList, Roll, legal_moves
from bgengine.position import NUM_SLOTS, Position, checked_position
from bgengine.probabilities import GameProbabilities, equity, flipped

MAX_PLIES = 3
WEIGHTS_RESOURCE = "data/evaluator_weights.npz"


@dataclass(frozen=True)
class Evaluation:
    """Cubeless probabilities of a position, player on roll's view before the roll.

    ``source`` says where they come from: ``"0-ply"``, ``"2-ply"`` (the evaluator at
    ``plies``, the default), ``"given"`` or ``"rollout"``.
    """

    probabilities: GameProbabilities
    plies: int = 0
    source: str = ""

    def __post_init__(self) -> None:
        if not self.source:
            object.__setattr__(self, "source", f"{self.plies}-ply")

    @property
    def equity(self) -> float:
        """Cubeless money equity for the player on roll."""
        return self.probabilities.equity

    def as_dict(self) -> dict[str, float]:
        return self.probabilities.as_dict()


@dataclass(frozen=True)
class RankedMove:
    """One legal move with its evaluation from the view of the player making it."""

    move: Move
    position: Position  # after the move, seen from the next player on roll
    probabilities: GameProbabilities  # the mover's view
    plies: int  # how deep this move was searched

    @property
    def equity(self) -> float:
        """Cubeless money equity for the player making the move."""
        return self.probabilities.equity


@dataclass(frozen=True)
class MoveFilter:
    """Replies searched deeper at each roll: at most ``keep``, within ``margin`` equity of the best."""

    keep: int = 2
    margin: float = 0.04

    def __post_init__(self) -> None:
        if not isinstance(self.keep, int) or not 1 <= self.keep <= 64:
            raise InvalidSettingsError(f"MoveFilter.keep must be an integer 1..64, got {self.keep!r}")
        if not self.margin >= 0.0:
            raise InvalidSettingsError(f"MoveFilter.margin must be >= 0, got {self.margin!r}")


#: Candidates of rank_moves searched at the requested depth (the rest keep 0-ply values).
ROOT_FILTER = MoveFilter(keep=8, margin=0.16)


@runtime_checkable
class Evaluator(Protocol):
    """Static (0-ply) cubeless evaluation, player on roll's view before the roll."""

    def evaluate(self, position: Position) -> np.ndarray:
        """The 5-vector of one position."""
        ...

    def evaluate_batch(self, boards: np.ndarray) -> np.ndarray:
        """(n, 5) probabilities of an (n, 26) int8 array of valid boards."""
        ...


def _boards_array(boards: Any) -> np.ndarray:
    """(n, 26) int8 array of valid boards from Positions or integer arrays, or a typed error."""
    if isinstance(boards, Position):
        return np.frombuffer(boards.to_bytes(), dtype=np.int8)[None, :].copy()
    if isinstance(boards, (list, tuple)) and boards and isinstance(boards[0], Position):
        return np.frombuffer(b"".join(p.to_bytes() for p in boards), dtype=np.int8).reshape(-1, NUM_SLOTS)
    try:
        return _nn.checked_boards(boards)
    except ValueError as error:
        raise InvalidPositionError(str(error)) from None


class NetworkEvaluator:
    """The engine's static evaluator: exact finished games, race tables, network for contact."""

    def __init__(self, network: _nn.NeuralNet, *, race_tables: bool = True) -> None:
        self.network = network
        self.race_tables = race_tables
        self._kernel: _engine.EngineCEvaluator | None = None

    @classmethod
    def from_file(cls, path: str | Path, **options: Any) -> NetworkEvaluator:
        """Load weights from an ``.npz`` written by ``bgengine.training.td`` (or shipped data)."""
        with np.load(path) as data:
            network = _nn.NeuralNet(
                data["hidden_weights"], data["hidden_bias"], data["output_weights"], data["output_bias"]
            )
        return cls(network, **options)

    def c_evaluator(self) -> _engine.EngineCEvaluator:
        """This evaluator for the core's kernels (n-ply search, rollouts, duels), made once."""
        kernel = self._kernel
        if kernel is None or kernel.network is not self.network or (kernel.tables is not None) != self.race_tables:
            tables = None
            if self.race_tables:
                from bgengine.evaluation import bearoff

                tables = bearoff.race_tables()
            kernel = self._kernel = _engine.EngineCEvaluator(self.network, tables)
        return kernel

    def evaluate(self, position: Position) -> np.ndarray:
        """The 5-vector of one position (player on roll's view)."""
        return self.evaluate_batch(_boards_array(position))[0]

    def evaluate_batch(self, boards: Any) -> np.ndarray:
        """(n, 5) float32 probabilities of valid boards (Positions or an (n, 26) array)."""
        return self.evaluate_plies(_boards_array(boards), 0)

    def evaluate_plies(self, boards: np.ndarray, plies: int, move_filter: MoveFilter | None = None) -> np.ndarray:
        """(n, 5) probabilities of checked (n, 26) boards looked ahead ``plies`` rolls."""
        return _lookahead(self.c_evaluator(), boards, plies, move_filter)


def _lookahead(
    evaluator: _evaluator.CEvaluator, boards: np.ndarray, plies: int, move_filter: MoveFilter | None
) -> np.ndarray:
    """The C search over a C evaluator (the engine's runs without the GIL)."""
    move_filter = move_filter or MoveFilter()
    return _nply.nply_evaluate(evaluator, boards, plies, move_filter.keep, move_filter.margin)


class _RowByRowEvaluator:
    """Base of the test doubles: ``evaluate_batch`` asks ``_row`` for each board."""

    def evaluate(self, position: Position) -> np.ndarray:
        return self.evaluate_batch(_boards_array(position))[0]

    def evaluate_batch(self, boards: Any) -> np.ndarray:
        rows = _boards_array(boards)
        out = np.empty((len(rows), 5), dtype=np.float32)
        for i, row in enumerate(rows):
            out[i] = self._row(row.tobytes())
        return out

    def _row(self, board: bytes) -> Sequence[float]:
        raise NotImplementedError


class RandomEvaluator(_RowByRowEvaluator):
    """Test double: consistent random probabilities, the same for the same position and seed."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def _row(self, board: bytes) -> Sequence[float]:
        digest = hashlib.blake2b(board, digest_size=8, key=str(self.seed).encode()).digest()
        u = np.random.default_rng(int.from_bytes(digest, "little")).random(5)
        win = u[0]
        return (win, win * u[1], win * u[1] * u[2], (1 - win) * u[3], (1 - win) * u[3] * u[4])


class FakeEvaluator(_RowByRowEvaluator):
    """Test double: fixed probabilities per position (``default`` for the rest, else KeyError)."""

    def __init__(self, table: Mapping[Position, Sequence[float]], default: Sequence[float] | None = None) -> None:
        self.table = {position.to_bytes(): np.asarray(p, dtype=np.float32) for position, p in table.items()}
        self.default = None if default is None else np.asarray(default, dtype=np.float32)

    def _row(self, board: bytes) -> Sequence[float]:
        found = self.table.get(board, self.default)
        if found is None:
            raise KeyError(f"FakeEvaluator has no probabilities for {Position._trusted(board)!r}")
        return found  # type: ignore[return-value]


@functools.lru_cache(maxsize=1)
def default_evaluator() -> NetworkEvaluator:
    """The engine's evaluator with the weights shipped in the package (loaded once)."""
    with resources.as_file(resources.files("bgengine").joinpath(WEIGHTS_RESOURCE)) as path:
        return NetworkEvaluator.from_file(path)


def weights_record() -> dict[str, Any]:
    """How the shipped weights were made: training settings, games, time, strength history."""
    with resources.as_file(resources.files("bgengine").joinpath(WEIGHTS_RESOURCE)) as path:
        with np.load(path) as data:
            return json.loads(str(data["record"]))  # type: ignore[no-any-return]


def _checked_plies(plies: int) -> int:
    if isinstance(plies, bool) or not isinstance(plies, (int, np.integer)) or not 0 <= plies <= MAX_PLIES:
        raise InvalidSettingsError(f"plies must be an integer 0..{MAX_PLIES}, got {plies!r}")
    return int(plies)


def _probabilities(evaluator: Any, boards: np.ndarray, plies: int, move_filter: MoveFilter | None) -> np.ndarray:
    """n-ply probabilities with any evaluator (the engine's runs in C without the GIL)."""
    if isinstance(evaluator, NetworkEvaluator):
        return evaluator.evaluate_plies(boards, plies, move_filter)
    return _lookahead(_evaluator.PythonEvaluator(evaluator), boards, plies, move_filter)


def evaluate(
    position: Position,
    *,
    plies: int = 0,
    evaluator: Evaluator | None = None,
    move_filter: MoveFilter | None = None,
) -> Evaluation:
    """Cubeless probabilities of ``position`` for the player on roll, before the roll.

    ``plies`` = 0 is the static evaluation; n > 0 averages the 21 rolls, each with the
    best reply searched at n-1 plies (among the candidates ``move_filter`` keeps).
    """
    checked_position(position)
    plies = _checked_plies(plies)
    evaluator = evaluator or default_evaluator()
    result = _probabilities(evaluator, _boards_array(position), plies, move_filter)[0]
    return Evaluation(GameProbabilities.from_estimate(result), plies)


def rank_moves(
    position: Position,
    dice: Roll,
    *,
    plies: int = 0,
    evaluator: Evaluator | None = None,
    move_filter: MoveFilter | None = None,
    candidates: MoveFilter = ROOT_FILTER,
) -> list[RankedMove]:
    """Every legal move of ``dice`` with its probabilities and equity (mover's view), best first.

    All moves are evaluated at 0-ply; with ``plies`` > 0 the best ``candidates`` are then
    searched at that depth (each resulting position looked ahead ``plies`` rolls) and rank
    above the others.
    """
    return rank_legal_moves(
        legal_moves(checked_position(position), dice),
        plies=plies, evaluator=evaluator, move_filter=move_filter, candidates=candidates,
    )


def rank_legal_moves(
    legal: MoveList,
    *,
    plies: int = 0,
    evaluator: Evaluator | None = None,
    move_filter: MoveFilter | None = None,
    candidates: MoveFilter = ROOT_FILTER,
) -> list[RankedMove]:
    """``rank_moves`` for moves already generated (a ``MoveList``)."""
    plies = _checked_plies(plies)
    evaluator = evaluator or default_evaluator()
    children = np.ascontiguousarray(legal.positions)
    values = _probabilities(evaluator, children, 0, move_filter)
    depth = np.zeros(len(children), dtype=int)
    if plies > 0:
        equities = equity(values)  # the next player's: lower is better for the mover
        order = np.argsort(equities, kind="stable")[: candidates.keep]
        chosen = order[equities[order] <= equities[order[0]] + candidates.margin]
        values[chosen] = _probabilities(evaluator, children[chosen], plies, move_filter)
        depth[chosen] = plies
    mover_view = flipped(values)
    ranked = [
        RankedMove(
            move=legal.moves[i],
            position=legal.position_after(i),
            probabilities=GameProbabilities.from_estimate(mover_view[i]),
            plies=int(depth[i]),
        )
        for i in range(len(children))
    ]
    ranked.sort(key=lambda m: (-m.plies, -m.equity))
    return ranked


def best_move(
    position: Position,
    dice: Roll,
    *,
    plies: int = 0,
    evaluator: Evaluator | None = None,
    move_filter: MoveFilter | None = None,
) -> RankedMove:
    """The best legal move of ``dice`` at ``plies`` (see ``rank_moves``)."""
    return rank_moves(position, dice, plies=plies, evaluator=evaluator, move_filter=move_filter)[0]

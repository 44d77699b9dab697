"""Position evaluation (0-ply and n-ply) and move ranking.

Probabilities are the cumulative 5-vector (win, win_gammon, win_backgammon, lose_gammon,
lose_backgammon) from the player on roll, before the roll. An evaluator is anything with
``evaluate(position)`` and ``evaluate_batch(boards)``; the engine's own is
``NetworkEvaluator`` (finished games exact, two-sided bear-offs exact from the table, other
races from the race network or the race tables, crashed positions from the crashed network
when there is one, the other contact positions from the engine's network). n-ply lookahead
averages the
21 rolls, each with the best reply searched one ply less among the few best 0-ply
candidates (``MoveFilter``).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from bgcore import _engine, _evaluator, _nn, _nply, _single

from bgengine.errors import InvalidPositionError, InvalidSettingsError, NetworkClassError
from bgengine.evaluation.contact_network import ContactNetwork
from bgengine.evaluation.network_weights import load_network, network_digest
from bgengine.evaluation.race_network import RaceNetwork, shipped_race_network, with_contact
from bgengine.move import Move, MoveList, Roll, legal_moves
from bgengine.position import NUM_SLOTS, Position, checked_position
from bgengine.probabilities import GameProbabilities, equity, flipped

MAX_PLIES = 3
#: Plays the choice network re-values (NetworkEvaluator): x18's best 3 held gnubg's best
#: play in 96% of the judge's decisions (docs/evaluator.md, "Session 23").
DEFAULT_SHORTLIST = 3
MAX_SHORTLIST = _evaluator.LONGEST_SHORTLIST
WEIGHTS_RESOURCE = "data/evaluator_weights.npz"
#: The crashed-position network, shipped when there is one (loaded by ``default_evaluator``).
CRASHED_WEIGHTS_RESOURCE = "data/crashed_weights.npz"
#: The move choice's second stage, shipped when there is one (loaded by ``default_evaluator``).
CHOICE_WEIGHTS_RESOURCE = "data/choice_weights.npz"


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
    """One legal move with its evaluation from the view of the player making it.

    ``rank_moves`` with the engine's evaluator builds these lazily: the move, the position
    and the probabilities of each are made from the core's buffers when first read.
    """

    move: Move
    position: Position  # after the move, seen from the next player on roll
    probabilities: GameProbabilities  # the mover's view
    plies: int  # how deep this move was searched

    @property
    def equity(self) -> float:
        """Cubeless money equity for the player making the move."""
        return self.probabilities.equity

    def __reduce__(self) -> tuple[Any, ...]:
        return (RankedMove, (self.move, self.position, self.probabilities, self.plies))


class _FromRanking:
    """A field of a lazily built RankedMove (``_single.Ranking.lazy_items``: attributes
    ``_source`` the MoveList, ``_ranking``, ``_index`` the child), made on first read and
    then kept. A RankedMove built by its constructor holds its fields in its own
    ``__dict__``, which Python reads before this (non-data) descriptor."""

    def __init__(self, name: str, build: Callable[[Any], Any]) -> None:
        self.name = name
        self.build = build

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.build(instance)
        return value


for _field in (
    _FromRanking("move", lambda ranked: ranked._source.move(ranked._index)),
    _FromRanking("position", lambda ranked: ranked._source.position_after(ranked._index)),
    _FromRanking(
        "probabilities", lambda ranked: GameProbabilities._trusted(ranked._ranking.probabilities(ranked._index))
    ),
):
    setattr(RankedMove, _field.name, _field)


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
_DEFAULT_FILTER = MoveFilter()
_SOURCES = tuple(f"{plies}-ply" for plies in range(MAX_PLIES + 1))


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


def crashed_network_of(crashed: _nn.NeuralNet | str | Path | None) -> _nn.NeuralNet | None:
    """A crashed-position network given as a network, a weights file (which must say it is
    for crashed positions, else NetworkClassError) or None (none)."""
    if crashed is None or isinstance(crashed, _nn.NeuralNet):
        return crashed
    if isinstance(crashed, (str, Path)):
        return load_network(crashed, position_class="crashed")
    raise NetworkClassError(f"a crashed network is a NeuralNet, a weights path or None, got {type(crashed).__name__}")


def choice_network_of(choice: _nn.NeuralNet | str | Path | None) -> _nn.NeuralNet | None:
    """A choice network (a contact network: ``NetworkEvaluator``'s second stage) given as a
    network, a weights file or None (none)."""
    if choice is None or isinstance(choice, _nn.NeuralNet):
        return choice
    if isinstance(choice, (str, Path)):
        return load_network(choice, position_class="contact")
    raise NetworkClassError(f"a choice network is a NeuralNet, a weights path or None, got {type(choice).__name__}")


def engine_kernel(network: _nn.NeuralNet, tables: Any, race: Any, crashed: _nn.NeuralNet | None,
                  choice: _nn.NeuralNet | None = None, shortlist: int = DEFAULT_SHORTLIST) -> _engine.EngineCEvaluator:
    """The core's composite evaluator of these networks (``tables`` a RaceTables, ``race`` a
    RaceNet, either None); with ``choice``, its second stage: the same composite with
    ``choice`` in ``network``'s place, re-valuing ``shortlist`` plays."""
    if choice is None:
        return _engine.EngineCEvaluator(network, tables, race, crashed)
    second = _engine.EngineCEvaluator(choice, tables, race, crashed)
    return _engine.EngineCEvaluator(network, tables, race, crashed, second, shortlist)


class NetworkEvaluator:
    """The engine's static evaluator: exact finished games, race tables, networks for contact.

    With ``race_network``, races outside the exact two-sided table are valued by that
    network (in C, ``RaceNetwork.c_network``) instead of the race approximation; with
    ``crashed_network`` (a NeuralNet or the path of a crashed weights file), crashed
    positions (``bgengine.training.classes``) by that network instead of ``network`` (in
    C, the engine's class dispatch); with ``contact_network``, positions with contact by
    that correction of ``network``. The contact correction runs in Python (numpy), the
    search calling back into it, so it is slower than the all-C paths.

    With ``choice_network`` (a wider, slower contact network, or its weights file) plays are
    judged by it: a ranking's 0-ply values come from it in ``network``'s place
    (``ranking_evaluator``), and where the engine plays at 0-ply (rollouts, self-play) it
    re-values the best ``shortlist`` plays by ``network`` and the best of those is played.
    Evaluations of positions stay ``network``'s, n-ply searches included (their replies are
    chosen by ``network`` alone).
    """

    def __init__(self, network: _nn.NeuralNet, *, race_tables: bool = True,
                 race_network: RaceNetwork | None = None, contact_network: ContactNetwork | None = None,
                 crashed_network: _nn.NeuralNet | str | Path | None = None,
                 choice_network: _nn.NeuralNet | str | Path | None = None, shortlist: int = DEFAULT_SHORTLIST) -> None:
        self.network = network
        self.race_tables = race_tables
        self.race_network = race_network
        self.contact_network = contact_network
        self.crashed_network = crashed_network_of(crashed_network)
        self.choice_network = choice_network_of(choice_network)
        if self.choice_network is not None and contact_network is not None:
            raise InvalidSettingsError("a choice network works in C, without a contact network (numpy)")
        if isinstance(shortlist, bool) or not isinstance(shortlist, int) or not 1 <= shortlist <= MAX_SHORTLIST:
            raise InvalidSettingsError(f"shortlist must be an integer 1..{MAX_SHORTLIST}, got {shortlist!r}")
        self.shortlist = shortlist
        self._kernel: _engine.EngineCEvaluator | None = None

    @classmethod
    def from_file(cls, path: str | Path, **options: Any) -> NetworkEvaluator:
        """Load weights from an ``.npz`` written by ``bgengine.training.td`` (or shipped data),
        in the input encoding the file records; NetworkClassError for a crashed network's file."""
        return cls(load_network(path, position_class="contact"), **options)

    @property
    def all_in_c(self) -> bool:
        """True unless a contact network (numpy) takes part: the C fast paths apply."""
        return self.contact_network is None

    def c_evaluator(self) -> _engine.EngineCEvaluator:
        """This evaluator for the core's kernels (n-ply search, rollouts, duels), made once
        (the contact network, numpy, is not part of it)."""
        race = None if self.race_network is None else self.race_network.c_network
        kernel = self._kernel
        second = None if kernel is None else kernel.second_stage
        if (kernel is None or kernel.network is not self.network or kernel.race_network is not race
                or kernel.crashed_network is not self.crashed_network
                or (kernel.tables is not None) != self.race_tables
                or (None if second is None else second.network) is not self.choice_network
                or (second is not None and kernel.shortlist != self.shortlist)):
            tables = None
            if self.race_tables:
                from bgengine.evaluation import bearoff

                tables = bearoff.race_tables()
            kernel = self._kernel = engine_kernel(self.network, tables, race, self.crashed_network,
                                                  self.choice_network, self.shortlist)
        return kernel

    def ranking_evaluator(self) -> NetworkEvaluator:
        """The evaluator whose 0-ply values rank plays: this one, or with a choice network
        the same composite with it in the contact network's place (sharing its kernel)."""
        if self.choice_network is None:
            return self
        kernel = self.c_evaluator()
        ranking = NetworkEvaluator(self.choice_network, race_tables=self.race_tables, race_network=self.race_network,
                                   crashed_network=self.crashed_network)
        ranking._kernel = kernel.second_stage
        return ranking

    def evaluate(self, position: Position) -> np.ndarray:
        """The 5-vector of one position (player on roll's view)."""
        return self.evaluate_batch(_boards_array(position))[0]

    def evaluate_batch(self, boards: Any) -> np.ndarray:
        """(n, 5) float32 probabilities of valid boards (Positions or an (n, 26) array)."""
        return self.evaluate_plies(_boards_array(boards), 0)

    def evaluate_plies(self, boards: np.ndarray, plies: int, move_filter: MoveFilter | None = None) -> np.ndarray:
        """(n, 5) probabilities of checked (n, 26) boards looked ahead ``plies`` rolls."""
        if self.contact_network is not None:
            return _lookahead(_evaluator.PythonEvaluator(_WithContactNetwork(self)), boards, plies, move_filter)
        return _lookahead(self.c_evaluator(), boards, plies, move_filter)


class _WithContactNetwork:
    """Static values of the engine's evaluator, with positions with contact replaced by its
    contact network (numpy)."""

    def __init__(self, engine: NetworkEvaluator) -> None:
        self.engine = engine

    def evaluate_batch(self, boards: np.ndarray) -> np.ndarray:
        values = _lookahead(self.engine.c_evaluator(), boards, 0, None)
        rows = with_contact(boards)
        if self.engine.contact_network is not None and rows.any():
            values[rows] = self.engine.contact_network.evaluate_batch(boards[rows])
        return values


def _lookahead(
    evaluator: _evaluator.CEvaluator, boards: np.ndarray, plies: int, move_filter: MoveFilter | None
) -> np.ndarray:
    """The C search over a C evaluator (the engine's runs without the GIL, each board a search
    with its own evaluation cache and kept hidden sums: the same values, sooner)."""
    move_filter = move_filter or _DEFAULT_FILTER
    if plies > 0 and isinstance(evaluator, _engine.EngineCEvaluator):
        return _single.probabilities_of_boards(evaluator, boards, plies, move_filter.keep, move_filter.margin)
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


@functools.lru_cache(maxsize=8)  # one hit per call however it is spelt (the calls are hot)
def default_evaluator(use_race_network: bool = True, use_crashed_network: bool = True,
                      use_choice_network: bool = True) -> NetworkEvaluator:
    """The engine's evaluator with the weights shipped in the package (loaded once).

    Races outside the exact two-sided table are valued by the shipped race network
    (``data/race_weights.npz``, in C); ``use_race_network=False``: by the race approximation.
    Crashed positions by the shipped crashed network (``data/crashed_weights.npz``) when the
    package has one and ``use_crashed_network``, else by the contact network like the rest.
    Plays ranked, and 0-ply move choices made in two stages, with the shipped choice network
    (``data/choice_weights.npz``) when the package has one and ``use_choice_network``.
    """
    return _default_evaluator(bool(use_race_network), bool(use_crashed_network), bool(use_choice_network))


@functools.lru_cache(maxsize=8)
def _default_evaluator(use_race_network: bool, use_crashed_network: bool, use_choice_network: bool) -> NetworkEvaluator:
    if use_race_network or use_crashed_network or use_choice_network:
        base = _default_evaluator(False, False, False)
        return NetworkEvaluator(base.network, race_network=shipped_race_network() if use_race_network else None,
                                crashed_network=shipped_crashed_network() if use_crashed_network else None,
                                choice_network=shipped_choice_network() if use_choice_network else None)
    with resources.as_file(resources.files("bgengine").joinpath(WEIGHTS_RESOURCE)) as path:
        return NetworkEvaluator.from_file(path)


def _shipped_network(resource_name: str, position_class: str) -> _nn.NeuralNet | None:
    """The network of a weights file in the package, or None when the package has none."""
    resource = resources.files("bgengine").joinpath(resource_name)
    if not resource.is_file():
        return None
    with resources.as_file(resource) as path:
        return load_network(path, position_class=position_class)


@functools.lru_cache(maxsize=1)
def shipped_crashed_network() -> _nn.NeuralNet | None:
    """The crashed-position network shipped in the package, or None when there is none."""
    return _shipped_network(CRASHED_WEIGHTS_RESOURCE, "crashed")


@functools.lru_cache(maxsize=1)
def shipped_choice_network() -> _nn.NeuralNet | None:
    """The choice network (the move choice's second stage) shipped in the package, or None."""
    return _shipped_network(CHOICE_WEIGHTS_RESOURCE, "contact")


_RECORDED = {"contact": WEIGHTS_RESOURCE, "crashed": CRASHED_WEIGHTS_RESOURCE, "choice": CHOICE_WEIGHTS_RESOURCE}


def weights_record(position_class: str = "contact") -> dict[str, Any] | None:
    """How the shipped weights of a network ("contact", "crashed" or "choice") were made:
    training settings, data, time, strength history; None when none is shipped."""
    name = _RECORDED.get(position_class)
    if name is None:
        raise NetworkClassError(f"the network must be one of {', '.join(map(repr, _RECORDED))}, got {position_class!r}")
    resource = resources.files("bgengine").joinpath(name)
    if not resource.is_file():
        return None
    with resources.as_file(resource) as path:
        with np.load(path) as data:
            return json.loads(str(data["record"]))  # type: ignore[no-any-return]


def evaluator_identity(evaluator: NetworkEvaluator) -> dict[str, str | int | None]:
    """Short digests of the networks an evaluator uses (contact, crashed, choice; None: no
    such network) and its short list, for whatever keys results by the networks that made them."""
    identity: dict[str, str | int | None] = {
        "contact": network_digest(evaluator.network),
        "crashed": None if evaluator.crashed_network is None else network_digest(evaluator.crashed_network)}
    if evaluator.choice_network is not None:
        identity["choice"] = network_digest(evaluator.choice_network)
        identity["shortlist"] = evaluator.shortlist
    return identity


def _checked_plies(plies: int) -> int:
    if type(plies) is int and 0 <= plies <= MAX_PLIES:
        return plies
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
    if type(evaluator) is NetworkEvaluator and evaluator.all_in_c:  # the fast path: same values, no arrays
        search = move_filter or _DEFAULT_FILTER
        evaluation: Evaluation | None = _single.evaluation(
            evaluator.c_evaluator(), position._board, plies, search.keep, search.margin,
            GameProbabilities, Evaluation, _SOURCES[plies],
        )
        if evaluation is not None:
            return evaluation
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

    All moves are evaluated at 0-ply (by the evaluator's ``ranking_evaluator()``: with a
    choice network, by it); with ``plies`` > 0 the best ``candidates`` are then
    searched at that depth (each resulting position looked ahead ``plies`` rolls) and rank
    above the others.
    """
    return rank_legal_moves(
        legal_moves(checked_position(position), dice),
        plies=plies, evaluator=evaluator, move_filter=move_filter, candidates=candidates,
    )


#: The mover's equity of each child from its 0-ply probabilities (mover's view, (n, 5)), by
#: which ``rank_legal_moves`` picks the candidates it searches deeper.
CandidateEquity = Callable[[np.ndarray], np.ndarray | Sequence[float]]


def rank_legal_moves(
    legal: MoveList,
    *,
    plies: int = 0,
    evaluator: Evaluator | None = None,
    move_filter: MoveFilter | None = None,
    candidates: MoveFilter = ROOT_FILTER,
    candidate_equity: CandidateEquity | None = None,
) -> list[RankedMove]:
    """``rank_moves`` for moves already generated (a ``MoveList``).

    The candidates searched ``plies`` deep are chosen by cubeless money equity at 0-ply,
    or by ``candidate_equity`` (e.g. a match analysis's measure at the score) when given.
    """
    plies = _checked_plies(plies)
    evaluator = evaluator or default_evaluator()
    chosen = None
    if plies > 0 and candidate_equity is not None:
        zero_ply = flipped(_probabilities(_ranking_evaluator(evaluator), np.ascontiguousarray(legal.positions), 0,
                                          move_filter))
        chosen = choose_candidates(np.asarray(candidate_equity(zero_ply), dtype=np.float64), candidates)
    if type(evaluator) is NetworkEvaluator and evaluator.all_in_c and type(candidates.margin) in (float, int):
        # The fast path: children ranked in C, RankedMoves filled in when read. (A numpy
        # margin would make the general path compare in float64: that one takes it.)
        search = move_filter or _DEFAULT_FILTER
        ranking = _single.rank_children(
            evaluator.c_evaluator(), legal._children, plies, search.keep, search.margin,
            candidates.keep, candidates.margin, None if chosen is None else chosen.tolist(),
        )
        if ranking is not None:
            return ranking.lazy_items(RankedMove, legal)
    children = np.ascontiguousarray(legal.positions)
    values = _probabilities(_ranking_evaluator(evaluator), children, 0, move_filter)
    depth = np.zeros(len(children), dtype=int)
    if plies > 0:
        if chosen is None:
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


def _ranking_evaluator(evaluator: Any) -> Any:
    """The evaluator whose 0-ply values rank plays (``NetworkEvaluator.ranking_evaluator``)."""
    return evaluator.ranking_evaluator() if isinstance(evaluator, NetworkEvaluator) else evaluator


def choose_candidates(equities: np.ndarray, candidates: MoveFilter = ROOT_FILTER) -> np.ndarray:
    """Indices of the best ``candidates.keep`` of ``equities`` (the mover's) within
    ``candidates.margin`` of the best, best first, ties to the lower index."""
    order = np.argsort(-equities, kind="stable")[: candidates.keep]
    return order[equities[order] >= equities[order[0]] - candidates.margin]


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

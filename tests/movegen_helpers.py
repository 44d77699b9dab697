"""Shared checks of the move-generation tests: the core against the reference generator."""

from __future__ import annotations


import numpy as np
from bgengine import Move, Position
from reference_movegen import play_step, reference_children, step_is_legal

ALL_ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]


def board_of(position: Position) -> tuple[int, ...]:
    return tuple(int(x) for x in np.asarray(position))


def core_children(position: Position, dice: tuple[int, int]) -> list[tuple[int, ...]]:
    """The core's children as tuples, in the order it returns them."""
    return [tuple(int(x) for x in row) for row in position.legal_moves(dice).positions]


def assert_core_matches_reference(position: Position, dice: tuple[int, int]) -> None:
    """Same set of children as the reference generator, each listed once."""
    children = core_children(position, dice)
    assert len(children) == len(set(children)), f"duplicate children for {dice}"
    assert set(children) == reference_children(board_of(position), *dice), f"{position!r} {dice}"


def assert_records_replay(position: Position, dice: tuple[int, int]) -> None:
    """Each recorded move is a legal sequence of single-die steps that yields its child."""
    moves = position.legal_moves(dice)
    expected_steps = max(len(move.steps) for move in moves.moves)
    for move, child in moves:
        board = board_of(position)
        dice_left = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
        assert len(move.steps) == expected_steps
        for source, target, hit in move.steps:
            die = _die_of_step(board, source, target, dice_left)
            assert die is not None, f"{move}: no die plays {source}/{target}"
            dice_left.remove(die)
            board, did_hit = play_step(board, source, die)
            assert did_hit == hit
        assert tuple(-board[25 - i] for i in range(26)) == board_of(child)


def _die_of_step(board: tuple[int, ...], source: int, target: int, dice_left: list[int]) -> int | None:
    for die in sorted(set(dice_left)):
        lands = max(0, source - die)
        if lands == target and step_is_legal(board, source, die):
            return die
    return None


def count_built_moves(monkeypatch) -> list[int]:
    """A one-item list counting the Moves built from the core's records from now on."""
    built = [0]
    from_record = Move._from_record.__func__  # type: ignore[attr-defined]

    def counting(cls, record):
        built[0] += 1
        return from_record(cls, record)

    monkeypatch.setattr(Move, "_from_record", classmethod(counting))
    return built

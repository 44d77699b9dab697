"""Things that must agree exactly with GNU Backgammon (skipped when gnubg is not installed).

gnubg is only a measuring stick (benchmarks/gnubg_bridge.py): Position and Match IDs,
the legal moves of (position, roll) pairs, and exact two-sided bear-off probabilities.
All questions go to one gnubg process.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from gnubg_bridge import (  # noqa: E402
    GnubgEvaluation,
    best_moves_query,
    evaluations_query,
    gnubg_available,
    gnubg_board,
    match_ids_query,
    position_ids_query,
    run_queries,
)
from sample_positions import sampled_turns  # noqa: E402
from conftest import random_bearoff_positions  # noqa: E402

from bgengine import MatchState, Position, format_gnubg_ids, parse_gnubg_ids  # noqa: E402
from bgengine.evaluation import race  # noqa: E402
from bgengine.formats._bits import decode_base64_key  # noqa: E402

pytestmark = [
    pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon (gnubg) is not installed"),
    pytest.mark.slow,
]

#: gnubg 1.07 sets bit 66 of the Match ID when the Jacoby rule is off (always in match play).
GNUBG_NO_JACOBY_BIT = 66

SPECIAL_POSITIONS = [
    Position.initial(),
    Position.from_points({24: 2, 6: 5}, opponent={6: 3}, bar=2, opponent_bar=1),  # both sides on the bar
    Position.from_points({1: 1, 2: 14}, opponent={6: 15}),  # crowded bear-off
    Position.from_points({24: 2, 23: 2, 13: 5, 8: 3, 6: 3}, opponent={24: 1, 13: 4, 8: 3, 6: 5, 5: 2}),
]
SPECIAL_TURNS = [
    (Position.from_points({13: 2, 6: 5}, opponent={p: 2 for p in range(1, 7)}, bar=3), (4, 4)),  # closed out
    (Position.from_points({13: 2, 6: 5}, opponent={p: 2 for p in range(1, 6)}, bar=2), (6, 6)),  # enters on 19
    (Position.from_points({1: 3, 5: 2, 6: 1}, opponent={1: 4}), (6, 5)),  # bear-off, high and low dice
    (Position.from_points({4: 1, 5: 2}, opponent={2: 2}), (6, 6)),
]
MATCH_STATES = [
    MatchState(dice=(3, 1)),
    MatchState(jacoby=True, dice=(6, 6)),
    MatchState(cube_value=4, cube_owner=1, on_roll=1, dice=(5, 2)),
    MatchState(match_length=7, score=(3, 5), cube_value=2, cube_owner=1, on_roll=1, dice=(3, 1)),
    MatchState(match_length=5, score=(4, 2), crawford=True, dice=(2, 1)),
    MatchState(match_length=25, score=(24, 23)),
    MatchState(match_length=3, on_roll=1),
]


TURNS = sampled_turns(seed=3, count=120) + SPECIAL_TURNS
POSITIONS = list(dict.fromkeys([p for p, _ in TURNS] + SPECIAL_POSITIONS))
BEAROFFS = random_bearoff_positions(40)


@pytest.fixture(scope="module")
def gnubg_answers() -> dict[str, list]:
    """Every question of this module, answered by one gnubg process."""
    ids, matches, moves, bearoffs = run_queries(
        position_ids_query(POSITIONS), match_ids_query(MATCH_STATES), best_moves_query(TURNS),
        evaluations_query(BEAROFFS),
    )
    return {"position_ids": ids, "match_ids": matches, "moves": moves, "bearoffs": bearoffs}


def test_position_ids_match_what_gnubg_computes_for_the_same_boards(gnubg_answers):
    for position, (gnubg_id, _) in zip(POSITIONS, gnubg_answers["position_ids"], strict=True):
        assert position.gnubg_id() == gnubg_id, str(position)


def test_gnubg_decodes_our_position_ids_to_the_same_boards(gnubg_answers):
    for position, (_, board) in zip(POSITIONS, gnubg_answers["position_ids"], strict=True):
        assert board == gnubg_board(position), position.gnubg_id()


def test_match_ids_match_gnubg_in_every_field_we_encode(gnubg_answers):
    for state, gnubg_id in zip(MATCH_STATES, gnubg_answers["match_ids"], strict=True):
        ours = decode_base64_key(format_gnubg_ids(Position.initial(), state).split(":")[1], 12, "Match ID")
        theirs = decode_base64_key(gnubg_id, 12, "Match ID")
        fields = (1 << GNUBG_NO_JACOBY_BIT) - 1
        assert ours & fields == theirs & fields, (state, gnubg_id)
        if state.is_money:  # we write the Jacoby bit in money play only
            assert ours == theirs, (state, gnubg_id)


def test_gnubg_marks_match_ids_without_the_jacoby_rule_in_bit_66(gnubg_answers):
    for state, gnubg_id in zip(MATCH_STATES, gnubg_answers["match_ids"], strict=True):
        theirs = decode_base64_key(gnubg_id, 12, "Match ID")
        assert theirs >> GNUBG_NO_JACOBY_BIT == (not state.jacoby), (state, gnubg_id)


def test_match_ids_printed_by_gnubg_parse(gnubg_answers):
    for state, gnubg_id in zip(MATCH_STATES, gnubg_answers["match_ids"], strict=True):
        _, match = parse_gnubg_ids(f"{Position.initial().gnubg_id()}:{gnubg_id}")
        assert match is not None and match.score == state.score and match.cube_value == state.cube_value


def test_legal_moves_are_the_same_plays_as_gnubgs(gnubg_answers):
    for (position, dice), gnubg_moves in zip(TURNS, gnubg_answers["moves"], strict=True):
        legal = position.legal_moves(dice)
        if legal.is_pass():
            assert gnubg_moves == [], (position.gnubg_id(), dice)  # gnubg lists no move, we one empty move
            continue
        assert len(gnubg_moves) == len(legal), (position.gnubg_id(), dice)
        assert {m.position for m in gnubg_moves} == {legal_move.position for legal_move in legal}, (position.gnubg_id(), dice)


def test_a_closed_out_roll_is_a_pass_for_gnubg_too(gnubg_answers):
    counts = [len(moves) for moves in gnubg_answers["moves"][-len(SPECIAL_TURNS):]]
    assert counts[0] == 0 and min(counts[1:]) >= 1


def test_two_sided_bearoff_probabilities_equal_gnubgs_database(gnubg_answers):
    for position, theirs in zip(BEAROFFS, gnubg_answers["bearoffs"], strict=True):
        assert theirs.position_class == GnubgEvaluation.BEAROFF_DATABASE, position.gnubg_id()
        # gnubg stores each probability in 16 bits and builds it from the stored (rounded) values of
        # the positions after each roll, so its figures drift a few 1/65535 steps from the exact ones
        assert race.evaluate(position)[0] == pytest.approx(theirs.probabilities[0], abs=1e-4), position.gnubg_id()

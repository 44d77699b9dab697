"""Jellyfish .mat records: written and read back unchanged, a file written by another
program replayed through the rules, and bad files refused with the line and reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from bgengine.game.actions import Accept, Double, Pass, Play, Resign, Roll, Take
from bgengine.agents.base import HeuristicAgent, RandomAgent
from bgengine.errors import MatchFileError
from bgengine.game.record import Ending
from bgengine.game.match import Match
from bgengine.formats.mat import format_mat, parse_mat, read_mat, write_mat
from bgengine.position import GameResult
from bgengine.agents.play import play_match

from match_records import random_match, same_match

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("seed", range(12))
def test_written_and_read_back_is_the_same_match(seed):
    match = random_match(seed, length=1 + 2 * (seed % 6))
    again = parse_mat(format_mat(match))
    assert same_match(match, again)
    assert again.names == ("Alice_Liddell", "Bob")


def test_round_trip_keeps_cube_actions_and_resignations():
    match = random_match(3)
    assert any(isinstance(action, (Double, Take, Pass)) for game in match.games for action in game.actions)
    resigned = Match(3)
    resigned.push(Roll((5, 2)))
    resigned.push(Play(resigned.game.legal_moves().moves[0]))
    resigned.push(Resign(GameResult.GAMMON))
    resigned.push(Accept())
    text = format_mat(resigned)
    assert "Wins 2 points" in text
    again = parse_mat(text)
    assert same_match(resigned, again) and again.games[0].outcome.ending is Ending.RESIGNED  # type: ignore[union-attr]


def test_resignation_by_the_player_not_on_roll_is_read_from_the_wins_line():
    text = (
        " 3 point match\n\n Game 1\n A : 0                          B : 0\n"
        "  1) 31: 8/5 6/5                  42: 8/4 6/4\n"
        "  2) 21: 13/11 6/5\n"
        "                                  Wins 2 points\n"
    )
    match = parse_mat(text)  # player 1 is on roll; player 0 resigned a gammon
    assert match.games[0].actions[-2:] == (Resign(GameResult.GAMMON, 0), Accept())
    assert match.score == (0, 2)
    assert same_match(match, parse_mat(format_mat(match)))


def test_written_layout_has_the_jellyfish_lines():
    match = random_match(5, length=3)
    lines = format_mat(match).rstrip().splitlines()
    assert " 3 point match" in lines and " Game 1" in lines
    assert lines[lines.index(" Game 1") + 1].startswith(" Alice_Liddell : 0")
    assert any(line.startswith("  1) ") for line in lines)
    assert lines[-1].strip().endswith("and the match")


def test_write_and_read_a_file(tmp_path):
    match = random_match(8, length=5)
    path = tmp_path / "match.mat"
    write_mat(match, path)
    assert same_match(match, read_mat(path))


def move_line_of(text: str, row: str) -> int:
    """1-based number of the first line starting with ``row`` (such as '  3)')."""
    return next(number for number, line in enumerate(text.splitlines(), start=1) if line.startswith(row))


def test_illegal_move_is_refused_with_line_number_and_reason():
    text = format_mat(random_match(2, length=3))
    number = move_line_of(text, "  3)")
    lines = text.splitlines()
    lines[number - 1] = "  3) 21: 24/1                   " + lines[number - 1][33:]
    with pytest.raises(MatchFileError) as error:
        parse_mat("\n".join(lines))
    assert error.value.line_number == number
    assert "24/1" in error.value.reason


HEAD = " 3 point match\n Game 1\n A : 0   B : 0\n"
OPENED = HEAD + "  1) 31: 8/5 6/5  42: 8/4 6/4\n"


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("hello\n", 1, "point match"),
        ("", 0, "no ' N point match' line"),
        (" 0 point match\n", 1, "money sessions"),
        (" 3 point match\n\n Game 2\n", 3, "expected Game 1"),
        (" 3 point match\n Game 1\n nonsense\n", 3, "score line"),
        (" 3 point match\n Game 1\n A : 1   B : 0\n", 3, "does not follow"),
        (HEAD + "  1) 33: 8/5(2) 6/3(2)\n", 4, "opening roll cannot be a double"),
        (OPENED + "  2) Doubles => 4\n", 5, "cube is at 1"),
        (OPENED + "  2) 31: 8/x\n", 5, "cannot read the move"),
        (OPENED + "  2)  Takes\n", 5, "Take"),
        (OPENED + "  2)" + " " * 30 + "42: 8/4 6/4\n", 5, "column"),
        (HEAD + "  1) 31: 8/5 6/5 frobnicate\n", 4, "cannot read the move"),
        (OPENED + " Game 2\n", 5, "before Game 1 has ended"),
        (OPENED + "  2)  Doubles => 2\n      Wins 1 point\n", 6, "waits for take or pass"),
        (OPENED + "      Wins 5 points\n", 5, "not a resignation of 1, 2 or 3 times the cube"),
    ],
)
def test_bad_files_are_refused_with_line_and_reason(text, line, reason):
    with pytest.raises(MatchFileError) as error:
        parse_mat(text)
    assert error.value.line_number == line
    assert reason in error.value.reason


def test_incomplete_file_gives_the_match_so_far():
    match = parse_mat(" 3 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5  42: 8/4 6/4\n  2)  Doubles => 2\n")
    assert match.game.decision.value == "take or pass" and match.names == ("A", "B")


def test_match_file_error_is_a_value_error_with_the_line_in_its_message():
    error = MatchFileError(7, "something is wrong")
    assert isinstance(error, ValueError) and str(error) == "line 7: something is wrong"


def test_heuristic_match_round_trip():
    match = play_match(HeuristicAgent(), RandomAgent(4), 5, seed=4)
    assert same_match(match, parse_mat(format_mat(match)))


# ----- a file laid out by another program ---------------------------------------------
# tests/data/foreign_match.mat is a 5-point match laid out by hand in an XG-like layout
# from four seeded games: wider columns, header comments, each hop written out
# ("24/20 24/20 20/16 20/16"), and on some lines 25 for the bar, 0 for off, a "(2)"
# repeat and a hit left unmarked.


def test_foreign_file_is_read_and_replayed_by_the_rules():
    match = read_mat(DATA / "foreign_match.mat")
    assert match.names == ("Ivory", "Teal") and match.length == 5
    assert match.score == (5, 2) and match.winner == 0 and len(match.games) == 4
    first, crawford, post_crawford, last = match.games
    assert Double() in first.actions and Take() in first.actions
    assert (first.outcome.result, first.outcome.cube_value, first.outcome.points) == (GameResult.GAMMON, 2, 4)  # type: ignore[union-attr]
    assert crawford.starting_state.crawford and not any(isinstance(a, Double) for a in crawford.actions)
    assert crawford.starting_state.score == (4, 0) and crawford.outcome.winner == 1  # type: ignore[union-attr]
    assert post_crawford.starting_state.is_post_crawford and post_crawford.actions[-2:] == (Double(), Pass())
    assert post_crawford.outcome.ending is Ending.PASSED and last.outcome.winner == 0  # type: ignore[union-attr]


def test_foreign_file_read_then_written_and_read_again_is_the_same_match():
    match = read_mat(DATA / "foreign_match.mat")
    assert same_match(match, parse_mat(format_mat(match)))


def foreign_file_error(line: str, replacement: str) -> tuple[MatchFileError, int]:
    """The error reading the foreign file with ``line`` replaced, and that line's number."""
    lines = (DATA / "foreign_match.mat").read_text().splitlines()
    number = lines.index(line) + 1
    lines[number - 1] = replacement
    with pytest.raises(MatchFileError) as error:
        parse_mat("\n".join(lines))
    return error.value, number


def test_foreign_file_with_an_illegal_move_names_its_line():
    error, number = foreign_file_error(
        "  5) 33: 16/13 16/13 13/10 13/10     63: 8/2 13/10", "  5) 33: 16/13 16/13 13/10 13/7      63: 8/2 13/10"
    )
    assert error.line_number == number
    assert "13/7" in error.reason and "not a legal play of 3-3" in error.reason


def test_foreign_file_with_a_double_in_the_crawford_game_names_its_line():
    error, number = foreign_file_error(
        "  2) 65: 24/18 13/8                  21: 8/6 8/7*", "  2) 65: 24/18 13/8                   Doubles => 2"
    )
    assert error.line_number == number and "Crawford game" in error.reason


def test_foreign_file_with_wrong_points_names_its_line():
    text = (DATA / "foreign_match.mat").read_text().replace("      Wins 4 points", "      Wins 2 points")
    with pytest.raises(MatchFileError, match="won by player 0 for 4"):
        parse_mat(text)


def test_swapped_move_lines_are_refused_by_their_numbers():
    """Swapping two lines is caught by the numbers even where both plays stay legal (issue 16)."""
    lines = (DATA / "foreign_match.mat").read_text().splitlines()
    sixth = next(i for i, text in enumerate(lines) if text.startswith("  6) 63: 8/2 13/10"))
    lines[sixth], lines[sixth + 1] = lines[sixth + 1], lines[sixth]
    with pytest.raises(MatchFileError, match=r"move number 7\) where 6\) was due") as error:
        parse_mat("\n".join(lines))
    assert error.value.line_number == sixth + 1


@pytest.mark.parametrize(
    ("replacement", "due"),
    [("  7) 63: 8/2 13/10", "6"), ("  5) 63: 8/2 13/10", "6")],
    ids=["a-number-dropped", "a-number-repeated"],
)
def test_dropped_or_repeated_move_numbers_are_refused(replacement, due):
    """The plays are unchanged and legal: only the numbering is wrong."""
    text = (DATA / "foreign_match.mat").read_text().replace("  6) 63: 8/2 13/10", replacement)
    with pytest.raises(MatchFileError, match=rf"where {due}\) was due"):
        parse_mat(text)

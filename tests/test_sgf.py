"""GNU Backgammon .sgf match files: written and read back, gnubg's own file read, bad files refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgengine import Match, format_sgf, parse_sgf, read_mat, read_sgf, write_sgf
from bgengine.errors import MatchFileError
from bgengine.game.actions import Accept, Double, Pass, Play, Resign, Roll, Take
from bgengine.game.record import Ending
from bgengine.position import GameResult

from match_records import random_match, same_match

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("seed", range(8))
def test_written_and_read_back_is_the_same_match(seed):
    match = random_match(seed, length=1 + 2 * (seed % 5), names=("Alice [A]", "Bob"))
    again = parse_sgf(format_sgf(match))
    assert same_match(match, again)
    assert again.names == ("Alice [A]", "Bob")


def test_cube_actions_and_resignations_survive_the_round_trip(tmp_path):
    match = random_match(3)
    assert any(isinstance(action, (Double, Take, Pass)) for game in match.games for action in game.actions)
    resigned = Match(3)
    resigned.push(Roll((5, 2)))
    resigned.push(Play(resigned.game.legal_moves().moves[0]))
    resigned.push(Resign(GameResult.GAMMON))
    resigned.push(Accept())
    write_sgf(resigned, tmp_path / "resigned.sgf")
    text = (tmp_path / "resigned.sgf").read_text()
    assert "RE[W+2R]" in text  # player 1 (on roll after the opening) resigned a gammon
    again = read_sgf(tmp_path / "resigned.sgf")
    assert same_match(resigned, again) and again.games[0].outcome.ending is Ending.RESIGNED  # type: ignore[union-attr]


def test_gnubgs_own_file_is_the_same_match_as_its_mat_export():
    from_sgf = read_sgf(DATA / "gnubg_match_5.sgf")
    from_mat = read_mat(DATA / "gnubg_match_5.mat")
    assert same_match(from_sgf, from_mat)
    assert from_sgf.is_over and from_sgf.names == ("gnubg", "root")


def test_hops_are_written_in_each_players_numbering():
    match = Match(1)
    match.push(Roll((1, 3)))  # player 1 opens 31
    match.push(Play("8/5 6/5"))
    text = format_sgf(match)
    assert ";B[31" in text
    # black's 8 and 6 are letters 24-8 = q and 24-6 = s; its 5 is t
    assert ";B[31qtst]" in text or ";B[31stqt]" in text


GOOD = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]\n;W[31hefe]\n;B[double]\n)"


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("", 0, "no game tree"),
        ("(;FF[4]MI[length:3]\n;W[31hefe])", 1, "GM is missing"),
        ("(;FF[4]GM[1]MI[length:3]\n;W[31hefe])", 1, "GM[1] is not backgammon"),
        ("(;GM[6]\n;W[31hefe])", 1, "MI is missing"),
        ("(;GM[6]MI[length:0]\n;W[31hefe])", 1, "money session"),
        ("(;GM[6]MI[length:3][game:0][ws:1][bs:0]\n;W[31hefe])", 1, "does not follow"),
        ("(;GM[6]MI[length:3]\n;W[31hefe]\n;B[31hefe])", 3, "B[31hefe]: a checker moves forward"),
        ("(;GM[6]MI[length:3]\n;W[31hefe]\n;W[42hdfd])", 3, "player 0 acts but player 1"),
        ("(;GM[6]MI[length:3]\n;W[33hefe])", 2, "opening roll cannot be a double"),
        ("(;GM[6]MI[length:3]\n;W[hello])", 2, "expected double, take, drop"),
        ("(;GM[6]MI[length:3]\n;W[31hefe](;B[31]))", 2, "variations"),
        ("(;GM[6]MI[length:3]\n;W[31hefe", 2, "not closed"),
        ("(;GM[6]MI[length:3]\n;AW[aa];W[31hefe])", 2, "AW: positions set up by hand"),
        ("(;GM[6]MI[length:3]\n;W[31hefe]\n", 3, "')' is missing"),
        ("(;GM[6]MI[length:3]RE[W+1]\n;W[31hefe]\n;B[double];W[take])(;GM[6]MI[length:3][game:1])", 1, "RE[W+1]: not a resignation"),
        ("(;GM[6]MI[length:3]\n;W[31hefe]\n;B[take])", 3, "take is not possible"),
    ],
)
def test_bad_files_name_the_line_and_the_property(text, line, fragment):
    with pytest.raises(MatchFileError) as caught:
        parse_sgf(text)
    assert caught.value.line_number == line, str(caught.value)
    assert fragment in str(caught.value)


def test_a_match_in_progress_is_read():
    match = parse_sgf(GOOD)
    assert not match.is_over and match.game.state.double_offered


def test_a_long_bad_value_is_cut_short_in_the_message_and_text_must_be_a_string():
    with pytest.raises(MatchFileError) as caught:
        parse_sgf("(;GM[6]MI[length:3]\n;W[" + "x" * 5000 + "])")
    assert caught.value.line_number == 2 and len(str(caught.value)) < 300
    with pytest.raises(MatchFileError):
        parse_sgf(b"(;GM[6])")  # type: ignore[arg-type]

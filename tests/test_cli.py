"""The bgengine command line, run in-process with click's CliRunner."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib import resources

import pytest
from click.testing import CliRunner

from bgengine import MatchState, Position, parse_xgid
from bgengine.cube.efficiency import CONTACT
from bgengine.cli import report as analysis
from bgengine.cli.commands import JSON_SCHEMA, cli

EXAMPLE_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"
OPENING_ID = "4HPwATDgc/ABMA"
OPENING_GNUBG = "4HPwATDgc/ABMA:MIEFAAAAAAAE"  # money, 31 rolled, player 0 on roll
# A bear-off, 7-point match at 3-1 for X, with O (player 1) on roll: 35 pips each.
RACE_XGID = "XGID=----BCB------------bcb----:0:0:-1:00:3:1:0:7:10"


def run(*args: str):
    return CliRunner().invoke(cli, list(args), prog_name="bgengine")


def run_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    validate(document)
    return document


def validate(document: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(resources.files("bgengine").joinpath("data/cli_schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(document)


def assert_bad_input(result, *fragments: str) -> None:
    """Exit code 2, nothing on stdout, one line on stderr naming the command and the fragments."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("bgengine")
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    assert result.stdout == ""


# ----- analyze --------------------------------------------------------------------------


def test_quick_start_example_shows_board_ids_pips_and_the_roll():
    result = run("analyze", EXAMPLE_XGID)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "+13-14-15-16-17-18-+---+19-20-21-22-23-24-+" in out
    assert f"XGID:              {EXAMPLE_XGID}" in out
    assert f"GNU Backgammon ID: {OPENING_ID}:" in out
    assert "Pips:              on roll 167, opponent 167 (even)" in out
    assert "Match:             Money game, cube centred" in out
    assert "Moves for 31" in out
    assert result.stderr == ""


def test_quick_start_example_lists_the_legal_plays_of_31():
    out = run("analyze", EXAMPLE_XGID).stdout
    assert "8/5 6/5" in out


@pytest.mark.parametrize("text", [OPENING_ID, OPENING_GNUBG, f"  {EXAMPLE_XGID}  "])
def test_analyze_reads_every_position_format(text):
    document = run_json("analyze", text)
    assert document["position"]["position_id"] == OPENING_ID
    assert document["position"]["board"] == [Position.initial()[i] for i in range(26)]


def test_analyze_json_has_the_documented_header_and_facts():
    document = run_json("analyze", EXAMPLE_XGID)
    assert document["schema"] == JSON_SCHEMA
    assert document["command"] == "analyze"
    assert document["position"]["xgid"] == EXAMPLE_XGID
    assert document["position"]["pips"] == {"on_roll": 167, "opponent": 167}
    assert document["position"]["phase"] == "contact"
    assert document["dice"] == [3, 1]
    assert document["match"]["length"] == 0
    assert document["match"]["cube"] == {"value": 1, "owner": None}
    assert document["game_over"] is None


def test_analyze_without_dice_has_no_moves():
    document = run_json("analyze", OPENING_ID)
    assert document["dice"] is None
    assert document["moves"] is None


def test_match_and_score_are_read_from_the_player_on_roll_side():
    position, match = parse_xgid(RACE_XGID)
    assert match.on_roll == 1
    document = run_json("analyze", RACE_XGID, "--match", "9", "--score", "2-5")
    assert document["match"]["score"] == {"on_roll": 2, "opponent": 5}
    assert document["match"]["away"] == {"on_roll": 7, "opponent": 4}
    # in the XGID the bottom player (0) comes first: the opponent here
    assert document["position"]["xgid"].endswith(":5:2:0:9:10")


def test_score_in_the_position_is_kept_without_options():
    document = run_json("analyze", RACE_XGID)
    assert document["match"]["length"] == 7
    assert document["match"]["score"] == {"on_roll": 1, "opponent": 3}
    assert document["match"]["on_roll_player"] == 1


def test_match_option_turns_a_money_position_into_a_match_at_zero_zero():
    document = run_json("analyze", OPENING_ID, "--match", "5")
    assert document["match"]["length"] == 5
    assert document["match"]["score"] == {"on_roll": 0, "opponent": 0}


def test_crawford_option_marks_the_crawford_game():
    document = run_json("analyze", OPENING_ID, "--match", "7", "--score", "6-4", "--crawford")
    assert document["match"]["crawford"] is True
    assert ":6:4:1:7:" in document["position"]["xgid"]


def test_analyze_text_shows_the_match_line():
    out = run("analyze", OPENING_ID, "--match", "7", "--score", "2-4").stdout
    assert "7-point match, score 2-4 (on roll 5-away, opponent 3-away), cube centred" in out


def test_analyze_text_of_a_race_shows_the_pip_lead():
    out = run("analyze", RACE_XGID).stdout
    assert "Phase:             bearoff" in out
    assert "on roll 35, opponent 35 (even)" in out


def test_finished_game_is_reported_as_over():
    finished = Position.from_points({}, {1: 15})  # the player on roll has borne off everything
    document = run_json("analyze", finished.gnubg_id())
    assert document["game_over"] == {"winner": "on_roll", "result": "gammon"}
    assert document["evaluation"] is None
    assert "Game over: the player on roll wins (gammon)." in run("analyze", finished.gnubg_id()).stdout


# ----- bad input: exit code 2 and one line saying what and where ------------------------


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["analyze", "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0"], ["'POSITION'", "10 fields", "got 8"]),
        (["analyze", "XGID=-b----E-C---eE---c-e----Z-:0:0:1:31:0:0:0:0:10"], ["'POSITION'", "26 characters"]),
        (["analyze", "XGID=-b----E-C---eE---c-e----B-:0:0:1:91:0:0:0:0:10"], ["'POSITION'", "dice"]),
        (["analyze", "XGID=-b----E-C---eE---c-e----BB:0:0:1:31:0:0:0:0:10"], ["'POSITION'", "more than 15 checkers"]),
        (["analyze", "4HPwATDgc/AB"], ["'POSITION'", "14 characters"]),
        (["analyze", "4HPwATDgc/AB!A"], ["'POSITION'", "outside base64"]),
        (["analyze", "////////////AA"], ["'POSITION'"]),
        (["analyze", ""], ["'POSITION'", "got nothing"]),
        (["analyze", OPENING_ID, "--dice", "71"], ["'--dice'", "'71'"]),
        (["analyze", OPENING_ID, "--dice", "3"], ["'--dice'"]),
        (["analyze", OPENING_ID, "--score", "3x1", "--match", "5"], ["'--score'", "'3x1'"]),
        (["analyze", OPENING_ID, "--score", "2-1"], ["--score", "needs a match length"]),
        (["analyze", OPENING_ID, "--match", "5", "--score", "5-1"], ["--score", "5 points in a 5-point match"]),
        (["analyze", OPENING_ID, "--match", "5", "--score", "1-7"], ["--score", "opponent has 7 points"]),
        (["analyze", OPENING_ID, "--match", "0"], ["--match", "at least 1"]),
        (["analyze", OPENING_ID, "--match", "seven"], ["'--match'", "'seven'"]),
        (["analyze", OPENING_ID, "--match", "7", "--score", "2-4", "--crawford"], ["Crawford"]),
        (["analyze", OPENING_ID, "--plies", "-1"], ["'--plies'"]),
        (["analyze", OPENING_ID, "--rollout", "0"], ["'--rollout'"]),
        (["analyze"], ["Missing argument 'POSITION'"]),
        (["analyze", OPENING_ID, "--frobnicate"], ["--frobnicate"]),
        (["moves", OPENING_ID, "7"], ["'DICE'"]),
        (["moves", "nonsense", "31"], ["'POSITION'"]),
        (["render", OPENING_ID], ["Missing option '-o'"]),
        (["render", OPENING_ID, "-o", "x.svg", "--orientation", "up"], ["'--orientation'"]),
        (["render", OPENING_ID, "-o", "x.svg", "--size", "0"], ["'--size'"]),
        (["bench", "--seconds", "100"], ["'--seconds'"]),
        (["frobnicate"], ["No such command 'frobnicate'"]),
    ],
)
def test_bad_input_exits_2_with_one_line_saying_what_and_where(args, fragments):
    assert_bad_input(run(*args), *fragments)


def test_internal_error_exits_1_with_one_line(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("bgengine.cli.commands.analyze_position", broken)
    result = run("analyze", OPENING_ID)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "internal error: RuntimeError: boom" in lines[0]
    assert "Traceback" not in result.stderr


def test_help_and_version_exit_0():
    commands = ("analyze", "moves", "render", "bench", "cube", "play", "train", "rollout")
    for args in (["--help"], ["--version"], *([command, "--help"] for command in commands)):
        result = run(*args)
        assert result.exit_code == 0, (args, result.stderr)
    assert "0.1" in run("--version").stdout


def test_python_dash_m_runs_the_same_command():
    completed = subprocess.run(
        [sys.executable, "-m", "bgengine", "analyze", "nonsense"], capture_output=True, text=True, timeout=60
    )
    assert completed.returncode == 2
    assert completed.stderr.startswith("bgengine analyze: Invalid value for 'POSITION'")


# ----- moves ----------------------------------------------------------------------------


def test_moves_lists_every_legal_play_once():
    document = run_json("moves", OPENING_ID, "31")
    moves = [entry["move"] for entry in document["moves"]["moves"]]
    assert document["dice"] == [3, 1]
    assert len(moves) == len(set(moves)) == document["moves"]["count"]
    assert "8/5 6/5" in moves
    assert "8/5 6/5" in run("moves", OPENING_ID, "3-1").stdout


def test_moves_refuses_a_finished_game():
    finished = Position.from_points({}, {1: 15})
    assert_bad_input(run("moves", finished.gnubg_id(), "31"), "the game is over")


# ----- render ---------------------------------------------------------------------------


def test_render_writes_a_valid_svg_file(tmp_path):
    target = tmp_path / "board.svg"
    result = run("render", EXAMPLE_XGID, "-o", str(target))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == f"wrote {target}"
    root = ET.fromstring(target.read_text())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("width") == "600"
    assert root.find("{http://www.w3.org/2000/svg}g[@id='dice']") is not None  # the XGID's 31


def test_render_options_reach_the_picture(tmp_path):
    target = tmp_path / "board.svg"
    document = run_json("render", OPENING_ID, "-o", str(target), "--size", "300", "--orientation", "left",
                        "--dice", "66", "--match", "7", "--score", "1-2")
    svg = target.read_text()
    assert document["output"] == str(target)
    assert document["bytes"] == len(svg.encode())
    assert document["size"] == 300 and document["orientation"] == "left"
    assert 'width="300"' in svg
    assert "7-point match" in svg and "score 1 (6-away)" in svg
    assert svg.count('r="4.2"') == 12  # two sixes


def test_render_to_standard_output():
    result = run("render", OPENING_ID, "-o", "-")
    assert result.exit_code == 0
    ET.fromstring(result.stdout)


def test_render_json_with_svg_on_standard_output_is_refused():
    assert_bad_input(run("render", OPENING_ID, "-o", "-", "--json"), "--json")


def test_render_to_an_unwritable_place_is_bad_input(tmp_path):
    assert_bad_input(run("render", OPENING_ID, "-o", str(tmp_path / "missing" / "b.svg")), "-o", "cannot write")


# ----- bench ----------------------------------------------------------------------------


def test_bench_reports_each_operation():
    result = run("bench", "--seconds", "0.01")
    assert result.exit_code == 0, result.stderr
    for name in ("parse XGID", "format XGID", "parse GNU Backgammon ID", "pip counts", "SVG board"):
        assert name in result.stdout


def test_moves_json_ranks_every_play_best_first_with_differences():
    document = run_json("moves", OPENING_ID, "31")
    entries = document["moves"]["moves"]
    assert document["moves"]["ranked_by"] == "0-ply" and len(entries) == 16
    assert entries[0]["move"] == "8/5 6/5" and entries[0]["difference"] == 0.0
    assert [e["rank"] for e in entries] == list(range(1, 17))
    equities = [e["equity"] for e in entries]
    assert equities == sorted(equities, reverse=True)
    assert all(e["difference"] == pytest.approx(e["equity"] - equities[0], abs=2e-6) for e in entries)


def test_bench_json_follows_the_schema():
    document = run_json("bench", "--seconds", "0.01")
    names = [r["name"] for r in document["results"]]
    assert "parse XGID" in names
    assert all(r["calls"] >= 1 and r["per_second"] > 0 for r in document["results"])
    assert "legal moves + notation (opening, 31)" in names


def test_json_schema_rejects_a_document_missing_a_field():
    jsonschema = pytest.importorskip("jsonschema")
    document = run_json("analyze", OPENING_ID)
    del document["position"]["pips"]
    with pytest.raises(jsonschema.ValidationError):
        validate(document)


def test_match_state_default_is_money():
    assert run_json("analyze", OPENING_ID)["match"] == {
        "length": 0,
        "score": {"on_roll": 0, "opponent": 0},
        "away": None,
        "on_roll_player": MatchState().on_roll,
        "cube": {"value": 1, "owner": None},
        "crawford": False,
        "jacoby": False,
        "beavers": False,
        "double_offered": False,
    }


# ----- capabilities that have landed ----------------------------------------------------

RACE_31 = RACE_XGID.replace(":00:", ":31:")


def test_race_positions_get_an_evaluation_and_ranked_moves():
    document = run_json("analyze", RACE_31)
    evaluation = document["evaluation"]
    assert evaluation["source"] in ("race", "0-ply")
    probabilities = evaluation["probabilities"]
    assert 0.0 < probabilities["win"] < 1.0
    assert probabilities["win_backgammon"] == probabilities["lose_backgammon"] == 0.0
    moves = document["moves"]
    equities = [entry["equity"] for entry in moves["moves"]]
    assert moves["ranked_by"] == evaluation["source"]
    assert equities == sorted(equities, reverse=True)
    assert moves["moves"][0]["difference"] == 0.0
    assert [entry["rank"] for entry in moves["moves"]] == list(range(1, len(equities) + 1))


def test_race_report_text_has_the_evaluation_table():
    out = run("analyze", RACE_31).stdout
    assert "Evaluation (" in out and "Equity" in out
    assert "ranked by" in out


def test_render_draws_a_legal_play_as_arrows(tmp_path):
    target = tmp_path / "b.svg"
    assert run("render", EXAMPLE_XGID, "-o", str(target), "--arrows", "8/5 6/5").exit_code == 0
    group = ET.fromstring(target.read_text()).find("{http://www.w3.org/2000/svg}g[@id='arrow-arrows']")
    assert len(group) == 2


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ([EXAMPLE_XGID, "--arrows", "8/4 6/5"], "not a legal play of 3-1"),
        ([OPENING_ID, "--arrows", "8/x"], "cannot read"),
    ],
)
def test_render_refuses_an_illegal_or_garbled_play(tmp_path, args, fragment):
    assert_bad_input(run("render", *args, "-o", str(tmp_path / "b.svg")), "--arrows", fragment)


def test_race_before_the_roll_gets_cube_advice():
    document = run_json("analyze", RACE_XGID)
    cube = document["cube"]
    assert cube["unit"] == "mwc"  # a 7-point match
    assert cube["action"] in {"No double / take", "Double / take", "Double / pass", "Too good to double / pass",
                              "Too good to double / take"}
    out = run("analyze", RACE_XGID).stdout
    assert "Cube decision before the roll (player on roll doubles; match winning chance)" in out
    assert f"Proper cube action: {cube['action']}" in out
    money = run_json("analyze", RACE_XGID.replace(":3:1:0:7:", ":0:0:0:0:"))["cube"]
    assert money["unit"] == "money" and money["emg"] is None


# ----- cube -----------------------------------------------------------------------------


def test_cube_command_with_given_probabilities_names_the_textbook_action():
    """90% wins and no gammons in a money game is a double and a pass."""
    document = run_json("cube", OPENING_ID, "--probabilities", "0.9,0,0,0,0")
    assert document["evaluation"]["source"] == "given"
    assert document["cube"]["action"] == "Double / pass"
    assert document["cube"]["double_pass"] == 1.0
    out = run("cube", OPENING_ID, "--probabilities", "0.9 0 0 0 0").stdout
    assert "Proper cube action: Double / pass" in out
    assert "Money game, cube centred" in out


def test_cube_command_names_redoubles_and_the_cube_efficiency_class():
    owned = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:4:0:7:10"  # the roller owns a 2-cube
    out = run("cube", owned, "--probabilities", "0.6,0.1,0,0.1,0").stdout
    assert "Redouble/Take" in out and "No redouble" in out and "Double/Take" not in out
    assert "(no position)" not in out  # a position is given: its class
    # the owned cube's x for No redouble, the opponent's for the redoubled cube
    assert (f"From 0-ply cubeless probabilities, cube efficiency {CONTACT.owned:.3f}, "
            f"{CONTACT.opponent_owns:.3f} once doubled (contact)") in out
    assert run_json("cube", owned)["cube"]["cube_efficiency_class"] == "contact"
    assert run_json("cube", owned)["cube"]["cubeful_search"] is False
    last_roll = "XGID=------A-----------------a-:0:0:1:00:4:2:0:7:10"
    assert run_json("cube", last_roll)["cube"]["cube_efficiency_class"] == "last roll"


def test_cube_command_evaluates_races_itself_and_takes_match_options():
    document = run_json("cube", RACE_XGID, "--match", "5", "--score", "0-3")
    assert document["evaluation"]["source"] in ("race", "0-ply")
    assert document["cube"]["unit"] == "mwc"
    assert document["match"]["away"] == {"on_roll": 5, "opponent": 2}


def test_cube_command_crawford_game_has_no_cube_action():
    document = run_json("cube", OPENING_ID, "--match", "5", "--score", "4-2", "--crawford",
                        "--probabilities", "0.7,0.2,0,0.1,0")
    assert document["cube"]["abbreviation"] == "-"


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--probabilities", "0.5,0.6"], ["'--probabilities'", "five numbers"]),
        (["--probabilities", "0.5,0.6,0,0,0"], ["--probabilities", "above win"]),
        (["--probabilities", "1.5,0,0,0,0"], ["'--probabilities'"]),
        (["--score", "1-1"], ["--score", "needs a match length"]),
    ],
)
def test_cube_command_bad_input(args, fragments):
    assert_bad_input(run("cube", OPENING_ID, *args), "bgengine cube:", *fragments)


RACE_ID = "5t4DAAC7ewIAAA"  # a money race outside the bear-off tables (13 checkers each)


def test_cube_command_plies_put_n_ply_chances_through_the_cube_model():
    from bgengine import cube_decision

    document = run_json("cube", OPENING_ID, "--plies", "1")
    expected = cube_decision(Position.from_gnubg_id(OPENING_ID), plies=1)
    assert document["evaluation"]["source"] == "1-ply"
    assert document["cube"]["plies"] == 1 and document["cube"]["trials"] is None
    assert document["cube"]["no_double"] == pytest.approx(expected.no_double, abs=1e-6)
    assert document["evaluation"]["probabilities"]["win"] == pytest.approx(expected.probabilities.win, abs=1e-6)
    assert run_json("cube", OPENING_ID)["cube"]["plies"] == 0


def test_cube_command_rollout_reports_standard_errors_and_repeats_with_its_seed():
    document = run_json("cube", RACE_ID, "--rollout", "72", "--seed", "5")
    cube = document["cube"]
    assert document["evaluation"]["source"] == "rollout"
    assert cube["trials"] == 72 and cube["seed"] == 5 and cube["plies"] is None
    assert cube["no_double_se"] > 0 and cube["double_take_se"] > 0 and cube["double_beaver_se"] is None
    assert run_json("cube", RACE_ID, "--rollout", "72", "--seed", "5")["cube"] == cube
    drawn = run_json("cube", RACE_ID, "--rollout", "72")["cube"]["seed"]
    assert run_json("cube", RACE_ID, "--rollout", "72", "--seed", str(drawn))["cube"]["seed"] == drawn
    out = run("cube", RACE_ID, "--rollout", "72", "--seed", "5").stdout
    assert "± 95%" in out and "cubeful rollout, 72 games per line, seed 5" in out


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--plies", "4"], ["'--plies'"]),
        (["--rollout", "0"], ["'--rollout'"]),
        (["--probabilities", "0.5,0,0,0,0", "--rollout", "72"], ["--rollout", "only one of"]),
        (["--plies", "1", "--probabilities", "0.5,0,0,0,0"], ["--plies", "only one of"]),
        (["--seed", "3"], ["--seed", "for --rollout"]),
    ],
)
def test_cube_command_bad_depth_or_rollout_options(args, fragments):
    assert_bad_input(run("cube", RACE_ID, *args), "bgengine cube:", *fragments)


def test_cube_command_refuses_a_finished_game():
    finished = Position.from_points({}, {1: 15})
    assert_bad_input(run("cube", finished.gnubg_id(), "--probabilities", "1,0,0,0,0"), "game is over")


# ----- play -----------------------------------------------------------------------------


def play(*args: str, typed: str):
    return CliRunner().invoke(cli, ["play", *args], input=typed, prog_name="bgengine")


def test_play_shows_the_board_and_stops_on_quit():
    result = play("--seed", "1", typed="q\n")
    assert result.exit_code == 0, result.stderr
    assert "+13-14-15-16-17-18-+" in result.stdout
    assert "Opening throw:" in result.stdout
    assert result.stdout.rstrip().endswith("Stopped.")


def test_play_refuses_an_illegal_move_and_asks_again():
    result = play("--seed", "3", typed="24/23\nmoves\nq\n")
    assert "Illegal move: 24/23 is not a legal play of 5-1" in result.stdout
    assert "Legal plays: " in result.stdout


def test_play_json_summarises_a_resigned_game_on_stdout():
    result = play("--seed", "1", "--json", typed="resign gammon\n")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    validate(document)
    assert "Opening throw:" in result.stderr  # the session goes to stderr with --json
    assert document["finished"] is True
    assert document["winner"] == "engine"
    assert document["score"] == {"you": 0, "engine": 2}
    assert document["games"] == [{"winner": "engine", "result": "gammon", "cube": 1, "points": 2}]


def test_play_a_match_and_save_it_as_mat(tmp_path):
    from bgengine import read_mat

    target = tmp_path / "m.mat"
    result = play("--seed", "1", "--match", "3", "--opponent", "random", "--name", "Ann", "--save", str(target),
                  "--json", typed="resign\n" * 3)
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    validate(document)
    assert document["score"] == {"you": 0, "engine": 3}
    assert document["saved"] == str(target)
    match = read_mat(target)
    assert match.score == (0, 3)
    assert match.is_over


def test_play_save_needs_a_match(tmp_path):
    assert_bad_input(play("--save", str(tmp_path / "x.mat"), typed=""), "bgengine play:", "--save", "--match")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [(["--seat", "2"], "'--seat'"), (["--opponent", "gnubg"], "'--opponent'"), (["--match", "-1"], "'--match'"),
     (["--seed", "x"], "'--seed'"), (["--opponent", "random", "--plies", "1"], "--plies is for --opponent engine"),
     (["--plies", "7"], "'--plies'")],
)
def test_play_bad_options(args, fragment):
    assert_bad_input(play(*args, typed=""), fragment)


def test_bench_times_every_operation():
    names = [r["name"] for r in run_json("bench", "--seconds", "0.01")["results"]]
    for name in ("race evaluation (bear-off, 7 v 7)", "cube decision (money)", "random self-play game",
                 "rollout, 72 trials (opening)", "SVG board", "0-ply evaluation, one position",
                 "rank every play of 31, 0-ply", "best play of 31, 2-ply"):
        assert name in names


# ----- the evaluator --------------------------------------------------------------------


def test_contact_position_gets_an_evaluation_cube_advice_and_ranked_moves():
    document = run_json("analyze", OPENING_ID)
    assert document["evaluation"]["source"] == "0-ply"
    probabilities = document["evaluation"]["probabilities"]
    assert 0.3 < probabilities["win"] < 0.7  # the opening is close to even
    assert document["cube"]["action"] == "No double / take"  # nobody doubles at the start


def test_plies_deepen_the_evaluation_and_the_move_ranking():
    document = run_json("analyze", EXAMPLE_XGID, "--plies", "1")
    assert document["evaluation"]["source"] == "1-ply"
    moves = document["moves"]
    assert moves["ranked_by"] == "1-ply" and moves["count"] == 16
    searched = [entry for entry in moves["moves"] if entry["plies"] == 1]
    assert searched and moves["moves"][0]["plies"] == 1  # the best candidates were searched deeper
    assert moves["moves"][0]["difference"] == 0.0
    assert all(entry["difference"] <= 0.0 for entry in moves["moves"])
    out = run("analyze", EXAMPLE_XGID, "--plies", "1").stdout
    assert "ranked by 1-ply cubeless equity" in out and "Ply" in out


def test_moves_command_ranks_with_the_evaluator():
    document = run_json("moves", OPENING_ID, "31", "--plies", "1")
    equities = [entry["equity"] for entry in document["moves"]["moves"] if entry["plies"] == 1]
    assert equities == sorted(equities, reverse=True)
    assert_bad_input(run("moves", OPENING_ID, "31", "--plies", "9"), "'--plies'")


def test_cube_command_evaluates_contact_positions():
    document = run_json("cube", OPENING_ID)
    assert document["evaluation"]["source"] == "0-ply"
    assert document["cube"]["unit"] == "money"


# ----- train ----------------------------------------------------------------------------

TINY_RUN = ("--games", "40", "--eval-games", "10", "--eval-every", "20", "--hidden", "8", "--seed", "5")


def test_train_runs_seeded_and_reports_strength(tmp_path):
    result = run("train", "--out", str(tmp_path / "a"), *TINY_RUN, "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    validate(document)
    assert document["games"] == 40
    assert document["settings"]["seed"] == 5 and document["settings"]["hidden"] == 8
    assert [s["games_trained"] for s in document["strength"]] == [20, 40]
    assert "vs PubEval" in result.stderr  # progress lines go to stderr with --json
    assert (tmp_path / "a" / "latest.npz").exists()
    again = json.loads(run("train", "--out", str(tmp_path / "b"), *TINY_RUN, "--json").stdout)
    assert again["strength"] == document["strength"]  # same seed, same games, same strength


def test_train_resumes_from_a_checkpoint(tmp_path):
    run("train", "--out", str(tmp_path), *TINY_RUN)
    result = run("train", "--out", str(tmp_path), "--games", "60", "--eval-every", "20",
                 "--resume", str(tmp_path / "latest.npz"), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 60


@pytest.mark.parametrize(
    ("args", "fragment"),
    [(["--games", "10"], "Missing option '--out'"), (["--out", "x", "--games", "0"], "'--games'"),
     (["--out", "x", "--games", "5", "--lam", "2"], "'--lam'"),
     (["--out", "x", "--games", "5", "--resume", "/nonexistent.npz"], "'--resume'")],
)
def test_train_bad_options(args, fragment):
    assert_bad_input(run("train", *args), fragment)


# ----- options not covered above ----------------------------------------------------------


def test_dice_option_overrides_the_dice_of_the_position():
    document = run_json("analyze", EXAMPLE_XGID, "--dice", "6-5")
    assert document["dice"] == [6, 5]
    moves = [entry["move"] for entry in document["moves"]["moves"]]
    assert "24/13" in moves and "8/5 6/5" not in moves


def test_no_crawford_clears_the_flag_of_the_position():
    crawford_xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:4:1:7:10"
    assert run_json("analyze", crawford_xgid)["match"]["crawford"] is True
    assert run_json("analyze", crawford_xgid, "--no-crawford")["match"]["crawford"] is False


def test_render_of_the_crawford_game_has_no_cube(tmp_path):
    target = tmp_path / "c.svg"
    assert run("render", OPENING_ID, "-o", str(target), "--match", "5", "--score", "4-2", "--crawford").exit_code == 0
    svg = target.read_text()
    assert "5-point match  ·  Crawford" in svg
    assert 'id="cube"' not in svg


def test_embedding_programs_get_exceptions_instead_of_exits():
    import click

    with pytest.raises(click.BadParameter, match="10 fields"):
        cli.main(["analyze", "XGID=nonsense"], standalone_mode=False)


def test_play_against_the_engine_at_a_depth():
    result = play("--seed", "4", "--plies", "1", "--json", typed="resign\n")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["opponent"] == "engine"
    assert document["winner"] == "engine"
    assert "bgengine" in result.stderr


# ----- rollout --------------------------------------------------------------------------

QUICK = ("--trials", "72", "--seed", "11")


def test_rollout_of_the_position_with_its_errors_is_repeatable():
    document = run_json("rollout", OPENING_ID, *QUICK)
    rollout = document["rollout"]
    result = rollout["result"]
    assert rollout["moves"] is None and rollout["dice"] is None
    assert rollout["settings"]["seed"] == 11 and rollout["settings"]["trials"] == 72
    assert result["trials"] == 72
    assert result["equity_standard_error"] > 0
    low, high = result["equity_ci95"]
    assert low < result["equity"] < high
    assert run_json("rollout", OPENING_ID, *QUICK)["rollout"]["result"]["equity"] == result["equity"]
    out = run("rollout", OPENING_ID, *QUICK).stdout
    assert "Rollout (cubeless, player on roll before the roll)" in out
    assert "72 trials in" in out and "repeat with --seed 11" in out


def test_rollout_without_a_seed_draws_one_and_says_it():
    document = run_json("rollout", OPENING_ID, "--trials", "72")
    seed = document["rollout"]["settings"]["seed"]
    again = run_json("rollout", OPENING_ID, "--trials", "72", "--seed", str(seed))
    first, second = document["rollout"]["result"], again["rollout"]["result"]
    assert {**first, "seconds": 0} == {**second, "seconds": 0}  # all but the time taken


def test_rollout_of_plays_ranks_the_candidates_with_common_dice():
    document = run_json("rollout", EXAMPLE_XGID, *QUICK, "--candidates", "2")
    plays = document["rollout"]["moves"]
    assert document["rollout"]["dice"] == [3, 1]
    assert [p["rank"] for p in plays] == [1, 2]
    assert plays[0]["difference"] == 0.0 and plays[1]["difference"] <= 0.0
    assert plays[0]["difference_standard_error"] is None and plays[1]["difference_standard_error"] > 0.0
    chosen = run_json("rollout", OPENING_ID, *QUICK, "--dice", "31", "--move", "24/20", "--move", "13/9")
    assert sorted(p["move"] for p in chosen["rollout"]["moves"]) == ["13/9", "24/20"]
    out = run("rollout", OPENING_ID, *QUICK, "--dice", "31", "--move", "8/5 6/5").stdout
    assert "Rollout of the plays of 31" in out and "8/5 6/5" in out
    two = run("rollout", OPENING_ID, *QUICK, "--dice", "31", "--move", "8/5 6/5", "--move", "24/20").stdout
    assert "Diff's taken trial by trial" in two


def test_rollout_options_reach_the_settings():
    document = run_json("rollout", OPENING_ID, *QUICK, "--cubeful", "--truncate", "10", "--no-variance-reduction",
                        "--no-quasi-random", "--target-se", "0.5")
    settings = document["rollout"]["settings"]
    assert settings["cubeful"] is True and settings["truncate_plies"] == 10
    assert settings["variance_reduction"] is False and settings["quasi_random"] is False
    assert settings["target_standard_error"] == 0.5
    result = document["rollout"]["result"]
    assert result["cubeful_equity"] is not None and result["cubeful_unit"]
    assert result["trials"] <= 72  # the stop rule may end it early


def test_rollout_plies_and_presets_reach_the_settings_and_change_the_games():
    zero = run_json("rollout", OPENING_ID, "--trials", "4", "--seed", "3")["rollout"]
    one = run_json("rollout", OPENING_ID, "--trials", "4", "--seed", "3", "--plies", "1")["rollout"]
    assert (zero["settings"]["checker_plies"], one["settings"]["checker_plies"]) == (0, 1)
    assert one["settings"]["cube_plies"] == 1
    assert one["result"]["equity"] != zero["result"]["equity"]
    strong = run_json("rollout", OPENING_ID, "--trials", "1", "--seed", "3", "--preset", "strong",
                      "--truncate", "2")["rollout"]["settings"]
    assert (strong["checker_plies"], strong["cube_plies"], strong["later_plies"]) == (2, 2, None)
    plain = run_json("rollout", OPENING_ID, "--trials", "1", "--seed", "3", "--preset", "strong", "--plies", "0",
                     "--truncate", "2")["rollout"]["settings"]
    assert (plain["checker_plies"], plain["cube_plies"]) == (0, 0)


def test_cube_command_rollout_plays_at_the_plies_given():
    zero = run_json("cube", OPENING_ID, "--rollout", "4", "--seed", "5")["cube"]
    one = run_json("cube", OPENING_ID, "--rollout", "4", "--seed", "5", "--plies", "1")["cube"]
    assert one["trials"] == 4 and one["no_double"] != zero["no_double"]


def test_cube_command_rollout_stops_once_the_decision_is_clear():
    clear = run_json("cube", "XGID=-CBAaaDC--B-a------bbbbbb-:0:0:1:00:0:0:0:0:6", "--rollout", "1296", "--seed", "3",
                     "--until-clear", "2")["cube"]
    assert clear["trials"] < 1296 and "both choices clear by 2 standard errors" in clear["note"]
    refused = run("cube", OPENING_ID, "--until-clear", "2")
    assert refused.exit_code == 2 and "--until-clear: the stop rule is for --rollout" in refused.stderr


def test_analyze_with_rollout_adds_the_rollout_to_the_report():
    document = run_json("analyze", OPENING_ID, "--rollout", "72", "--seed", "11")
    assert document["rollout"]["result"]["trials"] == 72
    with_dice = run_json("analyze", EXAMPLE_XGID, "--rollout", "72", "--seed", "11")
    assert len(with_dice["rollout"]["moves"]) == 5  # the five best plays
    assert run_json("analyze", OPENING_ID)["rollout"] is None
    assert "repeat with --seed 11" in run("analyze", OPENING_ID, "--rollout", "72", "--seed", "11").stdout


def test_rollout_reports_progress_per_candidate():
    from bgengine.cli.rollout_report import make_settings, run_rollout

    calls = []
    report = run_rollout(Position.initial(), MatchState(), make_settings(144, seed=2, block_size=72), dice=(3, 1),
                         moves=["8/5 6/5", "24/20"], progress=lambda label, done, total, estimate: calls.append(
                             (label, done, total)))
    assert [play.move for play in sorted(report.plays, key=lambda p: p.move)] == ["24/20", "8/5 6/5"]
    assert calls == [("8/5 6/5 (1/2)", 72, 144), ("8/5 6/5 (1/2)", 144, 144), ("24/20 (2/2)", 72, 144),
                     ("24/20 (2/2)", 144, 144)]


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        ([OPENING_ID, "--move", "24/20"], ["--move", "need dice"]),
        ([OPENING_ID, "--dice", "31", "--move", "24/18"], ["--move", "not a legal play"]),
        ([OPENING_ID, "--trials", "0"], ["'--trials'"]),
        ([OPENING_ID, "--target-se", "0"], ["'--target-se'"]),
        ([OPENING_ID, "--truncate", "0"], ["'--truncate'"]),
        ([OPENING_ID, "--seed", "-3"], ["'--seed'"]),
        (["nonsense"], ["'POSITION'"]),
    ],
)
def test_rollout_bad_input(args, fragments):
    assert_bad_input(run("rollout", *args), "bgengine rollout:", *fragments)


def test_rollout_refuses_a_finished_game():
    finished = Position.from_points({}, {1: 15})
    assert_bad_input(run("rollout", finished.gnubg_id()), "nothing to roll out")


def test_the_examples_in_the_help_run(tmp_path, monkeypatch):
    from bgengine.cli.commands import _EXAMPLES

    monkeypatch.chdir(tmp_path)
    import shlex

    commands = [shlex.split(line.strip())[1:] for line in _EXAMPLES.splitlines() if line.strip().startswith("bgengine")]
    assert len(commands) == 7
    for args in commands:
        if args[0] in ("play", "rollout"):
            continue  # interactive, or long: covered above
        result = run(*args)
        assert result.exit_code == 0, (args, result.stderr)
    assert (tmp_path / "board.svg").exists()


def test_analyze_svg_draws_the_best_play(tmp_path):
    target = tmp_path / "a.svg"
    document = run_json("analyze", EXAMPLE_XGID, "--svg", str(target))
    assert document["svg"] == str(target)
    root = ET.fromstring(target.read_text())
    arrows = root.find("{http://www.w3.org/2000/svg}g[@id='arrow-arrows']")
    assert (arrows is not None and len(arrows) >= 1) == (document["moves"]["ranked_by"] is not None)
    assert run_json("analyze", OPENING_ID)["svg"] is None
    assert_bad_input(run("analyze", OPENING_ID, "--svg", str(tmp_path / "no" / "a.svg")), "--svg", "cannot write")


@pytest.mark.parametrize("opponent", ["pubeval", "heuristic", "random"])
def test_play_against_each_opponent(opponent):
    result = play("--seed", "4", "--opponent", opponent, "--json", typed="resign\n")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["opponent"] == opponent
    assert f"bgengine ({opponent})" in result.stderr


def test_match_line_says_post_crawford_when_a_one_away_score_is_not_the_crawford_game():
    post = run("cube", OPENING_ID, "--match", "7", "--score", "6-5")
    assert post.exit_code == 0, post.output
    assert "score 6-5 (on roll 1-away, opponent 2-away), post-Crawford, cube centred" in post.output
    crawford = run("cube", OPENING_ID, "--match", "7", "--score", "6-5", "--crawford")
    assert "Crawford game, no cube" in crawford.output
    assert "post-Crawford" not in crawford.output

"""``bgengine analyze-match``: tables, JSON in the CLI's schema, the HTML report, bad files."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgengine.cli.commands import JSON_SCHEMA, cli

DATA = Path(__file__).parent / "data"
SGF = str(DATA / "gnubg_match_5.sgf")
MAT = str(DATA / "gnubg_match_5.mat")


def run(*args: str):
    return CliRunner().invoke(cli, list(args), prog_name="bgengine")


@pytest.fixture(scope="module")
def document() -> dict:
    result = run("analyze-match", SGF, "--plies", "0", "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_json_follows_the_schema(document):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(resources.files("bgengine").joinpath("data/cli_schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(document)
    assert document["schema"] == JSON_SCHEMA and document["command"] == "analyze-match"


def test_json_says_what_the_equities_are_and_totals_add_up(document):
    assert "cubeful at the score" in document["equity"]
    players = document["players"]
    assert [p["name"] for p in players] == ["gnubg", "root"]
    checker = [d for d in document["decisions"] if d["kind"] == "checker"]
    for player in (0, 1):
        mine = [d for d in checker if d["player"] == player]
        assert players[player]["moves"] == len(mine)
        assert players[player]["checker_error"] == pytest.approx(sum(d["error"] for d in mine), abs=1e-4)
    assert document["match"]["winner"] == 0 and players[0]["result_mwc"] == 0.5


def test_mat_and_sgf_of_the_same_match_give_the_same_analysis(document):
    result = run("analyze-match", MAT, "--plies", "0", "--json")
    assert result.exit_code == 0, result.stderr
    other = json.loads(result.stdout)
    assert other["players"] == document["players"] and other["decisions"] == document["decisions"]


def test_the_terminal_shows_the_summary_and_the_bad_decisions():
    result = run("analyze-match", SGF, "--plies", "0", "--workers", "2")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    for text in ("Checker error rate mEMG", "Performance rating (PR)", "Luck-adjusted result MWC",
                 "Bad and very bad decisions", "very bad", "cubeful at the score"):
        assert text in out, text


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.external: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for name, value in attrs:
            if name in ("src", "href") and value:
                self.external.append(value)


def test_html_report_is_self_contained_with_a_board_per_marked_decision(tmp_path, document):
    report = tmp_path / "report.html"
    result = run("analyze-match", SGF, "--plies", "0", "--html", str(report))
    assert result.exit_code == 0, result.stderr
    text = report.read_text()
    parser = _Collector()
    parser.feed(text)
    marked = [d for d in document["decisions"] if d["mark"]]
    assert parser.tags.count("svg") == parser.tags.count("section") == len(marked) > 0
    assert parser.external == []
    first_svg = text[text.index("<svg"): text.index("</svg>") + len("</svg>")]
    ET.fromstring(first_svg)  # well-formed SVG


@pytest.mark.parametrize(
    ("content", "fragment"),
    [("(;GM[6]MI[length:3]\n;W[33hefe])", "line 2"), (" 3 point match\n Game 1\n bogus\n", "line 3")],
)
def test_a_bad_file_exits_2_with_one_line(tmp_path, content, fragment):
    bad = tmp_path / "bad.sgf"
    bad.write_text(content)
    result = run("analyze-match", str(bad))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and fragment in result.stderr and "FILE" in result.stderr


def test_a_missing_file_exits_2():
    result = run("analyze-match", "/nonexistent/match.sgf")
    assert result.exit_code == 2 and "cannot read" in result.stderr


def test_equity_match_measures_by_the_score(document):
    result = run("analyze-match", SGF, "--plies", "0", "--equity", "match", "--json")
    assert result.exit_code == 0, result.stderr
    other = json.loads(result.stdout)
    assert other["equity_measure"] == "match" and document["equity_measure"] == "cubeful"
    assert "match winning chance" in other["equity"]
    # the same moves are unforced; the cube decisions do not depend on the measure
    assert [p["unforced_moves"] for p in other["players"]] == [p["unforced_moves"] for p in document["players"]]
    assert [p["cube_error"] for p in other["players"]] == [p["cube_error"] for p in document["players"]]

"""Speed of what users meet first: the SVG picture, the analysis report, a whole CLI call.

Run: ``nice python -m pytest benchmarks/bench_cli.py --benchmark-enable``.
Each benchmark checks its answer before timing (the picture's checkers, the 16 plays of
31 in the opening, the CLI's exit code and JSON), so a faster wrong answer cannot pass.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from click.testing import CliRunner

from bgengine import parse_xgid
from bgengine.formats import svg
from bgengine.cli.report import analyze
from bgengine.cli.commands import cli

EXAMPLE_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"
SVG_NS = "{http://www.w3.org/2000/svg}"


def test_svg_board(benchmark):
    position, match = parse_xgid(EXAMPLE_XGID)
    root = ET.fromstring(svg.board(position, match=match))
    checkers = [c for c in root.iter(f"{SVG_NS}circle") if (c.get("class") or "").startswith("checker")]
    assert len(checkers) == 30
    benchmark(svg.board, position, match=match)


def test_analysis_report_of_the_quick_start(benchmark):
    position, match = parse_xgid(EXAMPLE_XGID)
    report = analyze(position, match)
    assert report.moves is not None and len(report.moves) == 16
    benchmark(analyze, position, match)


def test_cli_analyze_json_in_process(benchmark):
    runner = CliRunner()

    def call() -> str:
        result = runner.invoke(cli, ["analyze", EXAMPLE_XGID, "--json"])
        assert result.exit_code == 0
        return result.stdout

    assert json.loads(call())["moves"]["count"] == 16
    benchmark(call)

"""The self-contained HTML report of ``bgengine analyze-match --html``: the summary, then each marked decision.

One file with its style inline and the board pictures as inline SVG (``bgengine.formats.svg``),
so it opens anywhere without other files or a network.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from bgengine.analysis.match_analysis import CheckerPlay, CubeChoice, MatchAnalysis, Mark
from bgengine.cli.match_report import _summary_rows, describe
from bgengine.formats.svg import board

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { padding: 0.2em 0.8em; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.decision { border-top: 2px solid #888; margin-top: 1.5em; padding-top: 0.5em; }
.decision svg { max-width: 100%; height: auto; }
.very-bad { color: #b00020; } .bad { color: #c15c00; } .doubtful { color: #7a6a00; }
.note { color: #555; font-size: 0.9em; }
"""


def html_report(analysis: MatchAnalysis, *, at_least: Mark = Mark.DOUBTFUL, title: str | None = None) -> str:
    """The report as one HTML document: summary table, then every decision marked ``at_least``."""
    names = analysis.names
    heading = title or f"{names[0]} vs {names[1]}: {analysis.length}-point match"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(heading)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{escape(heading)}</h1>",
        f"<p>Final score {analysis.score[0]}-{analysis.score[1]}, {len(analysis.games)} games;"
        f" {analysis.plies}-ply analysis.</p>",
        f'<p class="note">{escape(analysis.equity_note)}. Errors and luck in EMG (equity per current cube),'
        " match winning chance (MWC) in brackets.</p>",
        _summary_table(analysis),
    ]
    marked = analysis.marked(at_least)
    parts.append(f"<h2>Marked decisions ({len(marked)})</h2>")
    parts += [_decision(item, analysis) for item in marked]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _summary_table(analysis: MatchAnalysis) -> str:
    header = "".join(f"<th>{escape(name)}</th>" for name in analysis.names)
    rows = [f"<tr><th></th>{header}</tr>"]
    for label, first, second in _summary_rows(analysis):
        rows.append(f"<tr><td>{escape(label.strip())}</td><td>{escape(first)}</td><td>{escape(second)}</td></tr>")
    return "<table>" + "".join(rows) + "</table>"


def _decision(item: CheckerPlay | CubeChoice, analysis: MatchAnalysis) -> str:
    where, who, played, best = describe(item, analysis.names)
    css = item.mark.value.replace(" ", "-")
    lines = [
        '<section class="decision">',
        f'<h3>{escape(where.capitalize())}: {escape(who)} <span class="{css}">{escape(item.mark.value)}</span></h3>',
    ]
    if isinstance(item, CheckerPlay):
        picture = board(item.where.position, match=item.where.match, dice=item.dice, arrows=item.played, size=480)
        rows = [
            ("Played", f"{item.dice[0]}{item.dice[1]}: {item.played}", f"{item.played_equity:+.3f}"),
            ("Best", str(item.best), f"{item.best_equity:+.3f}"),
        ]
        lines.append(picture)
        lines.append(_table(("", "Move", "Equity"), rows))
        candidates = [(str(m.move), f"{m.equity:+.3f}", f"{m.plies}-ply") for m in item.candidates]
        lines.append(_table(("Candidate", "Equity", "Depth"), candidates))
    else:
        picture = board(item.where.position, match=item.where.match, size=480)
        emg = item.decision.to_emg()
        rows = [("Proper action", str(item.decision.action), ""), ("Chosen", played, "")]
        for label, value in (("No double", emg.no_double), ("Double, take", emg.double_take),
                             ("Double, pass", emg.double_pass)):
            if value is not None:
                rows.append((label, "", f"{value:+.3f}"))
        lines.append(picture)
        lines.append(_table(("", "", "EMG"), rows))
    lines.append(f"<p>Error {item.error:.3f} EMG ({100 * item.error_mwc:.2f}% MWC).</p>")
    lines.append("</section>")
    return "\n".join(lines)


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    head = "".join(f"<th>{escape(cell)}</th>" for cell in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"

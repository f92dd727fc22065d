"""The organiser's HTML report: one self-contained page (no scripts, fonts or images to fetch), a
table of every submission linking to its full report (formations, derived values, findings),
laid out to print cleanly. Everything from a roster file is escaped: the files are untrusted."""

from __future__ import annotations

from html import escape
from typing import Any

from ..core.findings import Finding, finding_message
from ..core.system import RosterSummary
from ..rosters.batch import Skipped
from .safe import printable_lines
from .submissions import LEGAL, Provenance, Submission, summary_text

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #111; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
th { background: #eee; }
td.number { text-align: right; }
tr.ILLEGAL td.verdict, tr.UNREADABLE td.verdict, tr.INTERNAL td.verdict, li.error { color: #a00; font-weight: bold; }
tr.LEGAL td.verdict { color: #070; }
li.warning { color: #850; }
.meta { color: #555; }
section.roster { margin-top: 2em; border-top: 2px solid #333; }
@media print {
  body { margin: 0; font-size: 10pt; }
  a { color: inherit; text-decoration: none; }
  section.roster { break-before: page; border-top: none; }
  thead { display: table-header-group; }
  tr, li { break-inside: avoid; }
}
"""


def _findings_html(findings: list[Finding]) -> str:
    if not findings:
        return "<p>No findings.</p>"
    items = "".join(f'<li class="{f.severity}">{escape(f.where)}: {f.severity}: {escape(finding_message(f))}'
                    + (f" [{escape(f.rule)}]" if f.rule else "") + "</li>" for f in findings)
    return f"<ul>{items}</ul>"


def roster_html(file: str, summary: RosterSummary, priced_under: str = "") -> str:
    """One roster's full report, of any game (the page wraps it in a section the summary table
    links to): points, the army's derived values, each entry with what it holds and its own."""
    facts = [f"points {summary.total:,} / {summary.limit:,}", *summary.army_lines,
             *([f"priced under {priced_under}"] if priced_under else [])]
    rows = "".join(f"<tr><td>#{e.index + 1}</td><td>{escape(e.title)}</td><td class=\"number\">{e.points:,}</td>"
                   f"<td>{'<br>'.join(escape(line) for line in e.lines)}</td></tr>" for e in summary.entries)
    return (f"<h2>{escape(file)}: {LEGAL if summary.valid else 'ILLEGAL'}</h2>"
            f"<p>{escape(summary.name or 'unnamed roster')} ({escape(summary.army)}, {escape(summary.game)})</p>"
            f"<ul>{''.join(f'<li>{escape(fact)}</li>' for fact in facts)}</ul>"
            "<table><thead><tr><th>#</th><th>entry</th><th>points</th><th>what it holds, derived values</th></tr>"
            f"</thead><tbody>{rows}</tbody></table><h3>Findings</h3>{_findings_html(summary.findings)}")


def failure_html(file: str, findings: list[Finding], verdict: str) -> str:
    return f"<h2>{escape(file)}: {verdict}</h2><h3>Findings</h3>{_findings_html(findings)}"


def html_report(submissions: list[Submission], skipped: list[Skipped], provenance: Provenance,
                heading: str = "Roster check") -> str:
    def cell(value: Any, number: bool = False) -> str:
        shown = "" if value is None else f"{value:,}" if isinstance(value, int) else escape(str(value))
        return f"<td class=\"number\">{shown}</td>" if number else f"<td>{shown}</td>"

    priced = any(s.priced_under for s in submissions)  # a column only where several versions are installed
    rows = "".join(
        f'<tr class="{s.verdict.split()[0]}"><td><a href="#r{i}">{escape(s.file)}</a></td>{cell(s.name)}{cell(s.army)}'
        f"{cell(s.points, True)}{cell(s.limit, True)}<td class=\"verdict\">{s.verdict}</td>{cell(s.errors, True)}"
        f"{cell(s.warnings, True)}{cell(s.first_error)}{cell(s.priced_under) if priced else ''}</tr>"
        for i, s in enumerate(submissions, start=1))
    skipped_html = ("<h2>Skipped</h2><ul>" + "".join(f"<li>{escape(s.file)}: {escape(s.reason)}</li>"
                                                     for s in skipped) + "</ul>") if skipped else ""
    sections = "".join(f'<section class="roster" id="r{i}">{s.rendered}</section>'
                       for i, s in enumerate(submissions, start=1))
    summary = escape(summary_text(submissions, skipped).split("\n")[0])
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(heading)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{escape(heading)}</h1><p class=\"meta\">{escape(provenance.line())}</p><p>{summary}</p>"
            "<table class=\"submissions\"><thead><tr><th>file</th><th>name</th><th>army</th><th>points</th>"
            "<th>limit</th><th>verdict</th><th>errors</th><th>warnings</th><th>first error</th>"
            f"{'<th>priced under</th>' if priced else ''}</tr></thead>"
            f"<tbody>{rows}</tbody></table>{skipped_html}{sections}</body></html>\n")
    # Control characters and bidi overrides from the files escaped over the whole page, as the text
    # report's are: the markup holds none, and the page may be printed on a terminal.
    return printable_lines(page)

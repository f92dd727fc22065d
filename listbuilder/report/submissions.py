"""An organiser's reports on a folder of submitted rosters: one line of facts per roster (what the
CSV row and the HTML table show), the closing summary naming every illegal, unreadable and skipped
file, and the text, JSON and CSV documents. Every report names the listbuilder and data versions."""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass
from typing import Any

import orjson

from ..core.findings import Finding, finding_json, finding_message
from ..core.system import FieldFacts, RosterSummary
from ..games import field_facts, summarise
from ..rosters.batch import Skipped
from .safe import printable
from .text import failure_text, roster_text

LEGAL, ILLEGAL, UNREADABLE, INTERNAL = "LEGAL", "ILLEGAL", "UNREADABLE", "INTERNAL ERROR"
FAILED = (ILLEGAL, UNREADABLE, INTERNAL)  # the verdicts a summary names file by file
CSV_COLUMNS = ["file", "name", "game", "army", "points", "limit", "verdict", "errors", "warnings", "first error",
               "listbuilder", "data", "priced under"]


@dataclass(frozen=True)
class Provenance:
    """What checked the rosters: printed on every report."""

    version: str
    data: str  # every data that checked the rosters: the shipped data's version, a user's import's revision
    event: str = ""  # the event's rules, described; empty when rosters were checked by their own
    shipped: str = ""  # the shipped data's version (what checked a roster of no imported data)

    @classmethod
    def of(cls, version: str, shipped: str, submissions: list[Submission], event: str = "") -> Provenance:
        brought = sorted({s.data for s in submissions if s.data})
        used = ([shipped] if not brought or any(not s.data for s in submissions) else []) + brought
        return cls(version, ", ".join(used), event, shipped)

    def line(self) -> str:
        return f"checked by listbuilder {self.version} against data {self.data}" + (
            f"; {self.event}" if self.event else "")


@dataclass
class Submission:
    """One roster file as checked: the facts every summary shows, and its part of the report in
    the chosen format (rendered where it was checked, on whichever core)."""

    file: str
    verdict: str
    name: str = ""
    army: str = ""
    points: int | None = None
    limit: int | None = None
    errors: int = 0
    warnings: int = 0
    first_error: str = ""
    rendered: str = ""
    data: str = ""  # the revision of the imported data that checked it (40k); '' for the shipped data
    game: str = ""  # the game's id (as `--game` takes it); '' when the file could not be read
    facts: FieldFacts | None = None  # what `listbuilder stats` counts (rendered in the form "stats")
    priced_under: str = ""  # the version of the imported data its stated total fits (rosters.batch.priced_under)

    @classmethod
    def of_summary(cls, file: str, summary: RosterSummary, rendered: str = "", game: str = "") -> Submission:
        errors = [f for f in summary.findings if f.severity == "error"]
        return cls(file, LEGAL if summary.valid else ILLEGAL, summary.name, summary.army, summary.total,
                   summary.limit, len(errors), len(summary.findings) - len(errors),
                   finding_message(errors[0]) if errors else "", rendered, summary.data_revision, game)

    @classmethod
    def of_failure(cls, file: str, findings: list[Finding], rendered: str = "",
                   verdict: str = UNREADABLE) -> Submission:
        return cls(file, verdict, errors=len(findings),
                   first_error=finding_message(findings[0]) if findings else "", rendered=rendered)


# ------------------------------------------------------------- each file, in its format


def result_json(file: str, summary: RosterSummary) -> dict[str, Any]:
    return {"file": file, "readable": True, **summary.json}


def failure_json(file: str, findings: list[Finding], verdict: str = UNREADABLE) -> dict[str, Any]:
    return {"file": file, "valid": False, "readable": False,
            **({"internal_error": True} if verdict == INTERNAL else {}),
            "issues": [finding_json(f) for f in findings]}


def json_text(record: dict[str, Any]) -> str:
    """Exactly `json.dumps(record, indent=2, ensure_ascii=False)`, by orjson's compiled encoder
    where it can: the standard library indents in pure Python, a fifth of a large folder's check."""
    try:
        return orjson.dumps(record, option=orjson.OPT_INDENT_2).decode()
    except TypeError:  # what orjson refuses: a lone surrogate (a file name not in UTF-8), a huge int
        return json.dumps(record, indent=2, ensure_ascii=False)


def _json_entry(record: dict[str, Any]) -> str:
    """One roster's entry as it stands inside the report's `rosters` list (see `json_report`): each
    line indented two levels (JSON text has no blank lines and no raw line breaks in strings)."""
    return "    " + json_text(record).replace("\n", "\n    ")


def render_result(file: str, result: Any, form: str, priced_under: str = "") -> Submission:
    """One checked roster, of any game, as its summary facts and its part of the report in `form`;
    `priced_under`: the version of the imported data its stated total fits, if worked out."""
    summary = summarise(result)
    if form == "json":
        rendered = _json_entry(result_json(file, summary) | ({"priced_under": priced_under} if priced_under else {}))
    elif form == "text":
        rendered = roster_text(file, result) + (f"\n  priced under: {printable(priced_under)}" if priced_under else "")
    elif form == "html":
        from .html import roster_html
        rendered = roster_html(file, summary, priced_under)
    else:
        rendered = ""
    submission = Submission.of_summary(file, summary, rendered, result.roster.game)
    submission.priced_under = priced_under
    if form == "stats":
        submission.facts = field_facts(result)
    return submission


def render_failure(file: str, findings: list[Finding], form: str, verdict: str = UNREADABLE) -> str:
    if form == "json":
        return _json_entry(failure_json(file, findings, verdict))
    if form == "text":
        import textwrap  # imported where a report uses it, as csv below: the two cost every check 6 M

        return f"{file}: {verdict}\n" + textwrap.indent(failure_text(findings), "  ")
    if form == "html":
        from .html import failure_html
        return failure_html(file, findings, verdict)
    return ""


# ------------------------------------------------------------- the whole report


def summary_text(submissions: list[Submission], skipped: list[Skipped], name_illegal: bool = True) -> str:
    """'2 of 4 rosters legal; 1 illegal, 1 unreadable, 1 file skipped', then each by name (the
    illegal ones only where `name_illegal`: a CSV or JSON report names them itself)."""
    counts = {verdict: [s for s in submissions if s.verdict == verdict] for verdict in (LEGAL, *FAILED)}
    line = f"{len(counts[LEGAL])} of {len(submissions)} rosters legal"
    others = [f"{len(counts[v])} {v.lower()}" for v in FAILED if counts[v]]
    if skipped:
        others.append(f"{len(skipped)} file{'' if len(skipped) == 1 else 's'} skipped")
    lines = [line + ("; " + ", ".join(others) if others else "")]
    for verdict in FAILED if name_illegal else FAILED[1:]:
        if counts[verdict]:
            lines.append(f"{verdict.lower()}:")
            lines += [f"  {s.file} — {s.errors} error{'' if s.errors == 1 else 's'}, first: {s.first_error}"
                      for s in counts[verdict]]
    if skipped:
        lines.append("skipped:")
        lines += [f"  {s.file} — {s.reason}" for s in skipped]
    return "\n".join(lines)


def report(form: str, submissions: list[Submission], skipped: list[Skipped], provenance: Provenance,
           heading: str) -> str:
    """The whole report in `form` (text, json, csv or html), from the submissions rendered in it."""
    if form == "json":
        return json_report(submissions, skipped, provenance) + "\n"
    if form == "csv":
        return surrogates_escaped(csv_report(submissions, provenance))
    if form == "html":
        from .html import html_report
        return surrogates_escaped(html_report(submissions, skipped, provenance, heading))
    return text_report(submissions, skipped, provenance) + "\n"


def surrogates_escaped(document: str) -> str:
    """A file name that is not UTF-8 (b"caf\\xe9.yaml") is read with lone surrogates in its place: the
    CSV and the page show them as the text and JSON reports do, `\\udce9`, and stay valid UTF-8."""
    if document.isascii():
        return document
    return re.sub("[\ud800-\udfff]", lambda match: f"\\u{ord(match[0]):04x}", document)


def text_report(submissions: list[Submission], skipped: list[Skipped], provenance: Provenance) -> str:
    parts = [s.rendered for s in submissions]
    if len(submissions) > 1 or skipped:
        parts.append(summary_text(submissions, skipped))
    return "\n\n".join(parts + [provenance.line()])


def json_report(submissions: list[Submission], skipped: list[Skipped], provenance: Provenance) -> str:
    """The same text as json.dumps(..., indent=2) of the whole document, assembled from the
    entries each worker rendered (so that dumping, too, runs on every core)."""
    rosters = "[\n" + ",\n".join(s.rendered for s in submissions) + "\n  ]" if submissions else "[]"
    rest: dict[str, Any] = {"skipped": [{"file": s.file, "reason": s.reason} for s in skipped],
                            "listbuilder": provenance.version, "data_version": provenance.data}
    if provenance.event:
        rest["event"] = provenance.event
    return '{\n  "rosters": ' + rosters + ",\n" + json.dumps(rest, indent=2, ensure_ascii=False)[2:]


FORMULA_STARTS = ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20")  # and their fullwidth forms


def csv_cell(value: Any) -> Any:
    """Text from a roster file made inert for spreadsheets (a name starting '=' is not a formula, nor
    one starting with a fullwidth '＝' or with spaces before the '=') and for the terminal the report
    is printed on (control characters and bidi overrides escaped; a tab or CR among them)."""
    if not isinstance(value, str):
        return value
    value = printable(value)
    return "'" + value if value.lstrip(" \t\r\n")[:1] in FORMULA_STARTS else value


def csv_report(submissions: list[Submission], provenance: Provenance) -> str:
    """One row per roster, UTF-8 with a byte order mark: without it Excel on Windows reads the file
    in the machine's code page, and a name's dash ('Imperial Guard – Steel Legion') as mojibake."""
    import csv

    stream = io.StringIO()
    stream.write("\ufeff")
    writer = csv.writer(stream)
    writer.writerow(CSV_COLUMNS)
    for s in submissions:
        writer.writerow([csv_cell(v) for v in (s.file, s.name, s.game, s.army, s.points, s.limit, s.verdict, s.errors,
                                            s.warnings, s.first_error, provenance.version,
                                            s.data or provenance.shipped, s.priced_under)])
    return stream.getvalue()

"""The plain-text report that `listbuilder check` prints, the same for every game."""

from __future__ import annotations

from typing import Any

from ..core.findings import Finding, finding_text
from ..games import summarise
from .safe import printable


def roster_text(file: str, result: Any) -> str:
    summary = summarise(result)
    verdict = "LEGAL" if summary.valid else "ILLEGAL"
    left = summary.limit - summary.total
    lines = [f"{file}: {verdict} — {summary.name or 'unnamed roster'} ({summary.army})"]
    if summary.priced:
        lines.append(f"  points: {summary.total:,} / {summary.limit:,} ({left:,} left)")
    lines += ["  " + line for line in summary.army_lines]
    for entry in summary.entries:
        lines.append(f"  #{entry.index + 1} {entry.title}" + (f": {entry.points:,} pts" if summary.priced else ""))
        lines += ["      " + line for line in entry.lines]
    lines += ["  " + finding_text(finding) for finding in summary.findings]
    return "\n".join(printable(line) for line in lines)


def failure_text(findings: list[Finding]) -> str:
    return "\n".join(printable(finding_text(f)) for f in findings)

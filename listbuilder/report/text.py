"""The plain-text report that `listbuilder check` prints."""

from __future__ import annotations

from ..core.engine import RosterResult
from ..core.findings import Finding
from .summary import finding_text, garrison_text, purchases_text, title, unit_line


def roster_text(file: str, result: RosterResult) -> str:
    army, roster = result.army, result.roster
    verdict = "LEGAL" if result.valid else "ILLEGAL"
    lines = [f"{file}: {verdict} — {roster.name or 'unnamed roster'} ({army.name})",
             f"  points: {result.total:,} / {roster.points:,} ({roster.points - result.total:,} left)"]
    for cap in result.caps:
        lines.append(f"  {cap.name}: {cap.points:,} / {cap.limit:,}")
    if result.purchases:
        lines.append(f"  bought for the army: {purchases_text(result)}")
    derived = result.derived
    if "activations" in derived:
        lines.append(f"  strategy rating {derived['strategy_rating']}, {derived['activations']} activations")
    targets = [f for f in result.formations if f.index in derived.get("break_their_spirit", [])]
    if targets:
        lines.append("  Break Their Spirit: " + " or ".join(f"#{f.index + 1} {f.name} ({f.points:,} pts)" for f in targets))
    for built in result.formations:
        d = built.derived
        lines.append(f"  #{built.index + 1} {title(built)}: {built.points:,} pts")
        lines.append(f"      {unit_line(built)}")
        if d and built.on_table:
            bp = "—" if d.get("break_point") is None else d["break_point"]
            half = "—" if d.get("half_strength") is None else d["half_strength"]
            lines.append(f"      {d['units']} unit{'' if d['units'] == 1 else 's'}, initiative {d['initiative']}, break point {bp}, "
                         f"half strength at {half}; {garrison_text(built)}")
            for note in d.get("notes", []):
                lines.append(f"      {note}")
    for finding in result.findings:
        lines.append("  " + finding_text(finding))
    return "\n".join(lines)


def failure_text(findings: list[Finding]) -> str:
    return "\n".join(finding_text(f) for f in findings)

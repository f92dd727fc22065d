"""`listbuilder reprice`: one roster checked under two versions of the imported data, as a report:
its total and each unit's points under each, and what the later version no longer allows."""

from __future__ import annotations

from typing import Any

from ..core.findings import Finding, finding_text
from ..games import summarise


def _key(finding: Finding) -> tuple[str, tuple[str | int, ...]]:
    return finding.code, finding.path


def no_longer_valid(old: Any, new: Any) -> list[Finding]:
    """The errors of the roster under the new version that it did not have under the old one (a
    size, an option or a datasheet gone), matched by what they say is wrong and where."""
    before = {_key(f) for f in old.findings if f.severity == "error"}
    return [f for f in new.findings if f.severity == "error" and _key(f) not in before]


def reprice_text(shown: str, old: Any, new: Any, old_label: str, new_label: str) -> str:
    """The roster's total and each unit's points under `old` and `new` (two checks of it), then the
    errors it has only under `new`."""
    before, after = summarise(old), summarise(new)
    change = after.total - before.total
    lines = [f"{shown}: {before.name or 'unnamed roster'} ({before.army}) repriced from '{old_label}' "
             f"({before.data_revision}) to '{new_label}' ({after.data_revision})",
             f"  total {before.total:,} → {after.total:,} ({change:+,}) of {after.limit:,}"
             + (f": {after.total - after.limit:,} over" if after.total > after.limit else "")]
    now = {entry.index: entry.points for entry in after.entries}
    width = max((len(entry.title) for entry in before.entries), default=0)
    for entry in before.entries:
        points = now.get(entry.index)
        shown_now = "not priced" if points is None else f"{points:,}"
        same = points == entry.points
        lines.append(f"  #{entry.index + 1:<3} {entry.title:<{width}}  {entry.points:>5,} → {shown_now:>5}"
                     + ("" if same else f" ({points - entry.points:+,})" if points is not None else ""))
    gone = no_longer_valid(old, new)
    if gone:
        lines.append(f"No longer valid under '{new_label}':")
        lines += ["  " + finding_text(f) for f in gone]
    else:
        lines.append(f"Nothing of it becomes invalid under '{new_label}'.")
    return "\n".join(lines)

"""What changed between two versions of a roster, for an organiser reading a resubmission:
formations added and removed, their upgrades and settings, points per formation and in all."""

from __future__ import annotations

from difflib import SequenceMatcher

from ..core.engine import RosterResult
from ..core.names import name_key
from ..core.roster import RosterFormation
from ..systems.list_engine_text import Names, upgrade_text

SETTINGS = ("count", "size", "faction", "transport", "composition", "wargear", "split")


def _key(entry: RosterFormation) -> tuple[str, str]:
    """Formations are matched by type and label, in order, so that moving one is not a change."""
    return name_key(entry.type), entry.label or ""


def _points(result: RosterResult, index: int) -> int | None:
    return next((f.points for f in result.formations if f.index == index), None)


def _cost(points: int | None) -> str:
    return "—" if points is None else f"{points:,} pts"


def _changes(old: RosterFormation, new: RosterFormation, names: Names) -> list[str]:
    lines = []
    for setting in SETTINGS:
        before, after = getattr(old, setting), getattr(new, setting)
        if before != after:
            lines.append(f"{setting}: {before if before not in (None, {}) else '—'} → "
                         f"{after if after not in (None, {}) else '—'}")
    for name in dict.fromkeys([*old.upgrades, *new.upgrades]):
        before, after = old.upgrades.get(name), new.upgrades.get(name)
        if before == after and type(before) is type(after):
            continue
        if before is None:
            lines.append(f"+ {upgrade_text(name, after, names)}")
        elif after is None:
            lines.append(f"− {upgrade_text(name, before, names)}")
        else:
            lines.append(f"{upgrade_text(name, before, names)} → {upgrade_text(name, after, names)}")
    return lines


def roster_diff(old_file: str, old: RosterResult, new_file: str, new: RosterResult, names: Names) -> list[str]:
    """The changes, one per line; empty when the two rosters are the same."""
    lines: list[str] = []
    if old.roster.points != new.roster.points:
        lines.append(f"points limit: {old.roster.points:,} → {new.roster.points:,}")
    if old.roster.name != new.roster.name:
        lines.append(f"name: {old.roster.name or '—'} → {new.roster.name or '—'}")
    if name_key(old.roster.army) != name_key(new.roster.army):
        lines.append(f"army: {old.army.name} → {new.army.name}")
    if old.roster.purchases != new.roster.purchases:
        lines.append(f"bought for the army: {old.roster.purchases or '—'} → {new.roster.purchases or '—'}")
    before, after = old.roster.formations, new.roster.formations
    matcher = SequenceMatcher(a=[_key(f) for f in before], b=[_key(f) for f in after], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for i in range(i1, i2) if tag in ("delete", "replace") else []:
            lines.append(f"− #{i + 1} {before[i].type} removed ({_cost(_points(old, i))})")
        for j in range(j1, j2) if tag in ("insert", "replace") else []:
            lines.append(f"+ #{j + 1} {after[j].type} added ({_cost(_points(new, j))})")
        for i, j in zip(range(i1, i2), range(j1, j2)) if tag == "equal" else []:
            changes = _changes(before[i], after[j], names)
            was, now = _points(old, i), _points(new, j)
            if changes or was != now:
                moved = f"#{i + 1} → #{j + 1}" if i != j else f"#{j + 1}"
                delta = f" ({now - was:+,})" if was is not None and now is not None and was != now else ""
                lines.append(f"~ {moved} {after[j].type}: {_cost(was)} → {_cost(now)}{delta}")
                lines += [f"    {change}" for change in changes]
    if lines or old.total != new.total:
        lines.append(f"total: {old.total:,} → {new.total:,} points ({new.total - old.total:+,}); "
                     f"{'LEGAL' if old.valid else 'ILLEGAL'} → {'LEGAL' if new.valid else 'ILLEGAL'}")
    return [f"{old_file} → {new_file}", *lines] if lines else []

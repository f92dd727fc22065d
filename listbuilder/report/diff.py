"""What changed between two versions of a roster, for an organiser reading a resubmission:
formations added and removed, their upgrades and settings, points per formation and in all; for
the other games, their entries (40k units, Epic Remastered detachments) as their summaries print
them."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Any

from ..core.names import name_key
from ..core.system import EntrySummary, RosterSummary
from ..games import summarise
from ..listengine.catalog import Catalog
from ..listengine.engine import RosterResult
from ..listengine.roster import Roster, RosterFormation
from ..listengine.text import Names, upgrade_text

REFERENCE = re.compile(r"#(\d+)\b")  # an entry's number where another entry's line names it
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


def diff_lines(old_file: str, old: Any, new_file: str, new: Any, catalog: Catalog) -> list[str]:
    """What `listbuilder diff` prints of two checked rosters of any game: formation by formation and
    upgrade by upgrade when both are the list engine's, else their summaries' entries."""
    if isinstance(old.roster, Roster) and isinstance(new.roster, Roster):
        return roster_diff(old_file, old, new_file, new, Names.of(catalog, new.roster.game, new.roster.army))
    return summary_diff(old_file, summarise(old), new_file, summarise(new))


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
    return _framed(old_file, old.total, old.valid, new_file, new.total, new.valid, lines)


def summary_diff(old_file: str, old: RosterSummary, new_file: str, new: RosterSummary) -> list[str]:
    """The changes between two rosters of a game whose entries are not formations: entries matched
    by title (`_matched`), with their points (where the game prices them) and printed lines."""
    priced = old.priced or new.priced
    lines = [f"{what}: {before or '—'} → {after or '—'}" for what, before, after in (
        ("game", old.game, new.game), ("name", old.name, new.name), ("army", old.army, new.army)) if before != after]
    if old.limit != new.limit:
        lines.append(f"points limit: {old.limit:,} → {new.limit:,}")
    removed, added, pairs = _matched(old.entries, new.entries)
    changes: list[tuple[int, list[str]]] = [  # by place in the roster, so a list reads top to bottom
        (entry.index, [f"{sign} #{entry.index + 1} {entry.title} {what}"
                       + (f" ({_cost(entry.points)})" if priced else "")])
        for sign, what, entries in (("−", "removed", removed), ("+", "added", added)) for entry in entries]
    renumbered = {was.index + 1: now.index + 1 for was, now in pairs}
    changes += [(now.index, _entry_changes(was, now, priced, renumbered)) for was, now in pairs]
    lines += [line for _, changed in sorted(changes, key=lambda change: change[0]) for line in changed]
    return _framed(old_file, old.total, old.valid, new_file, new.total, new.valid, lines, priced)


def _matched(before: list[EntrySummary], after: list[EntrySummary]
             ) -> tuple[list[EntrySummary], list[EntrySummary], list[tuple[EntrySummary, EntrySummary]]]:
    """Entries removed, added, and paired (old, new): matched by title in order, a run retitled in
    place paired one to one (a unit's new model count is a change); then an entry moved elsewhere
    is paired with its like of the same title, so that moving a unit is not a removal and an addition."""
    matcher = SequenceMatcher(a=[name_key(e.title) for e in before], b=[name_key(e.title) for e in after],
                              autojunk=False)
    removed: list[EntrySummary] = []
    added: list[EntrySummary] = []
    pairs: list[tuple[EntrySummary, EntrySummary]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or i2 - i1 == j2 - j1:
            pairs += zip(before[i1:i2], after[j1:j2])
        else:
            removed += before[i1:i2]
            added += after[j1:j2]
    for entry in list(removed):
        moved = next((other for other in added if name_key(other.title) == name_key(entry.title)), None)
        if moved is not None:
            removed.remove(entry)
            added.remove(moved)
            pairs.append((entry, moved))
    return removed, added, pairs


def _entry_changes(was: EntrySummary, now: EntrySummary, priced: bool, renumbered: dict[int, int]) -> list[str]:
    """What changed in one entry; its old lines' references to other entries ("leads #2 …") are read
    with those entries' new numbers, so that moving a unit changes nothing that refers to it."""
    old_lines = [REFERENCE.sub(lambda m: f"#{renumbered.get(int(m[1]), int(m[1]))}", line) for line in was.lines]
    if (was.title, was.points, old_lines) == (now.title, now.points, now.lines):
        return []
    moved = f"#{was.index + 1} → #{now.index + 1}" if was.index != now.index else f"#{now.index + 1}"
    title = now.title if was.title == now.title else f"{was.title} → {now.title}"
    delta = f" ({now.points - was.points:+,})" if was.points != now.points else ""
    changed = [f"    − {line}" for line, renamed in zip(was.lines, old_lines) if renamed not in now.lines]
    changed += [f"    + {line}" for line in now.lines if line not in old_lines]
    points = f": {_cost(was.points)} → {_cost(now.points)}{delta}" if priced else ""
    return [f"~ {moved} {title}{points}", *changed]


def _framed(old_file: str, old_total: int, old_valid: bool, new_file: str, new_total: int, new_valid: bool,
            lines: list[str], priced: bool = True) -> list[str]:
    """The changes under the two files' names, ending with the totals (where the game prices its
    rosters) and verdicts; nothing when nothing changed."""
    if lines or old_total != new_total:
        verdicts = f"{'LEGAL' if old_valid else 'ILLEGAL'} → {'LEGAL' if new_valid else 'ILLEGAL'}"
        lines.append(f"total: {old_total:,} → {new_total:,} points ({new_total - old_total:+,}); {verdicts}"
                     if priced else verdicts)
    return [f"{old_file} → {new_file}", *lines] if lines else []

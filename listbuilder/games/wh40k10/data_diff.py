"""What changed between two versions of the imported 40k data (`listbuilder data diff`): units
re-priced size by size, sizes added or gone, datasheets and detachments added or removed,
Enhancements re-priced, added or gone. Pure: the command line loads the two catalogs.

Datasheets and factions are matched by their BSData ids, which the data keeps across revisions
(a datasheet renamed is shown by its new name); detachments and Enhancements, which have none in
the catalog, by name (D46)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ...core.findings import Finding, LoadFailure
from .catalog import Faction, Unit, Wh40kCatalog
from .rules import find_faction


@dataclass(frozen=True)
class UnitChange:
    """A datasheet in both versions whose points changed: (models, old points, new points) per
    size priced in both, and (models, points) of the sizes only one has."""

    name: str
    repriced: list[tuple[int, int, int]] = field(default_factory=list)
    sizes_added: list[tuple[int, int]] = field(default_factory=list)
    sizes_gone: list[tuple[int, int]] = field(default_factory=list)


@dataclass(frozen=True)
class EnhancementChange:
    faction: str
    detachment: str
    name: str
    old: int | None  # None: added
    new: int | None  # None: gone


@dataclass
class DataDiff:
    old: str  # each version's revision
    new: str
    faction: str | None = None  # the faction compared (None: the whole data)
    units: list[UnitChange] = field(default_factory=list)
    datasheets_added: list[str] = field(default_factory=list)
    datasheets_removed: list[str] = field(default_factory=list)
    detachments_added: list[tuple[str, str]] = field(default_factory=list)  # (faction, detachment)
    detachments_removed: list[tuple[str, str]] = field(default_factory=list)
    enhancements: list[EnhancementChange] = field(default_factory=list)

    @property
    def same(self) -> bool:
        return not (self.units or self.datasheets_added or self.datasheets_removed or self.detachments_added
                    or self.detachments_removed or self.enhancements)


def data_diff(old: Wh40kCatalog, new: Wh40kCatalog, faction: str | None = None) -> DataDiff:
    """What changed from `old` to `new`; with `faction`, only its datasheets, detachments and
    Enhancements. Raises LoadFailure when neither version has that faction (or it is ambiguous)."""
    old_factions, new_factions = (_factions(data, faction) for data in (old, new))
    if faction is not None and not old_factions and not new_factions:
        names = sorted({f.short_name for f in [*old.factions, *new.factions]})
        raise LoadFailure([Finding("unknown-faction", f"neither version has the faction '{faction}' (or several "
                                   f"catalogues share that keyword)", suggestion="give a catalogue's name: "
                                   + ", ".join(names))])
    old_units, new_units = _units(old, old_factions), _units(new, new_factions)
    diff = DataDiff(old.data_revision, new.data_revision, faction)
    diff.units = [change for unit_id in new_units.keys() & old_units.keys()
                  if (change := _unit_change(old_units[unit_id], new_units[unit_id])) is not None]
    diff.units.sort(key=lambda change: change.name)
    diff.datasheets_added = sorted(new_units[i].name for i in new_units.keys() - old_units.keys())
    diff.datasheets_removed = sorted(old_units[i].name for i in old_units.keys() - new_units.keys())
    olds = {f.id: f for f in old_factions}
    for new_faction in new_factions:
        old_faction = olds.pop(new_faction.id, None)
        _detachments(diff, old_faction, new_faction)
    for gone in olds.values():
        diff.detachments_removed += [(gone.name, d.name) for d in gone.detachments]
    return diff


def _factions(data: Wh40kCatalog, faction: str | None) -> list[Faction]:
    if faction is None:
        return list(data.factions)
    found = find_faction(data, faction)
    return found if len(found) == 1 else []


def _units(data: Wh40kCatalog, factions: list[Faction]) -> dict[str, Unit]:
    return {unit_id: data.units[unit_id] for f in factions for unit_id in f.units if unit_id in data.units}


def _unit_change(old: Unit, new: Unit) -> UnitChange | None:
    before = {size.models: size.points for size in old.sizes}
    after = {size.models: size.points for size in new.sizes}
    change = UnitChange(new.name,
                        [(models, before[models], after[models]) for models in sorted(before.keys() & after.keys())
                         if before[models] != after[models]],
                        [(models, after[models]) for models in sorted(after.keys() - before.keys())],
                        [(models, before[models]) for models in sorted(before.keys() - after.keys())])
    return change if change.repriced or change.sizes_added or change.sizes_gone else None


def _detachments(diff: DataDiff, old: Faction | None, new: Faction) -> None:
    before = {d.name: d for d in old.detachments} if old else {}
    for detachment in new.detachments:
        earlier = before.pop(detachment.name, None)
        if earlier is None:
            diff.detachments_added.append((new.name, detachment.name))
            continue
        points = {e.name: e.points for e in earlier.enhancements}
        for enhancement in detachment.enhancements:
            was = points.pop(enhancement.name, None)
            if was != enhancement.points:
                diff.enhancements.append(EnhancementChange(new.name, detachment.name, enhancement.name, was,
                                                           enhancement.points))
        diff.enhancements += [EnhancementChange(new.name, detachment.name, name, was, None)
                              for name, was in points.items()]
    diff.detachments_removed += [(new.name, name) for name in before]


def _points(points: int | None) -> str:
    return "—" if points is None else f"{points:,}"


def diff_text(diff: DataDiff, old_label: str, new_label: str) -> str:
    """The diff as `data diff` prints it: one line per datasheet, detachment or Enhancement changed."""
    lines = [f"{old_label} ({diff.old}) → {new_label} ({diff.new})" + (f", {diff.faction}" if diff.faction else "")]
    if diff.same:
        return "\n".join([*lines, "No points, datasheets, detachments or Enhancements changed."])
    if diff.units:
        lines.append(f"Datasheets re-priced ({len(diff.units)}):")
        for unit in diff.units:
            parts = [f"{models} models {_points(was)} → {_points(now)}" for models, was, now in unit.repriced]
            parts += [f"{models} models added ({_points(now)})" for models, now in unit.sizes_added]
            parts += [f"{models} models gone (was {_points(was)})" for models, was in unit.sizes_gone]
            lines.append(f"  {unit.name}: " + "; ".join(parts))
    for heading, names in (("Datasheets added", diff.datasheets_added), ("Datasheets removed", diff.datasheets_removed)):
        if names:
            lines += [f"{heading} ({len(names)}):", *(f"  {name}" for name in names)]
    for heading, pairs in (("Detachments added", diff.detachments_added),
                           ("Detachments removed", diff.detachments_removed)):
        if pairs:
            lines += [f"{heading} ({len(pairs)}):", *(f"  {faction}: {name}" for faction, name in pairs)]
    if diff.enhancements:
        lines.append(f"Enhancements changed ({len(diff.enhancements)}):")
        for e in diff.enhancements:
            what = ("added" if e.old is None else "gone" if e.new is None else "")
            lines.append(f"  {e.faction} — {e.detachment} — {e.name}: " + (
                f"{what} ({_points(e.new if e.old is None else e.old)})" if what else f"{e.old:,} → {e.new:,}"))
    return "\n".join(lines)


def diff_json(diff: DataDiff, old_label: str, new_label: str) -> dict[str, Any]:
    return {"old": {"label": old_label, "revision": diff.old}, "new": {"label": new_label, "revision": diff.new},
            **{key: value for key, value in asdict(diff).items() if key not in ("old", "new")}}

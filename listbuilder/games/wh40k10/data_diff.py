"""What changed between two versions of the imported 40k data (`listbuilder data diff`): units
re-priced size by size, sizes added or gone, datasheets and detachments added or removed,
Enhancements re-priced, added or gone. Pure: the command line loads the two catalogs.

Datasheets and factions are matched by their BSData ids, which the data keeps across revisions
(a datasheet renamed is shown by its new name); detachments and Enhancements, which have none in
the catalog, by name (D41)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ...core.findings import Finding, LoadFailure
from .catalog import Faction, Unit, Wh40kCatalog
from .rules import faction_name, find_faction


@dataclass(frozen=True)
class SizeChange:
    models: int
    old: int | None  # its points; None: the size is added
    new: int | None  # None: the size is gone


@dataclass(frozen=True)
class UnitChange:
    """A datasheet in both versions whose sizes or their points changed, size by size."""

    name: str
    sizes: list[SizeChange]


@dataclass(frozen=True)
class EnhancementChange:
    faction: str
    detachment: str
    name: str
    old: int | None  # its points; None: added
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
        _detachments(diff, old_faction, new_faction, faction_name(new, new_faction))
    for gone in olds.values():
        diff.detachments_removed += [(faction_name(old, gone), d.name) for d in gone.detachments]
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
    sizes = [SizeChange(models, before.get(models), after.get(models))
             for models in sorted(before.keys() | after.keys()) if before.get(models) != after.get(models)]
    return UnitChange(new.name, sizes) if sizes else None


def _detachments(diff: DataDiff, old: Faction | None, new: Faction, called: str) -> None:
    """The detachments and Enhancements changed in faction `new` (`called` as every view names it, D42)."""
    before = {d.name: d for d in old.detachments} if old else {}
    for detachment in new.detachments:
        earlier = before.pop(detachment.name, None)
        if earlier is None:
            diff.detachments_added.append((called, detachment.name))
            continue
        points = {e.name: e.points for e in earlier.enhancements}
        for enhancement in detachment.enhancements:
            was = points.pop(enhancement.name, None)
            if was != enhancement.points:
                diff.enhancements.append(EnhancementChange(called, detachment.name, enhancement.name, was,
                                                           enhancement.points))
        diff.enhancements += [EnhancementChange(called, detachment.name, name, was, None)
                              for name, was in points.items()]
    diff.detachments_removed += [(called, name) for name in before]


def _change(old: int | None, new: int | None) -> str:
    """'80 → 85', 'added (90)', 'gone (was 90)'."""
    return f"added ({new:,})" if old is None else f"gone (was {old:,})" if new is None else f"{old:,} → {new:,}"


def _sizes_text(sizes: list[SizeChange]) -> list[str]:
    """Each run of consecutive model counts changed alike as one: '6-10 models 160 → 170' (the data
    prices a unit of 6 to 10 models as one, D41), else '5 models 80 → 85'."""
    runs: list[list[SizeChange]] = []
    for size in sizes:
        last = runs[-1][-1] if runs else None
        if last and (last.models + 1, last.old, last.new) == (size.models, size.old, size.new):
            runs[-1].append(size)
        else:
            runs.append([size])
    return [(f"{run[0].models}-{run[-1].models} models" if len(run) > 1 else
             f"{run[0].models} model{'s' if run[0].models != 1 else ''}") + f" {_change(run[0].old, run[0].new)}"
            for run in runs]


def diff_text(diff: DataDiff, old_label: str, new_label: str) -> str:
    """The diff as `data diff` prints it: one line per datasheet, detachment or Enhancement changed."""
    lines = [f"{old_label} ({diff.old}) → {new_label} ({diff.new})" + (f", {diff.faction}" if diff.faction else "")]
    if diff.same:
        return "\n".join([*lines, "No points, datasheets, detachments or Enhancements changed."])
    if diff.units:
        lines.append(f"Datasheets re-priced or resized ({len(diff.units)}):")
        for unit in diff.units:
            lines.append(f"  {unit.name}: " + "; ".join(_sizes_text(unit.sizes)))
    for heading, names in (("Datasheets added", diff.datasheets_added),
                           ("Datasheets removed", diff.datasheets_removed)):
        if names:
            lines += [f"{heading} ({len(names)}):", *(f"  {name}" for name in names)]
    for heading, pairs in (("Detachments added", diff.detachments_added),
                           ("Detachments removed", diff.detachments_removed)):
        if pairs:
            lines += [f"{heading} ({len(pairs)}):", *(f"  {faction}: {name}" for faction, name in pairs)]
    if diff.enhancements:
        lines.append(f"Enhancements changed ({len(diff.enhancements)}):")
        lines += [f"  {e.faction} — {e.detachment} — {e.name}: {_change(e.old, e.new)}" for e in diff.enhancements]
    return "\n".join(lines)


def diff_json(diff: DataDiff, old_label: str, new_label: str) -> dict[str, Any]:
    return {"old": {"label": old_label, "revision": diff.old}, "new": {"label": new_label, "revision": diff.new},
            **{key: value for key, value in asdict(diff).items() if key not in ("old", "new")}}

"""The shipped Epic Remastered data (lists/epic-remastered/, datasheets/epic-remastered/) put together,
with every name an army list or a data sheet uses checked at load time."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.findings import Finding, Path
from ...core.names import did_you_mean, name_key
from .derive import DerivedSheet, SheetBook
from .models import ArmyList, DatasheetFile, DetachmentList

GROUND, WAR_ENGINES, FLYERS = "Infantry and Vehicle", "War Engine", "Flyer"
KIND_OF_TYPE = {"INF": GROUND, "VEH": GROUND, "WE": WAR_ENGINES, "FLY": FLYERS}
KINDS_RULE = "Detachments (L559); War Engine detachments (L3203)"
Source = tuple[str, str, str]  # ("lists" | "datasheets", game, file stem)
DERIVED_VALUES = ("type", "speed", "range", "firepower", "assault", "armour")


@dataclass
class ErArmy:
    """An army list with the data sheets it may field."""

    army: ArmyList
    book: SheetBook
    kinds: dict[str, str | None] = field(default_factory=dict)  # detachment list name -> its kind, worked out once

    def detachment(self, name: str) -> DetachmentList | None:
        return next((d for d in self.army.detachments if name_key(d.name) == name_key(name)), None)

    def kind(self, detachment: DetachmentList) -> str | None:
        """Infantry and Vehicle, War Engine or Flyer: the one kind its units are (None if no type is known)."""
        if detachment.name not in self.kinds:
            kinds = {kind_of(self.sheet(entry.unit).profile.type) for _, entry in detachment.entries} - {None}
            self.kinds[detachment.name] = next(iter(kinds)) if len(kinds) == 1 else None
        return self.kinds[detachment.name]

    def sheet(self, name: str) -> DerivedSheet:
        """The data sheet of a unit its list fields: the catalog check finds every one."""
        sheet = self.book.derived(name)
        assert sheet is not None, name
        return sheet


def kind_of(unit_type: str | None) -> str | None:
    return KIND_OF_TYPE.get(unit_type or "")


@dataclass
class ErCatalog:
    armies: dict[str, ErArmy] = field(default_factory=dict)  # id -> army

    def find(self, name: str) -> ErArmy | None:
        return next((a for a in self.armies.values() if name_key(name) in (name_key(a.army.id), name_key(a.army.name))),
                    None)


def assemble(lists: dict[str, ArmyList],
             sheets: dict[str, DatasheetFile]) -> tuple[ErCatalog, list[tuple[Source, Finding]]]:
    """The catalog, and each reference problem with the file it lies in."""
    problems: list[tuple[Source, Finding]] = []
    catalog = ErCatalog()
    for stem, file in sheets.items():
        problems += [(("datasheets", "epic-remastered", stem), f) for f in _sheet_problems(file, sheets)]
    for stem, army in lists.items():
        source: Source = ("lists", "epic-remastered", stem)
        if army.id != stem:
            problems.append((source, Finding("misplaced-list", f"list '{army.id}' must be in "
                                             f"lists/epic-remastered/{army.id}.yaml", path=("id",))))
        missing = [n for n in army.datasheets if n not in sheets]
        for i, name in enumerate(army.datasheets):
            if name in missing:
                problems.append((source, Finding("unknown-datasheets",
                                                 f"no file datasheets/epic-remastered/{name}.yaml",
                                                 path=("datasheets", i), suggestion=did_you_mean(name, list(sheets)))))
        units = {name_key(u.name): u for stem in army.datasheets if stem in sheets for u in sheets[stem].units}
        er_army = ErArmy(army, SheetBook(units))
        problems += [(source, f) for f in _list_problems(er_army)]
        catalog.armies[army.id] = er_army
    return catalog, problems


def _sheet_problems(file: DatasheetFile, files: dict[str, DatasheetFile]) -> list[Finding]:
    everywhere = {name_key(u.name): u for f in files.values() for u in f.units}
    problems = []
    for i, unit in enumerate(file.units):
        if unit.base is None:
            continue
        base = everywhere.get(name_key(unit.base))
        if base is None:
            problems.append(Finding("unknown-base", f"{unit.name}: no data sheet for its base unit '{unit.base}'",
                                    path=("units", i, "base"),
                                    suggestion=did_you_mean(unit.base, [u.name for u in everywhere.values()])))
        elif base.base is not None:
            problems.append(Finding("derived-base", f"{unit.name}: its base unit {base.name} is itself derived from "
                                    f"{base.base}; name {base.base} as the base", path=("units", i, "base")))
        stated = [v for v in DERIVED_VALUES if getattr(unit, v) is not None]
        if stated:
            problems.append(Finding("derived-values", f"{unit.name} is derived from {unit.base}: "
                                    f"its {', '.join(stated)} "
                                    "are worked out from the base unit and its abilities, not written",
                                    path=("units", i, stated[0])))
    return problems


def _list_problems(er: ErArmy) -> list[Finding]:
    problems = []
    names = list(er.book.sheets)

    def unknown(name: str, path: Path) -> None:
        if er.book.get(name) is None:
            problems.append(Finding("unknown-unit", f"no data sheet for '{name}' in {', '.join(er.army.datasheets)}",
                                    path=path, suggestion=did_you_mean(name, [er.book.sheets[n].name for n in names])))

    for sheet in er.book.sheets.values():
        if sheet.base is not None and er.book.get(sheet.base) is None:
            problems.append(Finding("base-not-listed", f"{sheet.name} is derived from {sheet.base}, "
                                    f"whose data sheet is not in {', '.join(er.army.datasheets)}",
                                    path=("datasheets",)))
    for d, detachment in enumerate(er.army.detachments):
        at: Path = ("detachments", d)
        listed = {name_key(entry.unit) for _, entry in detachment.entries}
        for g, group in enumerate(detachment.groups):
            for e, entry in enumerate(group.entries):
                unknown(entry.unit, (*at, "groups", g, "units", e))
                for t, transport in enumerate(entry.transports):
                    unknown(transport, (*at, "groups", g, "units", e, "transports", t))
                    carrier = er.book.derived(transport)
                    if carrier is not None and carrier.carries is None:
                        problems.append(Finding("not-a-transport",
                                                f"{transport} has neither Transport (X) nor Hitch (X)",
                                                path=(*at, "groups", g, "units", e, "transports", t)))
        for r, rank in enumerate(detachment.ranks):
            for name in rank:
                if name_key(name) not in listed:
                    problems.append(Finding("command-not-listed", f"{detachment.name}: {name} is in the chain of "
                                            "command but not among the detachment's units",
                                            path=(*at, "chain_of_command", r)))
        if all(er.book.get(entry.unit) for _, entry in detachment.entries):
            kinds = {kind_of(er.sheet(entry.unit).profile.type) for _, entry in detachment.entries} - {None}
            if len(kinds) > 1:
                offered = " and ".join(sorted(filter(None, kinds)))
                problems.append(Finding("mixed-detachment-list", f"{detachment.name} offers {offered} "
                                        f"units; they do not mix in one detachment ({KINDS_RULE})", path=at))
    for i, limit in enumerate(er.army.limits):
        if (limit.unit is None) == (limit.detachment is None):
            problems.append(Finding("limit-target", "an army-wide limit names one unit or one detachment list",
                                    path=("limits", i)))
        elif limit.unit is not None:
            unknown(limit.unit, ("limits", i, "unit"))
        elif limit.detachment is not None and er.detachment(limit.detachment) is None:
            problems.append(Finding("unknown-detachment", f"no detachment list '{limit.detachment}'",
                                    path=("limits", i),
                                    suggestion=did_you_mean(limit.detachment, [d.name for d in er.army.detachments])))
    return problems

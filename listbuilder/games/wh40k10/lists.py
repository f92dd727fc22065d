"""A 40k army list as another tool wrote it (the official app's text, New Recruit's text, a
BattleScribe roster), read against the user's imported catalog into a listbuilder roster.

Each reader turns its form into a `ListedArmy`: the names and numbers as written, each with its
line. `to_roster` then places them the way a person would read them (case, straight or curly
apostrophes and plurals ignored), keeps every stated cost, and says where the list and the data
disagree: a unit's points for its size and Enhancement, the list's total. A line that cannot be
placed is an error with its line number; nothing is dropped silently. Judgement calls:
lists/wh40k-10e/DECISIONS.md (D16-D19, D22).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ...core import system as core_system
from ...core.findings import Finding, Location
from ...core.names import did_you_mean, name_key
from .catalog import Enhancement, Faction, Unit, Wh40kCatalog
from .roster import Wh40kRoster, Wh40kUnit
from .rules import battle_size, find_faction, has_keyword

IMPORT = "Importing a list"  # the rule findings of reading a list cite: what the list says vs. the data
# Findings on Declare Battle Formations choices these forms have no place for (D19): which unit
# starts embarked. A list cannot have said it, so it is a warning there, not an error.
UNSTATED = {"transport-empty": "the list's form does not say which units start embarked"}


def loose_key(name: str) -> str:
    """The key names are matched by: name_key (case, punctuation and straight or curly apostrophes
    ignored) with each word made singular ('Necron Warriors' and 'necron warrior' agree)."""
    words = []
    for word in name_key(name).split("-"):
        if len(word) > 3 and word.endswith("ies"):
            word = word[:-3] + "y"
        elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        words.append(word)
    return "-".join(words)


def named(name: str, candidates: list[str]) -> str | None:
    """The candidate a person writing `name` means: the same name_key, else the same loose_key."""
    for key in (name_key, loose_key):
        found = [c for c in candidates if key(c) == key(name)]
        if found:
            return found[0]
    return None


@dataclass
class ListedUnit:
    name: str
    line: int
    points: int | None = None  # as the list states it (with its Enhancement)
    models: int | None = None  # as a BattleScribe roster counts them
    model_lines: list[tuple[str, int]] = field(default_factory=list)  # 'Nx Name' lines: models or weapons
    armed: bool = False  # one of those lines has weapons of its own (nested lines, or New Recruit's ': ...')
    count: int | None = None  # New Recruit's 'Nx' before the unit's name
    enhancement: str | None = None
    enhancement_line: int | None = None
    warlord: bool = False
    label: str | None = None  # New Recruit's 'Char1', which its header refers to
    wargear: dict[str, int] = field(default_factory=dict)  # weapon -> how many of the unit's models carry it
    wargear_lines: dict[str, int] = field(default_factory=dict)  # weapon -> the line that first states it
    leads: str | None = None  # the Bodyguard unit a Leader is attached to, as the list names it
    entry_id: str | None = None  # a BattleScribe entry id
    options: list[tuple[str, int]] = field(default_factory=list)  # BattleScribe upgrades not in a group: (name, line)


MAX_UNITS = 1_000  # in one list: a real army has under 100; more is refused before any is placed


class ListUnreadable(ValueError):
    """A list that cannot be read at all, with the line that says why."""

    def __init__(self, line: int | None, message: str):
        super().__init__(message)
        self.line = line


@dataclass
class Unplaced:
    line: int
    text: str
    why: str


@dataclass
class ListedArmy:
    """What a list says, as written, with where it says it."""

    form: str  # e.g. "the official app's text"
    name: str = ""
    faction: str | None = None
    faction_line: int | None = None
    battle_size: str | None = None
    battle_size_line: int | None = None
    detachment: str | None = None
    detachment_line: int | None = None
    total: int | None = None
    total_line: int | None = None
    units: list[ListedUnit] = field(default_factory=list)
    unplaced: list[Unplaced] = field(default_factory=list)
    built_with: list[tuple[str, int, int]] = field(default_factory=list)  # (catalogue id, revision, line)
    configuration: list[tuple[str, int]] = field(default_factory=list)  # army settings that are not units: (text, line)
    # Lines of the header that did not say what they are (the app prints faction, sub-faction,
    # battle size and detachment one per line): placed once the catalog is known.
    header: list[tuple[int, str]] = field(default_factory=list)

    def unread(self, line: int, text: str, why: str) -> None:
        self.unplaced.append(Unplaced(line, text.strip(), why))

    def add(self, unit: ListedUnit) -> None:
        """Another unit of the list; refused past MAX_UNITS (a 23 KB .rosz held 168,000)."""
        if len(self.units) >= MAX_UNITS:
            raise ListUnreadable(unit.line, f"the list holds more than {MAX_UNITS:,} units (a real army has "
                                            "under 100); it is refused")
        self.units.append(unit)


class ImportedList(core_system.ImportedList[Wh40kRoster]):
    """A 40k list read against the data: its forms cannot state all a check asks for."""

    def as_listed(self, finding: Finding) -> Finding:
        """A check's finding as it applies to this list: a warning if the form could not have
        stated what it asks for."""
        why = UNSTATED.get(finding.code)
        return replace(finding, severity="warning", message=f"{finding.message} ({why})") if why else finding


def _faction(data: Wh40kCatalog, written: str) -> Faction | None:
    """'Imperium - Space Marines', 'Space Marines', 'Adeptus Astartes': the most specific catalogue."""
    for name in (written, written.rpartition(" - ")[2]):
        found = find_faction(data, name)
        if len(found) == 1:
            return found[0]
    loose = [f for f in data.factions if loose_key(written) in (loose_key(f.name), loose_key(f.short_name))]
    return loose[0] if len(loose) == 1 else None


def _place_header(listed: ListedArmy, data: Wh40kCatalog) -> None:
    """The app's header lines: battle sizes and factions by name (the last faction named is the
    most specific: 'Space Marines' then 'Ultramarines'), then the detachment of that faction."""
    rest = []
    for line, text in listed.header:
        size_name = re.sub(r"\s*\(.*\)\s*$", "", text)
        if battle_size(data, size_name) is not None:
            listed.battle_size, listed.battle_size_line = size_name, line
        elif _faction(data, text) is not None:
            listed.faction, listed.faction_line = text, line
        else:
            rest.append((line, text))
    faction = _faction(data, listed.faction) if listed.faction else None
    for line, text in rest:
        detachments = [d.name for d in faction.detachments] if faction else []
        if listed.detachment is None and named(text, detachments):
            listed.detachment, listed.detachment_line = text, line
        else:
            listed.unread(line, text, "not a faction, battle size or detachment of the data")


def _unit(data: Wh40kCatalog, faction: Faction, listed: ListedUnit) -> Unit | None:
    """The datasheet meant: by BattleScribe id, else by name in the faction, else anywhere (the
    check then says it is not the faction's)."""
    own = data.units_of(faction)
    if listed.entry_id:
        by_id = next((u for u in own if u.id == listed.entry_id), None) or data.units.get(listed.entry_id)
        if by_id is not None:
            return by_id
    for pool in (own, list(data.units.values())):
        name = named(listed.name, [u.name for u in pool])
        if name is not None:
            return next(u for u in pool if u.name == name)
    return None


def _models(unit: Unit, listed: ListedUnit, enhancement: Enhancement | None) -> int | None:
    """The model count written (D16): BattleScribe's; else the 'Nx Model' lines that name
    one of the datasheet's models (the others are weapons); else New Recruit's 'Nx' before the
    unit; else the one size whose points are those stated; else None (the fewest)."""
    if listed.models is not None:
        return listed.models
    kinds = [unit.name, *(m.name for m in unit.models)]
    counted = sum(count for name, count in listed.model_lines if named(name, kinds))
    if counted:  # '0x Name' lines count no model
        return counted
    if listed.count is not None and listed.count > 1:
        return listed.count
    extra = enhancement.points if enhancement else 0
    fitting = [s.models for s in unit.sizes if listed.points is not None and s.points + extra == listed.points]
    return fitting[0] if len(fitting) == 1 else None


def _models_written(listed: ListedUnit) -> int | None:
    """The model count of a unit the data does not know (D22): BattleScribe's; else its 'Nx Name'
    lines when they are evidently models (one names the unit itself or has weapons of its own);
    else, with no such lines, New Recruit's 'Nx' before the unit; else None (not stated)."""
    if listed.models is not None:
        return listed.models
    if listed.model_lines:
        evident = listed.armed or any(named(name, [listed.name]) for name, _ in listed.model_lines)
        return sum(count for _, count in listed.model_lines) or None if evident else None
    return listed.count or None


def to_roster(listed: ListedArmy, data: Wh40kCatalog, shown: str) -> ImportedList:
    findings: list[Finding] = []
    lines: dict[tuple[str | int, ...], int] = {}

    def note(code: str, message: str, line: int | None, severity: str = "warning", suggestion: str | None = None):
        findings.append(Finding(code, message, IMPORT, severity, location=Location(shown, line),  # type: ignore[arg-type]
                                suggestion=suggestion))

    _place_header(listed, data)
    faction = _faction(data, listed.faction) if listed.faction else None
    if faction is None:  # one finding: the header lines it could not place are what it says instead
        names = [f.short_name for f in data.factions]
        written = listed.faction or next((u.text for u in listed.unplaced if u.line < _first_unit(listed)), None)
        line = listed.faction_line or next((u.line for u in listed.unplaced if u.text == written), None)
        note("list-no-faction", "the list names no faction of the data" + (f" ('{written}')" if written else ""),
             line, "error", did_you_mean(written, names) if written else "add the faction's line")
        return ImportedList(None, findings, lines, shown, listed.form)
    for unplaced in listed.unplaced:
        note("list-line-unread", f"cannot place '{unplaced.text}': {unplaced.why}", unplaced.line, "error",
             "correct or remove the line; nothing of it was imported")
    units: list[Wh40kUnit] = []
    data_costs: list[int | None] = []
    detachment = next((d for d in faction.detachments if named(listed.detachment or "", [d.name])), None)
    offered = [e for d in ([detachment] if detachment else faction.detachments) for e in d.enhancements]
    for index, item in enumerate(listed.units):
        lines[("units", index)] = item.line
        unit = _unit(data, faction, item)
        if item.enhancement is None:  # a BattleScribe upgrade outside an Enhancements group that is one
            item.enhancement, item.enhancement_line = next(
                ((name, line) for name, line in item.options if named(name, [e.name for e in offered])),
                (None, None))
        enhancement_name = named(item.enhancement, [e.name for e in offered]) if item.enhancement else None
        enhancement = next((e for e in offered if e.name == enhancement_name), None)
        if item.enhancement_line is not None:
            lines[("units", index, "enhancement")] = item.enhancement_line
        if unit is None:  # kept as written: the check names it (unknown-unit), with this line
            units.append(Wh40kUnit(type=item.name, models=_models_written(item), enhancement=item.enhancement,
                                   warlord=item.warlord))
            data_costs.append(None)
            continue
        models = _models(unit, item, enhancement)
        units.append(Wh40kUnit(type=unit.name, models=models if unit.max_models > unit.min_models else None,
                               enhancement=enhancement.name if enhancement else item.enhancement, warlord=item.warlord,
                               reserves=has_keyword(unit, "Aircraft")))  # where the rules put it (D20)
        size_points = unit.points_for(models or unit.min_models)
        cost = None if size_points is None else size_points + (enhancement.points if enhancement else 0)
        data_costs.append(cost)
        if cost is not None and item.points is not None and cost != item.points:
            note("list-points-differ", f"{unit.name}: the list says {item.points}, the data of {data.data_revision} "
                 f"says {cost}", item.line, suggestion="the list was made with other data: check the points "
                 "with the player (`listbuilder data list` shows the data installed)")
    _total(listed, data, data_costs, note)
    for catalogue_id, revision, line in listed.built_with:
        installed = next((f for f in data.factions if f.id == catalogue_id), None)
        if installed is not None and installed.revision != revision:
            note("list-other-revision", f"the list was built with revision {revision} of {installed.name}; "
                 f"the data of {data.data_revision} has revision {installed.revision}", line)
    size = _battle_size(listed, data, data_costs, note)
    if listed.detachment is None:
        note("list-no-detachment", "the list names no detachment", None, "error",
             "add the detachment's line (the check lists those of the faction)")
    for key, line in (("faction", listed.faction_line), ("battle_size", listed.battle_size_line),
                      ("detachment", listed.detachment_line)):
        if line is not None:
            lines[(key,)] = line
    name = faction.short_name if find_faction(data, faction.short_name) == [faction] else faction.name
    roster = Wh40kRoster(game="wh40k-10e", faction=name, battle_size=size, name=listed.name,
                         detachment=detachment.name if detachment else listed.detachment or "", units=units)
    return ImportedList(roster, sorted(findings, key=_by_line), lines, shown, listed.form)


def _first_unit(listed: ListedArmy) -> int:
    return listed.units[0].line if listed.units else 1 << 30


def _by_line(finding: Finding) -> int:
    return finding.location.line or 0 if finding.location else 0


def _total(listed: ListedArmy, data: Wh40kCatalog, costs: list[int | None], note) -> None:
    if listed.total is None or None in costs:
        return  # a unit the data cannot price has its own finding
    total = sum(c for c in costs if c is not None)
    if total != listed.total:
        note("list-total-differs", f"the list says a total of {listed.total:,} points, the data of "
             f"{data.data_revision} says {total:,}", listed.total_line,
             suggestion="the units whose points differ are named in their own findings")


def _battle_size(listed: ListedArmy, data: Wh40kCatalog, costs: list[int | None], note) -> str:
    """The battle size written, else the smallest that holds the list (D17)."""
    if listed.battle_size:
        return listed.battle_size
    points = listed.total if listed.total is not None else sum(c or 0 for c in costs)
    sizes = sorted(data.system.battle_sizes, key=lambda s: s.points)
    size = next((s for s in sizes if s.points >= points), sizes[-1])
    note("list-battle-size-assumed", f"the list names no battle size; {size.name} ({size.points:,} points) is the "
         f"smallest that holds its {points:,} points", listed.total_line)
    return size.name

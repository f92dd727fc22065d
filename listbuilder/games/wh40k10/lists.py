"""A 40k army list as another tool wrote it (the official app's text, New Recruit's text, a
BattleScribe roster), read against the user's imported catalog into a listbuilder roster.

Each reader turns its form into a `ListedArmy`: the names and numbers as written, each with its
line. `to_roster` then places them the way a person would read them (case, straight or curly
apostrophes and plurals ignored), keeps every stated cost, and says where the list and the data
disagree: a unit's points for its size and Enhancement, the list's total. A line that cannot be
placed is an error with its line number; nothing is dropped silently. Judgement calls:
lists/wh40k-10e/DECISIONS.md (D16-D19, D22, D27-D29, D31, D32).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

from ...battlescribe.model import Option
from ...core import system as core_system
from ...core.findings import Finding, Location
from ...core.names import did_you_mean, name_key
from .catalog import Enhancement, Faction, Unit, Wh40kCatalog, loose_key, names_kind, weapon_name
from .engine_roster import choice_named, datasheet_option, is_weapon
from .loadout import UnitGear, gear_by_kind, unit_gear
from .roster import Wh40kRoster, Wh40kUnit
from .rules import battle_size, faction_name, find_faction, has_keyword

IMPORT = "Importing a list"  # the rule findings of reading a list cite: what the list says vs. the data
# Findings on Declare Battle Formations choices these forms have no place for (D19): which unit
# starts embarked. A list cannot have said it, so it is a warning there, not an error.
UNSTATED = {"transport-empty": "the list's form does not say which units start embarked"}
# A check's finding said of the roster, as it reads said of a list: its words and suggestion
AS_LISTED = {"no-detachment": ("the roster", "the list", "add the detachment the army uses to the list")}


class Names:
    """Names looked up the way a person reads them: the candidate of the same name_key, else the
    first of the same loose_key, else the same but for a ' [Legends]' mark (a list made before a
    datasheet moved to Legends, or after it came back; D29, D32). Each candidate's keys are made
    once, for the many lines of a unit."""

    def __init__(self, candidates: list[str]):
        self.exact: dict[str, str] = {}
        self.loose: dict[str, str] = {}
        self.unmarked: dict[str, str] = {}
        for candidate in candidates:
            self.exact.setdefault(name_key(candidate), candidate)
            self.loose.setdefault(loose_key(candidate), candidate)
            self.unmarked.setdefault(_unmarked_key(candidate), candidate)

    def __call__(self, name: str) -> str | None:
        return self.exact.get(name_key(name)) or self.loose.get(loose_key(name)) or self.unmarked.get(
            _unmarked_key(name))


def _unmarked_key(name: str) -> str:
    return loose_key(re.sub(r"\s*\[legends\]\s*$", "", name, flags=re.IGNORECASE))


def named(name: str, candidates: list[str]) -> str | None:
    """The candidate a person writing `name` means: the same name_key, else the same loose_key."""
    return Names(candidates)(name)


@dataclass
class ListedItem:
    """An 'Nx Name' line under a unit, as written: a kind of model or a weapon (wargear)."""

    name: str
    count: int
    line: int
    kind: str = "either"  # "model" (weapons are listed under it), "weapon", or "either": told by the datasheet
    under: int | None = None  # a weapon's: the index in ListedUnit.items of the model line it is listed under
    chosen: bool = False  # a weapon stated as taken instead of the default loadout: carried as written (D28)


@dataclass
class ListedUnit:
    name: str
    line: int
    points: int | None = None  # as the list states it (with its Enhancement)
    models: int | None = None  # as a BattleScribe roster counts them
    items: list[ListedItem] = field(default_factory=list)  # its 'Nx Name' lines: models and their weapons
    count: int | None = None  # New Recruit's 'Nx' before the unit's name
    enhancement: str | None = None
    enhancement_line: int | None = None
    warlord: bool = False
    label: str | None = None  # New Recruit's 'Char1', which its header refers to
    called: str | None = None  # the player's own name for the unit (the roster's `label`), as `export` writes it
    leads: str | None = None  # the Bodyguard unit a Leader is attached to, as the list names it
    embarked_in: str | None = None  # the Transport it starts embarked in, as the list names it
    reserves: bool = False  # it starts in Strategic Reserves
    hover: bool = False  # an Aircraft in Hover mode
    entry_id: str | None = None  # a BattleScribe entry id
    options: list[tuple[str, int, int]] = field(default_factory=list)  # BattleScribe upgrades with no weapon
    # profile, not in an Enhancements group: (name, line, number)
    stated_options: list[tuple[str, int]] = field(default_factory=list)  # `export`'s `Option:` notes (name, line)

    def add(self, item: ListedItem) -> int:
        """Another line of the unit; its index, which a weapon listed under it refers to."""
        self.items.append(item)
        return len(self.items) - 1


FORMATION_NOTE = re.compile(r"^(?P<key>label|attached to|embarked in):\s*(?P<value>.+)$", re.IGNORECASE)
RESERVES, HOVER = "In Strategic Reserves", "In Hover mode"


def formation_notes(entry: Wh40kUnit, label: bool = True) -> list[str]:
    """The Declare Battle Formations choices the forms other tools write have no field for, as
    notes of our own that `read_formation_note` reads back (D19): the unit's label (unless the form
    has a field for it: a BattleScribe custom name), the unit a Leader is attached to, the
    Transport it starts in, Strategic Reserves, Hover mode."""
    notes = ((f"Label: {entry.label}", label and entry.label), (f"Attached to: {entry.leads}", entry.leads),
             (f"Embarked in: {entry.embarked_in}", entry.embarked_in), (RESERVES, entry.reserves), (HOVER, entry.hover))
    return [note for note, stated in notes if stated]


def read_formation_note(listed: ListedUnit, text: str) -> bool:
    """Places one of `formation_notes`'s notes on the unit; False if the text is none."""
    note = FORMATION_NOTE.match(text)
    key = note["key"].casefold() if note else text.casefold()
    if note and key == "label":
        listed.called = note["value"]
    elif note and key == "attached to":
        listed.leads = note["value"]
    elif note and key == "embarked in":
        listed.embarked_in = note["value"]
    elif key == RESERVES.casefold():
        listed.reserves = True
    elif key == HOVER.casefold():
        listed.hover = True
    else:
        return False
    return True


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
    formations_stated: bool = False  # written by `export`, which states Leaders, transports and Reserves (D19)

    def unread(self, line: int, text: str, why: str) -> None:
        self.unplaced.append(Unplaced(line, text.strip(), why))

    def add(self, unit: ListedUnit) -> None:
        """Another unit of the list; refused past MAX_UNITS (a 23 KB .rosz held 168,000)."""
        if len(self.units) >= MAX_UNITS:
            raise ListUnreadable(unit.line, f"the list holds more than {MAX_UNITS:,} units (a real army has "
                                            "under 100); it is refused")
        self.units.append(unit)


class ImportedList(core_system.ImportedList[Wh40kRoster]):
    """A 40k list read against the data: its forms cannot state all a check asks for, but for the
    app's text `export` writes (D19)."""

    formations_stated = False  # the list states the Declare Battle Formations choices

    def as_listed(self, finding: Finding) -> Finding:
        """A check's finding as it applies to this list: a warning if the form could not have
        stated what it asks for; in the list's words where it speaks of the roster."""
        why = None if self.formations_stated else UNSTATED.get(finding.code)
        if why:
            return replace(finding, severity="warning", message=f"{finding.message} ({why})")
        if finding.code in AS_LISTED:
            said, listed, suggestion = AS_LISTED[finding.code]
            return replace(finding, message=finding.message.replace(said, listed, 1), suggestion=suggestion)
        return finding


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
    most specific: 'Space Marines' then 'Ultramarines'), then the detachment of that faction; else
    the line after the battle size, the detachment's place, is the detachment as written (the
    check names it: 'Gladius Taks Force', did you mean...)."""
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
    detachments = [d.name for d in faction.detachments] if faction else []
    for line, text in rest:
        if listed.detachment is None and named(text, detachments):
            listed.detachment, listed.detachment_line = text, line
    for line, text in rest:
        if line == listed.detachment_line:
            continue
        if faction and listed.detachment is None and listed.battle_size_line is not None \
                and line == listed.battle_size_line + 1:
            listed.detachment, listed.detachment_line = text, line
        else:
            listed.unread(line, text, "not a faction, battle size or detachment of the data")


LEGENDS = " [Legends]"  # how the data names a datasheet kept as Legends: lists name it without


class _Datasheets:
    """The data's datasheets by name, the faction's first, then any (the check then says it is not
    the faction's); each name also as the app prints a Legends datasheet's, without ' [Legends]'
    (D29). Their keys are made once per list: a list of many units looks up each among thousands."""

    def __init__(self, data: Wh40kCatalog, faction: Faction):
        self.own = data.units_of(faction)
        self.units = data.units
        self.faction = faction
        self.lookups: list[tuple[Names, dict[str, Unit]]] = []
        for pool in (self.own, list(data.units.values())):
            for shown in (lambda u: u.name, lambda u: u.name.removesuffix(LEGENDS)):
                by_name: dict[str, Unit] = {}
                for unit in pool:
                    by_name.setdefault(shown(unit), unit)
                self.lookups.append((Names(list(by_name)), by_name))

    def meant(self, listed: ListedUnit) -> Unit | None:
        """The datasheet meant: by BattleScribe id, else by name; a name the app prefixed with the
        chapter's ('Black Templars Repulsor Executioner') also without it (D29)."""
        if listed.entry_id:
            by_id = next((u for u in self.own if u.id == listed.entry_id), None) or self.units.get(listed.entry_id)
            if by_id is not None:
                return by_id
        prefix = f"{self.faction.short_name.casefold()} "
        name = listed.name.removesuffix(LEGENDS)  # a list made while the datasheet was Legends, which it is no more
        written = [name, *([name[len(prefix):]] if name.casefold().startswith(prefix) else [])]
        for lookup, by_name in self.lookups:
            found = next((name for name in map(lookup, written) if name is not None), None)
            if found is not None:
                return by_name[found]
        return None


def _size_by_points(unit: Unit, listed: ListedUnit, enhancement: Enhancement | None) -> int | None:
    """The one size whose points (and the Enhancement's) are those the list states, if one."""
    extra = enhancement.points if enhancement else 0
    fitting = [s.models for s in unit.sizes if listed.points is not None and s.points + extra == listed.points]
    return fitting[0] if len(fitting) == 1 else None


def _model_lines(unit: Unit, listed: ListedUnit) -> tuple[set[int], bool]:
    """The lines of `listed` that are models (D27): those with weapons listed under them and those
    that name one of the datasheet's kinds of model; and whether a line is left that may be a model
    under another name (it names no weapon of the datasheet either)."""
    kinds = Names([unit.name, *(m.name for m in unit.models),  # and as lists shorten them: 'Pathfinders'
                   *(re.split(r"\s+w/", m.name)[0] for m in unit.models)])  # for 'Pathfinders w/ ion rifle'
    weapons = Names([weapon_name(w.name) for w in unit.weapons])
    either = [i for i, item in enumerate(listed.items) if item.kind != "weapon"]
    models = {i for i in either if listed.items[i].kind == "model" or kinds(listed.items[i].name)}
    return models, any(i not in models and not weapons(listed.items[i].name) for i in either)


def _models(unit: Unit, listed: ListedUnit, enhancement: Enhancement | None) -> int | None:
    """The model count written (D16, D27): BattleScribe's; else the list's model lines added up,
    unless that is no size of the datasheet while some lines may be models of names the data does
    not use ('4x Scout' for 'Scouts w/ Boltgun'), when the one size the unit's stated points fit is
    taken; else New Recruit's 'Nx' before the unit; else that size; else None (the fewest)."""
    if listed.models is not None:
        return listed.models
    models, undecided = _model_lines(unit, listed)
    counted = sum(listed.items[i].count for i in models)  # '0x Name' lines count no model
    by_points = _size_by_points(unit, listed, enhancement)
    if counted and (unit.points_for(counted) is not None or not undecided or by_points is None):
        return counted
    if not counted and listed.count is not None and listed.count > 1:
        return listed.count
    return by_points


def _models_written(listed: ListedUnit) -> int | None:
    """The model count of a unit the data does not know (D22): BattleScribe's; else its model lines
    when they are evidently models (one has weapons listed under it or names the unit itself); else,
    with no such lines, New Recruit's 'Nx' before the unit; else None (not stated)."""
    if listed.models is not None:
        return listed.models
    lines = [item for item in listed.items if item.kind != "weapon"]
    if lines:
        evident = any(item.kind == "model" or named(item.name, [listed.name]) for item in lines)
        return sum(item.count for item in lines) or None if evident else None
    return listed.count or None


def _wargear(unit: Unit, listed: ListedUnit, models: int, defaults: UnitGear) -> tuple[dict[str, int],
                                                                                   list[ListedItem]]:
    """The roster's `wargear` from the weapons the list states (D28): each weapon of the datasheet
    on as many models as carry it (at most the models of the line it is listed under, however often
    that line names it, D61, and of the unit; a unit of one model: as many of it as stated, D63),
    only those on more models than the unit built with no choice made carries it (`defaults`), and
    outside its default loadout (which kind a line's models are the list does not always say)
    unless a choice that unit leaves unmade offers it (D59: a Hellblaster Sergeant's bolt pistol);
    and the lines that name no weapon of the datasheet."""
    model_lines, _ = _model_lines(unit, listed)
    weapons = Names(sorted({weapon_name(w.name) for w in unit.weapons}))
    default = {name_key(w) for w in default_loadout(unit)}
    by_line: dict[tuple[str, int | None], int] = {}  # (weapon, the model line it is under): its carriers
    one = models == 1  # a unit of one model: a weapon's number is how many of it the model carries (D63)
    chosen: dict[str, int] = {}
    unplaced = []
    for index, item in enumerate(listed.items):
        weapon = weapons(item.name)
        if item.chosen:  # as written: the check says what the datasheet does not allow
            chosen[weapon or item.name] = item.count
        elif index in model_lines or not item.count:
            continue
        elif weapon is None:
            unplaced.append(item)
        else:
            line = listed.items[item.under].count if item.under is not None else models
            stated = by_line.get((weapon, item.under), 0) + item.count
            by_line[weapon, item.under] = stated if one else min(stated, line)
    carried: dict[str, int] = {}
    for (weapon, _), count in by_line.items():
        carried[weapon] = carried.get(weapon, 0) + count if one else min(carried.get(weapon, 0) + count, models)
    # weapons stated as taken first: those `export` states so are those the weapons after them took
    # the place of in the engine (D46), and are placed before them again
    return chosen | {w: n for w, n in carried.items() if w not in chosen and n > defaults.carried.get(name_key(w), 0)
                     and (name_key(w) not in default or name_key(w) in defaults.unchosen)}, unplaced


def carried(unit: Unit, listed: ListedUnit, models: int, option: Option | None,
            gear_of: Callable[[dict[str, int]], UnitGear]) -> tuple[dict[str, int], list[tuple[str, int]],
                                                                         list[ListedItem]]:
    """What a roster takes of a unit's listed lines: its `wargear` (D28), its `options` (D44) with
    their lines, and the lines that are neither. `option`: the datasheet's entry in the engine's
    data (None: no choice that is not a weapon is known); `gear_of`: what the unit carries with
    such `wargear` (loadout.unit_gear). What the unit carries with no choice made is not taken,
    nor is what it carries anyway with the weapons taken (the Lychguard's dispersion shields with
    their hyperphase swords; D46)."""
    wargear, left = _wargear(unit, listed, models, gear_of({}))
    held = gear_of(wargear).carried if left else {}
    options, left = _options(option, [i for i in left if held.get(name_key(i.name), 0) < i.count])
    return wargear, options, left


def carried_by(unit: Unit, listed: ListedUnit, models: int, wargear: dict[str, int],
               placed: Callable[[dict[str, int]], list[tuple[str, dict[str, int]]]]) -> dict[str, dict[str, int]]:
    """Which kinds of model carry which of the roster's `wargear`, where the list says it (a weapon
    listed under a model line naming a kind of model of the datasheet, on all the models `wargear`
    gives it to) and the weapons placed by their numbers alone are elsewhere (D56): each such weapon
    with every kind the list gives it to. `placed`: each model selection's kind and what it carries
    with that `wargear` (loadout.gear_by_kind)."""
    weapons = Names(list(wargear))
    kinds = [m.name for m in unit.models]
    stated: dict[tuple[str, str], int] = {}  # (kind of model as written, weapon of `wargear`) -> models
    for item in listed.items:
        line = listed.items[item.under] if item.kind == "weapon" and item.under is not None else None
        weapon = weapons(item.name) if line is not None else None
        if line is not None and weapon is not None and any(names_kind(line.name, name) for name in kinds):
            # '2x Missile pod' under one Broadside: the models of the line carry them
            stated[(line.name, weapon)] = stated.get((line.name, weapon), 0) + min(item.count, line.count)
    whole = {w for w, n in wargear.items() if sum(c for (_, weapon), c in stated.items() if weapon == w) == n}
    stated = {(kind, weapon): count for (kind, weapon), count in stated.items() if weapon in whole}
    if not stated or models <= 1:
        return {}
    tree = placed(wargear)
    elsewhere = {weapon for (kind, weapon), count in stated.items()
                 if sum(gear.get(name_key(weapon), 0) for name, gear in tree if names_kind(kind, name)) != count}
    found: dict[str, dict[str, int]] = {}
    for (kind, weapon), count in stated.items():
        if weapon in elsewhere:
            found.setdefault(kind, {})[weapon] = count
    return found


def _options(option: Option | None, items: list[ListedItem]) -> tuple[list[tuple[str, int]], list[ListedItem]]:
    """The roster's `options` (each with its line) from the lines that name no weapon: those that
    name a choice of the unit in the engine's data that is not a weapon (a Daemon Prince's
    Allegiance, D44); and the lines left."""
    options: list[tuple[str, int]] = []
    left = []
    for item in items:
        choice = choice_named(option, item.name) if option is not None else None
        if choice is None or is_weapon(choice):
            left.append(item)
        elif all(name != choice.name for name, _ in options):
            options.append((choice.name, item.line))
    return options, left


def default_loadout(unit: Unit) -> set[str]:
    """The weapons a unit's models start with, as a list cannot tell them from choices (D28): those
    of each kind of model it must have and of its most numerous kind, which the unit grows by. A
    kind it may have none of ('Intercessor w/ Grenade Launcher', at most 2) is itself a choice: its
    weapon is the choice made."""
    most = max((m.max for m in unit.models), default=0)
    kinds = [m for m in unit.models if m.min > 0 or m.max == most]
    names = {m.name for m in kinds}
    return ({w for m in kinds for w in [*m.default_wargear, *(m.default_weapons or [])]}  # down to the weapons
            | {w for c in unit.wargear_choices if c.model in names for w in c.default_weapons})


def to_roster(listed: ListedArmy, data: Wh40kCatalog, shown: str,
              priced: Callable[[Wh40kRoster], dict[int, int]] | None = None) -> ImportedList:
    """The list placed against the data as a roster, with what the list and the data disagree on;
    `priced`: each unit's points as the check prices them in this army (an ally's surcharge, D37),
    else the data's table of sizes."""
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
    compared: list[tuple[int, str, ListedUnit]] = []  # the units whose stated points are compared: (index, name)
    detachment = next((d for d in faction.detachments if named(listed.detachment or "", [d.name])), None)
    offered = [e for d in ([detachment] if detachment else faction.detachments) for e in d.enhancements]
    datasheets = _Datasheets(data, faction)
    army = Wh40kRoster(game="wh40k-10e", faction=faction_name(data, faction), battle_size=listed.battle_size or "",
                       detachment=detachment.name if detachment else "")  # where a unit's defaults are built
    for index, item in enumerate(listed.units):
        lines[("units", index)] = item.line
        unit = datasheets.meant(item)
        _enhancement_among_items(item, [e.name for e in offered], [weapon_name(w.name) for w in unit.weapons]
                                 if unit is not None else [])
        enhancement_name = _enhancement(item.enhancement, [e.name for e in offered]) if item.enhancement else None
        enhancement = next((e for e in offered if e.name == enhancement_name), None)
        if item.enhancement_line is not None:
            lines[("units", index, "enhancement")] = item.enhancement_line
        stated = {"label": item.called, "leads": item.leads,
                  "embarked_in": item.embarked_in, "warlord": item.warlord, "hover": item.hover}
        if unit is None:  # kept as written: the check names it (unknown-unit), with this line
            units.append(Wh40kUnit(type=item.name, models=_models_written(item), enhancement=item.enhancement,
                                   wargear={i.name: i.count for i in item.items if i.chosen and i.count},
                                   options=[name for name, _ in item.stated_options],
                                   reserves=item.reserves, **stated))
            data_costs.append(None)
            continue
        if unit.legends:
            note("list-legends", f"'{item.name}' is the Legends datasheet {unit.name} in the data of "
                 f"{data.data_revision}", item.line, suggestion="check with the event that it admits Legends")
        models = _models(unit, item, enhancement)
        engine = data.engine_data(faction)
        option = datasheet_option(engine, faction, unit.id) if engine is not None else None
        counted = models or unit.min_models
        wargear, options, unplaced_gear = carried(unit, item, counted, option, partial(
            unit_gear, data, faction, army, unit, counted))
        by_kind = carried_by(unit, item, counted, wargear, partial(gear_by_kind, data, faction, army, unit, counted))
        lines.update({("units", index, "carried_by", kind): next(
            (i.line for i in item.items if i.kind == "model" and i.name == kind), item.line) for kind in by_kind})
        options = item.stated_options + options
        lines.update({("units", index, "options", i): line for i, (_, line) in enumerate(options)})
        lines.update({("units", index, "wargear", weapon): next(
            (i.line for i in item.items if named(i.name, [weapon])), item.line) for weapon in wargear})
        if unplaced_gear:
            gear = list(dict.fromkeys(g.name for g in unplaced_gear))
            note("list-wargear-unplaced", f"{unit.name}: {', '.join(repr(g) for g in gear)} "
                 f"{'is' if len(gear) == 1 else 'are'} not a weapon of its datasheet; not carried into "
                 "the roster", unplaced_gear[0].line, suggestion="the list's wargear is otherwise the roster's; "
                 "check these by hand")
        size_points = unit.points_for(models or unit.min_models)
        allowed = size_points is not None  # else the count stays as stated and the check says so (D31)
        units.append(Wh40kUnit(type=unit.name, models=models if unit.max_models > unit.min_models or not allowed
                               else None, enhancement=enhancement.name if enhancement else item.enhancement,
                               wargear=wargear, carried_by=by_kind, options=[name for name, _ in options],
                               reserves=item.reserves or (not listed.formations_stated  # where the
                                                          and has_keyword(unit, "Aircraft")),  # rules put it (D20)
                               **stated))
        size_points = size_points if allowed else unit.points_for(unit.min_models)  # as the check prices it
        cost = None if size_points is None else size_points + (enhancement.points if enhancement else 0)
        data_costs.append(cost)
        if allowed:
            compared.append((len(units) - 1, unit.name, item))
    if listed.configuration:
        note("list-configuration", "the list's configuration, kept aside (not units): "
             + "; ".join(f"{text} (line {line})" for text, line in listed.configuration), listed.configuration[0][1])
    for catalogue_id, revision, line in listed.built_with:
        installed = next((f for f in data.factions if f.id == catalogue_id), None)
        if installed is not None and installed.revision != revision:
            note("list-other-revision", f"the list was built with revision {revision} of {installed.name}; "
                 f"the data of {data.data_revision} has revision {installed.revision}", line)
    size = _battle_size(listed, data, data_costs, note)
    header = [line for line in (listed.faction_line, listed.battle_size_line) if line is not None]
    for key, line in (("faction", listed.faction_line), ("battle_size", listed.battle_size_line),
                      ("detachment", listed.detachment_line or max(header, default=None))):  # else where it belongs
        if line is not None:
            lines[(key,)] = line
    roster = Wh40kRoster(game="wh40k-10e", faction=faction_name(data, faction), battle_size=size, name=listed.name,
                         detachment=detachment.name if detachment else listed.detachment or "", units=units)
    checked = priced(roster) if priced is not None else {}
    for index, unit_name, item in compared:
        cost = data_costs[index] = checked.get(index, data_costs[index])
        if cost is not None and item.points is not None and cost != item.points:
            note("list-points-differ", f"{unit_name}: the list says {item.points}, the data of {data.data_revision} "
                 f"says {cost}", item.line, suggestion="the list was made with other data: check the points "
                 "with the player (`listbuilder data list` shows the data installed)")
    _total(listed, data, data_costs, note)
    imported = ImportedList(roster, sorted(findings, key=_by_line), lines, shown, listed.form)
    imported.formations_stated = listed.formations_stated
    imported.stated_total = listed.total
    return imported


def _enhancement_among_items(listed: ListedUnit, offered: list[str], weapons: list[str]) -> None:
    """A BattleScribe upgrade outside an Enhancements group, or an item of a roster text's unit
    line, that is an Enhancement of the detachment is the unit's Enhancement, not its wargear,
    unless it names one of the datasheet's `weapons` (Yvraine's Storm of Whispers, also an
    Enhancement's name; D46); the other upgrades are wargear if weapons of the datasheet, else
    said to be none (D28)."""
    listed.items += [ListedItem(name, number, line, "weapon") for name, line, number in listed.options]
    found = next((i for i in listed.items if i.kind != "model" and (
        named(i.name, [listed.enhancement]) if listed.enhancement
        else named(i.name, offered) and not named(i.name, weapons))), None)
    if found is not None:
        listed.items.remove(found)
        if listed.enhancement is None:
            listed.enhancement, listed.enhancement_line = found.name, found.line


def _enhancement(written: str, offered: list[str]) -> str | None:
    """The Enhancement meant: by name, else without a note in brackets, which the app and the data
    each add or leave out ('Tempered in Battle (Aura)', 'Font of Spores (Aura)')."""
    bare = {_without_note(name): name for name in reversed(offered)}
    found = named(written, offered) or named(_without_note(written), list(bare))
    return bare.get(found, found) if found else None


def _without_note(name: str) -> str:
    return re.sub(r"\s*\([^()]*\)$", "", name)


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
    """The battle size written, else the smallest that holds the list (D17); one the data does not
    know (New Recruit's and BattleScribe's are taken as written) is an error, and that size is read."""
    written = listed.battle_size
    if written and battle_size(data, written) is not None:
        return written
    points = listed.total if listed.total is not None else sum(c or 0 for c in costs)
    sizes = sorted(data.system.battle_sizes, key=lambda s: s.points)
    size = next((s for s in sizes if s.points >= points), sizes[-1])
    if written:
        note("list-battle-size-unknown", f"'{written}' is not a battle size of the data; read as {size.name}, the "
             f"smallest that holds its {points:,} points", listed.battle_size_line, "error",
             "write one of: " + ", ".join(s.name for s in sizes))
    else:
        note("list-battle-size-assumed", f"the list names no battle size; {size.name} ({size.points:,} points) is "
             f"the smallest that holds its {points:,} points", listed.total_line)
    return size.name

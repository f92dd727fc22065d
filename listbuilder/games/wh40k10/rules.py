"""The muster rules of Warhammer 40,000 10th edition (seed 001), checked against the user's
imported catalog, one finding per broken rule, and the values a player needs at the table:
Starting Strength, Below Half-strength, the Toughness of an attached unit, its best Leadership,
and Strategic Reserves against their cap. Judgement calls: lists/wh40k-10e/DECISIONS.md."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ...core.findings import Finding, FindingList, LoadFailure, finding_text
from ...core.names import did_you_mean, name_key, plural
from ...listengine.catalog import Catalog
from .catalog import (
    GAME_ID,
    IMPORTER_VERSION,
    BattleSize,
    Detachment,
    Enhancement,
    Faction,
    ModelRange,
    Unit,
    WargearChoice,
    Wh40kCatalog,
    names_kind,
    weapon_name,
)
from .data_rules import data_findings, merged
from .engine_roster import SelectionTree, selection_tree
from .roster import Wh40kRoster, Wh40kUnit

BATTLE_SIZE = "Muster Your Army 1: Select Battle Size"
FACTION = "Muster Your Army 3: Select Army Faction"
DETACHMENT = "Muster Your Army 4: Select Detachment Rules"
UNITS = "Muster Your Army 5: Select Units"
WARLORD = "Muster Your Army 6: Select Warlord"
REIMPORT = "import your BSData copy again: listbuilder data import bsdata PATH"
LEADER = "Leader"
WARGEAR = "{} datasheet (Datasheets 6-7: Unit Composition, Wargear Options)"  # L1535-1556, L1608-1612
TRANSPORTS = "Transports: Transport Capacity"
DEDICATED = "Muster Your Army 5: Dedicated Transports"
RESERVES = "Strategic Reserves"
AIRCRAFT = "Aircraft: Deploying Aircraft"
HOVER = "Aircraft: Hover"
# Wargear the muster rules refuse is left out of the engine's tree: one mistake, one finding (D38)
REFUSED_WARGEAR = {"unknown-wargear", "wargear-count", "wargear-not-allowed"}
RESERVES_SHARE = 4  # Strategic Reserves may hold at most a quarter of the battle size's points (L1914)


@dataclass
class CheckedUnit:
    index: int
    entry: Wh40kUnit
    unit: Unit
    models: int
    points: int  # the unit at its model count, with its Enhancement
    enhancement: Enhancement | None = None
    leads: int | None = None  # the index of its Bodyguard unit
    leaders: list[int] = field(default_factory=list)  # indexes of the Leaders attached to it
    embarked_in: int | None = None  # the index of its Transport
    derived: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.unit.name

    @property
    def title(self) -> str:
        name = self.unit.name if self.unit.max_models == 1 else f"{self.models} {self.unit.name}"
        return name + (f" “{self.entry.label}”" if self.entry.label else "")

    def has(self, keyword: str) -> bool:
        if self.entry.hover and name_key(keyword) == "aircraft":
            return False  # in Hover mode it loses the Aircraft keyword (L2184)
        return has_keyword(self.unit, keyword)


@dataclass
class Wh40kResult:
    roster: Wh40kRoster
    faction: Faction
    faction_name: str  # as the roster and every view name it (faction_name)
    battle_size: BattleSize
    detachment: Detachment | None
    units: list[CheckedUnit]
    findings: list[Finding]
    data_revision: str  # of the imported catalog that checked it
    derived: dict[str, Any] = field(default_factory=dict)
    tree: SelectionTree | None = None  # the roster as the engine's selection tree (None: no engine data)
    event_points: int | None = None  # an event's points, where they cap the army within its battle size (D40)

    @property
    def limit(self) -> int:
        return self.battle_size.points

    @property
    def points_limit(self) -> int:
        """What the army may cost: its battle size's points, or the event's cap within them."""
        return min(self.limit, self.event_points or self.limit)

    @property
    def total(self) -> int:
        return sum(u.points for u in self.units)

    @property
    def valid(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)


def data_of(catalog: Catalog, faction: str | None = None) -> Wh40kCatalog | None:
    """The installed data; with a roster's `faction`, perhaps only its units (which loads faster)."""
    return catalog.imported(GAME_ID, faction)


def installed(catalog: Catalog) -> Wh40kCatalog | str:
    """The user's 40k data, or why there is none (not imported, broken) and how to import it."""
    try:
        data = data_of(catalog)
    except LoadFailure as failure:
        return "\n".join(finding_text(f) for f in failure.findings)
    return data if data is not None else (f"no {GAME_ID} data is installed: listbuilder data import bsdata PATH "
                                          f"(or, online: listbuilder data fetch {GAME_ID})")


def battle_size(data: Wh40kCatalog, name: str) -> BattleSize | None:
    return next((s for s in data.system.battle_sizes if name_key(s.name) == name_key(name)), None)


def unknown_names(roster: Wh40kRoster, catalog: Catalog) -> list[Finding]:
    """No data, an unknown faction or battle size: the roster cannot be checked at all."""
    data = data_of(catalog, roster.faction)
    if data is None:
        return [Finding("no-data", "no Warhammer 40,000 data is installed", path=("game",),
                        suggestion="import your copy of the BSData wh40k-10e files: "
                                   "listbuilder data import bsdata PATH")]
    findings = []
    factions = find_faction(data, roster.faction)
    if not factions:
        names = [f.name.rpartition(" - ")[2] for f in data.factions] + [f.name for f in data.factions]
        findings.append(Finding("unknown-faction", f"unknown faction '{roster.faction}'", FACTION, path=("faction",),
                                suggestion=did_you_mean(roster.faction, names)))
    elif len(factions) > 1:
        findings.append(Finding("ambiguous-faction", f"{len(factions)} catalogues have the Faction keyword "
                                f"'{roster.faction}': {', '.join(f.name for f in factions)}", FACTION,
                                path=("faction",), suggestion="name the catalogue you build from"))
    if battle_size(data, roster.battle_size) is None:
        sizes = [f"{s.name} ({s.points:,} points)" for s in data.system.battle_sizes]
        findings.append(Finding("unknown-battle-size", f"unknown battle size '{roster.battle_size}' "
                                f"(known: {', '.join(sizes)})", BATTLE_SIZE, path=("battle_size",),
                                suggestion=did_you_mean(roster.battle_size,
                                                        [s.name for s in data.system.battle_sizes])))
    return findings


def number(characteristic: str) -> int | None:
    """'6+' -> 6, '4' -> 4, 'D6' -> None."""
    match = re.fullmatch(r"\s*(\d+)\+?\"?\s*", characteristic)
    return int(match.group(1)) if match else None


@dataclass
class Capacity:
    """A transport capacity as its datasheet text states it (Transports, L556-564): so many
    models (or units), some passengers taking the space of several; the kinds of model it may
    carry and those it may not, where the text names them by keyword (D11). A capacity split
    between kinds ('10 NECRON WARRIOR models and 1 NECRONS INFANTRY CHARACTER model') is kept as
    its parts (D48). What the text says that this reading does not (a condition on Wounds, say)
    is kept in `unread`: a roster that embarks units in it is told so, never a silent LEGAL."""

    count: int
    of_units: bool = False  # '1 NECRONS INFANTRY unit'
    space: dict[str, int] = field(default_factory=dict)  # keyword -> models of space each takes
    named: dict[str, int] = field(default_factory=dict)  # a model's name -> the space that one model takes
    carries: list[str] = field(default_factory=list)  # keyword phrases, any of which a passenger must have
    parts: list[tuple[int, list[str]]] = field(default_factory=list)  # a split: each part's count and kinds
    splits: list[str] = field(default_factory=list)  # kinds of unit it may split in two, one half aboard
    equipped: dict[str, int] = field(default_factory=dict)  # wargear -> the count while it carries that
    equipped_with: str | None = None  # the wargear stated that set the count
    forbidden: list[str] = field(default_factory=list)  # keyword phrases a passenger must not have
    exempt: list[str] = field(default_factory=list)  # ... unless it has one of these
    exempt_unless_led: str | None = None  # ... and is attached to a unit without this keyword
    unread: list[str] = field(default_factory=list)  # sentences not read

    def taken(self, unit: Unit, models: int) -> int:
        """The space a passenger unit of so many models takes: a model the text names (Ghazghkull
        Thraka, whose unit has Makari too) takes its space once."""
        if self.of_units:
            return 1
        each = max([n for k, n in self.space.items() if has_keyword(unit, k)], default=1)
        named = max([n for k, n in self.named.items() if has_keyword(unit, k)], default=None)
        return models * each if named is None else named + (models - 1) * each

    def loads(self, passengers: list[tuple[Unit, int]]) -> list[tuple[int | None, list[int]]]:
        """Each way the passengers may ride, as (the one split, the space each takes): as they are,
        and for each unit of a kind the text lets be split in two before the battle, with that
        unit's smaller half aboard."""
        whole = [self.taken(unit, models) for unit, models in passengers]
        ways: list[tuple[int | None, list[int]]] = [(None, whole)]
        for i, (unit, models) in enumerate(passengers):
            if any(has_keywords(unit, kind) for kind in self.splits):
                ways.append((i, [*whole[:i], self.taken(unit, models // 2), *whole[i + 1:]]))
        return ways

    def fits(self, passengers: list[tuple[Unit, int]], spaces: list[int]) -> bool:
        """Whether passengers taking these spaces fit: within the count, and where it is split
        between kinds, each within the parts of its kind. Every set of parts must hold what only
        they may carry (the supply and demand form of Hall's theorem: a split has two parts)."""
        if sum(spaces) > self.count:
            return False
        kinds = [frozenset(i for i, (_, phrases) in enumerate(self.parts)
                           if any(has_keywords(unit, kind) for kind in phrases)) for unit, _ in passengers]
        for chosen in range(1, 2 ** len(self.parts)):
            room = sum(n for i, (n, _) in enumerate(self.parts) if chosen >> i & 1)
            if sum(space for space, where in zip(spaces, kinds)
                   if where and all(chosen >> i & 1 for i in where)) > room:
                return False
        return True

    def stated(self) -> str:
        """The capacity in the datasheet's terms: '11', or its parts."""
        if self.equipped_with is not None:
            return f"{self.count} while it is equipped with a {self.equipped_with}"
        if not self.parts:
            return str(self.count)
        return " and ".join(f"{n} {' or '.join(kinds)} model{'s' if n != 1 else ''}" for n, kinds in self.parts)

    def refuses(self, unit: Unit, bodyguard: Unit | None) -> str | None:
        """Why it may not carry the unit, by its keywords: the phrase it lacks or has; else None."""
        if self.carries and not any(has_keywords(unit, kind) for kind in self.carries):
            return f"carries only {' or '.join(self.carries)} models"
        barred = next((kind for kind in self.forbidden if has_keywords(unit, kind)), None)
        if barred is None:
            return None
        if any(has_keywords(unit, kind) for kind in self.exempt) and (
                self.exempt_unless_led is None or (bodyguard is not None
                                                   and not has_keyword(bodyguard, self.exempt_unless_led))):
            return None
        return f"cannot transport {barred} models"


CAPACITY = re.compile(r"transport capacity of (\d+)([^.]*)", re.IGNORECASE)
ALSO = re.compile(r"\band (\d+) ([^.,]*?) models?\b", re.IGNORECASE)
SPACE = re.compile(r"each ([^.]+?) models? takes? (?:up )?the space of (\d+) models", re.IGNORECASE)
NAMED_SPACE = re.compile(r"^(?:the )?([\w' -]+?)(?: models?)? takes? up the space of (\d+) models$", re.IGNORECASE)
KINDS = re.compile(r"^\s*(?:of )?\d+ (.+?) (models?|units?)\s*$", re.IGNORECASE)
CANNOT = re.compile(r"(?:it|this model) cannot transport (?:models that can )?(.+?)(?:\s*\(excluding ([^)]*)\))?\s*$",
                    re.IGNORECASE)
ONLY = re.compile(r"it can only transport (.+)$", re.IGNORECASE)
SPLITS = re.compile(r"select one (.+?)(?: unit)? from your army", re.IGNORECASE)
EQUIPPED = re.compile(r"^if this model is equipped with (?:an? )?(.+?), it has a transport capacity of (\d+) [^.]*$",
                      re.IGNORECASE)
LED = re.compile(r"^(.+?) models that began the battle attached to a non-(\S+) unit$", re.IGNORECASE)


def capacity(unit: Unit) -> Capacity | None:
    """The capacity its datasheet text gives, or None where the data has none (or none readable)."""
    text = re.sub(r"[\^*]", "", unit.transport or "").replace("\xa0", " ").replace("’", "'")
    match = CAPACITY.search(text)
    if match is None:
        return None
    rest = match.group(2)
    of_units = re.match(r"[^.]*?\bunits?\b", rest) is not None and "model" not in rest.split(".")[0]
    also = ALSO.search(rest)
    first = rest[:also.start()] if also else rest
    count = int(match.group(1)) + sum(int(n) for n, _ in ALSO.findall(rest))
    space = {}
    for names, size in SPACE.findall(text):
        for keyword in re.split(r",|\band\b|\bor\b|\beach\b", names, flags=re.IGNORECASE):
            if keyword.strip():
                space[keyword.strip()] = int(size)
    found = Capacity(count, of_units, space)
    kinds = KINDS.match(f"{match.group(1)} {first}")
    if kinds is not None:
        found.carries = _phrases(kinds.group(1))
    if also is not None and kinds is not None and "<" not in rest and not ALSO.search(rest, also.end()):
        found.parts = [(int(match.group(1)), found.carries), (int(also.group(1)), _phrases(also.group(2)))]
        found.carries = [*found.carries, *found.parts[1][1]]
    elif also is not None:  # a split this reading does not take apart: counted together, not checked
        found.unread.append(f"transport capacity of {match.group(1)}{rest}".strip())
        found.carries = []
    splits = SPLITS.search(text)
    if splits is not None and "split into two units" in text and "must start the battle embarked within this" in text:
        found.splits = _phrases(splits.group(1))
    for sentence in [part.strip().rstrip(".") for part in re.split(r"(?<=[.])\s+", text[match.end():])]:
        if not sentence or found.splits and (SPLITS.search(sentence) or "split" in sentence
                                              or sentence.lower().startswith("one of these units")):
            continue
        cannot, only, named = CANNOT.match(sentence), ONLY.match(sentence), NAMED_SPACE.match(sentence)
        if SPACE.search(sentence) or sentence.lower().startswith("each "):
            continue
        if named is not None:  # 'The GHAZGHKULL THRAKA model takes up the space of 18 models'
            found.named[named.group(1)] = int(named.group(2))
            continue
        if only is not None:
            found.carries = _phrases(only.group(1))
            continue
        equipped = EQUIPPED.match(sentence)
        if equipped is not None:  # its kinds are the first capacity's, worded more loosely ("T'AU INFANTRY")
            found.equipped[equipped.group(1)] = int(equipped.group(2))
            continue
        if cannot is None or "wounds" in sentence.lower():
            found.unread.append(sentence)
            continue
        found.forbidden = _phrases(cannot.group(1))
        excluding = cannot.group(2)
        led = LED.match(excluding or "")
        if led is not None:
            found.exempt, found.exempt_unless_led = _phrases(led.group(1)), led.group(2)
        elif excluding:
            found.exempt = _phrases(excluding)
    return found


def _phrases(text: str) -> list[str]:
    """'JUMP PACK, WULFEN or TERMINATOR models' -> ['JUMP PACK', 'WULFEN', 'TERMINATOR']."""
    text = re.sub(r"\bmodels?\b", "", text, flags=re.IGNORECASE)
    parts = [part.strip() for part in re.split(r",|\bor\b|\band\b", text, flags=re.IGNORECASE)]
    return [re.sub(r"^the\s+", "", part, flags=re.IGNORECASE) for part in parts if part]


def has_keywords(unit: Unit, phrase: str) -> bool:
    """Whether the unit has every keyword a phrase names ('ADEPTUS ASTARTES INFANTRY': the Faction
    keyword Adeptus Astartes and Infantry): the phrase is covered by its keywords, longest first.
    A word's plural is the same word: the Ghost Ark's 'NECRON WARRIOR models' are the unit whose
    keyword is Necron Warriors (D48)."""
    rest = f" {_words(phrase)} "
    for keyword in sorted({_words(k) for k in [*unit.keywords, *unit.faction_keywords, unit.name]}, key=len,
                          reverse=True):
        rest = rest.replace(f" {keyword} ", " ")
    return not rest.strip()


def _words(text: str) -> str:
    return " ".join(word.removesuffix("s") for word in text.replace("’", "'").casefold().split())


def may_hover(unit: Unit) -> bool:
    """Whether the datasheet has Hover: an Aircraft that may be declared in Hover mode (L2182)."""
    return any(name_key(rule) == "hover" for rule in unit.rules)


def has_keyword(unit: Unit, keyword: str) -> bool:
    """Whether the unit has the keyword (or Faction keyword), or is that unit: what a rule naming it means."""
    return any(name_key(k) == name_key(keyword) for k in [*unit.keywords, *unit.faction_keywords, unit.name])


def find_faction(data: Wh40kCatalog, name: str) -> list[Faction]:
    """The catalogues a roster's `faction` may mean: by catalogue name, by the name's last part
    ('Space Marines'), else by Faction keyword (which several catalogues may share)."""
    key = name_key(name)
    for names in (lambda f: [f.name], lambda f: [f.name.rpartition(" - ")[2]], lambda f: [f.faction_keyword]):
        found = [f for f in data.factions if key in map(name_key, names(f))]
        if found:
            return found
    return []


def faction_name(data: Wh40kCatalog, faction: Faction) -> str:
    """The name a roster gives `faction` and every view shows: its catalogue name's last part
    ('Space Marines', as New Recruit and the official app name the army) where that names no
    other faction, else the whole catalogue name (what `import` writes, `new` and the editor too)."""
    return faction.short_name if find_faction(data, faction.short_name) == [faction] else faction.name


class _Muster:
    def __init__(self, roster: Wh40kRoster, data: Wh40kCatalog):
        self.roster, self.data = roster, data
        [self.faction] = find_faction(data, roster.faction)
        self.faction_name = faction_name(data, self.faction)
        self.sheets = data.units_by_name(self.faction)
        size = battle_size(data, roster.battle_size)
        assert size is not None  # unknown_names refused an unknown battle size or faction
        self.size = size
        self.findings = FindingList()
        self.detachment = self._detachment()
        self.units: list[CheckedUnit] = []
        self.by_label: dict[str, list[int]] = {}

    def check(self) -> Wh40kResult:
        for index, entry in enumerate(self.roster.units):
            self._add(index, entry)
        for checked in self.units:
            self.by_label.setdefault(name_key(checked.entry.label or checked.name), []).append(checked.index)
        self._links()
        self._characters()
        self._datasheet_counts()
        self._enhancements()
        self._warlord()
        self._leaders()
        self._transports()
        self._hover()
        self._wargear_unbounded()
        tree = self._selection_tree()
        reserves = self._reserves()
        result = Wh40kResult(self.roster, self.faction, self.faction_name, self.size, self.detachment, self.units,
                             self.findings.items, self.data.data_revision, tree=tree)
        derive(result, reserves)
        return result

    def _selection_tree(self) -> SelectionTree | None:
        """The roster in the engine, whose points are the data's as its modifiers make them in
        this army (an allied unit's surcharge, D37), with an Enhancement the data offers nowhere
        on its bearer counted as written (D3). None where the catalog came without the engine's
        data: one warning says the data's own rules went unchecked; another that an earlier
        importer installed it, where it came with them (D53)."""
        engine = self.data.engine_data(self.faction)
        if engine is None:
            self.findings.add("data-rules-unchecked", "the installed data was imported by an earlier listbuilder: "
                              "the rules the data itself states (allies, detachments, Enhancement eligibility, "
                              "per-army limits) are not checked", "data", ("faction",),
                              suggestion=REIMPORT, severity="warning")
            return None
        if self.data.importer < IMPORTER_VERSION:
            self.findings.add("data-imported-earlier", "the installed data was imported by an earlier listbuilder, "
                              "which read some of it differently (it gave Imperium and Chaos armies other factions' "
                              "detachments, and missed the keywords of a unit's models): this check may differ from "
                              "New Recruit's until the data is imported again", "data", ("faction",),
                              suggestion=REIMPORT, severity="warning")
        refused = {f.path for f in self.findings.items if f.code in REFUSED_WARGEAR}
        tree = selection_tree(self.roster, self.data, self.faction, engine, leave_out=refused)
        for checked in self.units:
            selection = tree.units.get(checked.index)
            if selection is None:
                continue
            enhancement = checked.enhancement
            unplaced = enhancement is not None and not tree.states(("units", checked.index, "enhancement"))
            checked.points = tree.points(selection) + (enhancement.points if enhancement and unplaced else 0)
        return tree

    def error(self, code: str, message: str, rule: str, path: tuple[str | int, ...], suggestion: str | None = None):
        self.findings.add(code, message, rule, path, suggestion=suggestion)

    def _detachment(self) -> Detachment | None:
        names = [d.name for d in self.faction.detachments]
        found = next((d for d in self.faction.detachments if name_key(d.name) == name_key(self.roster.detachment)),
                     None)
        if not self.roster.detachment.strip():
            self.error("no-detachment", f"the roster names no detachment ({self.faction_name} has {len(names)}: "
                       f"{', '.join(names)})", DETACHMENT, ("detachment",), "add `detachment:` naming one of them")
        elif found is None:
            self.error("unknown-detachment", f"'{self.roster.detachment}' is not a detachment of "
                       f"{self.faction_name} (it has {len(names)}: {', '.join(names)})", DETACHMENT, ("detachment",),
                       did_you_mean(self.roster.detachment, names))
        return found

    def _add(self, index: int, entry: Wh40kUnit) -> None:
        unit = self.sheets.get(entry.type.casefold())  # as `unit_named` finds it
        if unit is None:
            written = f" ({plural(entry.models, 'model')} as written)" if entry.models else ""
            self.error("unknown-unit", f"'{entry.type}'{written} is not a datasheet of {self.faction_name}", UNITS,
                       ("units", index, "type"),
                       did_you_mean(entry.type, [u.name for u in self.data.units_of(self.faction)]))
            return
        models = entry.models or unit.min_models
        points = unit.points_for(models)
        if points is None:
            sizes = ", ".join(f"{s.models} ({s.points} pts)" for s in unit.sizes)
            self.error("model-count", f"{unit.name} cannot have {models} models (it may have {sizes})", UNITS,
                       ("units", index, "models"))
            points = unit.points_for(unit.min_models) or 0
            models = unit.min_models
        checked = CheckedUnit(index, entry, unit, models, points)
        self.units.append(checked)
        self._faction_keyword(checked)
        self._wargear(checked)
        self._carried_by(checked)

    def _faction_keyword(self, checked: CheckedUnit) -> None:
        """Every unit must have the army's Faction keyword; a datasheet of the army's catalogue
        with no Faction keyword at all (the Drop Pod) is taken to have it (DECISIONS.md)."""
        keywords = checked.unit.faction_keywords
        army = self.faction.faction_keyword
        if keywords and not any(name_key(k) == name_key(army) for k in keywords):
            self.error("wrong-faction", f"{checked.name} has the Faction keyword{'s' if len(keywords) > 1 else ''} "
                       f"{', '.join(keywords)}, not the army's {army}", UNITS, ("units", checked.index, "type"))

    def _wargear(self, checked: CheckedUnit) -> None:
        """Each weapon on the datasheet, on no more models than the unit has, nor than the kinds of
        model that may carry it can number (DECISIONS.md D3, D23), nor than the data's limit per
        unit allows at its size (D24, D25); then weapons the data limits together (D26), and the
        weapons only one choice offers, on no more models than that choice allows. A unit of one
        model states how many of a weapon it carries: that one model carries it, and how many of
        it the data allows, the data's rules say (D63)."""
        unit, models = checked.unit, checked.models
        refused: set[str] = set()
        for weapon, stated in checked.entry.wargear.items():
            carried = min(stated, 1) if models == 1 else stated
            where = ("units", checked.index, "wargear", weapon)
            kinds = unit.carriers.get(name_key(weapon), [])  # [] not on the datasheet, None not bounded
            most = most_carrying(unit, kinds, models) if kinds else models
            if kinds == []:
                self.error("unknown-wargear", f"{checked.name} has no weapon '{weapon}' on its datasheet", UNITS,
                           where, did_you_mean(weapon, [weapon_name(w.name) for w in unit.weapons]))
            elif carried > models:
                self.error("wargear-count", f"{carried} models of {checked.name} carry {weapon}, but the unit has "
                           f"{models}", UNITS, where, f"give it to at most {models}")
            elif kinds is not None and carried > most:  # None: most is models, checked just above
                self.error("wargear-not-allowed", f"{carried} models of {checked.name} carry {weapon}, but at most "
                           f"{most} of its {models} may: only {kinds_text(unit, kinds, models)} may take it",
                           WARGEAR.format(unit.name), where, f"give it to at most {most}: `{weapon}: {most}`")
            elif self._within_limit(checked, weapon, carried, where):
                continue
            refused.add(name_key(weapon))
        self._together(checked, refused)
        self._choices(checked, refused)

    def _carried_by(self, checked: CheckedUnit) -> None:
        """`carried_by` names kinds of model of the datasheet (D56), and gives each weapon to no more
        models than `wargear` does."""
        entry, kinds = checked.entry, [m.name for m in checked.unit.models]
        stated = {name_key(w): n for w, n in entry.wargear.items()}
        totals: dict[str, tuple[int, str, str]] = {}  # weapon's key -> models given it, the last kind, as written
        for kind, weapons in entry.carried_by.items():
            if not any(names_kind(kind, name) for name in kinds):  # its weapons are not counted: one finding
                self.error("unknown-model-kind", f"{checked.name} has no kind of model '{kind}'", UNITS,
                           ("units", checked.index, "carried_by", kind), did_you_mean(kind, kinds))
                continue
            for weapon, count in weapons.items():
                totals[name_key(weapon)] = (totals.get(name_key(weapon), (0,))[0] + count, kind, weapon)
        for key, (total, kind, weapon) in totals.items():
            if total > stated.get(key, 0):
                self.error("carried-by-over-wargear", f"`carried_by` gives {weapon} to {plural(total, 'model')} "
                           f"of {checked.name}, `wargear` to {stated.get(key, 0)}", UNITS,
                           ("units", checked.index, "carried_by", kind, weapon),
                           f"state every weapon in `wargear` with all the models carrying it: `{weapon}: {total}`")

    def _within_limit(self, checked: CheckedUnit, weapon: str, carried: int, where: tuple[str | int, ...]) -> bool:
        """Whether the weapon is on no more models than the data's limit per unit allows at the
        unit's size (D24); if not, the one finding, with what other sizes allow."""
        limit = checked.unit.limits.get(name_key(weapon))
        most = limit.most.get(checked.models) if limit else None
        if limit is None or most is None or carried <= most:
            return True
        elsewhere, roomier = other_sizes(limit.most, carried)
        self.error("wargear-not-allowed", f"{carried} models of {checked.name} carry {weapon}, but its datasheet "
                   f"allows at most {most} in a unit of {checked.models} models{elsewhere}",
                   WARGEAR.format(checked.unit.name),
                   where, f"give it to at most {most}: `{weapon}: {most}`{roomier}")
        return False

    def _together(self, checked: CheckedUnit, refused: set[str]) -> None:
        """Weapons the data limits per unit together (D26): their carriers added up, less weapons
        already refused alone, at most what the limit allows at the unit's size. A limit exceeded
        is one finding, and its weapons are left out of the choices' count (one mistake, one finding)."""
        for limit in checked.unit.wargear_group_limits or ():
            most = limit.most.get(checked.models)
            limited = {name_key(w) for w in limit.weapons} - refused
            taken = {w: n for w, n in checked.entry.wargear.items() if n and name_key(w) in limited}
            if most is None or sum(taken.values()) <= most:
                continue
            elsewhere, roomier = other_sizes(limit.most, sum(taken.values()))
            self.error("wargear-not-allowed", f"{checked.name} has {' + '.join(f'{n} {w}' for w, n in taken.items())}, "
                       f"but its datasheet allows at most {most} of {listed(limit.weapons)} together in a unit of "
                       f"{checked.models} models{elsewhere}", WARGEAR.format(checked.unit.name),
                       ("units", checked.index, "wargear", list(taken)[-1]),
                       f"take at most {most} of {', '.join(taken)} in all{roomier}")
            refused |= {name_key(w) for w in taken}

    def _wargear_unbounded(self) -> None:
        """Data imported before the import recorded a wargear rule leaves it unchecked (UNRECORDED):
        a warning, once, for the first such rule where the roster names wargear, so that a legal
        verdict is not taken for more than it is. Data an earlier importer installed has its one
        warning instead (D53)."""
        if self.data.importer < IMPORTER_VERSION:
            return
        named = [c for c in self.units if c.entry.wargear]
        for lacks, unrecorded, checked in UNRECORDED:
            stale = [c for c in named if lacks(c.unit)]
            if stale:
                first = stale[0]
                self.findings.add("wargear-unchecked", f"the installed data does not {unrecorded.format(first.name)} "
                                  f"(it was imported by an earlier listbuilder): the wargear of "
                                  f"{plural(len(stale), 'unit')} is {checked}", WARGEAR.format(first.name),
                                  ("units", first.index, "wargear"), suggestion=REIMPORT, severity="warning")
                return

    def _choices(self, checked: CheckedUnit, refused: set[str]) -> None:
        """Weapons that each kind of model carrying them can have only through one choice, taken
        together: at most the choices' `max` per model of their kinds (D23). Weapons are grouped
        by the choices that give them (linked through a weapon two choices offer), less the weapons
        already refused alone (one mistake, one finding); one weapon alone was checked already."""
        unit = checked.unit
        groups: list[tuple[dict[str, int], list[WargearChoice]]] = []
        for weapon, carried in checked.entry.wargear.items():
            choices = unit.choices_giving.get(name_key(weapon))
            if not carried or choices is None or name_key(weapon) in refused:
                continue
            taken, offering = {weapon: carried}, list(choices)
            for group in [g for g in groups if any(c is d for c in choices for d in g[1])]:
                groups.remove(group)
                taken.update(group[0])
                offering += [c for c in group[1] if all(c is not d for d in offering)]
            groups.append((taken, offering))
        for taken, choices in groups:
            kinds = [next(m for m in unit.models if m.name == c.model) for c in choices]
            counts = most_of_each(unit, kinds, checked.models)
            most = sum(c.max * n for c, n in zip(choices, counts))
            taken = {w: n for w, n in checked.entry.wargear.items() if w in taken}  # in the roster's order
            if len(taken) > 1 and sum(taken.values()) > most:
                carrying = " + ".join(f"{n} {w}" for w, n in taken.items())
                offered = " and ".join(f"the {c.name} choice of its {c.model} ({plural(n, 'model')}, {c.max} each)"
                                       for c, n in zip(choices, counts))
                self.error("wargear-not-allowed", f"{checked.name} has {carrying}, but these come only from {offered}: "
                           f"at most {most} in all", WARGEAR.format(unit.name),
                           ("units", checked.index, "wargear", list(taken)[-1]),
                           f"take at most {most} of {', '.join(taken)} in all")

    def _find(self, name: str, index: int, field_name: str) -> int | None:
        """The unit a `leads` or `embarked_in` names: by label, else by datasheet name if unique."""
        where = ("units", index, field_name)
        found = self.by_label.get(name_key(name), [])
        if len(found) == 1:
            return found[0]
        if found:
            self.error("ambiguous-unit", f"{len(found)} units are called '{name}'", UNITS, where,
                       "give each a `label` and name the one you mean")
        else:
            self.error("unknown-unit-reference", f"no unit of the roster is called '{name}'", UNITS, where,
                       did_you_mean(name, [c.entry.label or c.name for c in self.units]))
        return None

    def _links(self) -> None:
        for checked in self.units:
            if checked.entry.leads:
                checked.leads = self._find(checked.entry.leads, checked.index, "leads")
            if checked.entry.embarked_in:
                checked.embarked_in = self._find(checked.entry.embarked_in, checked.index, "embarked_in")

    def _characters(self) -> None:
        if not any(c.unit.character for c in self.units):
            self.error("no-character", "the army has no Character unit; it needs at least one", UNITS, ("units",))

    def _datasheet_counts(self) -> None:
        by_name: dict[str, list[CheckedUnit]] = {}
        for checked in self.units:
            by_name.setdefault(checked.name, []).append(checked)
        for name, units in by_name.items():
            unit = units[0].unit
            if unit.epic_hero:
                if len(units) > 1:
                    self.error("epic-hero-repeated", f"{name} is an Epic Hero and is taken {len(units)} times; "
                               f"an army may include it once", UNITS, ("units", units[1].index, "type"))
                continue
            most = 6 if unit.battleline or unit.dedicated_transport else 3
            if len(units) > most:
                why = "Battleline" if unit.battleline else "Dedicated Transport" if unit.dedicated_transport else ""
                self.error("too-many-of-datasheet", f"{len(units)} units of {name}; at most {most}"
                           + (f" ({why})" if why else ""), UNITS, ("units", units[most].index, "type"))

    def _enhancements(self) -> None:
        """Each Enhancement of the detachment; where the roster's detachment is none or unknown (its
        one finding), one of any detachment of the faction is priced as written (D51)."""
        taken = [c for c in self.units if c.entry.enhancement]
        offered = (self.detachment.enhancements if self.detachment
                   else [e for d in self.faction.detachments for e in d.enhancements])
        seen: dict[str, int] = {}
        for checked in taken:
            name = checked.entry.enhancement
            assert name is not None
            where = ("units", checked.index, "enhancement")
            enhancement = next((e for e in offered if name_key(e.name) == name_key(name)), None)
            if enhancement is None:
                if self.detachment is not None:
                    self.error("unknown-enhancement", f"'{name}' is not an Enhancement of {self.detachment.name}",
                               DETACHMENT, where, did_you_mean(name, [e.name for e in offered]))
                continue
            if not checked.unit.character:
                self.error("enhancement-not-character", f"{checked.name} is not a Character and cannot take "
                           f"{enhancement.name}", UNITS, where)
            elif checked.unit.epic_hero:
                self.error("enhancement-on-epic-hero", f"{checked.name} is an Epic Hero and cannot take "
                           f"{enhancement.name}", UNITS, where)
            if name_key(enhancement.name) in seen:
                self.error("enhancement-repeated", f"{enhancement.name} is already taken by unit "
                           f"#{seen[name_key(enhancement.name)] + 1}; each Enhancement is unique", UNITS, where)
            seen.setdefault(name_key(enhancement.name), checked.index)
            checked.enhancement = enhancement
            checked.points += enhancement.points  # what the roster as written costs, legal or not
        if len(taken) > 3:
            self.error("too-many-enhancements", f"{len(taken)} Enhancements; an army may have at most 3", UNITS,
                       ("units", taken[3].index, "enhancement"))

    def _warlord(self) -> None:
        warlords = [c for c in self.units if c.entry.warlord]
        if not warlords:
            self.error("no-warlord", "no Warlord: mark one Character `warlord: true`", WARLORD, ("units",))
        for extra in warlords[1:]:
            self.error("several-warlords", f"{len(warlords)} Warlords; the army has exactly one", WARLORD,
                       ("units", extra.index, "warlord"), f"keep `warlord: true` on one of {_numbered(warlords)}")
        characters = [c for c in self.units if c.unit.character]
        for checked in warlords:
            if not checked.unit.character:
                self.error("warlord-not-character", f"{checked.name} is not a Character and cannot be the Warlord",
                           WARLORD, ("units", checked.index, "warlord"),
                           f"make one of {_numbered(characters)} the Warlord" if characters else
                           "make a Character the Warlord")

    def _leaders(self) -> None:
        """Attach each Leader that may lead the unit it names; an attachment the rules refuse is
        reported and not formed."""
        at = {c.index: c for c in self.units}
        for checked in self.units:
            if checked.leads is None:
                continue
            where = ("units", checked.index, "leads")
            bodyguard = at[checked.leads]
            if checked.unit.leader is None:
                self.error("not-a-leader", f"{checked.name} has no Leader ability and cannot lead {bodyguard.name}",
                           LEADER, where)
            elif not may_lead(checked.unit, bodyguard.unit):
                names = ", ".join(t.name for t in checked.unit.leader.units)
                self.error("leader-not-allowed", f"{checked.name} may lead only {names}; not {bodyguard.name}",
                           LEADER, where)
            else:
                bodyguard.leaders.append(checked.index)
                continue
            checked.leads = None
        for bodyguard in self.units:
            leaders = [at[i] for i in bodyguard.leaders]
            if len(leaders) > 1 and not second_leader_allowed(bodyguard, leaders):
                names = " and ".join(f"#{leader.index + 1} {leader.name}" for leader in leaders)
                self.error("too-many-leaders", f"{bodyguard.name} is led by {names}; a Bodyguard unit takes one "
                           f"Leader unless a datasheet allows a second", LEADER, ("units", leaders[1].index, "leads"))
                for refused in leaders[1:]:  # not formed (D9): the first named leads it, the rest stand alone
                    refused.leads = None
                bodyguard.leaders = bodyguard.leaders[:1]

    def _transports(self) -> None:
        at = {c.index: c for c in self.units}
        for checked in self.units:
            if checked.embarked_in is None:
                continue
            transport = at[checked.embarked_in]
            if not transport.has("Transport"):
                self.error("not-a-transport", f"{transport.name} is not a Transport; {checked.name} cannot embark "
                           f"in it", TRANSPORTS, ("units", checked.index, "embarked_in"))
                checked.embarked_in = None
        for leader in self.units:
            if leader.leads is None:
                continue
            bodyguard = at[leader.leads]
            if leader.embarked_in != bodyguard.embarked_in:
                inside = [at[i].name for i in (leader.embarked_in, bodyguard.embarked_in) if i is not None]
                self.error("attached-unit-split", f"{leader.name} leads {bodyguard.name} but only one of them is "
                           f"embarked in the {inside[0]}; an Attached unit embarks as one unit", LEADER,
                           ("units", leader.index, "embarked_in"))
        for transport in self.units:
            aboard = [c for c in self.units if c.embarked_in == transport.index]
            if transport.unit.dedicated_transport and not aboard:
                self.error("transport-empty", f"{transport.name} is a Dedicated Transport with no unit embarked; "
                           f"it must start the battle carrying one", DEDICATED, ("units", transport.index))
            room = capacity(transport.unit)
            if room is not None:
                stated = {name_key(gear) for gear in transport.entry.wargear}
                room = next((replace(room, count=count, equipped_with=gear) for gear, count in room.equipped.items()
                             if name_key(gear) in stated), room)
            if not aboard:
                continue
            if room is None or room.unread:
                unread = "its capacity" if room is None else "; ".join(f"“{text}”" for text in room.unread)
                self.findings.add("transport-unchecked", f"{transport.name}'s datasheet text is not read for "
                                  f"{unread}: check by hand that it may carry " + ", ".join(c.name for c in aboard),
                                  TRANSPORTS, ("units", transport.index), severity="warning")
            if room is None:
                continue
            refused: set[int] = set()
            for passenger in sorted(aboard, key=lambda c: c.leads is not None):  # Bodyguards first
                led = at[passenger.leads].unit if passenger.leads is not None else None
                why = room.refuses(passenger.unit, led)
                if why is not None and passenger.leads not in refused:  # an Attached unit refused once
                    refused.add(passenger.index)
                    self.error("transport-cannot-carry", f"{transport.name} {why}; #{passenger.index + 1} "
                               f"{passenger.name} is not one it may carry", TRANSPORTS,
                               ("units", passenger.index, "embarked_in"))
            carried = [c for c in aboard if c.index not in refused and c.leads not in refused]
            passengers = [(c.unit, c.models) for c in carried]
            ways = room.loads(passengers)
            if not any(room.fits(passengers, spaces) for _, spaces in ways):
                split, spaces = min(ways, key=lambda way: sum(way[1]))
                what = "units" if room.of_units else "models' space"
                self.error("transport-over-capacity", f"{transport.name} carries {sum(spaces)} {what} ("
                           + ", ".join(f"#{c.index + 1} {c.models // 2} of {c.models} {c.name} (split in two)"
                                       if i == split else f"#{c.index + 1} {c.models} {c.name}"
                                       for i, c in enumerate(carried))
                           + f"); its transport capacity is {room.stated()}", TRANSPORTS,
                           ("units", carried[-1].index, "embarked_in"))

    def _hover(self) -> None:
        """Only an Aircraft with Hover may be declared in Hover mode (L2182). One declared so without
        it is this one finding: it is not also told to start in Reserves."""
        for checked in self.units:
            if checked.entry.hover and not may_hover(checked.unit):
                self.error("hover-not-allowed", f"{checked.name} has no Hover ability, so it cannot be in Hover "
                           f"mode: remove `hover`", HOVER, ("units", checked.index, "hover"))

    def _reserves(self) -> list[CheckedUnit]:
        """Units in Strategic Reserves, with the passengers of reserved transports and the other
        half of an Attached unit (DECISIONS.md); Aircraft must start in Reserves."""
        at = {c.index: c for c in self.units}
        placed = {c.index for c in self.units if c.entry.reserves and not c.has("Aircraft")}
        for checked in self.units:
            if checked.leads is not None and (checked.leads in placed or checked.index in placed):
                placed |= {checked.index, checked.leads}
        for checked in self.units:
            if checked.embarked_in in placed:
                placed.add(checked.index)
        for index in sorted(placed):
            if at[index].has("Fortification"):
                self.error("fortification-in-reserves", f"{at[index].name} is a Fortification and cannot be placed "
                           f"in Strategic Reserves", RESERVES, ("units", index, "reserves"))
        for checked in self.units:
            if checked.has("Aircraft") and not checked.entry.reserves:
                hover = (", or, as it has Hover, declare it in Hover mode: `hover: true` (`h` in the editor)"
                         if may_hover(checked.unit) else "")
                self.error("aircraft-not-in-reserves", f"{checked.name} is an Aircraft and must start the battle in "
                           f"Reserves: mark it `reserves: true`{hover}", AIRCRAFT, ("units", checked.index))
            elif (checked.embarked_in is not None and at[checked.embarked_in].has("Aircraft")
                  and not checked.entry.reserves):
                self.error("aircraft-passenger-not-in-reserves", f"{checked.name} starts embarked in an Aircraft, so "
                           f"it must be placed in Reserves itself: mark it `reserves: true`", AIRCRAFT,
                           ("units", checked.index, "embarked_in"))
        reserved = [at[i] for i in sorted(placed)]
        points, cap = sum(c.points for c in reserved), self.size.points // RESERVES_SHARE
        if points > cap:
            self.error("reserves-over-limit", f"Strategic Reserves hold {points:,} points ("
                       + ", ".join(f"#{c.index + 1} {c.name} {c.points:,}" for c in reserved)
                       + f"); at most {cap:,} (a quarter of {self.size.name}'s {self.size.points:,})", RESERVES,
                       ("units", reserved[-1].index, "reserves"))
        return reserved


def most_of_each(unit: Unit, kinds: list[ModelRange], models: int) -> list[int]:
    """The most models of each of these kinds a unit of `models` may have: its `most`, and no
    more than the other kinds' `fewest` leave."""
    fewest = sum(m.fewest for m in unit.models)
    return [min(models if m.most is None else m.most, models - fewest + m.fewest) for m in kinds]


def most_carrying(unit: Unit, kinds: list[ModelRange], models: int) -> int:
    """The most models of a unit of `models` that may be of these kinds together."""
    chosen = {id(m) for m in kinds}
    others = sum(m.fewest for m in unit.models if id(m) not in chosen)
    return min(sum(most_of_each(unit, kinds, models)), models - others)


# The wargear rules an import before listbuilder recorded them lacks, the most limiting first: how
# a unit of such data shows it, the rule left unchecked, and what its wargear is checked against
UNRECORDED: list[tuple[Callable[[Unit], bool], str, str]] = [
    (lambda unit: any(m.wargear is None for m in unit.models), "say which models of {} may carry which weapons",
     "checked only against unit sizes"),  # D23
    (lambda unit: unit.wargear_limits is None, "record the limits per unit on the wargear of {}",
     "checked without limits per unit"),  # D24, D25
    (lambda unit: unit.wargear_group_limits is None, "record the limits on several weapons together of {}",
     "checked without limits on several weapons together"),  # D26
]


def by_size(most: dict[int, int]) -> str:
    """'1 at 5-9 models, any at 10 models': a limit at each unit size, equal neighbours joined; a
    limit no smaller than the unit is none."""
    runs: list[list[Any]] = []  # first size, last size, limit
    for models, n in sorted(most.items()):
        shown = "any" if n >= models else n
        if runs and runs[-1][2] == shown:
            runs[-1][1] = models
        else:
            runs.append([models, models, shown])
    return ", ".join(f"{n} at {first}{f'-{last}' if last != first else ''} models" for first, last, n in runs)


def other_sizes(most: dict[int, int], carried: int) -> tuple[str, str]:
    """For a finding on a limit by unit size: what it allows at each size, where that differs
    (' (1 at 5-9 models, 2 at 10 models)'), and the first size that allows `carried` (', or field 10 models')."""
    sizes = by_size(most)
    roomier = next((models for models, n in sorted(most.items()) if n >= carried), None)
    return (f" ({sizes})" if "," in sizes else ""), (f", or field {roomier} models" if roomier else "")


def kinds_text(unit: Unit, kinds: list[ModelRange], models: int) -> str:
    """'its Intercessor Sergeant (1)', 'its A (up to 1) and B (up to 2)'."""
    names = [f"{m.name} ({'up to ' * (m.fewest < n)}{n})" for m, n in zip(kinds, most_of_each(unit, kinds, models))]
    return "its " + listed(names)


def listed(names: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def _numbered(units: list[CheckedUnit]) -> str:
    """'#1 Captain, #4 Lieutenant': units as the report numbers them."""
    return ", ".join(f"#{c.index + 1} {c.name}" for c in units)


def may_lead(leader: Unit, bodyguard: Unit) -> bool:
    """A Leader may lead a unit its datasheet names, or a unit whose datasheet lets it take the
    Leaders of a unit the Leader may lead (BodyguardRule.leaders_of)."""
    assert leader.leader is not None
    named = {name_key(t.name) for t in leader.leader.units}
    if name_key(bodyguard.name) in named:
        return True
    return bodyguard.bodyguard is not None and any(name_key(n) in named for n in bodyguard.bodyguard.leaders_of)


def second_leader_allowed(bodyguard: CheckedUnit, leaders: list[CheckedUnit]) -> bool:
    """Two Leaders on one Bodyguard unit, where a datasheet allows it (DECISIONS.md): the
    Bodyguard's own datasheet (up to its max_leaders, from its Starting Strength if it sets one),
    or one Leader's datasheet naming the other (or any other, different one)."""
    if len(leaders) != 2 or leaders[0].name == leaders[1].name:
        return False
    rule = bodyguard.unit.bodyguard
    if rule is not None and rule.max_leaders >= 2 and bodyguard.models >= (rule.max_leaders_from or 0):
        return True
    for one, other in (leaders, leaders[::-1]):
        allowance = one.unit.leader
        if allowance is not None and (allowance.alongside_any
                                      or any(has_keyword(other.unit, n) for n in allowance.alongside)):
            return True
    return False


def derive(result: Wh40kResult, reserved: list[CheckedUnit]) -> None:
    at = {c.index: c for c in result.units}
    for checked in result.units:
        checked.derived = strength(checked.unit, checked.models)
        checked.derived["leadership"] = best_leadership([checked.unit])
        if checked.leaders:
            leaders = [at[i] for i in checked.leaders]
            starting = checked.models + sum(leader.models for leader in leaders)
            checked.derived["attached"] = {
                "leaders": [leader.index for leader in leaders],
                "starting_strength": starting,
                "below_half_at": (starting - 1) // 2,
                "toughness": toughness(checked.unit),
                "leadership": best_leadership([checked.unit, *(leader.unit for leader in leaders)]),
            }
    result.derived = {"reserves": {"points": sum(c.points for c in reserved), "limit": result.limit // RESERVES_SHARE,
                                   "units": [c.index for c in reserved]}}


def strength(unit: Unit, models: int) -> dict[str, Any]:
    """Starting Strength and when the unit is Below Half-strength (L362-371): a model count, or
    for a one-model unit the wounds left."""
    if models == 1:
        wounds = number(unit.profiles[0].wounds) if unit.profiles else None
        return {"starting_strength": 1, "below_half_at": None, "wounds": wounds,
                "below_half_wounds": None if wounds is None else (wounds - 1) // 2}
    return {"starting_strength": models, "below_half_at": (models - 1) // 2}


def toughness(unit: Unit) -> str:
    """The Toughness attacks use against it (of its own models: an Attached unit's Bodyguard, L1681)."""
    values = list(dict.fromkeys(p.toughness for p in unit.profiles))
    return "/".join(values) if values else "—"


def best_leadership(units: list[Unit]) -> str | None:
    """The best (lowest) Leadership among the models, for Battle-shock tests (L335-350)."""
    values = [(number(p.leadership), p.leadership) for u in units for p in u.profiles]
    values = [(n, shown) for n, shown in values if n is not None]
    return min(values)[1] if values else None


def validate(roster: Wh40kRoster, catalog: Catalog) -> Wh40kResult:
    data = data_of(catalog, roster.faction)
    assert data is not None  # unknown_names refused it
    result = _Muster(roster, data).check()
    if result.total > result.limit:
        result.findings.append(Finding(
            "points-over-limit", f"the army costs {result.total:,} points, {result.total - result.limit:,} over "
            f"{result.battle_size.name}'s {result.limit:,}", BATTLE_SIZE, path=("battle_size",)))
    if result.tree is not None:
        bearers = {c.index: c.enhancement for c in result.units if c.enhancement and c.enhancement.restrictions}
        result.findings = [_who_may_bear(f, bearers) for f in merged(result.findings, data_findings(result.tree),
                                                                      result.tree)]
    return result


def _who_may_bear(finding: Finding, bearers: dict[int, Enhancement]) -> Finding:
    """An Enhancement the data hides on its bearer (its bearer is not one it is for): the finding
    says whom it is for, as the data's Enhancement states it (D62)."""
    enhancement = bearers.get(finding.path[1]) if finding.code == "data-hidden" and finding.path[2:] == (
        "enhancement",) and isinstance(finding.path[1], int) else None
    if enhancement is None:
        return finding
    return replace(finding, suggestion=f"{enhancement.name}: {enhancement.restrictions}; give it to such a "
                                       "Character, or take another Enhancement")

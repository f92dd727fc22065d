"""Importing the user's BattleScribe data (BSData/wh40k-10e) into a Wh40kCatalog.

A folder holds one game system file (`.gst`) and its catalogues (`.cat`). A faction is a
catalogue that is not a library; it may take its own root entries and those of the catalogues it
links with `importRootEntries` (a chapter takes the Space Marines', which take the Agents of the
Imperium's), and links resolve across every file of the folder.

BattleScribe evaluates conditions while a list is built; the importer evaluates them once, for a
matched-play army of each faction (never a Crusade force), and resolves what the rules pack needs:
the points of every legal model count, visible units and detachments, each enhancement's
detachment. A condition it cannot decide at import time (one on the rest of the roster, or on a
wargear choice) leaves its modifier out, and the report counts it; nothing is guessed.
"""

from __future__ import annotations

import gc
import math
import re
from collections import Counter
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from lxml import etree

from ....core.findings import Finding, Location
from ..catalog import (Ability, BattleSize, Detachment, Enhancement, Faction, GameSystem, ImportSummary, ModelRange,
    Unit, UnitProfile, UnitSize, WargearChoice, WargearGroupLimit, WargearLimit, Weapon, Wh40kCatalog, weapon_name)
from .leader_text import parse_bodyguard, parse_leader, plain
from .xmlfiles import FileChanged, XmlFile, read_ahead

Element = etree._Element
FLAGS = {"Character": "character", "Battleline": "battleline", "Dedicated Transport": "dedicated_transport",
         "Epic Hero": "epic_hero"}
FACTION_PREFIX = "Faction: "
# The ways to play other than an army of matched play, which is what the import reads.
OTHER_MODES = re.compile(r"\b(Crusade|Boarding Actions)\b", re.IGNORECASE)
# Groups that are not part of a datasheet: Crusade bookkeeping, and enhancements (read per detachment).
NOT_DATASHEET = re.compile(r"\b(Crusade|Enhancements|Weapon Modifications|Battle Honours|Battle Scars)\b",
                           re.IGNORECASE)
BATTLE_SIZE = re.compile(r"^\s*\d+\.\s*(.+?)\s*\((\d+) Point limit\)", re.IGNORECASE)
RESTRICTION = re.compile(r"^\(?([^.()]{3,80}?\bonly(?: \([^)]*\))?)\)?\s*[.:]", re.IGNORECASE)
ENHANCEMENTS_OF = re.compile(r"^(.+?)\s+Enhancements$", re.IGNORECASE)
# Trees no later faction needs are released once their files add up to this many bytes (a tenth of
# the snapshot's, about 30 MB of trees), not after each faction: see Library.release.
RELEASE_BYTES = 4_000_000
PARSED_AT_ONCE = 12_000_000  # bytes of XML: about what the factions that read most use
ID_TAGS = ("selectionEntry", "selectionEntryGroup", "profile", "rule", "infoGroup", "categoryEntry", "forceEntry")
COMPARE = {"atLeast": lambda c, v: c >= v, "greaterThan": lambda c, v: c > v, "atMost": lambda c, v: c <= v,
           "lessThan": lambda c, v: c < v, "equalTo": lambda c, v: c == v, "notEqualTo": lambda c, v: c != v}


class BadNumber(ValueError):
    """A number attribute that is not a finite number: what it spoils is left out, located."""

    def __init__(self, element: Element, attribute: str):
        super().__init__(f"<{element.tag} {attribute}={element.get(attribute)!r}> is not a number")
        self.element = element


def number(element: Element, attribute: str, default: str = "0") -> float:
    try:
        value = float(element.get(attribute, default))
    except ValueError:
        raise BadNumber(element, attribute) from None
    if not math.isfinite(value):
        raise BadNumber(element, attribute)
    return value


@dataclass
class ImportResult:
    catalog: Wh40kCatalog | None
    findings: list[Finding]
    left_out: Counter = field(default_factory=Counter)  # what the import could not read, by kind

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]


# --- the files and their ids -------------------------------------------------------------------

class Library:
    """Every file of the folder, where each id is defined, and what the game system file defines.

    Each file is read through once as it is added, then released, all but the game system file: a
    faction's files are parsed again as its import uses them, and released once no later faction
    needs them (`release`), so that the import holds the trees of one faction's files at a time
    (a quarter of the snapshot's at most), not the whole folder's."""

    def __init__(self, findings: list[Finding], left_out: Counter, pool: Executor):
        self.pool = pool  # where files are parsed ahead of their use
        self.files: list[XmlFile] = []
        self.findings = findings
        self.left_out = left_out
        self.system: XmlFile | None = None  # the first game system file
        self.points_type = ""
        self.other_mode_ids: set[str] = set()
        self.catalogues: dict[str | None, XmlFile] = {}
        self.file_by_id: dict[str, XmlFile] = {}  # the first file that defines an id
        self.ids: dict[XmlFile, dict[str, Element]] = {}  # each file in use: its elements by id
        self.catalogue_links: dict[XmlFile, list[tuple[dict[str, str], Location]]] = {}
        self.profile_types: dict[str, str] = {}
        self.category_names: dict[str, str] = {}
        # What modifiers anywhere in the data may do to each field (a constraint's id): a modifier of
        # one catalogue may change an entry of another, which it links.
        self.raised: set[str] = set()  # set, increment: a constraint's value may go up
        self.lowered: set[str] = set()  # set, decrement: it may go down
        self.modified_in: dict[str, list[XmlFile]] = {}  # the files with modifiers of each field
        self.broken: set[Location] = set()  # links already reported as broken
        self.reported: set[str] = set()  # units already reported as given a Faction keyword
        self.unit_places: dict[str, Location] = {}  # where each unit read is defined, for later warnings
        # What is read of elements, once each: emptied with the trees they hold (`release`).
        self.memos: list[dict] = []
        self.children: dict[Element, list[Node]] = self.memo()  # see children_of()
        self.modifiers: dict[Element, tuple[dict[str, list[Element]], list[tuple[Element, set[str]]]]] = self.memo()
        self.conditions: dict[Element, tuple[list[Element], list[Element]]] = self.memo()
        self.enhancements: dict[XmlFile, list[Element]] = self.memo()  # see enhancement_groups()
        self.modifiers_by_field: dict[XmlFile, dict[str, list[Element]]] = self.memo()  # see modifiers_changing()

    def add(self, xml: XmlFile) -> None:
        """Index a file of the folder (files are added in the order that decides which file's id wins)."""
        self.files.append(xml)
        root = xml.root
        if xml.tag == "gameSystem" and self.system is None:
            self.system = xml
            self.points_type = next((c.get("id") for c in root.iter("costType") if c.get("name") == "pts"), "")
            # Forces and entries of the other ways to play (Crusade, Boarding Actions): never in the army.
            self.other_mode_ids = {e.get("id") for e in root.iter("forceEntry", "selectionEntry", "categoryEntry")
                                   if OTHER_MODES.search(e.get("name") or "")}
        if xml.tag == "catalogue":
            self.catalogues[xml.attributes.get("id")] = xml
        for element in root.iter(*ID_TAGS):
            self.file_by_id.setdefault(element.get("id", ""), xml)
        self.catalogue_links[xml] = [(dict(link.attrib), xml.location(link))
                                     for link in root.iterfind("catalogueLinks/catalogueLink")]
        self.profile_types.update((p.get("id"), p.get("name")) for p in root.iter("profileType"))
        self.category_names.update((c.get("id"), c.get("name", "")) for c in root.iter("categoryEntry"))
        for modifier in root.iter("modifier"):
            if modifier.get("type") != "decrement":
                self.raised.add(modifier.get("field", ""))
            if modifier.get("type") != "increment":
                self.lowered.add(modifier.get("field", ""))
            files = self.modified_in.setdefault(modifier.get("field", ""), [])
            if xml not in files:
                files.append(xml)
        # The first files stay parsed, up to what a faction may use at once: the first factions read them.
        if xml is not self.system and sum(x.size for x in self.files if x.loaded) > PARSED_AT_ONCE:
            xml.release()

    def modifiers_changing(self, field: str) -> list[Element]:
        """Every modifier of a field (a constraint's id) in the data, in the files' order."""
        found = []
        for xml in self.modified_in.get(field, ()):
            by_field = self.modifiers_by_field.get(xml)
            if by_field is None:
                by_field = self.modifiers_by_field[xml] = {}
                for modifier in xml.root.iter("modifier"):
                    by_field.setdefault(modifier.get("field", ""), []).append(modifier)
            found += by_field[field]
        return found

    def memo(self) -> dict:
        """A new cache of what is read of elements, emptied when trees are released."""
        self.memos.append({})
        return self.memos[-1]

    def release(self, keep: set[XmlFile], at_least: int = RELEASE_BYTES) -> None:
        """Release the trees of the files not in `keep` (the game system file is always kept) once
        they add up to `at_least` bytes of XML: releasing empties every cache of what was read of
        elements, which the factions after it fill again."""
        released = [x for x in self.files if x.loaded and x not in keep and x is not self.system]
        if sum(x.size for x in released) < at_least:
            return
        for xml in released:
            xml.release()
            self.ids.pop(xml, None)
        for memo in self.memos:
            memo.clear()

    def element(self, ident: str) -> Element | None:
        """The element of this id (the first of the first file that defines it)."""
        xml = self.file_by_id.get(ident)
        if xml is None:
            return None
        found = self.ids.get(xml)
        if found is None:
            found = self.ids[xml] = {}
            for element in xml.root.iter(*ID_TAGS):
                found.setdefault(element.get("id", ""), element)
        return found[ident]

    def children_of(self, element: Element) -> list[Node]:
        """The entries and groups directly under an element, links followed (read once per element:
        an entry that many units link, a weapon, is read once)."""
        found = self.children.get(element)
        if found is None:
            found = [Node(child) for child in element.iterfind("selectionEntries/selectionEntry")]
            found += [Node(child) for child in element.iterfind("selectionEntryGroups/selectionEntryGroup")]
            for link in element.iterfind("entryLinks/entryLink"):
                target = self.target(link)
                if target is not None:
                    found.append(Node(target, link))
            self.children[element] = found
        return found

    def modifiers_of(self, element: Element) -> tuple[dict[str, list[Element]], list[tuple[Element, set[str]]]]:
        """An element's own modifiers by field, and its modifier groups with every field modified
        in each (read once per element: the same entries are asked about by unit and by faction)."""
        found = self.modifiers.get(element)
        if found is None:
            own: dict[str, list[Element]] = {}
            for modifier in element.iterfind("modifiers/modifier"):
                own.setdefault(modifier.get("field"), []).append(modifier)
            groups = [(group, {m.get("field") for m in group.iter("modifier")})
                      for group in element.iterfind("modifierGroups/modifierGroup")]
            found = self.modifiers[element] = own, groups
        return found

    def conditions_of(self, element: Element) -> tuple[list[Element], list[Element]]:
        """The conditions and condition groups directly under an element (read once per element)."""
        found = self.conditions.get(element)
        if found is None:
            found = self.conditions[element] = (list(element.iterfind("conditions/condition")),
                                                list(element.iterfind("conditionGroups/conditionGroup")))
        return found

    def enhancement_groups(self, xml: XmlFile) -> list[Element]:
        """A file's groups of enhancements, not those inside another (found once per file: the
        factions that link a library all read its groups)."""
        found = self.enhancements.get(xml)
        if found is None:
            found = self.enhancements[xml] = [
                group for group in xml.root.iter("selectionEntryGroup") if is_enhancements(group) and
                not any(is_enhancements(a) for a in group.iterancestors("selectionEntryGroup"))]
        return found

    def xml_of(self, element: Element) -> XmlFile:
        root = element.getroottree().getroot()
        return next(x for x in self.files if x.loaded and x.root is root)

    def location(self, element: Element) -> Location:
        return self.xml_of(element).location(element)

    def key(self, element: Element) -> tuple[str, str]:
        """What names an element across its file's releases: the file, and the path to it."""
        return self.xml_of(element).path.name, element.getroottree().getpath(element)

    def warn(self, code: str, message: str, where: Element | Location, kind: str, count: int = 1) -> None:
        """A located warning, and `count` more of `kind` in the report's tally of what was left out."""
        location = where if isinstance(where, Location) else self.location(where)
        self.findings.append(Finding(code, message, severity="warning", location=location))
        self.left_out[kind] += count

    def target(self, link: Element) -> Element | None:
        found = self.element(link.get("targetId", ""))
        where = self.location(link) if found is None else None
        if where is not None and where not in self.broken:
            self.broken.add(where)
            self.warn("bsdata-broken-link", f"{link.tag} {link.get('name')!r} points to id "
                      f"{link.get('targetId')!r}, which no file of the folder defines", link, "broken links")
        return found

    def linked_catalogues(self, catalogue: XmlFile, roots_only: bool, report: bool = True) -> list[XmlFile]:
        """The catalogues this one links, transitively; with roots_only, only importRootEntries links."""
        seen, order, todo = {catalogue.attributes.get("id")}, [], [catalogue]
        while todo:
            current = todo.pop(0)
            for link, where in self.catalogue_links[current]:
                if roots_only and link.get("importRootEntries") != "true":
                    continue
                linked = self.catalogues.get(link.get("targetId", ""))
                if linked is None:
                    if report:
                        self.warn("bsdata-broken-link", f"catalogue link {link.get('name')!r} names a catalogue "
                                  "that is not in the folder", where, "broken links")
                elif linked.attributes.get("id") not in seen:
                    seen.add(linked.attributes.get("id"))
                    order.append(linked)
                    todo.append(linked)
        return order


@dataclass
class Node:
    """A selection entry or group as the data means it: an entryLink merged with its target."""

    entry: Element
    link: Element | None = None
    # Read once per node: asked hundreds of thousands of times in an import.
    name: str = field(init=False)
    kind: str = field(init=False)  # "group", or the entry's type: "unit", "model", "upgrade"
    elements: tuple[Element, ...] = field(init=False)  # the link, then the entry

    def __post_init__(self) -> None:
        self.name = self.entry.get("name", "")
        self.kind = "group" if self.entry.tag == "selectionEntryGroup" else self.entry.get("type", "upgrade")
        self.elements = (self.entry,) if self.link is None else (self.link, self.entry)

    @property
    def ids(self) -> set[str]:
        return {e.get("id", "") for e in (self.entry, self.link) if e is not None}

    def parts(self, path: str) -> list[Element]:
        return [part for e in self.elements for part in e.iterfind(path)]

    @property
    def hidden(self) -> bool:
        return any(e.get("hidden") == "true" for e in self.elements)

    def bounds(self, scopes: set[str] = frozenset({"parent"})) -> tuple[int, float]:
        """The min and max selections its constraints set in its parent (max infinite if none);
        `scopes` also names the parent, and any entry around it, by id."""
        low, high = 0, math.inf
        for constraint in self.parts("constraints/constraint"):
            if constraint.get("field") != "selections" or constraint.get("scope") not in scopes:
                continue
            value = number(constraint, "value")
            if constraint.get("type") == "min":
                low = max(low, int(value))
            elif constraint.get("type") == "max" and value >= 0:
                high = min(high, value)
        return low, high


def children(library: Library, node: Node) -> list[Node]:
    """The entries and groups directly under a node, links followed: the link's, then its target's."""
    if node.link is None:
        return library.children_of(node.entry)
    return library.children_of(node.link) + library.children_of(node.entry)


# --- conditions --------------------------------------------------------------------------------

@dataclass
class Context:
    """What an import can know when evaluating a condition."""

    library: Library
    faction_id: str | None = None  # the primary catalogue, where a faction is being read
    counts: dict[str, int] | None = None  # selections of each id inside the unit being priced

    def count(self, condition: Element) -> int | None:
        child = condition.get("childId", "")
        if child in self.library.other_mode_ids:
            return 0
        scope = condition.get("scope", "")
        if scope == "primary-catalogue" and self.faction_id is not None:
            return int(child == self.faction_id)
        if self.counts is not None and condition.get("field") == "selections" and scope not in (
                "roster", "force", "primary-catalogue", "primary-category"):
            return self.counts.get(child)
        return None

    def holds(self, condition: Element) -> bool | None:
        count = self.count(condition)
        if count is None:
            return None
        kind = condition.get("type", "")
        if kind == "instanceOf":
            return count >= 1
        if kind == "notInstanceOf":
            return count == 0
        compare = COMPARE.get(kind)
        return None if compare is None else compare(count, number(condition, "value"))

    def all_hold(self, element: Element, kind: str = "and") -> bool | None:
        """Whether the conditions and condition groups directly under an element all hold (or,
        with `kind` "or", any)."""
        conditions, groups = self.library.conditions_of(element)
        results = [self.holds(c) for c in conditions]
        results += [self.all_hold(g, g.get("type", "and")) for g in groups]
        return _combine(results, kind)

    def repeats(self, modifier: Element) -> int | None:
        times = 1
        for repeat in modifier.iterfind("repeats/repeat"):
            count = self.count(repeat)
            if count is None:
                return None
            per = number(repeat, "value", "1") or 1
            steps = math.ceil(count / per) if repeat.get("roundUp") == "true" else math.floor(count / per)
            times *= steps * int(number(repeat, "repeats", "1"))
        return times


def _combine(results: list[bool | None], kind: str) -> bool | None:
    if kind == "or":
        return True if True in results else (None if None in results else not results or False)
    return False if False in results else (None if None in results else True)


def modifiers(element: Element, context: Context, wanted: str) -> Iterator[tuple[Element, bool | None]]:
    """Each modifier of one field under an element (modifier groups flattened), with whether it
    applies; conditions are evaluated only for the modifiers asked for."""
    own, groups = context.library.modifiers_of(element)
    for modifier in own.get(wanted, ()):
        yield modifier, context.all_hold(modifier)
    for group, fields in groups:
        if wanted in fields:
            outer = context.all_hold(group)
            for modifier, applies in modifiers(group, context, wanted):
                yield modifier, _combine([outer, applies], "and")


def is_hidden(node: Node, context: Context) -> bool:
    """Hidden for this context; a condition it cannot decide leaves the entry as written."""
    hidden = node.hidden
    for element in node.elements:
        for modifier, applies in modifiers(element, context, "hidden"):
            if modifier.get("type") == "set" and applies:
                hidden = modifier.get("value") == "true"
    return hidden


# --- units ---------------------------------------------------------------------------------------

@dataclass(eq=False)
class Slot:
    """A part of a unit that holds models: a model entry, a group, or an upgrade that brings
    models (a "1 Sergeant and 9 Troopers" choice), with how many selections its parent allows."""

    node: Node
    low: int
    high: float
    parts: list[Slot]
    counted_as: set[str]  # the ids a condition may count it under: its own, its groups', its categories
    open: bool = False  # a model entry no constraint bounds

    @property
    def is_model(self) -> bool:
        return self.node.kind == "model"


Composition = tuple[tuple[Slot, int], ...]  # selections of each model entry and model-bringing upgrade
MOST_MODELS = 100  # compositions are enumerated up to this many models
MAX_DEPTH = 8  # nesting followed at most (real data nests 4 deep; links may loop)
WEAPON_KINDS = ("Ranged Weapons", "Melee Weapons")


def characteristics(profile: Element) -> dict[str, str]:
    return {c.get("name", "").upper(): (c.text or "").strip() for c in profile.iterfind("characteristics/characteristic")}


@dataclass
class Sheet:
    """What a unit's datasheet shows, gathered from all its entries."""

    profiles: list[UnitProfile] = field(default_factory=list)
    weapons: dict[tuple[str, str], Weapon] = field(default_factory=dict)
    abilities: dict[str, str] = field(default_factory=dict)
    rules: list[str] = field(default_factory=list)
    transport: str | None = None
    defaults: dict[Element, list[str]] = field(default_factory=dict)  # model entry -> default wargear
    choices: list[tuple[WargearChoice, Node, Node]] = field(default_factory=list)  # with its model and group

    def add(self, profile: Element, type_name: str, values: dict[str, str]) -> None:
        kind = profile.get("typeName") or type_name
        name = profile.get("name", "")
        if kind == "Unit" and not any(p.name == name and p.toughness == values.get("T", "") for p in self.profiles):
            self.profiles.append(UnitProfile(
                name=name, movement=values.get("M", ""), toughness=values.get("T", ""), save=values.get("SV", ""),
                wounds=values.get("W", ""), leadership=values.get("LD", ""), objective_control=values.get("OC", "")))
        elif kind in WEAPON_KINDS:
            keywords = values.get("KEYWORDS", "")
            if (name, kind) not in self.weapons:
                self.weapons[name, kind] = Weapon(
                    name=name, kind="ranged" if kind.startswith("Ranged") else "melee",
                    range=values.get("RANGE", "Melee"), attacks=values.get("A", ""),
                    skill=values.get("BS") or values.get("WS", ""), strength=values.get("S", ""),
                    armour_penetration=values.get("AP", ""), damage=values.get("D", ""),
                    keywords=[] if keywords in ("", "-") else [k.strip() for k in keywords.split(",")])
        elif kind == "Abilities":
            self.abilities.setdefault(name, values.get("DESCRIPTION", ""))
        if kind == "Transport" or (kind == "Abilities" and name == "Transport"):
            self.transport = self.transport or values.get("CAPACITY") or values.get("DESCRIPTION")


class UnitReader:
    def __init__(self, library: Library):
        self.library = library
        self.matched_play = Context(library)  # what any army sees: not a Crusade force
        self.hidden_in_matched_play: dict[tuple[Element, Element | None], bool] = library.memo()
        self.weapons_of: dict[tuple[Element, Element | None], frozenset[str]] = library.memo()
        self.wargear_under: dict[tuple[Element, Element | None], frozenset[str]] = library.memo()
        self.profiles_of: dict[Element, list[Element]] = library.memo()
        self.values_of: dict[Element, dict[str, str]] = library.memo()  # a profile's characteristics
        self.modified_under: dict[Element, set[str]] = library.memo()  # the fields the modifiers in an element change
        self.limits = LimitReader(self)

    def shown(self, node: Node) -> bool:
        """Whether a node is part of a datasheet in matched play (judged once per node)."""
        key = (node.entry, node.link)
        if key not in self.hidden_in_matched_play:
            self.hidden_in_matched_play[key] = bool(NOT_DATASHEET.search(node.name)) or is_hidden(node, self.matched_play)
        return not self.hidden_in_matched_play[key]

    def walk(self, node: Node, inside_model: bool = False) -> Iterator[tuple[Node, bool]]:
        """Every node under a unit, with whether it is a model's wargear; not the Crusade or
        enhancement groups, nor what the data hides in matched play (Crusade-only entries, and
        those hidden unless some choice shows them); cycles are cut."""
        seen: set[Element] = set()  # elements, not ids: a freed lxml proxy's id may be reused
        todo = [(node, inside_model)]
        while todo:
            current, in_model = todo.pop()
            if current.entry in seen:
                continue
            seen.add(current.entry)
            yield current, in_model
            for child in children(self.library, current):
                if self.shown(child):
                    todo.append((child, in_model or current.kind == "model"))

    def weapons(self, node: Node) -> frozenset[str]:
        """The weapons a node's own profiles are, by name ('Plasma pistol', not its profiles); read once per node."""
        key = (node.entry, node.link)
        if key not in self.weapons_of:
            self.weapons_of[key] = frozenset(
                weapon_name(p.get("name", "")) for p in self.profiles(node)
                if (p.get("typeName") or self.library.profile_types.get(p.get("typeId"))) in WEAPON_KINDS)
        return self.weapons_of[key]

    def wargear(self, node: Node) -> frozenset[str]:
        """Every weapon a node and the entries under it may give (read once per node)."""
        key = (node.entry, node.link)
        if key not in self.wargear_under:
            self.wargear_under[key] = self.gathered_wargear(node)
        return self.wargear_under[key]

    def gathered_wargear(self, node: Node, models: frozenset[Element] = frozenset()) -> frozenset[str]:
        """The weapons of a node and of the entries under it, except under the model entries
        `models`. Entries hidden unless some choice shows them are read too: the bounds that rest
        on this must never miss a weapon."""
        found: set[str] = set()
        seen, todo = set(), [node]
        while todo:
            current = todo.pop()
            if current.entry not in seen:
                seen.add(current.entry)
                found |= self.weapons(current)
                todo += [c for c in children(self.library, current)
                         if not NOT_DATASHEET.search(c.name) and c.entry not in models]
        return frozenset(found)

    def slots(self, node: Node, groups: set[str], around: set[str], bounded: bool = False,
              depth: int = 0) -> list[Slot]:
        """The parts of a unit that hold models, nested as the data nests them; `around` holds the
        ids of the entries and groups around them, by which a constraint may name its scope."""
        found = []
        around = around | node.ids
        for child in children(self.library, node):
            if not self.shown(child) or depth > MAX_DEPTH:
                continue
            low, high = child.bounds(around | {"parent"})
            if child.kind == "model":
                categories = {c.get("targetId", "") for c in child.parts("categoryLinks/categoryLink")}
                found.append(Slot(child, low, high, [], groups | child.ids | categories | {"model"},
                                  open=high == math.inf and not bounded))
            else:  # a group's selections are its entries'; an upgrade's models are not its selections
                inside = groups | child.ids if child.kind == "group" else set()
                parts = self.slots(child, inside, around, bounded or high < math.inf, depth + 1)
                if parts:
                    found.append(Slot(child, low, high, parts, groups | child.ids))
        return found

    def ways(self, slot: Slot, reverse: bool) -> dict[tuple[int, int], Composition]:
        """Every (selections, models) a slot can make, each with one composition: the first found
        when earlier parts (later ones, in reverse) take as many as they may."""
        most = int(min(slot.high, MOST_MODELS))
        if slot.is_model:
            return {(n, n): ((slot, n),) for n in range(most, slot.low - 1, -1)}
        inner = self.combine(slot.parts, reverse)
        if slot.node.kind == "group":
            return {key: made for key, made in inner.items() if slot.low <= key[0] <= slot.high}
        by_models: dict[int, Composition] = {}
        for (_, models), made in inner.items():
            by_models.setdefault(models, made)
        found: dict[tuple[int, int], Composition] = {}
        for times in range(most, slot.low - 1, -1):
            for models, made in by_models.items():
                if times * models <= MOST_MODELS:
                    found.setdefault((times, times * models),
                                     ((slot, times),) + tuple((part, count * times) for part, count in made))
        return found

    def combine(self, parts: list[Slot], reverse: bool) -> dict[tuple[int, int], Composition]:
        states: dict[tuple[int, int], Composition] = {(0, 0): ()}
        for part in reversed(parts) if reverse else parts:
            options = self.ways(part, reverse)
            grown: dict[tuple[int, int], Composition] = {}
            for (selections, models), made in states.items():
                for (more_selections, more_models), more in options.items():
                    if models + more_models <= MOST_MODELS:
                        grown.setdefault((selections + more_selections, models + more_models), made + more)
            states = grown
        return states

    def compositions(self, slots: list[Slot], reverse: bool) -> dict[int, Composition]:
        """One composition for every legal model count of the unit."""
        found: dict[int, Composition] = {}
        for (_, models), made in self.combine(slots, reverse).items():
            if models:
                found.setdefault(models, made)
        return dict(sorted(found.items()))

    def cost(self, node: Node, context: Context, left_out: set[str]) -> float | None:
        """The points of one selection of a node, its modifiers applied; None if it has no cost."""
        base = None
        for element in node.elements:
            for cost in element.iterfind("costs/cost"):
                if cost.get("typeId") == self.library.points_type:
                    base = number(cost, "value")
        points = base
        for element in reversed(node.elements):  # the entry's modifiers, then the link's
            for modifier, applies in modifiers(element, context, self.library.points_type):
                times = context.repeats(modifier)
                if applies is None or times is None:
                    left_out.add(modifier.get("id") or str(modifier.sourceline))
                    continue
                if not applies:
                    continue
                value = number(modifier, "value")
                kind = modifier.get("type")
                points = points or 0
                if kind == "set":
                    points = value
                elif kind == "increment":
                    points += value * times
                elif kind == "decrement":
                    points -= value * times
        return points

    def price(self, root: Node, made: Composition, left_out: set[str]) -> int:
        counts: Counter = Counter({ident: 1 for ident in root.ids})
        for slot, count in made:
            for ident in slot.counted_as:
                counts[ident] += count
        context = Context(self.library, counts=dict(counts))
        points = self.cost(root, context, left_out) or 0
        for slot, count in made:
            if count:
                points += (self.cost(slot.node, context, left_out) or 0) * count
        return int(round(points))

    def read(self, root: Node, left_out: Counter) -> Unit:
        categories = [self.library.category_names.get(c.get("targetId", ""), c.get("name", ""))
                      for c in root.parts("categoryLinks/categoryLink")]
        keywords = [c for c in dict.fromkeys(categories) if c and not c.startswith(FACTION_PREFIX)]
        factions = [c[len(FACTION_PREFIX):] for c in dict.fromkeys(categories) if c.startswith(FACTION_PREFIX)]
        slots = self.slots(root, set(), set()) if root.kind != "model" else []
        sheet = self.datasheet(root, left_out)
        sizes, made = self.sizes(root, slots, left_out)
        limit = next((int(number(c, "value")) for c in root.parts("constraints/constraint")
                      if c.get("type") == "max" and c.get("scope") == "roster" and c.get("field") == "selections"),
                     None)
        matched_play = Context(self.library)
        lineages = [(slot, above) for slot, above in self._lineages(slots) if slot.is_model]
        leaves = [slot for slot, _ in lineages]
        shared = self.gathered_wargear(root, frozenset(leaf.node.entry for leaf in leaves)) if leaves else ()
        limits, group_limits = self.limits.read(root, lineages, set(shared), [size.models for size in sizes],
                                                sheet.choices, left_out)
        return Unit(
            id=root.entry.get("id", ""), name=root.name, keywords=keywords, faction_keywords=factions,
            **{attribute: flag in keywords for flag, attribute in FLAGS.items()},
            max_in_army=limit, sizes=sizes, profiles=sheet.profiles, weapons=list(sheet.weapons.values()),
            wargear_choices=[self.exclusive(choice, model, group) for choice, model, group in sheet.choices],
            shared_wargear=sorted(shared),
            wargear_limits=limits, wargear_group_limits=group_limits,
            models=self.model_ranges(lineages, made, sheet) or [
                ModelRange(name=root.name, min=1, max=1, default_wargear=sheet.defaults.get(root.entry, []),
                           wargear=sorted(self.wargear(root)), fewest=1, most=1)],
            priced_per_model=bool(leaves) and not self.cost(root, matched_play, set()) and any(
                self.cost(s.node, matched_play, set()) for s in leaves),
            abilities=[Ability(name=n, text=t) for n, t in sheet.abilities.items()],
            rules=list(dict.fromkeys(sheet.rules)), transport=sheet.transport, legends="[Legends]" in root.name)

    def sizes(self, root: Node, slots: list[Slot], left_out: Counter) -> tuple[list[UnitSize], list[Composition]]:
        """The points of every model count the unit may have, and the compositions priced."""
        pricing_left_out: set[str] = set()
        if not slots:
            return [UnitSize(models=1, points=self.price(root, (), pricing_left_out))], []
        forward, backward = self.compositions(slots, False), self.compositions(slots, True)
        if any(slot.open for slot, _ in self._lineages(slots)) and forward:
            least = min(forward)
            self.library.warn("bsdata-size-unclear", f"{root.name}: the data sets no largest size; only {least} "
                              "models are priced", root.entry, "units whose sizes the data leaves unclear")
            forward, backward = {least: forward[least]}, {least: backward[least]}
        if not forward:
            self.library.warn("bsdata-size-unclear", f"{root.name}: the data's constraints allow no number of "
                              "models; the unit has no points", root.entry, "units whose sizes the data leaves unclear")
        sizes, varying = [], []
        for total, made in forward.items():
            points = self.price(root, made, pricing_left_out)
            if points != self.price(root, backward[total], pricing_left_out):
                varying.append(total)
            sizes.append(UnitSize(models=total, points=points))
        if varying:
            self.library.warn(
                "bsdata-points-vary", f"{root.name}: the points of {', '.join(map(str, varying))} models depend on "
                "which models are taken; the table prices the kinds of model in the data's order", root.entry,
                "unit sizes whose points depend on which models are taken", len(varying))
        left_out["points modifiers that depend on the rest of the roster or on wargear"] += len(pricing_left_out)
        return sizes, list(forward.values()) + list(backward.values())

    def model_ranges(self, lineages: list[tuple[Slot, tuple[Slot, ...]]], made: list[Composition],
                     sheet: Sheet) -> list[ModelRange]:
        """Each kind of model: the least of it in any priced composition, and the most its own
        constraints allow in a unit of the largest size; what it may carry; and the fewest and most
        of it that constraints no modifier loosens allow (several entries of one name add up)."""
        largest = max((sum(c for slot, c in composition if slot.is_model) for composition in made), default=0)
        ranges: dict[str, ModelRange] = {}
        for leaf, above in lineages:
            name = leaf.node.name
            counts = [sum(c for slot, c in composition if slot.node.name == name) for composition in made]
            most = max(max(counts, default=0), int(min(leaf.high, largest)))
            known = ranges.get(name)
            fewest, firm_most = self.firm_bounds(leaf, above)
            wargear = self.wargear(leaf.node)
            if known is not None:
                fewest += known.fewest
                firm_most = None if firm_most is None or known.most is None else firm_most + known.most
                wargear |= set(known.wargear or ())
            ranges[name] = ModelRange(name=name, min=min(counts, default=0), max=max(most, known.max if known else 0),
                                      default_wargear=sheet.defaults.get(leaf.node.entry, []), wargear=sorted(wargear),
                                      fewest=fewest, most=firm_most)
        return list(ranges.values())

    def firm_bounds(self, leaf: Slot, above: tuple[Slot, ...]) -> tuple[int, int | None]:
        """The fewest and most models of one entry a unit can have, by its constraints and those of
        the model-bringing upgrades around it (groups bound their entries together, not one): 0 and
        None where a modifier may loosen one of them (a "+1 per 5 models" rule, a choice hanging
        on another)."""
        chain = (*above, leaf)
        constraints = [c for slot in chain for c in slot.node.parts("constraints/constraint")
                       if c.get("field") == "selections"]
        times = [slot for slot in chain if slot.node.kind != "group"]
        fewest = math.prod(slot.low for slot in times)
        most = math.prod(slot.high for slot in times)
        if any(c.get("type") == "min" and c.get("id") in self.library.lowered for c in constraints):
            fewest = 0
        if most == math.inf or any(c.get("type") == "max" and c.get("id") in self.library.raised for c in constraints):
            return fewest, None
        return fewest, int(most)

    def exclusive(self, choice: WargearChoice, model: Node, group: Node) -> WargearChoice:
        """The choice with the weapons its model can have only through it, no option giving two of
        them: a model carries at most `max` of them."""
        elsewhere = self.weapons(model) | {w for c in children(self.library, model) if c.entry is not group.entry
                                           for w in self.wargear(c)}
        given = [self.wargear(option) - elsewhere for option in children(self.library, group)]
        doubled = {w for weapons in given if len(weapons) > 1 for w in weapons}
        return choice.model_copy(update={"exclusive": sorted(set().union(*given) - doubled)})

    def one_of(self, choices: list[tuple[WargearChoice, Node, Node]], model: Element, weapons: set[str],
               ways: list[tuple[Element, ...]]) -> bool:
        """Whether a model of this entry carries at most one of these weapons: these ways to them
        all pass one plain choice of its, of one option, none of whose options gives two of them."""
        return any(choice.max == 1 and node.entry is model and all(group.entry in way for way in ways)
                   and all(len(self.wargear(option) & weapons) <= 1 for option in children(self.library, group))
                   for choice, node, group in choices)

    def datasheet(self, root: Node, left_out: Counter) -> Sheet:
        """Profiles, weapons, abilities, rules, transport and default loadouts, from the whole unit."""
        sheet = Sheet()
        walked = list(self.walk(root))
        modified = set().union(*(self.modified_fields(e) for node, _ in walked for e in node.elements))
        mapped: set[Element] = set()
        for node, in_model in walked:
            if node.kind == "model":
                for group in children(self.library, node):
                    choice = self.choice(node, group, modified)
                    if choice is not None:
                        sheet.choices.append((choice, node, group))
                        mapped.add(group.entry)
            for profile in self.profiles(node):
                sheet.add(profile, self.library.profile_types.get(profile.get("typeId"), ""), self.characteristics(profile))
            for link in node.parts("infoLinks/infoLink"):
                if link.get("type") == "rule":
                    target = self.library.target(link)
                    sheet.rules.append((target.get("name") if target is not None else None) or link.get("name", ""))
            if node.kind == "model" or node is root:
                sheet.defaults[node.entry] = self._default_wargear(node)
            if in_model and node.kind == "group" and len(children(self.library, node)) > 1 \
                    and node.entry not in mapped:
                left_out["wargear option rules (units keep their default loadout)"] += 1
        invulnerable = re.search(r"\d\+", sheet.abilities.get("Invulnerable Save", ""))
        if invulnerable:
            sheet.profiles = [p.model_copy(update={"invulnerable_save": invulnerable.group(0)}) for p in sheet.profiles]
        return sheet

    def modified_fields(self, element: Element) -> set[str]:
        """The fields the modifiers anywhere in an element change (read once per element)."""
        found = self.modified_under.get(element)
        if found is None:
            found = self.modified_under[element] = {m.get("field") for m in element.iter("modifier")}
        return found

    def choice(self, model: Node, group: Node, modified: set[str]) -> WargearChoice | None:
        """A model's choice group as a WargearChoice, where the data states it plainly: options that
        are wargear shown to every army, constraints only on how many are taken, none of them
        changed by a modifier (a "1 per 5 models" rule, a choice hanging on another)."""
        options = children(self.library, group)
        if group.kind != "group" or not self.shown(group) or len(options) < 2:
            return None
        if any(option.kind != "upgrade" or not self.shown(option) or
               any(True for e in option.elements for _ in modifiers(e, self.matched_play, "hidden"))
               for option in options):
            return None
        group_constraints = group.parts("constraints/constraint")
        within = [c for option in options for e in option.elements for c in e.iter("constraint")]
        for constraint in group_constraints + within:  # within an option too: "at most 2 per unit"
            if constraint.get("field") != "selections" or constraint.get("scope") != "parent" \
                    or constraint.get("id") in modified:
                return None
        low, high = group.bounds()
        chosen = {e.get("defaultSelectionEntryId") for e in group.elements} - {None, "none"}
        return WargearChoice(model=model.name, name=group.name, options=[o.name for o in options],
                             default=[o.name for o in options if o.ids & chosen], min=low,
                             max=int(min(high, len(options))))

    def _lineages(self, slots: list[Slot], above: tuple[Slot, ...] = ()) -> Iterator[tuple[Slot, tuple[Slot, ...]]]:
        """Each innermost slot, with the slots around it."""
        for slot in slots:
            if slot.parts:
                yield from self._lineages(slot.parts, (*above, slot))
            else:
                yield slot, above

    def profiles(self, node: Node) -> list[Element]:
        """A node's profiles, its own and those it links."""
        return [profile for element in node.elements for profile in self.profiles_of_element(element)]

    def profiles_of_element(self, element: Element) -> list[Element]:
        """An element's profiles, its own and those it links (read once per element)."""
        found = self.profiles_of.get(element)
        if found is None:
            found = self.profiles_of[element] = list(element.iterfind("profiles/profile"))
            for link in element.iterfind("infoLinks/infoLink"):
                if link.get("type") == "profile":
                    target = self.library.target(link)
                    if target is not None:
                        found.append(target)
                elif link.get("type") == "infoGroup":
                    target = self.library.target(link)
                    if target is not None:
                        found += target.iter("profile")
            for group in element.iterfind("infoGroups/infoGroup"):
                found += group.iter("profile")
        return found

    def characteristics(self, profile: Element) -> dict[str, str]:
        """A profile's characteristics (read once per profile: many units link the same weapons)."""
        found = self.values_of.get(profile)
        if found is None:
            found = self.values_of[profile] = characteristics(profile)
        return found

    def _default_wargear(self, node: Node) -> list[str]:
        """What a model comes with: wargear it must take, and the default choice of each group."""
        chosen = []
        defaults = {e.get("defaultSelectionEntryId") for e in node.elements}
        for child in children(self.library, node):
            if not self.shown(child) or child.kind == "model":
                continue
            if child.kind == "group":
                group_defaults = {e.get("defaultSelectionEntryId") for e in child.elements} - {None, "none"}
                chosen += [c.name for c in children(self.library, child) if c.ids & group_defaults]
            elif child.bounds()[0] >= 1 or child.ids & defaults:
                chosen.append(child.name)
        return list(dict.fromkeys(chosen))


# --- wargear limits per unit (DECISIONS.md D24) -------------------------------------------------

Limit = tuple[tuple, dict[int, int]]  # what it counts (an entry's id, or one way to it) and its most by unit size
Way = tuple[list[Limit], tuple[Element, ...]]  # the limits on one way onto a model to a weapon, and the way
LEFT_OUT = "wargear limits per unit left out: {}"
BEYOND_UNIT = ("parent", "self", "force", "roster", "primary-catalogue", "primary-category")  # scopes not a unit's
ERRORS_LEFT_OUT = "wargear rules stated as error messages left out: {}"
TOGETHER_LEFT_OUT = "wargear limits on several weapons together left out: {}"
RISING = ("greaterThan", "atLeast")  # counts that, once they raise a message, raise it for any larger count


@dataclass
class LimitedUnit:
    """What a unit's limits are read against: the ids its scope may be named by, its sizes, and
    the model entries that are its own selections (not inside an upgrade that brings models)."""

    ids: set[str]
    sizes: list[int]
    direct_models: set[Element]
    model_ids: set[str]  # what counts exactly its models without child selections: `model`, a group around all

    def counts(self, query: Element) -> bool:
        return query.get("field") == "selections" and (query.get("scope") == "unit" or query.get("scope") in self.ids)

    def counts_models(self, query: Element) -> bool:
        """Whether a condition compares the number of the unit's models (counted with child
        selections, or, where every model is the unit's own selection, without: `model` or a group
        holding them all); `instanceOf` asks what a selection is, not how many."""
        return query.get("type") not in ("instanceOf", "notInstanceOf") and (counts_unit_models(query, self.ids) or (
            self.counts(query) and query.get("childId") in self.model_ids and query.get("includeChildSelections") != "true"))


def counts_unit_models(query: Element, unit_ids: set[str]) -> bool:
    """Whether a condition or repeat counts the models of the whole unit (BattleScribe's `model`)."""
    return (query.get("childId") == "model" and query.get("field") == "selections"
            and query.get("includeChildSelections") == "true" and (query.get("scope") == "unit" or query.get("scope") in unit_ids))


class LimitReader:
    """Limits per unit on the entries that give a model its weapons: a constraint `max N selections
    in the unit, child selections included` counts every selection of its entry in the unit (of
    this one way to it, unless `shared`), so a weapon whose every way onto a model passes through
    such an entry is carried by at most the sum of those limits (once per entry counted)."""

    def __init__(self, units: UnitReader):
        self.units = units
        self.library = units.library
        self.marked: dict[tuple[Element, Element | None], tuple[list[Element], list[Element]]] = self.library.memo()

    def read(self, root: Node, lineages: list[tuple[Slot, tuple[Slot, ...]]], shared: set[str], sizes: list[int],
             choices: list[tuple[WargearChoice, Node, Node]], left_out: Counter
             ) -> tuple[list[WargearLimit], list[WargearGroupLimit]]:
        models = [slot.node for slot, _ in lineages]
        nested = {slot.node.entry for slot, above in lineages if any(s.node.kind != "group" for s in above)}
        own_models = bool(lineages) and not nested  # every model is the unit's own selection
        around_all = set.intersection(*({s.node.entry.get("id", "") for s in above} for _, above in lineages)) \
            if own_models else set()
        unit = LimitedUnit(root.ids, sizes, {model.entry for model in models} - nested,
                           {"model"} | around_all if own_models else set())
        ways: dict[str, list[Way]] = {}  # weapon -> each way onto a model, with the limits on it
        unread: dict[Element, str] = {}  # constraints left out, with why
        messages_unread: dict[Element, str] = {}
        for model in models or [root]:
            todo: list[tuple[Node, list[Limit], tuple[Element, ...]]] = [(model, [], (model.entry,))]
            while todo:
                node, limits, path = todo.pop()
                constraints, messages = self.marks(node) if node is not root else ([], [])
                if constraints or messages:
                    limits = limits + tightest(self.limits_on(node, constraints, path, unit, unread)
                                               + self.limits_in(node, messages, path, unit, messages_unread))
                for weapon in self.units.weapons(node):
                    ways.setdefault(weapon, []).append((limits, path))
                for child in children(self.library, node):
                    if child.entry in path or NOT_DATASHEET.search(child.name):
                        continue  # a cycle's second round has the limits of its first, and more
                    if len(path) > MAX_DEPTH:  # too deep to follow: what it gives is not limited
                        for weapon in self.units.wargear(child):
                            ways.setdefault(weapon, []).append(([], path))
                    else:
                        todo.append((child, limits, path + (child.entry,)))
        left_out.update(LEFT_OUT.format(why) for why in unread.values())
        left_out.update(ERRORS_LEFT_OUT.format(why) for why in messages_unread.values())
        found = []
        for weapon, each in sorted(ways.items()):
            limited = [limits for limits, _ in each]
            if weapon in shared or not all(limited):
                if any(limited):
                    left_out[LEFT_OUT.format("on only some of the ways to a weapon")] += 1
                continue
            most = {models: self.most_on(limited, models) for models in sizes}
            if any(most[models] < models for models in sizes):
                found.append(WargearLimit(weapon=weapon, most=most))
        return found, self.together(ways, shared, sizes, found, choices, left_out)

    def together(self, ways: dict[str, list[Way]], shared: set[str], sizes: list[int], alone: list[WargearLimit],
                 choices: list[tuple[WargearChoice, Node, Node]], left_out: Counter) -> list[WargearGroupLimit]:
        """Limits on several weapons together (D26): a limit counted on every way to each of them
        bounds the sum of their carriers, where each selection it counts gives a model at most one
        of them (an entry that gives one of them, or a model that has them only through one choice
        of one option); weapons a selection may give two of are left out of the sum. Kept where
        tighter at some size than their own limits added up; the same weapons limited by several
        entries, at the tightest of them."""
        through: dict[tuple, list[str]] = {}  # a thing counted -> the weapons on some way through it
        for weapon, each in ways.items():
            for key in dict.fromkeys(key for limits, _ in each for key, _ in limits):
                through.setdefault(key, []).append(weapon)
        own = {limit.weapon: limit.most for limit in alone}
        found: dict[tuple[str, ...], dict[int, int]] = {}
        for key, weapons in through.items():
            if len(weapons) < 2:
                continue
            only = [w for w in weapons if w not in shared and all(any(k == key for k, _ in limits) for limits, _ in ways[w])]
            by_entry: dict[Element | None, dict[str, list]] = {}  # an entry the limit counts -> its weapons' ways
            for weapon in only:
                for _, path in ways[weapon]:
                    by_entry.setdefault(counted_entry(key, path), {}).setdefault(weapon, []).append(path)
            doubled: set[str] = set()  # weapons one selection may give a model with another of them
            for entry, given in by_entry.items():
                if entry is None or len(given) > 1 and not self.units.one_of(
                        choices, entry, set(given), [path for paths in given.values() for path in paths]):
                    doubled |= given.keys()
            summed = sorted(set(only) - doubled)
            if len(only) < 2:
                left_out[TOGETHER_LEFT_OUT.format("its weapons also come other ways")] += 1
            elif len(summed) < 2:
                left_out[TOGETHER_LEFT_OUT.format("one selection may give a model two of its weapons")] += 1
            else:
                most = {models: max(m[models] for w in summed for limits, _ in ways[w] for k, m in limits if k == key)
                        for models in sizes}
                if any(most[models] < min(models, sum(own.get(w, {}).get(models, models) for w in summed))
                       for models in sizes):
                    known = found.get(tuple(summed), most)
                    found[tuple(summed)] = {models: min(n, known[models]) for models, n in most.items()}
        return [WargearGroupLimit(weapons=list(weapons), most=most) for weapons, most in sorted(found.items())]

    def marks(self, node: Node) -> tuple[list[Element], list[Element]]:
        """A node's constraints that may be limits per unit (a max of selections beyond its parent),
        and the error messages its modifiers add (read once per node)."""
        key = (node.entry, node.link)
        if key not in self.marked:
            constraints, messages = [], []
            for element in node.elements:
                if (held := element.find("constraints")) is not None:
                    constraints += [c for c in held if c.get("type") == "max" and c.get("field") == "selections"
                                    and c.get("scope") not in BEYOND_UNIT]
                if (held := element.find("modifiers")) is not None:
                    messages += [m for m in held if m.get("field") == "error"]
                if (held := element.find("modifierGroups")) is not None:  # rare: their modifiers at any depth
                    messages += [m for m in held.iter("modifier") if m.get("field") == "error"]
            self.marked[key] = (constraints, messages)
        return self.marked[key]

    def limits_in(self, node: Node, messages: list[Element], path: tuple[Element, ...], unit: LimitedUnit,
                  unread: dict[Element, str]) -> list[Limit]:
        """The limits per unit that error messages added to a node state (D25): a message raised
        where the unit has so many models and more than so many selections of the node's own entry
        allows, at each size, the most selections that do not raise it. Others are left out, with why."""
        found = []
        for message in messages:
            own = [c for c in message.iter("condition") if not unit.counts_models(c)]
            if message.find(".//condition") is None:
                unread[message] = "without conditions"
            elif message.get("type") != "add" or message.find("repeats") is not None \
                    or next(message.iterancestors("modifierGroup"), None) is not None:
                unread[message] = "in a modifier group or repeated"
            elif not all(self.counts_own(c, node, unit) for c in own):
                unread[message] = "under conditions on more than the unit's size and the selections of its entry"
            else:
                shared = bool(own) and all(c.get("shared") == "true" for c in own)
                found.append(((node.entry.get("id", ""),) if shared else path, self.most_without(node, message, own, unit)))
        return found

    @staticmethod
    def counts_own(condition: Element, node: Node, unit: LimitedUnit) -> bool:
        """Whether a condition holds from some count of a node's own entry in the unit on (`more
        than K`, `at least K`), counting all of them (child selections, unless the unit selects it)."""
        return (node.entry.tag == "selectionEntry" and condition.get("childId") == node.entry.get("id")
                and unit.counts(condition) and condition.get("type") in RISING
                and (condition.get("includeChildSelections") == "true" or node.entry in unit.direct_models))

    def most_without(self, node: Node, message: Element, own: list[Element], unit: LimitedUnit) -> dict[int, int]:
        """At each unit size, the most selections of a node's entry that do not raise the message:
        its conditions on that entry only rise with the count, so the first count that raises it
        is found among the values they compare with (one past the largest at most)."""
        most = {}
        for models in unit.sizes:
            counts = dict.fromkeys(unit.model_ids | {"model"}, models)
            for taken in range(1, int(max((number(c, "value") for c in own), default=0)) + 2):
                if Context(self.library, counts=counts | {node.entry.get("id", ""): taken}).all_hold(message):
                    most[models] = min(taken - 1, models)
                    break
            else:
                most[models] = models
        return most

    @staticmethod
    def most_on(ways: list[list[Limit]], models: int) -> int:
        """The most models carrying a weapon: what each entry counted allows (at its loosest, where
        several of its constraints count it), summed over the entries that count its ways, each way
        counted by its tightest, else by the one that counts the most ways."""
        loosest: dict[tuple, int] = {}
        covering: Counter = Counter()
        for limits in ways:
            for key, most in limits:
                loosest[key] = max(loosest.get(key, 0), most[models])
            covering.update({key for key, _ in limits})
        return sum(loosest[key] for key in {min((key for key, _ in limits), key=lambda k: (loosest[k], -covering[k]))
                                            for limits in ways})

    def limits_on(self, node: Node, constraints: list[Element], path: tuple[Element, ...], unit: LimitedUnit,
                  unread: dict[Element, str]) -> list[Limit]:
        """The limits per unit these constraints of a node set; those that cannot be read soundly
        are left out, and where the node gives weapons, counted with why."""
        found = []
        for constraint in constraints:
            most = None
            if constraint.get("scope") != "unit" and constraint.get("scope") not in unit.ids:
                why = "counted in something other than the unit (a model, another datasheet)"
            elif constraint.get("includeChildSelections") != "true" and node.entry not in unit.direct_models:
                why = "not counting what the unit's models take"
            elif constraint.get("percentValue") == "true":
                why = "in percent"
            else:
                most = self.most_by_size(constraint, unit)
                why = "raised by a modifier on more than the unit's size"
            if most is not None:
                found.append(((node.entry.get("id", ""),) if constraint.get("shared") == "true" else path, most))
            elif self.units.wargear(node):
                unread[constraint] = why
        return found

    def most_by_size(self, constraint: Element, unit: LimitedUnit) -> dict[int, int] | None:
        """A constraint's value at each unit size, its modifiers applied where they depend only on
        the unit's model count; a decrement that depends on more is left out (the limit only gets
        looser), any other such modifier leaves the whole limit out, as does no limit (-1)."""
        found = {}
        for models in unit.sizes:
            context = Context(self.library, counts={"model": models})
            most = number(constraint, "value")
            for modifier in self.library.modifiers_changing(constraint.get("id", "")):
                conditional = [modifier, *modifier.iterancestors("modifierGroup")]
                if any(group.find("repeats") is not None for group in conditional[1:]) or \
                        not all(counts_unit_models(q, unit.ids) for e in conditional for q in e.iter("condition", "repeat")):
                    if modifier.get("type") == "decrement":
                        continue
                    return None
                times = context.repeats(modifier)
                if times is None or not all(context.all_hold(e) for e in conditional):
                    continue
                value = number(modifier, "value")
                most = {"set": value, "increment": most + value * times,
                        "decrement": most - value * times}.get(modifier.get("type", ""), math.nan)
                if math.isnan(most):
                    return None
            if most < 0:
                return None
            found[models] = int(most)
        return found


def counted_entry(key: tuple, path: tuple[Element, ...]) -> Element | None:
    """On one way to a weapon, the entry whose selections a limit counts: the limit's own entry,
    or under its group the first entry of the way (None: the group gives the weapon itself)."""
    start = len(key) - 1 if isinstance(key[0], Element) else next(
        i for i, element in enumerate(path) if element.get("id") == key[0])
    return next((element for element in path[start:] if element.tag == "selectionEntry"), None)


def tightest(limits: list[Limit]) -> list[Limit]:
    """One node's limits, one per thing counted: every one of them holds for each selection of it."""
    merged: dict[tuple, dict[int, int]] = {}
    for key, most in limits:
        merged[key] = {models: min(n, merged[key][models]) for models, n in most.items()} if key in merged else most
    return list(merged.items())


# --- factions ------------------------------------------------------------------------------------

class FactionReader:
    def __init__(self, library: Library, units: dict[str, Unit], unit_reader: UnitReader, left_out: Counter):
        self.library = library
        self.units = units
        self.unit_reader = unit_reader
        self.left_out = left_out
        # Enhancements some faction placed, or whose detachment no matched-play army may take
        # (Boarding Actions', another chapter's); and those a faction could not place.
        # Each kept by its key (`Library.key`): a file's elements are new each time it is parsed.
        self.accounted: set[tuple[str, str]] = set()
        self.unplaced: dict[tuple[str, str], tuple[str, Location]] = {}  # its name, and where it is
        self.hidden_detachments: set[str] = set()  # casefolded names
        self.unreadable: set[str] = set()  # ids of units left out
        self.shown_with: dict[Element, list[str]] = library.memo()  # see _shown_with()

    def unplace(self, enhancement: Node) -> None:
        key = self.library.key(enhancement.entry)
        if key not in self.unplaced:
            self.unplaced[key] = enhancement.name, self.library.location(enhancement.entry)

    def report_unplaced(self) -> None:
        """An enhancement that no faction could give a detachment is reported (once)."""
        for key, (name, where) in self.unplaced.items():
            if key not in self.accounted:
                self.library.warn("bsdata-enhancement-detachment", f"enhancement {name!r} names no "
                                  "detachment of any faction; left out", where, "enhancements without a detachment")

    def root_nodes(self, catalogue: XmlFile) -> Iterator[tuple[XmlFile, Node]]:
        """The root entries a faction may take, each with the file that lists it."""
        for source in [catalogue] + self.library.linked_catalogues(catalogue, roots_only=True):
            for entry in source.root.iterfind("selectionEntries/selectionEntry"):
                yield source, Node(entry)
            for link in source.root.iterfind("entryLinks/entryLink"):
                target = self.library.target(link)
                if target is not None:
                    yield source, Node(target, link)

    def read(self, catalogue: XmlFile) -> tuple[Faction, dict[str, list[str]]]:
        """A faction, and the Faction keywords the data adds in it to units that have none."""
        context = Context(self.library, faction_id=catalogue.attributes.get("id"))
        unit_ids, detachment_entries, added = [], [], {}
        listed_by: dict[str, XmlFile] = {}
        for source, node in self.root_nodes(catalogue):
            if node.entry.tag != "selectionEntry" or is_hidden(node, context):
                continue
            if node.kind in ("unit", "model"):
                unit_id = node.entry.get("id", "")
                if unit_id not in self.units and unit_id not in self.unreadable:
                    try:
                        self.units[unit_id] = self.unit_reader.read(Node(node.entry), self.left_out)
                        self.library.unit_places[unit_id] = self.library.location(self.library.element(unit_id))
                    except BadNumber as bad:
                        self.unreadable.add(unit_id)
                        self.library.warn("bsdata-bad-number", f"{node.name} left out: {bad}", bad.element,
                                          "units left out for a number that is not one")
                if unit_id in self.unreadable:
                    continue
                unit_ids.append(unit_id)
                listed_by.setdefault(unit_id, source)
                if not self.units[unit_id].faction_keywords:
                    added[unit_id] = self.added_factions(node, context)
            elif node.name.lower().startswith("detachment"):
                detachment_entries.append(node)
        detachments = self.detachments(detachment_entries, catalogue, context)
        name = catalogue.attributes.get("name", "")
        faction = Faction(id=catalogue.attributes.get("id", ""), name=name,
                          faction_keyword=faction_keyword(
                              name, [self.units[u] for u, s in listed_by.items() if s is catalogue],
                              [self.units[u] for u, s in listed_by.items() if s is catalogue or s.attributes.get("library") == "true"],
                              [self.units[u] for u in unit_ids]), revision=int(number(catalogue.root, "revision")),
                          units=list(dict.fromkeys(unit_ids)), detachments=detachments)
        return faction, added

    def added_factions(self, node: Node, context: Context) -> list[str]:
        names = []
        for element in node.elements:
            for modifier, applies in modifiers(element, context, "category"):
                if modifier.get("type") == "add" and applies:
                    name = self.library.category_names.get(modifier.get("value", ""), "")
                    if name.startswith(FACTION_PREFIX):
                        names.append(name[len(FACTION_PREFIX):])
        return list(dict.fromkeys(names))

    def detachments(self, entries: list[Node], catalogue: XmlFile, context: Context) -> list[Detachment]:
        found: dict[str, tuple[Node, list[Ability]]] = {}
        for entry in entries:
            for group in children(self.library, entry):
                for option in children(self.library, group) if group.kind == "group" else [group]:
                    if option.kind == "group" or option.name in found:
                        continue
                    if is_hidden(option, context):
                        self.hidden_detachments.add(option.name.casefold())
                        continue
                    found[option.name] = (option, self._rules(option))
        ids = {ident: name for name, (node, _) in found.items() for ident in node.ids}
        enhancements: dict[str, dict[str, Enhancement]] = {name: {} for name in found}
        sources = [catalogue] + self.library.linked_catalogues(catalogue, roots_only=False)
        for source in sources:
            for group in self.library.enhancement_groups(source):
                self._enhancements(Node(group), None, ids, found, enhancements, context)
        return [Detachment(name=name, rules=rules, enhancements=list(enhancements[name].values()))
                for name, (_, rules) in found.items()]

    def _enhancements(self, group: Node, detachment: str | None, ids: dict[str, str], found: dict,
                      into: dict[str, dict[str, Enhancement]], context: Context, depth: int = 0) -> None:
        if depth > MAX_DEPTH:  # groups that link each other in a circle
            return
        named = ENHANCEMENTS_OF.match(group.name)
        wanted = (named.group(1) if named else group.name).casefold()
        match = next((n for n in found if n.casefold() == wanted), None) or self._hide_names(group, ids)
        # Boarding Actions' enhancements, or a group hidden outside it, are not for matched play.
        other_mode = bool(OTHER_MODES.search(group.name)) or is_hidden(group, context)
        if other_mode or (match is None and named and wanted != ""):  # not a detachment of this army
            not_in_matched_play = other_mode or wanted in self.hidden_detachments
            todo, seen = [group], {group.entry}
            while todo:
                for child in children(self.library, todo.pop()):
                    if child.kind == "group" and child.entry not in seen:
                        seen.add(child.entry)
                        todo.append(child)
                    elif not_in_matched_play:
                        self.accounted.add(self.library.key(child.entry))
                    else:
                        self.unplace(child)
            return
        detachment = match or detachment
        for child in children(self.library, group):
            if child.kind == "group":
                self._enhancements(child, detachment, ids, found, into, context, depth + 1)
                continue
            owner = detachment or self._hide_names(child, ids) or self._comment_names(child, found)
            if owner is None:
                self.unplace(child)
                continue
            self.accounted.add(self.library.key(child.entry))
            try:
                points = self.unit_reader.cost(child, Context(self.library), set())
            except BadNumber as bad:
                self.library.warn("bsdata-bad-number", f"enhancement {child.name!r} left out: {bad}", bad.element,
                                  "enhancements left out for a number that is not one")
                continue
            text = next((self.unit_reader.characteristics(p).get("DESCRIPTION", "") for p in self.unit_reader.profiles(child)), "")
            restriction = RESTRICTION.match(plain(text))
            into[owner].setdefault(child.name, Enhancement(
                name=child.name, points=int(points or 0), text=text,
                restrictions=restriction.group(1).strip() if restriction else None))

    def _hide_names(self, node: Node, ids: dict[str, str]) -> str | None:
        """The detachment a flat enhancement (or a group of them) belongs to, read from its own
        visibility modifiers: hidden while detachment X is not taken, or shown once it is."""
        for element in node.elements:
            for child in self._shown_with(element):
                if child in ids:
                    return ids[child]
        return None

    def _shown_with(self, element: Element) -> list[str]:
        """The ids an element's visibility modifiers show it with: hidden while one is not taken,
        or shown once it is (read once per element; each faction asks with its own detachments)."""
        found = self.shown_with.get(element)
        if found is None:
            found = self.shown_with[element] = []
            for modifier in element.iterfind("modifiers/modifier[@field='hidden']"):
                hides = modifier.get("value") == "true"
                for condition in modifier.iter("condition"):
                    absent = condition.get("type") in ("lessThan", "notInstanceOf") or (
                        condition.get("type") in ("equalTo", "atMost") and condition.get("value") in ("0", "0.0"))
                    if absent == hides:
                        found.append(condition.get("childId"))
        return found

    @staticmethod
    def _comment_names(node: Node, found: dict) -> str | None:
        for element in node.elements:
            comment = element.findtext("comment", "").strip().casefold()
            match = next((n for n in found if n.casefold() == comment), None)
            if match:
                return match
        return None

    def _rules(self, node: Node) -> list[Ability]:
        rules = []
        for element in node.elements:
            for link in element.iterfind("infoLinks/infoLink"):
                target = self.library.target(link) if link.get("type") == "rule" else None
                if target is not None:
                    rules.append(Ability(name=target.get("name", ""), text=target.findtext("description", "").strip()))
            for rule in element.iterfind("rules/rule"):
                rules.append(Ability(name=rule.get("name", ""), text=rule.findtext("description", "").strip()))
        return rules


def is_enhancements(group: Element) -> bool:
    return group.get("name", "").lower().endswith("enhancements")


def faction_keyword(catalogue_name: str, defined: list[Unit], own: list[Unit], taken: list[Unit]) -> str:
    """The army's Faction keyword. Of those its units carry: the one its catalogue's name holds
    (earliest); else, when the units its own file lists carry none, the catalogue's name; else the
    most common among its own units (its file's and its libraries', not allies'); else overall."""
    counts = Counter(k for unit in taken for k in unit.faction_keywords)
    named = sorted((catalogue_name.find(k), k) for k in counts if k in catalogue_name)
    own_counts = Counter(k for unit in own for k in unit.faction_keywords)
    if named:
        return named[0][1]
    if (defined and not any(u.faction_keywords for u in defined)) or not counts:
        return catalogue_name.rpartition(" - ")[2]
    return (own_counts or counts).most_common(1)[0][0]


# --- the whole folder ----------------------------------------------------------------------------

def read_folder(folder: Path, library: Library) -> None:
    """Add every readable file of the folder to the library, the game system file first."""
    for xml, problems in read_ahead(sorted(folder.glob("*.gst")) + sorted(folder.glob("*.cat")), library.pool):
        library.findings += problems
        if xml is not None:
            library.add(xml)
    if library.system is None:
        library.findings.append(Finding("bsdata-no-game-system", f"{folder} holds no readable .gst game system file",
                                location=Location(str(folder)),
                                suggestion="point at the folder of a BSData/wh40k-10e clone or release"))


def git_revision(folder: Path) -> str | None:
    """The commit a git clone is at (read from .git, without running git), or None."""
    git = folder / ".git"
    try:
        head = (git / "HEAD").read_text(encoding="utf-8").strip()
        if not head.startswith("ref: "):
            return f"commit {head[:12]}"
        ref = head[5:]
        if (git / ref).is_file():
            return f"commit {(git / ref).read_text(encoding='utf-8').strip()[:12]}"
        for line in (git / "packed-refs").read_text(encoding="utf-8").splitlines():
            if line.endswith(" " + ref):
                return f"commit {line.split()[0][:12]}"
    except OSError:
        return None
    return None


def import_folder(folder: Path, revision: str | None = None) -> ImportResult:
    """Read a BSData folder into a catalog; unreadable files and what was left out are reported.

    The garbage collector is off meanwhile: the import makes hundreds of thousands of objects and almost no
    cycles (a few hundred), and the collector traced the live ones over and over, a tenth of the
    import; it collects what there is once it is on again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:  # parses files ahead of their use
            return _import(Library([], Counter(), pool), folder, revision)
    finally:
        if enabled:
            gc.enable()


def _import(library: Library, folder: Path, revision: str | None) -> ImportResult:
    findings, left_out = library.findings, library.left_out
    try:
        read_folder(folder, library)
        if library.system is None:
            return ImportResult(None, findings, left_out)
        return ImportResult(read_catalog(library, revision), findings, left_out)
    except BadNumber as bad:  # in a catalogue's or the game system's own attributes
        findings.append(Finding("bsdata-bad-number", f"{bad}; nothing imported", location=library.location(bad.element),
                                suggestion="use the file as published in the BSData repository"))
    except FileChanged as changed:  # between its first reading and a later one
        findings.append(changed.finding)
    return ImportResult(None, findings, left_out)


def read_catalog(library: Library, revision: str | None) -> Wh40kCatalog:
    """Every faction of the folder, its units, detachments and Leader lists."""
    files, findings, left_out = library.files, library.findings, library.left_out
    units: dict[str, Unit] = {}
    unit_reader = UnitReader(library)
    reader = FactionReader(library, units, unit_reader, left_out)
    factions = []
    armies = [x for x in files if x.tag == "catalogue" and x.attributes.get("library") != "true"]
    # The files each army reads (its own and those it links; an entry it links elsewhere is read too).
    uses = [{xml, *library.linked_catalogues(xml, roots_only=False, report=False)} for xml in armies]
    for n, xml in enumerate(armies):
        for wanted in uses[n:n + 2]:  # this army's files, then the next one's, parsed while this one is read
            for file in library.files:
                if file in wanted:
                    file.prefetch(library.pool)
        faction, added = reader.read(xml)
        factions.append(supply_faction_keywords(faction, units, added, library))
        library.release(keep=set().union(*uses[n + 1:]), at_least=RELEASE_BYTES if n + 1 < len(armies) else 0)
    reader.report_unplaced()
    leaders(units, library)
    system = library.system.root
    sizes = [BattleSize(name=m.group(1), points=int(m.group(2)))
             for e in system.iter("selectionEntry") if (m := BATTLE_SIZE.match(e.get("name", "")))]
    return Wh40kCatalog(
        data_revision=revision or f"game system revision {system.get('revision')}",
        system=GameSystem(name=system.get("name", ""), revision=int(number(system, "revision")), battle_sizes=sizes),
        factions=factions, units=units,
        summary=ImportSummary(catalogues=sum(1 for x in files if x.tag == "catalogue"), units=len(units),
                              wargear_rules_left_out=left_out["wargear option rules (units keep their default loadout)"],
                              warnings=sum(1 for f in findings if f.severity == "warning")))


def supply_faction_keywords(faction: Faction, units: dict[str, Unit], added: dict[str, list[str]],
                            library: Library) -> Faction:
    """A unit the data gives no Faction keyword (the Space Marine Drop Pod) takes, in this army,
    the one the data adds for it here, else the army's own."""
    supplied = {}
    for unit_id in faction.units:
        unit = units[unit_id]
        if unit.faction_keywords:
            continue
        supplied[unit_id] = added.get(unit_id) or [faction.faction_keyword]
        if unit_id not in library.reported:
            library.reported.add(unit_id)
            library.findings.append(Finding(
                "bsdata-faction-supplied", f"{unit.name} has no Faction keyword in the data; in {faction.name} "
                f"it counts as {', '.join(supplied[unit_id])} (and likewise in other armies)", severity="warning",
                location=library.unit_places[unit_id]))
    return faction.model_copy(update={"supplied_faction_keywords": supplied})


def leaders(units: dict[str, Unit], library: Library) -> None:
    """Read every Leader ability and bodyguard permission, names spelled as the datasheets are."""
    canonical = {u.name.casefold(): u.name for u in units.values()}
    for unit in units.values():  # a Leader may name "Bike Squad" for the "Bike Squad [Legends]" datasheet
        canonical.setdefault(unit.name.removesuffix(" [Legends]").casefold(), unit.name)
    for unit_id, unit in list(units.items()):
        texts = {a.name: a.text for a in unit.abilities}
        leader = parse_leader(texts["Leader"], canonical) if "Leader" in texts else None
        if "Leader" in texts and leader is None:
            library.warn("bsdata-leader-unread", f"{unit.name}'s Leader ability names no unit it may be attached "
                         "to in a form the import reads; left out", library.unit_places[unit_id],
                         "Leader abilities naming no unit")
        bodyguard = parse_bodyguard([t for n, t in texts.items() if n != "Leader"], canonical)
        if leader or bodyguard:
            units[unit_id] = unit.model_copy(update={"leader": leader, "bodyguard": bodyguard})

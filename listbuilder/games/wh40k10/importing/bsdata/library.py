"""The folder's XML as one library: every file's elements by id, links resolved across files, and
memory given back as factions are read; numbers read from attributes, refused when malformed."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Set as AbstractSet
from concurrent.futures import Executor
from dataclasses import dataclass, field

from lxml.etree import _Element as Element

from .....core.findings import Finding, Location
from ..xmlfiles import XmlFile

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
ElementModifiers = tuple[dict[str | None, list[Element]], list[tuple[Element, set[str | None]]]]
ID_TAGS = ("selectionEntry", "selectionEntryGroup", "profile", "rule", "infoGroup", "categoryEntry", "forceEntry")
MAX_DEPTH = 8  # nesting followed at most (real data nests 4 deep; links may loop)
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
        self.points_type: str | None = ""
        self.other_mode_ids: set[str | None] = set()
        self.catalogues: dict[str | None, XmlFile] = {}
        self.file_by_id: dict[str, XmlFile] = {}  # the first file that defines an id
        self.ids: dict[XmlFile, dict[str, Element]] = {}  # each file in use: its elements by id
        self.catalogue_links: dict[XmlFile, list[tuple[dict[str, str], Location]]] = {}
        self.profile_types: dict[str | None, str | None] = {}
        self.category_names: dict[str | None, str] = {}
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
        self.modifiers: dict[Element, ElementModifiers] = self.memo()
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

    def modifiers_of(self, element: Element) -> ElementModifiers:
        """An element's own modifiers by field, and its modifier groups with every field modified
        in each (read once per element: the same entries are asked about by unit and by faction)."""
        found = self.modifiers.get(element)
        if found is None:
            own: dict[str | None, list[Element]] = {}
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

    def bounds(self, scopes: AbstractSet[str] = frozenset({"parent"})) -> tuple[int, float]:
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


def is_enhancements(group: Element) -> bool:
    return group.get("name", "").lower().endswith("enhancements")

"""A faction read from its catalogue: its units, detachments and Enhancements, and its faction
keyword."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from lxml.etree import _Element as Element

from .....core.findings import Location
from ...catalog import Ability, Detachment, Enhancement, Faction, Unit
from ..leader_text import plain
from ..xmlfiles import XmlFile
from .conditions import Context, children, is_hidden, modifiers
from .library import (
    ENHANCEMENTS_OF,
    FACTION_PREFIX,
    MAX_DEPTH,
    OTHER_MODES,
    RESTRICTION,
    BadNumber,
    Library,
    Node,
    number,
)
from .units import UnitReader


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
        self.shown_with: dict[Element, list[str | None]] = library.memo()  # see _shown_with()

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
        """The root entries a faction may take, each with the file that lists it: a linked
        catalogue's own, less those it marks `import="false"` (the Agents of the Imperium's
        Detachment choice is theirs alone, not every Imperium army's)."""
        for source in [catalogue] + self.library.linked_catalogues(catalogue, roots_only=True):
            imported = source is not catalogue
            for entry in source.root.iterfind("selectionEntries/selectionEntry"):
                if not (imported and entry.get("import") == "false"):
                    yield source, Node(entry)
            for link in source.root.iterfind("entryLinks/entryLink"):
                target = self.library.target(link)
                if target is not None and not (imported and link.get("import") == "false"):
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
                        defined = self.library.element(unit_id)
                        assert defined is not None  # node.entry is one element of this id
                        self.library.unit_places[unit_id] = self.library.location(defined)
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
                              [self.units[u] for u, s in listed_by.items()
                               if s is catalogue or s.attributes.get("library") == "true"],
                              [self.units[u] for u in unit_ids]), revision=int(number(catalogue.root, "revision")),
                          units=list(dict.fromkeys(unit_ids)), detachments=detachments)
        return faction.model_copy(update={"army_rules": self.army_rules(catalogue, faction, context)}), added

    def army_rules(self, catalogue: XmlFile, faction: Faction, context: Context) -> list[Ability]:
        """The rules the catalogue states for the whole army, then the catalogues' rules its own units
        (those of its Faction keyword) have: those the data does not hide in this army (D33)."""
        found: dict[str, Ability] = {}
        root = Node(catalogue.root)
        for link in root.parts("infoLinks/infoLink"):
            target = self.library.target(link) if link.get("type") == "rule" else None
            if target is not None and not is_hidden(Node(target, link), context):
                found.setdefault(target.get("name", ""), rule_of(target))
        for rule in root.parts("rules/rule"):
            if not is_hidden(Node(rule), context):
                found.setdefault(rule.get("name", ""), rule_of(rule))
        for unit_id in faction.units:
            if faction.faction_keyword in self.units[unit_id].faction_keywords:
                for ability in self.unit_reader.army_rules_of.get(unit_id, ()):
                    if ability.shown_in(faction.id):
                        found.setdefault(ability.name, ability.model_copy(update={"hidden": None}))
        return list(found.values())

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
            for element in self.library.enhancement_groups(source):
                self._enhancements(Node(element), None, ids, found, enhancements, context)
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
            text = plain(next((self.unit_reader.characteristics(p).get("DESCRIPTION", "")
                               for p in self.unit_reader.profiles(child)), ""))
            restriction = RESTRICTION.match(text)
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

    def _shown_with(self, element: Element) -> list[str | None]:
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
                    rules.append(rule_of(target))
            rules += [rule_of(rule) for rule in element.iterfind("rules/rule")]
        return rules


def rule_of(rule: Element) -> Ability:
    """A rule element's name and text, its markup taken out."""
    return Ability(name=rule.get("name", ""), text=plain(rule.findtext("description", "").strip()))


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

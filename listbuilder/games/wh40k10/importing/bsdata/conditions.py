"""Conditions and modifiers evaluated once at import, for a matched-play army of one faction: a node
of the data with the path that reached it, the context that decides what applies, what is hidden."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from lxml.etree import _Element as Element

from .library import COMPARE, Library, Node, number


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


def modifiers(element: Element, context: Context, wanted: str | None) -> Iterator[tuple[Element, bool | None]]:
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

"""Wargear limits per unit read from the data's constraints and error modifiers, where they can be
read soundly; what cannot is counted as left out."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lxml.etree import _Element as Element

from ...catalog import WargearChoice, WargearGroupLimit, WargearLimit
from .conditions import Context, children
from .library import MAX_DEPTH, NOT_DATASHEET, Node, number

if TYPE_CHECKING:
    from .units import Slot, UnitReader
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
            self.counts(query) and query.get("childId") in self.model_ids
            and query.get("includeChildSelections") != "true"))


def counts_unit_models(query: Element, unit_ids: set[str]) -> bool:
    """Whether a condition or repeat counts the models of the whole unit (BattleScribe's `model`)."""
    return (query.get("childId") == "model" and query.get("field") == "selections"
            and query.get("includeChildSelections") == "true"
            and (query.get("scope") == "unit" or query.get("scope") in unit_ids))


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
            only = [w for w in weapons
                    if w not in shared and all(any(k == key for k, _ in limits) for limits, _ in ways[w])]
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
                found.append(((node.entry.get("id", ""),) if shared else path,
                              self.most_without(node, message, own, unit)))
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
                        not all(counts_unit_models(q, unit.ids)
                                for e in conditional for q in e.iter("condition", "repeat")):
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

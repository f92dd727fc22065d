"""A datasheet read from its selection entry: models and their counts, points by size, profiles,
weapons and wargear choices, keywords and abilities."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml.etree import _Element as Element

from ...catalog import (
    Ability,
    HiddenBy,
    ModelRange,
    Unit,
    UnitProfile,
    UnitSize,
    WargearChoice,
    Weapon,
    weapon_name,
)
from ..leader_text import plain
from .conditions import Context, children, is_hidden, modifiers
from .library import FACTION_PREFIX, FLAGS, MAX_DEPTH, NOT_DATASHEET, Library, Node, number
from .limits import LimitReader


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
WEAPON_KINDS = ("Ranged Weapons", "Melee Weapons")


def characteristics(profile: Element) -> dict[str, str]:
    return {c.get("name", "").upper(): (c.text or "").strip()
            for c in profile.iterfind("characteristics/characteristic")}


@dataclass
class Sheet:
    """What a unit's datasheet shows, gathered from all its entries."""

    profiles: list[UnitProfile] = field(default_factory=list)
    weapons: dict[tuple[str, str], Weapon] = field(default_factory=dict)
    abilities: dict[str, Ability] = field(default_factory=dict)  # by name: a shared one linked twice is one
    rules: dict[str, HiddenBy | None] = field(default_factory=dict)  # by name, where the data hides each
    army_rules: dict[str, Ability] = field(default_factory=dict)  # the rules of a catalogue, not the game's
    transport: str | None = None
    defaults: dict[Element, list[str]] = field(default_factory=dict)  # model entry -> default wargear
    default_weapons: dict[Element, list[str]] = field(default_factory=dict)  # model entry -> the weapons it gives
    choices: list[tuple[WargearChoice, Node, Node]] = field(default_factory=list)  # with its model and group

    def add(self, profile: Element, kind: str | None, values: dict[str, str], hidden: HiddenBy | None) -> None:
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
        elif kind == "Transport" or (kind == "Abilities" and name == "Transport"):  # the card's own line
            self.transport = self.transport or plain(values.get("CAPACITY") or values.get("DESCRIPTION") or "") or None
        elif kind == "Abilities" and name not in self.abilities:
            self.abilities[name] = Ability(name=name, text=plain(values.get("DESCRIPTION", "")), hidden=hidden)


class UnitReader:
    def __init__(self, library: Library):
        self.library = library
        self.matched_play = Context(library)  # what any army sees: not a Crusade force
        self.hidden_in_matched_play: dict[tuple[Element, Element | None], bool] = library.memo()
        self.weapons_of: dict[tuple[Element, Element | None], frozenset[str]] = library.memo()
        self.wargear_under: dict[tuple[Element, Element | None], frozenset[str]] = library.memo()
        self.profiles_of: dict[Element, list[Element]] = library.memo()
        self.values_of: dict[Element, dict[str, str]] = library.memo()  # a profile's characteristics
        self.hidden_of: dict[tuple[Element, ...], HiddenBy | bool] = library.memo()  # see hidden_in()
        self.defaults_of: dict[tuple[Element, Element | None], list[str]] = library.memo()  # see default_weapons()
        # each unit's rules stated by a catalogue (army rules), by unit id: what a faction's own units share
        self.army_rules_of: dict[str, list[Ability]] = {}
        # the fields the modifiers in an element change
        self.modified_under: dict[Element, set[str | None]] = library.memo()
        self.limits = LimitReader(self)

    def shown(self, node: Node) -> bool:
        """Whether a node is part of a datasheet in matched play (judged once per node)."""
        key = (node.entry, node.link)
        if key not in self.hidden_in_matched_play:
            self.hidden_in_matched_play[key] = (bool(NOT_DATASHEET.search(node.name))
                                                or is_hidden(node, self.matched_play))
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
        slots = self.slots(root, set(), set()) if root.kind != "model" else []
        # the unit's keywords and those of every model it always has (Grimaldus's CHARACTER is his
        # model's, not his unit's, in the data: the seed's Warlord is a CHARACTER model, L2300; D54)
        always = [slot.node for slot, above in self._lineages(slots)
                  if slot.is_model and slot.low >= 1 and all(s.low >= 1 for s in above)]
        categories = [self.library.category_names.get(c.get("targetId", ""), c.get("name", ""))
                      for node in (root, *always) for c in node.parts("categoryLinks/categoryLink")]
        keywords = [c for c in dict.fromkeys(categories) if c and not c.startswith(FACTION_PREFIX)]
        factions = [c[len(FACTION_PREFIX):] for c in dict.fromkeys(categories) if c.startswith(FACTION_PREFIX)]
        sheet = self.datasheet(root, left_out)
        self.army_rules_of[root.entry.get("id", "")] = list(sheet.army_rules.values())
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
                           default_weapons=sheet.default_weapons.get(root.entry, []),
                           wargear=sorted(self.wargear(root)), fewest=1, most=1)],
            priced_per_model=bool(leaves) and not self.cost(root, matched_play, set()) and any(
                self.cost(s.node, matched_play, set()) for s in leaves),
            abilities=list(sheet.abilities.values()), rules=list(sheet.rules),
            hidden_rules={name: hidden for name, hidden in sheet.rules.items() if hidden},
            transport=sheet.transport, legends="[Legends]" in root.name)

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
            default_weapons = set(sheet.default_weapons.get(leaf.node.entry, []))
            if known is not None:
                default_weapons |= set(known.default_weapons or ())
                fewest += known.fewest
                firm_most = None if firm_most is None or known.most is None else firm_most + known.most
                wargear |= set(known.wargear or ())
            ranges[name] = ModelRange(name=name, min=min(counts, default=0), max=max(most, known.max if known else 0),
                                      default_wargear=sheet.defaults.get(leaf.node.entry, []), wargear=sorted(wargear),
                                      default_weapons=sorted(default_weapons),
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
                kind = profile.get("typeName") or self.library.profile_types.get(profile.get("typeId"))
                hidden = self.hidden_in((profile,)) if kind == "Abilities" else False
                if hidden is not True:
                    sheet.add(profile, kind, self.characteristics(profile), hidden or None)
            if not self.weapons(node):  # a weapon's rules are its keywords, printed in its row
                self.read_rules(node, sheet)
            if node.kind == "model" or node is root:
                sheet.defaults[node.entry] = self._default_wargear(node)
                sheet.default_weapons[node.entry] = self.default_weapons(node)
            if in_model and node.kind == "group" and len(children(self.library, node)) > 1 \
                    and node.entry not in mapped:
                left_out["wargear option rules (units keep their default loadout)"] += 1
        for name, weapons in self.optional_abilities(sheet.choices).items():
            if name in sheet.abilities:
                sheet.abilities[name] = sheet.abilities[name].model_copy(update={"comes_with": weapons})
        save = sheet.abilities.get("Invulnerable Save")
        invulnerable = re.search(r"\d\+", save.text) if save else None
        if invulnerable:
            sheet.profiles = [p.model_copy(update={"invulnerable_save": invulnerable.group(0)}) for p in sheet.profiles]
        return sheet

    def optional_abilities(self, choices: list[tuple[WargearChoice, Node, Node]]) -> dict[str, list[list[str]]]:
        """The abilities only options of plain choices other than their defaults give (a Captain's
        relic shield), each with the weapons of each option that gives it (D33)."""
        found: dict[str, list[list[str]]] = {}
        given_anyway: set[str] = set()
        for choice, _, group in choices:
            options = children(self.library, group)
            named = [{p.get("name", "") for node, _ in self.walk(option) for p in self.profiles(node)
                      if (p.get("typeName") or self.library.profile_types.get(p.get("typeId"))) == "Abilities"}
                     for option in options]
            given_anyway |= set.intersection(*named)  # whichever option is taken
            for option, names in zip(options, named):
                weapons = sorted(self.wargear(option))
                if option.name in choice.default or not weapons:
                    given_anyway |= names
                for name in names:
                    found.setdefault(name, []).append(weapons)
        return {name: options for name, options in found.items() if name not in given_anyway}

    def read_rules(self, node: Node, sheet: Sheet) -> None:
        """The rules a node links: their names, where the data hides them, and the text of those a
        catalogue states (an army rule), not the game system (a core rule)."""
        for link in node.parts("infoLinks/infoLink"):
            if link.get("type") != "rule":
                continue
            target = self.library.target(link)
            name = (target.get("name") if target is not None else None) or link.get("name") or ""
            hidden = self.hidden_in((link,) if target is None else (link, target))
            if hidden is True or name in sheet.rules:
                continue
            sheet.rules[name] = hidden or None
            if target is not None and self.library.file_by_id.get(target.get("id", "")) is not self.library.system:
                sheet.army_rules[name] = Ability(name=name, text=plain(target.findtext("description", "").strip()),
                                                 hidden=hidden or None)

    def hidden_in(self, elements: tuple[Element, ...]) -> HiddenBy | bool:
        """Where the data hides a rule or a profile (its link first, then it): True everywhere, False
        nowhere, else the armies whose primary catalogue hides it (evaluated for every army of the
        data; conditions on anything else leave it as written: D33). A link that changes nothing
        is its target's: the many links to one army rule are judged once."""
        if len(elements) > 1 and not self.hiding(elements[0]) and elements[0].get("hidden") != "true":
            elements = elements[1:]
        found = self.hidden_of.get(elements)
        if found is None:
            found = self.hidden_of[elements] = self._hidden_in(Node(elements[-1], elements[0]) if len(elements) > 1
                                                               else Node(elements[0]))
        return found

    def hiding(self, element: Element) -> list[Element]:
        """An element's modifiers (and modifier groups) that hide or show it."""
        own, groups = self.library.modifiers_of(element)
        return own.get("hidden", []) + [group for group, fields in groups if "hidden" in fields]

    def _hidden_in(self, node: Node) -> HiddenBy | bool:
        hiding = [modifier for element in node.elements for modifier in self.hiding(element)]
        if not any(c.get("scope") == "primary-catalogue" for m in hiding for c in m.iter("condition")):
            return is_hidden(node, self.matched_play)  # the same in every army
        armies = [ident for ident, xml in self.library.catalogues.items()
                  if ident is not None and xml.attributes.get("library") != "true"]
        hidden = {army for army in armies if is_hidden(node, Context(self.library, faction_id=army))}
        if not hidden or len(hidden) == len(armies):
            return bool(hidden)
        shown = [army for army in armies if army not in hidden]
        if len(hidden) <= len(shown):
            return HiddenBy(catalogues=sorted(hidden))
        return HiddenBy(catalogues=shown, unless=True)

    def modified_fields(self, element: Element) -> set[str | None]:
        """The fields the modifiers anywhere in an element change (read once per element)."""
        found = self.modified_under.get(element)
        if found is None:
            found = self.modified_under[element] = {m.get("field") for m in element.iter("modifier")}
        return found

    def choice(self, model: Node, group: Node, modified: set[str | None]) -> WargearChoice | None:
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
        defaults = [o for o in options if o.ids & chosen]
        return WargearChoice(model=model.name, name=group.name, options=[o.name for o in options],
                             default=[o.name for o in defaults], min=low, max=int(min(high, len(options))),
                             gives={o.name: sorted(self.wargear(o)) for o in options},
                             default_weapons=sorted({w for o in defaults for w in self.default_weapons(o)}))

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

    def default_weapons(self, node: Node, depth: int = 0) -> list[str]:
        """The weapons a selection of a node gives unless changed: its own, and those of the entries
        under it that it must take or takes by default, down to the weapons (read once per node)."""
        key = (node.entry, node.link)
        found = self.defaults_of.get(key)
        if found is None:
            weapons = set(self.weapons(node))
            defaults = {e.get("defaultSelectionEntryId") for e in node.elements}
            for child in children(self.library, node):
                if depth > MAX_DEPTH or child.kind == "model" or not self.shown(child):
                    continue
                if child.kind == "group":
                    chosen = {e.get("defaultSelectionEntryId") for e in child.elements} - {None, "none"}
                    for option in children(self.library, child):
                        if option.ids & chosen:
                            weapons.update(self.default_weapons(option, depth + 1))
                elif child.bounds()[0] >= 1 or child.ids & defaults:
                    weapons.update(self.default_weapons(child, depth + 1))
            found = self.defaults_of[key] = sorted(weapons)
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


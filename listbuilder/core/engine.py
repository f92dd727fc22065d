"""The list engine: builds each formation of a roster and finds what breaks the army list.

It knows the constraint vocabulary of core.armylist and nothing of any one game; derived values
that depend on a game's rules (break points, garrisons...) come from its system pack.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import floor
from typing import Any

from .armylist import ArmyList, Formation, Limit, TransportMode, TransportRule, Upgrade, UpgradeOption
from .catalog import ArmyView, Catalog
from .datasheet import Datasheet
from .findings import Finding, FindingList, Path
from .names import did_you_mean, name_key, plural
from .roster import CharacterPick, Roster, RosterFormation
from .transport import transports_needed


@dataclass
class UnitGroup:
    sheet: Datasheet
    count: int
    source: str  # "formation", the upgrade's name, or "transport"
    gained: list[str] = field(default_factory=list)  # abilities granted by upgrades
    wargear: dict[str, int] = field(default_factory=dict)  # loadout -> number of units

    @property
    def abilities(self) -> list[str]:
        return [*self.sheet.abilities, *(a for a in self.gained if a not in self.sheet.abilities)]


@dataclass
class Attached:
    """A character added to a unit of its formation (it is not a unit itself)."""

    sheet: Datasheet
    joins: Datasheet
    upgrade: str


@dataclass
class BuiltFormation:
    index: int
    definition: Formation
    army: ArmyList
    copies: int = 1
    points: int = 0
    units: list[UnitGroup] = field(default_factory=list)
    characters: list[Attached] = field(default_factory=list)
    upgrades: dict[str, int] = field(default_factory=dict)  # upgrade name -> points paid
    transport_rule: TransportRule | None = None
    transport_mode: TransportMode | None = None  # the option chosen from the rule
    label: str | None = None
    derived: dict[str, Any] = field(default_factory=dict)  # filled by the game's system pack

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def transport(self) -> str | None:
        return self.transport_mode.name if self.transport_mode else None

    @property
    def is_ally(self) -> bool:
        return self.army.kind == "allies"

    def sheets(self) -> list[Datasheet]:
        """One entry per unit (characters are not units)."""
        return [group.sheet for group in self.units for _ in range(group.count)]

    def count_of(self, name: str) -> int:
        return sum(g.count for g in self.units if name_key(g.sheet.name) == name_key(name))

    def group(self, name: str) -> UnitGroup | None:
        return next((g for g in self.units if name_key(g.sheet.name) == name_key(name)), None)


@dataclass
class CapUsage:
    name: str
    points: int
    limit: int
    rule: str


@dataclass
class RosterResult:
    roster: Roster
    army: ArmyList
    formations: list[BuiltFormation]
    findings: list[Finding]
    caps: list[CapUsage]
    derived: dict[str, Any] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(f.points for f in self.formations)

    @property
    def valid(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)


def _named(name: str, candidates: list[Any], attr: str = "name") -> Any | None:
    key = name_key(name)
    return next((c for c in candidates if name_key(getattr(c, attr)) == key
                 or name_key(getattr(c, "id", None) or "") == key), None)


class _FormationBuilder:
    def __init__(self, view: ArmyView, definition: Formation, entry: RosterFormation, index: int,
                 findings: FindingList):
        self.view = view
        self.entry = entry
        self.path: Path = ("formations", index)
        self.findings = findings
        self.built = BuiltFormation(index, definition, view.army, label=entry.label)
        self.rule = definition.rule or view.army.rule  # what findings about the formation cite

    def error(self, code: str, message: str, rule: str, *path: str | int, suggestion: str | None = None) -> None:
        self.findings.add(code, message, rule, self.path + path, suggestion=suggestion)

    def sheet(self, name: str) -> Datasheet:
        sheet = self.view.unit(name)
        assert sheet is not None, f"unresolved unit {name}: the catalog's reference check missed it"
        return sheet

    def build(self) -> BuiltFormation:
        definition, built = self.built.definition, self.built
        built.copies = self._copies()
        built.points = definition.price(built.copies)
        for slot in definition.units:
            if slot.unit:
                self._add(slot.unit, slot.count * built.copies, "formation")
        self._compose()
        upgrades = self._resolve_upgrades()
        ordered = sorted(upgrades, key=lambda pair: (pair[0].character, pair[0].up_to_transport_need))
        for upgrade, choice, key in ordered:
            if upgrade.character:
                continue
            self._apply(upgrade, choice, key)
        self._transport()
        for upgrade, choice, key in ordered:
            if upgrade.character:
                self._apply(upgrade, choice, key)
        self._wargear()
        return built

    def _add(self, unit: str, count: int, source: str) -> UnitGroup:
        sheet = self.sheet(unit)
        group = self.built.group(unit)
        if group is None:
            group = UnitGroup(sheet, 0, source)
            self.built.units.append(group)
        group.count += count
        return group

    def _copies(self) -> int:
        definition, asked = self.built.definition, self.entry.count
        if definition.count is None:
            if asked not in (None, 1):
                self.error("quantity-out-of-range", f"{definition.name} is fielded as a single formation; "
                           f"count {asked} is not allowed", self.rule, "count")
            return 1
        copies = definition.count.min if asked is None else asked
        if not definition.count.contains(copies):
            self.error("quantity-out-of-range", f"{definition.name} takes {definition.count.describe()} "
                       f"per formation, not {copies}", self.rule, "count")
            return definition.count.min if copies < definition.count.min else definition.count.max or copies
        return copies

    def _compose(self) -> None:
        definition, given = self.built.definition, dict(self.entry.composition or {})
        for slot in definition.units:
            if not slot.choice:
                continue
            wanted = slot.count * self.built.copies
            chosen: dict[str, int] = {}
            for name in list(given):
                match = next((c for c in slot.choice if name_key(c) == name_key(name)
                              or name_key(c).endswith(name_key(name))), None)
                if match:
                    chosen[match] = chosen.get(match, 0) + given.pop(name)
            if not chosen:
                self.error("composition-required", f"{definition.name}: choose the mix of {wanted} units "
                           f"from {', '.join(slot.choice)}", self.rule, "composition")
                continue
            if sum(chosen.values()) != wanted:
                self.error("composition-count", f"{definition.name} has {wanted} units from "
                           f"{', '.join(slot.choice)}, not {sum(chosen.values())}", self.rule, "composition")
            for name, count in chosen.items():
                if count > 0:
                    self._add(name, count, "formation")
        for name in given:
            choices = [c for s in definition.units for c in s.choice or []]
            self.error("unknown-unit", f"{definition.name} has no choice of unit '{name}'", self.rule,
                       "composition", name, suggestion=did_you_mean(name, choices))

    def _resolve_upgrades(self) -> list[tuple[Upgrade, Any, str]]:
        army, definition = self.view.army, self.built.definition
        allowed = {name_key(u) for u in definition.upgrades}
        taken: dict[str, str] = {}
        resolved = []
        for key, choice in self.entry.upgrades.items():
            upgrade = _named(key, army.upgrades)
            if upgrade is None:
                self.error("unknown-upgrade", f"'{key}' is not an upgrade of {army.name}", army.rule, "upgrades", key,
                           suggestion=did_you_mean(key, [u.name for u in army.upgrades]))
            elif name_key(upgrade.name) not in allowed:
                offered = ", ".join(definition.upgrades) or "none"
                self.error("upgrade-not-allowed", f"{definition.name} may not take the {upgrade.name} upgrade "
                           f"(it may take: {offered})", self.rule, "upgrades", key)
            elif upgrade.name in taken:
                self.error("upgrade-repeated", f"{upgrade.name} is taken twice in {definition.name} "
                           f"(as '{taken[upgrade.name]}' and '{key}'); each upgrade may be taken once",
                           army.rule, "upgrades", key)
            else:
                taken[upgrade.name] = key
                resolved.append((upgrade, choice, key))
        return resolved

    def _option_counts(self, upgrade: Upgrade, choice: Any, key: str) -> dict[str, int] | None:
        """Option -> number taken, from the roster's way of saying it; None when it makes no sense."""
        options = upgrade.options
        if isinstance(choice, bool) or isinstance(choice, int):
            if len(options) == 1:
                return {options[0].label: int(choice)}
            self.error("choice-required", f"{upgrade.name}: say how many of each you take "
                       f"({', '.join(o.label for o in options)})", upgrade.rule, "upgrades", key)
            return None
        if isinstance(choice, CharacterPick):
            self.error("choice-invalid", f"{upgrade.name} is not a character upgrade", upgrade.rule, "upgrades", key)
            return None
        counts: dict[str, int] = {}
        for name, count in choice.items():
            option = _named(name, options, "label") or _named(name, options, "unit")
            if option is None:
                self.error("unknown-option", f"{upgrade.name} has no option '{name}' "
                           f"(options: {', '.join(o.label for o in options)})", upgrade.rule, "upgrades", key, name,
                           suggestion=did_you_mean(name, [o.label for o in options]))
                return None
            counts[option.label] = counts.get(option.label, 0) + count
        return counts

    def _implied_max(self, upgrade: Upgrade) -> int | None:
        limits = []
        if upgrade.replaces:
            limits.append(self.built.count_of(upgrade.replaces))
        if upgrade.up_to_transport_need:
            vehicle = self.sheet(upgrade.options[0].unit)
            limits.append(transports_needed(vehicle, self._passengers(), self._carriers(excluding=vehicle)))
        return min(limits) if limits else None

    def _apply(self, upgrade: Upgrade, choice: Any, key: str) -> None:
        definition = self.built.definition
        if not upgrade.options:
            if choice is True or (type(choice) is int and choice == 1):
                self._pay(upgrade, upgrade.cost)
                self._grant(upgrade)
            elif choice not in (False, 0):
                self.error("quantity-out-of-range", f"{upgrade.name} is taken once or not at all, not {choice!r}",
                           upgrade.rule, "upgrades", key)
            return
        if upgrade.character:
            self._attach(upgrade, choice, key)
            return
        counts = self._option_counts(upgrade, choice, key)
        if counts is None:
            return
        total = sum(counts.values())
        if total == 0:
            return
        assert upgrade.count is not None
        implied = self._implied_max(upgrade)
        if not upgrade.count.contains(total, implied):
            reason = ""
            if upgrade.up_to_transport_need:
                reason = f" (the number needed to carry the formation is {implied})"
            elif upgrade.replaces:
                reason = f" ({definition.name} has {plural(implied or 0, upgrade.replaces)} to replace)"
            code = "transport-excess" if upgrade.up_to_transport_need and total > (implied or 0) else "quantity-out-of-range"
            self.error(code, f"{upgrade.name} in {definition.name}: {total} taken, "
                       f"{upgrade.count.describe(implied)} allowed{reason}", upgrade.rule, "upgrades", key)
            return
        cost = upgrade.cost
        for option in upgrade.options:
            taken = counts.get(option.label, 0)
            if taken:
                cost += option.cost * taken
                self._add(option.unit, taken, upgrade.name)
        if upgrade.replaces:
            self._remove(upgrade.replaces, total)
        self._pay(upgrade, cost)

    def _pay(self, upgrade: Upgrade, cost: int) -> None:
        self.built.upgrades[upgrade.name] = cost
        self.built.points += cost

    def _remove(self, unit: str, count: int) -> None:
        group = self.built.group(unit)
        assert group is not None and group.count >= count
        group.count -= count
        if group.count == 0:
            self.built.units.remove(group)

    def _grant(self, upgrade: Upgrade) -> None:
        if upgrade.grants is None:
            return
        for name in upgrade.grants.to:
            group = self.built.group(name)
            if group is not None and upgrade.grants.ability not in group.gained:
                group.gained.append(upgrade.grants.ability)

    def _attach(self, upgrade: Upgrade, choice: Any, key: str) -> None:
        definition = self.built.definition
        if not isinstance(choice, CharacterPick):
            self.error("choice-required", f"{upgrade.name}: name the character and the unit it joins, e.g. "
                       f"{{character: {upgrade.options[0].label}, joins: {definition.units[0].unit or 'a unit'}}}",
                       upgrade.rule, "upgrades", key)
            return
        option: UpgradeOption | None = _named(choice.character, upgrade.options, "label") or _named(
            choice.character, upgrade.options, "unit")
        if option is None:
            self.error("unknown-character", f"{upgrade.name}: '{choice.character}' is not one of "
                       f"{', '.join(o.label for o in upgrade.options)}", upgrade.rule, "upgrades", key, "character",
                       suggestion=did_you_mean(choice.character, [o.label for o in upgrade.options]))
            return
        host = self.built.group(choice.joins)
        if host is None:
            present = sorted({g.sheet.name for g in self.built.units})
            self.error("character-host-missing", f"{option.label} cannot join '{choice.joins}': {definition.name} "
                       f"has no such unit (it has {', '.join(present)})", "2.1.1 Characters",
                       "upgrades", key, "joins", suggestion=did_you_mean(choice.joins, present))
            return
        self.built.characters.append(Attached(self.sheet(option.unit), host.sheet, upgrade.name))
        self._pay(upgrade, upgrade.cost + option.cost)

    def _wargear(self) -> None:
        """Record each unit's chosen loadout (the datasheet's 'one weapon OR another')."""
        name = self.built.definition.name
        for unit, choice in self.entry.wargear.items():
            group = self.built.group(unit)
            if group is None or not group.sheet.loadouts:
                armed = sorted({g.sheet.name for g in self.built.units if g.sheet.loadouts})
                self.error("wargear-invalid", f"{name} has no '{unit}' with a choice of weapons"
                           f" (choices exist for: {', '.join(armed) or 'no unit'})", "5 Datasheets", "wargear", unit)
                continue
            picks = {choice: group.count} if isinstance(choice, str) else choice
            loadouts = [l.name for l in group.sheet.loadouts]
            chosen: dict[str, int] = {}
            for pick, count in picks.items():
                loadout = _named(pick, group.sheet.loadouts)
                if loadout is None:
                    self.error("wargear-invalid", f"{group.sheet.name} has no loadout '{pick}' "
                               f"(choose from: {', '.join(loadouts)})", "5 Datasheets", "wargear", unit,
                               suggestion=did_you_mean(pick, loadouts))
                    return
                chosen[loadout.name] = chosen.get(loadout.name, 0) + count
            if sum(chosen.values()) != group.count:
                self.error("wargear-invalid", f"{name} has {plural(group.count, group.sheet.name)}, but loadouts "
                           f"are given for {sum(chosen.values())}", "5 Datasheets", "wargear", unit)
                continue
            group.wargear = chosen

    def _passengers(self) -> list[Datasheet]:
        return self.built.sheets()

    def _carriers(self, excluding: Datasheet | None = None) -> list[Datasheet]:
        return [s for s in self.built.sheets() if s.transport and (excluding is None or s.name != excluding.name)]

    def _transport(self) -> None:
        definition, entry = self.built.definition, self.entry
        if definition.transport is None:
            if entry.transport is not None:
                self.error("transport-not-allowed", f"{definition.name} has no transport options", self.rule,
                           "transport")
            return
        rule = _named(definition.transport, self.view.army.transports)
        mode: TransportMode = rule.modes[0]
        if entry.transport is not None:
            picked = _named(entry.transport, rule.modes)
            if picked is None:
                options = [m.name for m in rule.modes]
                self.error("unknown-transport", f"{definition.name}: '{entry.transport}' is not a transport option "
                           f"({', '.join(options)})", rule.rule, "transport",
                           suggestion=did_you_mean(entry.transport, options))
            else:
                mode = picked
        self.built.transport_rule, self.built.transport_mode = rule, mode
        if mode.cost:
            self.built.upgrades[mode.name] = mode.cost  # a transport bought as the list's upgrade
            self.built.points += mode.cost
        others = _outside(self.built, mode)
        if others:
            self.error("transport-not-allowed", f"{mode.name} may carry only {', '.join(mode.only_units or [])} units; "
                       f"{definition.name} also has {', '.join(others)}", mode.rule or rule.rule, "transport")
        if mode.unit:
            vehicle = self.sheet(mode.unit)
            needed = transports_needed(vehicle, self._passengers(), self._carriers())
            if needed:
                self._add(mode.unit, needed, "transport")


def _outside(built: BuiltFormation, mode: TransportMode) -> list[str]:
    """The units of the formation that `mode` may not hold (free transports of another mode aside)."""
    if mode.only_units is None:
        return []
    allowed = {name_key(u) for u in mode.only_units}
    return sorted({g.sheet.name for g in built.units if g.source != "transport" and name_key(g.sheet.name) not in allowed})


def _requirements(formations: list[BuiltFormation], findings: FindingList) -> None:
    present = {name_key(s.name) for f in formations for s in f.sheets()}
    for built in formations:
        rule, mode = built.transport_rule, built.transport_mode
        if rule and mode and mode.requires and not present & {name_key(u) for u in mode.requires}:
            findings.add("transport-prerequisite-missing",
                         f"{built.name} uses {mode.name}, which needs a {' or '.join(mode.requires)} in the army; "
                         f"there is none", mode.rule or rule.rule, ("formations", built.index, "transport"))
    first = next((f for f in formations if f.transport_mode and f.transport_mode.all_or_none), None)
    if first is None:
        return
    mode = first.transport_mode
    for other in formations:
        could = other.transport_rule is not None and _named(mode.name, other.transport_rule.modes) is not None
        if could and other.transport != mode.name and not _outside(other, mode):
            findings.add("transport-all-or-none",
                         f"{other.name} could use {mode.name} and must, because {first.name} (#{first.index + 1}) "
                         f"does: either every formation that can uses {mode.name}, or none does",
                         mode.rule or other.transport_rule.rule, ("formations", other.index, "transport"))


def _count(limit: Limit, formations: list[BuiltFormation]) -> tuple[int, list[int]]:
    """How many the limit counts, and the formations (indexes) holding them."""
    if limit.formations:
        keys = {name_key(n) for n in limit.formations}
        hits = [f.index for f in formations if name_key(f.name) in keys]
        return len(hits), hits
    keys = {name_key(n) for n in limit.units}
    total, hits = 0, []
    for built in formations:
        sheets = built.sheets() + [c.sheet for c in built.characters]
        n = sum(1 for s in sheets if name_key(s.name) in keys or s.type in limit.unit_types)
        if n:
            total += n
            hits.append(built.index)
    return total, hits


def _limits(limits: list[Limit], formations: list[BuiltFormation], findings: FindingList) -> None:
    for limit in limits:
        total, hits = _count(limit, formations)
        if total > limit.max:
            findings.add("limit-exceeded", f"{limit.name}: {total} in the army, at most {limit.max} allowed "
                         f"(in formations {', '.join(f'#{i + 1}' for i in hits)})", limit.rule,
                         ("formations", hits[limit.max]) if len(hits) > limit.max else ("formations",))


def _per_army(views: list[ArmyView], formations: list[BuiltFormation], findings: FindingList) -> None:
    for view in views:
        for definition in view.army.formations:
            if definition.max_per_army is None:
                continue
            hits = [f.index for f in formations if f.definition is definition]
            if len(hits) > definition.max_per_army:
                findings.add("limit-exceeded", f"{plural(len(hits), definition.name + ' formation')}: "
                             f"0-{definition.max_per_army} allowed", definition.rule or view.army.rule,
                             ("formations", hits[definition.max_per_army]))


def _caps(roster: Roster, army: ArmyList, formations: list[BuiltFormation], findings: FindingList) -> list[CapUsage]:
    usages = []
    for cap in army.caps:
        spent = sum(f.points for f in formations if f.army.id in cap.lists)
        allowed = floor(roster.points * cap.ratio)
        usages.append(CapUsage(cap.name, spent, allowed, cap.rule))
        if spent > allowed:
            findings.add("cap-exceeded", f"{cap.name} cost {spent:,} points; at most {allowed:,} "
                         f"({cap.fraction} of {roster.points:,}) are allowed", cap.rule, ("formations",))
    return usages


def build(roster: Roster, catalog: Catalog) -> RosterResult:
    """Build every formation of `roster` and find every rule it breaks. The roster's game and army
    must exist in the catalog (readers check that first, with a located message)."""
    game = catalog.games[roster.game]
    army = catalog.find_list(roster.game, roster.army)
    assert army is not None
    view = catalog.view(roster.game, army.id)
    findings = FindingList()
    formations: list[BuiltFormation] = []
    choices = [(v, f) for v in view.lists() for f in v.army.formations]
    for index, entry in enumerate(roster.formations):
        match = next(((v, f) for v, f in choices if name_key(f.name) == name_key(entry.type)), None)
        if match is None:
            findings.add("unknown-formation", f"'{entry.type}' is not a formation of {army.name} or its allies",
                         army.rule, ("formations", index, "type"), suggestion=did_you_mean(entry.type, [f.name for _, f in choices]))
            continue
        formations.append(_FormationBuilder(match[0], match[1], entry, index, findings).build())
    _requirements(formations, findings)
    _per_army(view.lists(), formations, findings)
    _limits([*game.limits, *army.limits], formations, findings)
    caps = _caps(roster, army, formations, findings)
    total = sum(f.points for f in formations)
    if total > roster.points:
        findings.add("points-over-limit", f"the army costs {total:,} points, {total - roster.points:,} over the "
                     f"agreed {roster.points:,}", "6.1.1 Points", ("points",))
    if not game.points.min <= roster.points <= game.points.max:
        findings.add("points-limit-unusual", f"the agreed {roster.points:,} points are outside the "
                     f"{game.points.min:,}-{game.points.max:,} the lists were balanced for", game.points.rule,
                     ("points",), severity="warning")
    return RosterResult(roster, army, formations, findings.items, caps)

"""The list engine: builds each formation of a roster and finds what breaks the army list.

It knows the constraint vocabulary of listengine.armylist and nothing of any one game; derived values
that depend on a game's rules (break points, garrisons...) come from its system pack.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from math import ceil
from typing import Any, TypeVar

from ..core.findings import Finding, FindingList, Path, Severity
from ..core.names import a, a_unit, did_you_mean, name_key, plural
from .armylist import (
    ArmyList,
    Formation,
    Grant,
    Limit,
    Per,
    Range,
    Size,
    TransportMode,
    TransportRule,
    UnitSlot,
    Upgrade,
    UpgradeOption,
)
from .catalog import ArmyView, Catalog
from .datasheet import Datasheet
from .roster import CharacterPick, Roster, RosterFormation
from .transport import board, can_carry, load_whole, transports_needed


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

    def speeds(self) -> list[int | None]:
        """Each unit's speed, as its chosen wargear leaves it (wings make a Daemon Prince faster)."""
        return [speed for speed, n in self.speed_counts().items() for _ in range(n)]

    def speed_counts(self) -> dict[int | None, int]:
        """How many of its units move at each speed."""
        if not self.wargear:
            return {self.sheet.speed: self.count}
        chosen = {loadout.name: loadout for loadout in self.sheet.loadouts}
        counts: dict[int | None, int] = {}
        for name, n in self.wargear.items():
            speed = chosen[name].speed or self.sheet.speed
            counts[speed] = counts.get(speed, 0) + n
        rest = self.count - sum(self.wargear.values())
        if rest > 0:
            counts[self.sheet.speed] = counts.get(self.sheet.speed, 0) + rest
        return counts


@dataclass
class Attached:
    """A character added to a unit of its formation (it is not a unit itself)."""

    sheet: Datasheet
    joins: Datasheet | None  # None: the unit it was to join is not in the formation (refused, still charged)
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
    refused: list[str] = field(default_factory=list)  # upgrades taken against a rule: still charged (D6)
    set_aside: dict[str, int] = field(default_factory=dict)  # unit -> how many refused upgrades added (D54)
    offers: list[Upgrade] = field(default_factory=list)  # the upgrades it may take
    transport_rule: TransportRule | None = None
    transport_mode: TransportMode | None = None  # the option chosen from the rule
    label: str | None = None
    size: str | None = None  # for formations that come in sizes
    faction: str | None = None  # the faction it declares
    shared: list[UnitGroup] = field(default_factory=list)  # units shared out among other formations
    derived: dict[str, Any] = field(default_factory=dict)  # filled by the game's system pack
    # the formation written exactly alike earlier in the roster, if any: built once, its values are this one's
    twin: BuiltFormation | None = field(default=None, repr=False, compare=False)

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def on_table(self) -> bool:
        """False for a formation whose units were all shared out among others."""
        return not self.shared

    @property
    def terrain(self) -> list[str]:
        return [*self.definition.terrain, *(self.transport_mode.terrain if self.transport_mode else [])]

    @property
    def transport(self) -> str | None:
        return self.transport_mode.name if self.transport_mode else None

    @property
    def is_ally(self) -> bool:
        return self.army.kind == "allies"

    def sheets(self) -> list[Datasheet]:
        """One entry per unit (characters are not units)."""
        return [group.sheet for group in self.units for _ in range(group.count)]

    def kinds(self) -> list[Datasheet]:
        """Each kind of unit it has, once: what a question about which units it has needs."""
        return [group.sheet for group in self.units if group.count]

    @property
    def unit_count(self) -> int:
        return sum(group.count for group in self.units)

    def count_of(self, name: str) -> int:
        key = name_key(name)
        return sum(g.count for g in self.units if name_key(g.sheet.name) == key)

    def group(self, name: str) -> UnitGroup | None:
        key = name_key(name)
        for group in self.units:  # a loop, not next(...): every unit added asks
            if name_key(group.sheet.name) == key:
                return group
        return None

    def counted(self, sheets: list[Datasheet]) -> list[Datasheet]:
        """`sheets` less the units refused upgrades added: a refused upgrade is reported once, and
        its units break no second rule (D54)."""
        left = dict(self.set_aside)
        kept = []
        for sheet in sheets:
            if left.get(sheet.name):
                left[sheet.name] -= 1
            else:
                kept.append(sheet)
        return kept


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
    purchases: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (number, points)
    derived: dict[str, Any] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(f.points for f in self.formations) + sum(points for _, points in self.purchases.values())

    @property
    def valid(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)


_Named = TypeVar("_Named")


def _taken_text(option: UpgradeOption, taken: int) -> str:
    """'1 Support Squad', '3 Land Raiders', '3 × 2 Falcons' (an option that adds several units at once)."""
    return plural(taken, option.unit) if option.bundle == 1 else f"{taken} × {plural(option.bundle, option.unit)}"


def _named(name: str, candidates: list[_Named], attr: str = "name") -> _Named | None:
    key = name_key(name)
    for candidate in candidates:
        # vars(), not getattr(): a model without an `id` field would answer through pydantic's slow
        # missing-attribute path, on every candidate of every lookup
        if name_key(getattr(candidate, attr)) == key or name_key(vars(candidate).get("id") or "") == key:
            return candidate
    return None


@dataclass
class _Menu:
    """A formation's upgrades: those it is offered (its own, counted as it allows, then those of
    the roster's army any formation may take), every upgrade its roster entry may name, and the
    name keys of those it may take."""

    offers: list[Upgrade]
    known: list[Upgrade]
    allowed: set[str]
    # name key -> the upgrade a roster's key means: by name (or id), then by alias, the offers
    # first (its 'Wave Serpents' are the Black Guardians' on a Black Guardian host)
    meaning: dict[str, Upgrade] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for upgrades in (self.offers, self.known):
            for upgrade in upgrades:  # as _named finds them: the first whose name or id it is
                self.meaning.setdefault(name_key(upgrade.name), upgrade)
                self.meaning.setdefault(name_key(vars(upgrade).get("id") or ""), upgrade)
            for upgrade in upgrades:
                for alias in upgrade.aliases:
                    self.meaning.setdefault(name_key(alias), upgrade)


def _menu(view: ArmyView, main: ArmyView, definition: Formation) -> _Menu:
    """The upgrades of a formation of `view`, worked out once per view (an ally's view belongs to
    one army's)."""
    if id(definition) in view.menus:
        return view.menus[id(definition)][1]
    army = view.army
    everywhere = [u for u in main.army.upgrades if u.any_formation]
    known = [*army.upgrades, *(u for u in everywhere if all(u is not x for x in army.upgrades))]
    allowed = {name_key(u) for u in definition.upgrades} | {name_key(u.name) for u in everywhere}
    counts = {name_key(n): c for n, c in definition.upgrade_counts.items()}
    own = [u.model_copy(update={"count": counts[name_key(u.name)]}) if name_key(u.name) in counts else u
           for name in definition.upgrades if (u := _named(name, army.upgrades)) is not None]
    menu = _Menu([*own, *(u for u in everywhere if all(u.name != x.name for x in own))], known, allowed)
    view.menus[id(definition)] = (definition, menu)  # the definition kept: its id stays its own
    return menu


class _FormationBuilder:
    def __init__(self, view: ArmyView, main: ArmyView, definition: Formation, entry: RosterFormation, index: int,
                 findings: FindingList):
        self.view = view
        self.main = main  # the roster's army, whose any-formation upgrades every formation may take
        self.entry = entry
        self.path: Path = ("formations", index)
        self.findings = findings
        self.built = BuiltFormation(index, definition, view.army, label=entry.label)
        self.rule = definition.rule or view.army.rule  # what findings about the formation cite
        self.bought: dict[str, int] = {}  # upgrade name -> units it added
        self.reported: set[tuple[str, int | None]] = set()  # (upgrade, character pick) already refused
        # a transport option written among the upgrades, as the seed prints it
        self.transport_upgrade: str | None = None

    def error(self, code: str, message: str, rule: str, *path: str | int, suggestion: str | None = None,
              severity: Severity = "error") -> None:
        self.findings.add(code, message, rule, self.path + path, suggestion=suggestion, severity=severity)

    def refuse(self, upgrade: str, code: str, message: str, rule: str, *path: str | int,
               suggestion: str | None = None, pick: int | None = None) -> None:
        """An upgrade taken against a rule: reported once (once per character picked), however many
        of its rules it breaks, and still built and charged as the roster writes it (D6)."""
        if upgrade not in self.built.refused:
            self.built.refused.append(upgrade)
        if (upgrade, pick) in self.reported or (upgrade, None) in self.reported:
            return  # said already, of this pick or of the whole upgrade
        self.reported.add((upgrade, pick))
        self.error(code, message, rule, *path, suggestion=suggestion)

    def sheet(self, name: str) -> Datasheet:
        sheet = self.view.unit(name) or self.main.unit(name)
        assert sheet is not None, f"unresolved unit {name}: the catalog's reference check missed it"
        return sheet

    def build(self) -> BuiltFormation:
        definition, built = self.built.definition, self.built
        self._faction()
        if definition.sizes:
            size = self._size()
            built.size, built.copies, built.points = size.name, size.scale, size.points
        else:
            if self.entry.size is not None:
                self.error("size-not-allowed", f"{definition.name} comes in one size; size '{self.entry.size}' is "
                           f"not allowed", self.rule, "size")
            built.copies = self._copies()
            built.points = definition.price(built.copies)
        self._compose()
        upgrades = self._resolve_upgrades()
        carriers = {name_key(u.name) for u, _, _ in upgrades if u.carry}

        def stage(upgrade: Upgrade) -> int:
            """Units bought first, whatever the roster's order; then what works on them (swaps,
            abilities granted, one per unit); then transports and what may hold only some units;
            then what changes the transports bought."""
            if carriers & set(map(name_key, upgrade.needs)):
                return 3
            if upgrade.carry or upgrade.only_units is not None:
                return 2
            return 1 if upgrade.replaces or upgrade.grants or upgrade.per_unit_of else 0
        stages = {upgrade.name: stage(upgrade) for upgrade, _, _ in upgrades}
        ordered = sorted(upgrades, key=lambda pair: (pair[0].character, stages[pair[0].name]))
        chosen_early = False
        for upgrade, choice, key in ordered:
            if upgrade.character:
                continue
            if stages[upgrade.name] >= 2 and not chosen_early:
                self._wargear(quiet=True)  # wargear that changes a unit's speed matters to its transports
                chosen_early = True
            self._apply(upgrade, choice, key)
        self._transport()
        offers = {id(o) for o in built.offers}  # one the formation may not take is reported already
        offered = [u for u, choice, _ in upgrades if choice not in (False, 0, {}, []) and id(u) in offers]
        self._check_upgrades(offered)
        for upgrade, choice, key in ordered:
            if upgrade.character:
                self._apply(upgrade, choice, key)
        self._hosted(ordered)
        for grant in definition.grants:
            self._give(grant)
        self._wargear()
        self._split()
        return built

    def _hosted(self, ordered: list[tuple[Upgrade, Any, str]]) -> None:
        """A character that must ride the unit another upgrade turned its unit into."""
        for upgrade, _, key in ordered:
            if upgrade.hosts is None or upgrade.name not in self.built.upgrades or upgrade.name in self.built.refused:
                continue  # a refused upgrade is reported already
            units = {name_key(o.unit) for o in upgrade.options}
            for character in self.built.characters:
                if (name_key(character.upgrade) == name_key(upgrade.hosts) and character.joins
                        and name_key(character.joins.name) not in units):
                    self.error("character-placement", f"{character.sheet.name} joins {a_unit(character.joins.name)}, "
                               f"but the {upgrade.name} upgrade turned its unit into "
                               f"{a_unit(' or '.join(o.unit for o in upgrade.options))}, which it must join",
                               upgrade.rule, "upgrades", key)

    def _add(self, unit: str, count: int, source: str) -> UnitGroup:
        sheet = self.sheet(unit)
        group = self.built.group(unit)
        if group is None:
            group = UnitGroup(sheet, 0, source)
            self.built.units.append(group)
        group.count += count
        return group

    def _faction(self) -> None:
        definition, asked = self.built.definition, self.entry.faction
        if definition.factions is None:
            if asked is not None:
                self.error("faction-not-allowed", f"{definition.name} declares no faction", self.rule, "faction")
            return
        if asked is None:
            self.error("faction-required", f"{definition.name}: declare its faction "
                       f"({', '.join(definition.factions)})", self.rule)
            return
        faction = next((f for f in definition.factions if name_key(f) == name_key(asked)), None)
        if faction is None:
            self.error("faction-not-allowed", f"{definition.name} may not be {asked} (it may be: "
                       f"{', '.join(definition.factions)})", self.rule, "faction",
                       suggestion=did_you_mean(asked, definition.factions))
        self.built.faction = faction

    def _size(self) -> Size:
        definition, asked = self.built.definition, self.entry.size
        if asked is None:
            return definition.sizes[0]
        size = _named(asked, definition.sizes)
        if size is None:
            names = [z.name for z in definition.sizes]
            self.error("unknown-size", f"{definition.name} comes in these sizes: {', '.join(names)}; not '{asked}'",
                       self.rule, "size", suggestion=did_you_mean(asked, names))
            return definition.sizes[0]
        return size

    def _scaled(self, count: Range) -> Range:
        """An upgrade's limits, doubled or tripled for a big or 'uge formation."""
        if not self.built.definition.sizes or count.max is None:
            return count
        return Range(min=count.min, max=count.max * self.built.copies)

    def _option_allowed(self, option: UpgradeOption, upgrade: Upgrade, *where: str | int,
                        pick: int | None = None) -> bool:
        """Options only for some factions or some formations."""
        name = self.built.definition.name
        if option.only_in and name_key(name) not in {name_key(f) for f in option.only_in}:
            self.refuse(upgrade.name, "upgrade-not-allowed", f"{option.label} may be taken only in "
                        f"{' or '.join(option.only_in)}, not in {a(name)}", upgrade.rule, *where, pick=pick)
            return False
        if option.faction is None or option.faction == self.built.faction:
            return True
        self.refuse(upgrade.name, "faction-mismatch", f"{option.label} are {option.faction}, but "
                    f"{self.built.definition.name} is {self.built.faction or 'of no faction'}", upgrade.rule, *where,
                    pick=pick)
        return False

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
                       f"per formation; the roster has {copies}", self.rule, "count")
            if isinstance(definition.points, dict):  # no price for other numbers: charged as the nearest allowed
                return definition.count.min if copies < definition.count.min else definition.count.max or copies
        return copies

    def _compose(self) -> None:
        """Add the units of every slot: fixed ones, and those whose number or mix the roster chooses."""
        definition, given = self.built.definition, dict(self.entry.composition or {})
        for slot in definition.units:
            names = slot.choice or [slot.unit or ""]
            chosen: dict[str, int] = {}
            for name in list(given):
                match = next((c for c in names if name_key(c) == name_key(name)
                              or name_key(c).endswith(name_key(name))), None)
                if match:
                    chosen[match] = chosen.get(match, 0) + given.pop(name)
            if slot.chosen_on_roster:
                chosen = self._chosen(slot, chosen)
            else:  # a fixed number of one unit
                assert isinstance(slot.count, int) and slot.unit is not None
                chosen = {slot.unit: slot.count * self.built.copies}
            for name, count in chosen.items():
                if count > 0:
                    self._add(name, count, "formation")
                    self.built.points += slot.price(name) * count
        for name in given:
            choices = [c for s in definition.units for c in s.choice or ([s.unit or ""] if s.chosen_on_roster else [])]
            self.error("unknown-unit", f"{definition.name} has no choice of unit '{name}'", self.rule,
                       "composition", name, suggestion=did_you_mean(name, choices))

    def _chosen(self, slot: UnitSlot, chosen: dict[str, int]) -> dict[str, int]:
        """The roster's numbers for a slot it chooses, checked against the slot (a lone unit type
        with a range of counts defaults to its least)."""
        name, wanted = self.built.definition.name, slot.counts()
        low, high = wanted.min * self.built.copies, (wanted.max or wanted.min) * self.built.copies
        among = " or ".join(slot.choice or [slot.unit or ""])
        allowed = Range(min=low, max=high).describe()
        low_high = f"{allowed} {'unit' if allowed == '1' else 'units'}"
        if not chosen:
            if slot.choice is None:
                assert slot.unit is not None
                return {slot.unit: low}
            self.error("composition-required", f"{name}: choose the mix of {low_high} from {among}",
                       self.rule, "composition")
            return {}
        total = sum(chosen.values())
        if not low <= total <= high:
            self.error("composition-count", f"{name} needs {low_high} from {among}; the roster has {total}",
                       self.rule, "composition")
        mixed = [unit for unit, count in chosen.items() if count]
        if slot.alike and len(mixed) > 1:
            self.error("composition-alike", f"{name}: its {total} units must all be of one type, "
                       f"not a mix of {' and '.join(mixed)}", self.rule, "composition")
        for unit, most in slot.most.items():
            if chosen.get(unit, 0) > most * self.built.copies:
                self.error("composition-count", f"{name} may have at most {most * self.built.copies} {unit}; "
                           f"the roster has {chosen[unit]}", self.rule, "composition", unit)
        return chosen

    def _resolve_upgrades(self) -> list[tuple[Upgrade, Any, str]]:
        army, definition = self.view.army, self.built.definition
        menu = _menu(self.view, self.main, definition)
        self.built.offers = list(menu.offers)
        taken: dict[str, str] = {}
        resolved = []
        for key, choice in self.entry.upgrades.items():
            upgrade = menu.meaning.get(name_key(key))
            mode = self._transport_mode(key) if upgrade is None else None
            if upgrade is None and mode is not None:  # "the Land Raider upgrade" of White Scars Terminators (D13)
                self.transport_upgrade = mode.name if choice not in (False, 0) else None
            elif upgrade is None:
                self.error("unknown-upgrade", f"'{key}' is not an upgrade of {army.name}", army.rule, "upgrades", key,
                           suggestion=did_you_mean(key, [u.name for u in menu.known]) or self._bought_by(key))
            elif upgrade.name in taken:
                self.error("upgrade-repeated", f"{upgrade.name} is taken twice in {definition.name} "
                           f"(as '{taken[upgrade.name]}' and '{key}'); each upgrade may be taken once",
                           army.rule, "upgrades", key)
            else:
                taken[upgrade.name] = key
                resolved.append((upgrade, choice, key))
                if name_key(upgrade.name) not in menu.allowed:
                    offered = ", ".join(definition.upgrades) or "none"
                    self.refuse(upgrade.name, "upgrade-not-allowed", f"{definition.name} may not take the "
                                f"{upgrade.name} upgrade (it may take: {offered})", self.rule, "upgrades", key)
        return resolved

    def _bought_by(self, name: str) -> str | None:
        """Where a unit or character the roster names as if it were an upgrade or a transport is
        bought: 'an Autarch is bought with the Exarchs upgrade: Exarchs: {character: Autarch, ...}'."""
        key = name_key(name).removesuffix("s")
        for upgrade in self.built.offers:
            option = next((o for o in upgrade.options if key in (name_key(o.label).removesuffix("s"),
                                                                 name_key(o.unit).removesuffix("s"))
                           or name_key(o.unit).startswith(key + "-")), None)
            if option is None:
                continue
            if upgrade.character:
                how = f"{{character: {option.label}, joins: ...}}"
            elif len(upgrade.options) > 1:
                how = f"{{{option.label}: n}}"
            else:
                how = "true" if upgrade.count and upgrade.count.max == upgrade.count.min else "n"
            return f"{a(option.label)} is bought with the {upgrade.name} upgrade: upgrades: {{{upgrade.name}: {how}}}"
        return None

    def _transport_mode(self, name: str) -> TransportMode | None:
        rule = _named(self.built.definition.transport or "", self.view.army.transports)
        return _named(name, rule.modes) if rule else None

    def _check_upgrades(self, upgrades: list[Upgrade]) -> None:
        """The rules on which upgrades go together: prerequisites, exclusives and the most taken."""
        definition = self.built.definition
        names = {name_key(u.name) for u in upgrades} | {name_key(self.built.transport or "")}
        for name in definition.must_take:
            if name_key(name) not in names:
                self.error("upgrade-required", f"{definition.name} must take {name}", self.rule, "upgrades", name)
        for upgrade in upgrades:
            if upgrade.needs and not names & {name_key(n) for n in upgrade.needs}:
                self.refuse(upgrade.name, "upgrade-prerequisite-missing", f"{upgrade.name} in {definition.name} "
                            f"needs one of these too: {', '.join(upgrade.needs)}", upgrade.rule, "upgrades")
            if upgrade.exclusive and len(upgrades) > 1:
                others = ", ".join(u.name for u in upgrades if u is not upgrade)
                self.refuse(upgrade.name, "upgrade-exclusive", f"{definition.name} takes {upgrade.name}, which allows "
                            f"no other upgrade (it also takes {others})", upgrade.rule, "upgrades")
        counted = [u.name for u in upgrades if u.counts_toward_max]
        mode = self.built.transport_mode
        if mode is not None and mode.counts_toward_max:
            counted.append(mode.name)
        if definition.max_upgrades is not None and len(counted) > definition.max_upgrades:
            self.error("too-many-upgrades", f"{definition.name} takes {len(counted)} upgrades "
                       f"({', '.join(counted)}); at most {definition.max_upgrades} are allowed", self.rule, "upgrades")

    def _option_counts(self, upgrade: Upgrade, choice: Any, key: str) -> dict[str, int] | None:
        """Option -> number taken, from the roster's way of saying it; None when it makes no sense."""
        options, whole = upgrade.options, upgrade.fixed_count or 1
        if isinstance(choice, (bool, int)):
            if len(options) == 1:
                return {options[0].label: whole if choice is True else int(choice)}
            self.error("choice-required", f"{upgrade.name}: say which you take, or how many of each "
                       f"({', '.join(o.label for o in options)})", upgrade.rule, "upgrades", key)
            return None
        if isinstance(choice, str):
            choice = {choice: whole}
        if isinstance(choice, (CharacterPick, list)):
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
        if upgrade.alike and sum(1 for n in counts.values() if n) > 1:
            self.refuse(upgrade.name, "choice-invalid", f"{upgrade.name}: take one kind only "
                        f"({' or '.join(o.label for o in options)}), not a mix", upgrade.rule, "upgrades", key)
        return counts

    def _implied_max(self, upgrade: Upgrade) -> int | None:
        limits = []
        if upgrade.replaces:
            limits.append(sum(self.built.count_of(unit) for unit in upgrade.replaced))
        if upgrade.carry == "up to need":
            vehicle = self.sheet(upgrade.options[0].unit)
            limits.append(transports_needed(vehicle, self._passengers(), self._carriers(excluding=vehicle)))
        if upgrade.per_unit_of:
            limits.append(self._units_of(upgrade.per_unit_of))
        return min(limits) if limits else None

    def _holds_only(self, upgrade: Upgrade, key: str) -> bool:
        allowed = {name_key(u) for u in upgrade.only_units or []}
        others = sorted({g.sheet.name for g in self.built.units if name_key(g.sheet.name) not in allowed})
        if others:
            self.refuse(upgrade.name, "upgrade-not-allowed", f"{upgrade.name} is only for a formation made of "
                       f"{', '.join(upgrade.only_units or [])}; {self.built.definition.name} also has "
                       f"{', '.join(others)}", upgrade.rule, "upgrades", key)
        return not others

    def _either_way(self, problem: Callable[[], tuple[str, str] | None]) -> tuple[str, str] | None:
        """A transport rule's problem (code, message) if it has one both without the units of
        refused upgrades and with them, said of the roster as written: a problem that only their
        units cause, or only their absence causes, restates their refusal."""
        found = problem()
        if found is None or not self.built.set_aside:
            return found
        kept, self.built.set_aside = self.built.set_aside, {}
        try:
            return problem()
        finally:
            self.built.set_aside = kept

    def _exactly(self, upgrade: Upgrade, counts: dict[str, int], key: str) -> bool:
        """'Exactly enough, no spare spaces': the vehicles taken carry every unit they can, full."""
        def problem() -> tuple[str, str] | None:
            vehicles = [self.sheet(o.unit) for o in upgrade.options for _ in range(counts.get(o.label, 0))]
            kinds = {o.unit: self.sheet(o.unit) for o in upgrade.options}
            riders = [p for p in self._riders(upgrade) if any(can_carry(v, p) for v in kinds.values())]
            left, spare = board(self._carriers() + vehicles, riders)
            smallest = min(sum(c.slots for c in v.transport) for v in kinds.values())
            if not left and spare < smallest:
                return None  # a space left over that no smaller choice of vehicles avoids is allowed
            taken = ", ".join(plural(n, label) for label, n in counts.items() if n)
            what = (f"{plural(len(left), 'unit')} that could ride would be left behind" if left
                    else f"{plural(spare, 'space')} would be left spare")
            return "transport-inexact", (f"{upgrade.name} in {self.built.definition.name}: with {taken}, {what}; "
                                         f"the transports taken must carry every unit they can, with no space to spare")
        return self._reported(upgrade, key, self._either_way(problem))

    def _whole_formation(self, upgrade: Upgrade, taken: int, key: str) -> bool:
        """'If any are taken, enough to carry the whole formation, at most one per unit': say if not."""
        vehicle, name = self.sheet(upgrade.options[0].unit), self.built.definition.name

        def problem() -> tuple[str, str] | None:
            riders = sum(1 for p in self._passengers() if can_carry(vehicle, p))
            most = riders - self.built.count_of(vehicle.name)
            least = transports_needed(vehicle, self._passengers(), self._carriers())
            if least <= taken <= most:
                return None
            if most <= 0:
                return "transport-excess", (f"{upgrade.name} in {name}: {taken} taken, but no unit of the formation "
                                            f"needs {a(vehicle.name)}")
            return ("transport-excess" if taken > most else "transport-insufficient",
                    f"{upgrade.name} in {name}: {taken} taken; if any are, they must carry every unit a "
                    f"{vehicle.name} can carry ({least} at least) with at most one per such unit ({most} at most)")
        return self._reported(upgrade, key, self._either_way(problem))

    def _reported(self, upgrade: Upgrade, key: str, problem: tuple[str, str] | None) -> bool:
        """True if there is no problem; else the upgrade is refused with it."""
        if problem is not None:
            self.refuse(upgrade.name, problem[0], problem[1], upgrade.rule, "upgrades", key)
        return problem is None

    def _apply(self, upgrade: Upgrade, choice: Any, key: str) -> None:
        definition = self.built.definition
        if not upgrade.options:
            if choice in (False, 0):
                return
            if choice is not True and not (type(choice) is int and choice == 1):
                self.refuse(upgrade.name, "quantity-out-of-range", f"{upgrade.name} is taken once or not at all, "
                            f"not {choice!r}", upgrade.rule, "upgrades", key)
            self._pay(upgrade, upgrade.cost)
            if upgrade.grants is not None:
                self._give(upgrade.grants)
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
        implied, count = self._implied_max(upgrade), self._scaled(upgrade.count)
        if not count.contains(total, implied):
            reason, hint = "", None
            if upgrade.carry == "up to need":
                reason = f" (the number needed to carry the formation is {implied})"
            elif upgrade.replaces:
                present = [plural(n, unit) for unit in upgrade.replaced if (n := self.built.count_of(unit))]
                reason = (f" ({definition.name} has {' and '.join(present) or plural(0, ' or '.join(upgrade.replaced))}"
                          f" to replace)")
                meant = next((u for u in self.built.offers if u is not upgrade and u.replaced
                              and {o.unit for o in u.options} == {o.unit for o in upgrade.options}
                              and any(self.built.count_of(r) for r in u.replaced)), None)
                if meant is not None:  # the Daemon Prince of a coven led by an Aspiring Champion
                    hint = (f"{a(' or '.join(meant.replaced))} becomes {a(upgrade.options[0].unit)} with the "
                            f"{meant.name} upgrade")
            elif upgrade.per_unit_of:
                reason = f" (one per {upgrade.per_unit_of}, and {definition.name} has {implied})"
            code = ("transport-excess" if upgrade.carry == "up to need" and total > (implied or 0)
                    else "quantity-out-of-range")
            # say what is counted: '1 taken, 4 allowed' read as 'up to 4' for an upgrade that comes whole
            counted = ", ".join(_taken_text(option, counts[option.label]) for option in upgrade.options
                                if counts.get(option.label))
            if count.max is not None and count.min == count.max > 1 and implied is None:
                whole = _taken_text(upgrade.options[0], count.min) if len(upgrade.options) == 1 else count.min
                allowed = f"; the upgrade comes whole: {whole} or none"
                if hint is None and len(upgrade.options) == 1:
                    hint = f"write '{upgrade.name}: true' to take all {count.min}"
            else:
                allowed = f", {count.describe(implied)} allowed"
            self.refuse(upgrade.name, code, f"{upgrade.name} in {definition.name}: {counted} taken{allowed}{reason}",
                        upgrade.rule, "upgrades", key, suggestion=hint)
        self._check_taken(upgrade, counts, key)
        cost = upgrade.cost
        for option in upgrade.options:
            taken = counts.get(option.label, 0)
            if taken:
                cost += option.cost * taken
                self._add(option.unit, taken * option.bundle, upgrade.name)
                if upgrade.name in self.built.refused:  # its units break no second rule
                    unit = self.sheet(option.unit).name
                    self.built.set_aside[unit] = self.built.set_aside.get(unit, 0) + taken * option.bundle
                self.bought[upgrade.name] = self.bought.get(upgrade.name, 0) + taken * option.bundle
                for unit, number in option.comes_with.items():
                    self._add(unit, taken * number, upgrade.name)
        if upgrade.replaces:
            # one replaced per option taken, whatever its bundle (as many as there are, if too many)
            self._replace(upgrade.replaced, min(total, sum(self.built.count_of(u) for u in upgrade.replaced)))
        self._pay(upgrade, cost)

    def _check_taken(self, upgrade: Upgrade, counts: dict[str, int], key: str) -> None:
        """The rules on what an upgrade may take, in order: the first one broken is the one reported,
        and the upgrade is built as written all the same."""
        for option in upgrade.options:
            if counts.get(option.label) and not self._option_allowed(option, upgrade, "upgrades", key):
                return
        if upgrade.only_units is not None and not self._holds_only(upgrade, key):
            return
        if upgrade.carry == "whole formation" and not self._whole_formation(upgrade, sum(counts.values()), key):
            return
        if upgrade.carry == "exactly":
            self._exactly(upgrade, counts, key)

    def _units_of(self, name: str) -> int:
        """The units the upgrade of that name added, or else the formation's units of that type."""
        upgrade = _named(name, self.view.army.upgrades)
        if upgrade is not None:
            return self.bought.get(upgrade.name, 0)
        return self.built.count_of(name)

    def _pay(self, upgrade: Upgrade, cost: int) -> None:
        self.built.upgrades[upgrade.name] = cost
        self.built.points += cost

    def _replace(self, units: list[str], count: int) -> None:
        """Take `count` units away, of the first type named while there are any, then the next."""
        for unit in units:
            group = self.built.group(unit)
            if group is None or count == 0:
                continue
            taken = min(count, group.count)
            group.count -= taken
            count -= taken
            if group.count == 0:
                self.built.units.remove(group)
        assert count == 0, "more replaced than the formation has: the implied maximum missed it"

    def _give(self, grant: Grant) -> None:
        for name in grant.to:
            group = self.built.group(name)
            if group is not None and grant.ability not in group.gained:
                group.gained.append(grant.ability)

    def _attach(self, upgrade: Upgrade, choice: Any, key: str) -> None:
        definition = self.built.definition
        picks = choice if isinstance(choice, list) else [choice]
        if not picks or not all(isinstance(p, CharacterPick) for p in picks):
            self.error("choice-required", f"{upgrade.name}: name the character and the unit it joins, e.g. "
                       f"{{character: {upgrade.options[0].label}, joins: {definition.units[0].unit or 'a unit'}}}",
                       upgrade.rule, "upgrades", key)
            return
        assert upgrade.count is not None
        count = self._scaled(upgrade.count)
        if not count.contains(len(picks)):
            self.refuse(upgrade.name, "quantity-out-of-range", f"{upgrade.name} in {definition.name}: "
                        f"{plural(len(picks), 'character')} taken, {count.describe()} allowed", upgrade.rule,
                        "upgrades", key)
        options = [self._attach_one(upgrade, pick,
                                    ("upgrades", key, i) if isinstance(choice, list) else ("upgrades", key))
                   for i, pick in enumerate(picks)]
        if any(options):  # a character the list does not have has no price
            self._pay(upgrade, upgrade.cost + sum(o.cost for o in options if o))

    def _attach_one(self, upgrade: Upgrade, pick: CharacterPick,
                    where: tuple[str, str] | tuple[str, str, int]) -> UpgradeOption | None:
        """The character picked (None if the list has no such character), joined to its unit as
        written whenever the formation has that unit."""
        definition, number = self.built.definition, where[2] if len(where) > 2 else 0
        option: UpgradeOption | None = _named(pick.character, upgrade.options, "label") or _named(
            pick.character, upgrade.options, "unit")
        if option is None:
            self.error("unknown-character", f"{upgrade.name}: '{pick.character}' is not one of "
                       f"{', '.join(o.label for o in upgrade.options)}", upgrade.rule, *where, "character",
                       suggestion=did_you_mean(pick.character, [o.label for o in upgrade.options]))
            return None
        host = self.built.group(pick.joins)
        if host is None:
            present = sorted({g.sheet.name for g in self.built.units})
            self.refuse(upgrade.name, "character-host-missing", f"{option.label} cannot join '{pick.joins}': "
                        f"{definition.name} has no such unit (it has {', '.join(present)})", "2.1.1 Characters",
                        *where, "joins", suggestion=did_you_mean(pick.joins, present), pick=number)
            self.built.characters.append(Attached(self.sheet(option.unit), None, upgrade.name))
            return option
        if self._option_allowed(option, upgrade, *where, "character", pick=number) and option.joins and \
                name_key(host.sheet.name) not in {name_key(u) for u in option.joins}:
            self.refuse(upgrade.name, "character-host-invalid", f"{option.label} may join only "
                        f"{' or '.join(option.joins)}, not {host.sheet.name}", upgrade.rule, *where, "joins",
                        pick=number)
        most = next((n for unit, n in option.most_per_host.items() if name_key(unit) == name_key(host.sheet.name)),
                    None)
        aboard = sum(1 for c in self.built.characters
                     if c.upgrade == upgrade.name and c.joins is host.sheet and c.sheet.name == option.unit)
        if most is not None and aboard >= most * host.count:
            self.refuse(upgrade.name, "character-host-full", f"{option.label}: at most {most} may join each "
                        f"{host.sheet.name}, and {definition.name} has {plural(host.count, host.sheet.name)} with "
                        f"{plural(aboard, option.label)} already", upgrade.rule, *where, "joins", pick=number)
        self.built.characters.append(Attached(self.sheet(option.unit), host.sheet, upgrade.name))
        return option

    def _wargear(self, quiet: bool = False) -> None:
        """Record each unit's chosen loadout (the datasheet's 'one weapon OR another'). `quiet`:
        a first pass over the units bought so far, saying nothing of what is wrong."""
        name = self.built.definition.name
        for unit, choice in self.entry.wargear.items():
            group = self.built.group(unit)
            if quiet and (group is None or not group.sheet.loadouts):
                continue
            if group is None or not group.sheet.loadouts:
                armed = sorted({g.sheet.name for g in self.built.units if g.sheet.loadouts})
                self.error("wargear-invalid", f"{name} has no '{unit}' with a choice of weapons"
                           f" (choices exist for: {', '.join(armed) or 'no unit'})", "5 Datasheets", "wargear", unit)
                continue
            picks = {choice: group.count} if isinstance(choice, str) else choice
            loadouts = [loadout.name for loadout in group.sheet.loadouts]
            chosen: dict[str, int] = {}
            for pick, count in picks.items():
                loadout = _named(pick, group.sheet.loadouts)
                if loadout is None:
                    if quiet:
                        return
                    self.error("wargear-invalid", f"{group.sheet.name} has no loadout '{pick}' "
                               f"(choose from: {', '.join(loadouts)})", "5 Datasheets", "wargear", unit,
                               suggestion=did_you_mean(pick, loadouts))
                    return
                chosen[loadout.name] = chosen.get(loadout.name, 0) + count
            if sum(chosen.values()) != group.count:
                if quiet:
                    continue
                self.error("wargear-invalid", f"{name} has {plural(group.count, group.sheet.name)}, but loadouts "
                           f"are given for {sum(chosen.values())}", "5 Datasheets", "wargear", unit)
                continue
            group.wargear = chosen
        given = {name_key(unit) for unit in self.entry.wargear}
        if quiet or given - {name_key(g.sheet.name) for g in self.built.units if g.sheet.loadouts}:
            return  # a choice given for a unit with none is reported: it may be the one meant here
        for group in self.built.units:
            if group.sheet.loadouts and name_key(group.sheet.name) not in given:
                units = group.sheet.name if group.count == 1 else plural(group.count, group.sheet.name)
                where = "" if name_key(name) == name_key(group.sheet.name) else f" in {name}"
                self.error("wargear-unchosen", f"choose the wargear of the {units}{where} (one of: "
                           f"{'; '.join(loadout.name for loadout in group.sheet.loadouts)})", "5 Datasheets", "wargear",
                           severity="warning", suggestion=f"wargear: {{{group.sheet.name}: "
                                                          f"{group.sheet.loadouts[0].name}}}")

    def _split(self) -> None:
        definition = self.built.definition
        if not self.entry.split:
            return
        if definition.split is None:
            self.error("split-not-allowed", f"{definition.name} may not be shared out among other formations",
                       self.rule, "split")
            return
        for character in self.built.characters:
            self.error("character-host-missing", f"{character.sheet.name} cannot join {a(definition.name)} whose "
                       f"units are shared out: it has no unit of its own", "2.1.1 Characters", "upgrades",
                       character.upgrade)
        self.built.shared, self.built.units = self.built.units, []

    def _passengers(self) -> list[Datasheet]:
        return self.built.counted(self.built.sheets())

    def _riders(self, upgrade: Upgrade) -> list[Datasheet]:
        """The units an upgrade's transports must carry: all, or those no faster than it says."""
        fastest = upgrade.riders_speed
        return self.built.counted([g.sheet for g in self.built.units for speed in g.speeds()
                              if fastest is None or (speed is not None and speed <= fastest)])

    def _carriers(self, excluding: Datasheet | None = None) -> list[Datasheet]:
        return [s for s in self._passengers() if s.transport and (excluding is None or s.name != excluding.name)]

    def _transport(self) -> None:
        definition, entry = self.built.definition, self.entry
        if definition.transport is None:
            if entry.transport is not None:
                self.error("transport-not-allowed", f"{definition.name} has no transport options", self.rule,
                           "transport", suggestion=self._bought_by(entry.transport))
            return
        rule = _named(definition.transport, self.view.army.transports)
        assert rule is not None  # the catalog check finds every formation's transport rule
        mode: TransportMode = rule.modes[0]
        asked = entry.transport or self.transport_upgrade
        if asked is not None:
            picked = _named(asked, rule.modes)
            if picked is None:
                options = [m.name for m in rule.modes]
                self.error("unknown-transport", f"{definition.name}: '{asked}' is not a transport option "
                           f"({', '.join(options)})", rule.rule, "transport",
                           suggestion=self._bought_by(asked) or did_you_mean(asked, options))
            else:
                mode = picked
        self.built.transport_rule, self.built.transport_mode = rule, mode
        others = _outside(self.built, mode)
        if others:
            self.refuse(mode.name, "transport-not-allowed", f"{mode.name} may carry only "
                        f"{', '.join(mode.only_units or [])} units; {definition.name} also has {', '.join(others)}",
                        mode.rule or rule.rule, "transport")
        cost = mode.cost + mode.cost_per_unit * self.built.unit_count
        if cost:
            self.built.upgrades[mode.name] = cost  # a transport bought as the list's upgrade
            self.built.points += cost
        if mode.unit:
            vehicle = self.sheet(mode.unit)
            everyone = self.built.sheets()  # refused upgrades' vehicles carry too, as written
            needed = transports_needed(vehicle, everyone, [s for s in everyone if s.transport])
            if needed:
                self._add(mode.unit, needed, "transport")


def _outside(built: BuiltFormation, mode: TransportMode) -> list[str]:
    """The units of the formation that `mode` may not hold (free transports of another mode aside)."""
    if mode.only_units is None:
        return []
    allowed = {name_key(u) for u in mode.only_units}
    return sorted({g.sheet.name for g in built.units
                   if g.source != "transport" and name_key(g.sheet.name) not in allowed})


def _present(formations: list[BuiltFormation]) -> set[str]:
    """The name keys of the units the army has (twins have the same)."""
    once = {id(f.twin or f): f for f in formations}
    return {name_key(s.name) for f in once.values() for s in f.kinds()}


def _requirements(formations: list[BuiltFormation], findings: FindingList) -> None:
    present = _present(formations)
    _unusable(formations, present, findings)
    for built in formations:
        rule, mode = built.transport_rule, built.transport_mode
        if (rule and mode and mode.requires and mode.name not in built.refused  # a refused mode is reported already
                and not present & {name_key(u) for u in mode.requires}):
            findings.add("transport-prerequisite-missing",
                         f"{built.name} uses {mode.name}, which needs {a(' or '.join(mode.requires))} in the army; "
                         f"there is none", mode.rule or rule.rule, ("formations", built.index, "transport"))
    _room_aboard(formations, findings)
    first = next((f for f in formations if f.transport_mode and f.transport_mode.all_or_none), None)
    if first is None:
        return
    mode = first.transport_mode
    assert mode is not None
    for other in formations:
        rule = other.transport_rule
        if (rule is not None and _named(mode.name, rule.modes) is not None and other.transport != mode.name
                and not _outside(other, mode)):
            findings.add("transport-all-or-none",
                         f"{other.name} could use {mode.name} and must, because {first.name} (#{first.index + 1}) "
                         f"does: either every formation that can uses {mode.name}, or none does",
                         mode.rule or rule.rule, ("formations", other.index, "transport"))


def _unusable(formations: list[BuiltFormation], present: set[str], findings: FindingList) -> None:
    """Formations the army cannot use for want of some unit (an Avatar with no Farseer to summon
    it): a warning, once for each kind of formation."""
    warned: list[Formation] = []
    for built in formations:
        needed = built.definition.unusable_without
        if needed and not present & {name_key(u) for u in needed} and built.definition not in warned:
            warned.append(built.definition)
            findings.add("formation-unusable", f"{built.name} may not be used: the army has no "
                         f"{' or '.join(needed)}", built.definition.rule or built.army.rule,
                         ("formations", built.index), severity="warning")


def _room_aboard(formations: list[BuiltFormation], findings: FindingList) -> None:
    """Formations that enter play in the army's spacecraft or transport aircraft start the game
    aboard them: all must fit together, each formation whole in one carrier."""
    riding = [(f, f.transport_mode) for f in formations if f.transport_mode and f.transport_mode.rides_in_requires
              and not _outside(f, f.transport_mode)]  # a refused mode is reported already
    for vessels in {tuple(mode.requires) for _, mode in riding}:
        keys = {name_key(v) for v in vessels}
        carriers = [s for f in formations for s in f.sheets() if name_key(s.name) in keys]
        if not carriers:
            continue  # reported as a missing prerequisite
        aboard = [f for f, mode in riding if tuple(mode.requires) == vessels]
        left = [aboard[i] for i in load_whole(carriers, [f.sheets() for f in aboard])]
        if left:
            names = sorted({c.name for c in carriers})
            counts = {n: sum(c.name == n for c in carriers) for n in names}
            fleet = " and ".join(plural(k, n) if k > 1 else n for n, k in counts.items())
            last = left[-1]
            assert last.transport_mode is not None and last.transport_rule is not None  # both set together
            findings.add("transport-capacity",
                         f"{', '.join(f'#{f.index + 1} {f.name}' for f in left)} "
                         f"{'finds' if len(left) == 1 else 'find'} no room aboard the army's {fleet}: every "
                         f"formation riding in {'them' if len(carriers) > 1 else 'it'} is aboard at the start, "
                         f"each whole in one",
                         last.transport_mode.rule or last.transport_rule.rule, ("formations", last.index, "transport"))


def _matching(formations: list[BuiltFormation], names: list[str], categories: list[str]) -> list[BuiltFormation]:
    keys = {name_key(n) for n in names}
    return [f for f in formations if name_key(f.name) in keys or f.definition.category in categories]


def _count(limit: Limit, formations: list[BuiltFormation], refused: bool) -> tuple[int, list[int]]:
    """How many the limit counts, and the formations (indexes) holding them; with `refused`, also
    the units and characters of refused upgrades."""
    if limit.formations or limit.categories:
        hits = [f.index for f in _matching(formations, limit.formations, limit.categories)]
        return len(hits), hits
    keys = {name_key(n) for n in limit.units}

    def counts(sheet: Datasheet) -> bool:
        return name_key(sheet.name) in keys or sheet.type in limit.unit_types

    def held(built: BuiltFormation) -> int:
        matching: dict[str, int] = {}  # unit name -> how many, counted by group rather than unit by unit
        for group in built.units:
            if counts(group.sheet):
                matching[group.sheet.name] = matching.get(group.sheet.name, 0) + group.count
        n = 0  # loops, not sums over generators: asked of every formation for every limit
        for name, number in matching.items():
            # without `refused`, less the units refused upgrades added, as BuiltFormation.counted leaves them
            n += number if refused else number - min(number, built.set_aside.get(name, 0))
        for character in built.characters:
            if (refused or character.upgrade not in built.refused) and counts(character.sheet):
                n += 1
        return n

    total, hits = 0, []
    numbers: dict[int, int] = {}  # by the formation built: twins hold the same
    for built in formations:
        built_once = built.twin or built
        n = numbers.get(id(built_once))
        if n is None:
            n = numbers[id(built_once)] = held(built_once)
        if n:
            total += n
            hits.append(built.index)
    return total, hits


def _allowed(most: int, per: Per | None, points: int, formations: list[BuiltFormation]) -> tuple[int, str]:
    """The most a limit allows in this army, and how that was worked out."""
    if per is None:
        return most, ""
    if per.points:
        blocks = ceil(points / per.points)
        return most * blocks, f"; {most} per {per.points:,} points or part, and the army is {points:,}"
    if per.factions:
        factions = sorted({f.faction for f in formations if f.faction})
        return most * len(factions), (f"; {most} per faction in the army, and it has {len(factions)}"
                                      + (f" ({', '.join(factions)})" if factions else ""))
    found = len(_matching(formations, per.formations, per.categories))
    basis = " or ".join([*per.formations, *per.categories])
    if per.each > 1:
        return most * ceil(found / per.each), f"; {most} per {per.each} {basis} or part, and the army has {found}"
    return most * found, f"; {most} per {basis}, and the army has {found}"


def _limits(limits: list[Limit], points: int, formations: list[BuiltFormation], findings: FindingList) -> None:
    for limit in limits:
        if limit.per is not None and limit.per.same_faction:
            _limit_by_faction(limit, formations, findings)
            continue
        # an upgrade refused is reported already: it still counts toward a least (the roster names
        # it), never toward a most
        total, hits = _count(limit, formations, refused=True) if limit.min else (0, [])
        if total < limit.min:
            findings.add("limit-short", f"{limit.name}: {total} in the army, at least {limit.min} needed",
                         limit.rule, ("formations",))
        if limit.max is None:
            continue
        total, hits = _count(limit, formations, refused=False)
        allowed, basis = _allowed(limit.max, limit.per, points, formations)
        if total > allowed:
            where = f"in formations {', '.join(f'#{i + 1}' for i in hits)}"
            findings.add("limit-exceeded", f"{limit.name}: {total} in the army, at most {allowed} allowed "
                         f"({where}{basis})", limit.rule,
                         ("formations", hits[allowed]) if len(hits) > allowed else ("formations",))


def _limit_by_faction(limit: Limit, formations: list[BuiltFormation], findings: FindingList) -> None:
    """'Daemon engines Undivided or of the faction of their Cultist coven': each faction's formations
    against that faction's bases, those of `any_faction` left out."""
    per = limit.per
    assert per is not None and limit.max is not None
    counted = _matching(formations, limit.formations, limit.categories)
    bases = _matching(formations, per.formations, per.categories)
    for faction in sorted({f.faction for f in counted if f.faction and f.faction not in per.any_faction}):
        hits = [f.index for f in counted if f.faction == faction]
        allowed = limit.max * sum(1 for f in bases if f.faction == faction)
        if len(hits) > allowed:
            basis = " or ".join([*per.formations, *per.categories])
            findings.add("limit-exceeded", f"{limit.name}: {len(hits)} {faction} in the army, at most {allowed} "
                         f"({limit.max} per {faction} {basis}"
                         + (f"; {', '.join(per.any_faction)} ones go with any" if per.any_faction else "") + ")",
                         limit.rule, ("formations", hits[allowed]))


def _first_with(army: ArmyList, formations: list[BuiltFormation], findings: FindingList) -> None:
    """An upgrade that, once the army takes it, must be in the formation holding certain units."""
    for upgrade in army.upgrades:
        if not upgrade.first_with or not any(upgrade.name in f.upgrades for f in formations):
            continue
        keys = {name_key(u) for u in upgrade.first_with}
        holders = [f for f in formations if any(name_key(s.name) in keys for s in f.kinds())]
        if holders and not any(upgrade.name in f.upgrades for f in holders):  # one of them is enough
            first = holders[0]
            findings.add("upgrade-placement", f"{upgrade.name}: the army takes one, so the first must go to the "
                         f"formation with the {' or '.join(upgrade.first_with)}, {first.name} (#{first.index + 1})",
                         upgrade.rule, ("formations", first.index, "upgrades"))


def _host_order(army: ArmyList, formations: list[BuiltFormation], findings: FindingList) -> None:
    """Characters that must join the best host the army has ('a Great Gargant if any, else...')."""
    if not any(upgrade.hosts_in_order for upgrade in army.upgrades):
        return
    present = _present(formations)
    for upgrade in army.upgrades:
        if not upgrade.hosts_in_order:
            continue
        best = next((group for group in upgrade.hosts_in_order
                     if not group or present & {name_key(u) for u in group}), None)
        if not best:
            continue
        for built in formations:
            for character in built.characters:
                if (character.upgrade == upgrade.name and character.joins
                        and name_key(character.joins.name) not in map(name_key, best)):
                    findings.add("character-placement", f"{character.sheet.name} joins "
                                 f"{a_unit(character.joins.name)}, but the army has {a_unit(' or '.join(best))}, "
                                 f"which it must join", upgrade.rule,
                                 ("formations", built.index, "upgrades", upgrade.name))


def _splits(view: ArmyView, formations: list[BuiltFormation], findings: FindingList) -> None:
    """Units shared out (Baran Sappers) must all be received, and only from a shared-out formation."""
    for definition in (f for v in view.lists() for f in v.army.formations if f.split):
        split = definition.split
        assert split is not None
        sources = [f for f in formations if f.definition is definition and f.shared]
        given = sum(g.count for f in sources for g in f.shared)
        receivers = [f for f in formations if split.upgrade in f.upgrades and split.upgrade not in f.refused]
        received = sum(g.count for f in receivers for g in f.units if g.source == split.upgrade)
        if received != given:
            where = ("formations", sources[0].index) if sources else ("formations", receivers[0].index, "upgrades")
            have = f"{given} are shared out by {definition.name}" if sources else f"no {definition.name} is shared out"
            findings.add("split-unbalanced", f"{split.upgrade}: {received} taken by "
                         f"{' and '.join(sorted({f.name for f in receivers})) or 'no formation'}, but {have}; "
                         f"every unit shared out goes to one of {', '.join(split.among)}",
                         definition.rule or view.army.rule, where)


def _per_army(views: list[ArmyView], formations: list[BuiltFormation], findings: FindingList) -> None:
    indexes: dict[int, list[int]] = {}  # id(definition) -> the indexes of its formations
    for built in formations:
        indexes.setdefault(id(built.definition), []).append(built.index)
    for view in views:
        for definition in view.formations_per_army:
            hits = indexes.get(id(definition), [])
            if len(hits) < definition.min_per_army:
                findings.add("formation-required", f"the army must include "
                             f"{plural(definition.min_per_army, definition.name + ' formation')}; "
                             f"it has {len(hits)}", definition.rule or view.army.rule, ("formations",))
            if definition.max_per_army is None:
                continue
            if len(hits) > definition.max_per_army:
                findings.add("limit-exceeded", f"{plural(len(hits), definition.name + ' formation')}: "
                             f"0-{definition.max_per_army} allowed", definition.rule or view.army.rule,
                             ("formations", hits[definition.max_per_army]))


def _caps(roster: Roster, army: ArmyList, formations: list[BuiltFormation], findings: FindingList) -> list[CapUsage]:
    usages = []
    for cap in army.caps:
        spent = sum(f.points for f in formations if f.army.id in cap.lists or f.definition.category in cap.categories)
        allowed = roster.points * cap.ratio.numerator // cap.ratio.denominator  # rounded down; int * Fraction is slow
        usages.append(CapUsage(cap.name, spent, allowed, cap.rule))
        if spent > allowed:
            findings.add("cap-exceeded", f"{cap.name} cost {spent:,} points; at most {allowed:,} "
                         f"({cap.fraction} of {roster.points:,}) are allowed", cap.rule, ("formations",))
    return usages


def _purchases(roster: Roster, army: ArmyList, formations: list[BuiltFormation],
               findings: FindingList) -> dict[str, tuple[int, int]]:
    bought: dict[str, tuple[int, int]] = {}
    for key, number in roster.purchases.items():
        purchase = _named(key, army.purchases)
        if purchase is None:
            findings.add("unknown-purchase", f"'{key}' is not something {army.name} buys for the whole army"
                         + (f" (it buys: {', '.join(p.name for p in army.purchases)})" if army.purchases else ""),
                         army.rule, ("purchases", key), suggestion=did_you_mean(key, [p.name for p in army.purchases]))
            continue
        allowed, basis = (None, "") if purchase.max is None else _allowed(purchase.max, purchase.per, roster.points,
                                                                          formations)
        if allowed is not None and number > allowed:
            findings.add("limit-exceeded", f"{purchase.name}: {number} bought, at most {allowed} allowed"
                         + (f" ({basis.removeprefix('; ')})" if basis else ""), purchase.rule or army.rule,
                         ("purchases", key))
        if number:
            bought[purchase.name] = (number, number * purchase.cost)  # charged as written, legal or not (D6)
    return bought


# formation index -> the entry built there, what it built and the findings it gave
FormationCache = dict[int, tuple[RosterFormation, BuiltFormation, list[Finding]]]
# (its definition, the entry as JSON) -> the first formation of the roster written so; JSON, not
# ==, since `Ogryns: true` (the whole upgrade) is not `Ogryns: 1`, though True == 1
Twins = dict[tuple[int, bytes], tuple[RosterFormation, BuiltFormation, list[Finding]]]


def _formation(view: ArmyView, main: ArmyView, definition: Formation, entry: RosterFormation, index: int,
               findings: FindingList, reuse: FormationCache | None, twins: Twins | None) -> BuiltFormation:
    """Build one formation, or take it from `reuse` when the very same entry object was built at
    the same place before (an editor replaces the entry it changes and keeps the others), or from
    `twins` when an earlier one in the roster was written exactly alike: a formation is built from
    its entry alone, so its twin differs only in where it stands. `twins` is None for a formation
    the roster has only one of."""
    # the entry's JSON as model_dump_json gives it, without its wrapper's cost (half the whole)
    written = (id(definition), entry.__pydantic_serializer__.to_json(entry)) if twins is not None else None
    hit = reuse.get(index) if reuse is not None else None
    if hit is None or hit[0] is not entry or hit[1].definition is not definition:
        twin = twins.get(written) if twins is not None and written is not None else None
        hit = _moved(twin, entry, index) if twin is not None else None
    if hit is None:
        own = FindingList()
        hit = (entry, _FormationBuilder(view, main, definition, entry, index, own).build(), own.items)
    findings.items.extend(hit[2])
    if twins is not None and written is not None:
        twins.setdefault(written, hit)
    if reuse is not None:
        reuse[index] = hit
    return hit[1]


def _moved(twin: tuple[RosterFormation, BuiltFormation, list[Finding]], entry: RosterFormation, index: int
           ) -> tuple[RosterFormation, BuiltFormation, list[Finding]]:
    """A formation built at another place, and its findings, as `entry` (written alike) gives them
    at `index`. Nothing changes a formation once built, so the two share its units and values."""
    _, built, found = twin
    here: Path = ("formations", index)
    moved = object.__new__(BuiltFormation)  # as copy(built) makes it, at a quarter of the cost
    vars(moved).update(vars(built), index=index, twin=built.twin or built)
    return entry, moved, [
        f.moved(here + f.path[2:]) if f.path[:2] == ("formations", built.index) else f for f in found]


def build(roster: Roster, catalog: Catalog, reuse: FormationCache | None = None) -> RosterResult:
    """Build every formation of `roster` and find every rule it breaks. The roster's game and army
    must exist in the catalog (readers check that first, with a located message). `reuse`, kept
    by the caller between builds, spares building formations whose entries did not change."""
    game = catalog.games[roster.game]
    army = catalog.find_list(roster.game, roster.army)
    assert army is not None
    view = catalog.view(roster.game, army.id)
    findings = FindingList()
    formations: list[BuiltFormation] = []
    twins: Twins = {}
    matches = [view.formations_by_name.get(name_key(entry.type)) for entry in roster.formations]
    times = Counter(id(match[1]) for match in matches if match is not None)  # only one written twice may have a twin
    for index, (entry, match) in enumerate(zip(roster.formations, matches)):
        if match is None:
            purchase = _named(entry.type, army.purchases)
            hint = (f"{a(purchase.name)} is bought for the whole army: purchases: {{{purchase.name}: 1}}" if purchase
                    else did_you_mean(entry.type, [f.name for v in view.lists() for f in v.army.formations]))
            findings.add("unknown-formation", f"'{entry.type}' is not a formation of {army.name} or its allies",
                         army.rule, ("formations", index, "type"), suggestion=hint)
            continue
        formations.append(_formation(match[0], view, match[1], entry, index, findings, reuse,
                                     twins if times[id(match[1])] > 1 else None))
    _requirements(formations, findings)
    _per_army(view.lists(), formations, findings)
    _limits([*game.limits, *army.limits], roster.points, formations, findings)
    _first_with(army, formations, findings)
    _host_order(army, formations, findings)
    _splits(view, formations, findings)
    result = RosterResult(roster, army, formations, findings.items, _caps(roster, army, formations, findings),
                          _purchases(roster, army, formations, findings))
    if result.total > roster.points:
        findings.add("points-over-limit", f"the army costs {result.total:,} points, {result.total - roster.points:,} "
                     f"over the agreed {roster.points:,}", "6.1.1 Points", ("points",))
    if not game.points.min <= roster.points <= game.points.max:
        findings.add("points-limit-unusual", f"the agreed {roster.points:,} points are outside the "
                     f"{game.points.min:,}-{game.points.max:,} the lists were balanced for", game.points.rule,
                     ("points",), severity="warning")
    return result

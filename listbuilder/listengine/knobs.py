"""What a player may set on one formation, offered from the army list's data.

Each knob reads its value from the roster entry (or, where the engine resolved it, from the built
formation) and turns into a new entry when stepped, toggled or picked. Knobs offer what the data
allows a formation to take; whether taking one is legal is asked of the engine (`refusal`), never
worked out here. Nothing in this module imports textual.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal

from ..core.findings import Finding, Path
from ..core.names import name_key
from .armylist import Formation, Range, TransportRule, UnitSlot, Upgrade, UpgradeOption
from .catalog import ArmyView, Catalog
from .engine import BuiltFormation, FormationCache, RosterResult, UnitGroup, build
from .lines import loadout_text
from .roster import CharacterPick, RosterFormation

Kind = Literal["step", "toggle", "choice", "clear"]
# The engine's errors that no later choice of the same setting mends, so that a setting or choice
# that would raise one is refused: more than may be taken, a limit of the army passed (a second
# Supreme Commander), a choice the formation's others exclude (a Drop Pod for a detachment with a
# Hunter), a prerequisite missing (Chimeras before the upgrade they carry). Errors of too few (a
# transport short of room, a choice still to make) and of points are steps on the way: never refused.
REFUSED = frozenset({"quantity-out-of-range", "transport-excess", "limit-exceeded", "too-many-upgrades",
                     "upgrade-prerequisite-missing", "transport-not-allowed", "upgrade-exclusive",
                     "faction-not-allowed"})


@dataclass(frozen=True)
class Choice:
    value: str | None
    label: str
    cost: str = ""
    summary: str = ""
    unit: str | None = None  # the unit it adds, for its datasheet
    reason: str = ""  # why it cannot be chosen as the formation stands ('' if it can)


@dataclass(frozen=True)
class Knob:
    """One setting. `key` is where it lives in the roster entry, with canonical names:
    ("count",), ("composition", unit), ("transport",), ("upgrades", upgrade[, option | "character"
    | "joins"]), ("wargear", unit[, loadout])."""

    key: tuple[str, ...]
    group: str  # shown on the left, once per group: "Dreadnought", "Transport", "Razorback wargear"
    label: str = ""  # the option within the group, when there are several
    summary: str = ""
    cost: str = ""
    reason: str = ""  # why it cannot be taken as the formation stands ('' if it can)
    KIND: ClassVar[Kind] = "step"

    @property
    def kind(self) -> Kind:
        return self.KIND

    @property
    def value(self) -> str:
        raise NotImplementedError

    @property
    def choices(self) -> tuple[Choice, ...]:
        return ()

    @property
    def adds(self) -> list[str]:
        """Units this setting may add to the formation (for their datasheets)."""
        return []

    def step(self, entry: RosterFormation, delta: int) -> RosterFormation | None:
        """The entry with one more (delta 1) or one fewer (-1); None when that changes nothing."""
        return None

    def toggle(self, entry: RosterFormation) -> RosterFormation | None:
        return None

    def pick(self, entry: RosterFormation, value: str | None) -> RosterFormation | None:
        return None

    def covers(self, where: Path) -> bool:
        """Does a finding at `where` (a path inside the formation) concern this knob?"""
        if not where or where[0] != self.key[0]:
            return False
        if len(self.key) == 1 or len(where) == 1:
            return True
        return name_key(str(where[1])) == name_key(self.key[1])

    @property
    def title(self) -> str:
        return f"{self.group}: {self.label}" if self.label else self.group


def _update(entry: RosterFormation, **changes: Any) -> RosterFormation:
    return entry.model_copy(update=changes)


def _names(key: str, name: str, aliases: list[str] | tuple[str, ...] = ()) -> bool:
    """Does a roster's key name `name` (in any case and spacing, or by one of its aliases)?"""
    return name_key(key) in {name_key(n) for n in (name, *aliases)}


def _key_for(mapping: dict[str, Any], name: str, aliases: list[str] | tuple[str, ...] = ()) -> str | None:
    """The key of `mapping` that names `name` (people write names in any case and spacing)."""
    return next((k for k in mapping if _names(k, name, aliases)), None)


def _put(mapping: dict[str, Any], name: str, value: Any, aliases: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """`mapping` with `name` set to `value` (None removes it). A key already there keeps its
    place and its spelling, so a saved file changes only where the player changed something."""
    changed: dict[str, Any] = {}
    placed = False
    for key, old in mapping.items():
        if not _names(key, name, aliases):
            changed[key] = old
        elif value is not None and not placed:
            changed[key] = value
            placed = True
    if value is not None and not placed:
        changed[name] = value
    return changed


def _points(cost: int, each: bool) -> str:
    if cost == 0:
        return "free"
    return f"+{cost} each" if each else f"+{cost}"


def _price(flat: int, per: int, each: bool) -> str:
    """An upgrade's price: its flat cost and its option's: '+150', '+50 each', '+25 +10 each'."""
    if not each:
        return _points(flat + per, False)
    if not flat:
        return _points(per, True)
    return f"+{flat}" + (f" +{per} each" if per else "")


def mix_step(counts: dict[str, int], names: list[str], target: str, delta: int, total: int) -> dict[str, int] | None:
    """Step `target` in a mix of `total` units shared among `names`, keeping the total: a unit
    added is taken from another name, a unit removed goes to the next name. An empty mix
    becomes all `target`; a mix that does not add up yet is only stepped."""
    counts = {name: counts.get(name, 0) for name in names}
    present = sum(counts.values())
    others = names[names.index(target) + 1:] + names[:names.index(target)]
    if delta > 0:
        if present == 0:
            return {target: total}
        if present >= total:
            donor = next((n for n in reversed(others) if counts[n] > 0), None)
            if donor is None:
                return None
            counts[donor] -= 1
        counts[target] += 1
    else:
        if counts[target] == 0:
            return None
        counts[target] -= 1
        if present <= total and others:
            counts[others[0]] += 1
    return {name: n for name, n in counts.items() if n > 0}


def range_step(counts: dict[str, int], target: str, delta: int, least: int, most: int) -> dict[str, int] | None:
    """Step `target` in a slot of `least` to `most` units; an empty slot starts at `least`."""
    counts = dict(counts)
    if sum(counts.values()) == 0:
        counts[target] = least
    elif counts.get(target, 0) + delta < 0 or not least <= sum(counts.values()) + delta <= most:
        return None
    else:
        counts[target] = counts.get(target, 0) + delta
    return {name: n for name, n in counts.items() if n > 0}


@dataclass(frozen=True)
class CopiesKnob(Knob):
    copies: int = 1
    low: int = 1
    high: int | None = None

    @property
    def value(self) -> str:
        return str(self.copies)

    def step(self, entry: RosterFormation, delta: int) -> RosterFormation | None:
        wanted = self.copies + delta
        if wanted < self.low or (self.high is not None and wanted > self.high):
            return None
        return _update(entry, count=wanted)


@dataclass(frozen=True)
class CompositionKnob(Knob):
    """How many of one unit in an 'any mix of' slot; the slot's total is kept."""

    counts: tuple[tuple[str, int], ...] = ()  # the slot's choices, in order, with their numbers
    total: int = 0
    most: int | None = None  # for a slot with a range of sizes: the total may go from `total` to this

    @property
    def value(self) -> str:
        return str(dict(self.counts)[self.key[1]])

    def step(self, entry: RosterFormation, delta: int) -> RosterFormation | None:
        names = [name for name, _ in self.counts]
        if self.most is None:
            mixed = mix_step(dict(self.counts), names, self.key[1], delta, self.total)
        else:
            mixed = range_step(dict(self.counts), self.key[1], delta, self.total, self.most)
        if mixed is None:
            return None
        composition: dict[str, int] = {}
        for written, n in (entry.composition or {}).items():
            unit = _slot_unit(written, names)
            if unit is None:
                composition[written] = n
            elif unit in mixed:
                composition[written] = mixed.pop(unit)  # where and as the player wrote it
        return _update(entry, composition={**composition, **mixed} or None)


def _slot_unit(written: str, choices: list[str]) -> str | None:
    """The choice a composition key names: in full, or by its last words ('Annihilator')."""
    key = name_key(written)
    return next((c for c in choices if name_key(c) == key or name_key(c).endswith("-" + key)), None)


@dataclass(frozen=True)
class FlagKnob(Knob):
    """An upgrade with no units: taken or not."""

    taken: bool = False
    KIND: ClassVar[Kind] = "toggle"

    @property
    def value(self) -> str:
        return "yes" if self.taken else "no"

    def toggle(self, entry: RosterFormation) -> RosterFormation | None:
        return _update(entry, upgrades=_put(entry.upgrades, self.key[1], None if self.taken else True))

    def step(self, entry: RosterFormation, delta: int) -> RosterFormation | None:
        return self.toggle(entry) if self.taken == (delta < 0) else None


@dataclass(frozen=True)
class SplitKnob(FlagKnob):
    """Share a formation's units out among others (Baran Sappers), or field it whole."""

    def toggle(self, entry: RosterFormation) -> RosterFormation | None:
        return _update(entry, split=not self.taken)


@dataclass(frozen=True)
class OptionKnob(Knob):
    """How many of one option of an upgrade that adds (or swaps in) units."""

    upgrade: Upgrade | None = None
    counts: tuple[tuple[str, int], ...] = ()  # every option's label with the number taken

    @property
    def kind(self) -> Kind:
        assert self.upgrade is not None and self.upgrade.count is not None
        single = len(self.upgrade.options) == 1
        return "toggle" if single and (self.upgrade.count.max == 1 or self.upgrade.fixed_count) else "step"

    @property
    def option(self) -> str:
        assert self.upgrade is not None
        return self.key[2] if len(self.key) > 2 else self.upgrade.options[0].label

    @property
    def adds(self) -> list[str]:
        assert self.upgrade is not None
        return [o.unit for o in self.upgrade.options if o.label == self.option]

    @property
    def value(self) -> str:
        taken = dict(self.counts)[self.option]
        return ("yes" if taken else "no") if self.kind == "toggle" else str(taken)

    def step(self, entry: RosterFormation, delta: int) -> RosterFormation | None:
        upgrade = self.upgrade
        assert upgrade is not None and upgrade.count is not None
        counts = dict(self.counts)
        if counts[self.option] + delta < 0:
            return None
        counts[self.option] += delta
        total = sum(counts.values())
        if delta > 0 and total < upgrade.count.min:
            counts[self.option] += upgrade.count.min - total
        elif delta < 0 and 0 < total < upgrade.count.min:
            counts = {}
        if delta > 0 and upgrade.count.max is not None and sum(counts.values()) > upgrade.count.max:
            return None
        taken = {label: n for label, n in counts.items() if n > 0}
        value = (taken[self.option] if len(upgrade.options) == 1 else taken) if taken else None
        return _update(entry, upgrades=_put(entry.upgrades, upgrade.name, value, upgrade.aliases))

    def toggle(self, entry: RosterFormation) -> RosterFormation | None:
        if self.kind != "toggle":
            return None
        return self.step(entry, -1 if dict(self.counts)[self.option] else 1)


@dataclass(frozen=True)
class FieldKnob(Knob):
    """A formation's own choice of one of a few names: its size, or its faction."""

    options: tuple[Choice, ...] = ()
    chosen: str | None = None
    KIND: ClassVar[Kind] = "choice"

    @property
    def value(self) -> str:
        return self.chosen or "—"

    @property
    def choices(self) -> tuple[Choice, ...]:
        return self.options

    def pick(self, entry: RosterFormation, value: str | None) -> RosterFormation | None:
        return None if value is None or value == self.chosen else _update(entry, **{self.key[0]: value})


@dataclass(frozen=True)
class TransportKnob(FieldKnob):
    """The transport option of a formation that has a choice of them."""

    rule: TransportRule | None = None

    @property
    def adds(self) -> list[str]:
        assert self.rule is not None
        return [m.unit for m in self.rule.modes if m.unit]


def _may_join(option: UpgradeOption, host: str) -> bool:
    return not option.joins or name_key(host) in {name_key(unit) for unit in option.joins}


def _offered_in(option: UpgradeOption, built: BuiltFormation) -> bool:
    """Options only for other formations (the Tau Ethereal) are never offered here."""
    return not option.only_in or name_key(built.definition.name) in {name_key(f) for f in option.only_in}


def _other_faction(option: UpgradeOption, built: BuiltFormation) -> str:
    """Why an option of another faction cannot be taken ('' if the faction is no obstacle)."""
    return f"only in a {option.faction} formation" if option.faction not in (None, built.faction) else ""


def _why_not(option: UpgradeOption, built: BuiltFormation, hosts: tuple[str, ...]) -> str:
    """Why the character of `option` cannot be legal in the formation as it stands ('' if it can)."""
    if reason := _other_faction(option, built):
        return reason
    if not any(_may_join(option, host) for host in hosts):
        return f"joins only {' or '.join(option.joins)}: the formation has none yet"
    return ""


@dataclass(frozen=True)
class CharacterKnob(Knob):
    """Which character a character upgrade adds (or none): those the formation may never take
    are left out, those it cannot take as it stands are offered dimmed with the reason."""

    upgrade: Upgrade | None = None
    options: tuple[UpgradeOption, ...] = ()  # the characters the formation may ever take
    unavailable: tuple[tuple[str, str], ...] = ()  # option label -> why it cannot be taken now
    chosen: CharacterPick | None = None
    hosts: tuple[str, ...] = ()  # the units of the formation
    slot: int | None = None  # which of several picks, for an upgrade that adds more than one character
    KIND: ClassVar[Kind] = "choice"

    @property
    def value(self) -> str:
        return self.chosen.character if self.chosen else "none"

    @property
    def choices(self) -> tuple[Choice, ...]:
        why = dict(self.unavailable)
        return (Choice(None, "none"), *(Choice(o.label, o.label, _points(o.cost, False), unit=o.unit,
                                               reason=why.get(o.label, "")) for o in self.options))

    @property
    def adds(self) -> list[str]:
        return [o.unit for o in self.options]

    def pick(self, entry: RosterFormation, value: str | None) -> RosterFormation | None:
        assert self.upgrade is not None
        option = next((o for o in self.options if o.label == value), None)
        pick = None
        if option is not None:
            # the unit it joined stays if the new character may join it, else the first it may
            joins = self.chosen.joins if self.chosen and _may_join(option, self.chosen.joins) else next(
                (h for h in self.hosts if _may_join(option, h)), self.hosts[0] if self.hosts else "")
            pick = CharacterPick(character=option.label, joins=joins)
        upgrades = _put(entry.upgrades, self.upgrade.name, _with_pick(entry, self.upgrade, self.slot, pick),
                        self.upgrade.aliases)
        return None if upgrades == entry.upgrades else _update(entry, upgrades=upgrades)


@dataclass(frozen=True)
class JoinsKnob(Knob):
    """The unit of the formation a chosen character joins: those it may join, then the others
    dimmed with the reason."""

    upgrade: Upgrade | None = None
    option: UpgradeOption | None = None  # the character chosen (None: not one of the upgrade's)
    chosen: CharacterPick | None = None
    hosts: tuple[str, ...] = ()
    slot: int | None = None
    KIND: ClassVar[Kind] = "choice"

    @property
    def value(self) -> str:
        return self.chosen.joins if self.chosen else "—"

    @property
    def choices(self) -> tuple[Choice, ...]:
        option = self.option
        if option is None:
            return tuple(Choice(h, h) for h in self.hosts)
        reason = f"the {option.label} joins only {' or '.join(option.joins)}"
        return (*(Choice(h, h) for h in self.hosts if _may_join(option, h)),
                *(Choice(h, h, reason=reason) for h in self.hosts if not _may_join(option, h)))

    def pick(self, entry: RosterFormation, value: str | None) -> RosterFormation | None:
        assert self.upgrade is not None and self.chosen is not None
        if value is None or value == self.chosen.joins:
            return None
        pick = CharacterPick(character=self.chosen.character, joins=value)
        return _update(entry, upgrades=_put(entry.upgrades, self.upgrade.name,
                                            _with_pick(entry, self.upgrade, self.slot, pick), self.upgrade.aliases))


def _picks(choice: Any) -> list[CharacterPick]:
    if isinstance(choice, CharacterPick):
        return [choice]
    return [p for p in choice if isinstance(p, CharacterPick)] if isinstance(choice, list) else []


def _with_pick(entry: RosterFormation, upgrade: Upgrade, slot: int | None,
               pick: CharacterPick | None) -> CharacterPick | list[CharacterPick] | None:
    """The upgrade's value once pick number `slot` is set (None: removed); a single pick when the
    upgrade adds one character."""
    if slot is None:
        return pick
    written = _key_for(entry.upgrades, upgrade.name, upgrade.aliases)
    picks = _picks(entry.upgrades.get(written) if written else None)
    if pick is None:
        picks = [p for i, p in enumerate(picks) if i != slot]
    elif slot < len(picks):
        picks[slot] = pick
    else:
        picks.append(pick)
    return picks or None


@dataclass(frozen=True)
class LoadoutKnob(Knob):
    """The weapons of a single unit that must choose between loadouts."""

    group_of: UnitGroup | None = None
    KIND: ClassVar[Kind] = "choice"

    @property
    def value(self) -> str:
        assert self.group_of is not None
        return next(iter(self.group_of.wargear), "—")

    @property
    def choices(self) -> tuple[Choice, ...]:
        assert self.group_of is not None
        return tuple(Choice(loadout.name, loadout.name,
                            summary=f"{loadout_text(loadout)}: {', '.join(loadout.weapons)}")
                     for loadout in self.group_of.sheet.loadouts)

    def pick(self, entry: RosterFormation, value: str | None) -> RosterFormation | None:
        if value is None or value == self.value:
            return None
        return _update(entry, wargear=_put(entry.wargear, self.key[1], value))


@dataclass(frozen=True)
class LoadoutMixKnob(Knob):
    """How many units of a group carry one loadout; the group's size is kept."""

    group_of: UnitGroup | None = None

    @property
    def value(self) -> str:
        assert self.group_of is not None
        return str(self.group_of.wargear.get(self.key[2], 0)) if self.group_of.wargear else "—"

    def step(self, entry: RosterFormation, delta: int) -> RosterFormation | None:
        group = self.group_of
        assert group is not None
        names = [loadout.name for loadout in group.sheet.loadouts]
        mixed = mix_step(dict(group.wargear), names, self.key[2], delta, group.count)
        if mixed is None:
            return None
        # All units alike is written the short way: `Razorback: Twin Lascannon`.
        value: str | dict[str, int] = next(iter(mixed)) if len(mixed) == 1 else mixed
        return _update(entry, wargear=_put(entry.wargear, self.key[1], value))


@dataclass(frozen=True)
class ClearKnob(Knob):
    """Something in the roster that the formation does not offer: it can only be removed."""

    KIND: ClassVar[Kind] = "clear"

    @property
    def value(self) -> str:
        return "remove"

    def toggle(self, entry: RosterFormation) -> RosterFormation | None:
        field_name = self.key[0]
        if len(self.key) == 1:
            return _update(entry, **{field_name: None})
        remaining = _put(getattr(entry, field_name) or {}, self.key[1], None)
        if field_name == "composition":
            return _update(entry, composition=remaining or None)
        return _update(entry, **{field_name: remaining})


def _upgrade_knobs(upgrade: Upgrade, entry: RosterFormation, built: BuiltFormation) -> list[Knob]:
    written = _key_for(entry.upgrades, upgrade.name, upgrade.aliases)
    choice = entry.upgrades.get(written) if written else None
    summary = f"{upgrade.summary} [{upgrade.rule}]" if upgrade.rule else upgrade.summary
    if not upgrade.options:
        return [FlagKnob(("upgrades", upgrade.name), upgrade.name, summary=summary, cost=_points(upgrade.cost, False),
                         taken=choice is True or (type(choice) is int and choice > 0))]
    if upgrade.character:
        return _character_knobs(upgrade, choice, built, summary)
    counts = _option_counts(upgrade.options, choice, upgrade.fixed_count or 1)
    single = len(upgrade.options) == 1
    assert upgrade.count is not None
    each = upgrade.count.max != 1
    return [OptionKnob(("upgrades", upgrade.name) if single else ("upgrades", upgrade.name, o.label), upgrade.name,
                       "" if single else o.label, summary=summary, cost=_price(upgrade.cost, o.cost, each),
                       reason=_other_faction(o, built), upgrade=upgrade, counts=counts)
            for o in upgrade.options if _offered_in(o, built)]


def _character_knobs(upgrade: Upgrade, choice: Any, built: BuiltFormation, summary: str) -> list[Knob]:
    """A character and the unit it joins; for an upgrade of several characters, one pair per pick
    and one more to add a pick while fewer than the most are taken."""
    assert upgrade.count is not None
    several = upgrade.count.max is None or upgrade.count.max > 1
    picks = [_canonical_pick(p, upgrade.options) for p in _picks(choice)]
    hosts = tuple(dict.fromkeys(g.sheet.name for g in built.units))
    slots: list[CharacterPick | None] = [*picks] if several else [*picks[:1]] or [None]
    if several and (upgrade.count.max is None or len(picks) < upgrade.count.max):
        slots.append(None)
    options = tuple(o for o in upgrade.options if _offered_in(o, built))
    unavailable = tuple((o.label, why) for o in options if (why := _why_not(o, built, hosts)))
    knobs: list[Knob] = []
    for i, pick in enumerate(slots):
        slot = i if several else None
        name = f"{upgrade.name} {i + 1}" if several else upgrade.name
        suffix = (str(i + 1),) if several else ()
        option = next((o for o in upgrade.options if pick and o.label == pick.character), None)
        knobs.append(CharacterKnob(("upgrades", upgrade.name, "character", *suffix), name, summary=summary,
                                   cost=_points(option.cost, False) if option else "", upgrade=upgrade,
                                   options=options, unavailable=unavailable, chosen=pick, hosts=hosts, slot=slot))
        if pick is not None:
            knobs.append(JoinsKnob(("upgrades", upgrade.name, "joins", *suffix), name, "joins",
                                   summary=f"The unit of the formation the {pick.character} is added to "
                                           f"[2.1.1 Characters]", upgrade=upgrade, option=option, chosen=pick,
                                   hosts=hosts, slot=slot))
    return knobs


def _canonical_pick(pick: CharacterPick, options: list[UpgradeOption]) -> CharacterPick:
    option = next((o for o in options if name_key(pick.character) in (name_key(o.label), name_key(o.unit))), None)
    return CharacterPick(character=option.label, joins=pick.joins) if option else pick


def _option_counts(options: list[UpgradeOption], choice: Any, whole: int) -> tuple[tuple[str, int], ...]:
    """Each option's label with the number the roster takes (0 where it says nothing usable)."""
    counts = {o.label: 0 for o in options}
    if isinstance(choice, bool | int) and len(options) == 1:
        counts[options[0].label] = whole if choice is True else int(choice)
    elif isinstance(choice, str):
        option = next((o for o in options if name_key(choice) in (name_key(o.label), name_key(o.unit))), None)
        if option is not None:
            counts[option.label] = whole
    elif isinstance(choice, dict):
        for written, n in choice.items():
            option = next((o for o in options if name_key(written) in (name_key(o.label), name_key(o.unit))), None)
            if option is not None:
                counts[option.label] += n
    return tuple(counts.items())


def _composition_knobs(definition: Formation, entry: RosterFormation, copies: int) -> list[Knob]:
    knobs: list[Knob] = []
    for slot in definition.units:
        if not slot.chosen_on_roster:
            continue
        names = slot.choice or [slot.unit or ""]
        counts = {name: 0 for name in names}
        for written, n in (entry.composition or {}).items():
            unit = _slot_unit(written, names)
            if unit is not None:
                counts[unit] += n
        sizes = slot.counts()
        least, most = sizes.min * copies, (sizes.max or sizes.min) * copies
        if slot.choice is None and not counts[names[0]]:
            counts[names[0]] = least  # a lone unit with a range starts at its least
        ranged = most if most != least else None
        label = f"Mix of {least}" if ranged is None else f"{least}-{most} units"
        prices = "" if slot.each is None else " at " + ", ".join(f"{slot.price(n)} each" for n in names)
        knobs += [CompositionKnob(("composition", name), label, name,
                                  summary=f"{Range(min=least, max=most).describe()} units, "
                                          f"{'any mix of ' if slot.choice else ''}{', '.join(names)}{prices}"
                                          + (f" [{definition.rule}]" if definition.rule else ""),
                                  cost=f"{slot.price(name)} each" if slot.each else "",
                                  counts=tuple(counts.items()), total=least, most=ranged)
                  for name in names]
    return knobs


def _wargear_knobs(built: BuiltFormation) -> list[Knob]:
    knobs: list[Knob] = []
    for group in built.units:
        loadouts = group.sheet.loadouts
        if not loadouts:
            continue
        name = group.sheet.name
        summary = "; ".join(f"{loadout_text(loadout)}: {', '.join(loadout.weapons)}"
                            for loadout in loadouts) + " [5 Datasheets]"
        if group.count == 1:
            knobs.append(LoadoutKnob(("wargear", name), f"{name} wargear", summary=summary, group_of=group))
        else:
            knobs += [LoadoutMixKnob(("wargear", name, loadout.name), f"{group.count} {name}", loadout.name,
                                     summary=summary, group_of=group) for loadout in loadouts]
    return knobs


def _leftovers(entry: RosterFormation, built: BuiltFormation, offered: list[Knob]) -> list[Knob]:
    """Keys of the entry that no knob sets: upgrades the formation may not take, unknown units..."""
    def covered(field_name: str, written: str | None = None) -> bool:
        return any(k.covers((field_name,) if written is None else (field_name, written)) for k in offered)

    definition = built.definition
    leftovers: list[Knob] = []
    for written in entry.upgrades:
        if not covered("upgrades", written) and not any(_names(written, u.name, u.aliases) for u in built.offers):
            leftovers.append(ClearKnob(("upgrades", written), written,
                                       summary=f"{definition.name} does not offer this"))
    for written in entry.wargear:
        if not covered("wargear", written):
            leftovers.append(ClearKnob(("wargear", written), f"{written} wargear",
                                       summary="No unit of the formation has this choice of weapons"))
    chosen = [name for slot in definition.units if slot.chosen_on_roster for name in slot.choice or [slot.unit or ""]]
    for written in entry.composition or {}:
        if _slot_unit(written, chosen) is None:
            leftovers.append(ClearKnob(("composition", written), written,
                                       summary=f"{definition.name} has no choice of this unit"))
    if entry.count is not None and definition.count is None:
        leftovers.append(ClearKnob(("count",), "Count", summary=f"{definition.name} is fielded as one formation"))
    if entry.transport is not None and definition.transport is None:
        leftovers.append(ClearKnob(("transport",), "Transport", summary=f"{definition.name} has no transport options"))
    return leftovers


def knobs_for(built: BuiltFormation, entry: RosterFormation) -> list[Knob]:
    """Every setting the formation offers, in the order a player goes through them."""
    definition, army = built.definition, built.army
    knobs: list[Knob] = []
    if definition.count is not None:
        price = (" / ".join(f"{n}: {p:,}" for n, p in definition.points.items()) if isinstance(definition.points, dict)
                 else _price_text(definition))
        knobs.append(CopiesKnob(("count",), "Count", summary=f"{definition.name}: {definition.count.describe()} "
                                f"per formation [{definition.rule}]", cost=price, copies=built.copies,
                                low=definition.count.min, high=definition.count.max))
    if definition.factions is not None:
        knobs.append(FieldKnob(("faction",), "Faction", summary=f"The power {definition.name} is devoted to "
                               f"[{definition.rule}]", options=tuple(Choice(f, f) for f in definition.factions),
                               chosen=built.faction))
    if definition.sizes:
        knobs.append(FieldKnob(("size",), "Size", summary=f"{definition.name} comes in these sizes; a bigger one "
                               f"multiplies its units and the most of each upgrade [{definition.rule}]",
                               options=tuple(Choice(z.name, z.name, f"{z.points:,}") for z in definition.sizes),
                               chosen=built.size))
    knobs += _composition_knobs(definition, entry, built.copies)
    if definition.transport is not None:
        rule = next((t for t in army.transports if name_key(t.name) == name_key(definition.transport)), None)
        if rule is not None:
            mode = built.transport_mode or rule.modes[0]
            knobs.append(TransportKnob(("transport",), "Transport",
                                       summary=f"{mode.summary} [{mode.rule or rule.rule}]",
                                       cost=f"+{mode.cost}" if mode.cost else "free", rule=rule,
                                       chosen=built.transport, options=tuple(
                                           Choice(m.name, m.name, f"{m.unit}s free" if m.unit else "", m.summary,
                                                  m.unit)
                                           for m in rule.modes)))
    for upgrade in built.offers:
        knobs += _upgrade_knobs(upgrade, entry, built)
    if definition.split is not None:
        knobs.append(SplitKnob(("split",), "Share out", summary=f"Instead of fielding it, share its units out among "
                               f"{', '.join(definition.split.among)} (they take the {definition.split.upgrade} "
                               f"upgrade) [{definition.rule}]", taken=entry.split))
    knobs += _wargear_knobs(built)
    return knobs + _leftovers(entry, built, knobs)


def refusal(before: RosterResult, index: int, entry: RosterFormation, catalog: Catalog,
            reuse: FormationCache | None = None) -> Finding | None:
    """The engine's verdict on formation `index` of the checked roster `before` becoming `entry`:
    the first error of REFUSED the roster would gain (a code at a place it had none), or None.
    `reuse`: the formations earlier checks built (copied, never written to)."""
    formations = [entry if i == index else f for i, f in enumerate(before.roster.formations)]
    trial = before.roster.model_copy(update={"formations": formations})
    had = {(f.code, f.path) for f in before.findings}
    found = build(trial, catalog, None if reuse is None else dict(reuse)).findings
    return next((f for f in found if f.code in REFUSED and f.severity == "error" and (f.code, f.path) not in had),
                None)


def why(finding: Finding) -> str:
    """A refusal as a reason: the finding's message and its rule."""
    return f"{finding.message} [{finding.rule}]" if finding.rule else finding.message


def judged(knobs: list[Knob], before: RosterResult, index: int, catalog: Catalog,
           reuse: FormationCache | None = None) -> list[Knob]:
    """`knobs` of formation `index`, each setting of which nothing is taken yet with the reason
    taking it would break a rule (see refusal); more of what is taken is judged when asked for."""
    entry = before.roster.formations[index]
    shown = []
    for knob in knobs:
        if not knob.reason and knob.kind in ("step", "toggle") and knob.value in ("0", "no"):
            taken = knob.step(entry, 1)
            found = None if taken is None else refusal(before, index, taken, catalog, reuse)
            knob = knob if found is None else replace(knob, reason=why(found))
        shown.append(knob)
    return shown


def judged_choices(knob: Knob, before: RosterResult, index: int, catalog: Catalog,
                   reuse: FormationCache | None = None) -> tuple[Choice, ...]:
    """The choices of `knob` (of formation `index`), each that would break a rule with the reason."""
    entry = before.roster.formations[index]
    choices = []
    for choice in knob.choices:
        picked = None if choice.reason or choice.label == knob.value else knob.pick(entry, choice.value)
        found = None if picked is None else refusal(before, index, picked, catalog, reuse)
        choices.append(choice if found is None else replace(choice, reason=why(found)))
    return tuple(choices)


def _slot_text(slot: UnitSlot) -> str:
    """'6 Tactical', '4 of Predator Annihilator / Predator Destructor', '4 to 8 Rangers'."""
    what = slot.unit or " / ".join(slot.choice or [])
    return f"{slot.counts().describe()}{'' if slot.unit else ' of'} {what}"


def _price_text(formation: Formation) -> str:
    """'300 pts', '275 / 500 pts', '200 / 350 / 500 pts' (sizes), '25 pts each',
    'Falcon 50 / Fire Prism 65 pts each'."""
    if formation.sizes:
        return " / ".join(f"{z.points:,}" for z in formation.sizes) + " pts"
    if isinstance(formation.points, dict):
        return " / ".join(f"{p:,}" for p in formation.points.values()) + " pts"
    assert formation.points is not None
    each = [s for s in formation.units if s.each]
    if each and not formation.points:
        return " + ".join(" / ".join(f"{n} {p}" for n, p in s.each.items()) if isinstance(s.each, dict)
                          else f"{s.each}" for s in each) + " pts each"
    return f"{formation.points:,} pts" + (" each" if formation.count else "")


@dataclass
class Offer:
    """A formation that can be added, for the browser: its list, price and contents."""

    name: str
    list_name: str
    is_ally: bool
    points: str
    contents: str
    upgrades: list[str] = field(default_factory=list)
    transport: str | None = None
    max_per_army: int | None = None
    category: str | None = None
    units: list[str] = field(default_factory=list)  # every unit it may be made of


def offers(view: ArmyView) -> list[Offer]:
    """Every formation of an army list and of its allies, in list order."""
    found = []
    for army in (v.army for v in view.lists()):
        for f in army.formations:
            units = ", ".join(_slot_text(s) for s in f.units)
            if f.count is not None:
                units = f"{f.count.describe()} × ({units})"
            found.append(Offer(f.name, army.name, army.kind == "allies", _price_text(f), units, list(f.upgrades),
                               f.transport, f.max_per_army, f.category,
                               [name for s in f.units for name in s.choice or [s.unit or ""]]))
    return found


@dataclass
class Found:
    """Something bought inside formations, for search: an upgrade, or a character or unit one of
    its options adds. `where` says which formations may take the upgrade."""

    name: str
    kind: Literal["upgrade", "character", "unit"]
    upgrade: str
    price: str
    where: list[str]
    also: str  # other names it goes by: an option's unit, an upgrade's options


def bought_inside(view: ArmyView) -> list[Found]:
    """Every upgrade of an army list and of its allies, and each character and unit it adds."""
    formations = [f for v in view.lists() for f in v.army.formations]
    found: list[Found] = []
    for army in (v.army for v in view.lists()):
        for upgrade in army.upgrades:
            where = (["any formation"] if upgrade.any_formation else
                     [f.name for f in formations if any(name_key(u) == name_key(upgrade.name) for u in f.upgrades)])
            each = upgrade.count is not None and upgrade.count.max != 1
            prices = (sorted({_price(upgrade.cost, o.cost, each) for o in upgrade.options})
                      or [_points(upgrade.cost, False)])
            found.append(Found(upgrade.name, "upgrade", upgrade.name, " / ".join(prices), where,
                               " ".join(o.label for o in upgrade.options)))
            for option in upgrade.options:
                if name_key(option.label) != name_key(upgrade.name):
                    kind: Literal["character", "unit"] = "character" if upgrade.character else "unit"
                    found.append(Found(option.label, kind, upgrade.name, _price(upgrade.cost, option.cost, each), where,
                                       f"{option.unit} {upgrade.name}"))
    return found

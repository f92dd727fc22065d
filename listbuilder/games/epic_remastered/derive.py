"""Derived data sheets: a base unit plus data sheet modifier abilities (seed 004 L2317-2338).

Modifiers apply in the order the unit's entry writes them, as Table 9 does (L2331-2338), each by
its own section's rule: Cavalry and Jump Packs work from the base unit's first Speed (L2477-2478,
L2741-2742), Assault with Heavy Weapons is one combined change (L2445-2448), Jump Packs change
nothing on a base unit that has them built in (L2731-2735). A value the data leaves out stays
unknown through every change that adds to it; a change that sets a value (Range 15 cm) sets it."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ...core.names import name_key
from .models import UnitSheet

MAX_ARMOUR = 6  # 'It is not possible to get an Armour value greater than 6+' (L1442)
SPEED = re.compile(r"^(\d+)(?:/(\d+))? cm$")
CARRIER = re.compile(r"^(Transport|Hitch) \((\d+|X)\)$")  # X: the capacity is not given

Speed = tuple[int, int | None] | str | None  # (first, second) cm, 'Flyer', or unknown
Value = int | str | None


@dataclass(frozen=True)
class Profile:
    """Characteristics as numbers where they are numbers; None where the data gives no value."""

    type: str | None
    speed: Speed
    range: Value  # cm, '-' for none
    firepower: Value  # a number or a super-heavy weapon
    assault: Value  # a number, or a flyer's Dogfight value '2/2'
    armour: int | None  # the x of x+
    abilities: tuple[str, ...] = ()

    def printed(self) -> dict[str, str]:
        """The columns as the seed prints them; '' for a value the data does not give."""
        return {"Type": self.type or "", "Speed": speed_text(self.speed), "Range": range_text(self.range),
                "Firepower": "" if self.firepower is None else str(self.firepower),
                "Assault": "" if self.assault is None else str(self.assault),
                "Armour": "" if self.armour is None else f"{self.armour}+"}


@dataclass(frozen=True)
class Step:
    """One row of the derivation (Table 9): the modifier and the columns it changed."""

    ability: str
    changed: dict[str, str]


@dataclass(frozen=True)
class DerivedSheet:
    name: str
    sheet: UnitSheet  # the unit's own data sheet (for war engine parts and its source)
    profile: Profile
    base: UnitSheet | None = None
    steps: tuple[Step, ...] = ()
    notes: tuple[str, ...] = ()  # what the abilities mean for it, e.g. Rapid Fire unusable

    @property
    def damage_capacity(self) -> int | None:
        """A war engine's initial Damage Capacity (L3435), a derived unit's from its base."""
        own = self.sheet.damage_capacity
        return own if own is not None or self.base is None else self.base.damage_capacity

    @property
    def carries(self) -> tuple[str, int | None] | None:
        """('Transport', 2) for ·Transport (2)·; the capacity is None where the data leaves it out."""
        for ability in self.profile.abilities:
            match = CARRIER.match(ability)
            if match:
                return match.group(1), None if match.group(2) == "X" else int(match.group(2))
        return None


def speed_text(speed: Speed) -> str:
    if speed is None:
        return ""
    if isinstance(speed, str):
        return speed
    first, second = speed
    return f"{first}/{second} cm" if second is not None else f"{first} cm"


def range_text(value: Value) -> str:
    return "" if value is None else value if isinstance(value, str) else f"{value} cm"


def profile_of(sheet: UnitSheet) -> Profile:
    """A data sheet's stated values."""
    speed: Speed = sheet.speed
    match = SPEED.match(sheet.speed or "")
    if match:
        speed = (int(match.group(1)), int(match.group(2)) if match.group(2) else None)
    range_: Value = sheet.range
    if sheet.range is not None and sheet.range != "-":
        range_ = int(sheet.range.split()[0])
    armour = int(sheet.armour[0]) if sheet.armour else None
    return Profile(sheet.type, speed, range_, sheet.firepower, sheet.assault, armour, tuple(sheet.abilities))


def _plus(value: Value, amount: int) -> Value:
    """A number changed; an unknown value or a super-heavy weapon stays as it is."""
    return value + amount if isinstance(value, int) else value


def _halved(value: Value) -> Value:
    return math.ceil(value / 2) if isinstance(value, int) else value


def _multiplied_speed(base: Profile) -> Speed:
    """Two and three times the base unit's first Speed (Cavalry L2477-2478, Jump Packs L2741-2742)."""
    if isinstance(base.speed, tuple):
        return base.speed[0] * 2, base.speed[0] * 3
    return None


def _has(profile: Profile, ability: str) -> bool:
    return any(name_key(a) == name_key(ability) for a in profile.abilities)


def _added(profile: Profile, ability: str) -> tuple[str, ...]:
    return profile.abilities if _has(profile, ability) else (*profile.abilities, ability)


def apply(current: Profile, ability: str, base: Profile, modifiers: list[str]) -> Profile:
    """One data sheet modifier applied; any other ability is a note and changes nothing."""
    key = name_key(ability)
    both = {name_key(m) for m in modifiers} >= {"assault", "heavy-weapons"}
    if key == "armour-1":  # L2386-2388
        armour = None if current.armour is None else min(MAX_ARMOUR, current.armour + 1)
        return replace(current, armour=armour)
    if key == "assault-1":  # L2428-2430
        return replace(current, assault=_plus(current.assault, 1))
    if key == "assault":  # L2440-2448: with Heavy Weapons, halve then +1 (round up), Range 45 cm
        if both:
            return replace(current, assault=_plus(_halved(current.assault), 1), range=45)
        return replace(current, assault=_plus(current.assault, 1), range=15)
    if key == "cavalry":  # L2475-2479
        return replace(current, speed=_multiplied_speed(base), type="VEH")
    if key == "firepower-1":  # L2564-2566
        return replace(current, firepower=_plus(current.firepower, 1))
    if key.startswith("has-"):  # L2590-2592: 'Has Macro-weapon' fires a Macro-weapon instead
        return replace(current, firepower=ability[4:].strip())
    if key == "heavy-weapons":  # L2612-2616; with Assault the Range and Assault come from L2445-2448
        if both:
            return replace(current, firepower=_plus(current.firepower, 1))
        return replace(current, firepower=_plus(current.firepower, 1), range=45, assault=_halved(current.assault))
    if key == "hero":  # L2626-2629
        return replace(current, assault=_plus(current.assault, current.assault) if isinstance(current.assault, int)
                       else current.assault, abilities=_added(current, "Save"))
    if key == "jump-packs":  # L2731-2742: built into a base unit's Speed already
        return current if _has(base, "Jump Packs") else replace(current, speed=_multiplied_speed(base))
    if key == "long-range":  # L2786-2788
        return replace(current, range=_plus(current.range, 15))
    if key == "short-range":  # L2949-2951
        return replace(current, range=_plus(current.range, -15))
    if key == "support":  # L3011-3015
        firepower = max(current.firepower, 2) if isinstance(current.firepower, int) else current.firepower
        return replace(current, range=15, firepower=firepower, abilities=_added(current, "Close Support"))
    return current


def derive(sheet: UnitSheet, base: UnitSheet | None, extra: Sequence[str] = ()) -> DerivedSheet:
    """The unit's data sheet: its stated values, or its base unit's with its modifiers applied;
    `extra` are abilities an army-list upgrade adds (L2292, L2305), applied after its own."""
    start = profile_of(base) if base is not None else profile_of(sheet)
    modifiers = [*sheet.abilities, *extra] if base is not None else list(extra)
    # a base unit's own modifiers are part of its stated values (L2307, L2733-2735)
    current = replace(start, abilities=(*start.abilities, *modifiers))
    steps = []
    for ability in modifiers:
        after = apply(current, ability, start, modifiers)
        before_cols, after_cols = current.printed(), after.printed()
        changed = {k: v for k, v in after_cols.items() if v != before_cols[k]}
        if changed:
            steps.append(Step(ability, changed))
        current = after
    notes = []
    if _has(current, "Heavy Weapons") and _has(current, "Rapid Fire"):
        notes.append("cannot use Rapid Fire: it has Heavy Weapons (L2909)")
    return DerivedSheet(sheet.name, sheet, current, base, tuple(steps), tuple(notes))


@dataclass
class SheetBook:
    """Every data sheet of an army by name, derived once each (the same unit, the same upgrades)."""

    sheets: dict[str, UnitSheet]
    cache: dict[tuple[str, tuple[str, ...]], DerivedSheet] = field(default_factory=dict)

    def get(self, name: str) -> UnitSheet | None:
        return self.sheets.get(name_key(name))

    def derived(self, name: str, extra: tuple[str, ...] = ()) -> DerivedSheet | None:
        sheet = self.get(name)
        if sheet is None:
            return None
        key = (name_key(name), extra)
        if key not in self.cache:
            self.cache[key] = derive(sheet, self.get(sheet.base) if sheet.base else None, list(extra))
        return self.cache[key]

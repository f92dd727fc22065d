"""Unit datasheets: the statistics printed for every unit a list can field.

Values are carried over from the rules documents as printed; free text (critical hit effects,
notes) is summarised in our own words. Every unit records the seed lines it came from.
"""

# No `from __future__ import annotations` in model modules: pydantic would compile each as text at start-up
import re
from functools import cached_property
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..core.names import name_key

UnitType = Literal["CH", "INF", "LV", "AV", "WE", "AC", "SC", "WE/AC"]
Save = Annotated[str, Field(pattern=r"^([2-6]\+|-)$")]
# "45cm", "(15cm)" for small arms, "b/c" for base contact, "Unlimited", "n/a" (spacecraft)
WEAPON_RANGE = re.compile(r"^(\d+cm|\(\d+cm\)|b/c|Unlimited|n/a)$")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Weapon(Strict):
    name: str
    count: int | str = Field(1, description="copies carried; a range such as '0-1' for loadout weapons")
    range: str = Field(description="45cm, (15cm) for small arms, b/c, Unlimited or n/a")
    firepower: str = Field(description="as printed, e.g. 'AP5+/AT6+', 'Assault, MW, +1A', '2BP, MW, Indirect'")

    @field_validator("range")
    @classmethod
    def _known_range(cls, value: str) -> str:
        if not WEAPON_RANGE.match(value):
            raise ValueError(f"range {value!r} is not one of 45cm, (15cm), b/c, Unlimited, n/a")
        return value


class Compartment(Strict):
    """Room in a transport: `slots` spaces, each carried unit taking the spaces given for it."""

    slots: int = Field(gt=0)
    carries: dict[str, int] = Field(description="unit name -> spaces it takes")
    most: dict[str, int] = Field({}, description="at most this many of some carried units in it ('one of the two "
                                                 "may be a Big Gun')")

    @cached_property
    def most_by_key(self) -> dict[str, int]:
        """`most` by unit name key, a 'faction:' prefix dropped (worked out once: boarding asks often)."""
        most: dict[str, int] = {}
        for cargo, n in self.most.items():
            most.setdefault(name_key(cargo.rpartition(":")[2]), n)
        return most


class Loadout(Strict):
    """One wargear option of a unit that must choose between weapons before the game."""

    name: str
    weapons: list[str] = Field(min_length=1)
    speed: int | None = Field(None, description="cm, when the choice changes it (a Daemon Prince's wings)")
    armour: str | None = Field(None, description="when the choice changes it")
    abilities: list[str] = Field([], description="abilities the choice adds")


class Datasheet(Strict):
    name: str
    id: str | None = None
    faction: str | None = Field(None, description="when it differs from its file's (a Chaos Titan Legion titan "
                                                  "among the Black Legion's units)")
    type: UnitType
    speed: int | None = Field(None, ge=0, description="cm; null for n/a (characters, aircraft, spacecraft)")
    manoeuvre: Literal["F", "B", "FB"] | None = Field(None, description="aircraft manoeuvre class")
    armour: Save | None = None
    close_combat: Save | None = None
    firefight: Save | None = None
    weapons: list[Weapon] = []
    abilities: list[str] = Field([], description="notes as printed, e.g. 'Reinforced Armour', 'Scout'")
    damage_capacity: int | None = Field(None, gt=0)
    void_shields: int | None = Field(None, gt=0)
    power_field: str | None = Field(None, description="dice expression, e.g. 'D3+3'")
    critical_hit: str | None = Field(None, description="critical hit effect, in our own words")
    transport: list[Compartment] = []
    loadouts: list[Loadout] = []
    notes: list[str] = Field([], description="other datasheet notes, in our own words")
    lines: list[int] = Field(min_length=1, description="seed 000 lines the values come from")

    @cached_property
    def room_by_key(self) -> dict[str, dict[int, int]]:
        """Unit name key ('faction:' prefix dropped) -> compartment index -> spaces it takes there.
        Boarding asks this of every carrier for every passenger, so it is worked out once."""
        room: dict[str, dict[int, int]] = {}
        for i, compartment in enumerate(self.transport):
            for cargo, spaces in compartment.carries.items():
                room.setdefault(name_key(cargo.rpartition(":")[2]), {})[i] = spaces
        return room

    @cached_property
    def ability_keys(self) -> frozenset[str]:
        """Its abilities, case folded: the rules ask whether a unit has one over and over."""
        return frozenset(a.casefold() for a in self.abilities)

    @property
    def is_war_engine(self) -> bool:
        return self.type in ("WE", "WE/AC")

    @property
    def is_character(self) -> bool:
        return self.type == "CH"


class DatasheetFile(Strict):
    faction: str
    section: str = Field(description="rulebook section, e.g. '5.1'")
    units: list[Datasheet] = Field(min_length=1)


class Ability(Strict):
    """A special ability as the glossary explains it: our own summary and its rule section."""

    name: str
    summary: str
    rule: str = Field(description="section, e.g. '2.1.9 Reinforced Armour'")
    lines: list[int] = Field(min_length=1)


class AbilityGlossary(Strict):
    abilities: list[Ability] = Field(min_length=1)


def ability_name(printed: str) -> str:
    """'Augment Summoning (+2D3)' is the ability 'Augment Summoning'."""
    return printed.split("(")[0].strip()

"""Epic Remastered files as pydantic models: data sheets (seed 004 L486-545, war engines L3181-3597,
flyers L3605-3612), army lists with their detachment lists (L547-599, L634-679) and rosters.

Characteristics are written as the seed prints them ('10/20 cm', '30 cm', '5+'); `null` means the
seed (or the army list typed in) gives no value, and the PDF leaves an empty box to fill in, as the
seed itself does for war engine weapon choices (L3319). '-' is a value: the unit has none (a Rhino's
Range, L499)."""

# No `from __future__ import annotations` in model modules: pydantic would compile each as text at start-up
from functools import cached_property
from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, PositiveInt

GAME_ID: Final = "epic-remastered"
UnitType = Literal["INF", "VEH", "WE", "FLY"]
Arc = Literal["Front-left 180°", "Front 90°", "Front 180°", "Front-right 180°", "Left 180°", "All Around",
              "Rear 180°", "Right 180°"]  # L3351
# written as the seed writes them: '10/20 cm' or 'Flyer'; '30 cm' or '-'; '4+'; a Dogfight value '2/2'
SpeedText = Annotated[str, Field(pattern=r"^\d+(/\d+)? cm$|^Flyer$")]
RangeText = Annotated[str, Field(pattern=r"^\d+ cm$|^-$")]
ArmourText = Annotated[str, Field(pattern=r"^[1-6]\+$")]
Dogfight = Annotated[str, Field(pattern=r"^\d+/\d+$")]
Points = Annotated[int, Field(ge=0)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Characteristics(Strict):
    """The columns of a data sheet (L496), as printed."""

    type: UnitType | None = Field(None, description="INF, VEH, WE or FLY")
    speed: SpeedText | None = Field(None, description="'10/20 cm' (split: the second for charges), '30 cm', or 'Flyer'")
    range: RangeText | None = Field(None, description="'30 cm', or '-' for none")
    firepower: int | str | None = Field(None, description="a number, or a super-heavy weapon (Barrage, Macro-weapon)")
    assault: int | Dogfight | None = Field(None, description="a number; a flyer's Dogfight value "
                                                            "Intercept/Gunnery, '2/2'")
    armour: ArmourText | None = Field(None, description="'4+'")


class WeaponSystem(Strict):
    name: str | None = Field(None, description="null: the player chooses it (an empty box, L3319)")
    firepower: int | None = Field(None, description="a basic Firepower value (L3317)")
    weapon: str | None = Field(None, description="a super-heavy weapon, e.g. 'Death Ray' (L3315-3316)")
    range: RangeText | None = None


class Mount(Strict):
    name: str = Field(description="where the weapon sits, e.g. 'Left Arm' (L3300-3307)")
    arc: Arc | None = None
    system: WeaponSystem = WeaponSystem()


class Shields(Strict):
    technology: Literal["power fields", "void shields"] | None = None  # L3487-3503
    count: NonNegativeInt | None = Field(None, description="how many at the start of the battle")


class DamageResult(Strict):
    roll: str = Field(description="'2', '3-4' (2D6 for critical, D6 for catastrophic damage)")
    effect: str


class UnitSheet(Characteristics):
    """One unit's data sheet: stated values, or a base unit plus data sheet modifier abilities."""

    name: str
    base: str | None = Field(None, description="the base unit it is derived from (L2317-2338)")
    abilities: list[str] = Field([], description="the Notes: 'Rapid Fire', 'Transport (2)', 'Has Macro-weapon'")
    description: str | None = None
    damage_capacity: PositiveInt | None = Field(None, description="war engines: initial Damage Capacity (L3191)")
    mounts: list[Mount] = []
    shields: Shields | None = None
    critical_damage: list[DamageResult] = Field([], description="2D6 table (L3461); empty: not given")
    catastrophic_damage: list[DamageResult] = Field([], description="D6 table (L3483); empty: not given")
    source: str = Field(description="the seed lines the values come from")


class DatasheetFile(Strict):
    units: list[UnitSheet]


class Upgrade(Strict):
    name: str
    abilities: list[str] = Field(min_length=1, description="what the unit gains (L2292, L2305)")
    points: Points | None = Field(None, description="per unit upgraded")
    max: NonNegativeInt | None = Field(None, description="most units of the detachment that may take it")


class ListEntry(Strict):
    unit: str
    min: NonNegativeInt = 0
    max: NonNegativeInt | None = Field(None, description="per detachment; null: as many as you like (L565)")
    points: Points | None = Field(None, description="per unit")
    transports: list[str] = Field([], description="transport units it may be fielded with, which then carry it")
    upgrades: list[Upgrade] = []


class Group(Strict):
    name: str = Field(description="e.g. Command, Main Force, Support (L567-593)")
    units: list[ListEntry | str]

    @cached_property
    def entries(self) -> list[ListEntry]:
        return [ListEntry(unit=e) if isinstance(e, str) else e for e in self.units]


class DetachmentList(Strict):
    name: str
    chain_of_command: list[list[str] | str] = Field(
        min_length=1, description="most senior first; the first is the HQ; units in one list are equal (L636-642)")
    abilities: list[str] = Field([], description="detachment abilities (L2293)")
    groups: list[Group] = Field(min_length=1)
    source: str = ""

    @cached_property
    def ranks(self) -> list[list[str]]:
        return [[rank] if isinstance(rank, str) else rank for rank in self.chain_of_command]

    @cached_property
    def entries(self) -> list[tuple[str, ListEntry]]:
        return [(group.name, entry) for group in self.groups for entry in group.entries]


class ArmyLimit(Strict):
    """An army-wide limit: at most `max` of a unit (over all detachments) or of a detachment list."""

    unit: str | None = None
    detachment: str | None = None
    max: NonNegativeInt


class ArmyList(Strict):
    id: str
    name: str
    game: Literal["epic-remastered"] = GAME_ID
    strategy_rating: PositiveInt | None = Field(None, description="stated by each army list (L627); null: not given")
    abilities: list[str] = Field([], description="army abilities (L2294)")
    datasheets: list[str] = Field(min_length=1, description="datasheets/epic-remastered/<stem>.yaml files it uses")
    detachments: list[DetachmentList] = Field(min_length=1)
    limits: list[ArmyLimit] = []
    source: str = ""


# --- rosters -------------------------------------------------------------------------------

class Roster(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class TransportPick(Roster):
    unit: str
    count: PositiveInt = 1


class UnitPick(Roster):
    unit: str
    count: PositiveInt = 1
    upgrades: list[str] = Field([], description="upgrades of the list entry every one of these units takes")
    transport: TransportPick | None = Field(None, description="the transports it is fielded with and rides in")


class DetachmentPick(Roster):
    type: str = Field(description="a detachment list of the army list")
    label: str | None = Field(None, description="the player's own name, e.g. Force Gadrel")
    hq: str | None = Field(None, description="which unit leads, where several are equally senior (L642)")
    units: list[UnitPick] = []


class ErRoster(Roster):
    game: Literal["epic-remastered"]  # no default: a saved roster always says its game
    army: str = Field(description="the army list, by id or name")
    name: str = ""
    points: PositiveInt | None = Field(None, description="the agreed points limit, where the army list has points")
    detachments: list[DetachmentPick] = []

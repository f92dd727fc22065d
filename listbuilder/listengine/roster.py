"""A roster: what a player fields, as written in a roster file (names as typed)."""

# No `from __future__ import annotations` in model modules: pydantic would compile each as text at start-up
from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class CharacterPick(Entry):
    character: str = Field(description="which character, e.g. 'Supreme Commander'")
    joins: str = Field(description="the unit of the formation it is added to")


UpgradeChoice = bool | NonNegativeInt | str | dict[str, NonNegativeInt] | CharacterPick | list[CharacterPick]


class RosterFormation(Entry):
    type: str = Field(description="a formation of the army list or of its allies")
    label: str | None = Field(None, description="the player's own name for it")
    count: NonNegativeInt | None = Field(None, description="copies, for formations fielded 1-N at a time")
    size: str | None = Field(None, description="for formations that come in sizes (Ork big, 'uge)")
    faction: str | None = Field(None, description="the faction it declares, where the list has factions")
    composition: dict[str, NonNegativeInt] | None = Field(None, description="unit -> number, for 'any mix of' slots")
    upgrades: dict[str, UpgradeChoice] = Field(
        {}, description="upgrade -> true, a count, an option's name, option counts, or a character pick")
    transport: str | None = Field(None, description="transport option, e.g. Rhino, on foot, Drop Pod")
    wargear: dict[str, str | dict[str, NonNegativeInt]] = Field({}, description="unit -> loadout, or loadout -> number")
    split: bool = Field(False, description="share the units out among other formations, for formations that may")


class Roster(Entry):
    game: str
    army: str
    points: int = Field(gt=0, description="the agreed points limit")
    name: str = ""
    purchases: dict[str, NonNegativeInt] = Field({}, description="army-wide purchases -> number bought")
    formations: list[RosterFormation] = []

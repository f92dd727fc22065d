"""A Warhammer 40,000 roster file: the army's choices of Muster Your Army (seed 001, L2228-2300)
and the Declare Battle Formations choices a roster can record (Leaders, embarked units, Strategic
Reserves, Hover mode; L2334-2342, L2182). Names are as typed; the rules pack resolves them."""

# No `from __future__ import annotations` in model modules: pydantic would compile each as text at start-up
from pydantic import BaseModel, ConfigDict, Field, PositiveInt


class Entry(BaseModel):  # its own, as Epic Remastered's: a 40k check imports none of the list engine's models
    model_config = ConfigDict(extra="forbid", defer_build=True)


class Wh40kUnit(Entry):
    type: str = Field(description="the datasheet name, e.g. 'Intercessor Squad'")
    label: str | None = Field(None, description="the player's own name for it, for `leads` and `embarked_in`")
    models: PositiveInt | None = Field(None, description="how many models (default: the fewest it may have)")
    wargear: dict[str, PositiveInt] = Field(
        {}, description="weapons taken instead of the default loadout -> how many models carry each")
    carried_by: dict[str, dict[str, PositiveInt]] = Field(
        {}, description="which kind of model carries some of `wargear`: a kind of model of the datasheet (or the "
                        "name its kinds share before ' w/') -> weapons of `wargear` -> how many models of it carry "
                        "each, e.g. {'Khorne Berzerker Champion': {'Plasma pistol': 1}}; the rest is placed as the "
                        "data allows")
    options: list[str] = Field(
        [], description="the unit's choices that are not weapons, by the data's name, e.g. 'Cult of Duplicity' "
                        "(a Great Cult) or, where the name alone is ambiguous, 'Sworn Alignment: Freeblade'")
    enhancement: str | None = Field(None, description="an Enhancement of the army's detachment (Characters only)")
    warlord: bool = Field(False, description="this Character is the army's Warlord")
    leads: str | None = Field(None, description="the Bodyguard unit this Leader is attached to (its label or name)")
    embarked_in: str | None = Field(None, description="the Transport it starts embarked in (its label or name)")
    reserves: bool = Field(False, description="it starts in Strategic Reserves (Aircraft always start in Reserves)")
    hover: bool = Field(False, description="an Aircraft with Hover in Hover mode: no longer an Aircraft, it is set "
                                           "up like any unit or placed in Strategic Reserves")


class Wh40kRoster(Entry):
    game: str = Field(description="wh40k-10e")
    faction: str = Field(description="the army's faction: a catalogue name or its Faction keyword")
    battle_size: str = Field(description="Incursion, Strike Force or Onslaught: sets the points limit")
    detachment: str = Field(description="the one set of Detachment rules the army uses")
    name: str = ""
    data: str | None = Field(None, description=(
        "the version of the imported data it was last priced under (`listbuilder reprice -o` writes it): a label "
        "`listbuilder data list` shows; `reprice` compares from it, `check` uses --data, the event's, else the "
        "default"))
    units: list[Wh40kUnit] = []

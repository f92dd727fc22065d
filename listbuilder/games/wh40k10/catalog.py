"""An imported Warhammer 40,000 10th edition catalog: what the rules pack reads.

The user's BattleScribe data (BSData/wh40k-10e) is turned into these models by
`listbuilder.games.wh40k10.importing.bsdata` and installed in the user data folder; nothing here comes
with the project. Everything is resolved at import time, so the rules pack never evaluates
BattleScribe conditions: a unit's points are a table of model count to points, a Leader's list
is a list of datasheet names, an enhancement belongs to one detachment.

Units are kept once in `Wh40kCatalog.units`, keyed by their BSData id (names repeat across
factions: a Space Marine and a Chaos Space Marine Rhino are different datasheets); a faction
lists the ids it may take, its chapter or sub-faction imports included.
"""

# No `from __future__ import annotations` in model modules: pydantic would compile each as text at start-up
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from ...battlescribe.model import GameData
from ...battlescribe.reuse import Reuse
from ...core.names import name_key

GAME_ID: Final = "wh40k-10e"
WEAPON_PROFILES = {"ranged weapons", "melee weapons"}  # the profile types of a weapon in 10th edition data


def weapon_name(profile: str) -> str:
    """The weapon a profile belongs to: '➤ Astartes grenade launcher - krak' -> 'Astartes grenade launcher'."""
    return profile.removeprefix("➤").strip().split(" - ")[0]


def loose_key(name: str) -> str:
    """The key names are matched by: name_key (case, punctuation and straight or curly apostrophes
    ignored) with each word made singular ('Necron Warriors' and 'necron warrior' agree), British
    and American spellings alike ('Armour', 'Armor') and a leading 'The' left out ('The Emperor’s
    Champion' as the app prints the data's 'Emperor's Champion')."""
    words = []
    for word in name_key(name).split("-"):
        if len(word) > 3 and word.endswith("ies"):
            word = word[:-3] + "y"
        elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        if len(word) > 4 and word.endswith("our"):
            word = word[:-3] + "or"
        words.append(word)
    return "-".join(words[1:] if len(words) > 1 and words[0] == "the" else words)


def names_kind(written: str, model: str) -> bool:
    """Whether a kind of model as a roster or a list writes it names the data's kind `model`: by
    its name, or by the name the data's kinds share before ' w/' ('Khorne Berzerker' for 'Khorne
    Berzerker w/ chainblade and plasma pistol', as New Recruit's text writes them; D56)."""
    return loose_key(written) in (loose_key(model), loose_key(model.split(" w/")[0]))


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class BattleSize(Strict):
    name: str = Field(description="Incursion, Strike Force, Onslaught")
    points: int = Field(description="the points limit of that battle size")


class GameSystem(Strict):
    name: str
    revision: int = Field(description="the .gst file's revision")
    battle_sizes: list[BattleSize]


class UnitProfile(Strict):
    """One statistics line of a datasheet (a unit may have several, e.g. a sergeant's)."""

    name: str
    movement: str = Field(description='M as printed, e.g. 6"')
    toughness: str
    save: str
    wounds: str
    leadership: str
    objective_control: str
    invulnerable_save: str | None = Field(None, description="e.g. 4+, where the datasheet gives one")


class Weapon(Strict):
    name: str
    kind: Literal["ranged", "melee"]
    range: str = Field(description='e.g. 24" or Melee')
    attacks: str = Field(description="A, e.g. 2 or D6+1")
    skill: str = Field(description="BS for ranged, WS for melee, e.g. 3+ or N/A")
    strength: str
    armour_penetration: str = Field(description="AP, e.g. -1 or 0")
    damage: str
    keywords: list[str] = Field(default_factory=list, description="e.g. ['Assault', 'Heavy']")


class HiddenBy(Strict):
    """Where the data hides a rule or ability by a condition on the army's primary catalogue (Templar
    Vows, hidden unless the army is Black Templars): evaluated at import for every army of the data
    (DECISIONS.md D33)."""

    catalogues: list[str] = Field(description="catalogue ids (Faction.id)")
    unless: bool = Field(False, description="hidden in every army but these (else: hidden in these)")

    def hides_in(self, faction_id: str) -> bool:
        return (faction_id in self.catalogues) != self.unless


class Ability(Strict):
    name: str
    text: str = Field("", description="the datasheet's text, its markup (^^, **) taken out")
    hidden: HiddenBy | None = Field(None, description="the armies in which the data hides it")
    comes_with: list[list[str]] = Field(default_factory=list, description=(
        "where only wargear options other than the default give it (a relic shield), the weapons of "
        "each: a unit that carries all the weapons of one of them has it (else: always)"))

    def shown_in(self, faction_id: str) -> bool:
        return self.hidden is None or not self.hidden.hides_in(faction_id)


class ModelRange(Strict):
    """One kind of model in a unit, how many of it the unit may have, and what it carries."""

    name: str
    min: int
    max: int
    default_wargear: list[str] = Field(default_factory=list, description="weapon names it comes with")
    wargear: list[str] | None = Field(None, description=(
        "every weapon a model of this kind may carry: its defaults and every option under it, imported as a "
        "choice or not (None: an import that did not record it)"))
    default_weapons: list[str] | None = Field(None, description=(
        "the weapons its default wargear gives, by weapon name (None: an import that did not record it)"))
    fewest: int = Field(0, description=(
        "the fewest of it a unit can have, by constraints no modifier of the data lowers"))
    most: int | None = Field(None, description=(
        "the most of it a unit can have, by constraints no modifier of the data raises (None: unbounded)"))


class WargearChoice(Strict):
    """A choice each model of one kind makes, where the data states it plainly: between `min` and
    `max` of these options (a weapon, or weapons taken together). Choices the data conditions on
    other choices are not imported: the import report counts them."""

    model: str = Field(description="the kind of model that chooses, e.g. 'Intercessor Sergeant'")
    name: str = Field(description="the data's name for the choice, e.g. 'Weapon 1'")
    options: list[str]
    default: list[str] = Field(default_factory=list, description="what the model has unless changed")
    gives: dict[str, list[str]] = Field(default_factory=dict, description=(
        "every weapon each option may give, by weapon name: what a chosen weapon comes through"))
    default_weapons: list[str] = Field(default_factory=list, description=(
        "the weapons the default options give: what a weapon chosen through another option replaces"))
    min: int
    max: int
    exclusive: list[str] = Field(default_factory=list, description=(
        "weapons its model can have only through this choice, no option giving two of them: a model "
        "carries at most `max` of them"))


class WargearLimit(Strict):
    """How many models of a unit may carry a weapon, where the data limits it per unit: a most
    number of selections in the unit on every entry that gives the weapon, perhaps more per so
    many models (DECISIONS.md D24)."""

    weapon: str
    most: dict[int, int] = Field(description="unit size (models) -> the most models that may carry it")


class WargearGroupLimit(Strict):
    """How many of a unit's models may carry any of several weapons, counted together, where the
    data limits per unit an entry that gives each of them and every way to them passes it, one
    selection giving a model at most one of them (DECISIONS.md D26)."""

    weapons: list[str]
    most: dict[int, int] = Field(description="unit size (models) -> the most carriers of them all, summed")


class UnitSize(Strict):
    models: int
    points: int


class LeaderTarget(Strict):
    """A unit a Leader may be attached to, as its Leader ability names it."""

    name: str = Field(description="a datasheet name (or, where the data says so, a keyword list "
                                  "such as 'Imperium Battleline Infantry')")
    condition: str | None = Field(None, description="the footnote that restricts it, e.g. only with "
                                                    "certain wargear")


class LeaderRule(Strict):
    """A Leader's datasheet: whom it may lead, and whether it may join a unit already led."""

    units: list[LeaderTarget]
    alongside: list[str] = Field(default_factory=list, description=(
        "Leaders it may join a bodyguard unit together with, although that unit already has one"))
    alongside_any: bool = Field(False, description=(
        "it may join a bodyguard unit already led by any one other (different) Leader"))


class BodyguardRule(Strict):
    """What a bodyguard's own datasheet allows beyond the Leader lists of the leaders."""

    leaders_of: list[str] = Field(default_factory=list, description=(
        "a Leader that may be attached to one of these units may be attached to this one instead"))
    max_leaders: int = Field(1, description="how many Leaders it may have attached at once")
    max_leaders_from: int | None = Field(None, description=(
        "the Starting Strength from which it may take max_leaders (e.g. 20), if the text sets one"))
    condition: str | None = Field(None, description="the datasheet's proviso on the extra Leader, as written")


class Unit(Strict):
    id: str = Field(description="the BSData entry id")
    name: str
    keywords: list[str] = Field(description="keywords other than faction keywords, e.g. Infantry")
    faction_keywords: list[str] = Field(description="e.g. ['Adeptus Astartes']")
    character: bool = False
    battleline: bool = False
    dedicated_transport: bool = False
    epic_hero: bool = False
    max_in_army: int | None = Field(None, description="the data's own per-roster limit, if any")
    models: list[ModelRange]
    sizes: list[UnitSize] = Field(description=(
        "points for every legal model count, ascending; a per-model unit is resolved the same way"))
    priced_per_model: bool = Field(False, description="the data prices each model, not the unit")
    profiles: list[UnitProfile]
    weapons: list[Weapon] = Field(default_factory=list, description="every weapon on the datasheet")
    wargear_choices: list[WargearChoice] = Field(default_factory=list)
    shared_wargear: list[str] = Field(default_factory=list, description=(
        "weapons the unit's own entries give, outside any model's: any model may carry them"))
    wargear_limits: list[WargearLimit] | None = Field(None, description=(
        "weapons the data limits per unit (None: an import before these were recorded)"))
    wargear_group_limits: list[WargearGroupLimit] | None = Field(None, description=(
        "weapons the data limits per unit together (None: an import before these were recorded)"))
    abilities: list[Ability] = Field(default_factory=list)
    rules: list[str] = Field(default_factory=list, description=(
        "core and army rules the unit has, by name (not its weapons' rules: their keywords say them)"))
    hidden_rules: dict[str, HiddenBy] = Field(default_factory=dict, description=(
        "of `rules`, those the data hides in some armies, by name"))
    leader: LeaderRule | None = None
    bodyguard: BodyguardRule | None = None
    transport: str | None = Field(None, description="the transport capacity text")
    legends: bool = False

    @property
    def min_models(self) -> int:
        return self.sizes[0].models if self.sizes else sum(m.min for m in self.models)

    @property
    def max_models(self) -> int:
        return self.sizes[-1].models if self.sizes else sum(m.max for m in self.models)

    @cached_property
    def carriers(self) -> dict[str, list[ModelRange] | None]:
        """For each weapon of the datasheet (by name_key), the kinds of model that may carry it, or
        None where the data does not bound it: wargear any model may take, or an older import."""
        weapons = {name_key(weapon_name(w.name)) for w in self.weapons}
        if any(model.wargear is None for model in self.models):
            return dict.fromkeys(weapons)
        unbounded = {name_key(w) for w in self.shared_wargear}
        carried = [(model, {name_key(w) for w in model.wargear or ()}) for model in self.models]
        found: dict[str, list[ModelRange] | None] = {}
        for weapon in weapons:
            kinds = [model for model, wargear in carried if weapon in wargear]
            found[weapon] = kinds if kinds and weapon not in unbounded else None
        return found

    @cached_property
    def choices_giving(self) -> dict[str, list[WargearChoice]]:
        """For each weapon that every kind of model that may carry it can have only through one
        choice (`WargearChoice.exclusive`), those choices, by name_key: its carriers are bounded
        together with the other weapons of those choices."""
        exclusive = [(choice, {name_key(w) for w in choice.exclusive}) for choice in self.wargear_choices]
        found: dict[str, list[WargearChoice]] = {}
        for weapon, kinds in self.carriers.items():
            giving = [choice for choice, weapons in exclusive if weapon in weapons]
            if kinds and {k.name for k in kinds} == {c.model for c in giving}:
                found[weapon] = giving
        return found

    @cached_property
    def limits(self) -> dict[str, WargearLimit]:
        """The unit's wargear limits by weapon (name_key)."""
        return {name_key(limit.weapon): limit for limit in self.wargear_limits or ()}

    def rules_in(self, faction_id: str) -> list[str]:
        """The unit's rules shown in an army of this catalogue (the data hides some in some armies)."""
        hidden = self.hidden_rules
        return [r for r in self.rules if r not in hidden or not hidden[r].hides_in(faction_id)]

    def points_for(self, models: int) -> int | None:
        """The points of the unit at that many models, or None if it cannot have that many."""
        for size in self.sizes:
            if size.models == models:
                return size.points
        return None


class Enhancement(Strict):
    name: str
    points: int
    restrictions: str | None = Field(None, description="who may take it, as the data says")
    text: str = ""


class Detachment(Strict):
    name: str
    rules: list[Ability] = Field(default_factory=list, description="the detachment rule(s)")
    enhancements: list[Enhancement] = Field(default_factory=list)


class Faction(Strict):
    """An army one may muster: one catalogue of the data (a chapter, a sub-faction...)."""

    id: str = Field(description="the BSData catalogue id")
    name: str = Field(description="the catalogue's name, e.g. 'Imperium - Blood Angels'")
    faction_keyword: str = Field(description="the army's Faction keyword, e.g. 'Blood Angels'")
    revision: int
    units: list[str] = Field(description=(
        "ids of the units its catalogue offers, in catalog.units: its own, its libraries' and those of "
        "catalogues it imports (a chapter's parent; allies such as Agents of the Imperium, whose "
        "Faction keywords differ from the army's)"))
    detachments: list[Detachment] = Field(default_factory=list)
    army_rules: list[Ability] = Field(default_factory=list, description=(
        "the army rules: rules its catalogue states, and rules of its catalogues that its own units "
        "(those of its Faction keyword) have, those the data hides in this army left out (D33)"))

    @property
    def short_name(self) -> str:
        return self.name.rpartition(" - ")[2]

    supplied_faction_keywords: dict[str, list[str]] = Field(default_factory=dict, description=(
        "Faction keywords of units the data gives none (the Space Marine Drop Pod, shared Legends "
        "units), by unit id: what the data adds for this army, else the army's own keyword"))


class ImportSummary(Strict):
    """What the import read and what it left out (kept with the catalog for `data list`)."""

    catalogues: int
    units: int
    wargear_rules_left_out: int = Field(0, description="wargear option rules that did not map cleanly")
    warnings: int = 0


@dataclass(eq=False)
class EngineData:
    """What the BattleScribe engine evaluates a roster of one faction against: the game system
    and the faction's catalogues as `battlescribe.importing.compile_data` gives them (its
    catalogue first, then those it links), `sources` (file id -> its file and revision, for
    findings' file:line) and the data's revision."""

    game_system: dict[str, Any]
    catalogues: list[dict[str, Any]]
    sources: dict[str, Any]
    revision: str
    built: dict[Any, Any] = field(default_factory=dict)  # what engine_roster built on it, to reuse
    reuse: Reuse = field(default_factory=Reuse)  # what validation found at the units of rosters checked on it
    checked: bool = False  # whether a roster was checked on it (engine_roster: the first keeps nothing in `reuse`)

    @cached_property
    def data(self) -> GameData:
        """The indexed data, built once and shared by every roster checked against it."""
        return GameData(self.game_system, self.catalogues, self.sources, self.revision)


# The importer's version, recorded with what it installs: raised whenever what an import holds
# changes in a way a check relies on, so that data an earlier one installed is told apart (D53).
# 1: foreign detachments (a linked catalogue's entries marked import="false") no longer imported (D49).
# 2: a unit's keywords include those of the models it always has (Chaplain Grimaldus's CHARACTER; D54).
IMPORTER_VERSION: Final = 2


class Wh40kCatalog(Strict):
    game: Literal["wh40k-10e"] = GAME_ID
    data_revision: str = Field(description="the data's revision: a commit, release tag or file revisions")
    importer: int = Field(0, description="the IMPORTER_VERSION that made it (0: an importer before it was recorded)")
    system: GameSystem
    factions: list[Faction]
    units: dict[str, Unit]
    summary: ImportSummary
    # faction id -> its engine data (None: not installed with it); set by whoever loads the catalog
    _engine: Callable[[str], EngineData | None] | None = PrivateAttr(None)
    # `units_by_name` by faction id, with the faction and units it was read from (a copy of the catalog
    # with other units, which shares this dict, reads its own)
    _by_name: dict[str, tuple[Faction, dict[str, Unit], dict[str, Unit]]] = PrivateAttr(default_factory=dict)

    def with_engine(self, engine: Callable[[str], EngineData | None]) -> Self:
        """This catalog, with the way to the engine data of each faction (`engine_data`)."""
        self._engine = engine
        return self

    def engine_data(self, faction: Faction) -> EngineData | None:
        """The data the BattleScribe engine checks a roster of `faction` against; None where the
        catalog was installed without it (by an earlier listbuilder)."""
        return self._engine(faction.id) if self._engine is not None else None

    def faction(self, name: str) -> Faction | None:
        """A faction by catalogue name, short name (after the last ' - ', e.g. 'Blood Angels') or,
        failing those, Faction keyword; case is ignored."""
        wanted = name.casefold()
        by_name = [f for f in self.factions if wanted in (f.name.casefold(), f.short_name.casefold())]
        by_keyword = [f for f in self.factions if f.faction_keyword.casefold() == wanted]
        return next(iter(by_name + by_keyword), None)

    def units_of(self, faction: Faction) -> list[Unit]:
        return [self.units[unit_id] for unit_id in faction.units]

    def faction_keywords_of(self, faction: Faction, unit: Unit) -> list[str]:
        """A unit's Faction keywords when taken in this faction's army."""
        return unit.faction_keywords or faction.supplied_faction_keywords.get(unit.id, [])

    def units_by_name(self, faction: Faction) -> dict[str, Unit]:
        """The faction's datasheets by name, case ignored, the first of a name kept: indexed once
        per faction (every check looks up each unit of its roster)."""
        kept = self._by_name.get(faction.id)
        if kept is not None and kept[0] is faction and kept[1] is self.units:
            return kept[2]
        found: dict[str, Unit] = {}
        for unit in self.units_of(faction):
            found.setdefault(unit.name.casefold(), unit)
        self._by_name[faction.id] = (faction, self.units, found)
        return found

    def unit_named(self, faction: Faction, name: str) -> Unit | None:
        return self.units_by_name(faction).get(name.casefold())

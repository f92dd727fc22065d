"""Army lists: what a faction may field, in a small vocabulary of constraint kinds.

Every rule that can be said in data is said here; docs/list-schema.md documents each kind with
an example. Rule summaries are ours; `rule` cites the section and `lines` the seed lines.
"""

# No `from __future__ import annotations` in model modules: pydantic would compile each as text at start-up
import builtins
from fractions import Fraction
from functools import cached_property
from typing import Literal, Self

from pydantic import Field, field_validator, model_validator

from ..core.names import name_key
from .datasheet import Strict, UnitType


class Range(Strict):
    min: int = Field(0, ge=0)
    max: int | None = Field(None, ge=0)

    def top(self, implied_max: int | None = None) -> int | None:
        """The most allowed: `max`, or less when something else (`implied_max`) allows less."""
        limits = [n for n in (self.max, implied_max) if n is not None]
        return min(limits) if limits else None

    def contains(self, value: int, implied_max: int | None = None) -> bool:
        top = self.top(implied_max)
        return value >= self.min and (top is None or value <= top)

    def describe(self, implied_max: int | None = None) -> str:
        top = self.top(implied_max)
        if top is None:
            return f"at least {self.min}"
        if top < self.min:
            return "none"
        return str(top) if top == self.min else f"{self.min} to {top}"


class Cited(Strict):
    rule: str = Field("", description="section the rule rests on, e.g. '6.3.1 Space Marine Transports'")
    lines: list[int] = Field([], description="seed lines")


class UnitSlot(Strict):
    """`count` units of one type, or of any mix of the `choice` types; a range of counts and the mix
    are chosen on the roster (`composition`)."""

    unit: str | None = None
    choice: list[str] | None = None
    count: int | Range = Field(description="a number, or {min, max} chosen on the roster")
    each: int | dict[str, int] | None = Field(
        None, description="points per unit taken, or per unit type, added to the formation's points")
    alike: bool = Field(False, description="the chosen units must all be of one type")
    most: dict[str, int] = Field({}, description="at most this many of some `choice` types ('0-1 Flakwagon')")

    @model_validator(mode="after")
    def _one_kind(self) -> Self:
        if (self.unit is None) == (self.choice is None):
            raise ValueError("give either `unit` or `choice`")
        if (self.alike or self.most) and not self.choice:
            raise ValueError("`alike` and `most` need `choice`")
        if isinstance(self.count, int) and self.count <= 0:
            raise ValueError("`count` must be positive")
        if isinstance(self.count, Range) and self.count.max is None:
            raise ValueError("a range of units needs `max`")
        return self

    @property
    def chosen_on_roster(self) -> bool:
        return self.choice is not None or isinstance(self.count, Range)

    def counts(self) -> Range:
        return self.count if isinstance(self.count, Range) else Range(min=self.count, max=self.count)

    def price(self, unit: str) -> int:
        if isinstance(self.each, dict):
            return self.each[unit]
        return self.each or 0


class UpgradeOption(Strict):
    unit: str
    name: str | None = Field(None, description="short name used on rosters; defaults to the unit")
    cost: int = Field(0, ge=0, description="points per one taken")
    bundle: int = Field(1, gt=0, description="units each one taken adds ('2 Wildboyz for 25')")
    comes_with: dict[str, int] = Field({}, description="other units each one taken brings ('a Junkatrukk and "
                                                       "a Boyz for 25')")
    joins: list[str] = Field([], description="characters: the units it may join (default: any)")
    most_per_host: dict[str, int] = Field({}, description="characters: at most this many on each unit of these "
                                                          "types (a Big Mek per big gun to upgrade)")
    faction: str | None = Field(None, description="only for a formation of this faction")
    only_in: list[str] = Field([], description="only in these formations (the Tau Ethereal: Fire Warrior Cadres)")

    @property
    def label(self) -> str:
        return self.name or self.unit


class Grant(Strict):
    ability: str
    to: list[str] = Field(min_length=1, description="units of the formation that gain it")


class Upgrade(Cited):
    name: str
    aliases: list[str] = Field([], description="other names rosters may use for it: an older name, or the name "
                                               "the seed prints or another list uses for the same thing")
    summary: str = Field(description="what it does, in our own words")
    cost: int = Field(0, ge=0, description="flat cost, paid once")
    options: list[UpgradeOption] = []
    count: Range | None = Field(None, description="units taken across all options")
    replaces: str | list[str] | None = Field(None, description="each unit taken replaces one of these (of the "
                                                               "first type named while there are any)")
    character: bool = Field(False, description="options are characters added to a unit of the formation")
    carry: Literal["up to need", "whole formation", "exactly"] | None = Field(
        None, description="transports: 'up to need' = at most as many as needed to carry the formation after "
                          "its other transports; 'whole formation' = if any are taken, enough to carry every unit "
                          "they can carry, and no more than one per such unit; 'exactly' = if any are taken, they "
                          "carry every unit they can, with no space to spare that a smaller choice would avoid")
    riders_speed: int | None = Field(None, description="cm: only units moving at most this fast need carrying")
    alike: bool = Field(False, description="all the units taken are of one option ('3 X or 3 Y')")
    needs: list[str] = Field([], description="the formation must also take one of these upgrades (or transport "
                                             "options)")
    exclusive: bool = Field(False, description="a formation taking it may take no other upgrade")
    hosts: str | None = Field(None, description="the character of the upgrade of this name must join the unit "
                                                "this upgrade adds ('the Lord's unit becomes a Daemon Prince')")
    per_unit_of: str | None = Field(None, description="at most one per unit that the upgrade of this name added "
                                                      "('a free Grot per Boyz unit taken'), or else per unit of "
                                                      "this type in the formation")
    hosts_in_order: list[list[str]] = Field(
        [], description="characters: the units it must join, best first; the first group the army has wins "
                        "('a Great Gargant if any, else Nobz or a Gargant'); an empty group means any unit")
    in_largest_formation: bool = Field(False, description="characters: must go to the army's largest formation "
                                                          "(as the game counts size)")
    only_units: list[str] | None = Field(None, description="taken only by a formation holding nothing but these")
    counts_toward_max: bool = Field(True, description="uses one of the formation's `max_upgrades`")
    any_formation: bool = Field(False, description="any formation of the army or its allies may take it, "
                                                   "without naming it in its `upgrades`")
    first_with: list[str] = Field([], description="if the army takes it at all, the formation holding one of "
                                                  "these units must take it")
    grants: Grant | None = None

    @model_validator(mode="after")
    def _coherent(self) -> Self:
        if self.options and self.count is None:
            raise ValueError("an upgrade with options needs `count`")
        if not self.options and (self.count or self.replaces or self.character or self.carry or self.alike):
            raise ValueError("`count`, `replaces`, `character`, `carry` and `alike` need `options`")
        return self

    @property
    def replaced(self) -> list[str]:
        """The unit types it replaces, in the order they are replaced."""
        return [self.replaces] if isinstance(self.replaces, str) else self.replaces or []

    @property
    def fixed_count(self) -> int | None:
        """The number of units taken when the count is fixed ('2 Ogryns'), else None."""
        return self.count.min if self.count and self.count.min == self.count.max else None


class TransportMode(Cited):
    name: str
    unit: str | None = Field(None, description="transport given free, the minimum needed to carry the formation")
    only_units: list[str] | None = Field(None, description="the formation may then hold only these units")
    requires: list[str] = Field([], description="the army must include one of these units")
    rides_in_requires: bool = Field(False, description="the formation's units ride in those units (a spacecraft "
                                                       "for planetfall, a Thunderhawk), which must hold every "
                                                       "formation that does so at once, each whole in one")
    cost: int = Field(0, ge=0, description="flat cost of choosing this mode")
    cost_per_unit: int = Field(0, ge=0, description="points per unit of the formation when this mode is chosen")
    counts_toward_max: bool = Field(False, description="choosing it uses one of the formation's `max_upgrades`")
    all_or_none: bool = Field(False, description="if one formation takes this mode, every formation that "
                                                 "could must take it too")
    may_garrison: bool = Field(True, description="false when a formation using this mode cannot be a garrison")
    terrain: list[str] = Field([], description="terrain pieces that come with the mode, e.g. '3 gun emplacements'")
    summary: str = ""


class TransportRule(Cited):
    name: str
    modes: list[TransportMode] = Field(min_length=1, description="the first is the default")


class Split(Strict):
    """A formation whose units may instead be shared out among other formations (Baran Sappers)."""

    among: list[str] = Field(min_length=1, description="formations that may receive the units")
    upgrade: str = Field(description="the upgrade those formations take to receive them")


class Size(Strict):
    """A size a formation comes in (Ork normal, big, 'uge): its price, and how many times its units
    and its upgrades' limits are multiplied."""

    name: str
    points: int = Field(ge=0)
    scale: int = Field(gt=0)


class Formation(Cited):
    name: str
    aliases: list[str] = Field([], description="other names rosters may use: the seed's printed name, an older one")
    category: str | None = Field(None, description="e.g. company or support, for limits such as support ratios")
    units: list[UnitSlot] = Field(min_length=1)
    points: int | dict[int, int] | None = Field(
        None, description="cost; per copy when `count` is given, or a price per count; units priced `each` add to "
                          "it; not given when the formation has `sizes`")
    initiative: str | None = Field(None, pattern=r"^[1-6]\+$", description="when it differs from the list's")
    count: Range | None = Field(None, description="copies fielded as one formation, e.g. 1-2 Warhounds")
    upgrades: list[str] = []
    upgrade_counts: dict[str, Range] = Field({}, description="an upgrade's count where this formation's row "
                                                             "differs from the upgrade's ('up to 1 Nobz')")
    must_take: list[str] = Field([], description="upgrades it always has ('1 Chaos Space Marine Lord character "
                                                 "upgrade and 8 Chaos Space Marines')")
    max_upgrades: int | None = Field(None, ge=0, description="most upgrades (those that count toward it) taken")
    transport: str | None = Field(None, description="name of a transport rule of the list")
    min_per_army: int = Field(0, ge=0, description="formations the army must include")
    max_per_army: int | None = Field(None, ge=0, description="0-1 and 0-N formations")
    terrain: list[str] = Field([], description="terrain pieces that come with it, e.g. '9 gun emplacements'")
    split: Split | None = None
    sizes: list[Size] = Field([], description="sizes chosen on the roster; the first is the default")
    grants: list[Grant] = Field([], description="abilities its units have, whatever the roster takes "
                                                "('all units count as Scouts')")
    factions: list[str] | None = Field(None, description="the factions it may declare (one is chosen on the roster)")
    unusable_without: list[str] = Field([], description="it may be fielded but not used unless the army includes "
                                                        "one of these units (a warning): the Avatar's Farseer")

    @model_validator(mode="after")
    def _priced_per_count(self) -> Self:
        if self.points is None and not self.sizes:
            raise ValueError("give `points`, or `sizes` with their prices")
        if self.sizes and self.points not in (None, self.sizes[0].points):
            raise ValueError("with `sizes`, `points` may only repeat the first size's price")
        if isinstance(self.points, dict):
            if self.count is None:
                raise ValueError("a price per count needs `count`")
            wanted = set(range(self.count.min, (self.count.max or self.count.min) + 1))
            if set(self.points) != wanted:
                raise ValueError(f"give a price for each count in {sorted(wanted)}")
        return self

    @property
    def names(self) -> list[str]:
        """What a roster may call it: its name, then its aliases."""
        return [self.name, *self.aliases]

    def answers_to(self, name: str) -> bool:
        """Does a roster's `name` (any case and spacing) mean this formation, by its name or an alias?"""
        return name_key(name) in {name_key(n) for n in self.names}

    def price(self, copies: int) -> int:
        if isinstance(self.points, dict):
            return self.points[copies]
        assert self.points is not None, "a formation with sizes is priced by its size"
        return self.points * copies


class Per(Strict):
    """What a limit's `max` is multiplied by: started blocks of agreed points, or matching formations."""

    points: int | None = Field(None, gt=0, description="per this many agreed points, rounding up")
    formations: list[str] = []
    categories: list[str] = []
    each: int = Field(1, gt=0, description="per this many matching formations, rounding up ('1 in 3')")
    factions: bool = Field(False, description="per faction the army's formations declare")
    same_faction: bool = Field(False, description="with `formations`/`categories`: count each faction apart, "
                                                  "against the formations of that faction")
    any_faction: list[str] = Field([], description="with `same_faction`: factions counted against no one "
                                                   "(Undivided)")

    @model_validator(mode="after")
    def _one_basis(self) -> Self:
        bases = [self.points is not None, bool(self.formations or self.categories), self.factions]
        if sum(bases) != 1:
            raise ValueError("give one of `points`, `formations`/`categories` or `factions`")
        return self


class Limit(Cited):
    """At most `max` of the matching units (characters included) or formations in the army,
    optionally `per` so many points or per formation of some kind."""

    name: str
    units: list[str] = []
    unit_types: list[UnitType] = []
    formations: list[str] = []
    categories: list[str] = Field([], description="formations of these categories")
    min: int = Field(0, ge=0, description="at least this many")
    max: int | None = Field(None, ge=0)
    per: Per | None = None

    @model_validator(mode="after")
    def _selects_something(self) -> Self:
        by_unit, by_formation = self.units or self.unit_types, self.formations or self.categories
        if not (by_unit or by_formation):
            raise ValueError("a limit selects `units`, `unit_types`, `formations` or `categories`")
        if by_unit and by_formation:
            raise ValueError("a limit counts either formations or units, not both")
        if self.max is None and not self.min:
            raise ValueError("a limit needs `max`, `min` or both")
        return self


class Cap(Cited):
    """Points spent on the formations of some lists or categories, at most a fraction of the agreed points."""

    name: str
    lists: list[str] = []
    categories: list[str] = []
    fraction: str = Field(pattern=r"^\d+/\d+$")

    @model_validator(mode="after")
    def _selects_something(self) -> Self:
        if not (self.lists or self.categories):
            raise ValueError("a cap counts the formations of `lists` or `categories`")
        return self

    @cached_property
    def ratio(self) -> Fraction:
        return Fraction(self.fraction)


class AllyRef(Strict):
    list: str
    formations: builtins.list[str] | None = Field(None, description="only these formations of the ally list")


class Purchase(Cited):
    """Something bought for the whole army, not a formation: a Wraithgate, daemons for a pool."""

    name: str
    summary: str
    cost: int = Field(ge=0, description="points each")
    max: int | None = Field(None, ge=0, description="most that may be bought")
    per: Per | None = Field(None, description="`max` per so many points or formations (one set of Fortified "
                                              "Positions per company)")
    units: list[str] = Field([], description="the units it brings into play, whose datasheets the roster prints")
    units_by_faction: dict[str, list[str]] = Field(
        {}, description="more such units, for each faction an army's formation declares (a lesser daemon is a "
                        "Bloodletter for Khorne, a Plague Bearer for Nurgle)")
    summoned_by: str | None = Field(None, description="the upgrade that lets a formation bring these units into "
                                                      "play: only the factions of formations with it count")


class MinSpeed(Cited):
    """Every unit moves at least this fast or rides a transport of its formation that does (Speed Freeks)."""

    cm: int = Field(gt=0)


class BreakRule(Cited):
    blast_markers_per_unit: int = Field(1, ge=1)


class ArmyList(Cited):
    id: str
    name: str
    game: str
    kind: Literal["army", "allies"] = "army"
    section: str
    strategy_rating: int | None = Field(None, description="allies use the supported army's")
    initiative: str = Field(pattern=r"^[1-6]\+$")
    datasheets: list[str] = Field(min_length=1, description="datasheet files (stems) the units come from")
    break_rule: BreakRule = BreakRule()
    formations: list[Formation] = Field(min_length=1)
    upgrades: list[Upgrade] = []
    transports: list[TransportRule] = []
    allies: list[AllyRef] = []
    limits: list[Limit] = []
    caps: list[Cap] = []
    spirit_targets: list[str] = Field([], description="formations whose destruction also breaks the army's "
                                                      "spirit, besides the most expensive")
    purchases: list[Purchase] = []
    factions: list[str] = Field([], description="the factions its formations declare (Chaos powers)")
    min_speed: MinSpeed | None = None
    garrison_only: list[str] | None = Field(None, description="only formations made wholly of these units may "
                                                              "garrison")
    summary: str = ""

    @model_validator(mode="after")
    def _army_rated(self) -> Self:
        if self.kind == "army" and self.strategy_rating is None:
            raise ValueError("an army list needs a strategy_rating")
        return self


class PointsRange(Cited):
    min: int
    max: int


class Garrison(Cited):
    """6.1.5: who may be set up as a garrison."""

    scout_share: str = Field("1/2", pattern=r"^\d+/\d+$")
    fast_speed: int = Field(15, description="cm; a unit moving more than this is fast")
    max_fast_units: int = 1


class GameSettings(Strict):
    id: str
    name: str
    system: str | None = Field(None, description="the rules pack for derived values; defaults to the id")
    points: PointsRange
    limits: list[Limit] = []
    garrison: Garrison | None = None

    @field_validator("id")
    @classmethod
    def _slug(cls, value: str) -> str:
        if not value.replace("-", "").isalnum():
            raise ValueError("ids are lower-case words joined by '-'")
        return value

"""All loaded game data, with names resolved and cross-references checked."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.findings import Finding, Path
from ..core.names import did_you_mean, name_key

if TYPE_CHECKING:  # the models are imported with the data: a check of no list-engine game loads neither
    from .armylist import ArmyList, Formation, GameSettings
    from .datasheet import Ability, Datasheet, DatasheetFile

# Which file a reference problem lies in: ("lists", game, list_id) or ("datasheets", game, stem).
Source = tuple[str, str, str]


@dataclass
class ArmyView:
    """One army list with its units resolved, and the ally lists it may draw on."""

    army: ArmyList
    units: dict[str, Datasheet]
    allies: list[ArmyView] = field(default_factory=list)
    # what the engine works out once per formation of the view (listengine.engine._menu), by id(formation)
    menus: dict[int, Any] = field(default_factory=dict, repr=False, compare=False)

    def unit(self, name: str) -> Datasheet | None:
        return self.units.get(name_key(name))

    def lists(self) -> list[ArmyView]:
        return [self, *self.allies]

    @cached_property
    def formations_per_army(self) -> list[Formation]:
        """Its formations that an army must include, or may include only so many of."""
        return [f for f in self.army.formations if f.min_per_army or f.max_per_army is not None]

    @cached_property
    def formations_by_name(self) -> dict[str, tuple[ArmyView, Formation]]:
        """What each formation's name or alias (as a name key) means, the army's own first."""
        by_name: dict[str, tuple[ArmyView, Formation]] = {}
        for view in self.lists():
            for formation in view.army.formations:
                for name in formation.names:
                    by_name.setdefault(name_key(name), (view, formation))
        return by_name


V = TypeVar("V")


class ShippedPart(Mapping[str, V]):
    """One part of the shipped list-engine data (its settings, lists, datasheets or glossary) by game:
    which games it may hold is known at once, its content is loaded (`load`, with the other parts) on
    first look into one of them, so that a roster of no such game never loads it."""

    def __init__(self, games: frozenset[str], load: Callable[[], Mapping[str, V]]) -> None:
        self._games, self._load = games, load

    def __contains__(self, game: object) -> bool:
        return game in self._games and game in self._load()

    def __getitem__(self, game: str) -> V:
        if game not in self._games:
            raise KeyError(game)
        return self._load()[game]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


@dataclass
class Catalog:
    """All game data, by game: the shipped settings, army lists, datasheets and glossary of the
    list-engine games (the data layer gives ShippedParts, loaded on first use), and what is loaded
    on first use (the user's imported data, packs with models of their own)."""

    games: Mapping[str, GameSettings] = field(default_factory=dict)
    lists: Mapping[str, dict[str, ArmyList]] = field(default_factory=dict)  # game -> id -> list
    datasheets: Mapping[str, dict[str, DatasheetFile]] = field(default_factory=dict)  # game -> stem -> file
    abilities: Mapping[str, dict[str, Ability]] = field(default_factory=dict)  # game -> name key -> glossary entry
    _ceilings: dict[str, int] = field(default_factory=dict, repr=False, compare=False)  # count_ceiling's answers
    # view's answers, by (game, army id); not an argument, so that a copy made with other data starts afresh
    _views: dict[tuple[str, str], ArmyView] = field(default_factory=dict, init=False, repr=False, compare=False)
    data_version: str = field(default="", compare=False)  # which data it was loaded from (data.catalog.data_version)
    # Data the user imported (a 40k catalog from BattleScribe files), by game: loaded on first use
    # by `load_installed`, which the data layer sets, so that checking an Epic roster never reads it.
    installed: dict[str, Any] = field(default_factory=dict)
    # As much of it as a roster of one faction needs, by (game, faction): what a check loads
    installed_parts: dict[tuple[str, str], Any] = field(default_factory=dict)
    # Shipped data a game's system reads in its own models (core.system.GameData), by game: parsed
    # on first use by `load_pack`, which the data layer sets, for the same reason.
    packs: dict[str, Any] = field(default_factory=dict)
    load_installed: Callable[[str, str | None], Any] | None = field(default=None, compare=False, repr=False)
    load_pack: Callable[[str], Any] | None = field(default=None, compare=False, repr=False)

    def imported(self, game: str, faction: str | None = None) -> Any | None:
        """The user's data of `game`; with `faction`, perhaps only what a roster of it needs (the
        whole, where it is loaded already)."""
        if game in self.installed or self.load_installed is None:
            return self.installed.get(game)
        if faction is None:
            self.installed[game] = self.load_installed(game, None)
            return self.installed[game]
        if (game, faction) not in self.installed_parts:
            self.installed_parts[game, faction] = self.load_installed(game, faction)
        return self.installed_parts[game, faction]

    def pack(self, game: str) -> Any | None:
        if game not in self.packs and self.load_pack is not None:
            self.packs[game] = self.load_pack(game)
        return self.packs.get(game)

    def ability(self, game: str, printed: str) -> Ability | None:
        from .datasheet import ability_name

        return self.abilities.get(game, {}).get(name_key(ability_name(printed)))

    def army_ids(self, game: str) -> list[str]:
        return sorted(i for i, a in self.lists.get(game, {}).items() if a.kind == "army")

    def find_list(self, game: str, name: str) -> ArmyList | None:
        for army in self.lists.get(game, {}).values():
            if name_key(name) in (name_key(army.id), name_key(army.name)):
                return army
        return None

    def units_of(self, game: str, stems: list[str]) -> dict[str, Datasheet]:
        units: dict[str, Datasheet] = {}
        files = self.datasheets.get(game, {})
        for stem in stems:
            for sheet in files[stem].units if stem in files else []:
                units.setdefault(name_key(sheet.id or sheet.name), sheet)
                units.setdefault(name_key(sheet.name), sheet)
        return units

    def view(self, game: str, army_id: str) -> ArmyView:
        if (game, army_id) not in self._views:
            self._views[game, army_id] = self._view(game, army_id)
        return self._views[game, army_id]

    def _view(self, game: str, army_id: str) -> ArmyView:
        army = self.lists[game][army_id]
        allies = []
        for ref in army.allies:
            ally = self.lists[game][ref.list]
            if ref.formations is not None:
                wanted = {name_key(n) for n in ref.formations}
                ally = ally.model_copy(update={"formations": [f for f in ally.formations
                                                              if name_key(f.name) in wanted]})
            allies.append(ArmyView(ally, self.units_of(game, ally.datasheets)))
        return ArmyView(army, self.units_of(game, army.datasheets), allies)

    def count_ceiling(self, game: str) -> int:
        """The most any one count on a roster of `game` can legally be: the largest maximum its lists
        give (times the largest size), or as many of the cheapest priced thing as the game's largest
        points limit buys. A count beyond it is refused before the engine builds a unit for it."""
        if game in self._ceilings:
            return self._ceilings[game]
        lists = self.lists.get(game, {}).values()
        slots = [s.counts() for army in lists for f in army.formations for s in f.units]
        ranges = [*slots, *(f.count for army in lists for f in army.formations if f.count),
                  *(u.count for army in lists for u in army.upgrades if u.count)]
        maxima = [r.max for r in ranges if r.max is not None]
        maxima += [p.max for army in lists for p in army.purchases if p.max is not None]
        scale = max((z.scale for army in lists for f in army.formations for z in f.sizes), default=1)
        prices = [o.cost for army in lists for u in army.upgrades for o in u.options if o.cost > 0]
        prices += [p.cost for army in lists for p in army.purchases if p.cost > 0]
        prices += [f.points for army in lists for f in army.formations if isinstance(f.points, int) and f.points > 0]
        settings = self.games.get(game)
        bought = settings.points.max // min(prices) if settings and prices else 0
        self._ceilings[game] = max(max([*maxima, 1]) * scale, bought)
        return self._ceilings[game]

    def check_references(self) -> list[tuple[Source, Finding]]:
        """Every name in the data that points nowhere, located by file and path."""
        problems: list[tuple[Source, Finding]] = []
        for game, files in self.datasheets.items():
            for stem, sheet_file in files.items():
                problems += [(("datasheets", game, stem), f)
                             for f in _check_datasheet_file(self, game, stem, sheet_file)]
        for game, lists in self.lists.items():
            if game not in self.games:
                continue
            for list_id, army in lists.items():
                problems += [(("lists", game, list_id), f) for f in _check_list(self, game, army)]
        return problems


def _missing(kind: str, name: str, path: Path, known: list[str]) -> Finding:
    return Finding("unknown-reference", f"{kind} '{name}' is not defined", path=path,
                   suggestion=did_you_mean(name, known))


def _check_datasheet_file(catalog: Catalog, game: str, stem: str, sheet_file: DatasheetFile) -> list[Finding]:
    found: list[Finding] = []
    seen: set[str] = set()
    for i, sheet in enumerate(sheet_file.units):
        key = name_key(sheet.name)
        if key in seen:
            found.append(Finding("duplicate-name", f"unit '{sheet.name}' is defined twice", path=("units", i, "name")))
        seen.add(key)
        weapon_names = {name_key(w.name) for w in sheet.weapons}
        for j, loadout in enumerate(sheet.loadouts):
            for k, weapon in enumerate(loadout.weapons):
                if name_key(weapon) not in weapon_names:
                    found.append(_missing("weapon", weapon, ("units", i, "loadouts", j, "weapons", k),
                                          [w.name for w in sheet.weapons]))
        for j, compartment in enumerate(sheet.transport):
            for cargo in compartment.carries:
                other, _, unit = cargo.rpartition(":")
                pool = catalog.units_of(game, [other or stem])
                if name_key(unit) not in pool:
                    found.append(_missing("unit", cargo, ("units", i, "transport", j, "carries", cargo),
                                          [s.name for s in pool.values()]))
    return found


def _check_list(catalog: Catalog, game: str, army: ArmyList) -> list[Finding]:
    found: list[Finding] = []
    stems = catalog.datasheets.get(game, {})
    lists = catalog.lists.get(game, {})
    for i, stem in enumerate(army.datasheets):
        if stem not in stems:
            found.append(_missing("datasheet file", stem, ("datasheets", i), list(stems)))
    allies = []
    for i, ref in enumerate(army.allies):
        ally = lists.get(ref.list)
        if ally is None or ally.kind != "allies":
            found.append(_missing("ally list", ref.list, ("allies", i, "list"),
                                  [a.id for a in lists.values() if a.kind == "allies"]))
            continue
        allies.append(ally)
        names = [f.name for f in ally.formations]
        for j, formation_name in enumerate(ref.formations or []):
            if name_key(formation_name) not in {name_key(n) for n in names}:
                found.append(_missing("formation", formation_name, ("allies", i, "formations", j), names))
    units = catalog.units_of(game, army.datasheets)
    every_unit = dict(units)
    for ally in allies:
        every_unit.update(catalog.units_of(game, ally.datasheets))

    def unit(name: str, path: Path, pool: dict[str, Datasheet] = units) -> None:
        if name_key(name) not in pool:
            found.append(_missing("unit", name, path, sorted({s.name for s in pool.values()})))

    own_formations = [f.name for f in army.formations] + [f.name for a in allies for f in a.formations]
    categories = sorted({f.category for f in army.formations if f.category})

    def formation_named(name: str, path: Path, category: bool = False) -> None:
        known = categories if category else own_formations
        if name_key(name) not in {name_key(n) for n in known}:
            found.append(_missing("formation category" if category else "formation", name, path, known))

    upgrade_names = {name_key(u.name) for u in army.upgrades}
    transport_names = {name_key(t.name) for t in army.transports}
    for i, formation in enumerate(army.formations):
        for j, slot in enumerate(formation.units):
            for k, name in enumerate([slot.unit] if slot.unit else slot.choice or []):
                unit(name, ("formations", i, "units", j, "unit" if slot.unit else "choice")
                     + (() if slot.unit else (k,)))
            priced = slot.each if isinstance(slot.each, dict) else {}
            for key, names in (("each", list(priced)), ("most", list(slot.most))):
                for name in names:
                    if name_key(name) not in {name_key(c) for c in slot.choice or [slot.unit or ""]}:
                        found.append(_missing("unit of the slot", name, ("formations", i, "units", j, key, name),
                                              slot.choice or [slot.unit or ""]))
            if isinstance(slot.each, dict) and set(map(name_key, priced)) != set(map(name_key, slot.choice or [])):
                found.append(Finding("unknown-reference", "give a price for every unit of the choice",
                                     path=("formations", i, "units", j, "each")))
        for j, upgrade_name in enumerate(formation.must_take):
            if name_key(upgrade_name) not in {name_key(u) for u in formation.upgrades}:
                found.append(_missing("upgrade of the formation", upgrade_name, ("formations", i, "must_take", j),
                                      formation.upgrades))
        for upgrade_name in formation.upgrade_counts:
            if name_key(upgrade_name) not in {name_key(u) for u in formation.upgrades}:
                found.append(_missing("upgrade of the formation", upgrade_name,
                                      ("formations", i, "upgrade_counts", upgrade_name), formation.upgrades))
        for j, upgrade_name in enumerate(formation.upgrades):
            if name_key(upgrade_name) not in upgrade_names:
                found.append(_missing("upgrade", upgrade_name, ("formations", i, "upgrades", j),
                                      [u.name for u in army.upgrades]))
        for j, name in enumerate(formation.unusable_without):
            unit(name, ("formations", i, "unusable_without", j))
        if formation.transport and name_key(formation.transport) not in transport_names:
            found.append(_missing("transport rule", formation.transport, ("formations", i, "transport"),
                                  [t.name for t in army.transports]))
        if formation.split:
            if name_key(formation.split.upgrade) not in upgrade_names:
                found.append(_missing("upgrade", formation.split.upgrade, ("formations", i, "split", "upgrade"),
                                      [u.name for u in army.upgrades]))
            for j, name in enumerate(formation.split.among):
                formation_named(name, ("formations", i, "split", "among", j))
    for i, purchase in enumerate(army.purchases):
        if purchase.summoned_by and name_key(purchase.summoned_by) not in upgrade_names:
            found.append(_missing("upgrade", purchase.summoned_by, ("purchases", i, "summoned_by"),
                                  [u.name for u in army.upgrades]))
        for j, name in enumerate(purchase.units):
            unit(name, ("purchases", i, "units", j))
        for faction, names in purchase.units_by_faction.items():
            for j, name in enumerate(names):
                unit(name, ("purchases", i, "units_by_faction", faction, j))
    modes = [m.name for t in army.transports for m in t.modes]
    for i, upgrade in enumerate(army.upgrades):
        for j, name in enumerate(upgrade.needs):
            if name_key(name) not in upgrade_names | {name_key(m) for m in modes}:
                found.append(_missing("upgrade or transport option", name, ("upgrades", i, "needs", j),
                                      [u.name for u in army.upgrades] + modes))
        for j, option in enumerate(upgrade.options):
            for k, name in enumerate(option.joins):
                unit(name, ("upgrades", i, "options", j, "joins", k))
            for name in option.most_per_host:
                unit(name, ("upgrades", i, "options", j, "most_per_host", name))
            for name in option.comes_with:
                unit(name, ("upgrades", i, "options", j, "comes_with", name))
        for j, name in enumerate(upgrade.only_units or []):
            unit(name, ("upgrades", i, "only_units", j))
        if upgrade.hosts and name_key(upgrade.hosts) not in upgrade_names:
            found.append(_missing("upgrade", upgrade.hosts, ("upgrades", i, "hosts"), [u.name for u in army.upgrades]))
        if upgrade.per_unit_of and name_key(upgrade.per_unit_of) not in upgrade_names:
            unit(upgrade.per_unit_of, ("upgrades", i, "per_unit_of"))
        for j, name in enumerate(upgrade.first_with):
            unit(name, ("upgrades", i, "first_with", j), every_unit)
        for j, option in enumerate(upgrade.options):
            unit(option.unit, ("upgrades", i, "options", j, "unit"))
        for j, name in enumerate(upgrade.replaced):
            unit(name, ("upgrades", i, "replaces") + ((j,) if isinstance(upgrade.replaces, list) else ()))
        for j, name in enumerate(upgrade.grants.to if upgrade.grants else []):
            unit(name, ("upgrades", i, "grants", "to", j))
    for i, rule in enumerate(army.transports):
        for j, mode in enumerate(rule.modes):
            if mode.unit:
                unit(mode.unit, ("transports", i, "modes", j, "unit"))
            for k, name in enumerate(mode.only_units or []):
                unit(name, ("transports", i, "modes", j, "only_units", k))
            for k, name in enumerate(mode.requires):
                unit(name, ("transports", i, "modes", j, "requires", k), every_unit)
    for i, limit in enumerate(army.limits):
        for j, name in enumerate(limit.units):
            unit(name, ("limits", i, "units", j), every_unit)
        for key, names in (("formations", limit.formations), ("categories", limit.categories)):
            for j, name in enumerate(names):
                formation_named(name, ("limits", i, key, j), key == "categories")
        for key, names in (("formations", limit.per.formations if limit.per else []),
                           ("categories", limit.per.categories if limit.per else [])):
            for j, name in enumerate(names):
                formation_named(name, ("limits", i, "per", key, j), key == "categories")
    for i, name in enumerate(army.spirit_targets):
        formation_named(name, ("spirit_targets", i))
    for i, name in enumerate(army.garrison_only or []):
        unit(name, ("garrison_only", i))
    for i, cap in enumerate(army.caps):
        for j, list_id in enumerate(cap.lists):
            if list_id not in lists:
                found.append(_missing("list", list_id, ("caps", i, "lists", j), list(lists)))
        for j, name in enumerate(cap.categories):
            formation_named(name, ("caps", i, "categories", j), True)
    return found

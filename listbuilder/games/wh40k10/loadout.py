"""A 40k unit's wargear as the engine's selection tree holds it (engine_roster.py): what `export`
writes as the official app lists it, and what the data gives a unit by default, which `import`
does not carry into a roster (DECISIONS.md D46)."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from ...battlescribe.editor import Editor
from ...battlescribe.evaluate import Context
from ...battlescribe.model import Option
from ...battlescribe.roster import Selection
from ...core.names import name_key
from .catalog import Faction, Unit, Wh40kCatalog, loose_key, weapon_name
from .engine_roster import SelectionTree, is_weapon, selection_tree, unit_models
from .roster import Wh40kRoster, Wh40kUnit

Line = tuple[int, str]  # a unit's bullet line: its level (0: '•'; 1: '◦', under the model line above), its text


def models_of(unit: Selection) -> list[Selection]:
    """A unit's model selections (within an entry of its composition too); a unit that is its one
    model is itself."""
    return [unit] if unit.option.type == "model" else unit_models(unit)


@dataclass
class Gear:
    """What selections carry, named as the app names it: weapons (the datasheet's, by the weapon's
    name; else an entry with a weapon's profile) and the other entries that hold no weapon (a
    Dispersion shield, an Allegiance); not the entries that only group weapons, nor models, nor
    the selections `own` names (the Warlord and the Enhancement: lines of their own)."""

    datasheet: Unit
    own: AbstractSet[str] = frozenset()

    def __post_init__(self) -> None:
        self.weapons = {loose_key(weapon_name(w.name)): weapon_name(w.name) for w in reversed(self.datasheet.weapons)}

    def counted(self, holders: list[Selection]) -> dict[str, int]:
        """Each thing the holders carry and how many of it, in the app's (alphabetical) order."""
        counts: dict[str, int] = {}
        for holder in holders:
            for selection, name in self._found(holder):
                counts[name] = counts.get(name, 0) + selection.total_number
        return dict(sorted(counts.items(), key=lambda item: item[0].casefold()))

    def _found(self, holder: Selection) -> list[tuple[Selection, str]]:
        found: list[tuple[Selection, str]] = []
        for child in holder.children:
            weapon = self.weapons.get(loose_key(child.option.name))
            if child.id in self.own or child.option.type in ("model", "unit"):
                continue
            if weapon is not None or is_weapon(child.option):
                found.append((child, weapon or child.option.name))
            elif child.children:
                found += self._found(child)
            else:
                found.append((child, child.option.name))
        return found

    def lines(self, unit: Selection) -> list[Line]:
        """The unit's wargear as the app lists it: what it carries outside its models, then each
        kind of model with its count (its one leader, a Sergeant, first; then the data's order)
        and what its models carry, with how many carry each. A unit of one model: its wargear
        alone."""
        models = models_of(unit)
        lines = [(0, f"{count}x {name}") for name, count in self.counted(
            [unit] if unit.option.type != "model" else []).items()]
        if sum(m.total_number for m in models) == 1:
            return lines + [(0, f"{count}x {name}") for name, count in self.counted(models).items()]
        kinds: dict[str, list[Selection]] = {}
        for model in models:
            kinds.setdefault(model.option.name, []).append(model)
        ranges = {m.name: (i, m.min == m.max == 1) for i, m in enumerate(self.datasheet.models)}
        for name in sorted(kinds, key=lambda name: (not ranges.get(name, (0, False))[1],
                                                    ranges.get(name, (len(ranges), False))[0])):
            lines.append((0, f"{sum(m.total_number for m in kinds[name])}x {name}"))
            lines += [(1, f"{count}x {gear}") for gear, count in self.counted(kinds[name]).items()]
        return lines

    def carried(self, unit: Selection) -> dict[str, int]:
        """All the unit carries, by name_key: how many of its models carry each."""
        counts: dict[str, int] = {}
        holders = [unit, *(m for m in models_of(unit) if m is not unit)]
        for name, count in self.counted(holders).items():
            counts[name_key(name)] = counts.get(name_key(name), 0) + count
        return counts


@dataclass(frozen=True)
class UnitGear:
    """What a unit built with the data's defaults and some `wargear` carries: each weapon and
    other wargear by name_key, with how many of its models carry it; and the weapons (by
    name_key) of the choices it leaves unmade."""

    carried: dict[str, int]
    unchosen: frozenset[str] = frozenset()


def unit_gear(data: Wh40kCatalog, faction: Faction, army: Wh40kRoster, unit: Unit, models: int,
              wargear: dict[str, int]) -> UnitGear:
    """What a unit of `models` models of that datasheet carries in the army (a roster of no unit)
    with that `wargear` and the data's defaults (nothing known without the engine's data)."""
    built = _built(data, faction, army, unit, models, wargear)
    if built is None:
        return UnitGear({})
    tree, selection = built
    return UnitGear(Gear(unit).carried(selection), frozenset(
        name_key(weapon_name(o.name)) for holder in [selection, *unit_models(selection)]
        for o in _unchosen(tree.editor, holder, holder.option)))


def gear_by_kind(data: Wh40kCatalog, faction: Faction, army: Wh40kRoster, unit: Unit, models: int,
                 wargear: dict[str, int]) -> list[tuple[str, dict[str, int]]]:
    """As `unit_gear`, model selection by model selection: the kind of model's name and what its
    models carry (D56)."""
    built = _built(data, faction, army, unit, models, wargear)
    gear = Gear(unit)
    return [(model.option.name, {name_key(name): count for name, count in gear.counted([model]).items()})
            for model in (models_of(built[1]) if built is not None else [])]


def _built(data: Wh40kCatalog, faction: Faction, army: Wh40kRoster, unit: Unit, models: int,
           wargear: dict[str, int]) -> tuple[SelectionTree, Selection] | None:
    """The army of that one unit, and the unit, as the engine builds them (None without its data)."""
    engine = data.engine_data(faction)
    if engine is None:
        return None
    alone = army.model_copy(update={"units": [Wh40kUnit(type=unit.name, models=models, wargear=wargear)]})
    tree = selection_tree(alone, data, faction, engine)
    selection = tree.units.get(0)
    return (tree, selection) if selection is not None else None


def _unchosen(editor: Editor, holder: Selection, option: Option) -> list[Option]:
    """The entries of the groups under `option` (not under its entries) whose minimum of
    selections in `holder` its selections do not meet: a choice the data leaves to the player
    (a Hellblaster Sergeant's pistol, D59)."""
    found: list[Option] = []
    for group in (o for o in option.children() if o.is_group):
        least = max((editor.evaluation.constraint_value(group, node, Context(None, holder, holder.force, group))
                     for node, limit in group.limits if limit.kind == "min" and limit.field == "selections"),
                    default=0)
        taken = sum(s.number for s in holder.children if group.ids & s.option.group_ids)
        if taken < least:
            found += [o for o in group.children() if not o.is_group]
        found += _unchosen(editor, holder, group)
    return found

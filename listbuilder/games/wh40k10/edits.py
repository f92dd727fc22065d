"""Edits of a 40k roster, each returning a new roster (the editor's undo keeps the old), and the
choices the editor offers, read from the imported catalog."""

from __future__ import annotations

from typing import Any

from ...core.names import name_key
from .catalog import Unit, Wh40kCatalog
from .roster import Wh40kRoster, Wh40kUnit
from .rules import find_faction


def faction_units(data: Wh40kCatalog, roster: Wh40kRoster) -> list[Unit]:
    """The datasheets the roster's catalogue offers, Legends last, each name once."""
    found = find_faction(data, roster.faction)
    if len(found) != 1:
        return []
    units = {u.name: u for u in sorted(data.units_of(found[0]), key=lambda u: (u.legends, u.name))}
    return list(units.values())


def unit_named(data: Wh40kCatalog, roster: Wh40kRoster, name: str) -> Unit | None:
    return next((u for u in faction_units(data, roster) if name_key(u.name) == name_key(name)), None)


def detachments(data: Wh40kCatalog, roster: Wh40kRoster) -> list[Any]:
    found = find_faction(data, roster.faction)
    return list(found[0].detachments) if len(found) == 1 else []


def enhancements(data: Wh40kCatalog, roster: Wh40kRoster) -> list[Any]:
    chosen = next((d for d in detachments(data, roster) if name_key(d.name) == name_key(roster.detachment)), None)
    return list(chosen.enhancements) if chosen else []


def with_units(roster: Wh40kRoster, units: list[Wh40kUnit]) -> Wh40kRoster:
    return roster.model_copy(update={"units": units})


def add_unit(roster: Wh40kRoster, name: str) -> Wh40kRoster:
    return with_units(roster, [*roster.units, Wh40kUnit(type=name)])


def remove_unit(roster: Wh40kRoster, index: int) -> Wh40kRoster:
    return with_units(roster, [u for i, u in enumerate(roster.units) if i != index])


def change_unit(roster: Wh40kRoster, index: int, **changes: Any) -> Wh40kRoster:
    units = list(roster.units)
    units[index] = units[index].model_copy(update=changes)
    return with_units(roster, units)


def step_models(roster: Wh40kRoster, index: int, unit: Unit, step: int) -> Wh40kRoster | None:
    """The next model count up or down that the datasheet prices, or None at either end."""
    counts = [s.models for s in unit.sizes]
    current = roster.units[index].models or unit.min_models
    later = [n for n in counts if (n - current) * step > 0]
    if not later:
        return None
    target = min(later) if step > 0 else max(later)
    return change_unit(roster, index, models=None if target == unit.min_models else target)


def reference(roster: Wh40kRoster, index: int) -> str:
    """How `leads` and `embarked_in` name unit `index`: its label, else its name if no other has it
    (else it is given a label, '<name> #n', so the link is unambiguous)."""
    entry = roster.units[index]
    if entry.label:
        return entry.label
    same = [u for u in roster.units if name_key(u.label or u.type) == name_key(entry.type)]
    return entry.type if len(same) == 1 else f"{entry.type} #{index + 1}"


def link(roster: Wh40kRoster, index: int, field: str, target: int | None) -> Wh40kRoster:
    """Set unit `index`'s `leads` or `embarked_in` to unit `target` (None: clear it), labelling
    the target when its name alone would be ambiguous."""
    if target is None:
        return change_unit(roster, index, **{field: None})
    name = reference(roster, target)
    if name != roster.units[target].type and not roster.units[target].label:
        roster = change_unit(roster, target, label=name)
    return change_unit(roster, index, **{field: name})


def make_warlord(roster: Wh40kRoster, index: int) -> Wh40kRoster:
    """Unit `index` becomes the one Warlord (or stops being it)."""
    was = roster.units[index].warlord
    return with_units(roster, [u.model_copy(update={"warlord": (i == index and not was)})
                               for i, u in enumerate(roster.units)])

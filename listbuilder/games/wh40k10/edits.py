"""Edits of a 40k roster, each returning a new roster (the editor's undo keeps the old), and the
choices the editor offers, read from the imported catalog."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import takewhile
from typing import Any

from ...battlescribe.evaluate import Context
from ...battlescribe.model import Option
from ...battlescribe.roster import Selection
from ...core.findings import DATA_RULE, Finding
from ...core.names import name_key
from .catalog import Faction, Unit, Wh40kCatalog, weapon_name
from .engine_roster import MEMO_SIZE, SelectionTree, choice_named, choices, is_weapon, unit_toggles
from .roster import Wh40kRoster, Wh40kUnit
from .rules import by_size, faction_name, find_faction, listed, most_carrying


def faction_units(data: Wh40kCatalog, roster: Wh40kRoster) -> list[Unit]:
    """The datasheets the roster's catalogue offers, Legends last, each name once."""
    found = find_faction(data, roster.faction)
    if len(found) != 1:
        return []
    units = {u.name: u for u in sorted(data.units_of(found[0]), key=lambda u: (u.legends, u.name))}
    return list(units.values())


def unit_named(units: list[Unit], name: str) -> Unit | None:
    """The datasheet `name` names among `units` (faction_units), case and spacing ignored."""
    return next((u for u in units if name_key(u.name) == name_key(name)), None)


def detachments(data: Wh40kCatalog, roster: Wh40kRoster) -> list[Any]:
    found = find_faction(data, roster.faction)
    return list(found[0].detachments) if len(found) == 1 else []


def enhancements(data: Wh40kCatalog, roster: Wh40kRoster) -> list[Any]:
    chosen = next((d for d in detachments(data, roster) if name_key(d.name) == name_key(roster.detachment)), None)
    return list(chosen.enhancements) if chosen else []


def change_faction(data: Wh40kCatalog, roster: Wh40kRoster, faction: Faction) -> Wh40kRoster:
    """The roster of `faction` (named as D42 names it), its units kept as they are (D43): the
    detachment kept where the new faction has it too, else its first, else none (which the check
    reports, naming the faction's detachments)."""
    names = [d.name for d in faction.detachments]
    kept = next((name for name in names if name_key(name) == name_key(roster.detachment)), None)
    return roster.model_copy(update={"faction": faction_name(data, faction),
                                     "detachment": kept or (names[0] if names else "")})


def units_not_in(data: Wh40kCatalog, roster: Wh40kRoster, faction: Faction) -> list[int]:
    """The indices of the roster's units that name no datasheet `faction` offers."""
    offered = {name_key(unit.name) for unit in data.units_of(faction)}
    return [i for i, unit in enumerate(roster.units) if name_key(unit.type) not in offered]


def with_units(roster: Wh40kRoster, units: list[Wh40kUnit]) -> Wh40kRoster:
    return roster.model_copy(update={"units": units})


def add_unit(roster: Wh40kRoster, name: str) -> Wh40kRoster:
    """A unit of datasheet `name` added at the end. Where another unit already answers to that
    name (`leads` and `embarked_in` name a unit by its label, else its datasheet name), the new
    one gets a label of its own ('Intercessor Squad 2'): what names the first still names it alone."""
    taken = {name_key(u.label or u.type) for u in roster.units}
    label = None
    if name_key(name) in taken:
        number = 1 + sum(1 for u in roster.units if name_key(u.type) == name_key(name))
        while name_key(f"{name} {number}") in taken:
            number += 1
        label = f"{name} {number}"
    return with_units(roster, [*roster.units, Wh40kUnit(type=name, label=label)])


def rename(roster: Wh40kRoster, name: str) -> Wh40kRoster:
    return roster.model_copy(update={"name": name.strip()})


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


# -- wargear ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class WargearOption:
    """A weapon a unit's models may take instead of their default loadout, as the editor offers it."""

    weapon: str  # as the roster writes it: its key there, else the datasheet's name
    kinds: tuple[str, ...]  # the kinds of model that may carry it; () any model (the data bounds it not)
    carried: int  # how many models carry it now
    most: int  # the most models that may: those of its kinds, at the unit's size
    limit: str = ""  # the data's limit per unit by size, '1 at 5-9 models, 2 at 10 models'
    together: str = ""  # the data's limits on it with other weapons: 'A and B together: 1 at 5-9 models, ...'
    on_datasheet: bool = True  # False: the roster names a weapon the datasheet lacks (remove it)


def carried(entry: Wh40kUnit, weapon: str) -> tuple[str, int]:
    """The roster's key for `weapon` (its spelling there, else the one given) and how many carry it."""
    key = next((k for k in entry.wargear if name_key(k) == name_key(weapon)), weapon)
    return key, entry.wargear.get(key, 0)


def wargear_options(unit: Unit, entry: Wh40kUnit) -> list[WargearOption]:
    """Every weapon of the datasheet some model may take beyond its default loadout, in the
    datasheet's order, with the bounds the check holds it to (rules._wargear): grouped by the
    kinds of model that may carry it; weapons the roster names that the datasheet lacks last."""
    models = entry.models or unit.min_models
    defaults = [(model.name, {name_key(w) for w in model.default_wargear}) for model in unit.models]
    options = []
    for weapon in dict.fromkeys(weapon_name(w.name) for w in unit.weapons):
        kinds = unit.carriers.get(name_key(weapon))
        names = {m.name for m in kinds or ()}
        key, count = carried(entry, weapon)
        if not count and kinds and all(name_key(weapon) in default for model, default in defaults if model in names):
            continue  # every model that may carry it has it already (unless the roster names it anyway)
        limit = unit.limits.get(name_key(weapon))
        together = [g for g in unit.wargear_group_limits or () if name_key(weapon) in map(name_key, g.weapons)]
        options.append(WargearOption(
            key, tuple(m.name for m in kinds or ()), count, most_carrying(unit, kinds, models) if kinds else models,
            by_size(limit.most) if limit else "",
            "; ".join(f"{listed(g.weapons)} together: {by_size(g.most)}" for g in together)))
    shown = {name_key(o.weapon) for o in options} | set(unit.carriers)
    options += [WargearOption(key, (), count, 0, on_datasheet=False) for key, count in entry.wargear.items()
                if name_key(key) not in shown]
    order = {m.name: i for i, m in enumerate(unit.models)}  # options of the same kinds together, any model after
    return sorted(options, key=lambda o: (not o.on_datasheet, not o.kinds, sorted(order[k] for k in o.kinds)))


def step_wargear(roster: Wh40kRoster, index: int, unit: Unit, weapon: str, step: int) -> Wh40kRoster | None:
    """One more (or fewer) of unit `index`'s models carrying `weapon`; None below none or above the
    unit's models. Limits the data sets are not enforced here: the check reports them, live."""
    entry = roster.units[index]
    key, count = carried(entry, weapon)
    target = count + step
    if target < 0 or target > (entry.models or unit.min_models):
        return None
    wargear = dict(entry.wargear)  # a weapon already there keeps its place
    if target:
        wargear[key] = target
    else:
        del wargear[key]
    stated = sum(n for weapons in entry.carried_by.values() for w, n in weapons.items() if name_key(w) == name_key(key))
    if stated <= target:
        return change_unit(roster, index, wargear=wargear)
    # fewer models carry it than `carried_by` gives it to: which kinds carry it is no longer said (D56)
    by_kind = {kind: {w: n for w, n in weapons.items() if name_key(w) != name_key(key)}
               for kind, weapons in entry.carried_by.items()}
    return change_unit(roster, index, wargear=wargear, carried_by={k: w for k, w in by_kind.items() if w})


# -- options (choices that are not weapons, D44) ----------------------------------------------

@dataclass(frozen=True)
class UnitOption:
    """A choice of a unit that is not a weapon (`options`, D44) as the editor offers it."""

    group: str  # the data's group it is in ('' where it is in none)
    name: str  # the data's name
    written: str  # as `options` writes it: its name, 'Group: Choice' where the name alone names another
    chosen: bool  # the unit has it in the checked roster (stated, or the data's default)
    stated: bool  # the roster's `options` name it
    limit: str  # the data's limits on its group (or on it), 'choose 1', 'up to 2'
    one_of_group: bool  # its group takes one choice at most: choosing it replaces another
    choice: Option = field(repr=False, compare=False)


def unit_options(data: Wh40kCatalog, roster: Wh40kRoster, tree: SelectionTree | None, index: int) -> list[UnitOption]:
    """The choices of unit `index` that are not weapons and that the data shows in this army (a
    group it hides, Crusade's, is not offered), in the data's order, as the checked roster `tree`
    has the unit: what it holds is chosen. The Warlord and the Enhancements are the roster's
    `warlord` and `enhancement` (keys of their own), not options."""
    unit = tree.units.get(index) if tree is not None else None
    if tree is None or unit is None:
        return []
    entry = roster.units[index]
    own_fields = {name_key("Warlord")} | {name_key(e.name) for d in detachments(data, roster) for e in d.enhancements}
    evaluation = tree.editor.evaluation
    held = {s.option.entry_id for s in unit.walk()}
    stated = {id(choice) for written in entry.options if (choice := choice_named(unit.option, written))}
    offered = []
    hidden: dict[str, bool] = {}  # whether each group is hidden in the unit, by the data's id

    def hidden_group(group: Option) -> bool:
        if group.entry_id not in hidden:
            hidden[group.entry_id] = evaluation.is_hidden(group, Context(None, unit, tree.force, group))
        return hidden[group.entry_id]

    for groups, choice, key, outer_groups in _offerable(unit.option):
        if (key in own_fields or any(hidden_group(group) for group in outer_groups)
                or evaluation.is_hidden(choice, Context(None, unit, tree.force, choice))):
            continue
        holder = choice.group or choice
        group = groups[-1] if groups else ""
        written = choice.name if choice_named(unit.option, choice.name) is choice else f"{group}: {choice.name}"
        limit, most = _limit(tree, holder, unit)
        offered.append(UnitOption(group, choice.name, written, choice.entry_id in held, id(choice) in stated,
                                  limit, most == 1 and holder is not choice, choice))
    return offered


@lru_cache(maxsize=MEMO_SIZE)
def _offerable(option: Option) -> list[tuple[tuple[str, ...], Option, str, tuple[Option, ...]]]:
    """The `choices` of a unit's entry that are not weapons, each with its groups' names, its
    name's key and the groups it sits in up to the first entry, outermost first: a choice in a
    hidden group is hidden (Evaluation.in_hidden_group), and most of a unit's choices are Crusade's,
    all in one group the data hides outside Crusade, which is then asked first and once. Kept per
    entry, as `choices` is: the wargear screen asks on every edit."""
    found = []
    for groups, choice in choices(option):
        if not is_weapon(choice):
            outer_groups = tuple(takewhile(lambda g: g.is_group, choice.ancestors()))[::-1]
            found.append((groups, choice, name_key(choice.name), outer_groups))
    return found


def _limit(tree: SelectionTree, holder: Option, unit: Selection) -> tuple[str, int | None]:
    """The data's limits on the selections of a group (or an entry) in its parent, as shown
    ('choose 1', '0-2', 'up to 2', 'at least 1'; '' where it states none), and its max."""
    context = Context(None, unit, tree.force, holder)
    found: dict[str, int] = {}
    for node, limit in holder.limits:
        if limit.scope == "parent" and limit.field == "selections":
            value = int(tree.editor.evaluation.constraint_value(holder, node, context))
            if value >= 0:
                found[limit.kind] = value
    least, most = found.get("min", 0), found.get("max")
    if most is None:
        return f"at least {least}" if least else "", None
    return f"choose {most}" if least == most else f"{least}-{most}" if least else f"up to {most}", most


def choose_option(roster: Wh40kRoster, index: int, unit_option: Option, option: UnitOption) -> Wh40kRoster | None:
    """Unit `index` with `option` chosen in place of another of its group where the group takes
    one, or, stated already, no longer chosen; None for a choice the data makes by default (it
    is not the roster's to take away)."""
    entry = roster.units[index]
    if option.chosen and not option.stated:
        return None
    kept = []
    for written in entry.options:
        named = choice_named(unit_option, written)
        if named is option.choice or (option.one_of_group and named is not None
                                      and named.group is option.choice.group):
            continue
        kept.append(written)
    return change_unit(roster, index, options=kept if option.stated else [*kept, option.written])


# -- what may be added ------------------------------------------------------------------------

# Findings that refuse a unit for how many of its datasheet there are, not for what it is
COUNTED = frozenset({"too-many-of-datasheet", "epic-hero-repeated"})


def refusals(data: Wh40kCatalog, roster: Wh40kRoster, units: list[Unit],
             check: Callable[[Wh40kRoster], Any]) -> dict[str, Finding]:
    """Of `units`, those the check refuses in this army whatever else is in it, by name, each with
    the finding that says why: an error on the added unit's datasheet (`type`), other than the
    rule of three or the once-only Epic Hero. One check of the roster with every unit added at
    once, each unit once (a unit's own findings do not depend on others added: tested against
    adding each alone), so that the Add dialog follows whatever the check refuses. A "Show …"
    toggle that units need and the roster's own units do not bring is selected once, for the
    first unit needing it, which alone then carries its finding; so a unit needing a toggle the
    data hides in this army is refused here too (D34)."""
    if not units:
        return {}  # a faction the data lacks offers none, and its roster is not checked as one
    first = len(roster.units)
    result = check(with_units(roster, [*roster.units, *(Wh40kUnit(type=u.name) for u in units)]))
    found: dict[str, Finding] = {}
    for finding in result.findings:
        path = finding.path
        if (finding.severity == "error" and len(path) == 3 and path[0] == "units" and path[2] == "type"
                and isinstance(path[1], int) and path[1] >= first and finding.code not in COUNTED):
            found.setdefault(units[path[1] - first].name, finding)
    for name, finding in _needing_hidden_toggles(data, roster, units, result.tree).items():
        found.setdefault(name, finding)
    return found


def _needing_hidden_toggles(data: Wh40kCatalog, roster: Wh40kRoster, units: list[Unit],
                            tree: SelectionTree | None) -> dict[str, Finding]:
    """Of `units`, by name, those needing a toggle that the roster's own units do not bring and
    that the data hides in this army (`tree`: the roster checked with them), each with why."""
    found = find_faction(data, roster.faction)
    engine = data.engine_data(found[0]) if len(found) == 1 else None
    if engine is None or tree is None:
        return {}
    of_unit = unit_toggles(roster, data, found[0], engine, [u.type for u in roster.units] + [u.name for u in units])
    brought = frozenset().union(*(of_unit[u.type] for u in roster.units))
    needs = {u.name: of_unit[u.name] - brought for u in units}
    wanted = frozenset().union(*needs.values())
    evaluation, force = tree.editor.evaluation, tree.force
    hidden = {s.entry_id: s for s in force.walk_selections() if s.entry_id in wanted and (
        evaluation.view(s).hidden or evaluation.in_hidden_group(s.option, s.parent or force, force))}
    refused = {}
    for name, toggles in needs.items():
        toggle = next((hidden[t] for t in sorted(toggles) if t in hidden), None)
        if toggle is not None:
            place = tree.editor.data.data_place(toggle.option.node)
            refused[name] = Finding("data-hidden", f"{name} needs {toggle.option.name}, which the data hides in "
                                    "this army", f"{DATA_RULE} {place}" if place else DATA_RULE.rstrip(":"))
    return refused

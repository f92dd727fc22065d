"""A 40k roster as the BattleScribe engine's selection tree, so that the engine evaluates every
rule the user's data states (docs/roster-format.md, "The selection tree").

The roster file stays what a player writes by hand: a unit names its datasheet, perhaps its
model count and the weapons some of its models carry instead of their defaults. `selection_tree`
builds what New Recruit would hold for it: an Army Roster force of the faction's catalogue, its
Battle Size and Detachment, each unit by datasheet name with the models and wargear the data
selects by default, its model count reached on the kind of model the data lets grow, the named
weapons placed on as many models as carry them (each such model split off its kind and given
the weapon in place of the default of the same choice; where one weapon takes another's place,
the placements of them all are searched, D50), its other choices (`options`), the
Enhancement and the Warlord under their bearer. `places` maps each selection back to where the
roster file says it, so that the engine's findings point at the YAML.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from ...battlescribe.editor import EditError, Editor, merges
from ...battlescribe.evaluate import Context
from ...battlescribe.model import GameData, Node, Option, as_list
from ...battlescribe.reuse import Reuse
from ...battlescribe.roster import Force, Selection
from ...battlescribe.validate import Validator
from ...core.names import did_you_mean, name_key
from .catalog import WEAPON_PROFILES, EngineData, Faction, Wh40kCatalog, loose_key, names_kind, weapon_name
from .roster import Wh40kRoster

ARMY_ROSTER = "Army Roster"  # the game system's force entry for a matched-play army
POINTS = "pts"  # the game system's cost type of points
SKIPPED = {"crusade", "weapon modifications"}  # option groups no roster file states
SHOW = "Show "  # the data's toggles that show other datasheets (allies, Legends), under its "Show/Hide Options"
CONFIGURATION = "Configuration"  # the data's category of army-wide settings
FACTION_CATEGORY = "Faction: "  # how the data names the category of a Faction keyword
HELD = "held"  # an unplaced weapon's last place: a unit of one model holds fewer of it than stated (D63)

Path = tuple[str | int, ...]
# a place of the roster file, the name it states, a suggestion (for a weapon: the one taken in its place)
Unplaced = tuple[Path, str, str | None]


@dataclass
class SelectionTree:
    """A roster built in the engine: the editor holding it, its force, and for each selection
    (by id) the place in the roster file it stands for."""

    editor: Editor
    force: Force
    places: dict[str, Path] = field(default_factory=dict)
    units: dict[int, Selection] = field(default_factory=dict)  # roster unit index -> its selection
    unplaced: list[Unplaced] = field(default_factory=list)  # what the data offers nowhere, by name
    unbuilt: list[int] = field(default_factory=list)  # units the engine could not select as the file says

    def states(self, place: Path) -> bool:
        """Whether a selection of the tree stands for that place of the roster file."""
        return place in self.places.values()

    def limits_in_army(self, index: int) -> bool:
        """Whether the data limits how many of the unit's datasheet an army may include."""
        unit = self.units.get(index)
        return unit is not None and any(limit.kind == "max" and limit.scope in ("roster", "force")
                                        and limit.field == "selections" for _, limit in unit.option.limits)

    def keywords(self, index: int) -> list[str]:
        """The unit's keywords as the data makes them in this army (a detachment's Battleline grant,
        D40): its categories' names, a Faction keyword's without the data's 'Faction: '."""
        unit = self.units.get(index)
        views = [] if unit is None else self.editor.evaluation.view(unit).categories
        return [category.name.removeprefix(FACTION_CATEGORY) for category in views]

    def has_keyword(self, index: int, keyword: str) -> bool:
        """Whether the data gives the unit that keyword in this army (`keywords`)."""
        return any(name_key(k) == name_key(keyword) for k in self.keywords(index))

    def points(self, selection: Selection) -> int:
        """A selection's points with all it holds, as the data's modifiers make them here."""
        costs = self.editor.evaluation.total_costs(selection)
        return round(sum(v for t, v in costs.items() if self._points_type == t))

    @property
    def _points_type(self) -> str:
        return next((str(c["id"]) for c in self.editor.data.cost_types() if c.get("name") == POINTS), "")

    def choices_in(self, index: int, group_ids: AbstractSet[str]) -> tuple[bool, list[str]]:
        """The choices of unit `index` in the group of one of those ids (a constraint's holder), and
        whether they are weapons."""
        unit = self.units.get(index)
        by_group = _choices_by_group(unit.option) if unit is not None else {}
        places = sorted({place for group_id in group_ids & by_group.keys() for place in by_group[group_id]})
        found = [choices(unit.option)[place][1] for place in places] if unit is not None else []
        return any(is_weapon(o) for o in found), list(dict.fromkeys(o.name for o in found))

    def place_of(self, path: Path) -> Path:
        """The roster place of an engine finding's path (`("forces", 0, "selections", 3, ...)`):
        that of the deepest selection on the path the roster states, else the roster's units."""
        place: Path = ("units",)
        container: Force | Selection = self.force
        rest = list(path[2:]) if path[:2] == ("forces", 0) else []
        while len(rest) >= 2 and rest[0] == "selections":
            index = rest[1]
            children = container.children
            if not isinstance(index, int) or index >= len(children):
                break
            container = children[index]
            place = self.places.get(container.id, place)
            rest = rest[2:]
        return place


def selection_tree(roster: Wh40kRoster, data: Wh40kCatalog, faction: Faction, engine: EngineData,
                   leave_out: AbstractSet[Path] = frozenset()) -> SelectionTree:
    """The roster as the engine's selection tree (see the module's docstring). Names the data does
    not know are left out here (the muster rules report them), a model count no unit size allows
    is the fewest (as the muster rules count it after their finding), and so is the wargear at the
    places `leave_out` names (`("units", i, "wargear", weapon)`: what the muster rules refused).

    Each unit is built once in an army of its own (an editor kept on `engine`, with the roster's
    battle size and detachment) and copied in: a New Recruit user's unit is the same whatever
    else the army holds, and building it where each step re-evaluates the whole roster would
    cost the square of the army's size; the engine then evaluates the whole roster once."""
    with BUILDING:
        return _selection_tree(roster, data, faction, engine, leave_out)


def _selection_tree(roster: Wh40kRoster, data: Wh40kCatalog, faction: Faction, engine: EngineData,
                    leave_out: AbstractSet[Path]) -> SelectionTree:
    scratch = _scratch(engine, roster, data, faction)
    # The first roster checked on the data keeps nothing for reuse (reuse.py): keeping costs, and
    # a `check` of one file checks no other; the editor's next states, a folder's next files do.
    editor = Editor.on(engine.data, name=roster.name or "Roster", reuse=engine.reuse if engine.checked else None)
    engine.checked = True
    force = Force(scratch.force.entry, scratch.force.catalogue_id, roster=editor.roster)
    editor.roster.forces.append(force)
    tree = SelectionTree(editor, force)
    for chosen in scratch.force.selections:  # the army as configured: its Battle Size and Detachment
        copy = editor.adopt(force, chosen)
        for selection in copy.walk():
            tree.places[selection.id] = ARMY_PLACES.get(chosen.option.name.removesuffix("s"), ("units",))
    detachment = next((d for d in faction.detachments if name_key(d.name) == name_key(roster.detachment)), None)
    enhancements = {name_key(e.name) for e in detachment.enhancements} if detachment else set()
    sheets = data.units_by_name(faction)
    for index, entry in enumerate(roster.units):
        unit = sheets.get(entry.type.casefold())
        if unit is None:
            continue
        enhancement = entry.enhancement if entry.enhancement and name_key(entry.enhancement) in enhancements else None
        wargear = tuple((w, n) for w, n in entry.wargear.items() if ("units", index, "wargear", w) not in leave_out)
        stated = {name_key(w): w for w, _ in wargear}  # a kind's weapons as `wargear` spells them (D56)
        carried_by = tuple((kind, tuple((stated[name_key(w)], n) for w, n in weapons.items() if name_key(w) in stated))
                           for kind, weapons in entry.carried_by.items())
        models = entry.models if entry.models and unit.points_for(entry.models) is not None else unit.min_models
        built = _built_unit(engine, scratch, (entry.type, models, wargear, tuple(entry.options), enhancement,
                                              entry.warlord, carried_by))
        if built is not None:
            _copy_in(tree, index, built)
        else:
            tree.unbuilt.append(index)
    return tree


@dataclass
class _BuiltUnit:
    """A unit built in an army of its own: its selection (out of any force), the roster place
    of each selection below it relative to the unit (in `walk` order), the "Show …" entries the
    force needs to show it, and what the data offers nowhere under it."""

    unit: Selection
    places: list[Path | None]
    toggles: list[tuple[str, str | None]]  # (the force's entry holding it, the "Show …" entry; None: itself)
    unplaced: list[Unplaced]


Weapons = tuple[tuple[str, int], ...]  # (weapon, how many models carry it), in the roster's order
UnitKey = tuple[str, int, Weapons, tuple[str, ...], str | None, bool, tuple[tuple[str, Weapons], ...]]
MEMO_SIZE = 4096  # units kept built, per faction's data (an editing session changes a few at a time)
# Each unit is built in an army kept on the faction's EngineData, then taken out again: one thread
# at a time (the editor checks in a worker while its Add dialog may ask for refusals on the UI thread)
BUILDING = threading.RLock()


ARMY_PLACES: dict[str, Path] = {"Battle Size": ("battle_size",), "Detachment": ("detachment",)}


def _army(editor: Editor, roster: Wh40kRoster, data: Wh40kCatalog, faction: Faction) -> SelectionTree:
    """An Army Roster force of the faction's catalogue with the roster's Battle Size and Detachment."""
    force_entry = next(f for f in as_list(editor.data.game_system, "forceEntries") if f.get("name") == ARMY_ROSTER)
    force, _ = editor.add_force(str(force_entry["id"]), faction.id)
    tree = SelectionTree(editor, force)
    size = next((s for s in data.system.battle_sizes if name_key(s.name) == name_key(roster.battle_size)), None)
    _choose(tree, "Battle Size", lambda name: size is not None and name_key(size.name) in name_key(name))
    _choose(tree, "Detachment", lambda name: name_key(name) == name_key(roster.detachment))
    return tree


def _scratch(engine: EngineData, roster: Wh40kRoster, data: Wh40kCatalog, faction: Faction) -> SelectionTree:
    """The roster's army with no unit (its force, Battle Size and Detachment), kept on `engine`:
    each unit is built in it, and each check's tree starts as a copy of it."""
    if len(engine.built) > MEMO_SIZE:
        engine.built.clear()
    army_key = (faction.id, name_key(roster.battle_size), name_key(roster.detachment))
    if army_key not in engine.built:
        engine.built[army_key] = _army(Editor.on(engine.data), roster, data, faction)
    scratch: SelectionTree = engine.built[army_key]
    return scratch


def _built_unit(engine: EngineData, scratch: SelectionTree, key: UnitKey) -> _BuiltUnit | None:
    """The unit `key` states, built in the army `scratch` (kept on `engine` for the next check)."""
    if (id(scratch), key) in engine.built:
        return engine.built[(id(scratch), key)]
    before = list(scratch.force.selections)
    try:
        _add_unit(scratch, *key)
    except EditError:  # the data does not let it be selected as the file says: left out, and said so
        scratch.units.clear()
    unit = scratch.units.pop(0, None)
    built = None
    if unit is not None:
        holders = [s for s in scratch.force.selections if all(s is not b for b in before) and s is not unit]
        built = _BuiltUnit(unit, [scratch.places.get(s.id) for s in unit.walk()],
                           [(h.entry_id, t.entry_id) for h in holders for t in h.children]
                           + [(h.entry_id, None) for h in holders if not h.children], list(scratch.unplaced))
    for selection in [s for s in scratch.force.selections if all(s is not b for b in before)]:
        scratch.editor.deselect(selection)
    scratch.places.clear()
    scratch.unplaced.clear()
    engine.built[(id(scratch), key)] = built
    return built


def _copy_in(tree: SelectionTree, index: int, built: _BuiltUnit) -> None:
    where: Path = ("units", index)
    for holder_id, toggle_id in built.toggles:
        holder = next((s for s in tree.force.selections if s.entry_id == holder_id), None)
        if holder is None:
            holder, _ = tree.editor.select_entry(tree.force, holder_id)
            if toggle_id is None:  # a toggle of its own ("Show Khorne Daemons")
                tree.places[holder.id] = (*where, "type")
        if toggle_id is not None and all(t.entry_id != toggle_id for t in holder.children):
            toggle, _ = tree.editor.select_child_entry(holder, toggle_id)
            tree.places[toggle.id] = (*where, "type")
    unit = tree.editor.adopt(tree.force, built.unit)
    tree.units[index] = unit
    for selection, place in zip(unit.walk(), built.places, strict=True):
        if place is not None:
            tree.places[selection.id] = (*where, *place)
    tree.unplaced += [((*where, *place), name, suggestion) for place, name, suggestion in built.unplaced]


def _choose(tree: SelectionTree, holder_name: str, wanted: Callable[[str], bool]) -> None:
    """The choice under one of the force's own selections (Battle Size, Detachment; the Adeptus
    Custodes catalogue names its holder "Detachments")."""
    holder = next((s for s in tree.force.selections if s.option.name.removesuffix("s") == holder_name), None)
    option = next((o for o in holder.option.selectable_children() if wanted(o.name)), None) if holder else None
    if holder is not None and option is not None:
        tree.editor.select_child_entry(holder, option.entry_id)


def _add_unit(tree: SelectionTree, name: str, models: int, wargear: Weapons, options: tuple[str, ...],
              enhancement: str | None, warlord: bool, carried_by: tuple[tuple[str, Weapons], ...]) -> None:
    """The unit at its model count, with its wargear (first what the kinds of model `carried_by`
    names carry, D56), options, Enhancement and Warlord, as unit 0 of the tree, its places
    relative to it."""
    editor = tree.editor
    option = _root_option(tree, name)
    if option is None:
        return  # the muster rules: unknown-unit
    unit = _new_unit(tree, option, models)
    for kind, weapons in carried_by if unit_models(unit) else ():
        for weapon, count in weapons:
            alongside = tuple(other for other, _ in weapons if other != weapon)
            for selection in _place_weapon(editor, unit, weapon, count, alongside, kind):
                tree.places[selection.id] = ("wargear", weapon)
    displaced = _place_wargear(tree, unit, wargear)
    if unit_models(unit) and any(_carried(unit, w) < n for w, n in wargear):  # several models, a weapon short (D50)
        unit, carried_all, complete = _search_placement(tree, unit, option, models, wargear)
        if carried_all or not complete:
            displaced = []
        if displaced:  # one mistake, one finding: on the first weapon lost, naming the others involved
            others = [w for w, _ in wargear if w != displaced[0][0] and any(w in pair for pair in displaced)]
            displaced = [(displaced[0][0], " and ".join(filter(None, [", ".join(others[:-1]), others[-1]])))]
    tree.unplaced += [(("wargear", earlier), earlier, weapon) for earlier, weapon in displaced]
    for index, written in enumerate(options):
        choice = choice_named(unit.option, written)
        if choice is None:
            tree.unplaced.append((("options", index), written, did_you_mean(written, choice_names(unit.option))))
            continue
        selection = _select_along(editor, unit, choice)
        tree.places[selection.id] = ("options", index)
    for named, field_name in ((enhancement, "enhancement"), ("Warlord" if warlord else None, "warlord")):
        if named is None:
            continue
        found = _option_shown(editor, unit, named)
        if found is None:
            tree.unplaced.append(((field_name,), named, None))
            continue
        selection = _select_along(editor, unit, found)
        tree.places[selection.id] = (field_name,)


def _new_unit(tree: SelectionTree, option: Option, models: int) -> Selection:
    """The unit at its model count with the data's defaults, as unit 0 of the tree."""
    unit, _ = tree.editor.select_entry(tree.force, option.entry_id)
    tree.units[0] = unit
    tree.places[unit.id] = ()
    _set_models(tree.editor, unit, models)
    return unit


def _place_wargear(tree: SelectionTree, unit: Selection, wargear: tuple[tuple[str, int], ...]) -> list[tuple[str, str]]:
    """Place the stated weapons one by one (`_place_weapon`); returns each weapon the placing of a
    later one left on fewer models than stated, with that later one. A unit of one model given
    fewer of a weapon than stated, as many as the data lets it hold, is said so (D63)."""
    displaced: list[tuple[str, str]] = []
    carried: dict[str, int] = {}
    for weapon, count in wargear:
        alongside = tuple(other for other, _ in wargear if other != weapon)
        made = _place_weapon(tree.editor, unit, weapon, count, alongside)
        for selection in made:
            tree.places[selection.id] = ("wargear", weapon)
        if made and not unit_models(unit) and held(unit, weapon) < count:
            tree.unplaced.append((("wargear", weapon, HELD), weapon, None))
        for earlier, before in list(carried.items()):
            now = _carried(unit, earlier)
            if now < before and now < dict(wargear)[earlier]:
                displaced.append((earlier, weapon))
            carried[earlier] = now
        carried[weapon] = _carried(unit, weapon)
    return displaced


def held(unit: Selection, weapon: str) -> int:
    """How many of the weapon a unit of one model holds (two Missile Drones' missile pods: two)."""
    return sum(s.total_number for s in unit.walk() if s is not unit and _gives(s.option, weapon)) // unit.total_number


def _carried(unit: Selection, weapon: str) -> int:
    """How many of the unit's models carry the weapon (a unit that is its one model: 1 or 0), a
    weapon of the unit's own entries (outside its models) counted as taken."""
    models = unit_models(unit)
    if not models:
        return int(_carries(unit, weapon))
    outside = [s for s in unit.children if s.option.type != "model" and not unit_models(s)]
    return (sum(m.number for m in models if _carries(m, weapon))
            + sum(s.number for s in outside if _gives(s.option, weapon) or _carries(s, weapon)))


@dataclass(frozen=True)
class _Loadout:
    """A way for models of a unit to carry stated weapons: their kind, the entry they are taken
    under (the unit's or its composition's), the weapons selected on them, the stated weapons a
    model so equipped carries (its defaults' too), and the unit's default models they are taken
    from (`source`, an index in `unit_models`): models of that kind (`own`) or moved off it (all of
    them, if need be: the engine judges whether the data lets that kind go)."""

    kind: Option
    container: Option
    weapons: tuple[str, ...]
    carries: frozenset[str]
    source: int
    own: bool


def _search_placement(tree: SelectionTree, placed: Selection, option: Option, models: int,
                      wargear: tuple[tuple[str, int], ...]) -> tuple[Selection, bool, bool]:
    """The unit in place of `placed` (the stated weapons placed one by one): one of `models`
    models whose models carry every stated weapon on as many models as stated and that breaks no
    rule of the data `placed` does not break, where one is found, else `placed` (or one built
    alike); whether one was found; and whether every placement was tried.

    The ways each kind of model may carry some of the weapons together are asked of the engine
    (a model selected, the weapons put on it as `_select_along` does), then counts of models per
    way that carry them all are searched (`_plans`), each such placement built and judged by the
    engine's rules, all bounded (SEARCH_*)."""
    editor, wanted = tree.editor, dict(wargear)
    defaults = _new_unit(tree, option, models)  # probed, then copied for each placement
    sources = unit_models(defaults)
    loadouts = _loadouts(editor, defaults, list(wanted))
    editor.deselect(defaults)
    tree.units[0] = placed
    plans, complete = _plans(loadouts, [(m.number, frozenset(w for w in wanted if _carries(m, w)), merges(m.option))
                                        for m in sources], wanted)
    complete = complete and all(m.parent is defaults for m in sources)  # no other entry of a composition tried
    if not plans:
        return placed, False, complete
    # What judging one placement found at the army's untaken options, for the next's. The scratch
    # editor's evaluation records no reads into it, so it may only be replayed between these judgings.
    reuse = Reuse()
    broken = _rules_broken(editor, reuse)  # asked only now: the engine's findings take their time
    editor.deselect(placed)
    for counts in plans:
        unit = tree.units[0] = editor.adopt(tree.force, defaults)
        tree.places[unit.id] = ()
        _build_plan(tree, unit, loadouts, counts)
        if _rules_broken(editor, reuse) <= broken:
            return unit, True, complete
        editor.deselect(unit)
    unit = _new_unit(tree, option, models)  # none the data allows: the stated weapons one by one, again
    _place_wargear(tree, unit, wargear)
    return unit, False, complete


SEARCH_STEPS = 2000  # partial placements of a unit's stated weapons tried at most
SEARCH_BUILDS = 12  # whole placements built for the engine to judge at most
SEARCH_TOGETHER = 3  # stated weapons tried together on one model at most


def _rules_broken(editor: Editor, reuse: Reuse) -> set[tuple[str, str]]:
    return {(error.source, error.constraint_id) for error in _Judge(editor.evaluation, reuse).run()}


class _Judge(Validator):
    """The engine's validation, for the rules a placement breaks: where each is written in the data
    (the first such place indexes every catalogue) is no part of the comparison."""

    def _place(self, holder: Node, node: Node | None, name: str, what: str) -> str:
        return ""


def _loadouts(editor: Editor, unit: Selection, weapons: list[str]) -> list[_Loadout]:
    """The ways a model of each of the unit's kinds may carry some of the weapons, as the engine
    selects them (weapons a model cannot carry together are no part of any larger set): on a model
    of its own kind's selection, or moved off the most numerous other kind beside it."""
    sources = unit_models(unit)
    containers = [unit, *{id(m.parent): m.parent for m in sources if m.parent is not None}.values()]
    found: dict[tuple[object, ...], _Loadout] = {}
    for container in containers:
        for kind in _model_kinds(container.option):
            own = [i for i, m in enumerate(sources) if m.option is kind and m.parent is container]
            others = sorted((i for i, m in enumerate(sources) if m.option is not kind and m.parent is container
                             and _beside(kind, m.option)), key=lambda i: -sources[i].number)
            if own and merges(kind):  # another selection of it would add to this one
                others = []
            donors = [(i, True) for i in own[:1]] + [(i, False) for i in others[:1]]
            offered = [w for w in weapons if _weapon_option(kind, w) is not None]
            failed: list[set[str]] = []
            for size in range(1, min(len(offered), SEARCH_TOGETHER) + 1 if donors else 0):
                for taken in combinations(offered, size):
                    if any(f <= set(taken) for f in failed):
                        continue
                    carries = _probe(editor, container, kind, sources[own[0]] if own else None, taken, weapons)
                    if not set(taken) <= carries:
                        failed.append(set(taken))
                    else:  # the fewest weapons selected that carry these: a default taken again is no new one
                        for source, is_own in donors:
                            found.setdefault((kind.id, container.option.id, carries, source, is_own),
                                             _Loadout(kind, container.option, taken, carries, source, is_own))
    return list(found.values())


def _probe(editor: Editor, container: Selection, kind: Option, like: Selection | None, taken: tuple[str, ...],
           weapons: list[str]) -> frozenset[str]:
    """The weapons a model of the kind carries with `taken` put on it (a copy of `like`, else one
    selected), the model taken away again."""
    if like is not None:
        model = editor.duplicate_selection(like)
        editor.set_count(model, 1)
    else:
        model, _ = editor.select_child_entry(container, kind.entry_id)
    for weapon in taken:
        option = _weapon_option(model.option, weapon, tuple(w for w in taken if w != weapon))
        if option is not None:
            _select_along(editor, model, option)
    carries = frozenset(w for w in weapons if _carries(model, w))
    while model in container.children:
        editor.deselect(model)
    return carries


def _plans(loadouts: list[_Loadout], sources: list[tuple[int, frozenset[str], bool]],
           wanted: dict[str, int]) -> tuple[list[tuple[int, ...]], bool]:
    """Counts of models per loadout with which every weapon is carried on as many models as
    `wanted` (the sources' models left as they are count with what they carry), none selected on
    more: depth first, one model at a time, for the weapon most short the loadout carrying most of
    the weapons still short first (so that few models change); at most SEARCH_BUILDS of them, and
    whether every one was found. `sources`: the unit's
    default models, how many, what they carry, whether every model of them must be the same."""
    found: list[tuple[int, ...]] = []
    stack = [tuple(0 for _ in loadouts)]
    seen = set(stack)
    steps = 0
    while stack and steps < SEARCH_STEPS and len(found) < SEARCH_BUILDS:
        steps += 1
        counts = stack.pop()
        left = [number for number, _, _ in sources]
        for load, count in zip(loadouts, counts, strict=True):
            left[load.source] -= count
        short = {w: n - sum(count for load, count in zip(loadouts, counts, strict=True) if w in load.carries)
                 - sum(number for number, (_, carries, _) in zip(left, sources, strict=True) if w in carries)
                 for w, n in wanted.items()}
        short = {w: n for w, n in short.items() if n > 0}
        if not short:
            found.append(counts)
            continue
        weapon = max(short, key=lambda w: short[w])
        steps_here = []
        for index, load in enumerate(loadouts):
            number, had, same = sources[load.source]
            step = left[load.source] if load.own and same else 1
            # no weapon put on more models than stated; one its models carried already is kept, not added
            if (weapon not in load.carries or any(w not in short and w not in had for w in load.weapons)
                    or left[load.source] < step or (same and load.own and step != number)):
                continue
            after = (*counts[:index], counts[index] + step, *counts[index + 1:])
            if after not in seen:
                seen.add(after)
                steps_here.append((len(load.carries & short.keys()), -index, after))
        stack += [after for *_, after in sorted(steps_here)]
    return found, not stack


def _build_plan(tree: SelectionTree, unit: Selection, loadouts: list[_Loadout], counts: tuple[int, ...]) -> None:
    """Put the loadouts' weapons on as many of the unit's models as `counts` says."""
    editor = tree.editor
    sources = unit_models(unit)
    for load, count in zip(loadouts, counts, strict=True):
        if not count:
            continue
        source = sources[load.source]
        container = unit if load.container is unit.option else next(
            s for s in unit.walk() if s.option is load.container)
        if load.own and count == source.number:
            model = source
        else:
            editor.set_count(source, source.number - count)
            if load.own:
                model = _split(editor, unit, source, count)
            else:
                model, _ = editor.select_child_entry(container, load.kind.entry_id)
                editor.set_count(model, count)
        for weapon in load.weapons:
            option = _weapon_option(model.option, weapon, tuple(w for w in load.weapons if w != weapon))
            if option is not None:
                tree.places[_select_along(editor, model, option).id] = ("wargear", weapon)
    for source in sources:
        if not source.number:  # every model of it moved to other kinds
            editor.deselect(source)


def _root_option(tree: SelectionTree, name: str) -> Option | None:
    """The force's root entry of that name: one the data shows here if any; else one a "Show …"
    entry of the force shows (the data's way to offer allies: "Show Agents of the Imperium"),
    which is selected with it, as a New Recruit user would; else a hidden one (the engine then
    says it is hidden)."""
    editor, force = tree.editor, tree.force
    named = _roots_by_name(editor.data, force.catalogue_id).get(name_key(name), [])
    if not named:
        return None
    shown = _shown(editor, force, named)
    if shown is not None:
        return shown
    toggles: list[Selection] = []
    roots = list(_entries(editor.data.root_options(force.catalogue_id)))
    holders = [o for o in roots if o.name.startswith(SHOW.strip()) and list(o.selectable_children())]
    for holder_option in holders:  # "Show/Hide Options", its "Show …" entries under it
        holder = next((s for s in force.selections if s.option is holder_option), None)
        if holder is None:
            holder, _ = editor.select_entry(force, holder_option.entry_id)
        taken = {t.entry_id for t in holder.children}
        toggles += [editor.select_child_entry(holder, o.entry_id)[0] for o in holder_option.selectable_children()
                    if o.name.startswith(SHOW) and o.entry_id not in taken]
    taken_roots = {s.option.entry_id for s in force.selections}
    toggles += [editor.select_entry(force, o.entry_id)[0] for o in roots  # "Show Khorne Daemons" on its own
                if _visibility_setting(o) and o.entry_id not in taken_roots and _shown(editor, force, [o])]
    shown = _shown(editor, force, named)
    for toggle in toggles:  # keep only the toggles it needs (a Legends Agent needs two)
        holder = toggle.parent
        editor.deselect(toggle)
        if shown is not None and _shown(editor, force, named) is None:
            if holder is not None:
                editor.select_child_entry(holder, toggle.entry_id)
            else:
                editor.select_entry(force, toggle.entry_id)
    for holder in [s for s in force.selections if s.option in holders and not s.children]:
        editor.deselect(holder)
    return shown or named[0]


@lru_cache(maxsize=MEMO_SIZE)
def _roots_by_name(data: GameData, catalogue_id: str) -> dict[str, list[Option]]:
    """The root entries of a catalogue's force by `name_key`, through groups, in data order: each
    unit of a roster looks its entry up."""
    found: dict[str, list[Option]] = {}
    for option in _entries(data.root_options(catalogue_id)):
        found.setdefault(name_key(option.name), []).append(option)
    return found


def _visibility_setting(option: Option) -> bool:
    """An army-wide setting the data shows units by, taken on its own: a "Show …" entry with
    nothing to choose under it ("Show Khorne Daemons", which the data names "Khorne Daemons are
    visible") or such an entry of the Configuration category."""
    configuration = any(name == CONFIGURATION for _, name, primary in option.base_categories if primary)
    return (option.name.startswith(SHOW) or configuration) and not list(option.selectable_children())


def _shown(editor: Editor, force: Force, options: list[Option]) -> Option | None:
    return next((o for o in options if not editor.evaluation.is_hidden(o, Context(None, force, force, o))), None)


def _entries(options: list[Option]) -> Iterator[Option]:
    for option in options:
        if option.is_group:
            yield from _entries(option.children())
        else:
            yield option


@lru_cache(maxsize=MEMO_SIZE)
def _model_kinds(option: Option) -> tuple[Option, ...]:
    """The kinds of model an entry offers, through groups but those no roster states (SKIPPED:
    Crusade's, some 250 entries under every unit, none of them a model in wh40k-10e); kept per
    entry, as each weapon placed asks them again."""
    found: list[Option] = []
    for child in option.children():
        if child.is_group and name_key(child.name) not in SKIPPED:
            found += _model_kinds(child)
        elif child.type == "model":
            found.append(child)
    return tuple(found)


def unit_models(unit: Selection) -> list[Selection]:
    """The unit's model selections, also those within an entry of its composition ("1 Shock
    Trooper Sergeant and 9 Shock Troopers")."""
    found = []
    for child in unit.children:
        if child.option.type == "model":
            found.append(child)
        elif child.option.type != "unit":
            found += unit_models(child)
    return found


def _set_models(editor: Editor, unit: Selection, wanted: int) -> None:
    """Bring the unit to `wanted` models on the kinds the data lets grow: the most numerous of its
    kinds with room under its max, else a kind not yet taken that has room (a Devastator Squad's
    plain Marines beside its four heavy weapons), else the most numerous; fewer models come off
    the most numerous kind."""
    _composition(editor, unit, wanted)
    models = unit_models(unit)
    if not models:
        return  # a unit that is its one model
    missing = wanted - sum(m.number for m in models)
    while missing:
        models = unit_models(unit)
        if missing < 0:
            kind = max(models, key=lambda m: m.number)
            step = max(missing, 1 - kind.number) if kind.number > 1 else 0
            if step == 0:
                return
        else:
            room = {m.id: _room(editor, m) for m in models}
            kind = max(models, key=lambda m: (room[m.id] > 0, m.number))
            if room[kind.id] <= 0 and _new_kind(editor, unit, models) is not None:
                missing -= 1  # its first model
                continue
            step = min(missing, room[kind.id]) if room[kind.id] > 0 else missing
        editor.set_count(kind, kind.number + step)
        missing -= step


def _new_kind(editor: Editor, unit: Selection, models: list[Selection]) -> Selection | None:
    """One model of a kind the unit has none of yet, with room under its max: one beside its
    kinds (in the same group) first."""
    selected = {m.option.entry_id for m in models}
    containers = [unit, *{id(m.parent): m.parent for m in models if m.parent is not None}.values()]
    kinds = [(container, kind) for container in containers for kind in _model_kinds(container.option)
             if kind.entry_id not in selected]
    kinds.sort(key=lambda found: not any(_beside(found[1], m.option) for m in models))
    for container, kind in kinds:
        context = Context(None, container, container.force, kind)
        most = [editor.evaluation.constraint_value(kind, node, context)
                for node, limit in kind.limits if limit.kind == "max" and limit.scope == "parent"]
        if not most or min(most) > 0:
            return editor.select_child_entry(container, kind.entry_id)[0]
    return None


def _composition(editor: Editor, unit: Selection, wanted: int) -> None:
    """Where the unit's models are held by an entry of its composition that names their number
    ("1 Shock Trooper Sergeant and 9 Shock Troopers"), the entry of the same choice that names
    `wanted` ("2 Shock Trooper Sergeants and 18 Shock Troopers") in its place."""
    held = next((s for s in unit.children if s.option.type != "model" and unit_models(s)), None)
    if held is None or held.option.group is None or _named_count(held.option) == wanted:
        return
    other = next((o for o in held.option.group.selectable_children() if _named_count(o) == wanted), None)
    if other is not None:
        editor.deselect(held)
        editor.select_child_entry(unit, other.entry_id)


def _named_count(option: Option) -> int:
    return sum(int(n) for n in re.findall(r"\b(\d+)\b", option.name))


def _room(editor: Editor, selection: Selection) -> int:
    """How many more of a selection its max in its parent allows (a large number where none)."""
    context = editor.evaluation.context_of(selection)
    most = [editor.evaluation.constraint_value(selection.option, node, context)
            for node, limit in selection.option.limits if limit.kind == "max" and limit.scope == "parent"]
    most = [m for m in most if m >= 0]
    return int(min(most)) - selection.number if most else 1000


def _held_weapon(editor: Editor, unit: Selection, weapon: str, carried: int,
                 alongside: tuple[str, ...]) -> list[Selection]:
    """Give a unit of one model `carried` of the weapon: through the entry `_weapon_option` takes,
    then the other entries the data shows giving it (a Forgefiend's ectoplasma cannons of its head
    and of its arms). Returns the selections made."""
    best = _weapon_option(unit.option, weapon, alongside)
    if best is None or held(unit, weapon) >= carried:
        return []
    made = [_hold(editor, unit, best, weapon, carried)]
    for other in _weapon_options(unit.option, weapon):
        if held(unit, weapon) >= carried:
            break
        if other is not best and _visible(editor, unit, other):
            made.append(_hold(editor, unit, other, weapon, carried))
    return made


def _hold(editor: Editor, unit: Selection, option: Option, weapon: str, carried: int) -> Selection:
    """Select `option` under a unit of one model, the entry that brings it (a Riptide's missile
    pod, a Missile Drone's) as many times as it takes to hold `carried` of the weapon, as far as its
    maxima allow (not a second of "one of"), putting aside the defaults of its group (four fusion
    blasters, a Commander's high-output burst cannon)."""
    before = {id(s) for s in unit.walk()}
    selection = outer = _select_along(editor, unit, option)
    while outer.parent is not None and id(outer.parent) not in before:
        outer = outer.parent
    most = _most_held(editor, outer)
    while held(unit, weapon) < carried and outer.number < most:
        editor.set_count(outer, outer.number + 1)
    _make_room(editor, outer)
    return selection


def _most_held(editor: Editor, selection: Selection) -> int:
    """How many of a selection its max in its parent and the maxima of the groups it is in allow."""
    most = selection.number + _room(editor, selection)
    group, parent = selection.option.group, selection.parent
    while group is not None and parent is not None:
        context = Context(None, parent, parent.force, group)
        most = min([most, *(int(value) for node, limit in group.limits if limit.kind == "max"
                            and limit.field == "selections"
                            and (value := editor.evaluation.constraint_value(group, node, context)) >= 0)])
        group = group.group
    return most


def _options_named(option: Option, name: str, depth: int = 0) -> Iterator[Option]:
    """The options of that name under `option`, through groups and entries (not Crusade's),
    nearest first."""
    for child in option.children():
        if name_key(child.name) not in SKIPPED and not child.is_group and name_key(child.name) == name_key(name):
            yield child
    for child in option.children():
        if name_key(child.name) in SKIPPED or child.type == "model" or depth >= 4:
            continue
        yield from _options_named(child, name, depth + 1)


def _option_shown(editor: Editor, unit: Selection, name: str) -> Option | None:
    """The option of that name under the unit that the data shows there, else the first (the
    engine then says it is hidden): two detachments' Enhancements may share a name (D60)."""
    named = list(_options_named(unit.option, name))
    return next((o for o in named if _visible(editor, unit, o)), named[0] if named else None)


def _visible(editor: Editor, unit: Selection, option: Option) -> bool:
    """Whether the data shows an option under the unit (neither it nor a group it is in hidden)."""
    assert unit.force is not None
    return not editor.evaluation.is_hidden(option, Context(None, unit, unit.force, option)) \
        and not editor.evaluation.in_hidden_group(option, unit, unit.force)


def datasheet_option(engine: EngineData, faction: Faction, unit_id: str) -> Option | None:
    """The entry of a datasheet (by the data's id) as a force of the faction offers it."""
    return next((o for o in _entries(engine.data.root_options(faction.id)) if o.id == unit_id), None)


@lru_cache(maxsize=MEMO_SIZE)
def choices(option: Option) -> list[tuple[tuple[str, ...], Option]]:
    """The entries a roster's `options` may name under a unit's entry, each with the names of the
    groups it is in: every entry through groups and upgrades (Crusade's too, which the data hides
    outside a Crusade army, D44), not the unit's models nor what is under them, nearest first.
    Kept per entry (the data's options live as long as the data): each check asks it again."""
    found: list[tuple[tuple[str, ...], Option]] = []
    level: list[tuple[tuple[str, ...], Option]] = [((), option)]
    for _ in range(6):
        below = []
        for groups, holder in level:
            for child in holder.children():
                if child.type == "model":
                    continue
                if child.is_group:
                    below.append(((*groups, child.name), child))
                else:
                    found.append((groups, child))
                    below.append((groups, child))
        level = below
    return found


@lru_cache(maxsize=MEMO_SIZE)
def _choices_by_group(option: Option) -> dict[str, list[int]]:
    """Where in `choices(option)` each group's choices are, by every id of the group (each data
    finding on a choice left unmade asks it of the unit's choices)."""
    found: dict[str, list[int]] = {}
    for place, (_, choice) in enumerate(choices(option)):
        for group_id in choice.group.ids if choice.group is not None else ():
            found.setdefault(group_id, []).append(place)
    return found


def choice_named(option: Option, written: str) -> Option | None:
    """The choice `written` names under a unit's entry (`choices`), its name matched loosely
    (lists.loose_key: 'Cult of Duplicity' is the data's 'The Cult of Duplicity'); written 'Group:
    Choice', the choice of that name in a group of that name."""
    found = choices(option)
    key = loose_key(written)
    named = next((o for _, o in found if loose_key(o.name) == key), None)
    group, colon, name = written.partition(":")
    if named is not None or not colon:
        return named
    return next((o for groups, o in found if loose_key(o.name) == loose_key(name)
                 and loose_key(group) in map(loose_key, groups)), None)


def choice_names(option: Option) -> list[str]:
    """The names a roster's `options` may give under a unit's entry, as a suggestion shows them:
    those that are not weapons (which go in `wargear`)."""
    return list(dict.fromkeys(o.name for _, o in choices(option) if not is_weapon(o)))


def is_weapon(option: Option) -> bool:
    """Whether an entry is a weapon: a profile of its own is a weapon's."""
    holders = [option.node, *([option.link] if option.link is not None else [])]
    return any(str(p.get("typeName", "")).casefold() in WEAPON_PROFILES
               for holder in holders for p in as_list(holder, "profiles"))


def _gives(option: Option, weapon: str) -> bool:
    """Whether an entry is the weapon: by its name or by a profile of it."""
    return name_key(weapon) in _weapons_given(option)


@lru_cache(maxsize=MEMO_SIZE)
def _weapons_given(option: Option) -> frozenset[str]:
    """The `name_key`s of an entry's name and of the weapons its profiles are of: kept per entry,
    as a unit's every selection is asked of each weapon placed."""
    holders = [option.node, *([option.link] if option.link is not None else [])]
    return frozenset([name_key(option.name), *(name_key(weapon_name(str(p.get("name", ""))))
                                               for holder in holders for p in as_list(holder, "profiles"))])


def _weapon_option(option: Option, weapon: str, alongside: tuple[str, ...] = ()) -> Option | None:
    """The entry below `option` that gives the weapon; of several, the one in the choice that also
    gives most of the weapons stated `alongside` it (a Captain's plasma pistol where a power fist may
    be taken with it), then the one whose group offers fewest of them, which taking it would put
    aside (an Intercessor Sergeant's power weapon is offered in place of his bolt rifle and in place
    of his close combat weapon: beside a bolt rifle, the second), then the one selected with fewest
    entries on the way (a T'au Commander's own missile pod, not a Missile Drone's; D60), else the
    first in the data's order."""
    found = list(_weapon_options(option, weapon))
    if not alongside or len(found) < 2:
        return min(found, key=lambda candidate: _entries_between(option, candidate), default=None)

    def fit(candidate: Option) -> tuple[int, int, int]:
        choice = _outermost(option, candidate)
        together = sum(_weapon_option(choice, other) is not None for other in alongside)
        group = choice.group
        aside = 0 if group is None else sum(
            any(o is not choice for o in _weapon_options(group, other)) for other in alongside)
        return together, -aside, -_entries_between(option, candidate)

    return max(found, key=fit)


def _entries_between(above: Option, option: Option) -> int:
    """How many entries (not groups) selecting `option` under `above` selects on the way."""
    count = 0
    for node in option.ancestors():
        if node is above:
            break
        count += not node.is_group
    return count


def _weapon_options(option: Option, weapon: str, depth: int = 0) -> Iterator[Option]:
    for child in option.children():
        if name_key(child.name) in SKIPPED or child.type == "model":
            continue
        if not child.is_group and _gives(child, weapon):
            yield child
        elif depth < 4:
            yield from _weapon_options(child, weapon, depth + 1)


def _outermost(above: Option, option: Option) -> Option:
    """The entry (not a group) nearest `above` on the way down to `option`: the choice it is in."""
    outermost = option
    node = option.parent
    while node is not None and node is not above:
        if not node.is_group:
            outermost = node
        node = node.parent
    return outermost


def _carries(selection: Selection, weapon: str) -> bool:
    return any(_gives(s.option, weapon) for s in selection.walk() if s is not selection)


def _select_along(editor: Editor, parent: Selection, target: Option) -> Selection:
    """Select `target` under `parent`, with the entries between them (an entry the one above
    already holds, by default, is taken as it is); where the choice an entry is in is full (its
    max in its parent reached), the other entries of that choice are taken away: the weapon
    replaces the default."""
    chain: list[Option] = []
    node: Option | None = target
    while node is not None and node is not parent.option:
        if not node.is_group:
            chain.append(node)
        node = node.parent
    selection = parent
    for option in reversed(chain):
        existing = next((s for s in selection.children if s.option.entry_id == option.entry_id), None)
        if existing is not None:
            selection = existing
            continue
        selection, _ = editor.select_child_entry(selection, option.entry_id)
        _make_room(editor, selection)
    return selection


def _make_room(editor: Editor, chosen: Selection) -> None:
    """Take away the other selections of the group `chosen` is in while the group is over its max."""
    group, parent = chosen.option.group, chosen.parent
    while group is not None and parent is not None:
        context = Context(None, parent, parent.force, group)
        most = [editor.evaluation.constraint_value(group, node, context)
                for node, limit in group.limits if limit.kind == "max" and limit.field == "selections"]
        most = [m for m in most if m >= 0]
        if most:
            others = [s for s in parent.children if group.id in s.option.group_ids and s is not chosen]
            over = sum(s.number for s in parent.children if group.id in s.option.group_ids) - int(min(most))
            for other in others:
                if over <= 0:
                    break
                taken = min(over, other.number)
                if taken < other.number:
                    editor.set_count(other, other.number - taken)
                else:
                    while other in parent.children:  # a merged selection goes one at a time
                        editor.deselect(other)
                over -= taken
            return
        group = group.group


def _place_weapon(editor: Editor, unit: Selection, weapon: str, carried: int,
                  alongside: tuple[str, ...] = (), kind_named: str | None = None) -> list[Selection]:
    """Give the weapon to `carried` models of the unit, beyond those that carry it already: first
    models of a kind that carries it by its datasheet, moved from the most numerous kind beside
    it; then models of a selected kind that may take it, split off their kind; then a weapon the
    unit's own entries give (outside any model), on the unit. A unit of one model takes `carried`
    of the weapon. With `kind_named`, only models of the kinds it names (`names_kind`) count, give
    and take it (D56). Returns the selections made (none where the data offers the weapon nowhere:
    the muster rules say so)."""
    if not unit_models(unit):  # a one-model unit: its weapons are its own, `carried` of each (D63)
        return _held_weapon(editor, unit, weapon, carried, alongside)

    def named(kind: Option) -> bool:
        return kind_named is None or names_kind(kind_named, kind.name)

    missing = carried - sum(m.number for m in unit_models(unit) if named(m.option) and _carries(m, weapon))
    made: list[Selection] = []
    kinds = sorted([found for found in _kinds_carrying(unit, weapon) if named(found[0])],
                   key=lambda found: _unstated(found[0], unit, (weapon, *alongside)))
    for kind, container in kinds:
        donors = [m for m in unit_models(unit) if m.parent is container and _beside(kind, m.option)
                  and named(m.option) and m.number > 1 and not _carries(m, weapon)]
        if missing <= 0 or not donors:
            continue
        donor = max(donors, key=lambda m: m.number)
        moved, _ = editor.select_child_entry(container, kind.entry_id)
        taking = max(1, min(missing, donor.number - 1, _room(editor, moved) + 1))
        editor.set_count(moved, taking)
        editor.set_count(donor, donor.number - taking)
        option = None if _carries(moved, weapon) else _weapon_option(moved.option, weapon, alongside)
        made.append(moved if option is None else _select_along(editor, moved, option))
        missing -= taking
    for model in sorted(unit_models(unit), key=lambda m: -m.number):
        if missing <= 0:
            break
        if not named(model.option):
            continue
        option = _weapon_option(model.option, weapon, alongside)
        if option is None or _carries(model, weapon):
            continue
        taking = min(missing, model.number)
        if taking < model.number:
            if merges(model.option):
                continue  # every model of this kind must be the same: the weapon is not split off it
            editor.set_count(model, model.number - taking)
            model = _split(editor, unit, model, taking)
        made.append(_select_along(editor, model, option))
        missing -= taking
    if missing > 0 and not made and kind_named is None:
        option = _weapon_option(unit.option, weapon, alongside)
        if option is not None:
            selection = _select_along(editor, unit, option)
            editor.set_count(selection, carried)
            made.append(selection)
    return made


def _kinds_carrying(unit: Selection, weapon: str) -> list[tuple[Option, Selection]]:
    """The unit's kinds of model, none of them selected yet, whose own entries give the weapon,
    each with the selection it would be taken under (the unit, or the entry of its composition)."""
    selected = {m.option.entry_id for m in unit_models(unit)}
    containers = [unit, *{id(m.parent): m.parent for m in unit_models(unit) if m.parent is not None}.values()]
    return list({kind.entry_id: (kind, container) for container in containers
                 for kind in _model_kinds(container.option) if kind.entry_id not in selected
                 and any(_gives(child, weapon) for child in _entries(kind.children()))}.values())


def _unstated(kind: Option, unit: Selection, stated: tuple[str, ...]) -> int:
    """How many of a kind's own weapons are neither stated nor carried by the unit's models already:
    of kinds that carry a weapon by their datasheet, those with fewest are taken first (ten Khorne
    Berzerkers' plasma pistols on "w/ chainblade and plasma pistol", not on "w/ eviscerator and plasma
    pistol", whose eviscerators no one stated; D55)."""
    models = unit_models(unit)
    return sum(1 for child in _entries(kind.children()) if not child.is_group
               and not any(_gives(child, weapon) for weapon in stated)
               and not any(_carries(model, child.name) for model in models))


def _beside(kind: Option, model: Option) -> bool:
    """Whether a kind of model is in the group (or a group within the group) of another kind:
    the composition both count toward."""
    node = kind.group
    while node is not None:
        if node is model.group:
            return True
        node = node.group
    return model.group is None


def _split(editor: Editor, unit: Selection, model: Selection, count: int) -> Selection:
    """`count` more models of the kind of `model`, as a selection of their own with its defaults."""
    twin, _ = editor.select_child_entry(model.parent or unit, model.option.entry_id)
    editor.set_count(twin, count)
    return twin


def unit_toggles(roster: Wh40kRoster, data: Wh40kCatalog, faction: Faction, engine: EngineData,
                 names: list[str]) -> dict[str, frozenset[str]]:
    """For each datasheet name, the force's entries (a "Show …" toggle, the entry holding it) a
    unit of it needs selected to be shown in the roster's army, as `selection_tree` builds it
    (kept built); none for a name the faction lacks."""
    sheets = data.units_by_name(faction)
    found: dict[str, frozenset[str]] = {}
    with BUILDING:
        scratch = _scratch(engine, roster, data, faction)
        for name in names:
            unit = sheets.get(name.casefold())
            built = _built_unit(engine, scratch, (name, unit.min_models, (), (), None, False, ())) if unit else None
            found[name] = frozenset(toggle or holder for holder, toggle in built.toggles) if built else frozenset()
    return found

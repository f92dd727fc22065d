"""Everything derived from a roster and its data: modifiers, conditions, repeats, costs, categories.

An ``Evaluation`` is made for one state of a roster and caches what it computes; after any change
make a new one. Conditions and repeats count selections, forces or costs in a scope; modifiers
change a field (name, hidden, a cost, a constraint's value, a characteristic, categories) when
their conditions hold, as many times as their repeats say.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from listbuilder.battlescribe.model import GameData, Node, Option, as_bool, as_list, as_number
from listbuilder.battlescribe.modifiers import (
    TYPE_NAMES,
    TYPE_SCOPES,
    Category,
    apply_modifier,
    natural_key,
    power,
)
from listbuilder.battlescribe.reuse import Read, Recorder, Reuse, counts_inside, reads_no_view, unit_key
from listbuilder.battlescribe.roster import Force, Roster, Selection

Container = Selection | Force


@dataclass
class Context:
    """Where a modifier or condition is evaluated: the selection it belongs to (None for an entry
    not yet selected), the selection or force that holds (or would hold) it, and the force."""

    selection: Selection | None
    container: Container | None
    force: Force | None
    option: Option | None = None


@dataclass
class SelectionView:
    """A selection as the data and its modifiers make it look now."""

    name: str
    hidden: bool
    type: str
    unit_costs: dict[str, float]
    categories: list[Category]
    page: str | None
    publication_id: str | None
    values: dict[str, Any]
    profiles: list[dict[str, Any]] = field(default_factory=list)
    rules: list[dict[str, Any]] = field(default_factory=list)

    @property
    def primary_category(self) -> str | None:
        return next((c.id for c in self.categories if c.primary), None)


class Evaluation:
    """The derived state of one roster state, computed on demand and cached."""

    def __init__(self, roster: Roster, reuse: Reuse | None = None):
        self.roster = roster
        self.data: GameData = roster.data
        self._views: dict[int, SelectionView] = {}
        self._in_progress: set[int] = set()
        self._cost_type_ids = [str(c["id"]) for c in self.data.cost_types()]
        self._cost_snapshot: dict[int, dict[str, float]] | None = None
        self._queries: dict[tuple[int, int, int, int, str | None], float] = {}
        self._incoming: dict[tuple[int, str], list[tuple[Node, int]]] = {}
        self._aimed_at: set[int] = set()  # the selections (by id) whose own fields a modifier in `_incoming` changes
        self._incoming_ready = False
        self._collecting = False
        self._base_values = self.data.base_value_cache  # the data's, kept across evaluations
        self._scopes: dict[tuple[str, int, int, int, bool, bool], list[Selection]] = {}
        self._counts: dict[tuple[int, bool], dict[str, float]] = {}  # a scope's selections counted by entry id
        # ... and by category, from their views, with those of them whose views are in progress
        self._categorised: dict[tuple[int, bool], dict[frozenset[int], tuple[dict[str, float], bool]]] = {}
        self._generation = 0  # how often the caches were dropped (a count spanning a drop is not built on)
        self._member_ids: dict[int, frozenset[int]] = {}
        # costs may depend on costs: settled when a query first counts one (most states never do)
        self._unsettled = self.data.queries_costs(self._cost_type_ids)
        self.recorder: Recorder | None = None  # told every query while validation records a place's (reuse.py)
        self._fixed_in = -1  # the generation in which every view was found worked out
        # Views kept from earlier states (reuse.py): a unit's are taken where they read outside it only
        # counts no view changes, the same now, and saw no view in progress; each view worked out
        # notes what its unit's read.
        self.reuse = reuse
        self._working: list[Selection | None] = []  # the unit of each view in progress (None: collecting, settling)
        # the selection whose own modifiers are being evaluated, with the depth of `_working` then: a view
        # reading itself in progress reads the data's values whatever was asked first (no other view between)
        self._innermost: tuple[int, int] | None = None
        self._read_outside: set[int] = set()  # units (by id) whose views read a view outside them or in progress
        self._view_reads: dict[int, Recorder] = {}  # by unit: the counts outside it its views read
        self._looked_up: set[int] = set()  # units whose kept views were looked for since views were last dropped

    def _settle_costs(self, rounds: int = 64) -> None:
        """Costs that depend on costs (a repeat or condition counting points) are found as New
        Recruit finds them: every selection's cost is recomputed from the last round's costs until
        nothing changes (modifier-repeat-cost-self-reference). Queries read the last round.

        Run on the first query of a cost, perhaps within the evaluation of another selection: what
        was worked out before counted no cost, so it is the same settled or not; the settling sees
        no selection as in progress, as if it had run first, and what it cached is dropped."""
        self._unsettled = False
        in_progress, self._in_progress = self._in_progress, set()
        self._working.append(None)
        selections = list(self.roster.all_selections())
        cost_fields = frozenset(self._cost_type_ids)
        self._cost_snapshot = {id(s): self._declared_costs(s.option, self.base_values(s.option)) for s in selections}
        for _ in range(rounds):
            self._queries.clear()
            current = {id(s): self._declared_costs(s.option, self._cost_values(s, cost_fields)) for s in selections}
            if current == self._cost_snapshot:
                break
            self._cost_snapshot = current
        self._views.clear()
        self._looked_up.clear()
        self._queries.clear()
        self._categorised.clear()
        self._generation += 1
        self._in_progress = in_progress
        self._working.pop()

    def _cost_values(self, selection: Selection, cost_fields: frozenset[str]) -> dict[str, Any]:
        """A selection's cost fields after its own modifiers and those other selections aim at it."""
        values = self.field_values(selection.option, self.context_of(selection), cost_fields)
        for modifier, times in self._incoming_for(selection):
            if str(modifier.get("field")) in cost_fields:
                apply_modifier(modifier, values, times)
        return values

    def _declared_costs(self, option: Option, values: dict[str, Any]) -> dict[str, float]:
        """The costs an entry shows: the types it has, and any a modifier made other than 0."""
        declared = option.costs
        return {t: float(values.get(t, 0.0)) for t in self._cost_type_ids
                if t in declared or values.get(t, 0.0) != 0.0}

    # -- selections ---------------------------------------------------------------------------

    def context_of(self, selection: Selection) -> Context:
        return Context(selection, selection.container, selection.force, selection.option)

    def view(self, selection: Selection) -> SelectionView:
        """The effective name, hidden flag, costs and categories of a selection (cached)."""
        key = id(selection)
        if key in self._views:
            return self._views[key]
        if key in self._in_progress:  # a cost condition that counts itself: use the data's values
            if self._innermost != (key, len(self._working)):  # read by its own modifiers: the same in any order
                self._saw_in_progress()
            return self._base_view(selection.option)
        unit = _unit_of(selection)
        if self.reuse is not None and id(unit) not in self._looked_up and not self._collecting:
            self._looked_up.add(id(unit))
            if self._kept_views(selection, unit) and key in self._views:
                return self._views[key]
        self._in_progress.add(key)
        self._working.append(unit)
        outer, self._innermost = self._innermost, (key, len(self._working))
        try:
            incoming = self._incoming_for(selection)
            if incoming:
                self._read_outside.add(id(unit))
            view = self.option_view(selection.option, self.context_of(selection), incoming)
            self._views[key] = view
            return view
        finally:
            self._in_progress.discard(key)
            self._working.pop()
            self._innermost = outer

    def _saw_in_progress(self) -> None:
        """A view in progress was read (as the data states it) from another's: what the views in
        progress come to depends on which was asked first, so none of their units' views is kept
        for reuse. (A selection's own modifiers reading it, with no other view worked out between,
        read the data's values in any order: `view` does not call this for them.)"""
        self._read_outside.update(id(unit) for unit in self._working if unit is not None)

    def own_views(self, unit: Selection) -> tuple[Read, ...] | None:
        """What the views of a unit's selections read outside it, where that is counts no view
        changes (forces, a cost limit, selections by entry: `reads_no_view`) and they saw no view
        in progress nor any modifier another selection aims at them: then they are the same in
        any roster holding the unit where those counts are, whatever is asked first. Else None."""
        if id(unit) in self._read_outside:
            return None
        recorder = self._view_reads.get(id(unit))
        return () if recorder is None else tuple(recorder.reads)

    def _kept_views(self, selection: Selection, unit: Selection) -> bool:
        """Take a unit's views from an earlier state (`own_views`) where what they read outside it
        counts the same now and no modifier of another selection is aimed at it. Modifiers aimed
        at others are found first, as working out the view asked for would find them (with it in
        progress)."""
        assert self.reuse is not None and unit.force is not None
        kept = self.reuse.views(unit_key(unit, unit.force))
        if not kept:
            return False
        if self.data.has_targeted_modifiers and not self._incoming_ready:
            self._in_progress.add(id(selection))
            self._working.append(unit)
            try:
                self._collect_incoming()
            finally:
                self._in_progress.discard(id(selection))
                self._working.pop()
        places = list(unit.walk())
        if self._aimed_at and any(id(place) in self._aimed_at for place in places):
            return False
        recorder = Recorder(self, unit, unit.force)
        self._working.append(None)  # what is asked here is no view's
        try:
            found = next((found for found in kept if recorder.holds(found.view_reads)), None)
        finally:
            self._working.pop()
        if found is None:
            return False
        for place, view in zip(places, found.views, strict=True):
            self._views.setdefault(id(place), view)
        recorder.reads = list(found.view_reads)  # what they read, for what this state keeps of the unit
        self._view_reads[id(unit)] = recorder
        return True

    def _base_view(self, option: Option) -> SelectionView:
        values = self.base_values(option)
        return self._view_from_values(option, values, Context(None, None, None, option))

    def base_values(self, option: Option) -> dict[str, Any]:
        """The fields modifiers may change, before any modifier (read once per entry). The lists
        are the cache's own: a modifier replaces a list (modifiers.py), never changes it in place."""
        cached = self._base_values.get(id(option))
        if cached is None:
            cached = {
                "name": option.name,
                "hidden": option.hidden,
                "page": option.page,
                "publicationId": option.publication_id,
                "categories": [Category(*c) for c in option.base_categories],
                "error": [], "warning": [], "info": [],
            }
            for type_id in self._cost_type_ids:
                cached[type_id] = 0.0
            cached.update(option.costs)
            for _, limit in option.limits:
                cached[limit.id] = limit.value
            self._base_values[id(option)] = cached
        return dict(cached)

    def option_view(self, option: Option, context: Context,
                    incoming: list[tuple[Node, int]] | None = None) -> SelectionView:
        """An option's effective fields in a context (also used for entries not yet selected),
        after its own modifiers and then those other selections aim at it."""
        values = self.base_values(option)
        for holder in self._modifier_holders(option):
            self.apply_modifiers(holder, values, context)
        for modifier, times in incoming or ():
            apply_modifier(modifier, values, times)
        return self._view_from_values(option, values, context)

    # -- modifiers aimed at other selections (New Recruit's scope and affects) ------------------

    def _incoming_for(self, selection: Selection) -> list[tuple[Node, int]]:
        """The modifiers other selections aim at this one's own fields."""
        if not self.data.has_targeted_modifiers:
            return []
        self._collect_incoming()
        return self._incoming.get((id(selection), ""), [])

    def incoming_profile_modifiers(self, selection: Selection, type_name: str) -> list[tuple[Node, int]]:
        """The modifiers aimed at this selection's profiles of a type (``profiles.<type name>``)."""
        if not self.data.has_targeted_modifiers:
            return []
        self._collect_incoming()
        return self._incoming.get((id(selection), type_name), []) + self._incoming.get((id(selection), "*"), [])

    def _collect_incoming(self) -> None:
        """Find, once per evaluation, every targeted modifier that holds and what it aims at. Their
        conditions are evaluated before any targeted modifier is applied (one pass, no fixed point)."""
        if self._incoming_ready or self._collecting:
            return
        self._collecting = True
        self._working.append(None)
        found: dict[tuple[int, str], list[tuple[Node, int]]] = {}
        try:
            for source in self.roster.all_selections():
                context = self.context_of(source)
                for holder in self._modifier_holders(source.option):
                    for modifier, groups in self.data.targeted_modifiers(holder):
                        times = self._times_within(modifier, groups, context)
                        if not times:
                            continue
                        for target, profile_type in self._targets(source, modifier):
                            found.setdefault((id(target), profile_type), []).append((modifier, times))
        finally:
            self._collecting = False
            self._working.pop()
        self._incoming = found
        self._aimed_at = {target for target, profile_type in found if not profile_type}
        self._incoming_ready = True
        if not self._aimed_at:
            return  # none that holds changes a selection's own fields: the views worked out meanwhile stand
        self._views.clear()
        self._looked_up.clear()
        self._queries.clear()
        self._scopes.clear()
        self._counts.clear()  # keyed by the identity of lists just let go
        self._categorised.clear()
        self._generation += 1
        self._member_ids.clear()

    def _times_within(self, modifier: Node, groups: tuple[Node, ...], context: Context) -> int:
        times = 1
        for group in groups:
            times *= self.times(group, context)
            if not times:
                return 0
        return times * self.times(modifier, context)

    def _targets(self, source: Selection, modifier: Node) -> list[tuple[Selection, str]]:
        """What a targeted modifier changes: selections ("" for their own fields) or their
        profiles of a type, found from its scope's node along its ``affects`` path."""
        anchor = self._modifier_anchor(source, str(modifier.get("scope") or "self"))
        if anchor is None:
            return []
        nodes: list[Selection | Force] = [anchor]
        parts = str(modifier.get("affects") or "self").split(".")
        index = 0
        while index < len(parts):
            part = parts[index]
            if part == "entries":
                recursive = index + 1 < len(parts) and parts[index + 1] == "recursive"
                below: list[Selection | Force] = [d for n in nodes for c in n.children
                                                  for d in (c.walk() if recursive else [c])]
                # recursive: the node itself and everything below it (Artificer Armour on a Captain)
                itself: list[Selection | Force] = [n for n in nodes if recursive and isinstance(n, Selection)]
                nodes = itself + below
                index += 2 if recursive else 1
                continue
            if part == "profiles":
                type_name = ".".join(parts[index + 1:]) or "*"
                return [(n, type_name) for n in nodes if isinstance(n, Selection)]
            if part not in ("self", "recursive", ""):
                nodes = [n for n in nodes if isinstance(n, Selection) and self.matches(n, part)]
            index += 1
        return [(n, "") for n in nodes if isinstance(n, Selection)]

    def _modifier_anchor(self, source: Selection, scope: str) -> Selection | Force | None:
        """The node a targeted modifier starts from: its own selection, the parent, the nearest
        selection of an entry type, the root selection, the force, or the nearest named one."""
        if scope == "self":
            return source
        if scope == "parent":
            return source.container
        if scope == "force":
            return source.force
        chain = [source, *source.ancestors()]
        if scope == "root-entry":
            return chain[-1]
        if scope in TYPE_SCOPES:
            return next((s for s in chain if s.option.type in TYPE_SCOPES[scope]), None)
        named = next((s for s in chain if scope in s.option.ids), None)
        if named is not None:
            return named
        force = source.force
        while force is not None and force.entry_id != scope:
            force = force.parent
        return force

    def _modifier_holders(self, option: Option) -> list[Node]:
        """The nodes whose modifiers change an option: the target entry, then its link."""
        holders = [option.node]
        if option.link is not None:
            holders.append(option.link)
        return holders

    def _view_from_values(self, option: Option, values: dict[str, Any], context: Context) -> SelectionView:
        costs = self._declared_costs(option, values)
        categories = [Category(c.id, c.name or str((self.data.category(c.id) or {}).get("name") or ""), c.primary)
                      for c in values["categories"]]
        categories.sort(key=lambda c: natural_key(c.name))
        view = SelectionView(
            name=str(values["name"]), hidden=bool(values["hidden"]), type=option.type,
            unit_costs=costs, categories=categories, page=values.get("page"),
            publication_id=values.get("publicationId"), values=values,
        )
        return view

    def constraint_value(self, option: Option, constraint: Node, context: Context) -> float:
        """A constraint's value after the modifiers of its entry (field = the constraint's id)."""
        constraint_id = str(constraint["id"])
        base = as_number(constraint.get("value"))
        if constraint_id not in option.modified_fields:
            return base
        if context.selection is not None and context.selection.option is option:
            return float(self.view(context.selection).values.get(constraint_id, base))
        return float(self.field_values(option, context, frozenset({constraint_id})).get(constraint_id, base))

    def field_values(self, option: Option, context: Context, fields: frozenset[str]) -> dict[str, Any]:
        """Some of an option's fields after only the modifiers that change them."""
        values = self.base_values(option)
        for holder in self._modifier_holders(option):
            self.apply_modifiers(holder, values, context, only=fields)
        return values

    def is_hidden(self, option: Option, context: Context) -> bool:
        """Whether an entry is hidden where it would be selected."""
        if "hidden" not in option.modified_fields and "category" not in option.modified_fields:
            return option.hidden
        if context.selection is not None and context.selection.option is option:
            return self.view(context.selection).hidden
        return bool(self.field_values(option, context, frozenset({"hidden", "category"}))["hidden"])

    def in_hidden_group(self, option: Option, container: Container, force: Force,
                        known: dict[str, bool] | None = None) -> bool:
        """Whether a group an entry sits in (up to the entry or force holding it) is hidden there:
        a hidden group hides everything in it (BSData hides a detachment's enhancements this way).
        `known`: the groups already asked of this container, by entry id (a caller asking of many
        entries of one container, a unit's choices, asks each group once)."""
        known = {} if known is None else known
        for group in option.ancestors():
            if not group.is_group:
                return False
            if group.entry_id not in known:
                known[group.entry_id] = self.is_hidden(group, Context(None, container, force, group))
            if known[group.entry_id]:
                return True
        return False

    # -- costs ----------------------------------------------------------------------------------

    def force_view(self, force: Force) -> dict[str, Any]:
        """A force entry's name and hidden flag after its modifiers."""
        values: dict[str, Any] = {"name": force.entry.get("name"), "hidden": as_bool(force.entry.get("hidden"))}
        self.apply_modifiers(force.entry, values, Context(None, None, force, None))
        return values

    def queried_costs(self, selection: Selection, with_children: bool) -> dict[str, float]:
        """A selection's cost as a query sees it: the settled round's, where costs depend on costs."""
        if self._unsettled:
            self._settle_costs()
        if self._cost_snapshot is None:
            return self.total_costs(selection) if with_children else self.own_costs(selection)
        unit = self._cost_snapshot.get(id(selection), {})
        totals = {t: v * selection.total_number for t, v in unit.items()}
        if with_children:
            for child in selection.children:
                for type_id, value in self.queried_costs(child, True).items():
                    totals[type_id] = totals.get(type_id, 0.0) + value
        return totals

    def own_costs(self, selection: Selection) -> dict[str, float]:
        """A selection's own cost (its unit cost times its number), children not included."""
        view = self.view(selection)
        return {t: v * selection.total_number for t, v in view.unit_costs.items()}

    def total_costs(self, selection: Selection) -> dict[str, float]:
        """A selection's cost with all its sub-selections."""
        totals = dict(self.own_costs(selection))
        for child in selection.children:
            for type_id, value in self.total_costs(child).items():
                totals[type_id] = totals.get(type_id, 0.0) + value
        return totals

    def force_costs(self, force: Force, include_child_forces: bool = True) -> dict[str, float]:
        totals = {t: 0.0 for t in self._cost_type_ids}
        for selection in force.selections:
            for type_id, value in self.total_costs(selection).items():
                totals[type_id] = totals.get(type_id, 0.0) + value
        if include_child_forces:
            for child in force.child_forces:
                for type_id, value in self.force_costs(child).items():
                    totals[type_id] = totals.get(type_id, 0.0) + value
        return totals

    def roster_costs(self) -> dict[str, float]:
        """The roster's totals for every cost type some entry in the data has a cost of
        (cost-partial-types: a type no entry costs is not tracked)."""
        totals = {t: 0.0 for t in self._cost_type_ids}
        tracked = self.data.costed_types()
        for force in self.roster.forces:
            for type_id, value in self.force_costs(force).items():
                totals[type_id] = totals.get(type_id, 0.0) + value
        return {t: v for t, v in totals.items() if t in tracked}

    # -- modifiers ------------------------------------------------------------------------------

    def apply_modifiers(self, holder: Node, values: dict[str, Any], context: Context,
                        only: frozenset[str] | None = None) -> None:
        """Apply a node's modifiers and modifier groups, in data order, to its field values
        (only those changing the ``only`` fields, when given: the rest need not be evaluated)."""
        for modifier, times in self.active_modifiers(holder, context, only=only):
            apply_modifier(modifier, values, times)

    def active_modifiers(self, holder: Node, context: Context, outer: int = 1,
                         only: frozenset[str] | None = None) -> Iterator[tuple[Node, int]]:
        """Each modifier whose conditions hold, with how many times it applies. New Recruit applies
        a node's 'set' modifiers before its others (modifier-application-order)."""
        for field_name, modifier in self.data.ordered_modifiers(holder):
            if only is not None and field_name not in only:
                continue
            times = self.times(modifier, context)
            if times:
                yield modifier, times * outer
        for group, fields in self.data.modifier_groups(holder):
            if only is not None and not (fields & only):
                continue
            times = self.times(group, context)
            if times:
                yield from self.active_modifiers(group, context, outer * times, only)

    def times(self, node: Node, context: Context) -> int:
        """0 if a modifier's (or group's) conditions fail, else 1, or its repeat count if it repeats."""
        if not self.conditions_hold(node, context):
            return 0
        repeats = as_list(node, "repeats")
        if not repeats:
            return 1
        return sum(self.repeat_times(repeat, context) for repeat in repeats)

    def repeat_times(self, repeat: Node, context: Context) -> int:
        step = as_number(repeat.get("value"))
        if step == 0:
            return 0
        count = self.query(repeat, context)
        if as_bool(repeat.get("percentValue")):
            total = self.query(repeat, context, child_id="any")
            count = 0 if total == 0 else count * 100.0 / total
        ratio = count / step
        whole = math.ceil(ratio - 1e-9) if as_bool(repeat.get("roundUp")) else math.floor(ratio + 1e-9)
        return max(0, int(whole)) * int(as_number(repeat.get("repeats"), 1))

    # -- conditions -----------------------------------------------------------------------------

    def conditions_hold(self, node: Node, context: Context) -> bool:
        """A node's conditions and condition groups, all of which must hold."""
        for condition in as_list(node, "conditions"):
            if not self.condition_holds(condition, context):
                return False
        return all(self.group_holds(group, context) for group in as_list(node, "conditionGroups"))

    def group_holds(self, group: Node, context: Context) -> bool:
        """An and/or group, or one of New Recruit's: not, counting, arithmetic and comparison groups
        (read as a number, a group holds when it is not zero)."""
        kind = str(group.get("type") or "and")
        if kind in ("and", "or", "not"):
            # in data order, stopping at the first that decides the group: what is not asked
            # cannot change its result (nor what reuse.py records it read)
            results = (self.condition_holds(c, context) for c in as_list(group, "conditions"))
            groups = (self.group_holds(g, context) for g in as_list(group, "conditionGroups"))
            if kind == "or":
                return any(results) or any(groups)
            if kind == "not":
                return not (any(results) or any(groups))
            return all(results) and all(groups)
        return self.group_value(group, context) != 0

    def group_value(self, group: Node, context: Context) -> float:
        """A numeric condition group's value over its children's values, in data order: a
        condition counts as what it counts (instanceOf, always, never: 1 or 0), a group as its value."""
        kind = str(group.get("type") or "and")
        values = [self._condition_value(c, context) for c in as_list(group, "conditions")]
        values += [self.group_value(g, context) if str(g.get("type")) not in ("and", "or", "not")
                   else float(self.group_holds(g, context)) for g in as_list(group, "conditionGroups")]
        if kind in ("and", "or", "not"):
            return float(self.group_holds(group, context))
        if kind == "count":
            truths = [self.condition_holds(c, context) for c in as_list(group, "conditions")]
            truths += [self.group_holds(g, context) for g in as_list(group, "conditionGroups")]
            return float(sum(truths))
        return _combine(kind, values)

    def _condition_value(self, condition: Node, context: Context) -> float:
        kind = str(condition.get("type"))
        if kind in ("instanceOf", "notInstanceOf", "always", "never"):
            return float(self.condition_holds(condition, context))
        return self.query(condition, context)

    def condition_holds(self, condition: Node, context: Context) -> bool:
        kind, value, percent = self.data.condition(condition)
        if kind == "always":
            return True
        if kind == "never":
            return False
        if kind in ("instanceOf", "notInstanceOf"):
            found = self.instance_of(condition, context)
            return found if kind == "instanceOf" else not found
        count = self.query(condition, context)
        if percent:
            total = self.query(condition, context, child_id="any")
            value = total * value / 100.0
        return compare(kind, count, value)

    def instance_of(self, condition: Node, context: Context) -> bool:
        """Whether the selection at scope (self, parent, an ancestor) is an instance of childId."""
        child_id = str(condition.get("childId") or "")
        scope = str(condition.get("scope") or "self")
        if scope == "primary-catalogue" and child_id in self.data.catalogue_by_id:
            # BSData's catalogue switch: whether the force is one of that catalogue (its units,
            # shared through libraries, are hidden or allied in by it). No spec covers it.
            return context.force is not None and context.force.catalogue_id == child_id
        candidates: list[Selection] = []
        if context.selection is not None:
            if scope == "self":
                candidates = [context.selection]
            elif scope == "parent":
                candidates = [s for s in [context.selection.parent] if s is not None]
            elif scope == "ancestor":
                candidates = list(context.selection.ancestors())
            else:
                candidates = [s for s in context.selection.ancestors() if scope in s.option.ids]
        elif scope in ("parent", "ancestor") and isinstance(context.container, Selection):
            candidates = [context.container]
            if scope == "ancestor":
                candidates += list(context.container.ancestors())
        return any(self.matches(s, child_id, shared=True) for s in candidates)

    # -- queries --------------------------------------------------------------------------------

    def query(self, query: Node, context: Context, child_id: str | None = None) -> float:
        """What a condition, repeat or constraint counts (cached per query and place: one query
        is asked for many entries in the same place)."""
        key = (id(query), id(context.selection), id(context.container), id(context.force), child_id)
        cached = self._queries.get(key)
        if cached is None:
            cached = self._query(query, context, child_id)
            self._queries[key] = cached
        if self.recorder is not None:
            self.recorder.read(query, context, child_id, cached)
        working = self._working[-1] if self._working else None
        if working is not None and self.reuse is not None and id(working) not in self._read_outside \
                and not counts_inside(self.data, query, context):
            self._note_outside(working, query, context, child_id, cached)
        return cached

    def _note_outside(self, unit: Selection, query: Node, context: Context, child_id: str | None,
                      value: float) -> None:
        """A query outside its unit asked while one of the unit's views is worked out."""
        if not reads_no_view(self.data, query):
            self._read_outside.add(id(unit))
            return
        assert unit.force is not None
        recorder = self._view_reads.get(id(unit))
        if recorder is None:
            recorder = self._view_reads[id(unit)] = Recorder(self, unit, unit.force)
        recorder.read(query, context, child_id, value)
        if recorder.untracked:
            self._read_outside.add(id(unit))

    def views_fixed(self) -> bool:
        """Whether every selection's view is worked out and none is in progress: then whatever is
        asked reads the views as they are, in any order (none is worked out while another is in
        progress), so what a place finds depends on what it reads alone (reuse.py)."""
        if self._in_progress:
            return False
        if self._fixed_in != self._generation:
            if any(id(s) not in self._views for s in self.roster.all_selections()):
                return False
            self._fixed_in = self._generation
        return True

    def _query(self, query: Node, context: Context, child_id: str | None = None) -> float:
        """What a condition, repeat or constraint counts: selections, forces or a cost, in scope."""
        child, field_name, scope, include_children, include_forces, shared = self.data.query(query)
        if child_id is not None:
            child = child_id
        if field_name.startswith("limit::"):  # New Recruit: the roster's limit of a cost type
            return float(self.roster.cost_limits.get(field_name[len("limit::"):], -1.0))
        if field_name == "forces":
            return float(sum(1 for f in self.scope_forces(scope, context, include_forces)
                             if child in (None, "any") or child == f.entry_id))
        selections = self.scope_selections(scope, context, include_children, include_forces)
        if field_name == "selections":
            per_parent = scope in ("self", "parent")
            if child is not None and child != "any" and child not in TYPE_NAMES:
                if child not in self.data.category_ids:
                    return self._counted(selections, per_parent).get(child, 0.0)
                return self._categorised_counts(selections, per_parent).get(child, 0.0)
            return float(sum(s.number if per_parent else s.total_number
                             for s in selections if self.matches(s, child, shared)))
        if field_name in self._cost_type_ids:
            return float(sum(self.queried_costs(s, not include_children).get(field_name, 0.0)
                             for s in selections if self.matches(s, child, shared)))
        return 0.0

    def _counted(self, selections: list[Selection], per_parent: bool) -> dict[str, float]:
        """A scope's selections (a list `scope_selections` keeps) counted by every entry, link and
        group id that names them (`matches`), once per list: a roster's many conditions counting
        an entry in the roster each look it up, not through every selection of the roster."""
        key = (id(selections), per_parent)
        counts = self._counts.get(key)
        if counts is None:
            counts = {}
            for selection in selections:
                number = selection.number if per_parent else selection.total_number
                for named in selection.option.counted_ids:
                    counts[named] = counts.get(named, 0.0) + number
            self._counts[key] = counts
        return counts

    def _categorised_counts(self, selections: list[Selection], per_parent: bool) -> dict[str, float]:
        """A scope's selections counted by every id `matches` finds them by, their categories (as
        their views make them) too, once per list and per which of them have their views in
        progress (read as the data's, `view`): the Add dialog's check of a whole faction asks how
        many of a category each of hundreds of places holds. Once counted, every other view it
        read is whole and cached, so `matches` would read the same ones again; and a count made
        while more of them were in progress needs only those views since finished, in the
        list's order (the order a whole count would work them out in)."""
        members = self._members(selections)
        in_progress = frozenset(s for s in self._in_progress if s in members)
        if in_progress:
            self._saw_in_progress()
        passes = self._categorised.setdefault((id(selections), per_parent), {})
        found = passes.get(in_progress)
        if found is not None:
            return found[0]
        generation = self._generation
        earlier = [(done, counts) for done, (counts, whole) in passes.items() if whole and in_progress < done]
        if earlier:
            done, counts = min(earlier, key=lambda pass_: len(pass_[0]))
            counts = dict(counts)
            for selection in selections:
                if id(selection) in done and id(selection) not in in_progress:
                    number = selection.number if per_parent else selection.total_number
                    option = selection.option
                    for named in option.base_category_ids:
                        counts[named] -= number
                    for named in option.counted_ids | {c.id for c in self.view(selection).categories}:
                        counts[named] = counts.get(named, 0.0) + number
        else:
            counts = {}
            for selection in selections:
                number = selection.number if per_parent else selection.total_number
                option = selection.option
                for named in option.counted_ids | {c.id for c in self.view(selection).categories}:
                    counts[named] = counts.get(named, 0.0) + number
        # counted again from it later only where no cache was dropped meanwhile
        self._categorised.setdefault((id(selections), per_parent), {})[in_progress] = (
            counts, generation == self._generation)
        return counts

    def _members(self, selections: list[Selection]) -> frozenset[int]:
        """The ids of a scope's selections (a list `scope_selections` keeps)."""
        found = self._member_ids.get(id(selections))
        if found is None:
            found = self._member_ids[id(selections)] = frozenset(id(s) for s in selections)
        return found

    def scope_forces(self, scope: str, context: Context, include_child_forces: bool) -> list[Force]:
        """The forces a 'forces' query counts: those in the roster, or below a force."""
        if scope == "roster":
            return list(self.roster.all_forces()) if include_child_forces else list(self.roster.forces)
        force = context.force
        if force is None:
            return []
        if include_child_forces:
            return [f for f in force.walk_forces() if f is not force]
        return list(force.child_forces)

    def scope_selections(self, scope: str, context: Context, include_children: bool,
                         include_forces: bool) -> list[Selection]:
        """The selections a query counts at a scope (cached per place: the roster's, a force's
        for all places in it)."""
        if scope == "roster":
            key: tuple[str, int, int, int, bool, bool] = (scope, 0, 0, 0, include_children, include_forces)
        elif scope == "force":
            key = (scope, 0, 0, id(context.force), include_children, include_forces)
        elif scope == "root-entry" or scope in TYPE_SCOPES:  # one list for every place below the anchor
            key = ("anchor", id(self._anchor(scope, context)), 0, 0, include_children, include_forces)
        else:
            key = (scope, id(context.selection), id(context.container), id(context.force), include_children,
                   include_forces)
        found = self._scopes.get(key)
        if found is None:
            found = self._scope_selections(scope, context, include_children, include_forces)
            self._scopes[key] = found
        return found

    def _scope_selections(self, scope: str, context: Context, include_children: bool,
                          include_forces: bool) -> list[Selection]:
        if scope == "roster":
            forces = list(self.roster.all_forces())
            return [s for f in forces for s in _selections_in(f.selections, include_children)]
        if scope == "force":
            if context.force is None:
                return []
            forces = list(context.force.walk_forces()) if include_forces else [context.force]
            return [s for f in forces for s in _selections_in(f.selections, include_children)]
        if scope == "self":
            if context.selection is None:
                return []
            return _selections_in(context.selection.children, include_children)
        if scope == "parent":
            container = context.container
            if container is None:
                return []
            if isinstance(container, Force) and include_forces:
                return [s for f in container.walk_forces() for s in _selections_in(f.selections, include_children)]
            return _selections_in(container.children, include_children)
        if scope == "primary-category":
            return self._primary_category_selections(context, include_children)
        if scope == "primary-catalogue":
            if context.force is None:
                return []
            forces = [f for f in self.roster.all_forces() if f.catalogue_id == context.force.catalogue_id]
            return [s for f in forces for s in _selections_in(f.selections, include_children)]
        if scope == "root-entry" or scope in TYPE_SCOPES:
            anchor = self._anchor(scope, context)
            return [] if anchor is None else _selections_in(anchor.children, include_children)
        if scope == "ancestor":  # the selections above this one (scope-ancestor)
            if context.selection is not None:
                return list(context.selection.ancestors())
            container = context.container
            return [container, *container.ancestors()] if isinstance(container, Selection) else []
        return self._named_scope_selections(scope, context, include_children)

    def _anchor(self, scope: str, context: Context) -> Selection | None:
        """New Recruit's root-entry scope (the root selection above) and type scopes (the nearest
        selection, this one or above, of that entry type)."""
        start = context.selection if context.selection is not None else context.container
        chain = [start, *start.ancestors()] if isinstance(start, Selection) else []
        if scope == "root-entry":
            return chain[-1] if chain else None
        types = TYPE_SCOPES[scope]
        return next((s for s in chain if s.option.type in types), None)

    def _primary_category_selections(self, context: Context, include_children: bool) -> list[Selection]:
        if context.selection is None or context.force is None:
            return []
        root = context.selection
        while root.parent is not None:
            root = root.parent
        primary = self.view(root).primary_category
        if primary is None:
            return []
        return [s for s in context.force.selections if self.view(s).primary_category == primary
                for s in _selections_in([s], include_children)]

    def _named_scope_selections(self, scope: str, context: Context, include_children: bool) -> list[Selection]:
        """A scope naming an entry or force entry id: the nearest such ancestor."""
        node: Selection | None = context.selection
        start = context.container if node is None else node
        current: Container | None = start
        while isinstance(current, Selection):
            if scope in current.option.ids:
                return _selections_in(current.children, include_children)
            current = current.container
        force = current if isinstance(current, Force) else context.force
        while force is not None:
            if force.entry_id == scope:
                return _selections_in(force.selections, include_children)
            force = force.parent
        return []

    def matches(self, selection: Selection, child_id: str | None, shared: bool = True) -> bool:
        """Whether a selection is one a childId names: any, a type, an entry, a group or a category."""
        if child_id is None or child_id == "any":
            return True
        option = selection.option
        if child_id in option.counted_ids:
            return True
        if child_id in TYPE_NAMES:
            return option.type == child_id
        if child_id not in self.data.category_ids:
            return False
        return any(c.id == child_id for c in self.view(selection).categories)


def _unit_of(selection: Selection) -> Selection:
    """The root selection a selection is in (itself, or the one directly in a force above it)."""
    while selection.parent is not None:
        selection = selection.parent
    return selection


def _selections_in(selections: Iterable[Selection], include_children: bool) -> list[Selection]:
    if not include_children:
        return list(selections)
    return [s for top in selections for s in top.walk()]


def _combine(kind: str, values: list[float]) -> float:
    """Fold a numeric or comparison condition group's values (New Recruit's additions)."""
    if not values:
        return 0.0
    comparisons = {"greater": "greaterThan", "greaterOrEqual": "atLeast", "less": "lessThan",
                   "lessOrEqual": "atMost", "equal": "equalTo", "notEqual": "notEqualTo"}
    if kind in comparisons:
        return float(len(values) >= 2 and compare(comparisons[kind], values[0], values[1]))
    if kind == "min":
        return min(values)
    if kind == "max":
        return max(values)
    result = values[0]
    for value in values[1:]:
        if kind == "add":
            result += value
        elif kind == "subtract":
            result -= value
        elif kind == "multiply":
            result *= value
        elif kind == "divide":
            result = result / value if value else 0.0
        elif kind == "modulo":
            result = math.fmod(result, value) if value else 0.0
        elif kind == "power":
            result = power(result, value, 1)
    return result


def compare(kind: str, count: float, value: float) -> bool:
    """A condition's comparison of what was counted with its value."""
    eps = 1e-9
    if kind == "atLeast":
        return count >= value - eps
    if kind == "atMost":
        return count <= value + eps
    if kind == "greaterThan":
        return count > value + eps
    if kind == "lessThan":
        return count < value - eps
    if kind == "equalTo":
        return abs(count - value) <= eps
    if kind == "notEqualTo":
        return abs(count - value) > eps
    return False

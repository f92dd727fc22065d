"""Every broken rule of a roster: constraints (entries, groups, categories, forces), cost limits,
hidden selections. Each becomes one ``RuleError`` (and, for the rest of the project, a ``Finding``).

Attribution follows New Recruit, for which BSData is written: a max broken by selections is owned
by the selection; a min is owned by the place that lacks selections (the category of a root entry,
the parent selection, the force or the roster), and, where some selections exist, by one of them too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from listbuilder.battlescribe.evaluate import Container, Context, Evaluation
from listbuilder.battlescribe.model import Limit, Node, Option, as_bool, as_list, as_number
from listbuilder.battlescribe.modifiers import MESSAGE_FIELDS, format_number
from listbuilder.battlescribe.reuse import FORCE, Found, Live, Read, Recorder, Reuse, Said, force_key, unit_key
from listbuilder.battlescribe.roster import Force, Selection
from listbuilder.core.findings import Finding

EPS = 1e-9


@dataclass(frozen=True)
class RuleError:
    """One broken rule: who owns it, which data node and constraint it comes from, and why."""

    owner_type: str  # "roster", "force", "category" or "selection"
    owner_ids: frozenset[str]
    source_ids: frozenset[str]  # the ids of the entry, link or force entry holding the constraint
    constraint_id: str  # a constraint id, "hidden", or a cost type id for a cost limit
    message: str
    path: tuple[str | int, ...] = ()
    file_id: str = ""
    severity: str = "error"  # "warning" for New Recruit's warning and info messages
    place: str = ""  # where the rule is in the data, in a player's words (when its source file is known)

    @property
    def source(self) -> str:
        """The data place it rests on, as 'entry/constraint' (or 'costLimits/type')."""
        return f"{sorted(self.source_ids)[0] if self.source_ids else ''}/{self.constraint_id}"

    def to_finding(self) -> Finding:
        code = {"hidden": "data-hidden"}.get(self.constraint_id, "data-constraint")
        if "costLimits" in self.source_ids:
            code = "cost-limit"
        if self.constraint_id in MESSAGE_FIELDS:
            code = f"data-{self.constraint_id}"
        rule = self.place or (f"{self.file_id}:{self.source}" if self.file_id else self.source)
        return Finding(code, self.message, rule, "warning" if self.severity == "warning" else "error", self.path)


class Validator:
    """Collects the errors of one evaluated roster."""

    def __init__(self, evaluation: Evaluation, reuse: Reuse | None = None):
        self.ev = evaluation
        self.reuse = reuse  # what earlier states found at their units (reuse.py), kept and reused
        self._steps: list[Live | Said] | None = None  # what a unit's places find, while they are recorded
        self.roster = evaluation.roster
        self.errors: list[RuleError] = []
        self._seen: set[tuple[str, ...]] = set()
        self._all: list[Selection] | None = None
        self._index: dict[str, list[Selection]] | None = None
        self._pools: dict[tuple[tuple[int, ...], bool], tuple[list[Selection], dict[str, list[Selection]]]] = {}
        self._scoped: dict[tuple[object, ...], dict[str, list[Selection]]] = {}

    def run(self) -> list[RuleError]:
        for force in self.roster.all_forces():
            self._check_force_entry(force)
            self._check_categories(force)
            self._check_options(self.ev.data.root_options(force.catalogue_id), force, force)
        for force in self.roster.all_forces():
            for unit in force.selections:
                self._check_unit(unit, force)
        self._check_hidden()
        self._check_messages()
        self._check_cost_limits()
        return self.errors

    def _add(self, error: RuleError, key: tuple[str, ...] | None = None) -> None:
        if key is not None:
            if key in self._seen:
                return
            self._seen.add(key)
        self.errors.append(error)
        if self._steps is not None:
            self._steps.append(Said(error, False, key))

    # -- a unit's places, reused from an earlier state where nothing they read has changed -------

    def _check_unit(self, unit: Selection, force: Force) -> None:
        """The constraints at every place of a unit: what an earlier state found there where the
        unit and all it read outside it are the same now (reuse.py), else checked and kept."""
        places = list(unit.walk())
        if self.reuse is None or not self.ev.views_fixed():
            for place in places:
                self._check_options(place.option.children(), place, force)
            return
        key = unit_key(unit, force)
        recorder = Recorder(self.ev, unit, force)
        checked = tuple(self._to_check(p.option.children()) for p in places)
        for found in self.reuse.found(key):
            if found.checked == checked and all(self.ev.view(p) == v for p, v in zip(places, found.views)) \
                    and recorder.holds(found.reads):
                self._replay(found, places, force)
                return
        self._steps, self.ev.recorder = [], recorder
        try:
            for place, options in zip(places, checked):
                self._check_place(options, place, force)
            steps = self._steps
        finally:
            self._steps, self.ev.recorder = None, None
        if not recorder.untracked and self.ev.views_fixed():
            self.reuse.keep(key, Found(tuple(self.ev.view(p) for p in places), checked, tuple(recorder.reads),
                                       tuple(_relative(step, places, force) for step in steps),
                                       *_own_views(self.ev.own_views(unit))))

    def _held_anywhere(self, option: Option, rule: Limit) -> bool:
        """Whether a constraint may count a selection of the option: false for a max of
        selections where the roster holds none of the ids it counts by (nothing taken breaks no max)."""
        return not (rule.kind == "max" and rule.field == "selections" and not rule.percent
                    and (option.id if rule.shared else option.entry_id) not in self._by_id())

    def _check_untaken(self, option: Option, force: Force, where: tuple[object, ...]) -> None:
        """The constraints of an option a force offers that none of its selections are of (most of
        its root entries): what an earlier state found where what they read is the same now, else
        checked and kept. With nothing taken below the force, they read of it only by queries.
        ``where``: the force (`force_key`)."""
        assert self.reuse is not None
        key = (*where, option)
        for found in self.reuse.found(key):
            if not found.reads or Recorder(self.ev, None, force).holds(found.reads):
                self._replay(found, [], force)
                return
        recorder = Recorder(self.ev, None, force)
        self._steps, self.ev.recorder = [], recorder
        try:
            self._check_option(option, force, force, [], option.checked_limits)
            steps = self._steps
        finally:
            self._steps, self.ev.recorder = None, None
        if not recorder.untracked and self.ev.views_fixed():
            self.reuse.keep(key, Found((), (), tuple(recorder.reads), tuple(_relative(s, [], force) for s in steps)))

    def _replay(self, found: Found, places: list[Selection], force: Force) -> None:
        """What an earlier state found at a unit, at the unit's places now; its constraints that
        count outside it checked again."""
        path: tuple[str | int, ...] | None = None
        ids: dict[int, str] = {}
        for step in found.steps:
            if isinstance(step, Live):
                if not self._held_anywhere(step.option, step.limit):
                    continue  # a max of selections the roster holds none of (as `to_check` reads it)
                if step.container == FORCE:  # an option of the force none of its selections are of
                    self._check_option(step.option, force, force, [], [(step.node, step.limit)])
                    continue
                container = places[step.container]
                taken = [s for s in container.children
                         if step.option.id == s.option.id or step.option.id in s.option.group_ids]
                self._check_option(step.option, container, force, taken, [(step.node, step.limit)])
                continue
            if path is None:
                path = places[0].path() if places else ()
                ids = {FORCE: force.id, **{i: p.id for i, p in enumerate(places)}}
            error = step.error
            if step.relative:
                error = replace(error, path=path + error.path)
            key = None if step.key is None else tuple(ids[p] if isinstance(p, int) else p for p in step.key)
            self._add(error, key)

    # -- entries and groups ---------------------------------------------------------------------

    def _check_options(self, options: list[Option], container: Container, force: Force) -> None:
        """Check the constraints of every option offered in a container (groups' too)."""
        self._check_place(self._to_check(options), container, force)

    def _to_check(self, options: list[Option]) -> tuple[Option, ...]:
        return self.ev.data.checkable(options).to_check(self._by_id())

    def _check_place(self, checked: tuple[Option, ...], container: Container, force: Force) -> None:
        present: dict[str, list[Selection]] = {}
        for child in container.children:
            for key in {child.option.id} | child.option.group_ids:
                present.setdefault(key, []).append(child)
        where = force_key(force) if container is force and self.reuse is not None else None
        for option in checked:
            taken = present.get(option.id, [])
            if not taken and where is not None and self.ev.views_fixed():
                self._check_untaken(option, force, where)
            else:
                self._check_option(option, container, force, taken, option.checked_limits)

    def _check_option(self, option: Option, container: Container, force: Force, taken: list[Selection],
                      limits: list[tuple[Node, Limit]]) -> None:
        """Some of an option's constraints (all: `checked_limits`) in a container. ``taken``: the
        container's selections of the option (or made in the group)."""
        live = [(node, limit) for node, limit in limits if not _cannot_break(limit, taken)]
        if not live:
            return
        here = [s for s in taken if belongs(s, option)]
        context = Context(here[0] if here and not option.is_group else None, container, force, option)
        for node, limit in live:
            if self._steps is None or not _counts_outside(limit, container):
                self._check_constraint(option, node, limit, container, force, context, taken)
                continue
            # counted outside the unit by itself: checked again in every state, what it finds not kept
            recorder = self.ev.recorder
            assert recorder is not None
            self._steps.append(Live(recorder.index.get(id(container), FORCE), option, node, limit))
            steps, self._steps, self.ev.recorder = self._steps, None, None
            try:
                self._check_constraint(option, node, limit, container, force, context, taken)
            finally:
                self._steps, self.ev.recorder = steps, recorder

    def _check_constraint(self, option: Option, node: Node, rule: Limit, container: Container, force: Force,
                          context: Context, taken: list[Selection]) -> None:
        if rule.field == "forces":
            value = self.ev.constraint_value(option, node, context)
            if rule.kind != "max" or value >= 0:
                self._check_forces_field(option, node, rule, value, force)
            return
        mine = self._mine(option, rule, container, force, taken)
        if rule.kind == "max" and not mine:
            return  # nothing taken breaks no max (and its value need not be worked out)
        value = self.ev.constraint_value(option, node, context)
        if rule.kind == "max" and value < 0:
            return
        per_parent = rule.scope == "parent"
        count = self._measure(rule, mine, per_parent)
        limit = value
        if rule.percent:
            limit = self._measure(rule, self._scope_selections(rule, container, force), per_parent) * value / 100.0
        if not _broken(rule.kind, count, limit) or self.ev.is_hidden(option, context) \
                or self.ev.in_hidden_group(option, container, force):
            return  # New Recruit checks no constraint of a hidden entry (constraint-hidden-enforcement), nor
            # of one a hidden group holds (BSData: Crusade's choices, a group hidden outside a Crusade army)
        source = frozenset(_holder_of(option, node))
        message = self._message(option, rule, limit, count, container)
        key = (rule.id, option.id if rule.shared else option.entry_id, self._scope_key(rule.scope, container, force))
        place = self._place(_holder_node(option, node), node, option.name, f"constraint {rule.id}")

        def report(owner_type: str, owner_ids: frozenset[str], path: tuple[str | int, ...], tag: str) -> None:
            self._add(RuleError(owner_type, owner_ids, source, rule.id, message, path, option.catalogue_id,
                                place=place), key + (tag,))

        if rule.kind == "max" and mine and option.is_group and isinstance(container, Selection) and per_parent:
            # New Recruit blames a group's limit on the selection holding the group
            report("selection", container.option.ids, container.path(), "sel")
            return
        if rule.kind == "max" and mine:
            report("selection", mine[0].option.ids, mine[0].path(), "sel")
            return
        report(*self._min_owner(option, rule.scope, container, force), "owner")
        if mine and not per_parent:
            report("selection", mine[0].option.ids, mine[0].path(), "sel")

    def _check_forces_field(self, option: Option, node: Node, rule: Limit, value: float, force: Force) -> None:
        """An entry's constraint on how many forces there are (in the roster, or in its force)."""
        forces = list(self.roster.all_forces()) if rule.scope == "roster" else list(force.walk_forces())
        count = len(forces)
        if _broken(rule.kind, count, value) and not self.ev.is_hidden(option, Context(None, force, force, option)):
            message = f"{option.name}: {rule.kind} {format_number(value)} forces in the {rule.scope}, {count} there"
            owner = ("roster", frozenset(), ()) if rule.scope == "roster" else (
                "force", frozenset({force.entry_id}), force.path())
            place = self._place(_holder_node(option, node), node, option.name, f"constraint {rule.id}")
            self._add(RuleError(owner[0], owner[1], frozenset(_holder_of(option, node)), rule.id,
                                message, owner[2], option.catalogue_id, place=place), (rule.id, rule.scope, force.id))

    def _min_owner(self, option: Option, scope: str, container: Container,
                   force: Force) -> tuple[str, frozenset[str], tuple[str | int, ...]]:
        """Who owns a min (or a max with no selection to blame): the place that lacks selections."""
        if scope == "roster":
            return "roster", frozenset(), ()
        if scope == "parent" and isinstance(container, Selection):
            return "selection", frozenset(container.option.ids), container.path()
        if scope == "parent":
            primary = self._primary_category(option)
            if primary is not None:
                return "category", frozenset({primary}), force.path()
        return "force", frozenset({force.entry_id}), force.path()

    def _primary_category(self, option: Option) -> str | None:
        for link in option.merged("categoryLinks"):
            if as_bool(link.get("primary")):
                return str(link.get("targetId"))
        return None

    def _scope_key(self, scope: str, container: Container, force: Force) -> str:
        if scope == "roster":
            return "roster"
        if scope in ("force", "primary-catalogue"):
            return force.id
        return container.id

    def _scope_selections(self, rule: Limit, container: Container, force: Force) -> list[Selection]:
        """The selections in a constraint's scope."""
        scope = rule.scope
        if scope == "parent":
            if isinstance(container, Force) and rule.include_child_forces:
                return [s for f in container.walk_forces() for s in f.walk_selections()]
            if rule.include_children:
                return [s for top in container.children for s in top.walk()]
            return list(container.children)
        if scope == "force":  # New Recruit ignores includeChildForces here (constraint-include-child-forces)
            return list(force.walk_selections())
        if scope == "roster":
            return self._everything()
        if scope == "self" and isinstance(container, Selection):
            return [s for top in container.children for s in top.walk()]
        if scope == "primary-catalogue":
            return [s for f in self.roster.all_forces() if f.catalogue_id == force.catalogue_id
                    for s in f.walk_selections()]
        return list(container.children)

    def _mine(self, option: Option, rule: Limit, container: Container, force: Force,
              taken: list[Selection]) -> list[Selection]:
        """The selections of an option a constraint counts, in its scope: at force and roster
        scope from an index of the roster's selections by id, at parent scope (its direct
        children only) from ``taken``, the container's children of the option, so neither is
        rescanned."""
        if rule.scope == "parent" and not rule.include_children and not (
                isinstance(container, Force) and rule.include_child_forces):
            return [s for s in taken if belongs(s, option, rule.shared)]
        if rule.scope in ("roster", "force"):
            candidates = self._by_id().get(option.id if rule.shared else option.entry_id, [])
            chosen = [s for s in candidates if belongs(s, option, rule.shared)]
            return chosen if rule.scope == "roster" else [s for s in chosen if s.force is force]
        place = force.catalogue_id if rule.scope == "primary-catalogue" else id(container)  # what the scope reads
        key = (rule.scope, place, rule.include_children, rule.include_child_forces)
        scoped = self._scoped.get(key)
        if scoped is None:  # the constraints of a place share their scope: listed and indexed once for all
            scoped = self._scoped[key] = _indexed(self._scope_selections(rule, container, force))
        return [s for s in scoped.get(option.id if rule.shared else option.entry_id, [])
                if belongs(s, option, rule.shared)]

    def _by_id(self) -> dict[str, list[Selection]]:
        """Every selection of the roster by the ids it counts under."""
        if self._index is None:
            self._index = _indexed(self._everything())
        return self._index

    def _everything(self) -> list[Selection]:
        """Every selection in the roster (listed once per validation)."""
        if self._all is None:
            self._all = list(self.roster.all_selections())
        return self._all

    def _measure(self, rule: Limit, selections: list[Selection], per_parent: bool = False) -> float:
        """Selections (per parent model at parent scope, else in all) or a cost, summed."""
        field_name = rule.field
        if field_name == "selections":
            return float(sum(s.number if per_parent else s.total_number for s in selections))
        return float(sum(self.ev.own_costs(s).get(field_name, 0.0) for s in selections))

    def _message(self, option: Option, rule: Limit, limit: float, count: float, container: Container) -> str:
        """The data's own message where it gives one, else which entry, how many, the limit, where."""
        if rule.message:  # New Recruit's own message for a constraint
            return rule.message.replace("{self}", option.name)
        bound = {"max": "at most", "exactly": "exactly"}.get(rule.kind, "at least")
        return (f"{option.name}: {bound} {self._amount(rule.field, limit)} {self._where(rule.scope, container)}, "
                f"{format_number(count)} taken")

    def _amount(self, field_name: str, value: float) -> str:
        """'1 selection', '3 selections', '500 pts'."""
        if field_name == "selections":
            return f"{format_number(value)} selection{'' if value == 1 else 's'}"
        return f"{format_number(value)} {self._cost_name(field_name)}"

    def _where(self, scope: str, container: Container) -> str:
        if scope == "parent":
            name = container.entry.get("name") if isinstance(container, Force) else self.ev.view(container).name
            return f"in {name}"
        return {"force": "in the force", "roster": "in the roster", "self": "in it"}.get(scope, f"in {scope}")

    def _cost_name(self, type_id: str) -> str:
        for cost_type in self.ev.data.cost_types():
            if str(cost_type["id"]) == type_id:
                return str(cost_type.get("name") or type_id)
        return type_id

    # -- where a rule is in the data --------------------------------------------------------------

    def _place(self, holder: Node, node: Node | None, name: str, what: str) -> str:
        """'data: <file>:<line> (revision <r>), <entry>, <what>', or "" where the data's source is
        not known (a spec's setup): the finding then keeps its ids."""
        place = self.ev.data.data_place(holder, node)
        return f"data: {place}, {name}, {what}" if place else ""

    def _modifier_place(self, selection: Selection, field_name: str, text: str | None = None) -> str:
        """The place of a hidden flag or a message: the modifier that sets it where it is on the
        entry, its link or a group around it (at its own line and by its id where it has one),
        else the entry itself."""
        if not self.ev.data.sources:
            return ""
        option = selection.option
        name = option.name
        holders = [h for h in (option.node, option.link) if h is not None]
        holders += [group.node for group in option.ancestors() if group.is_group] if field_name == "hidden" else []
        for holder in holders:
            modifier = _modifier_setting(holder, field_name, text)
            if modifier is not None:
                what = f"modifier {modifier['id']}" if modifier.get("id") else f"{field_name} modifier"
                return self._place(holder, modifier, str(holder.get("name") or name), what)
        return self._place(option.link if option.link is not None else option.node, None, name, field_name)

    # -- forces and categories ------------------------------------------------------------------

    def _check_force_entry(self, force: Force) -> None:
        """A force entry's own constraints: how many forces of it the roster (or parent) holds."""
        context = Context(None, None, force, None)
        values: dict[str, object] = {str(c["id"]): as_number(c.get("value"))
                                     for c in as_list(force.entry, "constraints")}
        self.ev.apply_modifiers(force.entry, values, context)
        for constraint in as_list(force.entry, "constraints"):
            kind = str(constraint.get("type"))
            value = float(values[str(constraint["id"])])  # type: ignore[arg-type]
            if kind == "max" and value < 0:
                continue
            count = self._forces_counted(force, constraint)
            if (kind == "max" and count > value + EPS) or (kind == "min" and count < value - EPS):
                what = "at most" if kind == "max" else "at least"
                message = f"{force.entry.get('name')}: {what} {format_number(value)} such forces, {count} there"
                place = self._place(force.entry, constraint, str(force.entry.get("name")),
                                    f"constraint {constraint['id']}")
                self._add(RuleError("force", frozenset({force.entry_id}), frozenset({force.entry_id}),
                                    str(constraint["id"]), message, force.path(), place=place))

    def _forces_counted(self, force: Force, constraint: Node) -> int:
        """What a force entry's constraint counts. New Recruit evaluates it inside the force
        itself, so each force counts itself (and, with includeChildForces, its child forces of
        the same entry), not its siblings: constraint-forces-field-on-forceentry and
        constraint-forces-field-min-error pin this down."""
        if as_bool(constraint.get("includeChildForces")):
            return sum(1 for f in force.walk_forces() if f.entry_id == force.entry_id)
        return 1

    def _check_categories(self, force: Force) -> None:
        """Category limits: a force entry's category links, and the category entries' own; a
        category entry the force entry does not link binds too where the force's selections carry
        it (BSData caps Chaos Space Marines' Cults of the Dark Gods so, a hidden category)."""
        linked: set[str] = set()
        for link in as_list(force.entry, "categoryLinks"):
            category_id = str(link.get("targetId"))
            linked.add(category_id)
            category = self.ev.data.category(category_id) or {}
            for holder in (link, category):
                for constraint in as_list(holder, "constraints"):
                    self._check_category_constraint(force, category_id, holder, constraint)
        carried = dict.fromkeys(c.id for s in force.walk_selections() for c in self.ev.view(s).categories)
        for category_id in carried:
            entry = self.ev.data.category(category_id)
            if category_id in linked or entry is None:
                continue
            for constraint in as_list(entry, "constraints"):
                self._check_category_constraint(force, category_id, entry, constraint)

    def _check_category_constraint(self, force: Force, category_id: str, holder: Node, constraint: Node) -> None:
        context = Context(None, force, force, None)
        values: dict[str, object] = {str(constraint["id"]): as_number(constraint.get("value"))}
        self.ev.apply_modifiers(holder, values, context)
        value = float(values[str(constraint["id"])])  # type: ignore[arg-type]
        kind = str(constraint.get("type"))
        if kind == "max" and value < 0:
            return
        include_forces = as_bool(constraint.get("includeChildForces"))
        forces = list(force.walk_forces()) if include_forces else [force]
        if str(constraint.get("scope")) == "roster":
            forces = list(self.roster.all_forces())
        rule = Limit.of(constraint)
        pool, by_category = self._pool(forces, rule.include_children)
        count = self._measure(rule, by_category.get(category_id, []))
        if rule.percent:
            value = self._measure(rule, pool) * value / 100
        if (kind == "max" and count > value + EPS) or (kind == "min" and count < value - EPS):
            name = (self.ev.data.category(category_id) or {}).get("name", category_id)
            what = "at most" if kind == "max" else "at least"
            message = f"{name}: {what} {self._amount(rule.field, value)} in the force, {format_number(count)} taken"
            place = self._place(holder, constraint, str(name), f"constraint {constraint['id']}")
            self._add(RuleError("category", frozenset({category_id}), frozenset({str(holder.get("id")), category_id}),
                                str(constraint["id"]), message, force.path(), place=place))

    def _pool(self, forces: list[Force], include_children: bool) -> tuple[list[Selection], dict[str, list[Selection]]]:
        """The selections a category constraint counts among, and those of each category, sorted
        once for the force's many category constraints."""
        key = (tuple(id(f) for f in forces), include_children)
        found = self._pools.get(key)
        if found is None:
            pool = [s for f in forces for s in (f.walk_selections() if include_children else f.selections)]
            by_category: dict[str, list[Selection]] = {}
            for selection in pool:
                for category_id in dict.fromkeys(c.id for c in self.ev.view(selection).categories):
                    by_category.setdefault(category_id, []).append(selection)
            found = self._pools[key] = (pool, by_category)
        return found

    # -- hidden and cost limits -----------------------------------------------------------------

    def _check_hidden(self) -> None:
        """A hidden entry may not be taken (New Recruit reports it; BattleScribe keeps quiet)."""
        for selection in self.roster.all_selections():
            assert selection.force is not None
            if self.ev.view(selection).hidden or self.ev.in_hidden_group(selection.option, selection.container,
                                                                         selection.force):
                ids = frozenset(selection.option.ids)
                message = f"{self.ev.view(selection).name} is hidden and may not be taken"
                self._add(RuleError("selection", ids, ids, "hidden", message, selection.path(),
                                    selection.option.catalogue_id, place=self._modifier_place(selection, "hidden")))

    def _check_messages(self) -> None:
        """New Recruit's message modifiers (field error, warning or info): the data's own words."""
        for selection in self.roster.all_selections():
            view = self.ev.view(selection)
            ids = frozenset(selection.option.ids)
            for kind in MESSAGE_FIELDS:
                for text in view.values.get(kind) or []:
                    self._add(RuleError("selection", ids, ids, kind, f"{view.name}: {text}", selection.path(),
                                        selection.option.catalogue_id, "error" if kind == "error" else "warning",
                                        self._modifier_place(selection, kind, text)))

    def _check_cost_limits(self) -> None:
        costs = self.ev.roster_costs()
        for type_id, limit in self.roster.cost_limits.items():
            if limit < 0:
                continue
            spent = costs.get(type_id, 0.0)
            if spent > limit + EPS:
                message = (f"{self._cost_name(type_id)}: {format_number(spent)} spent, "
                           f"over the limit of {format_number(limit)}")
                self._add(RuleError("roster", frozenset(), frozenset({"costLimits"}), type_id, message, ()))


def _indexed(selections: list[Selection]) -> dict[str, list[Selection]]:
    """Selections by the ids they count under (their target, composite id and groups), in order:
    whatever ``belongs`` to an option is under its id, or its entry id where links are not shared."""
    index: dict[str, list[Selection]] = {}
    for selection in selections:
        option = selection.option
        for key in {option.id, option.entry_id} | option.group_ids:
            index.setdefault(key, []).append(selection)
    return index


def _own_views(reads: tuple[Read, ...] | None) -> tuple[bool, tuple[Read, ...]]:
    return (False, ()) if reads is None else (True, reads)


def _counts_outside(rule: Limit, container: Container) -> bool:
    """Whether a constraint counts outside the place it is checked at by itself (its forces, a
    force's or the roster's selections, a share of them; at a force, what is below the force's
    own selections): checked afresh in every state. The rest count the place's own selections
    (`_mine`), which are a unit's, or at a force those of the option (none, where it is reused)."""
    return (rule.field == "forces" or rule.percent or rule.scope in ("force", "roster", "primary-catalogue")
            or (isinstance(container, Force) and rule.scope == "parent"
                and (rule.include_children or rule.include_child_forces)))


def _relative(step: Live | Said, places: list[Selection], force: Force) -> Live | Said:
    """A step found at a unit's places (or a force's option), with their paths and ids as the
    unit's own (its place in the roster, its selections by index, the force as FORCE), for another
    state to put where the unit is then."""
    if isinstance(step, Live):
        return step
    path = places[0].path() if places else None
    error = step.error
    relative = path is not None and error.path[:len(path)] == path
    if relative:
        error = replace(error, path=error.path[len(path or ()):])
    index = {force.id: FORCE, **{s.id: i for i, s in enumerate(places)}}
    key = step.key and tuple(index.get(part, part) if isinstance(part, str) else part for part in step.key)
    return Said(error, relative, key)


def _cannot_break(rule: Limit, taken: list[Selection]) -> bool:
    """A quick no: a max at parent scope on selections with nothing taken."""
    return (rule.kind == "max" and not taken and rule.scope == "parent" and not rule.percent
            and not rule.include_children and rule.field == "selections")


def _broken(kind: str, count: float, limit: float) -> bool:
    if kind == "max":
        return count > limit + EPS
    if kind == "exactly":
        return abs(count - limit) > EPS
    return count < limit - EPS


def belongs(selection: Selection, option: Option, shared: bool = True) -> bool:
    """Whether a selection was made from an option (for a group: from an entry inside it).

    With shared (the default) a selection of the same target entry reached through another link
    counts too; without it only selections made through this very path do."""
    if option.is_group:  # made in the group itself, not below an entry of it
        return (option.id if shared else option.entry_id) in selection.option.group_ids
    if shared:
        return selection.option.id == option.id
    return selection.option.entry_id == option.entry_id


def _holder_of(option: Option, constraint: Node) -> set[str]:
    """The id of the node (target entry or link) a constraint is written on."""
    return {str(_holder_node(option, constraint).get("id", ""))}


def _holder_node(option: Option, constraint: Node) -> Node:
    """The node (target entry or link) a constraint is written on."""
    if option.link is not None and any(c is constraint for c in as_list(option.link, "constraints")):
        return option.link
    return option.node


def _modifier_setting(holder: Node, field_name: str, text: str | None) -> Node | None:
    """The first modifier of a node (in its modifier groups too) that hides it (``hidden``) or adds
    that message (``error``, ``warning``, ``info``)."""
    for modifier in as_list(holder, "modifiers"):
        if str(modifier.get("field")) != field_name:
            continue
        value = modifier.get("value")
        if as_bool(value) if text is None else str(value) == text:
            return modifier
    for group in as_list(holder, "modifierGroups"):
        found = _modifier_setting(group, field_name, text)
        if found is not None:
            return found
    return None


def validate(evaluation: Evaluation, reuse: Reuse | None = None) -> list[RuleError]:
    return Validator(evaluation, reuse).run()

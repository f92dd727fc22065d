"""The editing API: add and remove forces and selections, set counts and limits, and read back the
roster's state, its errors and what may be added where.

Every change drops the cached evaluation, so state and errors always reflect the roster as it is.
When a force or selection is created, the entries its data says must be there (a min constraint,
a group's default entry) are selected for the user, as New Recruit does.
"""

from __future__ import annotations

from typing import Any

from listbuilder.battlescribe.evaluate import Context, Evaluation, SelectionView
from listbuilder.battlescribe.model import GameData, Node, Option, as_bool, as_list, as_number
from listbuilder.battlescribe.modifiers import apply_modifier, natural_key
from listbuilder.battlescribe.reuse import Reuse
from listbuilder.battlescribe.roster import Force, Roster, Selection
from listbuilder.battlescribe.rosterdict import roster_from_dict, roster_to_dict
from listbuilder.battlescribe.validate import RuleError, validate
from listbuilder.core.findings import Finding


class EditError(ValueError):
    """An action the data or the roster does not allow (an unknown id, a root count change...)."""


class Editor:
    """One roster being edited against one game system and its catalogues."""

    def __init__(self, game_system: Node, catalogues: list[Node], name: str = "New Roster",
                 sources: dict[str, Any] | None = None, data_revision: str | None = None):
        """``sources`` (compile_data's) and ``data_revision`` (the data repository's commit, where
        known) let each finding name the data's file, line and revision (see GameData)."""
        self.data = GameData(game_system, catalogues, sources, data_revision)
        self.roster = Roster(self.data, name=name)
        self._evaluation: Evaluation | None = None
        self.reuse: Reuse | None = None

    @classmethod
    def on(cls, data: GameData, name: str = "New Roster", reuse: Reuse | None = None) -> Editor:
        """An editor of a new roster on data already indexed (GameData holds no roster's state):
        checking many rosters against one faction indexes its catalogues once. ``reuse``: what
        validation found in earlier rosters on this data, to reuse where it still holds (reuse.py)."""
        editor = cls.__new__(cls)
        editor.data, editor.roster, editor._evaluation, editor.reuse = data, Roster(data, name=name), None, reuse
        return editor

    # -- derived state ----------------------------------------------------------------------------

    @property
    def evaluation(self) -> Evaluation:
        if self._evaluation is None:
            self._evaluation = Evaluation(self.roster, self.reuse)
        return self._evaluation

    def _changed(self) -> None:
        self._evaluation = None

    def errors(self) -> list[RuleError]:
        return validate(self.evaluation, self.reuse)

    def findings(self) -> list[Finding]:
        return [error.to_finding() for error in self.errors()]

    # -- forces ---------------------------------------------------------------------------------

    def add_force(self, force_entry_id: str, catalogue_id: str | None = None,
                  parent: Force | None = None) -> tuple[Force, dict[str, str]]:
        """A new force of a force entry; returns it and the entries selected for it automatically."""
        found = self.data.force_entry(force_entry_id)
        if found is None:
            raise EditError(f"no force entry {force_entry_id!r}")
        entry, file_id = found
        catalogue = catalogue_id or self._default_catalogue(file_id, parent)
        force = Force(entry, catalogue, parent=parent, roster=self.roster)
        siblings = self.roster.forces if parent is None else parent.child_forces
        siblings.append(force)
        if parent is not None:  # child forces: in the order of the parent's force entries
            order = self._force_entry_order(parent)
            siblings.sort(key=lambda f: order.index(f.entry_id) if f.entry_id in order else len(order))
        self._changed()
        auto: dict[str, str] = {}
        self._auto_select(self.data.root_options(catalogue), force, None, auto)
        return force, auto

    def _force_entry_order(self, parent: Force) -> list[str]:
        """Child forces are listed by where their force entry is defined, not when added."""
        return [str(e.get("id")) for e in as_list(parent.entry, "forceEntries")]

    def _default_catalogue(self, file_id: str, parent: Force | None) -> str:
        """The catalogue a force draws on when the action names none: its parent's, the one that
        defines its force entry, else the first that is not a library."""
        if parent is not None:
            return parent.catalogue_id
        if file_id in self.data.catalogue_by_id:
            return file_id
        for catalogue in self.data.catalogues:
            if not as_bool(catalogue.get("library")):
                return str(catalogue.get("id"))
        return str(self.data.game_system.get("id", ""))

    def remove_force(self, force: Force) -> None:
        siblings = force.parent.child_forces if force.parent is not None else self.roster.forces
        siblings.remove(force)
        self._changed()

    def duplicate_force(self, force: Force) -> Force:
        """A deep copy of a force (selections and child forces), placed after it."""
        twin = self._copy_force(force, force.parent)
        siblings = force.parent.child_forces if force.parent is not None else self.roster.forces
        siblings.insert(siblings.index(force) + 1, twin)
        self._changed()
        return twin

    def _copy_force(self, force: Force, parent: Force | None) -> Force:
        twin = Force(force.entry, force.catalogue_id, parent=parent, roster=self.roster,
                     custom_name=force.custom_name, custom_notes=force.custom_notes,
                     category_notes=dict(force.category_notes))
        twin.selections = [self._copy_selection(s, None, twin) for s in force.selections]
        twin.child_forces = [self._copy_force(child, twin) for child in force.child_forces]
        return twin

    # -- selections -----------------------------------------------------------------------------

    def select_entry(self, force: Force, entry_id: str) -> tuple[Selection, dict[str, str]]:
        """Select a root entry in a force."""
        option = self.data.find_root(force.catalogue_id, entry_id)
        if option is None:
            raise EditError(f"entry {entry_id!r} is not available in force {force.entry_id!r}")
        return self._select(option, force, None)

    def select_child_entry(self, parent: Selection, entry_id: str) -> tuple[Selection, dict[str, str]]:
        """Select an entry under a selection."""
        option = parent.option.find(entry_id)
        if option is None:
            raise EditError(f"entry {entry_id!r} is not available under {parent.entry_id!r}")
        return self._select(option, parent.force, parent)

    def _select(self, option: Option, force: Force | None, parent: Selection | None,
                number: int = 1) -> tuple[Selection, dict[str, str]]:
        assert force is not None
        if parent is not None and merges(option):
            existing = next((s for s in parent.children if s.option.entry_id == option.entry_id), None)
            if existing is not None:
                existing.number += number
                self._changed()
                return existing, {}
        selection = Selection(option, number=number, parent=parent, force=force)
        (parent.children if parent is not None else force.selections).append(selection)
        self._changed()
        auto: dict[str, str] = {}
        self._auto_select(option.children(), force, selection, auto)
        if parent is None:
            self._settle(selection, force, auto)
        return selection, auto

    def _settle(self, root: Selection, force: Force, auto: dict[str, str]) -> None:
        """A second pass over a new root selection: what its mins ask now that all its defaults are
        there (BSData raises a Sergeant's min once his squad holds a weapon, and marks it automatic)."""
        for selection in list(root.walk()):
            options = [option for option in selection.option.children() if _may_ask_more(option)]
            if options:
                self._auto_select(options, force, selection, auto)

    def _auto_select(self, options: list[Option], force: Force, parent: Selection | None,
                     auto: dict[str, str]) -> None:
        """Select what a new container must hold: entries with a min, and for a group with a min,
        its default entry as many times as the entries' own mins leave short of it."""
        for option in options:
            wanted = self._auto_amount(option, force, parent)
            if option.is_group:
                if self._hidden_group(option, force, parent):
                    continue  # what a hidden group holds is hidden too
                self._auto_select(option.children(), force, parent, auto)
                default = option.default_child()
                if wanted > 0 and default is not None:
                    self._fill_group(option, default, wanted, force, parent, auto)
            elif wanted > 0:
                self._auto_take(option, force, parent, wanted, auto)

    def _in_group(self, group: Option, force: Force, parent: Selection | None) -> int:
        return sum(s.number for s in (parent.children if parent else force.selections)
                   if group.id in s.option.group_ids)

    def _fill_group(self, group: Option, default: Option, wanted: int, force: Force, parent: Selection | None,
                    auto: dict[str, str]) -> None:
        """A group's default as many times as it lacks; where a modifier may change the group's min
        as it fills (Drukhari Wracks: two weapons until the tools are taken), one at a time, the
        min read again after each (never more than first asked)."""
        lacking = wanted - self._in_group(group, force, parent)
        if lacking <= 0:
            return
        if parent is None or not _min_modified(group):
            self._auto_take(default, force, parent, lacking, auto, add=True)
            return
        self._auto_take(default, force, parent, 1, auto, add=True)
        taken = next(s for s in reversed(parent.children) if s.option is default)
        for _ in range(lacking - 1):
            if self._auto_amount(group, force, parent) <= self._in_group(group, force, parent):
                return
            self.set_count(taken, taken.number + 1)

    def _auto_take(self, option: Option, force: Force, parent: Selection | None, amount: int,
                   auto: dict[str, str], add: bool = False) -> None:
        """Bring an option up to ``amount`` selections (or, with ``add``, ``amount`` more)."""
        already = 0 if add else sum(s.number for s in (parent.children if parent else force.selections)
                                    if s.option.entry_id == option.entry_id)
        missing = amount - already
        if missing <= 0:
            return
        if parent is not None:
            selection, nested = self._select(option, force, parent, missing)
            auto.setdefault(option.id, selection.id)
            auto.setdefault(option.entry_id, selection.id)
            auto.update({k: v for k, v in nested.items() if k not in auto})
            return
        for _ in range(missing):
            selection, nested = self._select(option, force, None)
            auto.setdefault(option.id, selection.id)
            auto.setdefault(option.entry_id, selection.id)
            auto.update({k: v for k, v in nested.items() if k not in auto})

    def _hidden_group(self, group: Option, force: Force, parent: Selection | None) -> bool:
        container = parent if parent is not None else force
        return self.evaluation.is_hidden(group, Context(None, container, force, group))

    def _auto_amount(self, option: Option, force: Force, parent: Selection | None) -> int:
        """How many of an option a new container starts with: its largest min, whatever it counts
        (New Recruit; BattleScribe only looks at mins on selections). Under a selection, a min that
        counts the whole army (force or roster wide) selects nothing: the player chooses which
        units meet it (BSData's Houndpack Lance: three War Dogs of the army made Characters)."""
        if not _may_start_with(option):
            return 0
        container = parent if parent is not None else force
        context = Context(None, container, force, option)
        if self.evaluation.is_hidden(option, context):
            return 0
        amount = _default_amount(option)
        for constraint in option.constraints:
            if constraint.get("type") not in ("min", "exactly"):
                continue
            if parent is not None and constraint.get("scope") in ARMY_SCOPES:
                continue
            if constraint.get("automatic") is not None and not as_bool(constraint.get("automatic")):
                continue  # New Recruit: a min marked automatic=false is not selected for the user
            field_name = str(constraint.get("field") or "selections")
            if field_name not in STARTED_BY:
                continue
            value = self.evaluation.constraint_value(option, constraint, context)
            amount = max(amount, int(min(value, 1) if field_name == "forces" else value))
        return amount

    def deselect(self, selection: Selection) -> None:
        """Take a selection away: one of a merged child selection's amount (New Recruit,
        collective-per-model-operations), else the whole selection."""
        if selection.parent is not None and selection.number > 1 and merges(selection.option):
            selection.number -= 1
            self._changed()
            return
        siblings = selection.parent.children if selection.parent is not None else selection.force.selections  # type: ignore[union-attr]
        siblings.remove(selection)
        self._changed()

    def set_count(self, selection: Selection, count: int) -> None:
        """Set how many a selection stands for, per model of its parent (its children's totals
        follow through ``total_number``)."""
        if count < 0:
            raise EditError("a count cannot be negative")
        selection.number = count
        self._changed()

    def adopt(self, force: Force, selection: Selection) -> Selection:
        """A copy of a root selection built elsewhere on the same data (another editor's, kept
        as a template), put at the end of a force; its selections are new, in the same order."""
        twin = self._copy_selection(selection, None, force)
        force.selections.append(twin)
        self._changed()
        return twin

    def duplicate_selection(self, selection: Selection) -> Selection:
        twin = self._copy_selection(selection, selection.parent, selection.force)
        siblings = selection.parent.children if selection.parent is not None else selection.force.selections  # type: ignore[union-attr]
        siblings.append(twin)  # after every other selection of its entry, as New Recruit lists it
        self._changed()
        return twin

    def _copy_selection(self, selection: Selection, parent: Selection | None, force: Force | None) -> Selection:
        twin = Selection(selection.option, selection.number, parent=parent, force=force,
                         custom_name=selection.custom_name, custom_notes=selection.custom_notes)
        twin.children = [self._copy_selection(c, twin, force) for c in selection.children]
        return twin

    def set_cost_limit(self, cost_type_id: str, value: float) -> None:
        self.roster.cost_limits[cost_type_id] = float(value)
        self._changed()

    def set_category_customization(self, force: Force, category_id: str, name: str | None,
                                   notes: str | None) -> None:
        """A custom name or notes on one of a force's categories."""
        old_name, old_notes = force.category_notes.get(category_id, (None, None))
        force.category_notes[category_id] = (name if name is not None else old_name,
                                             notes if notes is not None else old_notes)
        self._changed()

    def set_customization(self, target: Selection | Force, name: str | None, notes: str | None) -> None:
        if name is not None:
            target.custom_name = name
        if notes is not None:
            target.custom_notes = notes
        self._changed()

    # -- the roster as a whole ----------------------------------------------------------------

    def to_dict(self, described: bool = False) -> dict[str, Any]:
        """The roster in BattleScribe's roster form (see rosterdict); `described`: with each
        selection's profiles and rules as the data shows them there (hidden ones left out)."""
        return roster_to_dict(self.roster, self.evaluation, StateWriter(self).description if described else None)

    def load(self, source: dict[str, Any]) -> list[Finding]:
        """Replace the roster with one in BattleScribe's roster form; findings for what the data
        no longer has."""
        self.roster, problems = roster_from_dict(self.data, source)
        self._changed()
        return problems

    def reload(self) -> list[Finding]:
        """Write the roster out and read it back (what a save and an open do)."""
        return self.load(self.to_dict())

    # -- what may be added ----------------------------------------------------------------------

    def available(self, container: Selection | Force) -> list[dict[str, Any]]:
        """The entries that may be added at a node, each with its name, its current cost (after the
        modifiers that hold there), its group, and whether a max at this place is already reached
        (``full``: another would be an error). Hidden entries are left out."""
        force = container if isinstance(container, Force) else container.force
        assert force is not None
        options = (self.data.root_options(container.catalogue_id) if isinstance(container, Force)
                   else container.option.children())
        result = []
        for option in _selectable(options):
            context = Context(None, container, force, option)
            view = self.evaluation.option_view(option, context)
            if view.hidden or self.evaluation.in_hidden_group(option, container, force):
                continue
            result.append({"entryId": option.entry_id, "name": view.name, "type": option.type,
                           "costs": dict(view.unit_costs), "entryGroupId": option.entry_group_id,
                           "full": self._full(option, container, context)})
        return result

    def _full(self, option: Option, container: Selection | Force, context: Context) -> bool:
        """Whether one more of an option would break a max at parent scope, its own or its groups'."""
        for holder in [option, *(a for a in option.ancestors() if a.is_group)]:
            taken = sum(s.number for s in container.children
                        if (s.option.id == holder.id if not holder.is_group else holder.id in s.option.group_ids))
            for node, limit in holder.limits:
                if limit.kind != "max" or limit.scope != "parent" or limit.field != "selections":
                    continue
                value = self.evaluation.constraint_value(holder, node, context)
                if 0 <= value <= taken:
                    return True
        return False

    # -- state ----------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The roster as a dict: forces, selections with their effective fields, costs, errors."""
        return StateWriter(self).roster()


def _min_modified(option: Option) -> bool:
    """Whether a modifier may change one of an option's mins (or exactly)."""
    return any(limit.kind in ("min", "exactly") and limit.id in option.modified_fields for _, limit in option.limits)


def _may_ask_more(option: Option) -> bool:
    """Whether a container may need more of an option (a group: of its options) than it took
    when it was made: only where a modifier may change a min or what is hidden, for the first pass
    over a container took all the others ask, and what it holds only grows."""
    if _min_modified(option) or not option.modified_fields.isdisjoint(("hidden", "category")):
        return True
    return option.is_group and any(_may_ask_more(child) for child in option.children())


STARTED_BY = ("selections", "forces")  # what a min may count to select for the user (not points)


def _may_start_with(option: Option) -> bool:
    """Whether an option has a min (or exactly) of selections or forces, or a defaultAmount: else it
    starts at none (a datasheet's min of points, which BSData gives every one, selects nothing)."""
    if any(node.get("type") in ("min", "exactly") and str(node.get("field") or "selections") in STARTED_BY
           for node in option.constraints):
        return True
    return option.node.get("defaultAmount") is not None or (option.link or {}).get("defaultAmount") is not None


def _default_amount(option: Option) -> int:
    """An entry's defaultAmount (BattleScribe; New Recruit writes "1,1" for one per instance):
    how many a new parent starts with even without a min."""
    raw = option.node.get("defaultAmount", (option.link or {}).get("defaultAmount"))
    if option.link is not None and option.link.get("defaultAmount") is not None:
        raw = option.link.get("defaultAmount")
    if raw is None:
        return 0
    total = 0
    for part in str(raw).split(","):
        try:
            total += max(0, int(float(part)))
        except ValueError:
            continue
    return total


def merges(option: Option) -> bool:
    """Whether selecting an entry again under the same parent adds to one selection rather
    than making another: New Recruit merges an entry that is no unit and whose descendants
    are all collective (its ``collective_recursive``; docs/collective-flag.md)."""
    return option.type != "unit" and _collective_below(option)


def _collective_below(option: Option) -> bool:
    for child in option.children():
        if child.is_group:
            if not _collective_below(child):
                return False
        elif not child.collective or not _collective_below(child):
            return False
    return True


def _selectable(options: list[Option]) -> list[Option]:
    found: list[Option] = []
    for option in options:
        if option.is_group:
            found += _selectable(option.children())
        else:
            found.append(option)
    return found


class StateWriter:
    """Writes the roster state in the shape of BattleScribe's roster (and the specs' expectedState)."""

    def __init__(self, editor: Editor):
        self.editor = editor
        self.ev = editor.evaluation
        self.data = editor.data
        self._cost_hidden = {str(c["id"]): as_bool(c.get("hidden")) for c in self.data.cost_types()}
        self._cost_names = {str(c["id"]): str(c.get("name") or c["id"]) for c in self.data.cost_types()}

    def costs(self, costs: dict[str, float]) -> list[dict[str, Any]]:
        return [{"typeId": t, "name": self._cost_names.get(t, t), "value": v,
                 "hidden": self._cost_hidden.get(t, False)} for t, v in costs.items()]

    def roster(self) -> dict[str, Any]:
        gs = self.data.game_system
        limits = {t: v for t, v in self.editor.roster.cost_limits.items()}
        return {
            "name": self.editor.roster.name,
            "gameSystemId": gs.get("id"),
            "gameSystemName": gs.get("name"),
            "costs": self.costs(self.ev.roster_costs()),
            "costLimits": self.costs(limits),
            "forces": [self.force(f) for f in sorted(self.editor.roster.forces,
                                                      key=lambda f: natural_key(str(f.entry.get("name") or "")))],
            "errors": [e for e in self.editor.errors() if e.severity == "error"],
            "warnings": [e for e in self.editor.errors() if e.severity != "error"],
        }

    def force(self, force: Force) -> dict[str, Any]:
        entry = force.entry
        catalogue = self.data.catalogue_by_id.get(force.catalogue_id, {})
        selections = self.ordered_roots(force)
        return {
            "id": force.id, "entryId": force.entry_id, "name": self.ev.force_view(force)["name"],
            "catalogueId": force.catalogue_id, "catalogueName": catalogue.get("name"),
            "hidden": self.ev.force_view(force)["hidden"],
            "publicationId": entry.get("publicationId"), "page": _text(entry.get("page")),
            "customName": force.custom_name, "customNotes": force.custom_notes,
            "selections": [self.selection(s) for s in selections],
            "childForces": [self.force(f) for f in force.child_forces],
            "categories": self.force_categories(force),
            "profiles": self.profiles(entry, Context(None, None, force, None)),
            "rules": self.force_rules(force),
            # New Recruit lists no publications on a force (protocol-kitchen-sink); the data keeps them
            "publications": [],
        }

    def ordered_roots(self, force: Force) -> list[Selection]:
        """A force's selections as New Recruit lists them: by primary category, in the order of
        the force entry's category links (uncategorised first), then by sortIndex and the data's
        name (not a modified one: ordering-modifier-changed-name)."""
        order = [str(link.get("targetId")) for link in as_list(force.entry, "categoryLinks")]

        def category_rank(selection: Selection) -> int:
            primary = self.ev.view(selection).primary_category
            if primary is None:
                return -1
            return order.index(primary) if primary in order else len(order)

        return sorted(force.selections, key=lambda s: (category_rank(s),) + _entry_order(s))

    def force_rules(self, force: Force) -> list[dict[str, Any]]:
        """A force's rules: its force entry's, then the root rules of its catalogue and of the game
        system (protocol-kitchen-sink)."""
        context = Context(None, None, force, None)
        holders = [force.entry, self.data.catalogue_by_id.get(force.catalogue_id) or {}, self.data.game_system]
        return [rule for holder in holders for rule in self.rules(holder, context)]

    def force_categories(self, force: Force) -> list[dict[str, Any]]:
        """A force's categories: its category links, after New Recruit's 'Uncategorized' where an
        entry it offers has no category (ordering-categories, protocol-kitchen-sink)."""
        result: list[dict[str, Any]] = []
        offered = _selectable(self.data.root_options(force.catalogue_id))
        if any(not option.merged("categoryLinks") for option in offered):
            result.append({"entryId": UNCATEGORIZED_ID, "name": "Uncategorized", "primary": False,
                           "profiles": [], "rules": []})
        for link in as_list(force.entry, "categoryLinks"):
            target = self.data.category(str(link.get("targetId"))) or {}
            result.append({"entryId": link.get("targetId"), "name": target.get("name") or link.get("name"),
                           "primary": False, "publicationId": target.get("publicationId"),
                           "page": _text(target.get("page")),
                           "profiles": self.profiles(target, Context(None, force, force, None)),
                           "rules": self.rules(target, Context(None, force, force, None)),
                           "customName": force.category_notes.get(str(link.get("targetId")), (None, None))[0],
                           "customNotes": force.category_notes.get(str(link.get("targetId")), (None, None))[1]})
        return result

    def selection(self, selection: Selection) -> dict[str, Any]:
        view = self.ev.view(selection)
        context = self.ev.context_of(selection)
        option = selection.option
        children = sorted(selection.children, key=_entry_order)
        publication = self.data.publication(view.publication_id)
        return {
            "id": selection.id, "entryId": option.entry_id, "entryGroupId": option.entry_group_id,
            "name": view.name, "type": option.type, "number": selection.total_number, "hidden": view.hidden,
            "costs": self.costs(self.ev.own_costs(selection)),
            "categories": self.selection_categories(selection, view),
            "page": _text(view.page), "publicationId": view.publication_id,
            "publicationName": None if publication is None else publication.get("name"),
            "customName": selection.custom_name, "customNotes": selection.custom_notes,
            "profiles": self.profiles_of_option(option, context),
            "rules": self.rules_of_option(option, context),
            "children": [self.selection(c) for c in children],
        }

    def selection_categories(self, selection: Selection, view: SelectionView) -> list[dict[str, Any]]:
        """A selection's categories; a root selection with none is New Recruit's 'Uncategorized'."""
        context = self.ev.context_of(selection)
        categories = [{"entryId": c.id, "name": c.name or (self.data.category(c.id) or {}).get("name"),
                       "primary": c.primary,
                       "profiles": self.profiles(self.data.category(c.id) or {}, context),
                       "rules": self.rules(self.data.category(c.id) or {}, context)} for c in view.categories]
        if not categories and selection.parent is None:
            categories = [{"entryId": UNCATEGORIZED_ID, "name": "Uncategorized", "primary": True,
                           "profiles": [], "rules": []}]
        return categories

    # -- profiles and rules -----------------------------------------------------------------

    def description(self, selection: Selection) -> dict[str, Any]:
        """A selection's profiles and rules shown there, as a roster file carries them: with the
        data's ids, without empty fields."""
        context = self.ev.context_of(selection)
        described: dict[str, Any] = {}
        for key, kind, write in (("profiles", "profile", self._profile), ("rules", "rule", self._rule)):
            items = [{"id": item.get("id"), **write(item, link, context)}
                     for holder in self._info_holders(selection.option)
                     for item, link in self._infos(holder, key, kind) if not self._hidden(item, link, context)]
            if items:
                described[key] = [{k: v for k, v in item.items() if v is not None} for item in items]
        return described

    def _info_holders(self, option: Option) -> list[Node]:
        return [option.node] + ([option.link] if option.link is not None else [])

    def profiles_of_option(self, option: Option, context: Context) -> list[dict[str, Any]]:
        return [p for holder in self._info_holders(option) for p in self.profiles(holder, context)]

    def rules_of_option(self, option: Option, context: Context) -> list[dict[str, Any]]:
        return [r for holder in self._info_holders(option) for r in self.rules(holder, context)]

    def profiles(self, holder: Node, context: Context) -> list[dict[str, Any]]:
        return [self._profile(p, link, context) for p, link in self._infos(holder, "profiles", "profile")
                if not self._hidden(p, link, context)]

    def rules(self, holder: Node, context: Context) -> list[dict[str, Any]]:
        return [self._rule(r, link, context) for r, link in self._infos(holder, "rules", "rule")
                if not self._hidden(r, link, context)]

    def _infos(self, holder: Node, key: str, link_type: str, depth: int = 0) -> list[tuple[Node, Node | None]]:
        """A holder's profiles (or rules): its own, those of its info groups, those its info links reach."""
        found: list[tuple[Node, Node | None]] = [(item, None) for item in as_list(holder, key)]
        for group in as_list(holder, "infoGroups"):
            if not as_bool(group.get("hidden")) and depth < 8:
                found += self._infos(group, key, link_type, depth + 1)
        for link in as_list(holder, "infoLinks"):
            target = self.data.target(link)
            if target is None or as_bool(link.get("hidden")):
                continue
            if link.get("type") == link_type:
                found.append((target, link))
            elif link.get("type") == "infoGroup" and not as_bool(target.get("hidden")) and depth < 8:
                found += self._infos(target, key, link_type, depth + 1)
        return found

    def _values(self, item: Node, link: Node | None, context: Context) -> dict[str, Any]:
        values: dict[str, Any] = {
            "name": item.get("name"), "hidden": as_bool(item.get("hidden")),
            "description": item.get("description"), "page": _text(item.get("page")),
            "publicationId": item.get("publicationId"),
        }
        for characteristic in as_list(item, "characteristics"):
            values[str(characteristic.get("typeId"))] = str(characteristic.get("value", ""))
        self.ev.apply_modifiers(item, values, context)
        if link is not None:
            # New Recruit shows an info link's own page and publication over its target's
            # (infolink-page-override, infolink-publication-override).
            for key in ("page", "publicationId"):
                if link.get(key) is not None:
                    values[key] = _text(link.get(key))
            self.ev.apply_modifiers(link, values, context)
        if context.selection is not None and "typeId" in item and "characteristics" in item:
            for modifier, times in self.ev.incoming_profile_modifiers(context.selection, str(item.get("typeName"))):
                apply_modifier(modifier, values, times)
        return values

    def _hidden(self, item: Node, link: Node | None, context: Context) -> bool:
        return bool(self._values(item, link, context)["hidden"])

    def _profile(self, profile: Node, link: Node | None, context: Context) -> dict[str, Any]:
        values = self._values(profile, link, context)
        characteristics = [{"name": c.get("name"), "typeId": c.get("typeId"),
                            "value": values.get(str(c.get("typeId")), c.get("value"))}
                           for c in as_list(profile, "characteristics")]
        return {"name": values["name"], "typeId": profile.get("typeId"), "typeName": profile.get("typeName"),
                "hidden": values["hidden"], "page": values["page"], "publicationId": values["publicationId"],
                "characteristics": characteristics}

    def _rule(self, rule: Node, link: Node | None, context: Context) -> dict[str, Any]:
        values = self._values(rule, link, context)
        return {"name": values["name"], "description": values["description"], "hidden": values["hidden"],
                "page": values["page"], "publicationId": values["publicationId"]}


UNCATEGORIZED_ID = "(No Category)"
ARMY_SCOPES = frozenset({"force", "roster", "primary-catalogue", "primary-category"})  # beyond one unit


def _entry_order(selection: Selection) -> tuple[Any, ...]:
    """New Recruit's order of an entry's selections: sortIndex, entries before groups, data name."""
    option = selection.option
    sort_index = as_number(option.node.get("sortIndex", (option.link or {}).get("sortIndex")), 10000)
    return (sort_index, natural_key(option.name))


def _text(value: Any) -> str | None:
    return None if value is None else str(value)

"""Validation's findings, and views, kept across states of a roster, for the units an edit left alone.

The editor checks a roster again after each edit, and an edit changes one unit (a selection
directly in a force, with all below it). What validation finds at the places of a unit is a
function of the unit itself (its selections, their numbers, their views), of its force (which
entry, which catalogue, where) and of what it reads outside the unit: a count of the roster, the
force or its selections (a condition or repeat on a modifier of a constraint's value), the forces,
a cost limit; and, through each place's options to check, which ids the roster holds. So validation
keeps, for each unit it checked, what it found with what it read outside it (`Found`), and in a
later state reuses them for a unit that is the same and reads the same outside it now: each
outside read evaluated again and compared, never assumed. A constraint that counts outside the
unit by itself (at force or roster scope, forces, a percentage) is checked again each time
(`Live`). A read that cannot be followed (a cost, whose settling works out views anew) keeps
nothing for that unit.

The same holds for an option a force offers that none of its selections are of (its root entries
not taken): what is found there reads nothing of the force but through its queries, which are
recorded alike (a unit of None).

Reuse of findings is sound only where every value validation reads is the state's own whatever
the order of asking: the selections' views all worked out and none in progress
(`Evaluation.views_fixed`), as they are once validation has listed every force's categories.
Outside that, validation checks as if nothing were kept.

A unit's views are kept with them where working them out read, outside the unit, only counts no
view changes (forces, a cost limit, selections by entry: `reads_no_view`), and saw no view in
progress (which the first asked reads as the data states it: order matters there) nor a modifier
another selection aims at the unit (`Evaluation.own_views`). Such views are the same in any roster
where the unit is the same and those counts are, whatever is asked first; a later state takes them
(`Evaluation._kept_views`) once those counts, asked again, are the same.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from listbuilder.battlescribe.model import GameData, Limit, Node, Option
from listbuilder.battlescribe.modifiers import TYPE_SCOPES
from listbuilder.battlescribe.roster import Force, Selection

if TYPE_CHECKING:
    from listbuilder.battlescribe.evaluate import Context, Evaluation, SelectionView
    from listbuilder.battlescribe.validate import RuleError

FORCE = -1  # a context's container that is the unit's force (a root selection's, or a force's option)
INSIDE_SCOPES = frozenset({"self", "ancestor", "root-entry", *TYPE_SCOPES})  # what they count is below the anchor


class Read(NamedTuple):
    """A query asked outside the place recorded (its selection and container by their index in
    the unit's selections, or FORCE), with what it counted."""

    query: Node
    selection: int | None
    container: int
    child_id: str | None
    value: float


class Live(NamedTuple):
    """A constraint checked again in every state (it counts outside the unit by itself)."""

    container: int
    option: Option
    node: Node
    limit: Limit


class Said(NamedTuple):
    """A broken rule found, its path relative to the unit's where it lies in it, and its key (which
    keeps a rule found twice from being said twice) with the places' ids as their indexes."""

    error: RuleError
    relative: bool
    key: tuple[str | int, ...] | None


@dataclass(frozen=True)
class Found:
    """What validation found at the places of a unit in one state, and what it read to find it."""

    views: tuple[SelectionView, ...]  # each selection's view, in `walk` order
    checked: tuple[tuple[Option, ...], ...]  # the options each place checked (which ids the roster holds)
    reads: tuple[Read, ...]
    steps: tuple[Live | Said, ...]
    own_views: bool = False  # the views read outside the unit only counts no view changes (`Evaluation.own_views`)
    view_reads: tuple[Read, ...] = ()  # ... those counts


class Recorder:
    """What the places of one unit (or a force's option none of its selections are of) read
    outside it while they are checked: set on the evaluation, which tells it every query."""

    def __init__(self, evaluation: Evaluation, unit: Selection | None, force: Force):
        self.ev = evaluation
        self.force = force
        self.places: list[Selection] = list(unit.walk()) if unit is not None else []
        self.index = {id(s): i for i, s in enumerate(self.places)}
        self.reads: list[Read] = []
        self.untracked = False  # a read it cannot follow: nothing is kept

    def read(self, query: Node, context: Context, child_id: str | None, value: float) -> None:
        if self.untracked:
            return
        inside = counts_inside(self.ev.data, query, context)
        if inside:
            return
        selection = None if context.selection is None else self.index.get(id(context.selection), -2)
        container = FORCE if context.container is self.force else self.index.get(id(context.container), -2)
        if inside is None or selection == -2 or container == -2 or context.force is not self.force:
            self.untracked = True  # a cost (its settling works views out anew), or asked from elsewhere
            return
        self.reads.append(Read(query, selection, container, child_id, value))

    def holds(self, reads: tuple[Read, ...]) -> bool:
        """Whether every read counts now what it counted when it was recorded."""
        from listbuilder.battlescribe.evaluate import Context

        for read in reads:
            selection = None if read.selection is None else self.places[read.selection]
            container: Selection | Force = self.force if read.container == FORCE else self.places[read.container]
            if self.ev.query(read.query, Context(selection, container, self.force), read.child_id) != read.value:
                return False
        return True


def reads_no_view(data: GameData, query: Node) -> bool:
    """Whether a query counts without reading any selection's view: forces, a cost limit, or
    selections by entry, group or type (not by category, nor by primary category)."""
    child, field_name, scope, _, _, _ = data.query(query)
    if field_name == "forces" or field_name.startswith("limit::"):
        return True
    return field_name == "selections" and child not in data.category_ids and scope != "primary-category"


def counts_inside(data: GameData, query: Node, context: Context) -> bool | None:
    """Whether a query counts only what lies below the place asking (within its unit, or nothing
    at a force's option): the unit being the same, it counts the same. None for a cost, which is
    not followed (its settling works views out anew)."""
    _, field_name, scope, _, _, _ = data.query(query)
    if field_name != "selections":
        return False if field_name == "forces" or field_name.startswith("limit::") else None
    if scope in INSIDE_SCOPES:
        return True
    if scope == "parent":
        return isinstance(context.container, Selection)
    if scope in ("force", "roster", "primary-category", "primary-catalogue"):
        return False
    start = context.selection if context.selection is not None else context.container
    node = start if isinstance(start, Selection) else None
    while node is not None:  # an entry's id: the nearest such selection, else a force above
        if scope in node.option.ids:
            return True
        node = node.parent
    return False


class Reuse:
    """What validation found at each unit in the last states checked, by the unit (bounded: the
    units of recent states; each kept with a few sets of outside reads). Shared by the threads
    checking rosters of one data; what it holds is never changed, only replaced."""

    def __init__(self, units: int = 2048, per_unit: int = 4):
        self._found: OrderedDict[Hashable, list[Found]] = OrderedDict()
        self._units, self._per_unit = units, per_unit
        self._lock = threading.Lock()

    def __reduce__(self) -> tuple[type[Reuse], tuple[int, int]]:
        """Pickled empty (a folder's spawned workers get the data, not what this process kept)."""
        return Reuse, (self._units, self._per_unit)

    def found(self, key: Hashable) -> list[Found]:
        """What was found at a unit of this key, the latest first (a list `keep` never changes)."""
        with self._lock:
            kept = self._found.get(key)
            if kept is None:
                return []
            self._found.move_to_end(key)
            return kept

    def views(self, key: Hashable) -> list[Found]:
        """What was found at units of this key whose views can be reused (`Found.own_views`)."""
        return [found for found in self.found(key) if found.own_views]

    def keep(self, key: Hashable, found: Found) -> None:
        with self._lock:
            kept = self._found.pop(key, [])
            self._found[key] = [found, *kept][:self._per_unit]
            while len(self._found) > self._units:
                self._found.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._found.clear()


def force_key(force: Force) -> tuple[str, str, tuple[str | int, ...]]:
    """What a force is, as far as the findings at its places go: its entry, catalogue and place."""
    return force.entry_id, force.catalogue_id, force.path()


def unit_key(unit: Selection, force: Force) -> Hashable:
    """What a unit is, as far as its places' findings go: its force and each of its selections'
    option, number and how many selections it holds, in `walk` order."""
    return (*force_key(force), tuple((s.option, s.number, len(s.children)) for s in unit.walk()))

"""A roster as a tree: roster > forces (with child forces) > selections (with sub-selections).

Only what the user chose lives here (which entry, how many, custom names); everything derived from
the data and its modifiers (effective names, costs, categories, errors) is computed by
``evaluate.Evaluation`` so that it can never go stale.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field

from listbuilder.battlescribe.model import GameData, Node, Option

_ids = itertools.count(1)


def new_id(kind: str) -> str:
    """A fresh instance id, unique within the process (BattleScribe uses uuids; tests need none)."""
    return f"{kind}-{next(_ids)}"


@dataclass(eq=False)
class Selection:
    """One selection: an option chosen ``number`` times, with its own sub-selections."""

    option: Option
    number: int = 1
    children: list[Selection] = field(default_factory=list)
    parent: Selection | None = None
    force: Force | None = None
    id: str = field(default_factory=lambda: new_id("sel"))
    custom_name: str | None = None
    custom_notes: str | None = None

    @property
    def entry_id(self) -> str:
        return self.option.entry_id

    @property
    def total_number(self) -> int:
        """How many there are in all: ``number`` is per parent model (New Recruit's amount), so
        three Troopers with one Rifle each hold three Rifles (docs/battlescribe-engine.md)."""
        above = self.parent.total_number if self.parent is not None else 1
        return self.number * above

    @property
    def container(self) -> Selection | Force:
        """The selection or force this one sits directly in."""
        if self.parent is not None:
            return self.parent
        assert self.force is not None
        return self.force

    def walk(self) -> Iterator[Selection]:
        """This selection and all below it, depth first."""
        yield self
        for child in self.children:
            yield from child.walk()

    def ancestors(self) -> Iterator[Selection]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def path(self) -> tuple[str | int, ...]:
        """Where it is, for findings: the force's path, then each selection's index."""
        assert self.force is not None
        siblings = self.container.children if self.parent is not None else self.force.selections
        index = next(i for i, s in enumerate(siblings) if s is self)
        above = self.parent.path() if self.parent is not None else self.force.path()
        return above + ("selections", index)


@dataclass(eq=False)
class Force:
    """One force: its force entry, the catalogue it draws on, its selections and child forces."""

    entry: Node
    catalogue_id: str
    selections: list[Selection] = field(default_factory=list)
    child_forces: list[Force] = field(default_factory=list)
    parent: Force | None = None
    roster: Roster | None = None
    id: str = field(default_factory=lambda: new_id("force"))
    custom_name: str | None = None
    custom_notes: str | None = None
    category_notes: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)

    @property
    def entry_id(self) -> str:
        return str(self.entry.get("id", ""))

    @property
    def children(self) -> list[Selection]:
        """Its root selections (so that a force and a selection can both be a container)."""
        return self.selections

    def walk_selections(self) -> Iterator[Selection]:
        for selection in self.selections:
            yield from selection.walk()

    def walk_forces(self) -> Iterator[Force]:
        """This force and every child force below it."""
        yield self
        for child in self.child_forces:
            yield from child.walk_forces()

    def path(self) -> tuple[str | int, ...]:
        assert self.roster is not None
        if self.parent is None:
            return ("forces", self.roster.forces.index(self))
        return self.parent.path() + ("forces", self.parent.child_forces.index(self))


@dataclass(eq=False)
class Roster:
    """The whole roster: its forces and the cost limits the user set."""

    data: GameData
    name: str = "New Roster"
    forces: list[Force] = field(default_factory=list)
    cost_limits: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.cost_limits:
            for cost_type in self.data.cost_types():
                limit = cost_type.get("defaultCostLimit")
                if limit is not None:
                    self.cost_limits[str(cost_type["id"])] = float(limit)

    def all_forces(self) -> Iterator[Force]:
        for force in self.forces:
            yield from force.walk_forces()

    def all_selections(self) -> Iterator[Selection]:
        for force in self.all_forces():
            yield from force.walk_selections()

    def find_force(self, force_id: str) -> Force:
        for force in self.all_forces():
            if force.id == force_id:
                return force
        raise KeyError(f"no force with id {force_id!r}")

    def find_selection(self, selection_id: str) -> Selection:
        for selection in self.all_selections():
            if selection.id == selection_id:
                return selection
        raise KeyError(f"no selection with id {selection_id!r}")

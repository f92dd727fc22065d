"""BattleScribe data (game system + catalogues, in their dict form) indexed once for the engine.

The input is the "JSON" form of the XML: camelCase keys as in the .gst/.cat files. Nothing here
reads files; the importing package turns XML into this form. Every id is indexed once, entry links
are resolved to their targets, and an entry as the roster sees it (an ``Option``: a selection
entry or group reached through zero or more links) carries the ``::`` path BattleScribe writes as
a selection's entryId.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple, Self, TypeVar, overload

Node = dict[str, Any]
_T = TypeVar("_T")


class kept(cached_property[_T]):
    """`functools.cached_property` without the lock Python 3.11 takes on every first read (a cold
    check makes some 12,000 of them): what the engine keeps so is worked out from the data alone,
    so two threads working it out at once keep equal values."""

    @overload
    def __get__(self, instance: None, owner: type[Any] | None = None) -> Self: ...
    @overload
    def __get__(self, instance: object, owner: type[Any] | None = None) -> _T: ...
    def __get__(self, instance: object, owner: type[Any] | None = None) -> _T | Self:
        if instance is None:
            return self
        value: _T = self.func(instance)
        instance.__dict__[self.attrname or self.func.__name__] = value
        return value


_INDEXED_LISTS = (
    "selectionEntries", "entryLinks", "selectionEntryGroups", "sharedSelectionEntries",
    "sharedSelectionEntryGroups", "sharedRules", "sharedProfiles", "sharedInfoGroups", "rules",
    "profiles", "infoGroups", "infoLinks", "categoryEntries", "forceEntries", "costTypes",
    "publications", "profileTypes", "categoryLinks",
)
_INDEXED = frozenset(_INDEXED_LISTS)
_LINKS = frozenset({"entryLinks", "categoryLinks", "infoLinks"})  # indexed by their targets' ids, not their own


def as_list(node: Node | None, key: str) -> list[Node]:
    """A child list that may be absent (the dict form omits empty lists)."""
    if not node:
        return []
    value = node.get(key)
    return value if isinstance(value, list) else []


def as_bool(value: Any) -> bool:
    """XML booleans arrive as bools or as the strings 'true'/'false'."""
    if isinstance(value, str):
        return value.strip().lower() == "true"
    return bool(value)


def as_number(value: Any, default: float = 0.0) -> float:
    """Numbers arrive as ints, floats or strings; a missing or unreadable one is the default."""
    if value is None or value == "":
        return default
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


class Query(NamedTuple):
    """What a condition, repeat or constraint counts, read once per node of the data."""

    child_id: str | None
    field: str
    scope: str
    include_children: bool
    include_child_forces: bool
    shared: bool

    @staticmethod
    def of(node: Node) -> Query:
        child = node.get("childId")
        return Query(child_id=None if child is None else str(child), field=str(node.get("field") or "selections"),
                     scope=str(node.get("scope") or "parent"),
                     include_children=as_bool(node.get("includeChildSelections")),
                     include_child_forces=as_bool(node.get("includeChildForces")),
                     shared=as_bool(node.get("shared", True)))


class Condition(NamedTuple):
    """A condition's comparison, read once per node of the data: its type, its value and whether
    the value is a percentage."""

    kind: str
    value: float
    percent: bool

    @staticmethod
    def of(node: Node) -> Condition:
        return Condition(str(node.get("type")), as_number(node.get("value")), as_bool(node.get("percentValue")))


class Limit(NamedTuple):
    """A constraint, read once: what it counts, where, and its value before modifiers (a named
    tuple: every constraint of the data offered is read so, and a frozen dataclass is slower made)."""

    id: str
    kind: str  # min, max or exactly
    value: float
    scope: str
    field: str
    shared: bool
    include_children: bool
    include_child_forces: bool
    percent: bool
    message: str | None

    @staticmethod
    def of(node: Node) -> Limit:
        return Limit(
            id=str(node.get("id")), kind=str(node.get("type")), value=as_number(node.get("value")),
            scope=str(node.get("scope") or "parent"), field=str(node.get("field") or "selections"),
            shared=as_bool(node.get("shared", True)),
            include_children=as_bool(node.get("includeChildSelections")),
            include_child_forces=as_bool(node.get("includeChildForces")),
            percent=as_bool(node.get("percentValue")),
            message=None if node.get("message") is None else str(node.get("message")),
        )


@dataclass(eq=False)
class Option:
    """A selection entry or group as offered at one place: the target node, the link that reached
    it (if any), and the links above it, which give the composite ``a::b::id`` entry id."""

    node: Node
    link: Node | None
    prefix: tuple[str, ...]
    parent: Option | None
    group: Option | None  # the immediate group this option sits in, for entryGroupId
    data: GameData
    catalogue_id: str = ""
    is_group: bool = False
    _children: list[Option] | None = field(default=None, repr=False)

    @kept
    def id(self) -> str:
        """The definition id of the target entry or group."""
        return str(self.node.get("id", ""))

    @property
    def own_prefix(self) -> tuple[str, ...]:
        """The link ids down to and including this option's own link."""
        return self.prefix if self.link is None else self.prefix + (str(self.link["id"]),)

    @kept
    def entry_id(self) -> str:
        """BattleScribe's composite entryId: every link on the path, outermost first, then the id."""
        return "::".join(self.own_prefix + (self.id,))

    @property
    def entry_group_id(self) -> str | None:
        return None if self.group is None else self.group.entry_id

    @kept
    def ids(self) -> frozenset[str]:
        """Every id a childId may name this option by: its target, its link and the composite."""
        ids = {self.id, self.entry_id}
        if self.link is not None:
            ids.add(str(self.link["id"]))
        return frozenset(ids)

    @kept
    def counted_ids(self) -> frozenset[str]:
        """Every id a query counts it by: its own (`ids`) and its groups' (`group_ids`)."""
        return self.ids | self.group_ids

    @kept
    def base_category_ids(self) -> frozenset[str]:
        """`counted_ids` and the ids of the categories the data gives it (before any modifier)."""
        return self.counted_ids | {c[0] for c in self.base_categories}

    @kept
    def group_ids(self) -> frozenset[str]:
        """The ids of the groups this option sits in (up to the first entry above it)."""
        found: set[str] = set()
        for ancestor in self.ancestors():
            if not ancestor.is_group:
                break
            found |= ancestor.ids
        return frozenset(found)

    @kept
    def modified_fields(self) -> frozenset[str]:
        """Every field a modifier of this option (target or link, any group depth) may change."""
        found: set[str] = set()
        stack = [self.node] + ([self.link] if self.link is not None else [])
        while stack:
            holder = stack.pop()
            found |= {str(m.get("field")) for m in as_list(holder, "modifiers")}
            stack += as_list(holder, "modifierGroups")
        return frozenset(found)

    @property
    def name(self) -> str:
        return str(self.node.get("name") or (self.link or {}).get("name") or "")

    @property
    def type(self) -> str:
        return str(self.node.get("type") or ("group" if self.is_group else "upgrade"))

    @property
    def hidden(self) -> bool:
        return as_bool(self.node.get("hidden")) or as_bool((self.link or {}).get("hidden"))

    @property
    def collective(self) -> bool:
        return as_bool(self.node.get("collective")) or as_bool((self.link or {}).get("collective"))

    def merged(self, key: str) -> list[Node]:
        """A list the target and its link both may hold (constraints, modifiers, ...): target's first."""
        return as_list(self.node, key) + as_list(self.link, key)

    @kept
    def constraints(self) -> list[Node]:
        return self.merged("constraints")

    @kept
    def limits(self) -> list[tuple[Node, Limit]]:
        """Its constraints, each with its reading."""
        return [(node, Limit.of(node)) for node in self.constraints]

    @kept
    def checked_limits(self) -> list[tuple[Node, Limit]]:
        """The constraints that can ever be broken (`breakable`), each with its reading."""
        return [(node, limit) for node, limit in self.limits if self.can_break(node)]

    @kept
    def breakable(self) -> list[str]:
        """The kinds of the constraints that can ever be broken: not a min of 0 (or less) no
        modifier changes. Read off the constraints as written: validation's index asks it of every
        option a force or selection offers, and reads few of them whole; kept by the data for the
        entry and its link, which the options of every place they are offered at share."""
        return self.data.breakable(self)

    def can_break(self, constraint: Node) -> bool:
        return not (constraint.get("type") == "min" and as_number(constraint.get("value")) <= 0
                    and str(constraint.get("id")) not in self.modified_fields)

    @kept
    def only_maxima(self) -> bool:
        """Whether all its breakable constraints are maxima (which nothing untaken can break)."""
        return all(kind == "max" for kind in self.breakable)

    @kept
    def base_categories(self) -> list[tuple[str, str, bool]]:
        """(category id, name, primary) from its category links, each category once."""
        found: list[tuple[str, str, bool]] = []
        for link in self.merged("categoryLinks"):
            target_id = str(link.get("targetId"))
            if any(c[0] == target_id for c in found):
                continue
            target = self.data.category(target_id) or {}
            found.append((target_id, str(target.get("name") or link.get("name") or ""), as_bool(link.get("primary"))))
        return found

    @kept
    def costs(self) -> dict[str, float]:
        """Cost per type: the target's, each overridden by a cost of the same type on the link."""
        costs = {str(c["typeId"]): as_number(c.get("value")) for c in as_list(self.node, "costs")}
        for cost in as_list(self.link, "costs"):
            costs[str(cost["typeId"])] = as_number(cost.get("value"))
        return costs

    @property
    def page(self) -> str | None:
        value = self.node.get("page") or (self.link or {}).get("page")
        return None if value is None else str(value)

    @property
    def publication_id(self) -> str | None:
        return self.node.get("publicationId") or (self.link or {}).get("publicationId")

    def ancestors(self) -> Iterator[Option]:
        option = self.parent
        while option is not None:
            yield option
            option = option.parent

    def children(self) -> list[Option]:
        """The options offered under this one, groups included (built once, then kept)."""
        if self._children is None:
            self._children = self.data.options_in([self.node, self.link], self.own_prefix, self,
                                                  self if self.is_group else None, self.catalogue_id)
        return self._children

    def selectable_children(self) -> Iterator[Option]:
        """Entries (not groups) that can become child selections, looking through groups."""
        for child in self.children():
            if child.is_group:
                yield from child.selectable_children()
            else:
                yield child

    def find(self, entry_id: str) -> Option | None:
        """The selectable child (through groups) an action names by id, link id or composite id."""
        for child in self.selectable_children():
            if entry_id in child.ids:
                return child
        return None

    def default_child(self) -> Option | None:
        """A group's defaultSelectionEntryId, by target id, link id or composite id."""
        wanted = self.node.get("defaultSelectionEntryId")
        if not wanted:
            return None
        for child in self.children():
            if not child.is_group and wanted in child.ids:
                return child
        return None


class Later(NamedTuple):
    """A group all of whose options below (through groups) with a constraint that can ever be
    broken have only maxima, with their ids: none of it is looked at, nor its options made, until
    an option of one of those ids is taken (BSData's Crusade groups: some 250 options under
    every unit, taken in no army but a Crusade one)."""

    group: Option
    ids: frozenset[str]


@dataclass(frozen=True)
class Checkable:
    """The options validation looks at in one place, each with its place in data order: those
    with a min (always checked), and those with only maxima by id (checked only where an option
    of that id is taken somewhere, as nothing untaken breaks a max), some of them in groups
    listed only then (`Later`)."""

    always: list[tuple[int, Option]]
    maxima: dict[str, list[tuple[int, Option]]]
    later: list[tuple[int, Later]]
    ids: frozenset[str]  # the ids of every option with only maxima, in `maxima` and `later`
    only_always: tuple[Option, ...]  # what `to_check` gives where none with only maxima is taken
    chosen: dict[frozenset[str], tuple[Option, ...]] = field(default_factory=dict)  # ... else, by which are

    @staticmethod
    def of(options: list[Option | Later]) -> Checkable:
        always: list[tuple[int, Option]] = []
        maxima: dict[str, list[tuple[int, Option]]] = {}
        later: list[tuple[int, Later]] = []
        for index, option in enumerate(options):
            if isinstance(option, Later):
                later.append((index, option))
            elif option.only_maxima:
                maxima.setdefault(option.id, []).append((index, option))
            else:
                always.append((index, option))
        ids = frozenset(maxima).union(*(group.ids for _, group in later))
        return Checkable(always, maxima, later, ids, tuple(option for _, option in always))

    def to_check(self, taken: dict[str, Any]) -> tuple[Option, ...]:
        """In data order: every option with a min, and those with only maxima that are taken."""
        held = frozenset(taken.keys() & self.ids) if self.ids else frozenset()
        if not held:
            return self.only_always
        found = self.chosen.get(held)
        if found is None:
            chosen = list(self.always)
            for key in held & self.maxima.keys():
                chosen += self.maxima[key]
            for index, group in self.later:
                if group.ids & held:  # its options, in their order, at the group's place
                    options = group.group.data.checkable(group.group.children()).to_check(taken)
                    chosen += [(index, option) for option in options]
            chosen.sort(key=lambda pair: pair[0])
            found = self.chosen[held] = tuple(option for _, option in chosen)
        return found


class GameData:
    """The game system and its catalogues, every id indexed once."""

    def __init__(self, game_system: Node, catalogues: list[Node], sources: dict[str, Any] | None = None,
                 data_revision: str | None = None):
        """``sources``: the compiled bundle's ``{file id: {"file", "revision"}}``, where the data came
        from files (a spec's setup has none); ``data_revision``: the data repository's revision (a
        git commit), where the caller knows it. With them a finding names the data's file and line."""
        self.game_system = game_system
        self.catalogues = catalogues
        self.sources = sources or {}
        self.data_revision = data_revision
        self._node_files: dict[int, str] | None = None
        self.by_id: dict[str, Node] = {}
        self.file_of: dict[str, str] = {}
        self._costed: set[str] = set()
        self.base_value_cache: dict[int, dict[str, Any]] = {}  # evaluate.py's, per option
        self._modifier_order: dict[int, list[tuple[str, Node]]] = {}
        self._queries: dict[int, Query] = {}
        self._conditions: dict[int, Condition] = {}
        self._group_fields: dict[int, list[tuple[Node, frozenset[str]]]] = {}
        self._targeted: dict[int, list[tuple[Node, tuple[Node, ...]]]] = {}
        self._keep: list[object] = []  # nodes cached by id() stay alive (and their ids unique)
        self._root_options: dict[str, list[Option]] = {}
        self._checkable: dict[int, tuple[list[Option], Checkable]] = {}
        self._breakable: dict[tuple[int, int], list[str]] = {}
        self._below: dict[tuple[int, int], frozenset[str] | None] = {}  # `_maxima_below`'s
        self._queries_costs: bool | None = None
        self._modified: list[Node] = []  # the nodes with modifiers: where a condition may count a cost
        for file in [game_system, *catalogues]:
            self._index(file, str(file.get("id", "")))
        self._group_ids = {str(g.get("id")) for f in [game_system, *catalogues]
                           for g in as_list(f, "sharedSelectionEntryGroups")}
        self.category_ids = {str(c.get("id")) for f in [game_system, *catalogues]
                             for c in as_list(f, "categoryEntries")}
        self.catalogue_by_id = {str(c.get("id")): c for c in catalogues}

    def _index(self, node: Node, file_id: str) -> None:
        """Every node of a file by id (the first of an id), the cost types costed, the nodes with
        modifiers; run over every node loaded, so its look-ups are inline."""
        costs = node.get("costs")
        if isinstance(costs, list):
            self._costed.update(str(cost.get("typeId")) for cost in costs)
        if "modifiers" in node or "modifierGroups" in node:
            self._modified.append(node)
        present = _INDEXED.intersection(node)  # most nodes hold none or one of the lists: asked in one go
        for key in present if len(present) < 2 else [k for k in _INDEXED_LISTS if k in present]:
            children = node[key]
            if not isinstance(children, list):
                continue
            indexed = key not in _LINKS
            for child in children:
                if indexed and "id" in child:
                    child_id = str(child["id"])
                    if child_id not in self.by_id:  # the first of an id, in by_id and file_of alike
                        self.by_id[child_id] = child
                        self.file_of[child_id] = file_id
                self._index(child, file_id)

    # -- where a rule is in the data --------------------------------------------------------

    def data_place(self, holder: Node, node: Node | None = None) -> str | None:
        """Where a rule is in the data, in a player's words: 'file:line (revision r)'. ``holder`` is
        the entry, link, category or force entry it is written on; ``node`` the constraint or
        modifier itself, whose own line is taken where it has one (elements with an id keep
        ``sourceLine``). None without ``sources`` or when the holder's file is not known."""
        if not self.sources:
            return None
        if self._node_files is None:
            self._node_files = {}
            for file in [self.game_system, *self.catalogues]:
                self._file_nodes(file, str(file.get("id", "")))
        file_id = self._node_files.get(id(holder))
        source = self.sources.get(file_id or "")
        if not isinstance(source, dict) or not source.get("file"):
            return None
        line = (node or {}).get("sourceLine") or holder.get("sourceLine")
        place = f"{source['file']}:{line}" if line else str(source["file"])
        revision = self.data_revision or source.get("revision")
        return f"{place} (revision {revision})" if revision not in (None, "") else place

    def _file_nodes(self, node: Node, file_id: str) -> None:
        """Every node that may hold a constraint or modifier, by identity, to the file it is in
        (built on the first finding that asks: loading and evaluating never need it)."""
        files = self._node_files
        assert files is not None
        files[id(node)] = file_id
        for key in _INDEXED_LISTS:
            for child in as_list(node, key):
                self._file_nodes(child, file_id)

    # -- look-ups -------------------------------------------------------------------------

    def target(self, link: Node) -> Node | None:
        """What an entry link or info link points at."""
        return self.by_id.get(str(link.get("targetId")))

    def costed_types(self) -> set[str]:
        """The cost types some entry or link has a cost of: the ones a roster tracks."""
        return self._costed

    def queries_costs(self, cost_type_ids: list[str]) -> bool:
        """Whether any condition or repeat counts a cost (so costs may depend on costs)."""
        if self._queries_costs is None:
            wanted = set(cost_type_ids)
            self._queries_costs = any(_counts_cost(node, wanted) for node in self._modified)
        return self._queries_costs

    def query(self, node: Node) -> Query:
        """What a condition, repeat or constraint node counts (read once: asked in every state)."""
        found = self._queries.get(id(node))
        if found is None:
            found = self._queries[id(node)] = Query.of(node)
            self._keep.append(node)
        return found

    def breakable(self, option: Option) -> list[str]:
        """`Option.breakable`, read once for an entry and its link: the options of every place
        they are offered at ask it alike."""
        key = (id(option.node), id(option.link))
        found = self._breakable.get(key)
        if found is None:
            found = self._breakable[key] = [str(node.get("type")) for node in option.constraints
                                            if option.can_break(node)]
            self._keep.append((option.node, option.link))
        return found

    def condition(self, node: Node) -> Condition:
        """A condition's comparison (read once: asked in every state)."""
        found = self._conditions.get(id(node))
        if found is None:
            found = self._conditions[id(node)] = Condition.of(node)
            self._keep.append(node)
        return found

    def ordered_modifiers(self, holder: Node) -> list[tuple[str, Node]]:
        """A node's modifiers with their fields, 'set' first (New Recruit's order), read once."""
        key = id(holder)
        found = self._modifier_order.get(key)
        if found is None:
            modifiers = sorted(as_list(holder, "modifiers"), key=lambda m: m.get("type") != "set")
            found = [(str(m.get("field")), m) for m in modifiers if not is_targeted(m)]
            self._modifier_order[key] = found
            self._keep.append(holder)
        return found

    def targeted_modifiers(self, holder: Node) -> list[tuple[Node, tuple[Node, ...]]]:
        """A node's modifiers that change another node (New Recruit's modifier ``scope`` and
        ``affects``), each with the modifier groups around it, whose conditions it needs too."""
        key = id(holder)
        found = self._targeted.get(key)
        if found is None:
            found = []
            self._collect_targeted(holder, (), found)
            self._targeted[key] = found
            self._keep.append(holder)
        return found

    def _collect_targeted(self, holder: Node, groups: tuple[Node, ...],
                          found: list[tuple[Node, tuple[Node, ...]]]) -> None:
        for modifier in sorted(as_list(holder, "modifiers"), key=lambda m: m.get("type") != "set"):
            if is_targeted(modifier):
                found.append((modifier, groups))
        for group in as_list(holder, "modifierGroups"):
            self._collect_targeted(group, groups + (group,), found)

    @kept
    def has_targeted_modifiers(self) -> bool:
        """Whether any modifier in the data changes a node other than its own."""
        stack: list[Any] = [self.game_system, *self.catalogues]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                if "field" in item and "type" in item and is_targeted(item):
                    return True
                stack.extend(v for v in item.values() if isinstance(v, (list, dict)))
            elif isinstance(item, list):
                stack.extend(item)
        return False

    def modifier_groups(self, holder: Node) -> list[tuple[Node, frozenset[str]]]:
        """A node's modifier groups, each with every field it (at any depth) changes."""
        key = id(holder)
        found = self._group_fields.get(key)
        if found is None:
            found = [(group, frozenset(_fields_changed(group))) for group in as_list(holder, "modifierGroups")]
            self._group_fields[key] = found
            self._keep.append(holder)
        return found

    def is_group_node(self, node: Node) -> bool:
        """Whether a link target is a shared selection entry group."""
        return str(node.get("id")) in self._group_ids

    def cost_types(self) -> list[Node]:
        """Every cost type, game system first, each id once (read once: every evaluation asks)."""
        return self._cost_types

    @kept
    def _cost_types(self) -> list[Node]:
        seen: dict[str, Node] = {}
        for file in [self.game_system, *self.catalogues]:
            for cost_type in as_list(file, "costTypes"):
                seen.setdefault(str(cost_type["id"]), cost_type)
        return list(seen.values())

    def category(self, category_id: str) -> Node | None:
        return self.by_id.get(category_id)

    def force_entry(self, force_entry_id: str) -> tuple[Node, str] | None:
        """A force entry anywhere (nested ones included) and the file that defines it."""
        node = self.by_id.get(force_entry_id)
        if node is None:
            return None
        return node, self.file_of.get(force_entry_id, "")

    def publication(self, publication_id: str | None) -> Node | None:
        return None if not publication_id else self.by_id.get(publication_id)

    # -- options ----------------------------------------------------------------------------

    def options_in(self, holders: list[Node | None], prefix: tuple[str, ...], parent: Option | None,
                   group: Option | None, catalogue_id: str) -> list[Option]:
        """The options one or more nodes hold (an entry and its link both may), in data order."""
        options: list[Option] = []
        for holder in holders:
            if not holder:
                continue
            for entry in as_list(holder, "selectionEntries"):
                options.append(Option(entry, None, prefix, parent, group, self, catalogue_id))
            for link in as_list(holder, "entryLinks"):
                target = self.target(link)
                if target is not None:
                    is_group = link.get("type") == "selectionEntryGroup" or self.is_group_node(target)
                    options.append(Option(target, link, prefix, parent, group, self, catalogue_id, is_group))
            for entry_group in as_list(holder, "selectionEntryGroups"):
                options.append(Option(entry_group, None, prefix, parent, group, self, catalogue_id, True))
        return options

    def root_options(self, catalogue_id: str) -> list[Option]:
        """The entries a force of this catalogue may take at its root: those imported through
        catalogue links (New Recruit lists them first), the catalogue's own, then the game system's."""
        if catalogue_id not in self._root_options:
            options: list[Option] = []
            catalogue = self.catalogue_by_id.get(catalogue_id)
            if catalogue is not None:
                for imported in self._imported_catalogues(catalogue):
                    options += [o for o in self.options_in([imported], (), None, None, catalogue_id)
                                if _importable(o)]
                options += self.options_in([catalogue], (), None, None, catalogue_id)
            if catalogue is not self.game_system:
                options += self.options_in([self.game_system], (), None, None, catalogue_id)
            self._root_options[catalogue_id] = options
        return self._root_options[catalogue_id]

    def _imported_catalogues(self, catalogue: Node, seen: set[str] | None = None) -> list[Node]:
        """Catalogues whose root entries this one imports (importRootEntries), transitively."""
        seen = seen if seen is not None else {str(catalogue.get("id"))}
        found: list[Node] = []
        for link in as_list(catalogue, "catalogueLinks"):
            target_id = str(link.get("targetId"))
            target = self.catalogue_by_id.get(target_id)
            if target is None or target_id in seen or not as_bool(link.get("importRootEntries")):
                continue
            seen.add(target_id)
            found += self._imported_catalogues(target, seen) + [target]
        return found

    def checkable(self, options: list[Option]) -> Checkable:
        """The options (through groups) with a constraint that can ever be broken: the only ones
        validation need look at. Read once per list of options."""
        found = self._checkable.get(id(options))
        if found is None:
            found = (options, Checkable.of(self._with_limits(options)))  # the list kept, its id its own
            self._checkable[id(options)] = found
        return found[1]

    def _with_limits(self, options: list[Option]) -> list[Option | Later]:
        """The options with a constraint that can ever be broken, through groups, in data order;
        a group whose such options all have only maxima stands for them (`Later`)."""
        found: list[Option | Later] = []
        for option in options:
            if option.breakable:
                found.append(option)
            if option.is_group:
                ids = self._maxima_below(option)
                if ids is None:
                    found += self._with_limits(option.children())
                elif ids:
                    found.append(Later(option, ids))
        return found

    def _maxima_below(self, group: Option) -> frozenset[str] | None:
        """The ids of the options below a group (through groups) with a constraint that can ever
        be broken, where all of those have only maxima; else None. Read once for the group's entry
        and link: what is below it, and which of its constraints can break, is theirs alone."""
        key = (id(group.node), id(group.link))
        if key not in self._below:
            below = self._with_limits(group.children())
            self._below[key] = None if any(not isinstance(item, Later) and not item.only_maxima for item in below) \
                else frozenset().union(*(item.ids if isinstance(item, Later) else (item.id,) for item in below))
            self._keep.append((group.node, group.link))
        return self._below[key]

    def find_root(self, catalogue_id: str, entry_id: str) -> Option | None:
        """A root option named by target id, link id or composite id (through groups)."""
        for option in self.root_options(catalogue_id):
            if option.is_group:
                found = option.find(entry_id)
                if found is not None:
                    return found
            elif entry_id in option.ids:
                return option
        return None


def _counts_cost(node: Node, wanted: set[str]) -> bool:
    """Whether a condition or repeat of a node's modifiers (at any depth of modifier and condition
    groups: the only places BattleScribe data holds them) counts one of the `wanted` fields."""
    if any(query.get("field") in wanted for key in ("conditions", "repeats") for query in as_list(node, key)):
        return True
    return any(_counts_cost(inner, wanted) for key in ("modifiers", "modifierGroups", "conditionGroups")
               for inner in as_list(node, key))


def is_targeted(modifier: Node) -> bool:
    """A modifier that changes another node than its own: New Recruit's modifier ``scope`` (the
    node it starts from) and ``affects`` (a path from there: entries, recursive, an id, profiles)."""
    return str(modifier.get("scope") or "self") != "self" or str(modifier.get("affects") or "self") != "self"


def _fields_changed(group: Node) -> set[str]:
    fields = {str(m.get("field")) for m in as_list(group, "modifiers")}
    for inner in as_list(group, "modifierGroups"):
        fields |= _fields_changed(inner)
    return fields


def _importable(option: Option) -> bool:
    """An entry reached through another catalogue's import is offered unless it says import=false."""
    value = option.node.get("import")
    if option.link is not None and option.link.get("import") is not None:
        value = option.link.get("import")
    return value is None or as_bool(value)

"""The seam between one engine and many games. A game system supplies the model its roster files
are read into, the names they must resolve, the check, and a summary of the checked roster that
the text report, the JSON report, the PDF and the editor print: points against the limit, the
army's derived values, each entry with its own, and the findings."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from pydantic import BaseModel

from .findings import Finding, Location

if TYPE_CHECKING:  # only when a roster is started (core/new_roster.py says why), or an event read
    from .event import Event
    from .new_roster import NewRosterChoices

# What every game's data store is to the seam: the catalog the command loaded (the list engine's
# data, each pack's shipped data, the user's imported data). Not typed here: core imports no engine.
Catalog = Any


@dataclass
class EntrySummary:
    """One entry of a checked roster as every view prints it: its title, points and lines."""

    index: int  # the entry's position in the roster file (an Epic formation, a 40k unit)
    title: str
    points: int
    lines: list[str] = field(default_factory=list)  # what it holds, then its derived values


@dataclass
class SheetSummary:
    """A datasheet as printed: a name, tables of profiles, then lines of text."""

    name: str
    subtitle: str = ""  # keywords, faction
    tables: list[tuple[list[str], list[list[str]]]] = field(default_factory=list)  # (headings, rows)
    lines: list[tuple[str, str]] = field(default_factory=list)  # (label, text), e.g. ("Abilities", "Deep Strike")


@dataclass
class RosterSummary:
    """What every view prints of a checked roster: points against the limit, entries, findings."""

    name: str  # the roster's own name ('' when it has none)
    army: str  # the army list or faction it is built from
    game: str  # the game's printed name
    total: int
    limit: int
    findings: list[Finding]
    army_lines: list[str] = field(default_factory=list)  # the army's derived values, one per line
    entries: list[EntrySummary] = field(default_factory=list)
    json: dict[str, Any] = field(default_factory=dict)  # the machine-readable report (`check --format json`)
    sheets: list[SheetSummary] = field(default_factory=list)  # the datasheets of the units taken, for print
    priced: bool = True  # False: the roster is not played to points (Epic Remastered without a limit)
    entry_kind: tuple[str, str] = ("Unit", "Units")  # what its entries are called, one and several
    data_revision: str = ""  # which data checked it, where the user brought the data (else the shipped data's)

    @property
    def valid(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)


@dataclass(frozen=True)
class FieldFacts:
    """What `listbuilder stats` counts of one checked roster, whatever its game: the army, its entries
    by name (a 40k datasheet, an Epic formation, an Epic Remastered detachment list) with how many
    the roster takes, its points and its models (or units) by the game's own categories (together
    its total and its size)."""

    army: str
    detachment: str  # the 40k detachment; '' where the game has none
    entries: dict[str, int]  # name -> copies taken, in roster order
    points: dict[str, int]  # category -> points, each point in one category, in the game's order
    sizes: dict[str, int]  # category -> models (40k) or units (Epic) of it: the same categories
    wounds: int | None = None  # 40k: the W of every model, summed; None where the game counts none
    activations: int | None = None  # Epic Armageddon's; None where the game has none
    entry_kind: str = "datasheet"  # what its entries are: "datasheet", "formation", "detachment list"
    counted: str = "models"  # what `sizes` counts: "models", "units"

    @property
    def models(self) -> int:
        return sum(self.sizes.values())


class RosterModel(Protocol):
    """What every game's roster model has: the game it is of and its own name."""

    @property
    def game(self) -> str: ...

    @property
    def name(self) -> str: ...


class Checked(Protocol):
    """What every game's check returns: the roster checked, its findings, and the verdict."""

    @property
    def roster(self) -> Any: ...

    @property
    def findings(self) -> list[Finding]: ...

    @property
    def valid(self) -> bool: ...


R = TypeVar("R", bound=RosterModel)  # a game's roster model (a pydantic model)
Res = TypeVar("Res", bound=Checked)  # what its check returns


@dataclass
class ImportedList(Generic[R]):
    """A list another tool wrote (or list text), read against the data: the roster (None when it
    cannot be made), the findings of reading it (located), the line of each part of the roster,
    and the form it was read from."""

    roster: R | None
    findings: list[Finding]
    lines: dict[tuple[str | int, ...], int] = field(default_factory=dict)
    name: str = ""  # the file's name as shown
    form: str = ""  # which tool's form it was read from
    stated_total: int | None = None  # the total points the list states (None: it states none)

    def as_listed(self, finding: Finding) -> Finding:
        """A check's finding as it applies to this list (a game whose forms cannot state everything
        its checks ask for makes such findings warnings)."""
        return finding

    def locate(self, path: tuple[str | int, ...]) -> Location:
        """The line of the deepest part of `path` the list states (the unit for its models...)."""
        for end in range(len(path), 0, -1):
            if path[:end] in self.lines:
                return Location(self.name, self.lines[path[:end]])
        return Location(self.name, self.lines.get(()))


@dataclass(frozen=True, eq=False, repr=False)
class ListReader:
    """One form of list that other tools write (or that `export` writes), as a game reads it: `form`
    tells it from the bytes (its name, or None when the bytes are not of it); `read` places it against
    the catalog (the bytes as they came, a zip archive already opened), raising LoadFailure when it
    cannot at all. A `fallback` reader takes any text: it is tried only after every other form, by
    `listbuilder import`, and bounds the text itself."""

    form: Callable[[bytes], str | None]
    read: Callable[[bytes, str, str, Catalog], ImportedList[Any]]  # (data, form, shown, catalog)
    fallback: bool = False


@dataclass(frozen=True, eq=False, repr=False)
class GameData:
    """For a game whose shipped lists/<game>/ and datasheets/<game>/ files are its own models rather
    than the list engine's: the models, and `assemble`, which puts the parsed files together into the
    data its checks read (Catalog.packs[game]) and returns each reference problem with its file."""

    list_model: type[BaseModel]
    datasheet_model: type[BaseModel]
    assemble: Callable[[dict[str, Any], dict[str, Any]], tuple[Any, list[tuple[tuple[str, str, str], Finding]]]]


@dataclass(frozen=True, eq=False, repr=False)
class EventRules(Generic[Res]):
    """What a game reads of an event file beyond its game and armies (40k: its Legends, Incursion
    limits, detachments, keyword caps, and its points as a cap within a battle size): the keys it
    alone reads (an event of another game that sets one is refused), the names its armies answer to,
    the names the event's own keys give that its data lacks, and its rules applied to a checked roster."""

    keys: frozenset[str]  # Event fields only this game reads
    # catalog -> each name its armies answer to (by name_key) and the army's printed name; or why none
    # is known (no data installed, and how to install it)
    armies: Callable[[Catalog], dict[str, str] | str]
    problems: Callable[[Event, Catalog], list[Finding]]  # names of its keys the data lacks, each at its key
    # (result, event, catalog) -> the check's findings with the event's rules applied: its own
    # findings first, then the check's, less those the event's stricter rule says instead
    apply: Callable[[Res, Event, Catalog], list[Finding]]


@dataclass(frozen=True, eq=False, repr=False)
class GameSystem(Generic[R, Res]):
    """A game as the engines and every view use it: its roster model, names, check and summary, and
    where each front end finds the game's own parts (named by string where importing them would load
    a library the game itself must not: its editor screen, its PDF document)."""

    roster_model: type[R]  # with at least `game` and `name` (RosterModel)
    unknown_names: Callable[[R, Catalog], list[Finding]]  # what the roster names that the data lacks
    validate: Callable[[R, Catalog], Res]
    summary: Callable[[Res], RosterSummary]  # what every view prints
    new_roster_choices: Callable[[Catalog, str], NewRosterChoices]  # (catalog, game): the new-roster dialog's
    # (catalog, game, army, limit) -> a new roster of that army, or a message saying why there is none;
    # what `listbuilder new --game --army --points` and the dialog both build
    start_roster: Callable[[Catalog, str, str, int | None], R | str]
    entries_field: str  # the roster's list of entries: "formations", "units", "detachments"
    editor_screen: str  # "module:Class" of its Textual screen, imported by the editor only
    schemas: Mapping[str, type[BaseModel]] = field(default_factory=dict)  # `listbuilder schema` name -> model
    pdf_document: str | None = None  # "module:Class" of its own PDF document (else every game's)
    list_readers: tuple[ListReader, ...] = ()  # the forms of list other tools write that it reads
    data: GameData | None = None  # its shipped data, when the list engine's models do not fit it
    armies: Callable[[Catalog], list[str]] | None = None  # what `listbuilder armies` prints of the game
    # (result, catalog, markdown) -> the roster as the text players post, which `listbuilder import` reads back
    list_text: Callable[[Res, Catalog, bool], str] | None = None
    # result -> the roster in BattleScribe's roster form (battlescribe/rosterdict.py), which `listbuilder
    # export --format ros` writes for BattleScribe and New Recruit; or a message saying why it cannot
    battlescribe_roster: Callable[[Res], dict[str, Any] | str] | None = None
    name: str = ""  # the game's printed name ('' for the list engine's games: their game.yaml names them)
    field_facts: Callable[[Res], FieldFacts] | None = None  # what `listbuilder stats` counts (every game has it)
    event_rules: EventRules[Res] | None = None  # its own rules of an event file (else only game, points, armies)


def imported(reference: str) -> Any:
    """What a "module:name" reference names (GameSystem.editor_screen, pdf_document), imported now."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)


def deferred(reference: str) -> Callable[..., Any]:
    """The function a "module:name" reference names, imported at its first call: a game's hook that
    checking a roster does not call (its list readers, its export, its event rules) loads its
    module only when used."""

    def call(*args: Any) -> Any:
        return imported(reference)(*args)

    return call

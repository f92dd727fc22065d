"""The seam between one engine and many games. A game system supplies the model its roster files
are read into, the names they must resolve, the check, and a summary of the checked roster that
the text report, the JSON report, the PDF and the editor print: points against the limit, the
army's derived values, each entry with its own, and the findings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from .findings import Finding


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
class GameData:
    """For a game whose shipped lists/<game>/ and datasheets/<game>/ files are its own models rather
    than the list engine's: the models, and `assemble`, which puts the parsed files together into the
    data its checks read (Catalog.packs[game]) and returns each reference problem with its file."""

    list_model: type[BaseModel]
    datasheet_model: type[BaseModel]
    assemble: Callable[[dict[str, Any], dict[str, Any]], tuple[Any, list[tuple[tuple[str, str, str], Finding]]]]


@dataclass(frozen=True)
class GameSystem:
    """A game's pack as the engine and every view use it: its roster model, names, check and summary."""

    roster_model: type[BaseModel]  # with at least `game` and `name`
    unknown_names: Callable[[Any, Any], list[Finding]]  # (roster, catalog): what it names that the data lacks
    validate: Callable[[Any, Any], Any]  # (roster, catalog) -> a result with .roster, .findings and .valid
    summary: Callable[[Any], RosterSummary]  # (result) -> what every view prints
    # (catalog, game) -> what the new-roster dialog offers (core/new_roster.py NewRosterChoices)
    new_roster_choices: Callable[[Any, str], Any]
    # (catalog, game, army, limit) -> a new roster of that army, or a message saying why there is none;
    # what `listbuilder new --game --army --points` and the dialog both build
    start_roster: Callable[[Any, str, str, int | None], Any]
    data: GameData | None = None  # its shipped data, when the list engine's models do not fit it
    armies: Callable[[Any], list[str]] | None = None  # (catalog) -> what `listbuilder armies` prints of the game
    # (result, catalog, markdown) -> the roster as the text players post, which `listbuilder import` reads back
    list_text: Callable[[Any, Any, bool], str] | None = None
    name: str = ""  # the game's printed name ('' for the list engine's games: their game.yaml names them)

"""Checking an organiser's submissions: the roster files that folders hold (and every file left out,
with why), each read and checked against the event's rules (report/folder.py checks a folder's on
every core)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ..core.findings import LoadFailure
from ..data.yamlfile import read
from ..data.yamlfile import validate as validate_document
from ..games import known_games, summarise, system_for, validate
from ..listengine.catalog import Catalog
from .files import RosterFile, read_list_file, read_roster
from .lists import LIST_SUFFIXES, is_list, list_form, read_bounded

if TYPE_CHECKING:  # an event's model and rules are imported with an event only
    from ..core.event import Event

ROSTER_SUFFIXES = (".yaml", ".yml", *LIST_SUFFIXES)  # lists other tools wrote (imports.py) too
KEPT_TEXT = 32 * 1024  # a list's text is ~1 KB; a larger .txt is read again when checked (a folder's memory bounded)


@dataclass(frozen=True)
class Skipped:
    """A file in the folders checked that is not checked, and why."""

    file: str
    reason: str


class RosterItem(NamedTuple):
    path: Path
    shown: str  # the name reports give it
    data: bytes | None = None  # a .txt list's bytes, as read to tell it from notes: not read again


def roster_files(arguments: list[str], leave_out: set[Path] = frozenset()) -> tuple[list[RosterItem],
                                                                                      list[Skipped], list[str]]:
    """Every roster file named or found in the folders named, recursively, in order; the files
    skipped, with why; and the folders that hold no roster file at all."""
    found: list[RosterItem] = []
    skipped: list[Skipped] = []
    empty: list[str] = []
    for argument in arguments:
        top = Path(argument)
        if not _is_folder(top):
            found.append(RosterItem(top, argument))  # checked as a roster: what is wrong with it is reported then
            continue
        before = len(found)
        for folder, folders, files in os.walk(top, onerror=lambda error: found.append(
                RosterItem(Path(error.filename), str(error.filename)))):  # an unlistable folder is reported unreadable
            here = Path(folder)
            for name in list(folders):
                if name.startswith(".") or (here / name).is_symlink():
                    folders.remove(name)
                    why = "hidden folder" if name.startswith(".") else "link to a folder (not followed)"
                    skipped.append(Skipped(str(here / name) + os.sep, why))
            folders.sort()
            for name in files:
                path = here / name
                if path.resolve() in leave_out:
                    skipped.append(Skipped(str(path), "the event file"))
                elif name.startswith("."):
                    skipped.append(Skipped(str(path), "hidden file"))
                elif path.suffix.lower() not in ROSTER_SUFFIXES:
                    skipped.append(Skipped(str(path), "not a .yaml/.yml file or a list (.ros, .rosz, .txt)"))
                elif not path.is_file():
                    skipped.append(Skipped(str(path), "not a regular file"))
                elif path.suffix.lower() == ".txt":
                    text = _text(path)
                    if text is not None and list_form(text) is None:
                        skipped.append(Skipped(str(path), "text, but not a list another tool wrote"))
                    else:
                        kept = text if text is not None and len(text) <= KEPT_TEXT else None
                        found.append(RosterItem(path, str(path), kept))
                else:
                    found.append(RosterItem(path, str(path)))
        found[before:] = sorted(found[before:], key=lambda item: item.path.parts)
        if len(found) == before:
            empty.append(argument)
    skipped.sort(key=lambda s: Path(s.file).parts)
    return found, skipped, empty


def _text(path: Path) -> bytes | None:
    """A .txt file's bytes, to tell a list's text (checked) from notes sent along (skipped); None if
    it cannot be read (checked, so that why is reported)."""
    try:
        return read_bounded(path, str(path))
    except LoadFailure:
        return None


def read_event(path: Path, catalog: Catalog) -> Event:
    """An event file (name, game, points, armies, a game's own rules), its names checked. Raises LoadFailure."""
    from ..core.event import Event
    from .events import event_problems

    document = read(path)
    event = validate_document(document, Event)
    problems = event_problems(event, catalog, known_games(catalog))
    if problems:
        raise LoadFailure([p.located(document.locate(p.path)) for p in problems])
    return event


def _is_folder(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # e.g. inside a folder we may not enter
        return False


def check_file(path: Path, catalog: Catalog, shown: str | None = None, event: Event | None = None,
               data: bytes | None = None) -> Any:
    """Read and validate one roster (by the event's rules, if any), findings located in the file;
    a list from `data`, its bytes, if already read. Raises LoadFailure."""
    return check_read(read_file(path, catalog, shown, data), catalog, event)


def read_file(path: Path, catalog: Catalog, shown: str | None = None, data: bytes | None = None) -> RosterFile:
    """A roster file, or a list another tool wrote (from `data`, its bytes, if already read). Raises LoadFailure."""
    return read_list_file(path, catalog, shown, data) if is_list(path) else read_roster(path, catalog, shown)


def priced_under(roster_file: RosterFile, result: Any, versions: dict[str, tuple[str, Catalog]]) -> str:
    """Of the versions of the imported data (label -> its revision and the catalog with it), the one
    whose total for a list (`result`: its check) is nearest the total the list states, ties joined,
    with how far off where none gives it exactly (D41); '' where the list states no total (a roster
    file) or no version can price it. The version that checked it is not priced again."""
    stated = getattr(roster_file.document, "stated_total", None)
    if stated is None:
        return ""
    roster, checked = roster_file.roster, summarise(result)
    totals = {label: checked.total if revision == checked.data_revision else summarise(validate(roster, catalog)).total
              for label, (revision, catalog) in versions.items()
              if revision == checked.data_revision or not system_for(roster.game).unknown_names(roster, catalog)}
    if not totals:
        return ""
    off = min(abs(total - stated) for total in totals.values())
    nearest = [label for label, total in totals.items() if abs(total - stated) == off]
    return ", ".join(nearest) + (f" (off by {off:,} points)" if off else "")


def check_read(roster_file: RosterFile, catalog: Catalog, event: Event | None = None) -> Any:
    """Validate a roster as read (by the event's rules, if any), findings located in its file."""
    if event is None:
        result = validate(roster_file.roster, catalog)
        result.findings = roster_file.report(result.findings)
        return result
    from ..core.event import waived
    from .events import apply_event, game_rules

    roster, broken = apply_event(roster_file.roster, event, catalog)
    result = validate(roster, catalog)
    result.findings = roster_file.report(broken + waived(game_rules(result, event, catalog), event))
    return result

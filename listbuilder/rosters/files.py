"""Reading roster files (located errors, names checked against the catalog) and saving them
atomically, keeping the previous version and the author's comments."""

from __future__ import annotations

import errno
import glob
import io
import json
import os
import secrets
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from ..core.findings import Finding, LoadFailure, Path
from ..data.yamlfile import BOM, Document, parse, parse_round_trip, read, round_trip_yaml, validate
from ..games import games_text, is_known_game, known_games, roster_needs, suggest_game, system_for, unknown_game
from ..listengine.catalog import Catalog
from .comments import merge_items

if TYPE_CHECKING:
    from ..core.system import ImportedList


@dataclass
class RosterFile:
    """A roster as read from its file, with where each part of it is written."""

    roster: Any  # the roster model of its game's system (listengine.roster.Roster for the list engine)
    document: Document | ImportedList[Any]  # where each part of the roster is written (an imported list: its lines)
    notes: list[Finding] = field(default_factory=list)  # what reading it found (an imported list's lines, costs)

    def locate(self, finding: Finding) -> Finding:
        return finding.located(self.document.locate(finding.path)) if finding.location is None else finding

    def report(self, findings: list[Finding]) -> list[Finding]:
        """A check's findings as this file shows them: after what reading it found, located; on a
        list another tool wrote, as they apply to its form (ImportedList.as_listed)."""
        located = locate_all(self, findings)
        if not isinstance(self.document, Document):
            located = [self.document.as_listed(f) for f in located]
        return self.notes + located


MAX_FORMATIONS = 1_000  # a 5,000-point Epic army fields about 30; checking 1,000 takes about a second


def _checked(document: Document, catalog: Catalog) -> RosterFile:
    formations = document.data.get("formations") if isinstance(document.data, dict) else None
    if isinstance(formations, list) and len(formations) > MAX_FORMATIONS:  # refused before building anything
        raise LoadFailure([Finding("too-many-formations", f"{len(formations):,} formations; no army fields more than "
                                   f"{MAX_FORMATIONS:,}", location=document.locate(("formations", MAX_FORMATIONS)))])
    _is_roster(document, catalog)
    game = document.data.get("game") if isinstance(document.data, dict) else None
    system = system_for(game if isinstance(game, str) else "")
    if game is None:
        raise LoadFailure([Finding("no-game", f"the file has no `game:`, so it is not a roster: a roster names its "
                                   f"game first (known: {games_text(catalog)})", location=document.locate(()),
                                   suggestion=f"add e.g. `game: {known_games(catalog)[0]}` as its first line")])
    if not isinstance(game, str):
        raise LoadFailure([Finding("wrong-value", f"`game:` is {_kind(game)}, not a game's id (known: "
                                   f"{games_text(catalog)})", location=document.locate(("game",)))])
    if not is_known_game(catalog, game):
        raise LoadFailure([Finding("unknown-game", unknown_game(catalog, game), location=document.locate(("game",)),
                                   suggestion=suggest_game(catalog, game))])
    roster = validate(document, system.roster_model)
    return _names_known(RosterFile(roster, document), catalog)


def _is_roster(document: Document, catalog: Catalog) -> None:
    """Refuse, in a player's words, a file that holds no roster at all: empty, a list, plain text."""
    data = document.data
    if isinstance(data, dict):
        return
    if data is None:
        what = "the file is empty"
    elif isinstance(data, list):
        what = "the file is a YAML list, not a roster"
    elif FsPath(document.name).suffix.lower() in (".md", ".markdown"):
        what = "the file is a Markdown document, not a roster"
    else:
        what = "the file is plain text, not a roster"
    raise LoadFailure([Finding("wrong-value", f"{what}: {roster_needs(catalog)}", location=document.locate(()),
                               suggestion="start one with `listbuilder new FILE`; a list another tool wrote: "
                                          "`listbuilder import FILE -o ROSTER.yaml`")])


def _kind(value: Any) -> str:
    return ("a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict)
            else "true/false" if isinstance(value, bool) else f"the number {value}")


def _names_known(roster_file: RosterFile, catalog: Catalog) -> RosterFile:
    unknown = system_for(roster_file.roster.game).unknown_names(roster_file.roster, catalog)
    if unknown:
        raise LoadFailure(roster_file.notes + locate_all(roster_file, unknown))
    return roster_file


def read_list_file(path: FsPath, catalog: Catalog, shown_as: str | None = None,
                   data: bytes | None = None) -> RosterFile:
    """A list in another tool's form (imports.py), its reading's findings kept as notes; from
    `data`, the file's bytes, if already read."""
    from .lists import read_list  # the 40k pack it needs is loaded only for such a list

    imported = read_list(path, catalog, shown_as, data)
    return _names_known(RosterFile(imported.roster, imported, imported.findings), catalog)


def read_roster(path: FsPath, catalog: Catalog, shown_as: str | None = None, round_trip: bool = False) -> RosterFile:
    """`round_trip`: read with its comments, for a roster the editor may save back."""
    return _checked(read(path, shown_as, round_trip), catalog)


def parse_roster(text: str, name: str, catalog: Catalog, round_trip: bool = False) -> RosterFile:
    return _checked((parse_round_trip if round_trip else parse)(text, name), catalog)


def to_data(roster: BaseModel) -> dict[str, Any]:
    """The roster as plain data, the way a person would write it (defaults left out)."""
    return roster.model_dump(mode="json", exclude_defaults=True)


def merge(target: Any, source: Any, full: Any = None) -> Any:
    """Update `target` (ruamel containers) to equal `source` (plain data, defaults left out) in
    place, so that the comments and key order of what stays the same are kept. `full` is `source`
    with its defaults: a default the file states (`split: false`) stays as written."""
    if isinstance(target, CommentedMap) and isinstance(source, dict):
        full = full if isinstance(full, dict) else source
        for key in [k for k in target if k not in source and not (k in full and full[k] == target[k])]:
            del target[key]
        for key, value in source.items():
            target[key] = merge(target[key], value, full.get(key)) if key in target else value
        return target
    if isinstance(target, CommentedSeq) and isinstance(source, list):
        fulls = full if isinstance(full, list) and len(full) == len(source) else source
        by_id = {id(value): whole for value, whole in zip(source, fulls)}
        merge_items(target, source, _identity, lambda old, new: merge(old, new, by_id.get(id(new))))
        return target
    return source


def _identity(value: Any) -> str:
    """What an item is, for telling which old item a new one is: its keys, the empty ones aside
    (every default of a roster entry is empty: `split: false` says the same as nothing)."""
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if not (v is None or v is False or v == {} or v == [])}
    return json.dumps(value, sort_keys=True, default=str)


def dump(roster: BaseModel, document: Document | None = None) -> str:
    """YAML text for `roster`; given the document it was read from, its comments, line endings and
    byte order mark are kept."""
    data = to_data(roster)
    if document is None or not isinstance(document.data, CommentedMap):
        tree = data
    else:
        tree = merge(document.data, data, roster.model_dump(mode="json"))
    stream = io.StringIO()
    round_trip_yaml().dump(tree, stream)
    text = stream.getvalue()
    if document is not None:
        text = (BOM if document.bom else "") + text.replace("\r\n", "\n").replace("\n", document.newline)
    return text


def backup_path(path: FsPath) -> FsPath:
    return path.with_name(path.name + ".bak")


def save_text(path: FsPath, text: str) -> None:
    """Write `text` to `path` atomically; the file it replaces is kept as `<name>.bak`."""
    save_bytes(path, text.encode("utf-8"))


def save_bytes(path: FsPath, data: bytes) -> None:
    """Write `data` to `path` atomically (a printed PDF, a roster's text), only over a regular
    file. The file it replaces is kept as `<name>.bak`, itself replaced atomically and only once
    the new text is safely on disk (a full disk leaves both as they were). The new file keeps the
    old one's permissions (a new one gets what the umask allows); the folder is synced after."""
    path = path.resolve()
    try:
        old = os.stat(path)
    except FileNotFoundError:
        old = None
    if old is not None and not stat.S_ISREG(old.st_mode):
        raise OSError(errno.EINVAL, "it is not a regular file (only regular files are written)", str(path))
    _sweep_temporaries(path)
    written = _write_temporary(path, data, None if old is None else stat.S_IMODE(old.st_mode))
    try:
        if old is not None:
            _keep_backup(path)
        os.replace(written, path)
    finally:
        written.unlink(missing_ok=True)
    _sync_folder(path.parent)


def _temporary_name(path: FsPath) -> FsPath:
    return path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")


def _write_temporary(path: FsPath, data: bytes, mode: int | None) -> FsPath:
    """`data` in a new file beside `path`, synced to disk; removed again if anything fails."""
    temporary = _temporary_name(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    handle = os.open(temporary, flags, 0o666)  # the umask applies
    try:
        with os.fdopen(handle, "wb") as stream:
            if mode is not None:
                os.chmod(temporary, mode)  # by name: Windows has no fchmod
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


def _keep_backup(path: FsPath) -> None:
    """The current file becomes `<name>.bak` in one rename: a second name for it where the file
    system allows (nothing copied, nothing to fill a disk), else a synced copy."""
    temporary = _temporary_name(backup_path(path))
    try:
        try:
            os.link(path, temporary)
        except OSError:
            copied = _write_temporary(path, path.read_bytes(), None)
            os.replace(copied, temporary)
        os.replace(temporary, backup_path(path))
    finally:
        temporary.unlink(missing_ok=True)


def _sweep_temporaries(path: FsPath) -> None:
    """Remove what earlier saves of this file left when they were killed mid-way (a minute old:
    never one a save running now is writing)."""
    cutoff = time.time() - 60
    for name in (path.name, backup_path(path).name):
        for leftover in path.parent.glob(f".{glob.escape(name)}.*.tmp"):
            try:
                if leftover.stat().st_mtime < cutoff:
                    leftover.unlink()
            except OSError:
                pass


def _sync_folder(folder: FsPath) -> None:
    """The renames reach the disk too (a crash right after a save keeps it)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # a platform whose folders cannot be opened (Windows) syncs them itself
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def locate_all(roster_file: RosterFile, findings: list[Finding]) -> list[Finding]:
    return [roster_file.locate(f) for f in findings]


__all__ = ["RosterFile", "read_roster", "read_list_file", "parse_roster", "dump", "save_text", "save_bytes",
           "locate_all", "Path"]

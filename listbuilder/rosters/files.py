"""Reading roster files (located errors, names checked against the catalog) and saving them
atomically, keeping the previous version and the author's comments."""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from ..core.catalog import Catalog
from ..core.findings import Finding, LoadFailure, Path
from ..core.names import did_you_mean
from ..core.roster import Roster
from ..data.yamlfile import Document, parse, read, round_trip_yaml, validate


@dataclass
class RosterFile:
    roster: Roster
    document: Document

    def locate(self, finding: Finding) -> Finding:
        return finding.located(self.document.locate(finding.path)) if finding.location is None else finding


def _checked(document: Document, catalog: Catalog) -> RosterFile:
    roster = validate(document, Roster)
    if roster.game not in catalog.games:
        raise LoadFailure([Finding("unknown-game", f"unknown game '{roster.game}' (known: {', '.join(catalog.games)})",
                                   location=document.locate(("game",)),
                                   suggestion=did_you_mean(roster.game, list(catalog.games)))])
    if catalog.find_list(roster.game, roster.army) is None or catalog.find_list(roster.game, roster.army).kind != "army":
        armies = catalog.army_ids(roster.game)
        names = armies + [catalog.lists[roster.game][a].name for a in armies]
        raise LoadFailure([Finding("unknown-army", f"unknown army '{roster.army}' for {roster.game} "
                                   f"(known: {', '.join(armies)})", location=document.locate(("army",)),
                                   suggestion=did_you_mean(roster.army, names))])
    return RosterFile(roster, document)


def read_roster(path: FsPath, catalog: Catalog, shown_as: str | None = None) -> RosterFile:
    return _checked(read(path, shown_as), catalog)


def parse_roster(text: str, name: str, catalog: Catalog) -> RosterFile:
    return _checked(parse(text, name), catalog)


def to_data(roster: Roster) -> dict[str, Any]:
    """The roster as plain data, the way a person would write it (defaults left out)."""
    return roster.model_dump(mode="json", exclude_defaults=True)


def merge(target: Any, source: Any) -> Any:
    """Update `target` (ruamel containers) to equal `source` (plain data) in place, so that the
    comments and key order of what stays the same are kept."""
    if isinstance(target, CommentedMap) and isinstance(source, dict):
        for key in [k for k in target if k not in source]:
            del target[key]
        for key, value in source.items():
            target[key] = merge(target[key], value) if key in target else value
        return target
    if isinstance(target, CommentedSeq) and isinstance(source, list):
        del target[len(source):]
        for i, value in enumerate(source):
            if i < len(target):
                target[i] = merge(target[i], value)
            else:
                target.append(value)
        return target
    return source


def dump(roster: Roster, document: Document | None = None) -> str:
    """YAML text for `roster`; given the document it was read from, its comments are kept."""
    data = to_data(roster)
    tree = merge(document.data, data) if document is not None and isinstance(document.data, CommentedMap) else data
    stream = io.StringIO()
    round_trip_yaml().dump(tree, stream)
    return stream.getvalue()


def backup_path(path: FsPath) -> FsPath:
    return path.with_name(path.name + ".bak")


def save_text(path: FsPath, text: str) -> None:
    """Write `text` to `path` atomically; the file it replaces is kept as `<name>.bak`."""
    save_bytes(path, text.encode("utf-8"))


def save_bytes(path: FsPath, data: bytes) -> None:
    """Write `data` to `path` atomically (a printed PDF, a roster's text); the file it replaces
    is kept as `<name>.bak`."""
    path = path.resolve()
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if path.exists():
            shutil.copy2(path, backup_path(path))
        os.replace(temporary, path)
    except BaseException:
        FsPath(temporary).unlink(missing_ok=True)
        raise


def locate_all(roster_file: RosterFile, findings: list[Finding]) -> list[Finding]:
    return [roster_file.locate(f) for f in findings]


__all__ = ["RosterFile", "read_roster", "parse_roster", "dump", "save_text", "save_bytes", "locate_all", "Path"]

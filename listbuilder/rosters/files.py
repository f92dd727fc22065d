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

from pydantic import BaseModel
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from ..core.catalog import Catalog
from ..core.findings import Finding, LoadFailure, Path
from ..core.names import did_you_mean
from ..data.yamlfile import Document, parse, parse_round_trip, read, round_trip_yaml, validate
from ..systems import known_games, system_for
from ..systems import validate as check


@dataclass
class RosterFile:
    roster: Any  # the roster model of its game's system (core.roster.Roster for the list engine)
    document: Document

    def locate(self, finding: Finding) -> Finding:
        return finding.located(self.document.locate(finding.path)) if finding.location is None else finding


def _checked(document: Document, catalog: Catalog) -> RosterFile:
    game = document.data.get("game") if isinstance(document.data, dict) else None
    system = system_for(game if isinstance(game, str) else "")
    roster = validate(document, system.roster_model)
    games = known_games(catalog)
    if roster.game not in games:
        raise LoadFailure([Finding("unknown-game", f"unknown game '{roster.game}' (known: {', '.join(games)})",
                                   location=document.locate(("game",)),
                                   suggestion=did_you_mean(roster.game, games))])
    unknown = system.unknown_names(roster, catalog)
    if unknown:
        raise LoadFailure([finding.located(document.locate(finding.path)) for finding in unknown])
    return RosterFile(roster, document)


def read_roster(path: FsPath, catalog: Catalog, shown_as: str | None = None, round_trip: bool = False) -> RosterFile:
    """`round_trip`: read with its comments, for a roster the editor may save back."""
    return _checked(read(path, shown_as, round_trip), catalog)


def check_file(path: FsPath, catalog: Catalog, shown_as: str | None = None) -> Any:
    """Read one roster and check it by its game's rules, its findings located in the file.
    Raises LoadFailure when it cannot be read."""
    roster_file = read_roster(path, catalog, shown_as)
    result = check(roster_file.roster, catalog)
    result.findings = locate_all(roster_file, result.findings)
    return result


def parse_roster(text: str, name: str, catalog: Catalog, round_trip: bool = False) -> RosterFile:
    return _checked((parse_round_trip if round_trip else parse)(text, name), catalog)


def to_data(roster: BaseModel) -> dict[str, Any]:
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


def dump(roster: BaseModel, document: Document | None = None) -> str:
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


__all__ = ["RosterFile", "read_roster", "check_file", "parse_roster", "dump", "save_text", "save_bytes", "locate_all", "Path"]

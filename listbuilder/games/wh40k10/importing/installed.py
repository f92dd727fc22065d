"""Catalogs the user installed (imported BSData): where they live, writing and loading them.

They live in the user data folder (platformdirs; `LISTBUILDER_DATA_DIR` overrides it, as tests
do). Each import is a version of a game's data, kept beside the earlier ones and numbered in the
order imported (`catalogs/<game>/<n>.json`, D41): labelled as the user says (`--label`), else by
its revision and import date. One of them is the default every command loads: the last imported,
or the one `data use` marks. An import of a revision already installed, or under a label already
used, replaces that version. The layout before versions (`catalogs/<game>.json`) is read as one
more version.

Each version is one JSON file, written atomically beside a small summary that `data list` reads
without loading the catalog, and the same catalog cut by faction, of which a check of one roster
loads only its faction's part. Beside them, the data files as the BattleScribe engine reads them
(`compile_data`), one JSON file per game system and catalogue, of which a check loads the game
system and its faction's catalogues. JSON, not YAML: the catalog is machine-written and loading it
must stay well under a second; it is validated on load (no pickle), but for the parts whose digest
is the one `install` recorded, which are built back unvalidated (`_read`); and kept in memory for
the rest of the run.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args, get_origin

from pydantic import TypeAdapter, ValidationError

from ....core.findings import Finding, LoadFailure, Location
from ....core.longlived import long_lived

if TYPE_CHECKING:  # the 40k models are loaded with a catalog, not by every command that might need one
    from ..catalog import EngineData, Faction, Unit, Wh40kCatalog

DATA_DIR_VARIABLE = "LISTBUILDER_DATA_DIR"
# What `data list` counts of the transports' datasheet texts the check does not read whole (D11)
TRANSPORTS_UNREAD = "transport texts not read whole (a roster embarking units in one is warned)"
DEFAULT_MARK = "default"  # in a game's versions folder: the revision of the version `data use` marked


def data_dir() -> Path:
    override = os.environ.get(DATA_DIR_VARIABLE)
    if override:
        return Path(override)
    import platformdirs  # only where its folder is wanted: it imports tempfile (11 M of a check)

    return Path(platformdirs.user_data_dir("listbuilder", appauthor=False))


def _catalogs() -> Path:
    return data_dir() / "catalogs"


def catalog_path(game: str) -> Path:
    """The default version's catalog; where none is installed, where the layout before versions kept it."""
    default = next((v for v in versions(game) if v.default), None)
    return default.path if default else _catalogs() / f"{game}.json"


def _summary_path(path: Path) -> Path:
    return path.with_suffix(".summary.json")


@dataclass(frozen=True)
class Installed:
    """A version of a game's data the user installed, as its summary file describes it."""

    game: str
    data_revision: str
    imported: str  # when, ISO 8601 UTC
    factions: int
    units: int
    left_out: dict[str, int]
    path: Path
    label: str = ""  # what `--data` and an event's `data:` name it by (its revision does too)
    importer: int = 0  # the IMPORTER_VERSION that installed it (0: one before it was recorded; D53)
    default: bool = False  # the version every command loads unless told another

    @property
    def imported_earlier(self) -> bool:
        """Whether an earlier importer installed it, whose reading of the data a check no longer matches (D53)."""
        from ..catalog import IMPORTER_VERSION

        return self.importer < IMPORTER_VERSION


def default_label(revision: str, imported: str) -> str:
    """A version's label where the user gave none: its revision and the day it was imported."""
    return f"{revision} {imported[:10]}"


def _read_summary(summary: Path) -> Installed | None:
    try:
        fields = json.loads(summary.read_text(encoding="utf-8"))
        fields.setdefault("label", default_label(fields["data_revision"], fields["imported"]))
        return Installed(path=summary.with_name(summary.name.removesuffix(".summary.json") + ".json"), **fields)
    except (OSError, ValueError, TypeError, KeyError):  # a summary that cannot be read is skipped
        return None


def versions(game: str) -> list[Installed]:
    """The versions of a game's data installed, oldest import first, the default marked: the one
    `data use` or the last import marked, else the last imported."""
    summaries = [_catalogs() / f"{game}.summary.json", *sorted((_catalogs() / game).glob("*.summary.json"))]
    found = sorted((v for s in summaries if s.is_file() and (v := _read_summary(s)) is not None),
                   key=lambda v: (v.imported, _number(v.path)))
    if not found:
        return []
    try:
        marked = (_catalogs() / game / DEFAULT_MARK).read_text(encoding="utf-8")
    except OSError:
        marked = None
    chosen = next((v for v in found if v.data_revision == marked), found[-1])
    return [replace(v, default=v is chosen) for v in found]


def _number(path: Path) -> int:
    """A version's number in its folder (0: the layout before versions)."""
    return int(path.stem) if path.stem.isdigit() else 0


def installed() -> list[Installed]:
    """Every version of every game's data installed, game by game."""
    games = {p.name.removesuffix(".summary.json") for p in _catalogs().glob("*.summary.json")}
    games |= {p.name for p in _catalogs().glob("*") if p.is_dir() and not p.name.startswith(".")
              and not p.name.endswith((".by-faction", ".engine", ".tmp"))}
    return [version for game in sorted(games) for version in versions(game)]


def find_version(game: str, wanted: str) -> Installed:
    """The version of a game's data labelled `wanted` (else of that revision; case aside). Raises
    LoadFailure naming those installed."""
    found = versions(game)
    for matches in (lambda v: v.label == wanted, lambda v: v.data_revision == wanted,
                    lambda v: wanted.casefold() in (v.label.casefold(), v.data_revision.casefold())):
        version = next((v for v in found if matches(v)), None)
        if version is not None:
            return version
    labels = ", ".join(repr(v.label) for v in found) or "none"
    raise LoadFailure([Finding("data-version-unknown", f"no {game} data is installed as '{wanted}' (installed: "
                               f"{labels})", location=Location(str(_catalogs() / game)),
                               suggestion="give a label or revision `listbuilder data list` shows, or import that "
                                          "data: listbuilder data import bsdata PATH --label LABEL")])


def use(game: str, wanted: str) -> Installed:
    """Make a version the default every command loads (`data use`). Raises LoadFailure as find_version."""
    version = find_version(game, wanted)
    _write_atomically(_catalogs() / game / DEFAULT_MARK, version.data_revision.encode())
    return replace(version, default=True)


def _write_atomically(path: Path, data: bytes) -> None:
    """Write through a temporary file renamed over the old one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def _parts_path(path: Path) -> Path:
    return path.with_name(path.stem + ".by-faction")


def _engine_path(path: Path) -> Path:
    return path.with_name(path.stem + ".engine")


def compile_folder(folder: Path) -> dict[str, Any]:
    """The folder's game system and catalogues compiled for the BattleScribe engine. Raises
    UnreadableFile naming a file that cannot be read."""
    from ....battlescribe.importing import compile_data

    files = sorted([*folder.glob("*.gst"), *folder.glob("*.cat")])
    return compile_data({path.name: path.read_bytes() for path in files})


def install(catalog: Wh40kCatalog, left_out: dict[str, int], engine: dict[str, Any] | None = None,
            label: str | None = None) -> Installed:
    """Install a catalog as a version of its game's data, the default from now on, beside the
    earlier ones: replacing the version of its revision, or under its label, if any (D41). Written:
    the catalog, its summary, the same catalog by faction, which a check of one roster loads
    instead (`load_installed`), and the engine's data (`compile_folder`'s bundle) where given."""
    from ..rules import capacity

    imported = datetime.now(UTC).isoformat(timespec="seconds")
    label = label or default_label(catalog.data_revision, imported)
    earlier = versions(catalog.game)
    # Numbered in the order imported (a version replaced is removed once its successor is written)
    path = _catalogs() / catalog.game / f"{max((_number(v.path) for v in earlier), default=0) + 1}.json"
    _write_atomically(path, catalog.model_dump_json(exclude_defaults=True).encode())
    _write_parts(catalog, path)
    _write_engine(engine, path, catalog.data_revision)
    unread = sum(1 for unit in catalog.units.values() if unit.transport and (
        (room := capacity(unit)) is None or room.unread))
    left_out = {**left_out, TRANSPORTS_UNREAD: unread} if unread else dict(left_out)
    summary: dict[str, Any] = {"game": catalog.game, "data_revision": catalog.data_revision, "imported": imported,
                               "factions": len(catalog.factions), "units": len(catalog.units),
                               "left_out": dict(left_out), "label": label, "importer": catalog.importer}
    _write_atomically(_summary_path(path), json.dumps(summary, indent=2).encode())
    for version in earlier:
        if version.data_revision == catalog.data_revision or version.label == label:
            _remove(version.path)
    _write_atomically(_catalogs() / catalog.game / DEFAULT_MARK, catalog.data_revision.encode())
    for cached in (_load, _index, _faction_part, _engine_index, _engine_file, _engine_data):
        cached.cache_clear()
    return Installed(path=path, default=True, **summary)


def _remove_tree(folder: Path) -> None:
    """`folder` and all in it removed, if there (shutil imported here only: 6 M of a check's start-up)."""
    import shutil

    shutil.rmtree(folder, ignore_errors=True)


def _remove(path: Path) -> None:
    """A version's files: its catalog (and its backup, in the layout before versions), summary,
    parts and engine data."""
    for file in (path, path.with_name(path.name + ".bak"), _summary_path(path)):
        file.unlink(missing_ok=True)
    for folder in (_parts_path(path), _engine_path(path)):
        _remove_tree(folder)


def _write_parts(catalog: Wh40kCatalog, path: Path) -> None:
    """`<game>.by-faction/`: `index.json`, the catalog without its units and with only the names of
    its factions, and `<n>.json`, `[faction, units]`: the n-th faction whole (its detachments, the
    ids of its units...) and its units (its own, its libraries' and its allies'), with the size and
    time of the catalog they were cut from and the digest of each. Written aside and swapped in
    whole; a check that finds them missing or cut from another catalog loads the whole catalog, as
    before. Every field is written, defaults too: a part whose digest checks out is read back
    without validating it (`_trusted`)."""
    folder, written = _parts_path(path), path.stat()
    temporary = folder.with_name(folder.name + ".tmp")
    _remove_tree(temporary)
    temporary.mkdir()
    names_only: dict[str, Any] = {"units": [], "detachments": [], "supplied_faction_keywords": {}}
    index = catalog.model_copy(update={"units": {}, "factions": [
        faction.model_copy(update=names_only) for faction in catalog.factions]}).model_dump_json().encode()
    dumped = {unit_id: unit.model_dump_json() for unit_id, unit in catalog.units.items()}
    parts = {}
    for n, faction in enumerate(catalog.factions):
        units = ",".join(f"{json.dumps(unit_id)}:{dumped[unit_id]}" for unit_id in faction.units)
        parts[str(n)] = f"[{faction.model_dump_json()},{{{units}}}]".encode()
        (temporary / f"{n}.json").write_bytes(parts[str(n)])
    source = {"size": written.st_size, "mtime_ns": written.st_mtime_ns,
              "digests": {"index": _digest(index)} | {n: _digest(part) for n, part in parts.items()}}
    (temporary / "index.json").write_bytes(json.dumps(source).encode() + b"\n" + index)
    _remove_tree(folder)
    os.replace(temporary, folder)


def _digest(data: bytes) -> str:
    import hashlib

    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _write_engine(bundle: dict[str, Any] | None, path: Path, revision: str) -> None:
    """`<game>.engine/`: `index.json` (the size and time of the catalog it goes with, the data's
    revision, `sources`, and for each faction catalogue the files it reads, its own first) and
    `<file id>.json`, each game system or catalogue as compiled. Without a bundle, the folder is
    removed: a check then says the data's own rules went unchecked."""
    from ....battlescribe.importing import faction_catalogues

    folder = _engine_path(path)
    if bundle is None:
        _remove_tree(folder)
        return
    written = path.stat()
    temporary = folder.with_name(folder.name + ".tmp")
    _remove_tree(temporary)
    temporary.mkdir()
    armies = [c for c in bundle["catalogues"] if str(c.get("library")).lower() != "true"]
    index = {"source": {"size": written.st_size, "mtime_ns": written.st_mtime_ns}, "revision": revision,
             "system": bundle["gameSystem"]["id"], "sources": bundle["sources"],
             "factions": {c["id"]: [linked["id"] for linked in faction_catalogues(bundle, c["name"])] for c in armies}}
    (temporary / "index.json").write_text(json.dumps(index), encoding="utf-8")
    for root in [bundle["gameSystem"], *bundle["catalogues"]]:
        (temporary / f"{root['id']}.json").write_text(json.dumps(root, separators=(",", ":")), encoding="utf-8")
    _remove_tree(folder)
    os.replace(temporary, folder)


@lru_cache(maxsize=4)
def _engine_index(path: Path, size: int, modified_ns: int) -> dict[str, Any] | None:
    """The engine data's index, if it goes with the catalog installed at `path`."""
    try:
        index = json.loads((_engine_path(path) / "index.json").read_bytes())
        return index if index.get("source") == {"size": size, "mtime_ns": modified_ns} else None
    except (OSError, ValueError, AttributeError):
        return None


@lru_cache(maxsize=16)
def _engine_file(path: Path, size: int, modified_ns: int, file_id: str) -> dict[str, Any] | None:
    import orjson

    try:
        root = orjson.loads((_engine_path(path) / f"{file_id}.json").read_bytes())
        return root if isinstance(root, dict) else None
    except (OSError, ValueError):
        return None


@lru_cache(maxsize=8)
def _engine_data(path: Path, size: int, modified_ns: int, faction_id: str) -> EngineData | None:
    """A faction's engine data, kept while the catalog is unchanged (its indexes are built once,
    here, and all of it kept out of the garbage collector's sight: `long_lived`)."""
    from ..catalog import EngineData

    index = _engine_index(path, size, modified_ns)
    if index is None or faction_id not in index.get("factions", {}) or not isinstance(index.get("system"), str):
        return None
    with long_lived():
        files = [index["system"], *index["factions"][faction_id]]
        roots = [_engine_file(path, size, modified_ns, file_id) for file_id in files]
        if any(root is None for root in roots):
            return None
        system, *catalogues = roots
        assert system is not None
        engine = EngineData(system, catalogues, index["sources"], index["revision"])  # type: ignore[arg-type]
        assert engine.data is not None  # indexed now, while the collector is off
    return engine


def _with_engine(catalog: Wh40kCatalog, path: Path, size: int, modified_ns: int) -> Wh40kCatalog:
    return catalog.with_engine(lambda faction_id: _engine_data(path, size, modified_ns, faction_id))


@lru_cache(maxsize=4)
def _load(path: Path, modified: float) -> Wh40kCatalog:
    try:
        with long_lived():  # kept while the file is unchanged
            return _catalog_model().model_validate_json(path.read_bytes())
    except ValidationError as error:
        raise LoadFailure([Finding("installed-catalog-invalid", f"the installed catalog does not validate "
                                   f"({error.error_count()} problems, first: {error.errors()[0]['msg']})",
                                   location=Location(str(path)),
                                   suggestion="import the data again: listbuilder data import bsdata PATH")]) from error


def _load_faction(path: Path, size: int, modified_ns: int, faction: str) -> Wh40kCatalog | None:
    """The catalog with only what a roster of `faction` needs, from the parts `install` cut (a
    tenth of the time of the whole): every faction's names, but only this one whole (with its
    detachments) and the units it may field. None where the parts do not serve, and the whole is
    loaded. What is read is kept by faction, not by the name a roster gives it (untrusted and endless)."""
    from ..rules import find_faction

    parts = _index(path, size, modified_ns)
    found = find_faction(parts[0], faction) if parts is not None else []
    if parts is None or len(found) != 1:
        return None  # no parts, no such faction, or several: the whole catalog says so, as ever
    index, digests = parts
    n = index.factions.index(found[0])
    part = _faction_part(path, size, modified_ns, n, digests.get(str(n)))
    if part is None:
        return None
    factions = list(index.factions)
    factions[n], units = part
    return index.model_copy(update={"factions": factions, "units": units})


@lru_cache(maxsize=4)
def _index(path: Path, size: int, modified_ns: int) -> tuple[Wh40kCatalog, dict[str, str]] | None:
    """The catalog without its units and with its factions' names only, and the digest of each part
    (none where an earlier listbuilder cut them), if the parts beside `path` were cut from it."""
    from ..catalog import Wh40kCatalog

    try:
        source, _, index = (_parts_path(path) / "index.json").read_bytes().partition(b"\n")
        written = json.loads(source)
        if (written.get("size"), written.get("mtime_ns")) != (size, modified_ns):
            return None  # cut from another catalog: the one installed was replaced since
        digests = written.get("digests")
        digests = digests if isinstance(digests, dict) else {}
        with long_lived():
            return _read(Wh40kCatalog, index, digests.get("index"),
                         lambda data: _catalog_model().model_validate_json(data)), digests
    except (OSError, ValueError, AttributeError):  # ValueError: not JSON, or not what the models hold
        return None


@lru_cache(maxsize=16)
def _faction_part(path: Path, size: int, modified_ns: int, n: int,
                  digest: str | None) -> tuple[Faction, dict[str, Unit]] | None:
    from ..catalog import Faction, Unit

    try:
        with long_lived():
            return _read(tuple[Faction, dict[str, Unit]], (_parts_path(path) / f"{n}.json").read_bytes(), digest,
                         lambda data: _part_adapter().validate_json(data))
    except (OSError, ValueError):
        return None


def _read(kind: Any, data: bytes, digest: str | None, validate: Callable[[bytes], Any]) -> Any:
    """`data`, JSON of the parts, as `kind`: built without validating it where it is what `install`
    wrote, its digest as recorded (building the models' validators and validating a faction's part
    cost more than the rest of reading it: docs/speed.md); else `validate`d, which raises
    ValueError where it does not validate."""
    import orjson

    from ....core.trusted import trusted

    if digest is not None and _digest(data) == digest:
        with contextlib.suppress(ValueError, TypeError, KeyError, AttributeError):
            value = orjson.loads(data)
            if get_origin(kind) is not tuple:
                return trusted(kind, value)
            if isinstance(value, list) and len(value) == len(get_args(kind)):  # a part: [faction, units]
                return tuple(trusted(item, v) for item, v in zip(get_args(kind), value, strict=True))
    return validate(data)


@lru_cache(maxsize=1)
def _part_adapter() -> TypeAdapter[tuple[Faction, dict[str, Unit]]]:
    from ..catalog import Faction, Unit

    _catalog_model()  # the factions' and units' validators, reused
    return TypeAdapter(tuple[Faction, dict[str, Unit]])


@lru_cache(maxsize=1)
def _catalog_model() -> type[Wh40kCatalog]:
    """The catalog's model, its factions' and units' validators built first: the catalog's validator
    and the faction parts' (`_part_adapter`) then reuse theirs, where each would build its own
    (a check builds both: a fifth fewer instructions to build them, 20 M)."""
    from ..catalog import Faction, Unit, Wh40kCatalog

    Faction.model_rebuild()
    Unit.model_rebuild()
    return Wh40kCatalog


def load_installed(game: str = "wh40k-10e", faction: str | None = None, version: str | None = None) -> Wh40kCatalog:
    """A version of a game's data (by its label or revision; None: the default), validated; kept in
    memory while the file is unchanged. With `faction`, it may hold only the units a roster of that
    faction may field. Raises LoadFailure when there is none, no such version, or it is broken."""
    path = find_version(game, version).path if version is not None else catalog_path(game)
    try:
        written = path.stat()
    except OSError:
        raise LoadFailure([Finding("installed-catalog-missing", f"no {game} data is installed",
                                   location=Location(str(path)),
                                   suggestion="import your BSData copy: listbuilder data import bsdata PATH "
                                              f"(or, online: listbuilder data fetch {game})")]) from None
    part = _load_faction(path, written.st_size, written.st_mtime_ns, faction) if faction else None
    return _with_engine(part or _load(path, written.st_mtime), path, written.st_size, written.st_mtime_ns)

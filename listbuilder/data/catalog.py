"""Loading lists/ and datasheets/ into a Catalog, with located errors and a validated, content-keyed cache."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from pydantic import TypeAdapter

from .. import __version__
from ..core.findings import Finding, LoadFailure
from ..core.names import name_key
from ..core.trusted import trusted
from ..games import DATA_SOURCES, PACKS, system_for
from ..listengine.catalog import Catalog, ShippedPart
from .yamlfile import Document, read, validate

if TYPE_CHECKING:  # the list engine's models are imported only with its data (ShippedPart)
    from ..listengine.shipped import ShippedData

PACKAGE = Path(__file__).resolve().parent.parent


def data_root() -> Path:
    """Where lists/ and datasheets/ are: inside the installed wheel, or at the top of a checkout."""
    bundled = PACKAGE / "_data"
    return bundled if (bundled / "lists").is_dir() else PACKAGE.parent


def _files(root: Path) -> list[Path]:
    return sorted(p for folder in ("lists", "datasheets") for p in (root / folder).glob("*/*.yaml"))


def _data_hash(files: list[Path], root: Path) -> str:
    """The SHA-256 of the data files' names and content: what `data_version` shortens."""
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def data_version(root: Path | None = None) -> str:
    """A short hash of the game data's content, printed on rosters to say which data checked them
    (a loaded catalog holds its own: `Catalog.data_version`)."""
    root = root or data_root()
    return _data_hash(_files(root), root)[:10]


def _code_version() -> str:
    """The cache holds the models' data: it is stale when the version or the models change. Not the
    packs' code (two thirds of games/): their data is never cached, and hashing it cost each check."""
    packs = {PACKAGE / "games" / pack for pack in PACKS.values()}
    digest = hashlib.sha256(__version__.encode())
    for model in sorted([*(PACKAGE / "core").glob("*.py"), *(PACKAGE / "listengine").glob("*.py"),
                         *(path for path in (PACKAGE / "games").rglob("*.py") if packs.isdisjoint(path.parents))]):
        digest.update(model.read_bytes())
    return digest.hexdigest()


def cache_dir() -> Path:
    """XDG_CACHE_HOME's listbuilder folder, else ~/.cache's; a relative XDG_CACHE_HOME is ignored, as
    the XDG spec has it. Raises RuntimeError when there is no home folder to be found."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(base) if os.path.isabs(base) else Path.home() / ".cache") / "listbuilder"


def _cache_file(root: Path) -> Path | None:
    """Where the catalog of `root` is cached; None without a home folder (a service account): uncached."""
    try:
        return cache_dir() / f"catalog-{hashlib.sha256(str(root).encode()).hexdigest()[:16]}.json"
    except RuntimeError:
        return None


CACHE_SCHEMA = 4  # the layout of the cache file below; raised when it changes (4: the list engine's data alone)


def load_catalog(root: Path | None = None, use_cache: bool = True) -> Catalog:
    """All game data under `root`. Raises LoadFailure listing every problem found: at once without
    the cache; with it, when a game's data is first looked into.

    The list-engine games' data (settings, lists, datasheets, glossary) is loaded when a roster or
    command first looks into one of its games, so that a check of other games' rosters (40k) never
    reads it nor imports its models. It is cached as data, never as code: one header line of JSON
    (the cache's schema version, a hash of the data files and model code it was built from, and a
    SHA-256 of the rest), then the data as JSON. Whatever does not check out is rebuilt silently.
    Each data folder (a checkout, an installed wheel) has its cache file, so that several never
    evict each other's."""
    root = root or data_root()
    files = _files(root)
    data_hash = _data_hash(files, root)
    if use_cache:
        shipped = _Shipped(root, files, data_hash)
        games = frozenset(path.parent.name for path in _list_engine_files(files))
        catalog = Catalog(**{part: ShippedPart(games, functools.partial(_shipped_part, shipped, part))
                             for part in ("games", "lists", "datasheets", "abilities")})
    else:
        catalog = parse_catalog(root, files)  # every game's data parsed, and its problems found, now
    catalog.data_version = data_hash[:10]
    # The packs of games with their own models are not in the cache (their types are theirs): each
    # is parsed when a roster of its game first needs it.
    catalog.load_pack = functools.partial(_pack, root, files)
    catalog.load_installed = _installed  # the user's imported data (40k), read when a roster needs it
    return catalog


@dataclasses.dataclass
class _Shipped:
    """The list-engine games' data under `root`, loaded once on first use: from the cache, else parsed
    (importing no pack) and cached. An object, not a closure, so that a catalog can be pickled for a
    folder's workers where they are spawned."""

    root: Path
    files: list[Path]
    data_hash: str  # what the files held when the catalog was loaded
    loaded: ShippedData | None = None

    def data(self) -> ShippedData:
        if self.loaded is None:
            self.loaded = self._load()
        return self.loaded

    def _load(self) -> ShippedData:
        from ..core.longlived import long_lived
        from ..listengine.shipped import ShippedData

        with long_lived():  # it lives as long as the process, like the rest of the data (cli._catalog)
            cached = _cache_file(self.root)
            data = _load_cache(cached, _sources(self.data_hash)) if cached is not None else None
            if data is None:
                parsed = parse_catalog(self.root, _list_engine_files(self.files))
                data = ShippedData(dict(parsed.games), dict(parsed.lists), dict(parsed.datasheets),
                                   dict(parsed.abilities))
                if cached is not None:  # keyed by what the files hold now, perhaps edited since they were hashed
                    _store(cached, data, _sources(_data_hash(self.files, self.root)))
            return data


def _shipped_part(shipped: _Shipped, part: str) -> Any:
    """One field of the shipped data (a function, with `partial`, so that a catalog still pickles)."""
    return getattr(shipped.data(), part)


def _sources(data_hash: str) -> str:
    return hashlib.sha256((_code_version() + data_hash).encode()).hexdigest()


def _list_engine_files(files: list[Path]) -> list[Path]:
    return [path for path in files if path.parent.name not in PACKS]  # the registry's; importing no pack


def _installed(game: str, faction: str | None, version: str | None = None) -> object:
    from ..games.wh40k10.importing.installed import (
        load_installed,  # its module too loads only for a roster of such a game
    )

    return load_installed(game, faction, version)


def with_data(catalog: Catalog, version: str) -> Catalog:
    """The catalog with `version` of the user's imported data (a label or revision `data list`
    shows) in place of the default version. Raises LoadFailure naming the versions installed when
    none is called that."""
    data_label(version)
    return dataclasses.replace(catalog, installed={}, installed_parts={},
                               load_installed=functools.partial(_installed, version=version))


def data_label(version: str | None = None) -> str:
    """The label of a version of the user's imported data (None: the default's; '' where none is
    installed). Raises LoadFailure naming the versions installed when none is called `version`."""
    from ..games.wh40k10.importing.installed import find_version, versions

    (game,) = DATA_SOURCES  # the games whose data users bring: 40k alone, till importing is game-neutral
    found = find_version(game, version) if version is not None else next(
        (v for v in versions(game) if v.default), None)
    return found.label if found else ""


def data_versions() -> list[tuple[str, str]]:
    """The label and revision of each version of the user's imported data, where there is more than one."""
    from ..games.wh40k10.importing.installed import versions

    (game,) = DATA_SOURCES
    found = versions(game)
    return [(v.label, v.data_revision) for v in found] if len(found) > 1 else []


def _pack(root: Path, files: list[Path], game: str) -> object | None:
    return parse_catalog(root, [path for path in files if path.parent.name == game]).packs.get(game)


@functools.cache
def _adapter() -> TypeAdapter[ShippedData]:
    from ..listengine.shipped import ShippedData

    return TypeAdapter(ShippedData)


def _load_cache(path: Path, sources: str) -> ShippedData | None:
    from ..listengine.shipped import ShippedData

    try:
        header, _, payload = path.read_bytes().partition(b"\n")
        wanted = json.loads(header)
        if wanted != {"schema": CACHE_SCHEMA, "sources": sources, "sha256": hashlib.sha256(payload).hexdigest()}:
            return None
        return trusted(ShippedData, orjson.loads(payload))
    except (OSError, ValueError, TypeError, KeyError, AttributeError):  # not JSON, or not in the models' shape
        return None


def _store(path: Path, data: ShippedData, sources: str) -> None:
    payload = _adapter().dump_json(data)
    header = json.dumps({"schema": CACHE_SCHEMA, "sources": sources, "sha256": hashlib.sha256(payload).hexdigest()})
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(header.encode() + b"\n" + payload)
        os.replace(temporary, path)
    except OSError:  # a cache folder that cannot be written (read-only, a file, full): no cache is only slower
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        return
    for old in (*path.parent.glob("catalog-*.pickle"), path.parent / "catalog.json"):  # what earlier versions left
        with contextlib.suppress(OSError):
            old.unlink(missing_ok=True)


def parse_catalog(root: Path, files: list[Path]) -> Catalog:
    from ..listengine.armylist import ArmyList, GameSettings
    from ..listengine.datasheet import AbilityGlossary, DatasheetFile
    from ..listengine.shipped import ShippedData

    shipped, packs = ShippedData(), dict[str, object]()
    documents: dict[tuple[str, str, str], Document] = {}
    problems: list[Finding] = []
    own: dict[str, dict[str, dict[str, object]]] = {}  # game -> folder -> stem -> model, for GameData games
    for path in files:
        folder, game, stem = path.parent.parent.name, path.parent.name, path.stem
        try:
            document = read(path, str(path.relative_to(root)))
            documents[(folder, game, stem)] = document
            data = system_for(game).data if game in PACKS else None  # the list engine's games: its models, below
            if data is not None:
                model = data.list_model if folder == "lists" else data.datasheet_model
                own.setdefault(game, {"lists": {}, "datasheets": {}})[folder][stem] = validate(document, model)
            elif folder == "datasheets" and stem == "abilities":
                glossary = validate(document, AbilityGlossary)
                shipped.abilities[game] = {name_key(a.name): a for a in glossary.abilities}
            elif folder == "datasheets":
                shipped.datasheets.setdefault(game, {})[stem] = validate(document, DatasheetFile)
            elif stem == "game":
                settings = validate(document, GameSettings)
                shipped.games[game] = settings
            else:
                army = validate(document, ArmyList)
                if army.id != stem or army.game != game:
                    problems.append(Finding("misplaced-list", f"list '{army.id}' of game '{army.game}' must be in "
                                            f"lists/{army.game}/{army.id}.yaml", location=document.locate(("id",))))
                shipped.lists.setdefault(game, {})[stem] = army
        except LoadFailure as failure:
            problems += failure.findings
    catalog = Catalog(shipped.games, shipped.lists, shipped.datasheets, shipped.abilities, packs=packs)
    for game in shipped.lists:
        if game not in shipped.games:
            problems.append(Finding("missing-game", f"lists/{game}/ has no game.yaml"))
    references = list(catalog.check_references())
    for game, parsed in own.items():
        catalog.packs[game], found = system_for(game).data.assemble(parsed["lists"], parsed["datasheets"])
        references += found
    for source, finding in references:
        document = documents[source]
        problems.append(finding.located(document.locate(finding.path)))
    if problems:
        raise LoadFailure(problems)
    return catalog

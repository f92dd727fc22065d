"""Loading lists/ and datasheets/ into a Catalog, with located errors and a content-keyed cache."""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from .. import __version__
from ..core.armylist import ArmyList, GameSettings
from ..core.catalog import Catalog
from ..core.datasheet import AbilityGlossary, DatasheetFile
from ..core.names import name_key
from ..core.findings import Finding, LoadFailure
from ..systems import system_for
from .installed import load_installed
from .yamlfile import Document, read, validate

PACKAGE = Path(__file__).resolve().parent.parent


def data_root() -> Path:
    """Where lists/ and datasheets/ are: inside the installed wheel, or at the top of a checkout."""
    bundled = PACKAGE / "_data"
    return bundled if (bundled / "lists").is_dir() else PACKAGE.parent


def _files(root: Path) -> list[Path]:
    return sorted(p for folder in ("lists", "datasheets") for p in (root / folder).glob("*/*.yaml"))


def _fingerprint(files: list[Path], root: Path, salt: str = __version__) -> str:
    digest = hashlib.sha256(salt.encode())
    for path in files:
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def data_version(root: Path | None = None) -> str:
    """A short hash of the game data's content, printed on rosters to say which data checked them."""
    root = root or data_root()
    return _fingerprint(_files(root), root, salt="")[:10]


def _code_version() -> str:
    """The cache pickles model objects: it is stale when the version or the models change."""
    digest = hashlib.sha256(__version__.encode())
    for model in sorted([*(PACKAGE / "core").glob("*.py"), *(PACKAGE / "systems").rglob("*.py")]):
        digest.update(model.read_bytes())
    return digest.hexdigest()


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "listbuilder"


def load_catalog(root: Path | None = None, use_cache: bool = True) -> Catalog:
    """All game data under `root`. Raises LoadFailure listing every problem found."""
    root = root or data_root()
    files = _files(root)
    cached = cache_dir() / f"catalog-{_fingerprint(files, root, _code_version())}.pickle" if use_cache else None
    catalog = None
    if cached is not None and cached.exists():
        try:
            with cached.open("rb") as stream:
                catalog = pickle.load(stream)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
            pass  # a stale or damaged cache is rebuilt below
    if catalog is None:
        catalog = parse_catalog(root, files)
        if cached is not None:
            _store(cached, catalog)
    catalog.load_installed = load_installed  # the user's imported data (40k), read when a roster needs it
    return catalog


def _store(path: Path, catalog: Catalog) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for old in path.parent.glob("catalog-*.pickle"):
            old.unlink(missing_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_bytes(pickle.dumps(catalog, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(temporary, path)
    except OSError:
        pass  # no cache is only slower


def parse_catalog(root: Path, files: list[Path]) -> Catalog:
    catalog = Catalog()
    documents: dict[tuple[str, str, str], Document] = {}
    problems: list[Finding] = []
    own: dict[str, dict[str, dict[str, object]]] = {}  # game -> folder -> stem -> model, for GameData games
    for path in files:
        folder, game, stem = path.parent.parent.name, path.parent.name, path.stem
        try:
            document = read(path, str(path.relative_to(root)))
            documents[(folder, game, stem)] = document
            data = system_for(game).data
            if data is not None:
                model = data.list_model if folder == "lists" else data.datasheet_model
                own.setdefault(game, {"lists": {}, "datasheets": {}})[folder][stem] = validate(document, model)
            elif folder == "datasheets" and stem == "abilities":
                glossary = validate(document, AbilityGlossary)
                catalog.abilities[game] = {name_key(a.name): a for a in glossary.abilities}
            elif folder == "datasheets":
                catalog.datasheets.setdefault(game, {})[stem] = validate(document, DatasheetFile)
            elif stem == "game":
                settings = validate(document, GameSettings)
                catalog.games[game] = settings
            else:
                army = validate(document, ArmyList)
                if army.id != stem or army.game != game:
                    problems.append(Finding("misplaced-list", f"list '{army.id}' of game '{army.game}' must be in "
                                            f"lists/{army.game}/{army.id}.yaml", location=document.locate(("id",))))
                catalog.lists.setdefault(game, {})[stem] = army
        except LoadFailure as failure:
            problems += failure.findings
    for game in catalog.lists:
        if game not in catalog.games:
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

"""Catalogs the user installed (imported BSData): where they live, writing and loading them.

They live in the user data folder (platformdirs; `LISTBUILDER_DATA_DIR` overrides it, as tests
do), one JSON file per game, written atomically (the one it replaces kept as `.bak`) beside a small summary that `data list` reads
without loading the catalog. JSON, not YAML: the catalog is machine-written and loading it must
stay well under a second; it is validated on every load (no pickle), and kept in memory for the
rest of the run.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from ..core.findings import Finding, LoadFailure, Location

if TYPE_CHECKING:  # the 40k models are loaded with a catalog, not by every command that might need one
    from ..systems.wh40k10.catalog import Wh40kCatalog

DATA_DIR_VARIABLE = "LISTBUILDER_DATA_DIR"


def data_dir() -> Path:
    import platformdirs  # only where the folder is wanted: most commands never read it

    override = os.environ.get(DATA_DIR_VARIABLE)
    return Path(override) if override else Path(platformdirs.user_data_dir("listbuilder", appauthor=False))


def catalog_path(game: str) -> Path:
    return data_dir() / "catalogs" / f"{game}.json"


def _summary_path(game: str) -> Path:
    return catalog_path(game).with_suffix(".summary.json")


@dataclass(frozen=True)
class Installed:
    game: str
    data_revision: str
    imported: str  # when, ISO 8601 UTC
    factions: int
    units: int
    left_out: dict[str, int]
    path: Path


def _write_atomically(path: Path, data: bytes) -> None:
    """Write through a temporary file renamed over the old one, which is kept as `<name>.bak`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    if path.exists():
        shutil.copy2(path, path.with_name(path.name + ".bak"))
    os.replace(temporary, path)


def install(catalog: Wh40kCatalog, left_out: dict[str, int]) -> Installed:
    """Write a catalog (replacing the one installed for its game) and its summary."""
    path = catalog_path(catalog.game)
    _write_atomically(path, catalog.model_dump_json(exclude_defaults=True).encode())
    summary = {"game": catalog.game, "data_revision": catalog.data_revision,
               "imported": datetime.now(timezone.utc).isoformat(timespec="seconds"),
               "factions": len(catalog.factions), "units": len(catalog.units), "left_out": dict(left_out)}
    _write_atomically(_summary_path(catalog.game), json.dumps(summary, indent=2).encode())
    _load.cache_clear()
    return Installed(path=path, **summary)


def installed() -> list[Installed]:
    """What is installed, from the summaries (a summary that cannot be read is skipped)."""
    found = []
    for summary in sorted((data_dir() / "catalogs").glob("*.summary.json")):
        try:
            fields = json.loads(summary.read_text(encoding="utf-8"))
            found.append(Installed(path=summary.with_name(summary.name.replace(".summary.json", ".json")), **fields))
        except (OSError, ValueError, TypeError):
            continue
    return found


@lru_cache(maxsize=4)
def _load(path: Path, modified: float) -> Wh40kCatalog:
    from ..systems.wh40k10.catalog import Wh40kCatalog

    try:
        return Wh40kCatalog.model_validate_json(path.read_bytes())
    except ValidationError as error:
        raise LoadFailure([Finding("installed-catalog-invalid", f"the installed catalog does not validate "
                                   f"({error.error_count()} problems, first: {error.errors()[0]['msg']})",
                                   location=Location(str(path)),
                                   suggestion="import the data again: listbuilder data import bsdata PATH")])


def load_installed(game: str = "wh40k-10e") -> Wh40kCatalog:
    """The installed catalog of a game, validated; kept in memory while the file is unchanged.
    Raises LoadFailure when there is none or it is broken."""
    path = catalog_path(game)
    try:
        modified = path.stat().st_mtime
    except OSError:
        raise LoadFailure([Finding("installed-catalog-missing", f"no {game} data is installed",
                                   location=Location(str(path)),
                                   suggestion="import your BSData copy: listbuilder data import bsdata PATH "
                                              f"(or, online: listbuilder data fetch {game})")]) from None
    return _load(path, modified)

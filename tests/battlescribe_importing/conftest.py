"""The BSData snapshot of ../shared, unpacked into a temporary folder (never the project tree)."""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[3] / "shared" / "fixtures"
BSDATA_SNAPSHOT = SHARED / "bsdata" / "wh40k-10e-801555b.tar.xz"


@pytest.fixture(scope="session")
def bsdata_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The snapshot's game system and 46 catalogues, file name -> bytes (skipped without ../shared)."""
    if not BSDATA_SNAPSHOT.is_file():
        pytest.skip(f"{BSDATA_SNAPSHOT} is absent")
    folder = tmp_path_factory.mktemp("bsdata")
    with tarfile.open(BSDATA_SNAPSHOT) as archive:
        archive.extractall(folder, filter="data")
    return {path.name: path.read_bytes() for path in sorted((folder / "wh40k-10e").iterdir())
            if path.suffix in (".gst", ".cat")}

import tarfile
from pathlib import Path

import pytest

from listbuilder.data.importers.bsdata import import_folder

from listbuilder.data.catalog import load_catalog
from listbuilder.rosters.batch import check_file

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = Path(__file__).resolve().parent / "rosters"
SEEDS = ROOT.parent / "shared" / "seeds"
BSDATA_SNAPSHOT = ROOT.parent / "shared" / "fixtures" / "bsdata" / "wh40k-10e-801555b.tar.xz"


@pytest.fixture(scope="session")
def catalog():
    return load_catalog(use_cache=False)


@pytest.fixture(scope="session")
def check(catalog):
    """Read a roster file under tests/rosters and validate it, findings located."""

    return lambda relative: check_file(ROSTERS / relative, catalog, relative)


@pytest.fixture(scope="session")
def bsdata_folder(tmp_path_factory):
    """The BSData snapshot of ../shared, unpacked once per run (skipped where ../shared is absent)."""
    if not BSDATA_SNAPSHOT.is_file():
        pytest.skip(f"{BSDATA_SNAPSHOT} is missing")
    target = tmp_path_factory.mktemp("bsdata")
    with tarfile.open(BSDATA_SNAPSHOT) as archive:
        archive.extractall(target, filter="data")
    return target / "wh40k-10e"


@pytest.fixture(scope="session")
def bsdata(bsdata_folder):
    """The whole snapshot imported once per run: an ImportResult."""
    return import_folder(bsdata_folder, revision="801555b")

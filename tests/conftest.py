from pathlib import Path

import pytest

from listbuilder.data.catalog import load_catalog
from listbuilder.rosters.files import read_roster
from listbuilder.systems import validate

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = Path(__file__).resolve().parent / "rosters"
SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.fixture(scope="session")
def catalog():
    return load_catalog(use_cache=False)


@pytest.fixture(scope="session")
def check(catalog):
    """Read a roster file under tests/rosters and validate it, findings located."""

    def run(relative: str):
        roster_file = read_roster(ROSTERS / relative, catalog, relative)
        result = validate(roster_file.roster, catalog)
        result.findings = [roster_file.locate(f) for f in result.findings]
        return result

    return run

"""How many of the real app exports in tests/wh40k-lists/real/app/ `import` takes whole, partly
(some of a list's lines kept aside with a finding, e.g. wargear no datasheet has) or refuses (it
would write nothing: a line it cannot place, a datasheet the data lacks, a form it does not know).

Run: python benchmarks/app_text_figures.py [FOLDER]. FOLDER is a copy of BSData/wh40k-10e; by
default the snapshot ../shared/fixtures/bsdata is unpacked into a temporary folder and imported.
Run it on an older checkout (PYTHONPATH=that checkout) for the figures before a change.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

from bsdata_import import installed_catalog

from listbuilder.core.findings import LoadFailure
from listbuilder.games import validate
from listbuilder.listengine.catalog import Catalog
from listbuilder.rosters.lists import read_list_data

SAMPLES = Path(__file__).resolve().parent.parent / "tests" / "wh40k-lists" / "real" / "app"
KEPT_ASIDE = {"list-wargear-unplaced"}  # what was read but not carried into the roster, with a finding


def outcome(path: Path, catalog: Catalog) -> str:
    """'whole', 'partly' or 'refused', as `listbuilder import` would take the file."""
    try:
        imported = read_list_data(path.read_bytes(), path.name, catalog)
    except LoadFailure:
        return "refused"
    if imported.roster is None or any(f.severity == "error" for f in imported.findings):
        return "refused"
    if any(f.code == "unknown-unit" for f in validate(imported.roster, catalog).findings):
        return "refused"
    return "partly" if any(f.code in KEPT_ASIDE for f in imported.findings) else "whole"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", nargs="?", help="a BSData/wh40k-10e copy (default: the snapshot)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        catalog = installed_catalog(options.folder, scratch)
        outcomes = {path.name: outcome(path, catalog) for path in sorted(SAMPLES.glob("*.txt"))}
    for name, taken in outcomes.items():
        print(f"{taken:8} {name}")
    counts = Counter(outcomes.values())
    print(f"{len(outcomes)} lists: {counts['whole']} whole, {counts['partly']} partly, {counts['refused']} refused")


if __name__ == "__main__":
    main()

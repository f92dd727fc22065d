"""Timing of `check` on a 2,000-point Warhammer 40,000 roster (benchmarks/strike-force-2000.yaml):
reading the file and validating it against the imported catalog, and validating alone, as the
editor does on every key press.

Run: python benchmarks/wh40k_check.py [FOLDER] [--runs N]. FOLDER is a copy of BSData/wh40k-10e;
by default the snapshot ../shared/fixtures/bsdata is unpacked into a temporary folder and imported
(not timed here: see bsdata_import.py).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bsdata_import import bsdata_folder, medians, timed

from listbuilder.games import summarise, validate
from listbuilder.games.wh40k10.importing.bsdata import import_folder
from listbuilder.listengine.catalog import Catalog
from listbuilder.rosters.files import read_roster

ROSTER = Path(__file__).resolve().parent / "strike-force-2000.yaml"
FRAME_MS = 1000 / 60  # revalidating on every key press must cost well under a frame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", nargs="?", help="a BSData/wh40k-10e copy (default: the snapshot)")
    parser.add_argument("--runs", type=int, default=50)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        catalog = Catalog(installed={"wh40k-10e": import_folder(bsdata_folder(options.folder, scratch)).catalog})
    roster = read_roster(ROSTER, catalog).roster
    result = validate(roster, catalog)
    whole = [timed(lambda: summarise(validate(read_roster(ROSTER, catalog).roster, catalog)))
             for _ in range(options.runs)]
    alone = [timed(lambda: validate(roster, catalog)) for _ in range(options.runs)]
    print(f"{ROSTER.name}: {len(roster.units)} units, {result.total:,} / {result.limit:,} points, "
          f"{'legal' if result.valid else 'ILLEGAL'}")
    wall, cpu = medians(whole, 1000)
    print(f"check (read, validate, summarise): {wall:.2f} ms wall, {cpu:.2f} ms CPU, median of {options.runs}")
    wall, cpu = medians(alone, 1000)
    print(f"validate alone (each edit in the editor): {wall:.2f} ms wall, {cpu:.2f} ms CPU "
          f"(goal: well under a frame, {FRAME_MS:.1f} ms)")


if __name__ == "__main__":
    main()

"""Timing of `check` on a 2,000-point Warhammer 40,000 roster (benchmarks/strike-force-2000.yaml):
`listbuilder check` as the process a user starts, on the data `data import bsdata` installed (the
catalog and the BattleScribe engine's data of the roster's faction); in one process, reading the
file and validating it, and validating alone, as the editor does on every key press.

Run: python benchmarks/wh40k_check.py [FOLDER] [--runs N] [--processes N]. FOLDER is a copy of
BSData/wh40k-10e; by default the snapshot ../shared/fixtures/bsdata is unpacked into a temporary
folder and imported (not timed here: see bsdata_import.py).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bsdata_import import bsdata_folder, medians, timed

from listbuilder.games import summarise, validate
from listbuilder.games.wh40k10.importing.installed import load_installed
from listbuilder.listengine.catalog import Catalog
from listbuilder.rosters.files import read_roster

ROSTER = Path(__file__).resolve().parent / "strike-force-2000.yaml"
FRAME_MS = 1000 / 60  # revalidating on every key press must cost well under a frame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", nargs="?", help="a BSData/wh40k-10e copy (default: the snapshot)")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--processes", type=int, default=11, help="how many `listbuilder check` processes to time")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = bsdata_folder(options.folder, scratch)
        environment = {**os.environ, "LISTBUILDER_DATA_DIR": str(Path(scratch) / "data"),
                       "XDG_CACHE_HOME": str(Path(scratch) / "cache")}
        subprocess.run([sys.executable, "-m", "listbuilder", "data", "import", "bsdata", str(folder)],
                       env=environment, check=True, capture_output=True)
        wall, cpu = process_times(environment, options.processes)
        print(f"listbuilder check {ROSTER.name} as a process: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU, "
              f"median of {options.processes} (the catalog and the engine's data of its faction loaded)")
        os.environ.update(environment)  # this process too reads what was installed, as the processes did
        catalog = Catalog(load_installed=load_installed)
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


def process_times(environment: dict[str, str], runs: int) -> tuple[float, float]:
    """Median wall-clock and processor seconds of `listbuilder check` on the roster, after one
    run that warms the caches (the shipped data's)."""
    walls, cpus = [], []
    for _ in range(runs + 1):
        wall, before = time.perf_counter(), os.times()
        subprocess.run([sys.executable, "-m", "listbuilder", "check", str(ROSTER)], env=environment,
                       capture_output=True, check=False)
        after = os.times()
        walls.append(time.perf_counter() - wall)
        cpus.append(after.children_user + after.children_system - before.children_user - before.children_system)
    return statistics.median(walls[1:]), statistics.median(cpus[1:])


if __name__ == "__main__":
    main()

"""Timings of the user's 40k data: importing every BSData catalogue (and its peak memory), and
loading the installed catalog.

Run: python benchmarks/bsdata_import.py [FOLDER] [--runs N]. FOLDER is a copy of BSData/wh40k-10e;
by default the snapshot ../shared/fixtures/bsdata is unpacked into a temporary folder. The
catalog is installed into a temporary data folder, never the user's.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from listbuilder.games.wh40k10.importing.bsdata import import_folder
from listbuilder.games.wh40k10.importing.installed import (
    DATA_DIR_VARIABLE,
    _load,
    catalog_path,
    install,
    load_installed,
)
from listbuilder.listengine.catalog import Catalog

SNAPSHOT = Path(__file__).resolve().parent.parent.parent / "shared" / "fixtures" / "bsdata" / "wh40k-10e-801555b.tar.xz"
IMPORT_GOAL_S = 5.0  # New Recruit loads the same data in about 5 s
LOAD_GOAL_MS = 1000.0  # "well under a second" for `check`


def timed(action) -> tuple[float, float]:
    """Wall-clock and CPU seconds (the machine may be shared: CPU time is the steadier figure)."""
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    return time.perf_counter() - wall, time.process_time() - cpu


def medians(samples: list[tuple[float, float]], scale: float = 1.0) -> tuple[float, float]:
    return statistics.median(s[0] for s in samples) * scale, statistics.median(s[1] for s in samples) * scale


def installed_catalog(given: str | None, scratch: str) -> Catalog:
    """The data as `data import bsdata` installs it (the catalog and the engine's data of each
    faction), into a data folder in `scratch` that this process then reads."""
    os.environ[DATA_DIR_VARIABLE] = str(Path(scratch) / "data")
    folder = bsdata_folder(given, scratch)
    subprocess.run([sys.executable, "-m", "listbuilder", "data", "import", "bsdata", str(folder)],
                   check=True, capture_output=True)
    return Catalog(load_installed=load_installed)


def bsdata_folder(given: str | None, scratch: str) -> Path:
    """The BSData folder named on the command line, else the snapshot unpacked into `scratch`."""
    if given:
        return Path(given)
    with tarfile.open(SNAPSHOT) as archive:
        archive.extractall(scratch, filter="data")
    return Path(scratch) / "wh40k-10e"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", nargs="?", help="a BSData/wh40k-10e copy (default: the snapshot)")
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = bsdata_folder(options.folder, scratch)
        os.environ[DATA_DIR_VARIABLE] = str(Path(scratch) / "data")
        results = []
        imports = [timed(lambda: results.append(import_folder(folder)))]
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # the first import's (it comes first)
        imports += [timed(lambda: results.append(import_folder(folder))) for _ in range(options.runs - 1)]
        result = results[-1]
        install(result.catalog, result.left_out)
        size = catalog_path("wh40k-10e").stat().st_size
        cold = []
        for _ in range(options.runs):
            _load.cache_clear()
            cold.append(timed(load_installed))
        warm = timed(load_installed)[0] * 1000
    wall, cpu = medians(imports)
    print(f"import {result.catalog.summary.catalogues} catalogues ({len(result.catalog.units)} units): "
          f"{wall:.1f} s wall, {cpu:.1f} s CPU, median of {options.runs}  (goal: about {IMPORT_GOAL_S:.0f} s, "
          "as New Recruit)")
    print(f"import's peak memory: {peak:.0f} MB, the process's after one import (goal: bounded by the files a "
          "faction reads, not the folder's)")
    wall, cpu = medians(cold, 1000)
    print(f"load the installed catalog ({size / 1e6:.1f} MB JSON, validated): {wall:.0f} ms wall, {cpu:.0f} ms CPU "
          f"(goal: well under {LOAD_GOAL_MS:.0f} ms); again in the same run: {warm:.2f} ms")


if __name__ == "__main__":
    main()

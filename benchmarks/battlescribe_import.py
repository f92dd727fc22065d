"""Compiling the BSData 40k data (a game system and 46 catalogues, 37 MB of XML) into the
BattleScribe engine's bundle: listbuilder.battlescribe.importing.compile_data, bytes in.

Run: python benchmarks/battlescribe_import.py [FOLDER] [--runs N]. FOLDER is a copy of
BSData/wh40k-10e; by default the snapshot ../shared/fixtures/bsdata is unpacked into a temporary
folder. The files are read before the clock starts: the figure is the parsing and conversion.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time
from typing import Any

from bsdata_import import bsdata_folder  # the snapshot unpacked, as the 40k import benchmark does

from listbuilder.battlescribe.importing import compile_data

GOAL_S = 10.0  # on the 2-core machine the tests run on
SUFFIXES = (".gst", ".gstz", ".cat", ".catz", ".json")


def data_files(given: str | None) -> dict[str, bytes]:
    """The game system and catalogue files of FOLDER (default: the snapshot), by name, read whole."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = bsdata_folder(given, scratch)
        return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.suffix in SUFFIXES}


def timed_compile(files: dict[str, bytes]) -> tuple[float, float, dict[str, Any]]:
    """Wall-clock and CPU seconds of one compile, and its bundle."""
    wall, cpu = time.perf_counter(), time.process_time()
    bundle = compile_data(files)
    return time.perf_counter() - wall, time.process_time() - cpu, bundle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", nargs="?", help="a BSData/wh40k-10e copy (default: the snapshot)")
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    files = data_files(options.folder)
    runs = [timed_compile(files) for _ in range(max(1, options.runs))]
    wall = statistics.median(run[0] for run in runs)
    cpu = statistics.median(run[1] for run in runs)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    bundle = runs[-1][2]
    megabytes = sum(len(data) for data in files.values()) / 1e6
    print(f"compile_data: {len(bundle['catalogues'])} catalogues + 1 game system, {megabytes:.1f} MB of XML")
    print(f"  {wall:.2f} s wall, {cpu:.2f} s CPU (median of {len(runs)}); goal < {GOAL_S:.0f} s: "
          f"{'met' if wall < GOAL_S else 'NOT met'}; peak memory {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()

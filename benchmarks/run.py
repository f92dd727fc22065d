"""Timings of the engine: loading all data (cold and warm), validating a 20-formation roster, and
checking every example roster of tests/rosters as an organiser's folder (read + validate).

Run: python benchmarks/run.py [--runs N]. Prints medians in milliseconds and as ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from listbuilder.core.findings import LoadFailure
from listbuilder.data.catalog import load_catalog
from listbuilder.games import validate
from listbuilder.listengine.roster import Roster
from listbuilder.rosters.files import read_roster

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "tests" / "rosters").rglob("*.yaml"))

FRAME_MS = 1000 / 60

TWENTY_FORMATIONS = Roster.model_validate({
    "game": "epic-armageddon", "army": "codex-astartes", "points": 5000, "name": "Benchmark",
    "formations": [
        *[{"type": "Tactical", "upgrades": {"Razorbacks": 2, "Dreadnought": 2, "Hunter": 1}}] * 5,
        *[{"type": "Devastator", "upgrades": {"Land Raiders": 1, "Razorbacks": 1}}] * 3,
        *[{"type": "Scout", "upgrades": {"Sniper": True}}] * 2,
        *[{"type": "Land Speeder", "upgrades": {"Tornado/Typhoon": {"Typhoon": 3, "Tornado": 2}}}] * 2,
        {"type": "Predators", "composition": {"Annihilator": 2, "Destructor": 2}},
        {"type": "Terminator", "upgrades": {"Land Raiders": 2, "Commander": {"character": "Supreme Commander",
                                                                          "joins": "Terminator"}}},
        {"type": "Strike Cruiser"}, {"type": "Thunderhawk"}, {"type": "Bike", "upgrades": {"Attack Bike": 2}},
        {"type": "Warhound Titans", "count": 2}, {"type": "Thunderbolt Fighters"}, {"type": "Whirlwind"},
    ]})


def median_ms(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def check_folder(catalog) -> int:
    """Read and validate every example roster, as `listbuilder check tests/rosters/*` does."""
    checked = 0
    for path in EXAMPLES:
        try:
            validate(read_roster(path, catalog).roster, catalog)
            checked += 1
        except LoadFailure:
            pass  # the unreadable ones are refused while reading, as the CLI does
    return checked


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=50)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as cache:
        os.environ["XDG_CACHE_HOME"] = cache
        cold = median_ms(lambda: load_catalog(use_cache=False), max(5, runs // 10))
        load_catalog()  # fill the cache
        warm = median_ms(load_catalog, runs)
    catalog = load_catalog()
    assert len(TWENTY_FORMATIONS.formations) == 20
    check = median_ms(lambda: validate(TWENTY_FORMATIONS, catalog), runs * 4)
    folder = median_ms(lambda: check_folder(catalog), max(5, runs // 5))
    units = sum(len(f.units) for files in catalog.datasheets.values() for f in files.values())
    lists = sum(len(lists) for lists in catalog.lists.values())
    print(f"data: {units} datasheets, {lists} army lists")
    print(f"load all data, cold (parse + validate + cross-check): {cold:8.2f} ms")
    print(f"load all data, warm (content-keyed cache):            {warm:8.2f} ms  ({cold / warm:5.1f}x faster)")
    print(f"validate a 20-formation roster:                       {check:8.3f} ms  "
          f"({check / FRAME_MS:.3f} of a 60 Hz frame, {1000 / check:,.0f} per second)")
    print(f"check {len(EXAMPLES)} example rosters (read + validate):    {folder:8.2f} ms  "
          f"({folder / len(EXAMPLES):.2f} ms a file)")


if __name__ == "__main__":
    main()

"""Time to print a 3,000-point roster as a PDF (roster, findings, datasheets and glossary).

Run: python benchmarks/print_pdf.py [--runs N] [--paper a4|letter]. Prints the median in
milliseconds and as runs per second; validation is done once, outside the timing. Then what
`listbuilder print` pays on top of `listbuilder check` before any layout: importing reportlab
(with the PDF module), median over fresh processes that have imported what checking needs.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from listbuilder.data.catalog import load_catalog
from listbuilder.games import validate
from listbuilder.listengine.roster import Roster
from listbuilder.report.pdf import roster_pdf

# 2,970 points: ten Codex Astartes formations with characters, transports, wargear, spacecraft,
# aircraft and a Titan, so every part of the document is exercised.
THREE_THOUSAND = Roster.model_validate({
    "game": "epic-armageddon", "army": "codex-astartes", "points": 3000, "name": "Benchmark, 3,000 points",
    "formations": [
        {"type": "Tactical", "transport": "Rhino", "wargear": {"Razorback": "Twin Lascannon"},
         "upgrades": {"Commander": {"character": "Supreme Commander", "joins": "Tactical"}, "Razorbacks": 2,
                      "Dreadnought": 1}},
        {"type": "Tactical", "transport": "Drop Pod", "upgrades": {"Dreadnought": 2},
         "wargear": {"Dreadnought": {"Missile Launcher and Twin Lascannon": 1, "Power Fist and Assault Cannon": 1}}},
        {"type": "Devastator", "upgrades": {"Land Raiders": 2}},
        {"type": "Scout", "transport": "on foot", "upgrades": {"Sniper": True}},
        {"type": "Land Speeder", "upgrades": {"Tornado/Typhoon": {"Typhoon": 2, "Tornado": 1}}},
        {"type": "Predators", "composition": {"Annihilator": 2, "Destructor": 2}},
        {"type": "Whirlwind"},
        {"type": "Strike Cruiser"},
        {"type": "Thunderbolt Fighters"},
        {"type": "Warhound Titans", "count": 1},
    ]})


# In a fresh process: what `listbuilder check` imports, then the PDF module (reportlab), timed.
IMPORT_PDF = """
import time
import listbuilder.cli, listbuilder.data.catalog, listbuilder.rosters.batch, listbuilder.games
wall, cpu = time.perf_counter(), time.process_time()
import listbuilder.report.pdf
print(time.perf_counter() - wall, time.process_time() - cpu)
"""


def import_seconds(runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of importing the PDF module, over `runs` fresh processes."""
    timings = [subprocess.run([sys.executable, "-c", IMPORT_PDF], capture_output=True, text=True, check=True).stdout
               for _ in range(runs)]
    walls, cpus = zip(*(map(float, timing.split()) for timing in timings))
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--paper", choices=["a4", "letter"], default="a4")
    options = parser.parse_args()
    catalog = load_catalog()
    result = validate(THREE_THOUSAND, catalog)
    pdf = roster_pdf(result, catalog, options.paper)  # warm-up: imports, font metrics
    times = []
    for _ in range(options.runs):
        start = time.perf_counter()
        roster_pdf(result, catalog, options.paper)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    print(f"roster: {result.total:,} points, {len(result.formations)} formations, "
          f"{'legal' if result.valid else 'ILLEGAL'}; PDF {len(pdf):,} bytes")
    print(f"print_pdf ({options.paper}): median {median * 1000:.1f} ms over {options.runs} runs "
          f"({1 / median:.1f} runs/s; fastest {min(times) * 1000:.1f} ms, slowest {max(times) * 1000:.1f} ms)")
    imports = max(5, options.runs // 3)
    wall, cpu = import_seconds(imports)
    print(f"importing reportlab and the PDF module: median {wall * 1000:.1f} ms (cpu {cpu * 1000:.1f} ms) "
          f"over {imports} fresh processes")


if __name__ == "__main__":
    main()

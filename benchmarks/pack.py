"""`listbuilder pack` of 1,000 submitted rosters (the Epic Armageddon and Epic Remastered example
rosters over and over, in nested folders, as benchmarks/stats.py lays them out), timed as the
process a user starts, as a PDF and as an HTML page, in file order and anonymised in faction order.
Goal (issue 31): under 30 s.

    python benchmarks/pack.py [--runs N] [--rosters N]

Prints medians in seconds with the goal and the ratio (at most 1.00 meets it), and the PDF's pages.
40k rosters need the user's imported data, which a benchmark run has not: they are left out.
"""

from __future__ import annotations

import argparse
import re
import tempfile
from pathlib import Path

from check_folder import seconds
from stats import inbox

GOAL_SECONDS = 30.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rosters", type=int, default=1000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = str(inbox(Path(temporary) / "inbox", options.rosters))
        pack = str(Path(temporary) / "pack")
        seconds(["check", folder, "--format", "json"], 1)  # warm the catalog cache
        for label, extra in (("pdf", ["-o", pack + ".pdf"]), ("html", ["-o", pack + ".html"]),
                             ("pdf, by faction, anonymised", ["-o", pack + ".pdf", "--order", "faction",
                                                               "--anonymise"])):
            wall, cpu = seconds(["pack", folder, *extra], options.runs)
            print(f"pack {options.rosters:,} rosters ({label + '):':<29} {wall:6.2f} s   goal < {GOAL_SECONDS:.0f} s"
                  f"   ratio {wall / GOAL_SECONDS:5.2f}   (processor {cpu:.2f} s)")
        pdf = Path(pack + ".pdf").read_bytes()
        pages = max(map(int, re.findall(rb"/Count (\d+)", pdf)), default=0)  # the page tree's root counts them all
        print(f"the PDF: {pages:,} pages, {len(pdf) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()

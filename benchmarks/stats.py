"""`listbuilder stats` of 1,000 submitted rosters (the Epic Armageddon and Epic Remastered example
rosters over and over, in nested folders, as benchmarks/check_folder.py lays them out), timed as the
process a user starts, in each report format. Goal (issue 31): under 5 s.

    python benchmarks/stats.py [--runs N] [--rosters N]

Prints medians in seconds with the goal and the ratio (at most 1.00 meets it). 40k rosters need the
user's imported data, which a benchmark run has not: they are left out.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from check_folder import ROOT, seconds

EXAMPLES = sorted([*(ROOT / "tests" / "rosters").rglob("*.yaml"),
                   *(ROOT / "tests" / "epic-remastered-rosters").glob("*.yaml")])
GOAL_SECONDS = 5.0


def inbox(folder: Path, count: int) -> Path:
    for i in range(count):
        example = EXAMPLES[i % len(EXAMPLES)]
        target = folder / f"batch-{i // 100:02d}" / f"{i:04d}-{example.name}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(example, target)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rosters", type=int, default=1000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = str(inbox(Path(temporary), options.rosters))
        seconds(["stats", folder, "--format", "json"], 1)  # warm the catalog cache
        for form in ("text", "json", "csv", "html"):
            wall, cpu = seconds(["stats", folder, "--format", form], options.runs)
            print(f"stats {options.rosters:,} rosters ({form + '):':<6} {wall:6.2f} s   goal < {GOAL_SECONDS:.1f} s"
                  f"   ratio {wall / GOAL_SECONDS:5.2f}   (processor {cpu:.2f} s)")


if __name__ == "__main__":
    main()

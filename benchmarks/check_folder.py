"""An organiser's folder: `listbuilder check` of 1,000 submitted rosters (the example rosters over
and over, in nested folders), timed as the process a user starts, in each report format, on every
core and on one. Goal (issue 18): under 2 s.

    python benchmarks/check_folder.py [--runs N] [--rosters N]

Prints medians in seconds with the goal and the ratio (at most 1.00 meets it). The machine is
shared and noisy: compare ratios across runs, not single digits.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "tests" / "rosters").rglob("*.yaml"))
GOAL_SECONDS = 2.0


def inbox(folder: Path, count: int) -> Path:
    """`count` roster files, a hundred to a subfolder, as an organiser's mail might leave them."""
    for i in range(count):
        target = folder / f"batch-{i // 100:02d}" / f"{i:04d}-{EXAMPLES[i % len(EXAMPLES)].name}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(EXAMPLES[i % len(EXAMPLES)], target)
    return folder


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def seconds(arguments: list[str], runs: int) -> tuple[float, float]:
    """Median wall-clock and processor seconds (all processes: the pool's workers too) of a run.
    Processor time is steadier than wall-clock time on a busy machine."""
    walls, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), _cpu()
        done = subprocess.run([sys.executable, "-m", "listbuilder", *arguments], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, check=False)
        walls.append(time.perf_counter() - start)
        cpus.append(_cpu() - cpu)
        if done.returncode not in (0, 1):  # some examples are illegal; unreadable or worse measured nothing
            raise SystemExit(f"check exited {done.returncode}: {done.stderr.decode()[-500:]}")
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rosters", type=int, default=1000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = str(inbox(Path(temporary), options.rosters))
        seconds(["check", folder, "--format", "json"], 1)  # warm the catalog cache
        for label, extra in (("json, every core", ["--format", "json"]), ("csv, every core", ["--format", "csv"]),
                             ("html, every core", ["--format", "html"]), ("text, every core", []),
                             ("json, one process", ["--format", "json", "--jobs", "1"])):
            wall, cpu = seconds(["check", folder, *extra], options.runs)
            print(f"check {options.rosters:,} rosters ({label + '):':<19} {wall:6.2f} s"
                  f"   goal < {GOAL_SECONDS:.1f} s   ratio {wall / GOAL_SECONDS:5.2f}"
                  f"   (processor {cpu:.2f} s, {cpu / options.rosters * 1000:.2f} ms a file)")


if __name__ == "__main__":
    main()

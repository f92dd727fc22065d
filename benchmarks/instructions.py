"""Machine instructions per full revalidation of the 20-formation roster, counted under valgrind:
a figure a busy or drifting machine does not change (timings here move by half from one minute to
the next), to compare two checkouts or two versions of a change.

    python benchmarks/instructions.py [--runs N]

Needs valgrind (Debian: apt-get install valgrind). Counts a process that validates the roster N
times (default 200) and one that validates it none, each after the same start-up, and prints
the difference per validation. On the machine of issue 18, 6.4 M instructions took 1.2-1.35 ms
at best: its goal, under 1 ms, is about 5 M.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VALIDATE = """
import sys
sys.path.insert(0, {benchmarks!r})
from run import TWENTY_FORMATIONS
from listbuilder.data.catalog import load_catalog
from listbuilder.systems import validate
catalog = load_catalog()
for _ in range(2 + {runs}):  # twice first: what a first validation builds once (views, menus) is not counted
    validate(TWENTY_FORMATIONS, catalog)
"""


def validating(runs: int, *under: str) -> subprocess.CompletedProcess[str]:
    """A process that validates the roster `runs` times (after two), run `under` a tool."""
    code = VALIDATE.format(benchmarks=str(ROOT / "benchmarks"), runs=runs)
    return subprocess.run([*under, sys.executable, "-c", code], capture_output=True, text=True, check=True)


def instructions(runs: int) -> int:
    done = validating(runs, "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null")
    return int(re.search(r"Collected : (\d+)", done.stderr).group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description="instructions per full revalidation, under valgrind")
    parser.add_argument("--runs", type=int, default=200)
    runs = parser.parse_args().runs
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    validating(0)  # the catalog cache warm: a rebuild would be counted in one process only
    per_run = (instructions(runs) - instructions(0)) / runs
    print(f"full revalidation, 20 formations: {per_run / 1e6:.2f} M instructions (valgrind; {runs} runs)")


if __name__ == "__main__":
    main()

"""Machine instructions, counted under valgrind: figures a busy or drifting machine does not
change (timings here move by half from one minute to the next), to compare two checkouts or two
versions of a change, and to set a command beside the floor under it.

    python benchmarks/instructions.py [--runs N] [--revalidation-only]

Needs valgrind (Debian: apt-get install valgrind). A full revalidation of the 20-formation roster:
a process that validates it N times (default 200) less one that validates it none, each after the
same start-up, per validation. On the machine of issue 18, 6.4 M instructions took 1.2-1.35 ms at
best: its goal, under 1 ms, is about 5 M. Then whole processes, as a user starts them: `check` and
`print` beside what no version of them can do without, Python's start, pydantic's import with one
model validated (what reading any roster takes), and reportlab's import (what printing takes).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from speed import DEMO, ONE_MODEL, USER_ENV, print_roster  # the rosters and floor speed.py times

ROOT = Path(__file__).resolve().parent.parent
# What `listbuilder print` imports of reportlab (report/pdf/), and the one pattern its paragraph
# module compiles at import, counted alone
REPORTLAB = "import reportlab.platypus, reportlab.pdfgen.canvas, reportlab.lib.styles"
URL_PATTERN = ("from reportlab.platypus.paragraph import uri_pat; "
               "print(repr((uri_pat.pattern, uri_pat.flags)))")
VALIDATE = """
import sys
sys.path.insert(0, {benchmarks!r})
from run import TWENTY_FORMATIONS
from listbuilder.data.catalog import load_catalog
from listbuilder.games import validate
catalog = load_catalog()
for _ in range(2 + {runs}):  # twice first: what a first validation builds once (views, menus) is not counted
    validate(TWENTY_FORMATIONS, catalog)
"""


def validating(runs: int, *under: str) -> subprocess.CompletedProcess[str]:
    """A process that validates the roster `runs` times (after two), run `under` a tool."""
    code = VALIDATE.format(benchmarks=str(ROOT / "benchmarks"), runs=runs)
    return subprocess.run([*under, sys.executable, "-c", code], capture_output=True, text=True, check=True)


VALGRIND = ("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null")


def counted(done: subprocess.CompletedProcess[str]) -> int:
    return int(re.search(r"Collected : (\d+)", done.stderr).group(1))


def instructions(runs: int) -> int:
    return counted(validating(runs, *VALGRIND))


def process(*command: str) -> int:
    """The instructions of one process, run twice: once so that its bytecode and caches are warm."""
    for under in ((), VALGRIND):
        done = subprocess.run([*under, sys.executable, *command], capture_output=True, text=True, env=USER_ENV)
        if done.returncode not in (0, 1):  # an illegal roster (1) is still a whole check
            raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr[-500:]}")
    return counted(done)


def processes() -> None:
    """Whole processes, and the floors under them."""
    with tempfile.TemporaryDirectory() as scratch:
        three_thousand = print_roster(Path(scratch) / "3000.yaml")
        pattern = subprocess.run([sys.executable, "-c", URL_PATTERN], capture_output=True, text=True,
                                 check=True).stdout.strip()
        python = process("-c", "pass")
        one_model = process("-c", ONE_MODEL)
        reportlab = process("-c", REPORTLAB) - python
        url = process("-c", f"import re; re.compile(*{pattern})") - python
        check = process("-m", "listbuilder", "check", str(DEMO))
        printed = process("-m", "listbuilder", "print", str(three_thousand), "-o", str(Path(scratch) / "3000.pdf"))

    def line(what: str, count: int, beside: str = "") -> None:
        print(f"  {what:<58} {count / 1e6:7.0f} M{beside}")

    print("whole processes (valgrind):")
    line("Python's start", python)
    line("the floor of reading a roster: pydantic, one model validated", one_model)
    line("listbuilder check, one roster (cache warm)", check, f"   {check / one_model:.2f} x that floor")
    line("reportlab's import, as print makes it", reportlab, f"   of which its URL pattern: {url / 1e6:.0f} M")
    line("listbuilder print, 3,000 points", printed,
         f"   {printed / (one_model + reportlab):.2f} x the floor and reportlab's import")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--revalidation-only", action="store_true", help="skip the whole processes")
    options = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    validating(0)  # the catalog cache warm: a rebuild would be counted in one process only
    per_run = (instructions(options.runs) - instructions(0)) / options.runs
    print(f"full revalidation, 20 formations: {per_run / 1e6:.2f} M instructions (valgrind; {options.runs} runs)")
    if not options.revalidation_only:
        processes()


if __name__ == "__main__":
    main()

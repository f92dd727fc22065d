"""Hostile and large input (issues 13 and 18), each figure printed with its goal:

- `check` of a 1 MB roster (the largest file allowed: 56,334 formations) and of the largest roster
  accepted (1,000 formations): wall time and peak memory of the process;
- `check` of one example roster as a process, with the catalog cache warm and with none;
- the catalog cache alone: load and validate (warm), and the parse it saves (cold).

Run: python benchmarks/hostile.py [--runs N] [--before CHECKOUT]. `--before` measures another
checkout too (e.g. /work/main, before this work), with this environment's libraries, taking turns
with this one so that a busy machine slows both alike; its 1 MB roster is left out unless
`--huge-before` (61 s before).
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

HERE = Path(__file__).resolve().parent.parent
EXAMPLE = HERE / "tests" / "rosters" / "codex-astartes" / "legal-allies.yaml"
HEADER = "game: epic-armageddon\narmy: codex-astartes\npoints: 3000\nformations:\n"
KINDS = ["  - type: Tactical\n", "  - type: Scout\n", "  - type: Bike\n", "  - type: Devastator\n"]
CATALOG_TIMES = """
import statistics, sys, time
from listbuilder.data.catalog import load_catalog
load_catalog()
def ms(action, n):
    times = []
    for _ in range(n):
        start = time.perf_counter(); action(); times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
runs = int(sys.argv[1])
print(ms(load_catalog, runs), ms(lambda: load_catalog(use_cache=False), max(3, runs // 5)))
"""


def roster_of(formations: int | None, folder: Path) -> Path:
    """A roster of `formations` alike formations, or as many as fit in 1,000,000 bytes."""
    text, i = HEADER, 0
    while (formations is None and len(text) + len(KINDS[i % 4]) <= 1_000_000) or (formations and i < formations):
        text += KINDS[i % 4]
        i += 1
    path = folder / f"roster-{i}.yaml"
    path.write_text(text)
    return path


def process(code: Path, cache: Path, *arguments: str) -> tuple[float, float, str]:
    """Seconds, peak MB and standard output of `python ...` run on checkout `code`'s listbuilder."""
    environment = {**os.environ, "PYTHONPATH": str(code), "XDG_CACHE_HOME": str(cache)}
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, *arguments], env=environment, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, cwd=cache.parent)  # not a checkout's top
    out = child.stdout.read() if child.stdout else ""
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0  # reaped above
    return time.perf_counter() - start, usage.ru_maxrss / 1024, out


def check(code: Path, cache: Path, roster: Path) -> tuple[float, float]:
    seconds, megabytes, _ = process(code, cache, "-m", "listbuilder", "check", str(roster), "--format", "json")
    return seconds, megabytes


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--before", type=Path, help="another checkout to measure in turn, e.g. /work/main")
    parser.add_argument("--huge-before", action="store_true", help="the 1 MB roster on --before too")
    options = parser.parse_args()
    codes = [HERE] + ([options.before.resolve()] if options.before else [])
    figures: dict[tuple[str, Path], list[float]] = {}

    def note(what: str, code: Path, value: float) -> None:
        figures.setdefault((what, code), []).append(value)

    with tempfile.TemporaryDirectory() as folder:
        top = Path(folder)
        huge, thousand = roster_of(None, top), roster_of(1_000, top)
        for code in codes:
            check(code, top / code.name, EXAMPLE)  # fill each checkout's cache
        for turn in range(options.runs):
            for code in codes:
                warm = top / code.name
                note("check one roster, cache warm (process)", code, check(code, warm, EXAMPLE)[0] * 1000)
                note("check one roster, no cache (process)", code, check(code, top / f"none{turn}{code.name}",
                                                                          EXAMPLE)[0] * 1000)
        for code in codes:
            _, _, out = process(code, top / code.name, "-c", CATALOG_TIMES, str(options.runs * 5))
            warm_ms, cold_ms = map(float, out.split())
            note("catalog from the warm cache (in process)", code, warm_ms)
            note("catalog parsed with no cache (in process)", code, cold_ms)
            for roster, what in ((huge, "1 MB roster (56,334 formations)"), (thousand, "1,000-formation roster")):
                if roster is huge and code != HERE and not options.huge_before:
                    continue
                seconds, megabytes = check(code, top / code.name, roster)
                note(f"check a {what}, time (ms)", code, seconds * 1000)
                note(f"check a {what}, peak memory (MB)", code, megabytes)
    goals = {"check one roster, cache warm (process)": 150, "check one roster, no cache (process)": 1000,
             "catalog from the warm cache (in process)": 30, "catalog parsed with no cache (in process)": 1000,
             "check a 1 MB roster (56,334 formations), time (ms)": 1000,
             "check a 1 MB roster (56,334 formations), peak memory (MB)": 200,
             "check a 1,000-formation roster, time (ms)": 1000, "check a 1,000-formation roster, peak memory (MB)": 200}
    print(f"{'':<58} {'now':>9} {'before' if options.before else '':>9}   goal     ratio to goal")
    for what, goal in goals.items():
        now = statistics.median(figures[(what, HERE)])
        before = figures.get((what, codes[-1])) if options.before else None
        shown = f"{statistics.median(before):9.0f}" if before else " " * 9
        unit = "MB" if what.endswith("(MB)") else "ms"
        print(f"{what:<58} {now:9.1f} {shown}   < {goal:,} {unit:<3} {now / goal:5.2f}")


if __name__ == "__main__":
    main()

"""Hostile and large input (issues 13 and 18), each figure printed with its goal:

- `check` of a 1 MB roster (the largest file allowed: 56,334 formations) and of the largest roster
  accepted (1,000 formations): wall time and peak memory of the process;
- `check` of one example roster as a process, with the catalog cache warm and with none;
- the catalog cache alone: load and validate (warm), and the parse it saves (cold).

Run: python benchmarks/hostile.py [--runs N] [--code CHECKOUT] — `--code` measures another checkout
(e.g. /work/main, before this work) with this environment's libraries.
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


def roster_of(formations: int | None, folder: Path) -> Path:
    """A roster of `formations` alike formations, or as many as fit in 1,000,000 bytes."""
    text, i = HEADER, 0
    while (formations is None and len(text) + len(KINDS[i % 4]) <= 1_000_000) or (formations and i < formations):
        text += KINDS[i % 4]
        i += 1
    path = folder / f"roster-{i}.yaml"
    path.write_text(text)
    return path


def run(code: Path, *arguments: str, cache: str) -> tuple[float, float]:
    """Seconds and peak MB of `listbuilder ...` as a process (the code of checkout `code`)."""
    environment = {**os.environ, "PYTHONPATH": str(code), "XDG_CACHE_HOME": cache}
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "listbuilder", *arguments], env=environment,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0  # reaped above
    return time.perf_counter() - start, usage.ru_maxrss / 1024


def median(values: list[float]) -> float:
    return statistics.median(values)


def in_process(code: Path, cache: str, runs: int) -> tuple[float, float]:
    """Milliseconds to load the catalog from a warm cache, and to parse it with none."""
    script = (
        "import statistics, time\n"
        "from listbuilder.data.catalog import load_catalog\n"
        "load_catalog()\n"
        "def ms(action, n):\n"
        "    times = []\n"
        "    for _ in range(n):\n"
        "        start = time.perf_counter(); action(); times.append((time.perf_counter() - start) * 1000)\n"
        "    return statistics.median(times)\n"
        f"print(ms(load_catalog, {runs}), ms(lambda: load_catalog(use_cache=False), {max(3, runs // 5)}))\n")
    environment = {**os.environ, "PYTHONPATH": str(code), "XDG_CACHE_HOME": cache}
    out = subprocess.run([sys.executable, "-c", script], env=environment, capture_output=True, text=True, check=True)
    warm, cold = map(float, out.stdout.split())
    return warm, cold


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--code", type=Path, default=HERE)
    parser.add_argument("--skip-huge", action="store_true", help="leave out the 1 MB roster (61 s before)")
    options = parser.parse_args()
    code, runs = options.code.resolve(), options.runs
    with tempfile.TemporaryDirectory() as folder:
        cache = str(Path(folder) / "cache")
        run(code, "check", str(EXAMPLE), cache=cache)  # fill the cache
        warm_check = median([run(code, "check", str(EXAMPLE), cache=cache)[0] for _ in range(runs)])
        cold_check = median([run(code, "check", str(EXAMPLE), cache=str(Path(folder) / f"none{i}"))[0]
                             for i in range(max(3, runs // 3))])
        warm_load, cold_load = in_process(code, cache, runs * 5)
        rows = [("check one roster, cache warm (process)", f"{warm_check * 1000:7.0f} ms", "< 150 ms",
                 warm_check / 0.15),
                ("check one roster, no cache (process)", f"{cold_check * 1000:7.0f} ms", "< 1,000 ms",
                 cold_check / 1.0),
                ("catalog from the warm cache (in process)", f"{warm_load:7.1f} ms", "milliseconds (< 30 ms)",
                 warm_load / 30),
                ("catalog parsed with no cache (in process)", f"{cold_load:7.0f} ms", "< 1,000 ms", cold_load / 1000)]
        sizes = [1_000] if options.skip_huge else [None, 1_000]
        for formations in sizes:
            roster = roster_of(formations, Path(folder))
            seconds, megabytes = run(code, "check", str(roster), "--format", "json", cache=cache)
            what = "1 MB roster (56,334 formations)" if formations is None else "1,000-formation roster"
            rows.append((f"check a {what}, time", f"{seconds:7.2f} s", "about 1 s", seconds / 1.0))
            rows.append((f"check a {what}, peak memory", f"{megabytes:7.0f} MB", "< 200 MB", megabytes / 200))
    print(f"code: {code}")
    for what, figure, goal, ratio in rows:
        print(f"{what:<52} {figure:>12}   goal {goal:<22} ratio {ratio:5.2f}")


if __name__ == "__main__":
    main()

"""Every figure of the speed table, each beside its goal: what a player or an organiser waits for.

    python benchmarks/speed.py [--runs N] [--quick]

Commands are timed as processes (`python -m listbuilder ...`, what a user starts, imports
included, their bytecode cached as in any install); the engine and the editor in-process. Medians
over N runs; the machine is noisy, so compare ratios across runs, not single digits. The ratio is
the figure over its goal: at most 1.00 meets it. Beside a process's wall time, its CPU time: what
it costs whatever else the machine is doing (on an idle machine the two are close).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))  # the other benchmarks' rosters and helpers
EXAMPLES = sorted(p for p in (ROOT / "tests" / "rosters").rglob("*.yaml") if p.parent.name != "print")
DEMO = ROOT / "listbuilder" / "demo" / "ultramarines.yaml"
WH40K_ROSTER = ROOT / "benchmarks" / "strike-force-2000.yaml"  # 2,000 points of Necrons
LARGEST_ROSTER_BYTES = 1_000_000  # the reader refuses larger files
ONE_MODEL = "from pydantic import BaseModel\nclass Roster(BaseModel):\n    name: str\nRoster(name='x')"
# A user's listbuilder has its bytecode cached (pip compiles it, or Python on first run); with
# PYTHONDONTWRITEBYTECODE set, as on some build machines, every run would compile it again.
USER_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def median_of(action: Callable[[], object], runs: int) -> float:
    """Median seconds of `runs` calls."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def listbuilder(*arguments: str, env: dict[str, str], expected: tuple[int, ...] = (0, 1)) -> None:
    """Run the command as a user does. Legal or illegal is not the point here, but a run that
    failed otherwise measured nothing."""
    run = subprocess.run([sys.executable, "-m", "listbuilder", *arguments], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=env, check=False)
    if run.returncode not in expected:
        raise SystemExit(f"listbuilder {' '.join(arguments)} exited {run.returncode}: {run.stderr.decode()[-500:]}")


def folder_of(count: int, folder: Path) -> Path:
    """`count` submissions, copies of the example rosters in turn."""
    folder.mkdir()
    for n in range(count):
        source = EXAMPLES[n % len(EXAMPLES)]
        (folder / f"{n:04d}-{source.name}").write_bytes(source.read_bytes())
    return folder


def largest_roster(path: Path) -> Path:
    """The demo roster's formations repeated up to the largest file a roster may be (1 MB)."""
    head, _, formations = DEMO.read_bytes().partition(b"formations:\n")
    body = formations
    while len(head) + len(body) + len(formations) < LARGEST_ROSTER_BYTES:
        body += formations
    path.write_bytes(head + b"formations:\n" + body)
    return path


def print_roster(path: Path) -> Path:
    """The 3,000-point roster of the PDF benchmark, as a file (JSON is YAML)."""
    from print_pdf import THREE_THOUSAND

    path.write_text(THREE_THOUSAND.model_dump_json(exclude_defaults=True), encoding="utf-8")
    return path


def process_median(action: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median wall seconds of `runs` calls, and the CPU seconds one call's child processes took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = median_of(action, runs)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / runs


def timed(wall: float, cpu: float) -> str:
    return f"{wall:.3f} s (cpu {cpu:.3f})"


def peak_mb(*arguments: str, env: dict[str, str]) -> float:
    """Peak resident memory of one run of the command. A fresh process runs it and reports: the
    peak this process could read is the largest of every child it ever ran (the 40k import's)."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
             "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    run = subprocess.run([sys.executable, "-c", probe, sys.executable, "-m", "listbuilder", *arguments], env=env,
                         capture_output=True, text=True, check=True)
    return int(run.stdout) / 1024  # Linux reports kilobytes


def wh40k_env(env: dict[str, str], scratch: Path) -> dict[str, str] | None:
    """`env` with the BSData snapshot imported as a user imports their data (`data import`), or
    None where the snapshot is not at hand (../shared)."""
    from bsdata_import import SNAPSHOT, bsdata_folder

    from listbuilder.games.wh40k10.importing.installed import DATA_DIR_VARIABLE

    if not SNAPSHOT.is_file():
        return None
    installed = {**env, DATA_DIR_VARIABLE: str(scratch / "data")}
    listbuilder("data", "import", "bsdata", str(bsdata_folder(None, str(scratch))), env=installed, expected=(0,))
    return installed


def revalidation_seconds(runs: int) -> float:
    from run import TWENTY_FORMATIONS  # the 20-formation roster of the engine benchmark

    from listbuilder.data.catalog import load_catalog
    from listbuilder.games import validate

    catalog = load_catalog()
    return median_of(lambda: validate(TWENTY_FORMATIONS, catalog), runs * 10)


def editor_refresh_ms(runs: int) -> tuple[float, float]:
    """Median and 90th percentile from a key press to the findings on screen, 20 formations."""
    from tui_refresh import EDITS, big_roster, time_presses

    from listbuilder.data.catalog import load_catalog
    from listbuilder.tui.app import EditorApp

    catalog = load_catalog()
    timings: list[float] = []
    for setting, keys, _ in EDITS:
        _, painted, _ = asyncio.run(time_presses(EditorApp(catalog, big_roster(catalog)), runs, setting, keys))
        timings += painted
    return statistics.median(timings), statistics.quantiles(timings, n=10)[-1]


def row(what: str, figure: str, goal: str, ratio: float) -> None:
    print(f"{what:<42} {figure:>22}   {goal:<10} {ratio:6.2f}")


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=7)
    options.add_argument("--quick", action="store_true", help="skip the 1,000-roster folder and the 1 MB roster")
    runs = options.parse_args().runs
    quick = options.parse_args().quick
    with tempfile.TemporaryDirectory() as scratch:
        scratch_path = Path(scratch)
        # A cache of its own, so that "warm" and "no cache" mean what they say whatever ran before
        warm_env = {**USER_ENV, "XDG_CACHE_HOME": str(scratch_path / "cache")}
        cold_env = {**USER_ENV, "XDG_CACHE_HOME": str(scratch_path / "cold-cache")}
        listbuilder("check", str(DEMO), env=warm_env)  # the cache (and the bytecode) are warm from here on
        floor = process_median(lambda: subprocess.run([sys.executable, "-c", "pass"], env=USER_ENV, check=True), runs)
        models = process_median(lambda: subprocess.run([sys.executable, "-c", ONE_MODEL], env=USER_ENV, check=True),
                                runs)
        print(f"(the floor: Python itself starts in {timed(*floor)} on this machine now, ~0.022 s when idle; "
              f"importing pydantic and validating one model takes {timed(*models)}, which every command that "
              "reads a roster pays; a busy machine stretches every wall time alike)")
        print(f"{'what':<42} {'now':>22}   {'goal':<10} ratio (now / goal)")

        seconds, cpu = process_median(lambda: listbuilder("--help", env=warm_env), runs)
        row("listbuilder --help", timed(seconds, cpu), "< 0.10 s", seconds / 0.10)
        seconds, cpu = process_median(lambda: listbuilder("check", str(DEMO), env=warm_env), runs)
        row("check one roster (cache warm)", timed(seconds, cpu), "< 0.15 s", seconds / 0.15)
        wh40k = wh40k_env(warm_env, scratch_path)
        if wh40k is not None:  # no goal of its own in issue 18: Epic's
            seconds, cpu = process_median(lambda: listbuilder("check", str(WH40K_ROSTER), env=wh40k), runs)
            row("check one 40k roster (data installed)", timed(seconds, cpu), "< 0.15 s", seconds / 0.15)

        def first_run() -> None:
            subprocess.run(["rm", "-rf", cold_env["XDG_CACHE_HOME"]], check=True)
            listbuilder("check", str(DEMO), env=cold_env)

        seconds, cpu = process_median(first_run, max(3, runs // 2))
        row("first run, no cache", timed(seconds, cpu), "< 1.0 s", seconds / 1.0)
        if not quick:
            folder = folder_of(1000, scratch_path / "submissions")
            seconds, cpu = process_median(lambda: listbuilder("check", str(folder), "--format", "json", env=warm_env),
                                          max(3, runs // 2))
            row("check 1,000 rosters", timed(seconds, cpu), "< 2 s", seconds / 2)
        seconds = revalidation_seconds(runs)
        row("full revalidation, 20 formations", f"{seconds * 1000:.2f} ms", "< 1 ms", seconds / 0.001)
        median, p90 = editor_refresh_ms(max(20, runs * 5))
        row("editor: key -> repainted findings, median", f"{median:.1f} ms", "< 16 ms", median / 16)
        row("editor: key -> repainted findings, p90", f"{p90:.1f} ms", "< 30 ms", p90 / 30)
        pdf, three_thousand = scratch_path / "roster.pdf", print_roster(scratch_path / "3000.yaml")
        seconds, cpu = process_median(lambda: listbuilder("print", str(three_thousand), "-o", str(pdf),
                                                          env=warm_env), runs)
        row("print a 3,000-point roster", timed(seconds, cpu), "< 0.4 s", seconds / 0.4)
        seconds, cpu = process_median(lambda: listbuilder("check", str(three_thousand), env=warm_env), runs)
        print(f"  (of which checking it, as `listbuilder check` does: {timed(seconds, cpu)}; the rest is importing "
              "reportlab and the layout, each timed by benchmarks/print_pdf.py)")
        if not quick:
            largest = largest_roster(scratch_path / "largest.yaml")
            # a file that size holds more formations than any roster may (1,000): it is read up to
            # that bound and refused as unreadable (exit 2), which is what is timed
            seconds, cpu = process_median(lambda: listbuilder("check", str(largest), env=warm_env, expected=(2,)), 1)
            row("a 1 MB roster: time", timed(seconds, cpu), "~1 s", seconds / 1.0)
            peak = peak_mb("check", str(largest), env=warm_env)
            row("a 1 MB roster: peak memory", f"{peak:.0f} MB", "< 200 MB", peak / 200)


if __name__ == "__main__":
    main()

"""How long the editor takes from a key press that changes the roster to the refreshed findings.

A 20-formation roster (the demo's formations, repeated) is opened headless (120×40). Two edits of
the first formation are timed, each key pressed in turn: → and ← on Dreadnought (one more, one
fewer: the Dreadnought wargear settings change too, so rows are added and removed), and Space on
Hunter (taken, dropped: the same rows). Each press is timed from the key event reaching the app
until the roster it produced has been checked and shown (points, formations, settings, findings),
and until the screen has been laid out and painted (into the headless driver: a real terminal
adds its own drawing), with the processor time spent on the way (the wall clock of a machine busy
with other work also counts waits for a core). Also timed: `validate` alone on the same roster, and
as the editor calls it, reusing the formations of the previous check with one entry replaced. The
editor checks an edit at once while checking fits in a frame, else in a worker
thread: both are timed. Goal: painted within 16 ms at the median and 30 ms at the 90th percentile.

    python benchmarks/tui_refresh.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from textual import events

from listbuilder.cli import DEMO_ROSTER
from listbuilder.data.catalog import load_catalog
from listbuilder.games import validate
from listbuilder.listengine.catalog import Catalog
from listbuilder.listengine.engine import FormationCache
from listbuilder.listengine.roster import Roster
from listbuilder.rosters.files import read_roster
from listbuilder.tui.app import EditorApp
from listbuilder.tui.games.knob_row import KnobRow

FRAME_MS = 1000 / 60
GOAL = (16.0, 30.0)  # key to repainted findings: median and 90th percentile, ms
FORMATIONS = 20


def big_roster(catalog: Catalog) -> Roster:
    demo = read_roster(DEMO_ROSTER, catalog).roster
    formations = [demo.formations[i % len(demo.formations)] for i in range(FORMATIONS)]
    return demo.model_copy(update={"formations": formations, "points": 10000})


# (setting of formation #1, the keys pressed in turn, what the edit does to the screen)
EDITS = [(("upgrades", "Dreadnought"), ("right", "left"), "Dreadnought +1/-1 (wargear rows come and go)"),
         (("upgrades", "Hunter"), ("space", "space"), "Hunter on/off (the same rows)")]


async def time_presses(app: EditorApp, runs: int, setting: tuple[str, ...],
                       keys: tuple[str, str]) -> tuple[list[float], list[float], list[float]]:
    """Milliseconds from each key event to the new findings shown, and to the screen repainted;
    and the processor time the process spent on the way to the repaint (on a machine busy with
    other work the wall clock also counts the waits for a core, which this does not)."""
    shown_ms, painted_ms, cpu_ms = [], [], []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.main.select_formation(0, setting)
        await pilot.pause()
        assert isinstance(app.focused, KnobRow) and app.focused.key == setting
        shown_at: list[float] = []
        show = app.main.show

        def timed_show(result) -> None:  # the moment the checked roster is in the widgets
            show(result)
            shown_at.append(time.perf_counter())

        app.main.show = timed_show  # type: ignore[method-assign]
        for run in range(runs):
            await pilot.pause()  # a player's keys are far apart: the app is idle when one comes
            before = app.history.current
            start, cpu_start = time.perf_counter(), time.process_time()
            app.post_message(events.Key(keys[run % 2], None))
            while app.history.current is before or app.main.result is None \
                    or app.main.result.roster is not app.history.current:
                await asyncio.sleep(0)
            app.screen._on_timer_update()  # lay out and paint now, if the refresh timer has not yet
            painted, cpu_end = time.perf_counter(), time.process_time()
            shown_ms.append((shown_at[-1] - start) * 1000)
            painted_ms.append((painted - start) * 1000)
            cpu_ms.append((cpu_end - cpu_start) * 1000)
    return shown_ms, painted_ms, cpu_ms


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=200)
    runs = options.parse_args().runs
    catalog = load_catalog()
    roster = big_roster(catalog)
    result = validate(roster, catalog)
    check_ms = []
    for _ in range(runs):
        start = time.perf_counter()
        validate(roster, catalog)
        check_ms.append((time.perf_counter() - start) * 1000)
    print(f"roster: {len(roster.formations)} formations, {result.total:,} points, {len(result.findings)} findings")
    report("validate alone", check_ms)
    reuse: FormationCache = {}
    validate(roster, catalog, reuse)
    reuse_ms = []
    for run in range(runs):  # as in the editor: one formation's entry replaced, the others reused
        edited = roster.model_copy(update={"formations": [f.model_copy() if i == run % FORMATIONS else f
                                                          for i, f in enumerate(roster.formations)]})
        start = time.perf_counter()
        validate(edited, catalog, reuse)
        reuse_ms.append((time.perf_counter() - start) * 1000)
    report("validate, one formation changed", reuse_ms)
    for setting, keys, edit in EDITS:
        print(edit)
        for mode, budget_ms in (("checked at once", EditorApp.inline_check_ms), ("checked in a worker", 0.0)):
            app = EditorApp(catalog, roster)
            app.inline_check_ms = budget_ms
            shown_ms, painted_ms, cpu_ms = asyncio.run(time_presses(app, runs, setting, keys))
            report(f"  {mode}: key -> findings shown", shown_ms)
            report(f"  {mode}: key -> screen painted", painted_ms, GOAL)
            report(f"  {mode}: processor time to painted", cpu_ms, GOAL)


def report(name: str, timings: list[float], goal: tuple[float, float] | None = None) -> None:
    median = statistics.median(timings)
    p90 = statistics.quantiles(timings, n=10)[-1]
    against = f" (goal: median < {goal[0]:.0f}, 90th < {goal[1]:.0f})" if goal else ""
    print(f"{name:<44} median {median:6.2f} ms = {median / FRAME_MS:.2f} frame (16.7 ms); "
          f"90th percentile {p90:6.2f} ms; {len(timings)} runs{against}")


if __name__ == "__main__":
    main()

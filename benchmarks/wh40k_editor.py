"""How long the 40k editor takes from a key press to the screen painted, on a 1,905-point Space
Marines roster of 15 units (Strike Force), headless at 80×24: `a` opening the Add dialog (every
datasheet of the faction, those the check refuses in the army dimmed), twice over: with the
refusals worked out afresh each time, as when `a` comes right after an edit (the dialog is painted
at once with a line saying they are being checked, then again with them dimmed: both timed from the
key), and with them worked out beforehand, as the editor does once an edit has settled; `-`/`+` on
a unit's models (also while the refusals are being worked out in the background: that press's
processor time counts theirs too, its wall clock is the figure), and `+`/`-` on a weapon's carriers
in the wargear screen (`g`). Each press is timed from the key event reaching the app until the
screen has been laid out and painted (into the headless driver) with what it changed, with the
processor time spent on the way (on a machine busy with other work the wall clock also counts waits
for a core). An edit's check is awaited on an event rather than by a loop polling for it, which
held the interpreter from the worker thread checking it; and the paint waits for the widgets'
repaints to reach the screen (until issue 28's third round the clock stopped before they had: the
paint was not timed). Goals: the dialog painted within 100 ms; an edit painted within 16 ms at the
median.

Run: python benchmarks/wh40k_editor.py [FOLDER] [--runs N]. FOLDER is a copy of BSData/wh40k-10e;
by default the snapshot ../shared/fixtures/bsdata is unpacked into a temporary folder and imported
(not timed here: see bsdata_import.py).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bsdata_import import installed_catalog
from textual import events

from listbuilder.games.wh40k10.roster import Wh40kRoster, Wh40kUnit
from listbuilder.tui.app import EditorApp
from listbuilder.tui.games.wh40k10 import WargearScreen
from listbuilder.tui.screens.pick import FilteredList, PickScreen

UNITS = [Wh40kUnit(type="Captain", warlord=True, leads="Intercessor Squad"),
         Wh40kUnit(type="Intercessor Squad", models=10),
         Wh40kUnit(type="Lieutenant", leads="Hellblaster Squad"), Wh40kUnit(type="Hellblaster Squad", models=10),
         *(Wh40kUnit(type=name) for name in ("Tactical Squad", "Redemptor Dreadnought")),
         Wh40kUnit(type="Intercessor Squad", label="Bravo"),
         *(Wh40kUnit(type=name) for name in ("Predator Destructor", "Terminator Squad", "Librarian", "Rhino")),
         Wh40kUnit(type="Sternguard Veteran Squad", models=10),
         *(Wh40kUnit(type=name) for name in ("Gladiator Lancer", "Aggressor Squad", "Chaplain"))]
ROSTER = Wh40kRoster(game="wh40k-10e", faction="Space Marines", battle_size="Strike Force",
                     detachment="Gladius Task Force", units=UNITS, name="Benchmark")


async def press(app: EditorApp, key: str, done: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    """Milliseconds, wall and processor, from `key` to the screen painted once `done()` returns.

    The screen is painted when the widgets' repaints have reached it (each widget asks its screen
    on its next idle): painted then, rather than at the screen's refresh timer's next tick."""
    wall, cpu = time.perf_counter(), time.process_time()
    app.post_message(events.Key(key, key if len(key) == 1 else None))
    await done()
    painted = len(PAINTS)
    while len(PAINTS) == painted:
        screen = app.screen
        if screen._update_timer._active.is_set():  # a repaint asked for: lay out and paint now
            screen._on_timer_update()
        else:
            await asyncio.sleep(0)
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


PAINTS: list[float] = []  # when the screen was painted (into the headless driver), each time


def counting_paints(app: EditorApp) -> None:
    display = app._display

    def counted(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None:
            PAINTS.append(time.perf_counter())

    app._display = counted  # type: ignore[method-assign]


def shown(app: EditorApp) -> Callable[[], Awaitable[object]]:
    """What waits for the next edit's check to be shown: an event, set as the app shows it (a
    loop polling for it would keep the processor from the worker thread that checks it)."""
    event = asyncio.Event()
    show = app._show

    def showing(result: Any) -> None:
        show(result)
        if result.roster is app.history.current:
            event.set()

    app._show = showing  # type: ignore[method-assign]

    async def wait() -> None:
        event.clear()
        await event.wait()
    return wait


async def measure(app: EditorApp, runs: int) -> dict[str, list[tuple[float, float]]]:
    timings: dict[str, list[tuple[float, float]]] = {
        "a: Add dialog": [], "a: its dims": [], "a, settled": [], "-/+ models": [], "-/+ refusing": [],
        "+/- carriers": []}

    async def dialog_shown() -> None:
        while not (isinstance(app.screen, PickScreen) and app.screen.query(FilteredList)
                   and app.screen.query_one(FilteredList).shown):
            await asyncio.sleep(0)

    async def dims_shown() -> None:
        await dialog_shown()
        while getattr(app.screen, "checking", False):
            # awaited, not polled: a loop polling would keep the interpreter from the thread
            working = [w for w in app.workers if w.group == "refusals" and not w.is_finished]
            for worker in working:
                await worker.wait()
            await asyncio.sleep(0 if working else 0.001)

    async def refusals_worked_out() -> None:
        for worker in [w for w in app.workers if w.group == "refusals"]:
            await worker.wait()
        await asyncio.sleep(0.01)  # their message handled

    counting_paints(app)
    edited = shown(app)

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(2 * app.main.refusals_after)
        await refusals_worked_out()  # those of the roster as opened
        for label, done in (("a: Add dialog", dialog_shown), ("a: its dims", dims_shown), ("a, settled", None)):
            for _ in range(runs):
                app.main.refusals = (None, {})  # as after an edit
                if done is None:
                    app.main.work_out_refusals()  # as once an edit has settled
                    await refusals_worked_out()
                timings[label].append(await press(app, "a", done or dialog_shown))
                await refusals_worked_out()
                await pilot.press("escape")
                await pilot.pause()
        await pilot.press("down")  # the Intercessor Squad of 10
        for label, keys in (("-/+ models", ("minus", "plus")), ("-/+ refusing", ("minus", "plus")),
                            ("+/- carriers", ("plus", "minus"))):
            if label == "+/- carriers":
                await pilot.press("g")
                await pilot.pause()
                assert isinstance(app.screen, WargearScreen)
            for run in range(runs):
                await refusals_worked_out()
                await pilot.pause()  # a player's keys are far apart: the app is idle when one comes
                if label == "-/+ refusing":  # the key comes as the last edit's refusals are worked out
                    app.main.refusals = (None, {})
                    app.main.work_out_refusals()
                timings[label].append(await press(app, keys[run % 2], edited))
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", nargs="?", help="a BSData/wh40k-10e copy (default: the snapshot)")
    parser.add_argument("--runs", type=int, default=50)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:  # installed as `data import` does: the engine checks too
        app = EditorApp(installed_catalog(options.folder, scratch), ROSTER, unsaved=True)
        print(f"{len(ROSTER.units)} units, {app.result.total:,} / {app.result.limit:,} points")
        timings = asyncio.run(measure(app, options.runs))
    for label, samples in timings.items():
        wall = [s[0] for s in samples]
        print(f"{label:<14} key -> painted: median {statistics.median(wall):6.1f} ms, 90th percentile "
              f"{statistics.quantiles(wall, n=10)[-1]:6.1f} ms; processor time median "
              f"{statistics.median(s[1] for s in samples):6.1f} ms ({len(samples)} runs)")


if __name__ == "__main__":
    main()

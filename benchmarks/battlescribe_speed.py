"""The BattleScribe engine on real data, the BSData 40k snapshot: every figure beside its goal.

    python benchmarks/battlescribe_speed.py [FOLDER] [--runs N]

(a) compiling the game system and all 46 catalogues (compile_data, bytes in);
(b) loading one faction into the engine: GameData over the game system, the Space Marines
    catalogue and the catalogues it links (transitively), from the compiled dicts;
(c) evaluating and validating a 2,000-point Space Marines roster built through the Editor
    (a fresh Evaluation and its findings, once warm: median of N);
(d) the memory of that faction loaded: the Python objects tracemalloc counts while compiling only
    its files, indexing them and evaluating the roster once.

(b) and (c) are judged on CPU time: the test machine is shared, and its wall clock counts what
else runs there; both are printed. FOLDER is a copy of BSData/wh40k-10e; by default the snapshot
../shared/fixtures/bsdata is unpacked into a temporary folder. The files are read before any
clock starts.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from battlescribe_import import data_files  # noqa: E402 - the benchmarks folder first

from listbuilder.battlescribe import Editor, GameData  # noqa: E402
from listbuilder.battlescribe.importing import compile_data, faction_catalogues  # noqa: E402
from listbuilder.battlescribe.roster import Force, Selection  # noqa: E402

GOAL_COMPILE_S = 10.0
GOAL_LOAD_MS = 100.0
GOAL_EVALUATE_MS = 20.0
GOAL_MEMORY_MB = 100.0

FACTION = "Imperium - Adeptus Astartes - Space Marines"
ARMY_ROSTER = "Army Roster"
DETACHMENT = "Gladius Task Force"
BATTLE_SIZE = "2. Strike Force (2000 Point limit)"
POINTS = "pts"
POINTS_LIMIT = 2000.0
# The list: root entries by name, as the Editor offers them in a Space Marines Army Roster.
UNITS = ["Captain", "Lieutenant", "Librarian", "Intercessor Squad", "Intercessor Squad",
         "Assault Intercessor Squad", "Terminator Squad", "Bladeguard Veteran Squad", "Hellblaster Squad",
         "Eradicator Squad", "Infiltrator Squad", "Redemptor Dreadnought", "Ballistus Dreadnought",
         "Repulsor Executioner", "Gladiator Lancer", "Land Raider"]
# Wargear the data asks the player to choose (a group with a min and no usable default).
CHOICES = {"Hellblaster Squad": ["Hellblaster Sergeant", "Bolt pistol"],
           "Gladiator Lancer": ["Two storm bolters"]}


def by_name(offered: list[dict[str, Any]], name: str) -> str:
    """The entry id of the entry offered under that name."""
    return str(next(item["entryId"] for item in offered if item["name"] == name))


def child_named(selection: Selection, editor: Editor, name: str) -> Selection:
    return next(child for child in selection.children if editor.evaluation.view(child).name == name)


def build_roster(editor: Editor) -> Force:
    """The 2,000-point list: detachment and battle size chosen as the data offers them."""
    entry = next(e for e in editor.data.game_system["forceEntries"] if e["name"] == ARMY_ROSTER)
    faction_id = next(c["id"] for c in editor.data.catalogues if c["name"] == FACTION)
    force, _ = editor.add_force(entry["id"], faction_id)
    editor.set_cost_limit(next(t["id"] for t in editor.data.cost_types() if t["name"] == POINTS), POINTS_LIMIT)
    for holder, choice in ((force.selections[0], DETACHMENT), (force.selections[1], BATTLE_SIZE)):
        editor.select_child_entry(holder, by_name(editor.available(holder), choice))
    for unit in UNITS:
        selection, _ = editor.select_entry(force, by_name(editor.available(force), unit))
        for step in CHOICES.get(unit, [])[:-1]:
            selection = child_named(selection, editor, step)
        for choice in CHOICES.get(unit, [])[-1:]:
            editor.select_child_entry(selection, by_name(editor.available(selection), choice))
    return force


def median_ms(action: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median wall-clock and CPU milliseconds of `runs` calls."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        action()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000


def evaluate_once(editor: Editor) -> int:
    """A fresh evaluation of the roster and its findings."""
    editor._changed()  # drop the cached evaluation, as any edit does
    return len(editor.findings())


def memory_mb(files: dict[str, bytes]) -> float:
    """The Python memory a loaded faction holds: its files compiled, indexed, a roster evaluated."""
    gc.collect()
    tracemalloc.start()
    bundle = compile_data(files)
    editor = Editor(bundle["gameSystem"], bundle["catalogues"])
    build_roster(editor)
    editor.findings()
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return held / 1e6


def report(what: str, figure: float, unit: str, goal: float, note: str = "") -> None:
    verdict = "met" if figure < goal else "NOT met"
    print(f"{what:<58} {figure:8.1f} {unit:<3} goal < {goal:g} {unit}: {verdict}{note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", help="a BSData/wh40k-10e copy (default: the snapshot)")
    parser.add_argument("--runs", type=int, default=30)
    options = parser.parse_args()
    files = data_files(options.folder)
    started = time.perf_counter()
    bundle = compile_data(files)
    report(f"(a) compile 1 game system + {len(bundle['catalogues'])} catalogues", time.perf_counter() - started,
           "s", GOAL_COMPILE_S)
    faction = faction_catalogues(bundle, FACTION)
    load_ms, load_cpu = median_ms(lambda: GameData(bundle["gameSystem"], faction), 5)
    report(f"(b) load Space Marines ({len(faction)} catalogues) into GameData", load_cpu, "ms", GOAL_LOAD_MS,
           f" (CPU, median of 5; wall {load_ms:.1f} ms)")
    editor = Editor(bundle["gameSystem"], faction)
    build_roster(editor)
    first_ms, _ = median_ms(lambda: evaluate_once(editor), 1)
    warm_ms, warm_cpu = median_ms(lambda: evaluate_once(editor), options.runs)
    costs = editor.evaluation.roster_costs()
    points = next(v for t, v in costs.items() if editor.data.by_id[t].get("name") == POINTS)
    selections = sum(1 for _ in editor.roster.all_selections())
    report(f"(c) evaluate {points:.0f} pts, {selections} selections, {len(editor.findings())} findings",
           warm_cpu, "ms", GOAL_EVALUATE_MS, f" (CPU, median of {options.runs}; wall {warm_ms:.1f} ms)")
    print(f"    (the first evaluation, which builds the option trees: {first_ms:.0f} ms)")
    wanted = {bundle["sources"][c["id"]]["file"] for c in [bundle["gameSystem"], *faction]}
    report("(d) memory of Space Marines loaded (tracemalloc)", memory_mb({n: files[n] for n in wanted}), "MB",
           GOAL_MEMORY_MB)


if __name__ == "__main__":
    main()

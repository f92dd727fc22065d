"""The roster editor, driven by keys through Textual's Pilot (headless, 80×24 unless said).

Points asserted here are worked out by hand from lists/epic-armageddon (codex-astartes.yaml and
titan-legions.yaml): Tactical 300, Captain +50, Dreadnought +50 each, Strike Cruiser 200, Warhound
Titans 500 for two, Predators 275, Land Speeder 200, Typhoon +25 each, Warlord Titan 850.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Awaitable, Callable

import pytest
from textual import _wait as textual_wait
from textual.command import Command, CommandList
from textual.pilot import Pilot
from textual.worker import WorkerCancelled

from listbuilder.cli import main
from listbuilder.exits import DEMO_ROSTER
from listbuilder.listengine.roster import CharacterPick, Roster
from listbuilder.rosters.files import backup_path, read_roster
from listbuilder.tui.app import EditorApp, new_roster_app
from listbuilder.tui.games.knob_row import KnobRow
from listbuilder.tui.screens.datasheet import DatasheetScreen
from listbuilder.tui.screens.dialogs import AskScreen, PathScreen
from listbuilder.tui.screens.help import HelpScreen
from listbuilder.tui.screens.new_roster import NewRosterScreen
from listbuilder.tui.widgets.roster_view import FindingsList

Scenario = Callable[[Pilot], Awaitable[None]]

HAND_WRITTEN = """\
# Friday night game: keep this comment
game: epic-armageddon
army: codex-astartes
points: 3000   # agreed with Sam
name: Test company
formations:
  # the core of the army
  - type: Tactical
    transport: Rhino   # default, written anyway
    upgrades:
      Dreadnought: 1
    wargear:
      Dreadnought: Power Fist and Assault Cannon
  - type: Scout
    transport: on foot
"""


@pytest.fixture(autouse=True)
def tolerant_idle(monkeypatch):
    """Pilot waits after each key until the process looks idle: under 1 ms of CPU in 20 ms. Some
    machines spend that much on their own (background timers, accounting), and every key then
    waits its full second; 5 ms still tells an idle editor from a busy one."""
    monkeypatch.setattr(textual_wait, "SLEEP_IDLE", textual_wait.SLEEP_GRANULARITY / 4)


def run(app: EditorApp, scenario: Scenario, size: tuple[int, int] = (80, 24)) -> None:
    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await scenario(pilot)

    asyncio.run(go())


async def settle(pilot: Pilot) -> None:
    """Wait for the check of the last edit (or the Add dialog's refusals, or a print) to arrive and
    be shown. Only the editor's own workers: a file browser's loader runs as long as its dialog is
    open."""
    while True:  # what a worker brings may start another (an edit's check, the refusals it waited for)
        running = [w for w in pilot.app.workers if w.group in ("check", "refusals", "print") and not w.is_finished]
        for worker in running:
            with contextlib.suppress(WorkerCancelled):  # replaced by the check of a later edit
                await worker.wait()
        await pilot.pause()
        if not running:
            return


async def keys(pilot: Pilot, *pressed: str) -> None:
    """Press keys; a string starting with '=' is typed letter by letter."""
    for key in pressed:
        await pilot.press(*(list(key[1:]) if key.startswith("=") else [key]))
        await settle(pilot)


async def palette(pilot: Pilot, query: str, wanted: str, first: bool = True) -> list[tuple[str, str]]:
    """Open the command palette and type `query`; once `wanted` is its first hit (or, not
    `first`, one of its hits: the palette searches in the background), its hits as (title, help),
    best first. Enter then runs the first."""
    await keys(pilot, "ctrl+p", f"={query}")
    found = pilot.app.screen.query_one(CommandList)

    def hits() -> list[tuple[str, str]]:
        options = (found.get_option_at_index(i) for i in range(found.option_count))
        return [(option.hit.text, str(option.hit.help)) for option in options if isinstance(option, Command)]

    def arrived(shown: list[tuple[str, str]]) -> bool:
        titles = [title for title, _ in shown]
        return titles[:1] == [wanted] if first else wanted in titles

    for _ in range(40):
        if arrived(hits()) and found.highlighted == 0:
            break
        await pilot.pause(0.05)
    assert arrived(hits()), hits()
    return hits()


def focused_knob(app: EditorApp) -> tuple[str, ...]:
    assert isinstance(app.focused, KnobRow), app.focused
    return app.focused.key


def shown_findings(app: EditorApp) -> list[str]:
    return [f.message for f in app.main.query_one(FindingsList).findings]


def demo_app(catalog) -> EditorApp:
    roster_file = read_roster(DEMO_ROSTER, catalog, round_trip=True)
    return EditorApp(catalog, roster_file.roster, document=roster_file.document, demo=DEMO_ROSTER)


def test_build_a_legal_roster_by_keys_then_break_it_undo_it_save_it_and_load_it_back(catalog, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where the save dialog suggests a file
    app = new_roster_app(catalog, None, None, None, None)
    assert not isinstance(app, str)
    saved_to = tmp_path / "strike-force.yaml"

    async def scenario(pilot) -> None:
        assert isinstance(app.screen, NewRosterScreen)
        await keys(pilot, "=codex", "enter", "=3000", "tab", "=Strike force", "enter")
        roster = app.history.current
        assert (roster.game, roster.army, roster.points, roster.name) == (
            "epic-armageddon", "codex-astartes", 3000, "Strike force")

        # A Tactical detachment led by a Captain, with a Dreadnought.
        await keys(pilot, "a", "=tac", "enter", "enter")
        assert focused_knob(app) == ("transport",)
        await keys(pilot, "down", "enter", "=capt", "enter")
        await keys(pilot, "down")
        assert focused_knob(app) == ("upgrades", "Commander", "joins")
        await keys(pilot, "down", "right")
        assert focused_knob(app) == ("upgrades", "Dreadnought")
        for _ in range(12):  # and the Dreadnought's weapons, whose settings follow the upgrades
            if focused_knob(app)[0] == "wargear":
                break
            await keys(pilot, "down")
        assert focused_knob(app) == ("wargear", "Dreadnought")
        await keys(pilot, "enter", "=power", "enter")
        # A Strike Cruiser; two Warhounds fielded as one formation; Predators of both kinds.
        await keys(pilot, "escape", "a", "=str", "enter")
        await keys(pilot, "a", "=warh", "enter", "enter", "right")
        await keys(pilot, "escape", "a", "=pred", "enter", "enter", "right", "down", "right")
        # Land Speeders, two of them swapped for Typhoons.
        await keys(pilot, "escape", "a", "=land s", "enter", "enter", "down", "down", "right", "right")

        result = app.main.result
        assert result is not None and result.roster is app.history.current
        assert result.valid, result.findings
        assert [f.type for f in app.history.current.formations] == [
            "Tactical", "Strike Cruiser", "Warhound Titans", "Predators", "Land Speeder"]
        tactical, _, warhounds, predators, speeders = app.history.current.formations
        assert tactical.upgrades == {"Commander": CharacterPick(character="Captain", joins="Tactical"),
                                     "Dreadnought": 1}
        assert tactical.wargear == {"Dreadnought": "Power Fist and Assault Cannon"}
        assert warhounds.count == 2
        assert predators.composition == {"Predator Annihilator": 3, "Predator Destructor": 1}
        assert speeders.upgrades == {"Tornado/Typhoon": {"Typhoon": 2}}
        assert [f.points for f in result.formations] == [400, 200, 500, 275, 250]
        assert result.total == 1625
        assert shown_findings(app) == []

        # A Warlord Titan takes the allies past their third of the points: the finding appears.
        await keys(pilot, "escape", "a", "=warl", "enter")
        assert app.main.result.total == 2475
        messages = shown_findings(app)
        assert len(messages) == 1 and "1,350" in messages[0] and "1,000" in messages[0], messages
        assert not app.main.result.valid
        # Undo takes it away again.
        await keys(pilot, "ctrl+z")
        assert shown_findings(app) == [] and app.main.result.total == 1625
        legal = app.history.current

        # Saving asks for a path (the roster has none yet), suggesting one from its name.
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen, PathScreen)
        await keys(pilot, "enter")
        assert not app.dirty and app.path == saved_to
        assert read_roster(saved_to, catalog).roster == legal

    run(app, scenario)

    # Loaded back in a fresh editor, the roster is unchanged and still legal.
    reopened = read_roster(saved_to, catalog, round_trip=True)
    again = EditorApp(catalog, reopened.roster, document=reopened.document, path=saved_to)

    async def check_again(pilot) -> None:
        assert app.history.current == again.history.current
        assert again.main.result.valid and again.main.result.total == 1625
        assert not again.dirty

    run(again, check_again)


def test_a_hand_written_roster_keeps_its_comments_when_saved(catalog, tmp_path):
    path = tmp_path / "friday.yaml"
    path.write_text(HAND_WRITTEN)
    roster_file = read_roster(path, catalog, round_trip=True)
    app = EditorApp(catalog, roster_file.roster, document=roster_file.document, path=path)

    async def scenario(pilot) -> None:
        # Tactical: Transport, Commander, Dreadnought, Razorbacks, Hunter -> take the Hunter.
        await keys(pilot, "enter", "down", "down", "down", "down")
        assert focused_knob(app) == ("upgrades", "Hunter")
        await keys(pilot, "space", "ctrl+s")
        assert not app.dirty

    run(app, scenario)
    text = path.read_text()
    for comment in ("# Friday night game: keep this comment", "# agreed with Sam", "# the core of the army",
                    "# default, written anyway"):
        assert comment in text
    assert read_roster(path, catalog).roster.formations[0].upgrades == {"Dreadnought": 1, "Hunter": 1}
    assert backup_path(path).read_text() == HAND_WRITTEN


def test_the_demo_roster_is_never_saved_over(catalog, monkeypatch):
    monkeypatch.chdir(DEMO_ROSTER.parent)
    before = DEMO_ROSTER.read_text()
    app = demo_app(catalog)

    async def scenario(pilot) -> None:
        await keys(pilot, "d", "ctrl+s")
        assert isinstance(app.screen, PathScreen)  # save becomes save as
        await keys(pilot, "=" + DEMO_ROSTER.name, "enter")
        assert app.dirty and app.demo == DEMO_ROSTER

    run(app, scenario)
    assert DEMO_ROSTER.read_text() == before


def test_quitting_with_unsaved_changes_asks_first(catalog):
    app = demo_app(catalog)

    async def scenario(pilot) -> None:
        await keys(pilot, "x")  # remove the first formation
        assert app.dirty
        await keys(pilot, "ctrl+q")
        assert isinstance(app.screen, AskScreen)
        await keys(pilot, "c")  # cancel: still editing
        assert not isinstance(app.screen, AskScreen) and app.is_running
        await keys(pilot, "ctrl+q", "d")  # don't save: quit
        assert not app.is_running

    run(app, scenario)
    untouched = demo_app(catalog)

    async def quit_at_once(pilot) -> None:
        await keys(pilot, "ctrl+q")
        assert not untouched.is_running

    run(untouched, quit_at_once)


def test_a_step_past_what_the_list_allows_is_refused_with_the_rule(catalog):
    app = demo_app(catalog)

    async def scenario(pilot) -> None:
        # #2 Tactical has 2 Dreadnoughts, the most the upgrade allows.
        await keys(pilot, "down", "enter", "down", "down")
        assert focused_knob(app) == ("upgrades", "Dreadnought")
        before = app.history.current
        await keys(pilot, "right")
        assert app.history.current == before
        await keys(pilot, "left")
        assert app.history.current.formations[1].upgrades["Dreadnought"] == 1

    run(app, scenario)


def test_choosing_a_finding_jumps_to_the_entry(catalog):
    app = demo_app(catalog)

    async def scenario(pilot) -> None:
        # Remove the Strike Cruiser (#6): the Drop Pods of #2 lose their launcher.
        await keys(pilot, *["down"] * 5, "x")
        messages = shown_findings(app)
        assert any("Drop Pod" in m and "Strike Cruiser" in m for m in messages), messages
        await keys(pilot, "f", "enter")
        assert app.main.selected == 1
        assert focused_knob(app) == ("transport",)

    run(app, scenario)


def test_add_duplicate_move_remove_undo_and_redo(catalog):
    app = demo_app(catalog)
    types = lambda: [f.type for f in app.history.current.formations]  # noqa: E731
    original = types()

    async def scenario(pilot) -> None:
        await keys(pilot, "d")
        assert types() == [original[0], *original]
        await keys(pilot, "shift+down")
        assert app.main.selected == 2 and types()[2] == "Tactical"
        await keys(pilot, "delete")
        assert types() == original
        await keys(pilot, "ctrl+z", "ctrl+z", "ctrl+z")
        assert app.history.current == demo_app(catalog).history.current
        await keys(pilot, "ctrl+y")
        assert types() == [original[0], *original]

    run(app, scenario)


def test_every_upgrade_kind_is_offered_with_its_cost(catalog):
    app = demo_app(catalog)

    async def scenario(pilot) -> None:
        rows = {}
        for index in range(len(app.history.current.formations)):
            app.main.select_formation(index)
            await settle(pilot)
            rows[index] = {row.key: (row.knob.kind, row.knob.value, row.knob.cost) for row in app.main.query(KnobRow)}
        assert rows[0][("transport",)] == ("choice", "Rhino", "free")
        assert rows[0][("upgrades", "Commander", "character")] == ("choice", "Supreme Commander", "+100")
        assert rows[0][("upgrades", "Commander", "joins")] == ("choice", "Tactical", "")
        assert rows[0][("upgrades", "Dreadnought")] == ("step", "1", "+50 each")
        assert rows[0][("upgrades", "Hunter")] == ("toggle", "no", "+75")
        assert rows[1][("wargear", "Dreadnought", "Power Fist and Assault Cannon")][:2] == ("step", "1")
        assert rows[3][("upgrades", "Sniper")] == ("toggle", "yes", "+50")
        assert rows[4][("upgrades", "Tornado/Typhoon", "Typhoon")] == ("step", "2", "+25 each")
        assert rows[7][("count",)] == ("step", "1", "1: 275 / 2: 500")
        # only what the formation may take: a Strike Cruiser offers the Battle Barge and nothing else
        assert list(rows[5]) == [("upgrades", "Battle Barge")]

    run(app, scenario)


def test_datasheets_help_and_palette(catalog):
    app = demo_app(catalog)

    async def scenario(pilot) -> None:
        await keys(pilot, "v")
        assert isinstance(app.screen, DatasheetScreen)
        assert app.screen.query_one("#sheet").border_title == "Tactical"  # the first unit of #1 Tactical
        await keys(pilot, "escape", "f1")
        assert isinstance(app.screen, HelpScreen)
        await keys(pilot, "escape", "ctrl+p", "=add scout")
        await pilot.pause(0.3)
        await keys(pilot, "enter")
        assert app.history.current.formations[-1].type == "Scout"

    run(app, scenario)


def test_print_writes_a_pdf(catalog, tmp_path, monkeypatch):
    pytest.importorskip("listbuilder.report.pdf")
    monkeypatch.chdir(tmp_path)
    app = demo_app(catalog)
    target = tmp_path / "ultramarines-2nd-company.pdf"  # suggested from the roster's name

    async def scenario(pilot) -> None:
        await keys(pilot, "ctrl+e")
        assert isinstance(app.screen, PathScreen)
        await keys(pilot, "enter")

    run(app, scenario)
    assert target.read_bytes().startswith(b"%PDF")


def test_print_says_so_when_printing_is_unavailable(catalog, monkeypatch):
    monkeypatch.setitem(sys.modules, "listbuilder.report.pdf", None)  # importing it now fails
    app = demo_app(catalog)

    async def scenario(pilot) -> None:
        await keys(pilot, "ctrl+e")
        assert not isinstance(app.screen, PathScreen)
        assert any("Printing is unavailable" in n.message for n in app._notifications)

    run(app, scenario)


def test_cli_new_refuses_unknown_names_and_bare_command_checks_the_demo_without_a_terminal(capsys, tmp_path):
    assert main(["new", "--army", "no-such-army", "--points", "3000"]) == 2
    assert "unknown army 'no-such-army'" in capsys.readouterr().err
    existing = tmp_path / "taken.yaml"
    existing.write_text("x")
    assert main(["new", str(existing)]) == 2
    assert "exists" in capsys.readouterr().err
    assert main([]) == 0  # under pytest there is no terminal: the demo roster is checked
    assert "LEGAL" in capsys.readouterr().out


def test_new_with_everything_given_starts_editing_at_once(catalog, tmp_path):
    app = new_roster_app(catalog, tmp_path / "new.yaml", "epic-armageddon", "Space Marines – Codex Astartes", 2500)
    assert isinstance(app, EditorApp) and app.ask_new is None
    assert app.dirty  # not on disk yet: quitting asks first
    assert app.history.current == Roster(game="epic-armageddon", army="codex-astartes", points=2500)


def test_label_points_and_an_unknown_formation(catalog, tmp_path):
    path = tmp_path / "typo.yaml"
    path.write_text(HAND_WRITTEN.replace("type: Scout", "type: Scouts"))
    roster_file = read_roster(path, catalog, round_trip=True)
    app = EditorApp(catalog, roster_file.roster, document=roster_file.document, path=path)

    async def scenario(pilot) -> None:
        await keys(pilot, "l", "=Hale's men", "enter")
        assert app.history.current.formations[0].label == "Hale's men"
        await keys(pilot, "r", "tab", "=2000", "enter")
        assert app.history.current.points == 2000
        await keys(pilot, "down")
        summary = str(app.main.query_one("#summary").render())
        assert "Unknown formation" in summary and "did you mean 'Scout'?" in summary
        assert any("'Scouts' is not a formation" in m for m in shown_findings(app))
        await keys(pilot, "x")
        assert [f.type for f in app.history.current.formations] == ["Tactical"]
        assert shown_findings(app) == []

    run(app, scenario)


def test_checks_in_the_worker_show_the_latest_roster(catalog):
    app = demo_app(catalog)
    app.inline_check_ms = 0.0  # as if checking were slow: every edit is checked in the worker thread

    async def scenario(pilot) -> None:
        await pilot.press("d", "d", "d")  # three copies of #1, with its Supreme Commander
        await settle(pilot)
        assert app.main.result.roster is app.history.current
        assert len(app.history.current.formations) == 11
        shown = app.main.query_one(FindingsList).findings
        assert {f.code for f in shown} == {"limit-exceeded", "points-over-limit"}
        assert "Supreme Commander" in shown[0].message and "4" in shown[0].message

    run(app, scenario)


def test_the_mouse_does_what_the_keys_do(catalog):
    app = demo_app(catalog)

    async def scenario(pilot) -> None:
        # below the border, the third line (#1's label goes on over the second): #2 Tactical
        await pilot.click("#formations", offset=(4, 3))
        await settle(pilot)
        assert app.main.selected == 1
        row = next(r for r in app.main.query(KnobRow) if r.key == ("upgrades", "Dreadnought"))
        start, end = row._value_columns
        await pilot.click(row, offset=(start, 0))  # on [-]
        await settle(pilot)
        assert app.history.current.formations[1].upgrades["Dreadnought"] == 1
        await pilot.click(row, offset=(end - 1, 0))  # on [+]
        await settle(pilot)
        assert app.history.current.formations[1].upgrades["Dreadnought"] == 2
        row = next(r for r in app.main.query(KnobRow) if r.key == ("upgrades", "Hunter"))
        row.scroll_visible(animate=False)  # below the fold at 80×24: "(wargear not chosen)" above grew
        await settle(pilot)
        await pilot.click(row, offset=(sum(row._value_columns) // 2, 0))  # on the box: refused as space is
        await settle(pilot)
        assert "Hunter" not in app.history.current.formations[1].upgrades  # a Drop Pod carries no Hunter
        assert any("Drop Pod" in n.message for n in app._notifications)

    run(app, scenario)


def test_open_asks_about_unsaved_changes_then_loads_the_file(catalog, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "friday.yaml").write_text(HAND_WRITTEN)
    (tmp_path / "broken.yaml").write_text("game: epic-armageddon\narmy: codex-astartes\npoints: lots\n")
    app = demo_app(catalog)

    async def scenario(pilot) -> None:
        await keys(pilot, "x", "ctrl+o")
        assert isinstance(app.screen, AskScreen)
        await keys(pilot, "d")  # don't save the demo's changes
        assert isinstance(app.screen, PathScreen)
        await keys(pilot, "=broken.yaml", "enter")  # unreadable: said so, nothing changes
        assert app.demo == DEMO_ROSTER and any("cannot be read" in n.message for n in app._notifications)
        await keys(pilot, "ctrl+o", "d", "=friday.yaml", "enter")  # still unsaved: asked again
        assert app.path is not None and app.path.resolve() == (tmp_path / "friday.yaml").resolve()
        assert app.history.current.name == "Test company" and not app.dirty and app.demo is None
        assert not app.history.can_undo

    run(app, scenario)


def test_things_bought_for_the_army_are_added_and_removed_by_keys(catalog, tmp_path):
    # Biel-Tan (lists/epic-armageddon/biel-tan.yaml): a Wraithgate costs 50 points, 0-1 per army.
    app = new_roster_app(catalog, tmp_path / "gate.yaml", "epic-armageddon", "biel-tan", 2000)
    assert isinstance(app, EditorApp)

    async def scenario(pilot) -> None:
        await keys(pilot, "b", "enter")
        assert app.history.current.purchases == {"Wraithgate": 1}
        assert app.main.result.total == 50
        await keys(pilot, "b", "enter")  # at the most: the only choice left is to remove it
        assert app.history.current.purchases == {}
        await keys(pilot, "ctrl+z")
        assert app.history.current.purchases == {"Wraithgate": 1}

    run(app, scenario)


def test_buying_is_hidden_for_a_list_that_buys_nothing_army_wide(catalog):
    app = demo_app(catalog)

    async def scenario(pilot) -> None:
        assert app.main.check_action("buy", ()) is False

    run(app, scenario)


def test_an_ork_warband_made_big_and_a_chaos_retinue_given_its_power_by_keys(catalog, tmp_path):
    # ghazghkull-warhorde.yaml: a Warband is 200, big 350; Warlord free (hosts_in_order).
    app = new_roster_app(catalog, tmp_path / "orks.yaml", "epic-armageddon", "ghazghkull-warhorde", 2000)
    assert isinstance(app, EditorApp)

    async def scenario(pilot) -> None:
        await keys(pilot, "a", "=warband", "enter", "enter")
        assert focused_knob(app) == ("size",)
        await keys(pilot, "enter", "=big", "enter")
        assert app.history.current.formations[0].size == "big"
        assert app.main.result.formations[0].points == 350
        assert app.main.result.formations[0].derived["units"] == 20   # 4 Nobz, 12 Boyz, 4 Grotz

    run(app, scenario)

    # black-legion.yaml: a Retinue must declare its power.
    chaos = new_roster_app(catalog, tmp_path / "chaos.yaml", "epic-armageddon", "black-legion", 2000)
    assert isinstance(chaos, EditorApp)

    async def declare(pilot) -> None:
        await keys(pilot, "a", "=black legion ret", "enter", "enter")
        assert focused_knob(chaos) == ("faction",)
        assert any("declare its faction" in m for m in shown_findings(chaos))
        await keys(pilot, "enter", "=khorne", "enter")
        assert chaos.history.current.formations[0].faction == "Khorne"
        assert not any("declare its faction" in m for m in shown_findings(chaos))

    run(chaos, declare)

"""The editor on Epic Remastered rosters, driven by keys through Textual's Pilot (80×24): add
detachments and units, transports, HQ choice, derived data sheets, save."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from textual.pilot import Pilot

from listbuilder.games.epic_remastered.models import ErRoster
from listbuilder.rosters.files import read_roster
from listbuilder.tui.app import EditorApp, new_roster_app
from listbuilder.tui.games.epic_remastered import ErScreen, SheetsScreen
from listbuilder.tui.widgets.roster_view import FindingsList

from .test_tui import keys, palette, run, tolerant_idle  # noqa: F401  (the fixture applies here too)

ROSTERS = Path(__file__).resolve().parent / "epic-remastered-rosters"


def details(pilot: Pilot) -> str:
    """The right-hand panel as plain text, one long line per row."""
    console = Console(width=300, record=True, file=io.StringIO())
    console.print(pilot.app.screen.details)
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def test_build_force_gadrel_from_nothing_and_save_it(catalog, tmp_path):
    path = tmp_path / "gadrel.yaml"
    app = new_roster_app(catalog, path, "epic-remastered", "core-samples", None)
    assert isinstance(app, EditorApp)

    async def scenario(pilot: Pilot) -> None:
        assert isinstance(pilot.app.screen, ErScreen)
        await keys(pilot, "a", "=space marines detachment", "enter")
        await keys(pilot, "u", "=captain", "enter", "t", "down", "enter")  # with a Razorback
        await keys(pilot, "u", "=space marines", "enter")
        await keys(pilot, *["plus"] * 5, "t", "down", "enter")  # 6 Space Marines: 3 Rhinos, as many as they need
        await keys(pilot, "u", "=whirlwind", "enter", "plus", "r", "=Force Gadrel", "enter")
        result = pilot.app.result
        assert result.valid and result.findings == []
        assert result.detachments[0].derived["units"] == 13
        assert "13 units" not in details(pilot)  # a unit is selected: its data sheet is shown
        assert "Space Marine Whirlwind" in details(pilot)
        await keys(pilot, "ctrl+s")

    run(app, scenario)
    saved = read_roster(path, catalog).roster
    assert isinstance(saved, ErRoster) and saved.name == "Force Gadrel"
    units = saved.detachments[0].units
    assert [(u.unit, u.count, u.transport.unit if u.transport else None, u.transport.count if u.transport else None)
            for u in units] == [("Space Marine Captain", 1, "Space Marine Razorback", 1),
                                ("Space Marines", 6, "Space Marine Rhino", 3),
                                ("Space Marine Whirlwind", 2, None, None)]


def test_fewer_transports_than_the_cargo_needs_is_a_finding_then_undo(catalog):
    roster_file = read_roster(ROSTERS / "sample-detachments.yaml", catalog)
    app = EditorApp(catalog, roster_file.roster, document=roster_file.document)

    async def scenario(pilot: Pilot) -> None:
        await keys(pilot, "down", "down", "left_square_bracket")  # Force Gadrel's Marines: 2 Rhinos
        [finding] = pilot.app.result.findings
        assert finding.code == "transport-capacity"
        await keys(pilot, "ctrl+z")
        assert pilot.app.result.findings == []

    run(app, scenario)


def test_derived_data_sheets_and_the_hq_choice(catalog):
    roster = ErRoster(game="epic-remastered", army="core-samples", detachments=[
        {"type": "Imperial Guard detachment", "units": [{"unit": "Imperial Guard Command Squad"},
                                                        {"unit": "Imperial Guard Rough Riders", "count": 3}]},
        {"type": "Space Marines detachment", "units": [{"unit": "Space Marine Captain"},
                                                       {"unit": "Space Marine Librarian"}]},
    ])
    app = EditorApp(catalog, roster)

    async def scenario(pilot: Pilot) -> None:
        await keys(pilot, "down", "down")  # the Rough Riders: Example 28 (L2331-2338)
        shown = details(pilot)
        assert ("Base unit: Imperial Guard: Type INF · Speed 10/20 cm · Range 30 cm · FP 1 · Assault 1 · "
                "Armour 3+") in shown
        assert "+ Cavalry: Type VEH · Speed 20/30 cm" in shown
        assert ("= Imperial Guard Rough Riders: Type VEH · Speed 20/30 cm · Range 15 cm · FP 1 · Assault 2 · "
                "Armour 4+") in shown
        await keys(pilot, "up", "g", "enter")  # the Command Squad takes the Primaris Psyker
        assert pilot.app.history.current.detachments[0].units[0].upgrades == ["Primaris Psyker"]
        assert "Notes: Psyker" in details(pilot)
        await keys(pilot, "v")
        assert isinstance(pilot.app.screen, SheetsScreen)
        await keys(pilot, "escape", "down", "down", "h", "=librarian", "enter")  # the Space Marines detachment
        marines = pilot.app.result.detachments[1].derived
        assert (marines["hq"], marines["takes_over"]) == ("Space Marine Librarian", ["Space Marine Captain"])

    run(app, scenario)


def test_c_copies_the_epic_remastered_list_text(catalog):
    roster_file = read_roster(ROSTERS / "sample-detachments.yaml", catalog)
    app = EditorApp(catalog, roster_file.roster, document=roster_file.document)

    async def scenario(pilot: Pilot) -> None:
        await keys(pilot, "c")
        assert [n.message for n in pilot.app._notifications] == ["Copied the list as text (23 lines)"]
        assert pilot.app.clipboard.startswith("Example 2 detachments\nEpic Remastered — Core rules samples\n")
        assert "  6 × Space Marines, with 3 × Space Marine Rhino\n" in pilot.app.clipboard

    run(app, scenario)


def test_findings_name_the_entry_as_the_other_games_do_and_jump_to_it(catalog, tmp_path):
    """One findings list for every game: '✖ #1 Space Marines detachment › Pope: …', not the path
    `detachments.0.units.1.unit`; enter on a finding selects its unit line."""
    path = tmp_path / "pope.yaml"
    path.write_text("game: epic-remastered\narmy: core-samples\ndetachments:\n  - type: Space Marines detachment\n"
                    "    units:\n      - {unit: Space Marines, count: 2}\n      - {unit: Pope}\n", encoding="utf-8")
    roster_file = read_roster(path, catalog, round_trip=True)
    app = EditorApp(catalog, roster_file.roster, document=roster_file.document, path=path)

    async def scenario(pilot: Pilot) -> None:
        findings = pilot.app.screen.query_one(FindingsList)
        assert [str(o.prompt).partition(": ")[0] for o in findings.options] == [
            "✖ #1 Space Marines detachment › Pope", "✖ #1 Space Marines detachment"]
        assert str(findings.border_title) == "Findings · 2 errors"
        await keys(pilot, "up", "f", "enter")  # from the detachment's line to the finding about the Pope
        assert pilot.app.screen.row == (0, 1) and pilot.app.screen.query_one("#formations").has_focus
        await keys(pilot, "f", "down", "enter")
        assert pilot.app.screen.row == (0, None)

    run(app, scenario)


def test_the_palette_adds_a_detachment_goes_to_one_and_runs_a_hidden_action(catalog):
    roster_file = read_roster(ROSTERS / "sample-detachments.yaml", catalog)
    app = EditorApp(catalog, roster_file.roster, document=roster_file.document)

    async def scenario(pilot: Pilot) -> None:
        hits = await palette(pilot, "add armoured", "Add Space Marines Armoured detachment")
        assert hits[0][1].startswith("Space Marine Captain, ")  # the units its list offers
        await keys(pilot, "enter")
        assert [d.type for d in pilot.app.history.current.detachments][3:] == ["Space Marines Armoured detachment"]
        assert pilot.app.screen.row == (3, None)
        hits = await palette(pilot, "go to #2", "Go to #2 Space Marines detachment")
        assert hits[0][1] == "Force Cantro"
        await keys(pilot, "enter")
        assert pilot.app.screen.row == (1, None)
        offered = {title for title, _ in await palette(pilot, "", "Help", first=False)}  # a detachment's actions
        assert {"Label", "Name", "Open", "Print PDF", "Help"} <= offered and "More transports" not in offered
        await keys(pilot, "escape")
        await palette(pilot, "label", "Label")
        await keys(pilot, "enter", "ctrl+a", "ctrl+k", "=Force Borras", "enter")
        assert pilot.app.history.current.detachments[1].label == "Force Borras"

    run(app, scenario)


def test_new_epic_remastered_roster_opens_over_an_empty_roster_of_its_own_game(catalog):
    """`new --game epic-remastered` asked for the army over an Epic Armageddon roster showing
    '✖ 1 error'; behind the dialog is now an empty Epic Remastered roster, without findings."""
    app = new_roster_app(catalog, None, "epic-remastered", None, None)
    assert isinstance(app, EditorApp) and app.ask_new == ("epic-remastered", None, None)
    assert app.history.current.game == "epic-remastered"

    async def scenario(pilot: Pilot) -> None:
        await pilot.pause()
        behind = pilot.app.screen_stack[-2]
        assert isinstance(behind, ErScreen)
        status = str(behind.query_one("#status").render())
        assert "error" not in status and "(__)" not in status
        assert "Strategy Rating: not given by the army list" in status

    run(app, scenario)

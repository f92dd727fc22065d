"""Names the user wrote (file names, roster names, labels, unit and detachment names) show in the
editor as written: Textual markup in them (`[bold]x.yaml`, `a[b].yaml`, a stray `[/bold]`) is
neither applied nor able to crash the editor. Driven through Textual's Pilot."""

from __future__ import annotations

import html
import re

from textual.command import CommandList

from listbuilder.listengine.catalog import Catalog
from listbuilder.rosters.files import read_roster
from listbuilder.tui.app import EditorApp
from listbuilder.tui.games.epic_remastered import ErScreen
from listbuilder.tui.screens.dialogs import AskScreen, PathScreen

from .test_tui import keys, run, tolerant_idle  # noqa: F401 (the fixture applies here too)

LABEL = "[/bold]Alpha [b]"  # an unmatched closing tag: markup would raise on it


def screen_text(app: EditorApp) -> str:
    """What the terminal shows, as text."""
    svg = app.export_screenshot()
    return html.unescape("".join(re.findall(r">([^<>]*)</text>", svg))).replace("\xa0", " ")


async def shows(pilot, text: str) -> bool:
    """Whether `text` is on screen within a second (the command palette searches in the background)."""
    for _ in range(20):
        if text in screen_text(pilot.app):
            return True
        await pilot.pause(0.05)
    return False


def opened(catalog, path, text: str) -> EditorApp:
    path.write_text(text, encoding="utf-8")
    roster_file = read_roster(path, catalog, round_trip=True)
    return EditorApp(catalog, roster_file.roster, document=roster_file.document, path=path)


def test_epic_file_names_and_labels_show_as_written(catalog, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a[b].yaml").write_text("taken\n")
    app = opened(catalog, tmp_path / "[bold]x.yaml", "game: epic-armageddon\narmy: codex-astartes\npoints: 3000\n"
                 f"name: '[bold]Company'\nformations:\n  - type: Tactical\n    label: '{LABEL}'\n")

    async def scenario(pilot) -> None:
        shown = screen_text(app)
        assert "[bold]Company" in shown and "[bold]x.yaml" in shown and f"Tactical “{LABEL}”" in shown
        await keys(pilot, "ctrl+p", "=go to")  # the command palette: each formation with its label
        assert await shows(pilot, f"#1 Tactical\n{LABEL}\n")  # the label alone on the line under it
        await keys(pilot, "escape", "ctrl+w", "ctrl+a", "ctrl+k", "=a[b].yaml", "enter")
        assert isinstance(app.screen, AskScreen)
        assert "a[b].yaml exists. Replace it?" in screen_text(app)
        await keys(pilot, "escape", "ctrl+o")
        assert isinstance(app.screen, PathScreen) and "[bold]x.yaml" in screen_text(app)  # the file tree
        await keys(pilot, "ctrl+a", "ctrl+k", "=[bold]gone.yaml", "enter")
        assert "There is no file [bold]gone.yaml." in screen_text(app)

    run(app, scenario, size=(120, 40))


def test_epic_remastered_details_and_findings_show_names_as_written(catalog, tmp_path):
    app = opened(catalog, tmp_path / "a[b].yaml", "game: epic-remastered\narmy: core-samples\ndetachments:\n"
                 f"  - type: Space Marines detachment\n    label: '{LABEL}'\n    units:\n"
                 "      - {unit: Space Marines, count: 2}\n      - {unit: '[bold]Pope'}\n")

    async def scenario(pilot) -> None:
        assert isinstance(app.screen, ErScreen)
        shown = screen_text(app)
        assert f"{LABEL} (Space Marines detachment)" in shown  # the detachment's details
        assert "no data sheet for '[bold]Pope'" in shown  # its finding
        await keys(pilot, "down", "down")
        assert "no data sheet for [bold]Pope" in screen_text(app)  # the unit's details

    run(app, scenario, size=(120, 40))


def test_a_40k_detachment_shows_as_written_on_the_units_border(bsdata, tmp_path):
    catalog = Catalog(installed={"wh40k-10e": bsdata.catalog})
    app = opened(catalog, tmp_path / "[b]army.yaml", "game: wh40k-10e\nfaction: Space Marines\n"
                 "battle_size: Incursion\ndetachment: '[/bold]Gladius'\nunits:\n  - type: Captain\n")

    async def scenario(pilot) -> None:
        assert "Units · [/bold]Gladius" in screen_text(app)

    run(app, scenario, size=(120, 40))


def test_the_palette_highlights_the_letters_matched_in_a_name_with_brackets(catalog, tmp_path):
    """The palette shows a name as written and highlights the very letters the query matched: on
    `Go to #2 [b]Tactical`, `tac` lights `T`, `a`, `c` of `Tactical`, not the letters after them."""
    app = opened(catalog, tmp_path / "army.yaml", "game: epic-armageddon\narmy: codex-astartes\npoints: 3000\n"
                 "formations:\n  - type: Tactical\n  - type: '[b]Tactical'\n")

    async def scenario(pilot) -> None:
        await keys(pilot, "ctrl+p", "=#2 tac")
        assert await shows(pilot, "Go to #2 [b]Tactical")
        prompt = pilot.app.screen.query_one(CommandList).get_option_at_index(0).prompt
        assert [str(prompt)[span.start:span.end] for span in prompt.spans] == ["#", "2", "T", "a", "c"]

    run(app, scenario, size=(120, 40))

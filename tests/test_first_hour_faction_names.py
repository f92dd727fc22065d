"""40k faction names (D42) and changing the faction in the editor (D43), issue 30: the editor and
`new` write the name `import` writes ('Space Marines'), a roster with the catalogue's whole name
still loads, and every view shows the short name; `F` asks before moving units to a faction that
has no datasheet for them, keeps them, resets the detachment, and one ctrl+z undoes it all. The
editor's header keeps the Warlord and detachment on screen at 80x24."""

from __future__ import annotations

import csv
import io
import json
import subprocess

import pytest

from listbuilder.cli import main
from listbuilder.listengine.catalog import Catalog
from listbuilder.rosters.files import parse_roster
from listbuilder.tui.app import EditorApp, new_roster_app
from listbuilder.tui.screens.dialogs import AskScreen

from .test_tui import keys, run, tolerant_idle  # noqa: F401 (the fixture applies here too)
from .test_tui_80x24 import screen_text

LONG = "Imperium - Adeptus Astartes - Space Marines"
ROSTER = (f"game: wh40k-10e\nfaction: {LONG}\nbattle_size: Strike Force\nname: Hale's Company\n"
          "detachment: Gladius Task Force\nunits:\n  - {type: Captain, warlord: true}\n  - {type: Intercessor Squad}\n")


@pytest.fixture(scope="module")
def catalog(bsdata):
    return Catalog(installed={"wh40k-10e": bsdata.catalog})


def test_new_and_the_faction_chooser_write_the_name_import_writes(catalog, tmp_path):
    app = new_roster_app(catalog, tmp_path / "n.yaml", "wh40k-10e", LONG, None)
    assert isinstance(app, EditorApp) and app.history.current.faction == "Space Marines"
    empty = parse_roster(ROSTER.split("units:")[0], "army.yaml", catalog).roster
    app = EditorApp(catalog, empty, unsaved=True)

    async def scenario(pilot):
        await keys(pilot, "F", "=t'au", "enter")  # no units: nothing to ask
        assert (app.history.current.faction, app.history.current.detachment) == ("T'au Empire", "Kauyon")
        assert "T'au Empire" in screen_text(app).splitlines()[0] and "Xenos" not in screen_text(app)

    run(app, scenario)


def test_a_long_name_loads_and_every_report_shows_the_short_name(bsdata_installed, tmp_path, capsys):
    folder = tmp_path / "event"
    folder.mkdir()
    (folder / "hale.yaml").write_text(ROSTER, encoding="utf-8")
    shown = {}
    for form in ("text", "csv", "json", "html"):
        assert main(["check", str(folder), "--format", form]) == 0
        shown[form] = capsys.readouterr().out
    assert "hale.yaml: LEGAL — Hale's Company (Space Marines)" in shown["text"]
    [row] = csv.DictReader(io.StringIO(shown["csv"].lstrip("\ufeff")))
    assert row["army"] == "Space Marines"
    assert "(Space Marines, Warhammer 40,000 10th edition)" in shown["html"]
    assert json.loads(shown["json"])["rosters"][0]["army_name"] == "Space Marines"
    assert main(["print", str(folder / "hale.yaml"), "-o", str(tmp_path / "hale.pdf")]) == 0
    pdf = subprocess.run(["pdftotext", "-l", "1", str(tmp_path / "hale.pdf"), "-"], capture_output=True,
                         text=True, check=True).stdout
    assert "Space Marines" in pdf
    assert not any(LONG in text for text in [pdf, *shown.values()])


def test_changing_the_faction_asks_keeps_the_units_and_undoes(catalog):
    roster = parse_roster(ROSTER, "army.yaml", catalog).roster
    app = EditorApp(catalog, roster, unsaved=True)

    async def scenario(pilot):
        await keys(pilot, "F", "=necrons", "enter")
        assert isinstance(app.screen, AskScreen)
        assert app.screen.question == (
            "Change the faction to Necrons? No unit is a datasheet of Necrons: kept in the roster, marked as errors, "
            "for you to replace or remove. The detachment becomes Awakened Dynasty. (ctrl+z undoes it.)")
        await keys(pilot, "n")
        assert app.history.current == roster
        await keys(pilot, "F", "=necrons", "enter", "y")
        changed = app.history.current
        assert (changed.faction, changed.detachment, changed.units) == ("Necrons", "Awakened Dynasty", roster.units)
        assert [f.code for f in app.result.findings if f.severity == "error"][:2] == ["unknown-unit"] * 2
        await keys(pilot, "F", "=ultramarines", "enter", "y")  # a chapter: both units are its datasheets
        assert app.history.current.detachment == "Gladius Task Force" and app.result.valid
        await keys(pilot, "ctrl+z", "ctrl+z")
        assert app.history.current == roster

    run(app, scenario)


def test_a_chapter_keeps_the_detachment_it_shares_and_the_question_names_the_strays(catalog):
    roster = parse_roster(ROSTER + "  - {type: Necron Warriors}\n", "army.yaml", catalog).roster
    app = EditorApp(catalog, roster, unsaved=True)

    async def scenario(pilot):
        await keys(pilot, "F", "=ultramarines", "enter")
        assert app.screen.question == (
            "Change the faction to Ultramarines? 1 of the 3 units (#3) is not a datasheet of Ultramarines: kept in "
            "the roster, marked as errors, for you to replace or remove. The detachment stays Gladius Task Force. "
            "(ctrl+z undoes it.)")
        await keys(pilot, "y")
        assert (app.history.current.faction, app.history.current.detachment) == ("Ultramarines", "Gladius Task Force")
        assert [f.code for f in app.result.findings if f.severity == "error"] == ["unknown-unit"]

    run(app, scenario)


def test_the_header_shows_the_warlord_and_detachment_at_80x24(catalog):
    """Long names wrap the army's line onto a third line rather than cut the Warlord and detachment."""
    text = ROSTER.replace("Gladius Task Force", "Veiled Blade Elimination Force").replace(
        "{type: Captain, warlord: true}", "{type: Librarian in Terminator Armour, warlord: true}")
    app = EditorApp(catalog, parse_roster(text, "army.yaml", catalog).roster, unsaved=True)

    async def scenario(pilot):
        header = screen_text(app).splitlines()[2:4]
        assert all(len(line.rstrip()) < 80 for line in header)
        words = " ".join(line.strip() for line in header)
        assert words == ("Veiled Blade Elimination Force · Warlord #1 Librarian in Terminator Armour · Strike "
                         "Force · Reserves 0 / 500")

    run(app, scenario)

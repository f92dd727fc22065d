"""A stranger's roster opened in the editor (issue 30): names and labels holding OSC 52 (set the
clipboard), OSC 0 (retitle the terminal), a C1 CSI and bidi overrides reach no line the editor
draws, on any screen or dialog of any game. Driven through Textual's Pilot."""

from __future__ import annotations

from listbuilder.listengine.catalog import Catalog
from listbuilder.rosters.files import read_roster
from listbuilder.tui.app import EditorApp
from listbuilder.tui.games.epic_remastered import ErScreen
from listbuilder.tui.screens.dialogs import AskScreen

from .test_tui import keys, run, tolerant_idle  # noqa: F401 (the fixture applies here too)

CLIPBOARD, RETITLE, CSI, BIDI = "\\e]52;c;aGFjaw==\\a", "\\e]0;pwned\\a", "\\x9b31m", "\\u202e\\u2066"
EVIL = f"{CLIPBOARD}{RETITLE}{CSI}{BIDI}"  # as YAML writes it in double quotes
RAW = ["\x1b", "\x07", "\x9b", "\x9d", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067",
       "\u2068", "\u2069"]


def drawn(app: EditorApp) -> str:
    """Every line the top screen draws, as it goes to the terminal (styles aside)."""
    app.screen.refresh(layout=True)
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def raw(text: str) -> list[str]:
    return [c for c in RAW if c in text]


def opened(catalog, path, text: str) -> EditorApp:
    path.write_text(text, encoding="utf-8")
    roster_file = read_roster(path, catalog, round_trip=True)
    return EditorApp(catalog, roster_file.roster, document=roster_file.document, path=path)


def test_epic_names_and_labels_reach_no_line_raw(catalog, tmp_path):
    app = opened(catalog, tmp_path / "evil.yaml", "game: epic-armageddon\narmy: codex-astartes\npoints: 3000\n"
                 f'name: "Co{EVIL}"\nformations:\n  - type: Tactical\n    label: "L1{EVIL}"\n'
                 f'  - type: Scout\n    label: "L2{RETITLE}"\n')
    seen: list[str] = []

    async def scenario(pilot) -> None:
        shown = drawn(app)
        assert "Co" in shown and "L1" in shown and "L2" in shown  # the title bar, the roster, the formation
        assert " Co\\u001b]52;c;aGFjaw==\\u0007\\u001b]0;pwned\\u0007\\u009b31m\\u202e\\u2066 · " in shown  # escaped
        assert "Scout “L2\\u001b]0;pwned\\u0007”" in shown
        seen.append(shown)
        await keys(pilot, "enter")  # the formation's editor
        seen.append(drawn(app))
        await keys(pilot, "escape", "l")  # its label, in a text field
        assert "L1" in drawn(app)
        seen.append(drawn(app))
        await keys(pilot, "escape", "r")  # the roster's name and points
        seen.append(drawn(app))
        await keys(pilot, "escape", "ctrl+p", "=go to")  # the command palette: each formation and its label
        await pilot.pause(0.3)
        assert "L1" in drawn(app)
        seen.append(drawn(app))
        await keys(pilot, "escape", "x", "ctrl+q")  # an edit, then quit: the name in the question
        assert isinstance(app.screen, AskScreen) and "Co" in drawn(app)
        seen.append(drawn(app))
        await keys(pilot, "escape")

    run(app, scenario, size=(120, 40))
    assert [raw(shown) for shown in seen] == [[]] * len(seen)


def test_epic_remastered_details_and_findings_reach_no_line_raw(catalog, tmp_path):
    app = opened(catalog, tmp_path / "evil.yaml", "game: epic-remastered\narmy: core-samples\n"
                 f'name: "Co{EVIL}"\ndetachments:\n  - type: Space Marines detachment\n    label: "L1{EVIL}"\n'
                 f'    units:\n      - {{unit: Space Marines, count: 2}}\n      - {{unit: "U{EVIL}"}}\n')
    seen: list[str] = []

    async def scenario(pilot) -> None:
        assert isinstance(app.screen, ErScreen)
        shown = drawn(app)
        assert "for 'U\\u001b]52;c;aGFjaw==\\u0007" in shown  # its finding names the unit, escaped
        seen.append(shown)
        await keys(pilot, "down", "down")  # the unit's details
        seen.append(drawn(app))

    run(app, scenario, size=(120, 40))
    assert [raw(shown) for shown in seen] == [[]] * len(seen)


def test_a_40k_roster_reaches_no_line_raw(bsdata, tmp_path):
    catalog = Catalog(installed={"wh40k-10e": bsdata.catalog})
    app = opened(catalog, tmp_path / "evil.yaml", "game: wh40k-10e\nfaction: Space Marines\n"
                 f'battle_size: Incursion\nname: "Co{EVIL}"\ndetachment: "D{EVIL}"\nunits:\n  - type: Captain\n')

    async def scenario(pilot) -> None:
        shown = drawn(app)
        assert "Units · D\\u001b]52;c;aGFjaw==\\u0007" in shown
        assert raw(shown) == []

    run(app, scenario, size=(120, 40))

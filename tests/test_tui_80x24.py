"""The Epic Armageddon editor at 80×24 and 120×40 (issue 30): the setting in focus stays in view,
rows and help fit, options that cannot be legal are dimmed with the reason, undo takes a run of
presses at once, toasts leave the points bar alone, `d` gives the copy a label of its own, and an
empty roster says so. Pilot, headless. Formations, upgrades and points are those of
lists/epic-armageddon/steel-legion.yaml, codex-astartes.yaml and titan-legions.yaml."""

from __future__ import annotations

import asyncio

from textual.widget import Widget
from textual.widgets._toast import Toast

from listbuilder.listengine.roster import CharacterPick, Roster, RosterFormation
from listbuilder.tui.app import EditorApp
from listbuilder.tui.games.formation_editor import FormationEditor
from listbuilder.tui.screens.pick import FilteredList

from .test_tui import focused_knob, keys, run, settle, tolerant_idle  # noqa: F401 (the fixture applies here too)


def app_with(catalog, army: str, *formations: RosterFormation | str, points: int = 3000) -> EditorApp:
    entries = [RosterFormation(type=f) if isinstance(f, str) else f for f in formations]
    return EditorApp(catalog, Roster(game="epic-armageddon", army=army, points=points, formations=entries))


def screen_text(app: EditorApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def in_view(widget: Widget) -> bool:
    """Is all of `widget` on screen (not scrolled out of its container, not under another pane)?"""
    geometry = widget.screen.find_widget(widget)
    x, y = geometry.region.offset
    return geometry.visible_region == geometry.region and widget.screen.get_widget_at(x, y)[0] is widget


def test_a_finding_that_grows_the_findings_pane_leaves_the_setting_being_edited_in_view(catalog):
    """Fewer Chimeras than the company needs to ride (three, with an Infantry Platoon) raise a
    finding of three lines; the Chimeras row stays in view as the findings pane grows, and at each
    press after."""
    app = app_with(catalog, "steel-legion", "Mechanised Infantry Company")

    async def scenario(pilot) -> None:
        await keys(pilot, "enter", "down", "space", *["down"] * 8)
        assert focused_knob(app) == ("upgrades", "Chimeras")
        for findings in (1, 1, 0):
            await keys(pilot, "right")
            assert len(app.main.result.findings) == findings and in_view(app.focused)

    run(app, scenario)


def test_a_setting_found_by_the_add_browser_is_in_view_and_stays_there_once_taken(catalog):
    app = app_with(catalog, "steel-legion", "Mechanised Infantry Company")

    async def scenario(pilot) -> None:
        await keys(pilot, "a", "=hellhound squadron", "enter")
        assert focused_knob(app) == ("upgrades", "Hellhound Squadron") and in_view(app.focused)
        await keys(pilot, "space")  # three Hellhounds: the summary above grows a line
        assert app.main.result.total == 550 and in_view(app.focused)

    run(app, scenario)


def test_a_run_of_presses_on_one_setting_is_one_undo(catalog):
    """Seven presses of → on Chimeras are undone by one ctrl+z and redone by one ctrl+y; a press on
    another setting starts a new undo, and a run back where it started leaves nothing to undo."""
    app = app_with(catalog, "steel-legion", "Mechanised Infantry Company")
    start = app.history.current

    async def scenario(pilot) -> None:
        await keys(pilot, "enter", "down", "space")  # an Infantry Platoon, which Chimeras may carry
        await keys(pilot, *["down"] * 8, *["right"] * 7)
        assert app.history.current.formations[0].upgrades == {"Infantry Platoon": 6, "Chimeras": 7}
        await keys(pilot, "ctrl+z")
        assert app.history.current.formations[0].upgrades == {"Infantry Platoon": 6}
        await keys(pilot, "ctrl+y")
        assert app.history.current.formations[0].upgrades == {"Infantry Platoon": 6, "Chimeras": 7}
        await keys(pilot, "ctrl+z", "ctrl+z")
        assert app.history.current == start and not app.history.can_undo
        await keys(pilot, "down", "space", "space")  # Flak on and off again
        assert app.history.current == start and not app.history.can_undo

    run(app, scenario)


def test_toasts_never_cover_the_points_bar(catalog):
    """Seven undos in a row: each says what it undid, and the newest replaces the one before."""
    app = app_with(catalog, "codex-astartes", "Tactical")

    async def scenario() -> None:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:  # toasts are drawn
            await pilot.press(*["d"] * 7, *["ctrl+z"] * 7)  # at once: undo's toasts last 2 s
            await settle(pilot)
            assert len(app.history.current.formations) == 1 and app.screen.query(Toast)
            status = app.main.query_one("#status")
            for y in range(status.region.y, status.region.bottom):
                for x in range(status.region.x, status.region.right):
                    assert app.screen.get_widget_at(x, y)[0] is status, (x, y)

    asyncio.run(scenario())


def test_d_gives_the_copy_of_a_labelled_formation_a_label_of_its_own(catalog):
    app = app_with(catalog, "codex-astartes", RosterFormation(type="Tactical", label="Hale"), "Scout")

    async def scenario(pilot) -> None:
        await keys(pilot, "d", "d")
        assert [f.label for f in app.history.current.formations] == ["Hale", "Hale 2", "Hale 3", None]
        await keys(pilot, "down", "d")  # an unlabelled formation's copy stays unlabelled
        assert [f.label for f in app.history.current.formations] == ["Hale", "Hale 2", "Hale 3", None, None]

    run(app, scenario)


def test_an_empty_roster_says_it_is_empty_not_legal(catalog):
    app = app_with(catalog, "codex-astartes")

    async def scenario(pilot) -> None:
        shown = screen_text(app)
        assert "legal" not in shown and "0 / 3,000 pts" in shown
        assert "empty" in shown.splitlines()[1] and "The roster is empty: nothing to check yet." in shown
        await keys(pilot, "a", "=scout", "enter")
        shown = screen_text(app)
        assert "✔ legal" in shown.splitlines()[1] and "· 1 activation " in shown  # one, not "1 activations"
        assert "6 units · initiative" in shown
        await keys(pilot, "a", "=thunderh", "enter")  # a Thunderhawk: one unit
        assert "· 2 activations " in screen_text(app) and "1 unit · initiative" in screen_text(app)

    run(app, scenario)


def choices_shown(app: EditorApp) -> dict[str, bool]:
    """The open picker's items: label and whether it can be chosen."""
    return {item.name: not item.disabled for item in app.screen.query_one(FilteredList).shown}


def test_a_second_supreme_commander_is_dimmed_with_the_reason(catalog):
    """codex-astartes.yaml: a Supreme Commander is 0-1 per army; with one in #1, #2's Commander
    offers the Captain and the others but not a second Supreme Commander."""
    leader = {"Commander": CharacterPick(character="Supreme Commander", joins="Tactical")}
    app = app_with(catalog, "codex-astartes", RosterFormation(type="Tactical", upgrades=leader), "Tactical")

    async def scenario(pilot) -> None:
        app.main.select_formation(1, ("upgrades", "Commander", "character"))
        await keys(pilot, "enter")
        assert choices_shown(app) == {"none": True, "Captain": True, "Librarian": True, "Chaplain": True,
                                      "Supreme Commander": False}
        assert "at most 1" in screen_text(app)
        app.main.select_formation(0, ("upgrades", "Commander", "character"))  # its own may stay
        await keys(pilot, "escape", "enter")
        assert choices_shown(app)["Supreme Commander"]

    run(app, scenario)


def test_a_drop_pod_for_a_tactical_detachment_with_a_hunter_is_dimmed(catalog):
    app = app_with(catalog, "codex-astartes", RosterFormation(type="Tactical", upgrades={"Hunter": True}))

    async def scenario(pilot) -> None:
        await keys(pilot, "enter", "enter")  # the transport
        assert choices_shown(app) == {"Rhino": True, "on foot": True, "Drop Pod": False}
        assert "Hunter" in screen_text(app)
        await keys(pilot, "=drop", "enter")
        assert app.history.current.formations[0].transport is None  # nothing to choose

    run(app, scenario)


def test_chimeras_without_the_upgrade_they_carry_are_dimmed_and_refused_with_the_reason(catalog):
    """steel-legion.yaml: Chimeras need a Fire Support, Infantry, Sniper or Ogryn upgrade; the row
    is dimmed until the company takes one, → on it says why, and then they may be bought."""
    app = app_with(catalog, "steel-legion", "Mechanised Infantry Company")

    async def scenario(pilot) -> None:
        await keys(pilot, "enter", *["down"] * 9)
        chimeras = app.focused
        assert focused_knob(app) == ("upgrades", "Chimeras") and chimeras.has_class("-unavailable")
        assert "needs one of these too: Fire Support Platoon" in chimeras.knob.reason
        start = app.history.current
        await keys(pilot, "right")
        assert app.history.current == start
        assert any("Fire Support Platoon" in n.message for n in app._notifications)
        app.main.select_formation(0, ("upgrades", "Ogryns"))
        await keys(pilot, "space", *["down"] * 2)
        assert app.focused is chimeras and not chimeras.has_class("-unavailable")
        await keys(pilot, "right")
        assert app.history.current.formations[0].upgrades == {"Ogryns": 2, "Chimeras": 1}

    run(app, scenario)


def hint(app: EditorApp) -> str:
    """The help and datasheets under the settings, as one line."""
    return " ".join(app.main.query_one("#hint").render().plain.split())


def rows_in_view(app: EditorApp) -> list[str]:
    """The settings fully on screen, by name, top to bottom."""
    return [" ".join(row.key[1:] or row.key) for row in app.main.query_one(FormationEditor).rows if in_view(row)]


def test_at_80x24_a_company_shows_its_name_and_seven_settings_named_in_full(catalog):
    """A Mechanised Infantry Company's first setting in focus: the formation's name and units stay
    above, seven settings fit beside them, names whole ('Fire Support Platoon', 'Tank Squadron'
    with 'Leman Russ'), and the help of the setting in focus below."""
    app = app_with(catalog, "steel-legion", "Mechanised Infantry Company")

    async def scenario(pilot) -> None:
        await keys(pilot, "enter")
        shown = screen_text(app)
        assert "Mechanised Infantry Company  400 pts" in shown and "1 Commander, 12 Infantry, 7 Chimera" in shown
        assert len(rows_in_view(app)) >= 7, rows_in_view(app)
        assert "Fire Support Platoon " in shown and "Hellhound Squadron " in shown
        assert "Tank Squadron  Leman Russ " in shown
        assert "Adds four Fire Support squads. [6.4 Steel Legion company upgrades]" in hint(app)
        await keys(pilot, "escape")  # back on the roster: the derived values are shown again
        assert "break point 20" in screen_text(app)

    run(app, scenario)


def test_a_settings_help_is_whole_at_120x40_and_cut_only_between_sentences_at_80x24(catalog):
    app = app_with(catalog, "steel-legion", RosterFormation(type="Mechanised Infantry Company",
                                                            upgrades={"Ogryns": 2}))
    help_text = next(u.summary for u in app.view.army.upgrades if u.name == "Chimeras")

    async def scenario(pilot) -> None:
        app.main.select_formation(0, ("upgrades", "Chimeras"))
        await settle(pilot)
        shown = hint(app)
        assert help_text in shown, shown

    run(app, scenario, size=(120, 40))

    async def narrow(pilot) -> None:
        pilot.app.main.select_formation(0, ("upgrades", "Chimeras"))
        await settle(pilot)
        shown = hint(pilot.app)
        assert shown.startswith("A company with Fire Support, Infantry, Sniper or Ogryn upgrades may buy Chimeras")
        assert ". …" in shown  # the sentences left out are marked, none cut in two

    run(app_with(catalog, "steel-legion", RosterFormation(type="Mechanised Infantry Company",
                                                          upgrades={"Ogryns": 2})), narrow)


def test_at_80x24_a_warhound_count_shows_both_prices_and_the_status_bar_its_activations(catalog):
    app = app_with(catalog, "steel-legion", *["Sentinel Squadron"] * 7, "Warhound Titans")

    async def scenario(pilot) -> None:
        app.main.select_formation(7, ("count",))
        await settle(pilot)
        shown = screen_text(app)
        assert "[-] 1 [+] 1: 275 / 2: 500" in shown
        assert "strategy 2 · 8 activations" in shown.splitlines()[2]

    run(app, scenario)

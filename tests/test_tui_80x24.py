"""The Epic Armageddon editor at 80×24 and 120×40 (issue 30): the setting in focus stays in view,
rows and help fit, options that cannot be legal are dimmed with the reason, undo takes a run of
presses at once, toasts leave the points bar alone, `d` gives the copy a label of its own, and an
empty roster says so. Pilot, headless. Formations, upgrades and points are those of
lists/epic-armageddon/steel-legion.yaml, codex-astartes.yaml and titan-legions.yaml."""

from __future__ import annotations

from textual.widget import Widget

from listbuilder.listengine.roster import Roster, RosterFormation
from listbuilder.tui.app import EditorApp

from .test_tui import focused_knob, keys, run, tolerant_idle  # noqa: F401 (the fixture applies here too)


def app_with(catalog, army: str, *formations: RosterFormation | str, points: int = 3000) -> EditorApp:
    entries = [RosterFormation(type=f) if isinstance(f, str) else f for f in formations]
    return EditorApp(catalog, Roster(game="epic-armageddon", army=army, points=points, formations=entries))


def in_view(widget: Widget) -> bool:
    """Is all of `widget` on screen (not scrolled out of its container, not under another pane)?"""
    geometry = widget.screen.find_widget(widget)
    x, y = geometry.region.offset
    return geometry.visible_region == geometry.region and widget.screen.get_widget_at(x, y)[0] is widget


def test_a_finding_that_grows_the_findings_pane_leaves_the_setting_being_edited_in_view(catalog):
    """Chimeras without the upgrade they need raise a finding of three lines; the Chimeras row
    stays in view as the findings pane grows, and at each press after."""
    app = app_with(catalog, "steel-legion", "Mechanised Infantry Company")

    async def scenario(pilot) -> None:
        await keys(pilot, "enter", *["down"] * 9)
        assert focused_knob(app) == ("upgrades", "Chimeras")
        for _ in range(3):
            await keys(pilot, "right")
            assert app.main.result.findings and in_view(app.focused)

    run(app, scenario)


def test_a_setting_found_by_the_add_browser_is_in_view_and_stays_there_once_taken(catalog):
    app = app_with(catalog, "steel-legion", "Mechanised Infantry Company")

    async def scenario(pilot) -> None:
        await keys(pilot, "a", "=hellhound squadron", "enter")
        assert focused_knob(app) == ("upgrades", "Hellhound Squadron") and in_view(app.focused)
        await keys(pilot, "space")  # three Hellhounds: the summary above grows a line
        assert app.main.result.total == 550 and in_view(app.focused)

    run(app, scenario)

"""The editor as a new player meets it (issue 17): keys pressed faster than the screen settles,
the choices offered, search, stats while choosing, and an 80×24 terminal. Pilot, headless."""

from __future__ import annotations

from textual import events

from listbuilder.core.roster import Roster, RosterFormation
from listbuilder.tui.app import EditorApp

from .test_tui import focused_knob, run, settle


def app_with(catalog, army: str, *types: str, points: int = 3000) -> EditorApp:
    roster = Roster(game="epic-armageddon", army=army, points=points,
                    formations=[RosterFormation(type=t) for t in types])
    return EditorApp(catalog, roster)


def test_a_held_down_arrow_loses_no_key(catalog):
    """19 ↓ sent at once (a held key, or keys faster than a frame) go from the first setting of a
    Warband (21 settings) to the 20th."""
    app = app_with(catalog, "ghazghkull-warhorde", "Warband")

    async def scenario(pilot) -> None:
        rows = app.main.query_one("FormationEditor").rows
        assert len(rows) >= 20
        app.main.select_formation(0, rows[0].key)
        await settle(pilot)
        for _ in range(19):
            app.post_message(events.Key("down", None))
        await settle(pilot)
        assert focused_knob(app) == rows[19].key
        for _ in range(25):  # and back up past the top: it stops on the first
            app.post_message(events.Key("up", None))
        await settle(pilot)
        assert focused_knob(app) == rows[0].key

    run(app, scenario)

"""`listbuilder new` and ctrl+n start a roster of any game from one dialog, driven by keys through
Textual's Pilot (80×24): Warhammer 40,000 (the BSData fixture's factions and battle sizes: Necrons'
first detachment Awakened Dynasty, Incursion 1,000), Epic Remastered (played without points unless
a limit is given), Epic Armageddon as before; without 40k data the dialog says how to import it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import Select, Static

from listbuilder.cli import main
from listbuilder.games import new_roster
from listbuilder.games.epic_remastered.models import ErRoster
from listbuilder.games.wh40k10.roster import Wh40kRoster
from listbuilder.rosters.files import read_roster
from listbuilder.tui.app import EditorApp, new_roster_app
from listbuilder.tui.games.epic_remastered import ErScreen
from listbuilder.tui.games.formations import MainScreen
from listbuilder.tui.games.wh40k10 import UnitsScreen
from listbuilder.tui.screens.new_roster import NewRosterScreen

from .test_tui import keys, run, tolerant_idle  # noqa: F401 (the fixture applies here too)

ROSTERS = Path(__file__).resolve().parent / "epic-remastered-rosters"
GAME_SELECT = ["shift+tab", "enter"]  # from the filter box, open the Game select (EA, ER, 40k in this order)


@pytest.fixture
def every_game(catalog, bsdata):
    """The shipped games with the fixture's 40k data installed."""
    return replace(catalog, installed={"wh40k-10e": bsdata.catalog}, installed_parts={})


@pytest.fixture
def without_40k(catalog, tmp_path, monkeypatch):
    """The shipped games, no 40k data installed (an empty data folder)."""
    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path / "no-data"))
    return replace(catalog, installed={}, installed_parts={})


def problem(app: EditorApp) -> str:
    return str(app.screen.query_one("#problem", Static).render())


def test_new_40k_roster_from_the_dialog(every_game, tmp_path):
    path = tmp_path / "dynasty.yaml"
    app = new_roster_app(every_game, path, None, None, None)
    assert isinstance(app, EditorApp)

    async def scenario(pilot) -> None:
        assert isinstance(app.screen, NewRosterScreen)
        await keys(pilot, *GAME_SELECT, "down", "down", "enter", "tab")
        assert app.screen.query_one("#game", Select).value == "wh40k-10e"
        await keys(pilot, "=necrons", "enter")  # the faction; then the battle size, Strike Force first
        assert app.screen.query_one("#size", Select).value == 2000
        await keys(pilot, "enter", "up", "enter", "ctrl+s")
        assert isinstance(app.screen, UnitsScreen) and app.main is app.screen
        roster = app.history.current
        assert isinstance(roster, Wh40kRoster)
        assert (roster.faction, roster.battle_size, roster.detachment) == (
            "Necrons", "Incursion", "Awakened Dynasty")
        assert app.result.limit == 1000 and app.dirty
        # the title names the data that checks it: the imported catalog's revision, not the shipped data's
        revision = every_game.imported("wh40k-10e").data_revision
        assert app.roster_title.data == revision != every_game.data_version
        await keys(pilot, "a", "=overlord", "enter", "ctrl+s")  # the 40k editor's own keys work on it

    run(app, scenario)
    saved = read_roster(path, every_game).roster
    assert isinstance(saved, Wh40kRoster) and [u.type for u in saved.units] == ["Overlord"]
    assert saved.battle_size == "Incursion"


def test_new_epic_remastered_roster_from_the_dialog_without_points(every_game):
    app = new_roster_app(every_game, None, None, None, None)

    async def scenario(pilot) -> None:
        await keys(pilot, *GAME_SELECT, "down", "enter", "tab")
        assert str(app.screen.query_one("#points-hint", Static).render()).startswith("optional")
        await keys(pilot, "=core", "enter")
        assert app.screen.query_one("#points").value == ""  # played without points unless given
        await keys(pilot, "tab", "=Gadrel", "enter")
        assert isinstance(app.screen, ErScreen) and app.main is app.screen
        assert app.history.current == ErRoster(game="epic-remastered", army="core-samples", points=None,
                                               name="Gadrel")

    run(app, scenario)


def test_new_40k_without_data_says_how_to_import_it_and_creates_nothing(without_40k):
    app = new_roster_app(without_40k, None, "wh40k-10e", None, None)  # the dialog, 40k chosen first
    assert isinstance(app, EditorApp)

    async def scenario(pilot) -> None:
        assert app.screen.query_one("#game", Select).value == "wh40k-10e"
        told = problem(app)
        assert "listbuilder data import bsdata PATH" in told and "listbuilder data fetch wh40k-10e" in told
        await keys(pilot, "=necrons", "enter", "ctrl+s")
        assert isinstance(app.screen, NewRosterScreen) and problem(app) == told
        await keys(pilot, "shift+tab", "enter", "home", "enter")  # back to Epic Armageddon: nothing amiss
        assert problem(app) == "" and app.screen.query_one("#armies").items

    run(app, scenario)
    told = new_roster_app(without_40k, None, "wh40k-10e", "Necrons", None)  # `new --game wh40k-10e --army Necrons`
    assert isinstance(told, str) and "no wh40k-10e data is installed" in told and "data import bsdata PATH" in told


def test_ctrl_n_in_an_epic_editor_starts_a_40k_roster_and_back(every_game):
    app = new_roster_app(every_game, None, "epic-armageddon", "codex-astartes", 3000)
    assert isinstance(app, EditorApp)

    async def scenario(pilot) -> None:
        assert isinstance(app.screen, MainScreen)
        await keys(pilot, "ctrl+n", "d")  # not saved yet: don't save
        assert app.screen.query_one("#armies").highlighted.value == "codex-astartes"  # the roster's own first
        await keys(pilot, *GAME_SELECT, "down", "down", "enter", "tab", "=space marines", "enter")
        await keys(pilot, "enter", "up", "enter", "ctrl+s")  # Incursion
        assert isinstance(app.screen, UnitsScreen)
        roster = app.history.current
        assert (roster.faction, roster.battle_size) == ("Space Marines", "Incursion")
        await keys(pilot, "ctrl+n", "d")
        assert app.screen.query_one("#game", Select).value == "wh40k-10e"
        assert app.screen.query_one("#size", Select).value == 1000  # the roster's battle size first
        assert app.screen.query_one("#armies").highlighted.value == roster.faction
        await keys(pilot, *GAME_SELECT, "home", "enter", "tab", "=white scars", "enter", "ctrl+a", "=2500", "enter")
        assert isinstance(app.screen, MainScreen) and app.main is app.screen
        assert app.history.current.army == "white-scars" and app.result.total == 0

    run(app, scenario)


@pytest.mark.parametrize("game", ["epic-armageddon", "epic-remastered", "wh40k-10e"])
def test_the_dialog_fits_80_by_24(every_game, without_40k, game):
    catalog = without_40k if game == "wh40k-10e" else every_game  # the longest: the import message
    app = new_roster_app(catalog, None, game, None, None)

    async def scenario(pilot) -> None:
        screen = app.screen
        for part in ["#game", "#armies", "#points" if game != "wh40k-10e" else "#size", "#name", "#problem",
                     "#create", "#cancel"]:
            region = screen.query_one(part).region
            assert region.height > 0 and region.bottom <= 24 and region.right <= 80, (part, region)
        if game == "wh40k-10e":
            assert "listbuilder data fetch wh40k-10e" in problem(app)

    run(app, scenario)


def test_one_place_builds_a_new_roster_of_each_game(every_game, capsys):
    assert new_roster(every_game, "epic-armageddon", "Codex Astartes", 2500).army == "codex-astartes"
    assert new_roster(every_game, "epic-armageddon", "codex-astartes", None) == (
        "the points limit is a whole number above 0")  # Epic Armageddon is played to points
    assert new_roster(every_game, "epic-remastered", "core-samples", 1500).points == 1500
    roster = new_roster(every_game, "wh40k-10e", "Necrons", 3000)
    assert (roster.battle_size, roster.detachment) == ("Onslaught", "Awakened Dynasty")
    assert new_roster(every_game, "wh40k-10e", "Necrons", None).battle_size == "Strike Force"
    assert new_roster(every_game, "wh40k-10e", "Necrons", 1500) == (
        "1,500 points is no battle size (Muster Your Army 1: Select Battle Size): Incursion 1,000, Strike Force 2,000, "
        "Onslaught 3,000")
    assert new_roster(every_game, "epic-remastered", "orks", None).startswith("unknown army 'orks'")
    assert new_roster(every_game, "chess", "white", 1) == (
        "unknown game 'chess' (known: epic-armageddon, epic-remastered, wh40k-10e)")
    assert main(["new", "--game", "chess"]) == 2
    assert "unknown game 'chess' (known: epic-armageddon, epic-remastered, wh40k-10e)" in capsys.readouterr().err


def test_open_takes_a_roster_of_another_game(catalog, tmp_path, monkeypatch):
    """ctrl+o in the Epic Armageddon editor on an Epic Remastered roster: its editor, on that roster."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gadrel.yaml").write_text((ROSTERS / "gadrel-no-hq.yaml").read_text())
    app = new_roster_app(catalog, None, "epic-armageddon", "codex-astartes", 3000)

    async def scenario(pilot) -> None:
        await keys(pilot, "ctrl+o", "d", "=gadrel.yaml", "enter")
        assert isinstance(app.screen, ErScreen) and app.main is app.screen
        assert isinstance(app.history.current, ErRoster) and not app.dirty
        assert app.path is not None and app.path.name == "gadrel.yaml"
        assert app.result.roster is app.history.current  # checked, and shown

    run(app, scenario)

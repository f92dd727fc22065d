"""The editor as a new player meets it (issue 17): keys pressed faster than the screen settles,
the choices offered, search, stats while choosing, and an 80×24 terminal. Pilot, headless."""

from __future__ import annotations

from textual import events

from listbuilder.cli import DEMO_ROSTER
from listbuilder.games import validate
from listbuilder.listengine import edits
from listbuilder.listengine.roster import Roster, RosterFormation
from listbuilder.listengine.text import list_text
from listbuilder.rosters.files import read_roster
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


def test_a_check_that_reuses_unchanged_formations_finds_what_a_fresh_check_finds(catalog):
    """The editor keeps the formations it built and builds again only the entries an edit
    replaced: after each edit of a 20-formation roster, points, findings and derived values are
    those of a check from scratch."""
    demo = read_roster(DEMO_ROSTER, catalog).roster
    roster = demo.model_copy(update={"formations": [demo.formations[i % 8] for i in range(20)]})
    reuse: dict = {}
    edited = [roster,
              edits.replace_formation(roster, 3, roster.formations[3].model_copy(update={"upgrades": {"Hunter": 1}})),
              edits.remove_formation(roster, 0),  # every later formation moves up: built again
              edits.duplicate_formation(roster, 5),
              roster.model_copy(update={"points": 2000})]  # an army-wide change: nothing to rebuild
    for version in edited:
        fresh, reused = validate(version, catalog), validate(version, catalog, reuse)
        assert reused.total == fresh.total
        assert reused.findings == fresh.findings
        assert [(f.index, f.points, f.derived) for f in reused.formations] == \
               [(f.index, f.points, f.derived) for f in fresh.formations]
        assert reused.derived == fresh.derived  # activations, Break Their Spirit
    assert edited[-1].formations[7] is roster.formations[7] and reuse[7][0] is roster.formations[7]


def test_more_chosen_is_a_number_not_a_row_to_remove(catalog):
    """→ on '4-6 units Chosen' of Black Legion Chosen takes a fifth Chosen; no 'Chosen ✕ remove'
    row appears (a unit of a slot of several sizes is not a stray unit)."""
    app = app_with(catalog, "black-legion", "Black Legion Chosen")

    async def scenario(pilot) -> None:
        app.main.select_formation(0, ("composition", "Chosen"))
        await settle(pilot)
        await pilot.press("right")
        await settle(pilot)
        assert app.history.current.formations[0].composition == {"Chosen": 5}
        rows = app.main.query_one("FormationEditor").rows
        assert [r.knob.kind for r in rows].count("clear") == 0
        assert app.focused.knob.value == "5"

    run(app, scenario)


def choices_shown(app: EditorApp) -> list[tuple[str, bool]]:
    """The open picker's items: label and whether it can be chosen."""
    from listbuilder.tui.screens.pick import FilteredList
    return [(item.name, not item.disabled) for item in app.screen.query_one(FilteredList).shown]


def test_only_characters_that_can_be_legal_are_offered_and_a_new_one_joins_a_unit_it_may(catalog):
    """tau.yaml Commander: the Ethereal only in a Fire Warrior Cadre (never offered in a
    Battlesuit Cadre); the Shas'el joins only a Crisis Battlesuit Team, so a Fire Warrior Cadre
    offers him dimmed until it takes the Crisis upgrade, and then he joins the Crisis suits."""
    app = app_with(catalog, "tau", "Fire Warrior Cadre", "Battlesuit Cadre")
    commander = ("upgrades", "Commander", "character")

    async def scenario(pilot) -> None:
        app.main.select_formation(1, commander)
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert choices_shown(app) == [("none", True), ("Shas'el", True)]
        await pilot.press("escape")
        app.main.select_formation(0, commander)
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert choices_shown(app) == [("none", True), ("Ethereal", True), ("Shas'el", False)]
        await pilot.press("escape")
        app.main.select_formation(0, ("upgrades", "Crisis"))
        await settle(pilot)
        await pilot.press("space")  # two Crisis suits
        await settle(pilot)
        app.main.select_formation(0, commander)
        await settle(pilot)
        await pilot.press("enter", *"shas", "enter")
        await settle(pilot)
        pick = app.history.current.formations[0].upgrades["Commander"]
        assert (pick.character, pick.joins) == ("Shas'el", "XV8 Crisis Battlesuit Team")
        assert not [f for f in app.main.result.findings if f.path[:2] == ("formations", 0)]

    run(app, scenario)


def test_a_missing_lord_marks_the_lord_and_no_other_setting(catalog):
    """A Black Legion Retinue without its Chaos Space Marine Lord: ✖ on the Lord's row only."""
    app = app_with(catalog, "black-legion", "Black Legion Retinue")

    async def scenario(pilot) -> None:
        rows = app.main.query_one("FormationEditor").rows
        marked = [row.key for row in rows if row.problem]
        assert ("upgrades", "Chaos Space Marine Lord", "character") in marked
        assert not [key for key in marked if key[0] == "upgrades" and key[1] != "Chaos Space Marine Lord"]

    run(app, scenario)


def test_an_80x24_terminal_shows_whole_names_factions_title_and_the_new_roster_buttons(catalog):
    """Two Black Legion formations whose names differ after 'Black Legion ' are told apart (a
    long name goes on over a second line), a declared faction is shown, the title keeps the
    roster's name and the data version, and the new-roster dialog's buttons are on screen."""
    roster = Roster(game="epic-armageddon", army="black-legion", points=3000, name="Abaddon's Spearhead",
                    formations=[RosterFormation(type="Black Legion Retinue", faction="Khorne"),
                                RosterFormation(type="Black Legion Armoured Company")])
    app = EditorApp(catalog, roster)

    async def scenario(pilot) -> None:
        from textual.widgets import Button

        from listbuilder.tui.widgets.roster_view import FormationList
        from listbuilder.tui.widgets.title_bar import TitleBar
        lines = [" ".join(option.prompt.plain.split()) for option in app.main.query_one(FormationList).options]
        assert "Black Legion Retinue · Khorne" in lines[0] and "Black Legion Armoured Company" in lines[1]
        title = app.main.query_one(TitleBar).render().plain
        assert len(title) <= 78 and "Abaddon's Spearhead" in title and app.data_version in title
        await pilot.press("ctrl+n")
        await settle(pilot)
        for button in app.screen.query(Button):
            x, y = button.region.center
            assert app.screen.get_widget_at(x, y)[0] is button, button

    run(app, scenario)


def test_a_larger_terminal_gives_the_add_list_its_room(catalog):
    """At 120×40 the list of what can be added grows with the dialog instead of stopping at 14 lines."""
    app = app_with(catalog, "codex-astartes")

    async def scenario(pilot) -> None:
        from textual.widgets import OptionList
        await pilot.press("a")
        await settle(pilot)
        assert app.screen.query_one(OptionList).size.height >= 20

    run(app, scenario, size=(120, 40))


def test_search_finds_characters_inside_upgrades_and_categories_and_says_when_nothing_matches(catalog):
    """'warlord' finds the Chaos Warlord, a character of the Chaos Space Marine Lord upgrade, and
    says where he is bought; choosing him goes to that setting; 'air' finds the Tau air caste; a
    word matching nothing says so."""
    app = app_with(catalog, "black-legion", "Black Legion Retinue")

    async def scenario(pilot) -> None:
        from textual.widgets import OptionList
        await pilot.press("a", *"warlord")
        await settle(pilot)
        first = app.screen.query_one(OptionList).get_option_at_index(0).prompt.plain
        assert first.startswith("Chaos Warlord") and "the Chaos Space Marine Lord upgrade of" in first
        assert "Black Legion Retinue" in first
        assert "Lord" in str(app.screen.query_one("#preview").render())  # his datasheet, while choosing
        await pilot.press("enter")
        await settle(pilot)
        assert focused_knob(app) == ("upgrades", "Chaos Space Marine Lord", "character")
        await pilot.press("escape", "a", *"zzzq")
        await settle(pilot)
        [line] = app.screen.query_one(OptionList).options
        assert line.disabled and "No matches" in line.prompt.plain

    run(app, scenario)
    tau = app_with(catalog, "tau")

    async def air(pilot) -> None:
        from listbuilder.tui.screens.pick import FilteredList
        await pilot.press("a", *"air")
        await settle(pilot)
        names = [item.name for item in tau.screen.query_one(FilteredList).shown]
        assert {"Barracuda Squadron", "Tiger Shark AX-1-0"} <= set(names)

    run(tau, air)


def test_a_setting_shows_the_datasheet_of_what_it_adds(catalog):
    """On Dreadnought (Tactical) the hint shows the Dreadnought's statistics."""
    app = app_with(catalog, "codex-astartes", "Tactical")

    async def scenario(pilot) -> None:
        app.main.select_formation(0, ("upgrades", "Dreadnought"))
        await settle(pilot)
        hint = str(app.main.query_one("#hint").render())
        assert "Dreadnought" in hint and "armour 3+" in hint and "CC 4+" in hint

    run(app, scenario)


def test_duplicate_the_roster_under_a_new_name(catalog, tmp_path):
    app = app_with(catalog, "codex-astartes", "Tactical")
    app.saved = app.history.current  # as if on disk

    async def scenario(pilot) -> None:
        await pilot.press("ctrl+d")
        await settle(pilot)
        await pilot.press("ctrl+a", "ctrl+k", *"Second company", "enter")  # the suggested name replaced
        await settle(pilot)
        roster = app.history.current
        assert roster.name == "Second company" and [f.type for f in roster.formations] == ["Tactical"]
        assert app.path is None and app.roster_title.where == "not saved yet"

    run(app, scenario)


def test_c_copies_the_list_as_text(catalog):
    """The text `listbuilder export --format text` writes, on the clipboard."""
    app = app_with(catalog, "codex-astartes", "Tactical", "Warhound Titans")

    async def scenario(pilot) -> None:
        await pilot.press("c")
        await settle(pilot)
        assert app.clipboard == list_text(validate(app.history.current, catalog), catalog)
        assert "Tactical" in app.clipboard and "Warhound Titans" in app.clipboard

    run(app, scenario)


def test_the_footer_fits_80_columns_on_a_setting_of_a_list_that_buys_for_the_army(catalog):
    """The most keys the footer shows (a setting's, and b for Black Legion's daemons) end with f1
    Help on screen."""
    app = app_with(catalog, "black-legion", "Black Legion Chosen")

    async def scenario(pilot) -> None:
        from textual.widgets._footer import FooterKey
        app.main.select_formation(0, ("composition", "Chosen"))
        await settle(pilot)
        shown = [key for key in app.screen.query(FooterKey)]
        assert shown and shown[-1].description == "Help"
        assert max(key.region.right for key in shown) <= 80

    run(app, scenario)


def test_flat_prices_read_plus_and_another_factions_cult_is_dimmed_and_refused(catalog):
    """black-legion.yaml: Havocs are 150 points for four ('+150', not 'free (+150'); a Khorne
    Retinue's Cult Marines may be Berzerkers, the other cults are dimmed and → on one is refused."""
    roster = Roster(game="epic-armageddon", army="black-legion", points=3000,
                    formations=[RosterFormation(type="Black Legion Retinue", faction="Khorne")])
    app = EditorApp(catalog, roster)

    async def scenario(pilot) -> None:
        rows = {row.key: row for row in app.main.query_one("FormationEditor").rows}
        assert rows[("upgrades", "Havocs")].knob.cost == "+150"
        assert not rows[("upgrades", "Cult Marines", "Berzerkers")].has_class("-unavailable")
        noise = rows[("upgrades", "Cult Marines", "Noise Marines")]
        assert noise.has_class("-unavailable") and noise.knob.reason == "only in a Slaanesh formation"
        app.main.select_formation(0, noise.key)
        await settle(pilot)
        await pilot.press("right")
        await settle(pilot)
        assert app.history.current == roster
        assert any("only in a Slaanesh formation" in n.message for n in app._notifications)

    run(app, scenario)

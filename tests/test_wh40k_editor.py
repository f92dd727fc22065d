"""The editor on a 40k roster, driven by keys through Textual's Pilot: pick the detachment, add
units filtered as you type, set model counts, attach a Leader, with the findings kept live.
Points from the BSData fixture (Imperium - Space Marines.cat): Captain 80, Intercessor Squad 5
models 80 and 6 to 10 models 160."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from listbuilder.games import validate
from listbuilder.games.wh40k10.listtext import app_text
from listbuilder.games.wh40k10.roster import Wh40kRoster
from listbuilder.listengine.catalog import Catalog
from listbuilder.rosters.files import dump, parse_roster
from listbuilder.tui.app import EditorApp
from listbuilder.tui.games.wh40k10 import UnitsScreen, WargearScreen
from listbuilder.tui.screens.help import HelpScreen
from listbuilder.tui.screens.pick import FilteredList, PickScreen
from listbuilder.tui.widgets.roster_view import FindingsList

from .test_tui import keys, palette, run, settle, tolerant_idle  # noqa: F401 (the fixture applies here too)

START = "game: wh40k-10e\nfaction: Space Marines\nbattle_size: Incursion\ndetachment: Gladius Task Force\n"


@pytest.fixture(scope="module")
def catalog(bsdata):
    return Catalog(installed={"wh40k-10e": bsdata.catalog})


def test_build_a_40k_army_by_keys(catalog):
    roster = parse_roster(START, "new.yaml", catalog).roster
    app = EditorApp(catalog, roster, unsaved=True)

    async def scenario(pilot):
        assert isinstance(app.main, UnitsScreen)
        assert [f.code for f in app.result.findings] == ["no-character", "no-warlord"]
        await keys(pilot, "a", "=captain", "enter")
        assert [u.type for u in app.history.current.units] == ["Captain"]
        await keys(pilot, "w", "a", "=intercessor sq", "enter")
        await keys(pilot, "+")  # 5 -> 6 models, the next size the data prices
        assert app.history.current.units[1].models == 6
        assert app.result.total == 80 + 160 and app.result.valid
        await keys(pilot, "up", "l", "=intercessor", "enter")  # the Captain leads the squad
        assert app.history.current.units[0].leads == "Intercessor Squad"
        attached = app.result.units[1].derived["attached"]
        assert (attached["starting_strength"], attached["below_half_at"]) == (7, 3)
        await keys(pilot, "D", "=vanguard", "enter")
        assert app.history.current.detachment == "Vanguard Spearhead"
        await keys(pilot, "e", "=ghostweave", "enter")
        assert app.history.current.units[0].enhancement == "Ghostweave Cloak"
        assert app.result.total == 80 + 15 + 160
        await keys(pilot, "down", "x")
        assert [u.type for u in app.history.current.units] == ["Captain"]
        # the Captain still names the removed squad: the findings say so at once
        assert [f.code for f in app.main.query_one(FindingsList).findings] == ["unknown-unit-reference"]
        await keys(pilot, "ctrl+z")
        assert app.result.valid and len(app.history.current.units) == 2

    run(app, scenario, size=(100, 30))
    saved = parse_roster(dump(app.history.current), "saved.yaml", catalog).roster
    assert isinstance(saved, Wh40kRoster) and saved == app.history.current


def test_new_40k_roster_takes_the_faction_and_battle_size(catalog, tmp_path):
    from listbuilder.tui.app import new_roster_app
    app = new_roster_app(catalog, tmp_path / "n.yaml", "wh40k-10e", "Necrons", 1000)
    assert isinstance(app, EditorApp)
    roster = app.history.current
    assert (roster.faction, roster.battle_size, roster.detachment) == ("Necrons", "Incursion",
                                                               "Awakened Dynasty")
    assert new_roster_app(catalog, None, "wh40k-10e", "Necronz", None).startswith("unknown or ambiguous faction")


def test_c_copies_the_40k_list_as_the_apps_text(catalog):
    roster = parse_roster(START + "units:\n  - type: Captain\n    warlord: true\n", "army.yaml", catalog).roster
    app = EditorApp(catalog, roster, unsaved=True)

    async def scenario(pilot):
        await keys(pilot, "c")
        assert app.clipboard == app_text(validate(roster, catalog), catalog)
        assert "CHARACTERS\n\nCaptain (80 Points)\n  • Warlord\n  • 1x Bolt pistol\n" in app.clipboard

    run(app, scenario)


def test_h_declares_an_aircraft_with_hover_in_hover_mode(catalog):
    """D21: `h` on the Stormraven puts it in Hover mode (set up on the battlefield, no finding); on a
    unit without Hover it says so and changes nothing."""
    text = START + "units:\n  - {type: Captain, warlord: true}\n  - {type: Stormraven Gunship}\n"
    app = EditorApp(catalog, parse_roster(text, "new.yaml", catalog).roster, unsaved=True)

    async def scenario(pilot):
        assert [f.code for f in app.result.findings] == ["aircraft-not-in-reserves"]
        await keys(pilot, "down", "h")
        assert app.history.current.units[1].hover and app.result.valid
        await keys(pilot, "up", "h")
        assert not app.history.current.units[0].hover
        assert any("has no Hover ability" in str(n.message) for n in app._notifications)

    run(app, scenario, size=(100, 30))


def test_the_editor_shows_a_wargear_finding(catalog):
    """D23: five plasma pistols on an Intercessor Squad are one finding in the findings list, with
    the numbers, where the squad is; `f` then enter jumps to the squad."""
    text = START + "units:\n  - {type: Captain, warlord: true}\n" \
                   "  - {type: Intercessor Squad, models: 5, wargear: {Plasma pistol: 5}}\n"
    app = EditorApp(catalog, parse_roster(text, "new.yaml", catalog).roster, unsaved=True)

    async def scenario(pilot):
        findings = app.main.query_one(FindingsList)
        assert [f.code for f in findings.findings] == ["wargear-not-allowed"]
        shown = str(findings.get_option_at_index(0).prompt)
        assert shown.startswith("✖ #2 Intercessor Squad › wargear › Plasma pistol: 5 models of Intercessor Squad "
                                "carry Plasma pistol, but at most 1 of its 5 may")
        assert "(give it to at most 1: `Plasma pistol: 1`)" in shown
        roster_units = app.main.query_one("#roster-units")
        assert roster_units.highlighted == 0
        await keys(pilot, "f", "enter")
        assert roster_units.highlighted == 1

    run(app, scenario, size=(100, 30))


def test_the_palette_offers_the_40k_editors_actions_datasheets_and_units(catalog):
    """ctrl+p on a 40k roster: the hidden actions by name (those the selection allows), each
    datasheet of the faction to add with its points, each unit to go to; each runs as its key or
    pick would."""
    empty = EditorApp(catalog, parse_roster(START, "new.yaml", catalog).roster, unsaved=True)

    async def nothing_selected(pilot):
        offered = {title for title, _ in await palette(pilot, "", "Help", first=False)}  # before typing: the actions
        assert {"Faction", "Battle size", "Copy as text", "Help"} <= offered and not offered & {"Warlord", "Embark"}
        await keys(pilot, "escape")
        await palette(pilot, "battle size", "Battle size")
        await keys(pilot, "enter", "=strike", "enter")  # the same pick as B
        assert empty.history.current.battle_size == "Strike Force"
        await keys(pilot, "escape", "f1")  # the help lists the keys the footer hides, and the palette
        assert isinstance(empty.screen, HelpScreen)
        listed = {b.description for _, section in empty.screen.sections for b in section}
        assert {"Warlord", "Embark", "Copy as text", "Command palette", "Wargear", "Name", "Detachment",
                "One more", "One fewer"} <= listed

    run(empty, nothing_selected)
    roster = parse_roster(START + "units:\n  - type: Captain\n  - type: Intercessor Squad\n    label: Bravo\n",
                          "army.yaml", catalog).roster
    app = EditorApp(catalog, roster, unsaved=True)

    async def scenario(pilot):
        hits = await palette(pilot, "", "Help", first=False)
        assert {"Embark", "Enhancement", "Reserves", "Hover"} <= {title for title, _ in hits}
        assert ("Warlord", "Make the unit the Warlord") in hits
        await keys(pilot, "escape")
        await palette(pilot, "warlord", "Warlord")
        await keys(pilot, "enter")
        assert [u.warlord for u in app.history.current.units] == [True, False]
        hits = await palette(pilot, "add intercessor squad", "Add Intercessor Squad")
        assert hits[0][1] == "5: 80, 6-10: 160 pts"  # the fixture's points: 5 models 80, 6 to 10 models 160
        await keys(pilot, "enter")
        assert [u.type for u in app.history.current.units] == ["Captain", "Intercessor Squad", "Intercessor Squad"]
        assert app.main.selected == 2 and app.result.total == 80 + 80 + 80
        hits = await palette(pilot, "go to", "Go to #1 Captain")
        assert hits[1:] == [("Go to #2 Intercessor Squad", "Bravo"), ("Go to #3 Intercessor Squad", "")]
        await keys(pilot, "enter")
        assert app.main.selected == 0
        await keys(pilot, "r")  # the key acts on the unit gone to
        assert [u.reserves for u in app.history.current.units] == [True, False, False]

    run(app, scenario, size=(100, 30))


def option_texts(options) -> list[str]:
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def test_choose_a_sergeants_weapons_see_the_cost_and_a_limit_finding_and_undo(catalog):
    """`g` on an Intercessor Squad: the Sergeant's weapons, then the grenade launcher the Sergeant
    and the launcher Intercessors may carry, which the data limits to 1 in a unit of 5-9 models
    and 2 at 10 (D24); each + is an edit the check judges at once and ctrl+z undoes. 80×24."""
    text = START + "units:\n  - {type: Captain, warlord: true}\n  - {type: Intercessor Squad}\n"
    app = EditorApp(catalog, parse_roster(text, "new.yaml", catalog).roster, unsaved=True)

    async def scenario(pilot):
        await keys(pilot, "down", "g")
        screen = app.screen
        assert isinstance(screen, WargearScreen)
        assert str(screen.query_one("#wargear-title").render()) == "Wargear · #2 5 Intercessor Squad  80 pts"
        rows = option_texts(screen.query_one("#wargear-options"))
        assert rows[0] == "Intercessor Sergeant" and rows[1].split() == ["Thunder", "Hammer", "0/1"]
        assert rows[7] == "Intercessor Sergeant / Intercessor w/ Grenade Launcher"
        assert rows[8].split()[-10:] == ["0/3", "limit", "1", "at", "5-9", "models,", "2", "at", "10", "models"]
        sheet = str(screen.query_one("#wargear-sheet-text").render())
        assert "Thunder Hammer  Melee A 3 WS 4+ S 8 AP -2 D 2  [Devastating Wounds]" in sheet
        await keys(pilot, "+")  # the Sergeant takes a thunder hammer
        assert app.history.current.units[1].wargear == {"Thunder Hammer": 1} and app.result.valid
        assert option_texts(screen.query_one("#wargear-options"))[1].split()[-1] == "1/1"
        await keys(pilot, "end", "+", "+")  # two grenade launchers in a unit of 5
        assert app.history.current.units[1].wargear == {"Thunder Hammer": 1, "Astartes grenade launcher": 2}
        [limit] = screen.query_one(FindingsList).findings
        assert limit.message == ("2 models of Intercessor Squad carry Astartes grenade launcher, but its datasheet "
                                 "allows at most 1 in a unit of 5 models (1 at 5-9 models, 2 at 10 models)")
        assert option_texts(screen.query_one("#wargear-options"))[8].startswith("✖ Astartes grenade launcher")
        await keys(pilot, "home", "f", "enter")  # the finding leads back to the weapon
        assert screen.query_one("#wargear-options").highlighted == 8 and screen.focused.id == "wargear-options"
        await keys(pilot, "ctrl+z")  # undone on the wargear screen, as anywhere
        assert app.screen is screen and app.result.valid
        assert app.history.current.units[1].wargear == {"Thunder Hammer": 1, "Astartes grenade launcher": 1}
        assert option_texts(screen.query_one("#wargear-options"))[8].startswith("  Astartes grenade launcher")
        await keys(pilot, "ctrl+y", "escape", *["+"] * 5)  # redo; back to the units: 10 models
        assert isinstance(app.screen, UnitsScreen) and app.history.current.units[1].models == 10
        assert app.result.valid and app.result.total == 80 + 160  # 2 launchers are allowed at 10 models
        await keys(pilot, "g")
        assert str(app.screen.query_one("#wargear-title").render()) == "Wargear · #2 10 Intercessor Squad  160 pts"
        await keys(pilot, "ctrl+z")  # undoing the 10th model takes the unit back to 9: the finding again
        assert [f.code for f in app.screen.query_one(FindingsList).findings] == ["wargear-not-allowed"]
        await keys(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        assert {"One more", "One fewer", "Back", "Undo"} <= {b.description for _, s in app.screen.sections for b in s}

    run(app, scenario)


def test_the_add_dialog_dims_units_the_army_may_not_take_with_the_reason(catalog):
    """A Breaching Robot (Unaligned Forces, no Faction keyword the army may take) in a Space Marines
    army: shown dimmed, last, with the check's own finding as the reason; Enter on it adds nothing.
    An Imperial Rhino, an Agent of the Imperium the data admits as an ally, is offered."""
    roster = parse_roster(START + "units:\n  - {type: Captain, warlord: true}\n", "army.yaml", catalog).roster
    app = EditorApp(catalog, roster, unsaved=True)

    async def scenario(pilot):
        await keys(pilot, "a")
        options = app.screen.query_one(FilteredList).query_one("OptionList")
        shown = app.screen.query_one(FilteredList).shown
        dimmed = [item.name for item in shown if item.disabled]
        assert "Breaching Robot" in dimmed and "Imperial Rhino" not in dimmed
        assert [item.disabled for item in shown] == sorted(item.disabled for item in shown)  # the dimmed last
        await keys(pilot, "=breaching robot")
        assert option_texts(options)[0].startswith("Breaching Robot")
        assert "✖ Breaching Robot has" in option_texts(options)[0]
        await keys(pilot, "enter")  # refused: the reason is beside it
        assert isinstance(app.screen, PickScreen)
        await keys(pilot, "escape")
        assert [u.type for u in app.history.current.units] == ["Captain"]
        await keys(pilot, "a", "=imperial rhino", "enter")
        assert [u.type for u in app.history.current.units] == ["Captain", "Imperial Rhino"]

    run(app, scenario)


def test_the_add_dialogs_refusals_are_kept_for_the_rosters_state(catalog):
    """The refusals (a check of the whole faction) are reused for a roster back in the state they
    were checked for (here an edit made and unmade: a new roster object, equal to the first), and
    checked again for a roster changed."""
    text = START + "units:\n  - {type: Captain, warlord: true}\n  - {type: Intercessor Squad}\n"
    app = EditorApp(catalog, parse_roster(text, "army.yaml", catalog).roster, unsaved=True)

    def dimmed():
        return [item.name for item in app.screen.query_one(FilteredList).shown if item.disabled]

    async def scenario(pilot):
        first = app.history.current
        await keys(pilot, "a")
        found, shown = app.main.refusals[1], dimmed()
        assert "Breaching Robot" in shown
        await keys(pilot, "escape", "down", "+", "-")  # 5 -> 6 -> 5 Intercessors: a new object, equal
        assert app.history.current == first and app.history.current is not first
        await keys(pilot, "a")
        assert app.main.refusals[1] is found and dimmed() == shown
        await keys(pilot, "escape", "+", "a")  # 6: checked again
        assert app.main.refusals[1] is not found and dimmed() == shown

    run(app, scenario)


def test_a_second_unit_of_a_name_gets_a_label_and_the_roster_a_new_name(catalog):
    """The Captain leads the Intercessor Squad; a second one added is labelled, so `leads` still
    names the first alone. `n` renames the roster; ctrl+z undoes it."""
    text = START + "units:\n  - {type: Captain, warlord: true, leads: Intercessor Squad}\n" \
                   "  - {type: Intercessor Squad}\n"
    app = EditorApp(catalog, parse_roster(text, "army.yaml", catalog).roster, unsaved=True)

    async def scenario(pilot):
        await keys(pilot, "a", "=intercessor squad", "enter")
        assert [u.label for u in app.history.current.units] == [None, None, "Intercessor Squad 2"]
        assert app.result.valid and app.result.units[0].leads == 1
        await keys(pilot, "n", "=Hale's Fist", "enter")
        assert app.history.current.name == "Hale's Fist" and app.roster_title.name == "Hale's Fist"
        await keys(pilot, "ctrl+z")
        assert app.history.current.name == "" and len(app.history.current.units) == 3

    run(app, scenario)


def test_the_40k_footers_fit_80_columns_and_end_with_help(catalog):
    from textual.widgets._footer import FooterKey
    text = START + "units:\n  - {type: Captain, warlord: true}\n"
    app = EditorApp(catalog, parse_roster(text, "army.yaml", catalog).roster, unsaved=True)

    async def scenario(pilot):
        for screen in ("units", "wargear"):
            for _ in range(100):  # the footer lays its keys out after the screen: on a busy machine, later
                if list(app.screen.query(FooterKey)):
                    break
                await pilot.pause(0.02)
            shown = list(app.screen.query(FooterKey))
            assert shown and shown[-1].description == "Help", screen
            assert max(key.region.right for key in shown) <= 80, screen
            await keys(pilot, "g")

    run(app, scenario)


def test_the_status_line_counts_one_error_in_the_singular(catalog):
    """'✖ 1 error', not '✖ 1 errors' (issue 30, plurals): a Captain who is not the Warlord of an army
    without one."""
    from listbuilder.games import summarise

    roster = parse_roster(START + "units:\n  - {type: Captain}\n", "army.yaml", catalog).roster
    summary = summarise(validate(roster, catalog))
    assert [f.code for f in summary.findings if f.severity == "error"] == ["no-warlord"]
    shown = UnitsScreen.status(None, summary).plain  # type: ignore[arg-type]  (it reads only the summary)
    assert "✖ 1 error" in shown and "errors" not in shown


def test_ctrl_l_hides_and_shows_legends_in_the_add_dialog(catalog):
    """The Add dialog lists Legends datasheets, marked by their name, last; ctrl+l hides them (the
    title says so) and shows them again, the filter kept; the command palette follows the setting.
    At 80x24."""
    from listbuilder.tui.games.wh40k10 import AddUnitScreen

    app = EditorApp(catalog, parse_roster(START, "new.yaml", catalog).roster, unsaved=True)

    async def scenario(pilot):
        await keys(pilot, "a", "=bike squad")
        dialog = app.screen
        assert isinstance(dialog, AddUnitScreen)
        listed = dialog.query_one(FilteredList)
        assert [item.value for item in listed.shown] == ["Bike Squad [Legends]", "Attack Bike Squad [Legends]",
                                                         "Scout Bike Squad [Legends]", "Veteran Bike Squad [Legends]"]
        units = len(listed.items)
        await keys(pilot, "ctrl+l")
        assert [item.value for item in listed.shown] == []
        assert str(dialog.query_one(".dialog-title").render()) == "Add a unit · Space Marines · Legends hidden"
        assert not any("[Legends]" in item.value for item in listed.items) and len(listed.items) < units
        await keys(pilot, "escape", "a")  # the setting is the editor's: the next Add dialog hides them too
        assert not any("[Legends]" in item.value for item in app.screen.query_one(FilteredList).items)
        await keys(pilot, "ctrl+l", "=bike squad")
        assert app.screen.query_one(FilteredList).shown[0].value == "Bike Squad [Legends]"
        await keys(pilot, "ctrl+l", "escape")
        assert "Add Bike Squad [Legends]" not in [title for title, *_ in app.main.palette_picks()]

    run(app, scenario)


def test_choose_a_daemon_princes_allegiance_on_the_wargear_screen_save_and_undo(catalog, tmp_path):
    """D45: `g` on a Daemon Prince of Chaos with no Allegiance: the group with its choices and the
    data's limit (choose 1, Chaos - Chaos Daemons Library.cat:3715-3719) under the weapons, the
    data's finding on the choice left unmade below; Enter on Nurgle chooses it, the finding goes;
    saved, the YAML's unit has `options: [Nurgle]`; ctrl+z brings the finding back. 80×24."""
    text = ("game: wh40k-10e\nfaction: Chaos Daemons\nbattle_size: Strike Force\ndetachment: Daemonic Incursion\n"
            "units:\n  - {type: Daemon Prince of Chaos, warlord: true}\n")
    path = tmp_path / "prince.yaml"
    path.write_text(text)
    app = EditorApp(catalog, parse_roster(text, str(path), catalog).roster, path=path)

    async def scenario(pilot):
        await keys(pilot, "g")
        screen = app.screen
        assert isinstance(screen, WargearScreen)
        findings = screen.query_one(FindingsList)
        assert [f.suggestion for f in findings.findings] == [
            "state it in the unit's `options`, one of: Khorne, Nurgle, Slaanesh, Tzeentch"]
        rows = option_texts(screen.query_one("#wargear-options"))
        assert rows[:3] == ["Daemon Prince of Chaos", "  Infernal cannon     0/1   ", "  Hellforged weapons  0/1   "]
        at = rows.index("Allegiance · choose 1")  # no Warlord (w), no Enhancement (e): keys of their own
        assert rows[at:] == ["Allegiance · choose 1", "  ○ Khorne", "  ○ Nurgle", "  ○ Slaanesh", "  ○ Tzeentch"]
        screen.query_one("#wargear-options").highlighted = at + 2
        await keys(pilot, "enter")
        assert app.history.current.units[0].options == ["Nurgle"] and app.result.valid
        assert findings.findings == []
        assert option_texts(screen.query_one("#wargear-options"))[at + 2] == "  ◉ Nurgle"
        await keys(pilot, "ctrl+s")
        saved = path.read_text()
        assert "    options:\n      - Nurgle\n" in saved
        assert parse_roster(saved, str(path), catalog).roster.units[0].options == ["Nurgle"]
        await keys(pilot, "ctrl+z")
        assert app.history.current.units[0].options == [] and not app.result.valid
        assert [f.code for f in findings.findings] == ["data-constraint"]
        assert option_texts(screen.query_one("#wargear-options"))[at + 2] == "  ○ Nurgle"

    run(app, scenario)


def screen_text(app: EditorApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def drawn_anew(app: EditorApp, pilot, *views: OptionList) -> str:
    """The screen as it reads with `views` set anew from their own prompts (what an edit that kept
    some prompts must look like)."""
    for view in views:
        highlighted = view.highlighted
        view.set_options([Option(o.prompt, disabled=o.disabled) for o in view.options])
        view.highlighted = highlighted
    await pilot.pause()
    return screen_text(app)


def test_an_edit_draws_again_only_the_lines_it_changes_and_the_screen_reads_as_drawn_anew(catalog):
    # the squad's line changes with its models; leading it gives the Captain a line more (the
    # list is laid out again); each time the screen must be what a list set anew shows
    roster = parse_roster(START + "units:\n  - type: Captain\n    warlord: true\n  - type: Intercessor Squad\n",
                          "army.yaml", catalog).roster
    app = EditorApp(catalog, roster, unsaved=True)

    async def scenario(pilot):
        units = app.main.query_one("#roster-units", OptionList)
        await keys(pilot, "down")
        options, prompts = list(units.options), [o.prompt for o in units.options]
        await keys(pilot, "+")  # 5 -> 6 models
        assert app.history.current.units[1].models == 6
        assert units.options == options and units.options[0].prompt is prompts[0]
        assert "160 6 Intercessor Squad" in str(units.options[1].prompt) and "80 5 Intercessor Squad" in str(prompts[1])
        assert screen_text(app) == await drawn_anew(app, pilot, units)
        heights = dict(units._heights)
        await keys(pilot, "up", "l", "=intercessor", "enter")
        assert app.history.current.units[0].leads == "Intercessor Squad"
        assert units._heights != heights, (heights, [str(o.prompt) for o in units.options])
        assert screen_text(app) == await drawn_anew(app, pilot, units)

    run(app, scenario)


def test_the_lines_a_prompt_takes_are_those_textual_counts():
    """roster_view.lines_taken counts a prompt whose every line fits without wrapping it; it must
    agree with Content.get_height, which wraps: lines that fit, fit exactly, overflow (in words,
    in one long word, in wide characters), blank lines, trailing spaces, and a tab."""
    from textual.content import Content

    from listbuilder.tui.widgets.roster_view import lines_taken

    view = OptionList()
    prompts = [Content(""), Content("a"), Content("x" * 20), Content("x" * 21), Content("two words " * 4),
               Content.assemble(("  1  ", "bold"), "Intercessor Squad\n      M 6\"", ("\n\nlast", "$text-muted")),
               Content("漢字" * 6), Content("ends in spaces   \nand more"), Content("a\tb" * 4), Content("\n")]
    for prompt in prompts:
        for width in (19, 20, 21, 40):
            assert lines_taken(view, prompt, width) == prompt.get_height(view.styles, width), (prompt.plain, width)


def test_lines_kept_while_they_read_the_same_are_drawn_again_when_a_removal_renumbers_them(catalog):
    """A unit's line and a finding's keep their prompts while they read the same; removing the
    first unit renumbers every line after it, and the finding about the third unit (not a
    datasheet of the faction) now names it #2: each list must read as one set anew."""
    roster = parse_roster(START + "units:\n  - type: Captain\n    warlord: true\n  - type: Intercessor Squad\n"
                          "  - type: Ork Boyz\n", "army.yaml", catalog).roster
    app = EditorApp(catalog, roster, unsaved=True)

    async def scenario(pilot):
        findings = app.main.query_one(FindingsList)
        assert any(f.path[:2] == ("units", 2) for f in findings.findings)
        assert "#3 Ork Boyz" in screen_text(app)
        await keys(pilot, "+")  # the Captain's line and the findings read the same: their prompts are kept
        kept = [o.prompt for o in findings.options]
        await keys(pilot, "x")
        assert [u.type for u in app.history.current.units] == ["Intercessor Squad", "Ork Boyz"]
        assert any(f.path[:2] == ("units", 1) for f in findings.findings)
        shown = screen_text(app)
        assert "#2 Ork Boyz" in shown and "#3 Ork Boyz" not in shown
        units = app.main.query_one("#roster-units", OptionList)
        assert [o.prompt.plain[2:4] for o in units.options] == [" 1", " 2"]
        assert [o.prompt for o in findings.options] != kept
        assert shown == await drawn_anew(app, pilot, units, findings)

    run(app, scenario)


def gated_refusals(monkeypatch):
    """edits.refusals held until the returned event is set (each time it is cleared again), so that
    a test sees the Add dialog before the refusals come; what they find is the check's own."""
    import threading

    from listbuilder.games.wh40k10 import edits

    gate, refusals = threading.Event(), edits.refusals

    def held(*args, **kwargs):
        assert gate.wait(60)
        return refusals(*args, **kwargs)

    monkeypatch.setattr(edits, "refusals", held)
    return gate, refusals


def test_the_add_dialog_opens_before_its_refusals_come_and_dims_them_then(catalog, monkeypatch):
    """`a` after an edit opens the dialog at once: every datasheet, none dimmed, a line saying the
    army's refusals are being checked; typing filters meanwhile, and Enter holds the choice. When
    they come, the refused are dimmed, last, with the check's reason, as the whole faction's check
    finds them; a held choice refused stays highlighted with its reason, one not refused is added."""
    gate, refusals = gated_refusals(monkeypatch)
    monkeypatch.setattr(UnitsScreen, "refusals_after", 3600)  # only `a` asks for them here
    roster = parse_roster(START + "units:\n  - {type: Captain, warlord: true}\n", "army.yaml", catalog).roster
    app = EditorApp(catalog, roster, unsaved=True)

    def hint():
        return str(app.screen.query_one(".dialog-hint").render())

    async def scenario(pilot):
        await pilot.press("a", *"breaching robot")
        await pilot.pause()
        listed = app.screen.query_one(FilteredList)
        assert app.screen.checking and hint().startswith("Checking what the army refuses…")
        assert listed.shown[0].name == "Breaching Robot" and not any(item.disabled for item in listed.items)
        await pilot.press("enter")  # held until the refusals come
        await pilot.pause()
        assert isinstance(app.screen, PickScreen) and hint().startswith("Adding Breaching Robot once checked")
        gate.set()
        await settle(pilot)
        expected = refusals(app.main.data, app.history.current, app.main.datasheets(),
                            lambda r: validate(r, catalog))
        assert isinstance(app.screen, PickScreen) and not app.screen.checking  # refused: not added
        assert {item.name for item in listed.items if item.disabled} == set(expected) and "Breaching Robot" in expected
        assert [item.disabled for item in listed.items] == sorted(item.disabled for item in listed.items)
        assert listed.highlighted.name == "Breaching Robot"
        assert "✖ Breaching Robot has" in option_texts(listed.query_one("OptionList"))[0]
        assert hint() == "Enter add · Esc cancel · ctrl+l Legends · dimmed: not in this army"
        assert app.main.refusals == (app.main.state(), expected)
        await keys(pilot, "escape")
        assert [u.type for u in app.history.current.units] == ["Captain"]
        gate.clear()
        await keys(pilot, "+")  # the Captain can't grow: the state is the same, its refusals kept
        await pilot.press("a")
        await pilot.pause()
        assert not app.screen.checking
        await keys(pilot, "escape", "a", "=imperial rhino", "enter")  # a state of its own now
        assert [u.type for u in app.history.current.units] == ["Captain", "Imperial Rhino"]
        await pilot.press("a", *"imperial rhino", "enter")
        await pilot.pause()
        assert app.screen.checking and len(app.history.current.units) == 2
        gate.set()
        await settle(pilot)  # a second Imperial Rhino is allowed: added once checked
        assert [u.type for u in app.history.current.units] == ["Captain", "Imperial Rhino", "Imperial Rhino"]

    run(app, scenario)


def test_the_refusals_are_worked_out_once_an_edit_settles(catalog, monkeypatch):
    """An edit's check shown and no edit after it for `refusals_after`: the refusals are worked out
    in a thread, so that `a` opens with them; an edit meanwhile (its state under way) has its own
    worked out after those."""
    gate, refusals = gated_refusals(monkeypatch)
    monkeypatch.setattr(UnitsScreen, "refusals_after", 0.05)
    text = START + "units:\n  - {type: Captain, warlord: true}\n  - {type: Intercessor Squad}\n"
    app = EditorApp(catalog, parse_roster(text, "army.yaml", catalog).roster, unsaved=True)

    async def scenario():  # not `run`: it awaits the refusals, held here
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.2)
            first = app.main.state()
            assert app.main.refusing[0] == first and app.main.refusals[0] is None  # under way, held
            await pilot.press("down", "+")  # 6 Intercessors while the first state's are under way
            await pilot.pause(0.2)
            assert app.main.refusing[0] == first
            gate.set()
            await settle(pilot)
            await pilot.pause(0.2)
            await settle(pilot)
            assert app.main.refusals[0] == app.main.state() != first and app.main.refusing is None
            expected = refusals(app.main.data, app.history.current, app.main.datasheets(),
                                lambda r: validate(r, catalog))
            assert app.main.refusals[1] == expected
            await pilot.press("a")
            await pilot.pause()
            listed = app.screen.query_one(FilteredList)
            assert not app.screen.checking
            assert not [w for w in app.workers if w.group == "refusals" and not w.is_finished]
            assert {item.name for item in listed.items if item.disabled} == set(expected)

    asyncio.run(scenario())

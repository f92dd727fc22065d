"""The 40k editor's pure edits (games/wh40k10/edits.py) on the BSData snapshot, without the TUI:
the wargear it offers per kind of model and the carriers it steps, the units it refuses to add,
the label a second unit of a datasheet gets, the roster's name. Numbers read off `Imperium - Space
Marines.cat` by hand (as tests/test_wh40k_wargear.py): an Intercessor Squad's Sergeant alone may
take a plasma pistol or a thunder hammer; the grenade launcher comes with the launcher
Intercessors (up to 2) and the Sergeant may take one, at most 1 in the unit below 10 models and 2
at 10; a Chaos Terminator Squad takes at most 1 heavy flamer or reaper autocannon together below
10 models."""

import pytest

from listbuilder.battlescribe.evaluate import Evaluation
from listbuilder.games import validate
from listbuilder.games.wh40k10 import edits
from listbuilder.games.wh40k10.roster import Wh40kRoster, Wh40kUnit
from listbuilder.listengine.catalog import Catalog


@pytest.fixture(scope="module")
def data(bsdata):
    return bsdata.catalog


@pytest.fixture(scope="module")
def check(data):
    catalog = Catalog(installed={"wh40k-10e": data})
    return lambda roster: validate(roster, catalog)


def roster(*units: Wh40kUnit, faction: str = "Space Marines") -> Wh40kRoster:
    return Wh40kRoster(game="wh40k-10e", faction=faction, battle_size="Strike Force",
                       detachment="Gladius Task Force", units=list(units))


def sheet(data, name: str, faction: str = "Space Marines"):
    return data.unit_named(data.faction(faction), name)


def test_the_wargear_offered_is_grouped_by_the_kinds_of_model_that_may_carry_it(data):
    squad = sheet(data, "Intercessor Squad")
    offered = edits.wargear_options(squad, Wh40kUnit(type="Intercessor Squad", wargear={"Plasma pistol": 1}))
    by_weapon = {o.weapon: o for o in offered}
    # the defaults every model already has are not offered: nothing replaces a Bolt Rifle with itself
    assert not {"Bolt Rifle", "Bolt pistol", "Close combat weapon"} & set(by_weapon)
    # unless the roster names one anyway: it is shown, to be taken away
    named = edits.wargear_options(squad, Wh40kUnit(type="Intercessor Squad", wargear={"bolt rifle": 2}))
    assert [(o.weapon, o.carried, o.most) for o in named if o.weapon == "bolt rifle"] == [("bolt rifle", 2, 5)]
    assert [o.kinds for o in offered].index(("Intercessor Sergeant", "Intercessor w/ Grenade Launcher")) == 6
    assert {o.weapon for o in offered if o.kinds == ("Intercessor Sergeant",)} == {
        "Thunder Hammer", "Power fist", "Astartes Chainsword", "Power weapon", "Plasma pistol", "Hand flamer"}
    pistol, launcher = by_weapon["Plasma pistol"], by_weapon["Astartes grenade launcher"]
    assert (pistol.carried, pistol.most, pistol.limit) == (1, 1, "")
    assert (launcher.carried, launcher.most, launcher.limit) == (0, 3, "1 at 5-9 models, 2 at 10 models")
    terminators = sheet(data, "Chaos Terminator Squad", "Chaos Space Marines")
    offered = edits.wargear_options(terminators, Wh40kUnit(type="Chaos Terminator Squad"))
    assert {o.weapon: o.together for o in offered}["Reaper autocannon"] == (
        "Heavy flamer and Reaper autocannon together: 1 at 5-9 models, any at 10 models")


def test_a_weapon_the_datasheet_lacks_is_offered_last_to_be_removed(data):
    squad = sheet(data, "Intercessor Squad")
    offered = edits.wargear_options(squad, Wh40kUnit(type="Intercessor Squad", wargear={"Lascannon": 1}))
    assert (offered[-1].weapon, offered[-1].on_datasheet, offered[-1].carried) == ("Lascannon", False, 1)
    changed = edits.step_wargear(roster(Wh40kUnit(type="Intercessor Squad", wargear={"Lascannon": 1})), 0, squad,
                                 "Lascannon", -1)
    assert changed is not None and changed.units[0].wargear == {}


def test_stepping_carriers_writes_the_rosters_wargear_and_the_check_judges_it(data, check):
    squad = sheet(data, "Intercessor Squad")
    start = roster(Wh40kUnit(type="Captain", warlord=True),
                   Wh40kUnit(type="Intercessor Squad", wargear={"plasma pistol": 1}))
    one = edits.step_wargear(start, 1, squad, "Astartes grenade launcher", 1)
    assert one is not None and one.units[1].wargear == {"plasma pistol": 1, "Astartes grenade launcher": 1}
    assert check(one).valid
    two = edits.step_wargear(one, 1, squad, "Astartes grenade launcher", 1)
    assert two is not None and two.units[1].wargear["Astartes grenade launcher"] == 2
    [limit] = check(two).findings  # D24: the limit is not enforced by the edit, the check reports it
    assert (limit.code, limit.path) == ("wargear-not-allowed", ("units", 1, "wargear", "Astartes grenade launcher"))
    # the roster's own spelling is kept; to none removes the weapon; below none or above the unit's
    # 5 models there is no edit
    gone = edits.step_wargear(start, 1, squad, "Plasma pistol", -1)
    assert gone is not None and gone.units[1].wargear == {}
    assert edits.step_wargear(gone, 1, squad, "Plasma pistol", -1) is None
    many = roster(Wh40kUnit(type="Intercessor Squad", wargear={"Plasma pistol": 5}))
    assert edits.step_wargear(many, 0, squad, "Plasma pistol", 1) is None
    assert start.units[1].wargear == {"plasma pistol": 1}  # edits return new rosters


def test_stepping_a_weapon_below_the_kinds_said_to_carry_it_no_longer_says_which(data):
    """D56: `carried_by` keeps which kinds carry a weapon while `wargear` gives it to as many models;
    fewer, and the weapon's kinds are no longer stated (the check would otherwise refuse the roster)."""
    berzerkers = sheet(data, "Khorne Berzerkers", "World Eaters")
    start = roster(Wh40kUnit(type="Khorne Berzerkers", models=10,
                             wargear={"Plasma pistol": 2, "Khornate eviscerator": 1},
                             carried_by={"Khorne Berzerker Champion": {"Plasma pistol": 1},
                                         "Khorne Berzerker": {"Plasma pistol": 1, "Khornate eviscerator": 1}}),
                   faction="World Eaters")
    more = edits.step_wargear(start, 0, berzerkers, "Plasma pistol", 1)
    assert more is not None and more.units[0].carried_by == start.units[0].carried_by
    fewer = edits.step_wargear(start, 0, berzerkers, "Plasma pistol", -1)
    assert fewer is not None and fewer.units[0].wargear == {"Plasma pistol": 1, "Khornate eviscerator": 1}
    assert fewer.units[0].carried_by == {"Khorne Berzerker": {"Khornate eviscerator": 1}}


def test_a_second_unit_of_a_datasheet_gets_a_label_so_references_stay_unambiguous(check):
    led = roster(Wh40kUnit(type="Captain", warlord=True, leads="Intercessor Squad"),
                 Wh40kUnit(type="Intercessor Squad"))
    second = edits.add_unit(led, "Intercessor Squad")
    assert [u.label for u in second.units] == [None, None, "Intercessor Squad 2"]
    third = edits.add_unit(second, "Intercessor Squad")
    assert third.units[-1].label == "Intercessor Squad 3"
    result = check(third)
    assert result.valid and result.units[0].leads == 1  # the Captain still leads the first squad
    # a label already taken is skipped; a first unit of a name, or one whose namesake has a label, gets none
    named_so = Wh40kUnit(type="Rhino", label="Intercessor Squad 2")
    taken = edits.add_unit(roster(Wh40kUnit(type="Intercessor Squad"), named_so), "Intercessor Squad")
    assert taken.units[-1].label == "Intercessor Squad 3"
    assert edits.add_unit(roster(), "Intercessor Squad").units[0].label is None
    assert edits.add_unit(roster(Wh40kUnit(type="Intercessor Squad", label="Bravo")),
                          "Intercessor Squad").units[-1].label is None


def test_rename_sets_the_rosters_name():
    named = edits.rename(roster(), "  Strike Force Hale ")
    assert named.name == "Strike Force Hale" and roster().name == ""


def refused_alone(start: Wh40kRoster, units, check) -> dict[str, str]:
    """What adding each unit alone gives: the errors on its datasheet other than the counting rules."""
    found = {}
    for unit in units:
        result = check(edits.add_unit(start, unit.name))
        for f in result.findings:
            if f.severity == "error" and f.path[:3] == ("units", len(start.units), "type") \
                    and f.code not in edits.COUNTED:
                found.setdefault(unit.name, f.code)
    return found


@pytest.mark.parametrize("faction", ["Space Marines", "Necrons"])
def test_the_units_refused_are_those_the_check_refuses_when_each_is_added_alone(data, check, faction):
    """The one check of every unit added at once refuses only what adding each alone refuses, never
    a unit for being a fourth of its name, an Epic Hero again, or the points; a Rhino with no
    passenger yet is offered (its finding is on the unit, not its datasheet). The issue's Imperial
    Rhino, Watch Captain Artemis, Inquisitors and Assassins are offered: the data admits Agents of the
    Imperium as allies (D1, D37). The one check refuses exactly what adding each alone refuses
    (D34): a Sentry Gun and a Searchlight, which need a toggle the data hides outside Boarding
    Actions (Warhammer 40,000.gst:980-991; Unaligned Forces.cat:2513-2518), though in the one check
    the toggle is the Breaching Robot's, the first unit that needs it."""
    start = roster(Wh40kUnit(type="Captain", warlord=True), *[Wh40kUnit(type="Intercessor Squad")] * 3,
                   Wh40kUnit(type="Marneus Calgar"), faction=faction)
    if faction == "Necrons":
        start = roster(Wh40kUnit(type="Overlord", warlord=True), *[Wh40kUnit(type="Lychguard")] * 3, faction=faction)
    units = edits.faction_units(data, start)
    refused = edits.refusals(data, start, units, check)
    alone = refused_alone(start, units, check)
    assert set(refused) == set(alone)
    assert {name: f.code for name, f in refused.items() if f.code != "data-hidden"}.items() <= alone.items()
    if faction == "Space Marines":
        assert not {"Imperial Rhino", "Watch Captain Artemis", "Inquisitor", "Callidus Assassin"} & set(refused)
        assert refused["Breaching Robot"].code == "wrong-faction" and len(refused) == 5
        assert refused["Searchlight"].message == ("Searchlight needs Show Killzone Upgrade: Shadowvaults content, "
                                                  "which the data hides in this army")
        assert refused["Searchlight"].rule.startswith("data: Warhammer 40,000.gst:980")
        assert alone["Searchlight"] == "data-hidden" and alone["Sentry Gun"] == "wrong-faction"
        assert not {"Rhino", "Intercessor Squad", "Marneus Calgar", "Captain"} & set(refused)


def test_a_unit_the_rosters_own_toggle_shows_is_offered_as_the_check_allows_it(data, check):
    """D34: with a Breaching Robot in the roster (refused: the toggle it needs is hidden, and that
    finding is its), the check allows a Sentry Gun, a Searchlight or another Breaching Robot added
    beside it, which need the same toggle: it finds the one mistake once. The dialog offers them too."""
    start = roster(Wh40kUnit(type="Captain", warlord=True), Wh40kUnit(type="Breaching Robot"))
    assert [f.path for f in check(start).findings if f.severity == "error"] == [("units", 1, "type")]
    units = [sheet(data, name) for name in ("Sentry Gun", "Searchlight", "Breaching Robot", "Intercessor Squad")]
    assert edits.refusals(data, start, units, check) == refused_alone(start, units, check) == {}


def test_a_units_options_are_its_data_choices_shown_here_and_one_of_a_group_replaces_another(data, check):
    """D45: a Daemon Prince of Chaos's Allegiance (Chaos - Chaos Daemons Library.cat:3715-3719, min
    1, max 1) is offered, each choice under its group with the data's limit; choosing one replaces
    another of the group, choosing it again stops; no Crusade group is offered, though `options`
    would name its choices (the data hides it, D44)."""
    prince = roster(Wh40kUnit(type="Daemon Prince of Chaos", warlord=True), faction="Chaos Daemons")
    prince = prince.model_copy(update={"detachment": "Daemonic Incursion"})
    result = check(prince)
    offered = edits.unit_options(data, prince, result.tree, 0)
    allegiance = [o for o in offered if o.group == "Allegiance"]
    assert [(o.name, o.limit, o.chosen) for o in allegiance] == [
        (god, "choose 1", False) for god in ("Khorne", "Nurgle", "Slaanesh", "Tzeentch")]
    assert not [o for o in offered if "crusade" in o.group.casefold() or o.name == "Warlord"]
    unit = result.tree.units[0].option
    nurgle = edits.choose_option(prince, 0, unit, allegiance[1])
    assert nurgle.units[0].options == ["Nurgle"]
    result = check(nurgle)
    chosen = [o for o in edits.unit_options(data, nurgle, result.tree, 0) if o.group == "Allegiance"]
    assert [o.name for o in chosen if o.chosen and o.stated] == ["Nurgle"]
    assert edits.choose_option(nurgle, 0, unit, chosen[3]).units[0].options == ["Tzeentch"]
    assert edits.choose_option(nurgle, 0, unit, chosen[1]).units[0].options == []


def test_every_category_count_of_the_add_dialogs_check_is_the_whole_count(data, check):
    """The engine counts a scope's selections by category once per set of them whose views are in
    progress, and a count made while more were in progress is built on by adding the views since
    finished (evaluate.py, `_categorised_counts`). On the Add dialog's one check of the whole
    faction (Space Marines: 256 datasheets added to a Captain and three Intercessor Squads), every
    count it kept is what counting that scope afresh gives: each selection in progress as the data
    states it, every other as its view makes it."""
    start = roster(Wh40kUnit(type="Captain", warlord=True), *[Wh40kUnit(type="Intercessor Squad")] * 3)
    units = edits.faction_units(data, start)
    result = check(edits.with_units(start, [*start.units, *(Wh40kUnit(type=u.name) for u in units)]))
    evaluation = result.tree.editor.evaluation
    lists = {id(found): found for found in evaluation._scopes.values()}
    checked = built_on = 0
    for (list_id, per_parent), passes in evaluation._categorised.items():
        built_on += any(earlier > done for earlier in passes for done in passes)
        for in_progress, (counts, whole) in passes.items():
            if not whole:
                continue  # a count that spanned a drop of the caches is never built on
            afresh: dict[str, float] = {}
            for selection in lists[list_id]:
                number = selection.number if per_parent else selection.total_number
                ids = selection.option.base_category_ids if id(selection) in in_progress else (
                    selection.option.counted_ids | {c.id for c in evaluation.view(selection).categories})
                for named in ids:
                    afresh[named] = afresh.get(named, 0.0) + number
            assert {k: v for k, v in counts.items() if v} == {k: v for k, v in afresh.items() if v}
            checked += 1
    assert checked >= 5 and built_on >= 1


def test_the_views_worked_out_while_finding_targeted_modifiers_are_kept_as_any_order_finds_them(data, check):
    """Where no modifier aimed at another selection holds (the Add dialog's check of Space Marines:
    some 1,300 selections), the views the engine worked out while looking for them are kept
    (evaluate.py, `_collect_incoming`), no longer worked out again. Each is what the data makes
    of that selection whatever order the views are worked out in: the same as an evaluation of
    the roster that looks for those modifiers first, then works out every view in the roster's
    order."""
    start = roster(Wh40kUnit(type="Captain", warlord=True), *[Wh40kUnit(type="Intercessor Squad")] * 3)
    units = edits.faction_units(data, start)
    result = check(edits.with_units(start, [*start.units, *(Wh40kUnit(type=u.name) for u in units)]))
    kept = result.tree.editor.evaluation
    assert kept._incoming_ready and not kept._incoming
    fresh = Evaluation(kept.roster)
    fresh._collect_incoming()
    selections = list(kept.roster.all_selections())
    assert len(selections) > 1000
    for selection in selections:
        mine, theirs = kept.view(selection), fresh.view(selection)
        assert (mine.name, mine.hidden, mine.unit_costs, mine.categories, mine.values) == (
            theirs.name, theirs.hidden, theirs.unit_costs, theirs.categories, theirs.values)


@pytest.mark.parametrize("faction, names", [
    ("Space Marines", ("Captain", "Intercessor Squad", "Tactical Squad", "Redemptor Dreadnought", "Librarian",
                       "Terminator Squad", "Rhino", "Chaplain")),
    ("Chaos Daemons", ("Daemon Prince of Chaos", "Bloodletters", "Plaguebearers"))])
def test_a_units_options_are_those_neither_hidden_nor_in_a_group_hidden_as_the_engine_asks(data, check, faction,
                                                                                            names):
    """unit_options asks a unit's groups outermost first, each once (most choices are Crusade's,
    in one group the data hides): it offers what the engine's own question, each choice's groups
    nearest first (Evaluation.in_hidden_group), leaves, unit by unit."""
    from listbuilder.battlescribe.evaluate import Context
    from listbuilder.core.names import name_key
    from listbuilder.games.wh40k10.engine_roster import choices, is_weapon

    army = roster(*(Wh40kUnit(type=name) for name in names), faction=faction)
    army = army.model_copy(update={"detachment": edits.detachments(data, army)[0].name})
    tree = check(army).tree
    own = {name_key("Warlord")} | {name_key(e.name) for d in edits.detachments(data, army) for e in d.enhancements}
    shown = 0
    for index in range(len(names)):
        unit, evaluation = tree.units[index], tree.editor.evaluation
        expected = [choice.name for _, choice in choices(unit.option)
                    if not is_weapon(choice) and name_key(choice.name) not in own
                    and not evaluation.in_hidden_group(choice, unit, tree.force)
                    and not evaluation.is_hidden(choice, Context(None, unit, tree.force, choice))]
        assert [o.name for o in edits.unit_options(data, army, tree, index)] == expected, names[index]
        shown += len(expected)
    assert shown  # some unit has options to show

"""The BSData importer on small made-up files: points rules, Leader text, hostile and broken XML."""

from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from listbuilder.games.wh40k10.importing.bsdata import Library, import_folder, read_catalog, read_folder
from listbuilder.games.wh40k10.importing.bsdata import library as bsdata
from listbuilder.games.wh40k10.importing.leader_text import parse_bodyguard, parse_leader
from tests.bsdata_samples import CATALOGUE, write_sample


@pytest.fixture
def sample(tmp_path):
    result = import_folder(write_sample(tmp_path / "data"), revision="test")
    assert result.errors == []
    return result.catalog


def test_set_modifiers_stack_and_the_last_that_applies_wins(sample):
    squad = sample.unit_named(sample.faction("Testers"), "Test Squad")
    # base 40; at least 2 models 60; more than 2 models 90; exactly 4 in the Troops group 100
    assert [(s.models, s.points) for s in squad.sizes] == [(1, 40), (2, 60), (3, 90), (4, 100), (5, 90)]
    assert squad.battleline and squad.max_in_army == 6 and not squad.priced_per_model


def test_a_plain_wargear_choice_is_imported_and_one_limited_per_unit_is_counted_as_left_out(tmp_path):
    result = import_folder(write_sample(tmp_path / "data"))
    squad = result.catalog.unit_named(result.catalog.faction("Testers"), "Test Squad")
    [gun] = squad.wargear_choices
    assert (gun.model, gun.name, gun.options, gun.default, gun.min, gun.max) == (
        "Trooper", "Gun", ["Rifle", "Pistol"], ["Rifle"], 1, 1)
    assert result.left_out["wargear option rules (units keep their default loadout)"] == 1  # the Heavy Gun
    assert result.catalog.summary.wargear_rules_left_out == 1


CANNON_LIMIT = '<constraint type="max" value="1" field="selections" scope="unit" id="k-cannon"/>'
PER_TWO_MODELS = ('<repeats><repeat value="2" repeats="1" field="selections" scope="unit" childId="model" '
                  'includeChildSelections="true"/></repeats>')


@pytest.mark.parametrize("limit, modifier, most, why", [
    # not counting what the unit's models take: the sample as it is
    (CANNON_LIMIT, "", None, "not counting what the unit's models take"),
    (CANNON_LIMIT.replace("/>", ' includeChildSelections="true"/>'), "", dict.fromkeys(range(1, 6), 1), None),
    (CANNON_LIMIT.replace("/>", ' includeChildSelections="true"/>'),
     f'<modifier type="increment" value="1" field="k-cannon">{PER_TWO_MODELS}</modifier>',
     {1: 1, 2: 2, 3: 2, 4: 3, 5: 3}, None),
    (CANNON_LIMIT.replace("/>", ' includeChildSelections="true"/>'),  # more once a Mortar is taken: not read
     '<modifier type="increment" value="1" field="k-cannon"><conditions><condition type="atLeast" value="1" '
     'field="selections" scope="unit" childId="o-mortar"/></conditions></modifier>', None,
     "raised by a modifier on more than the unit's size"),
    (CANNON_LIMIT.replace('scope="unit"', 'scope="u-walkers" includeChildSelections="true"'), "", None,
     "counted in something other than the unit (a model, another datasheet)"),
])
def test_a_limit_per_unit_is_read_where_it_can_be_and_counted_where_not(tmp_path, limit, modifier, most, why):
    cannon = ('<profiles><profile id="p-cannon" name="Cannon" typeName="Ranged Weapons"/></profiles>'
              f'<modifiers>{modifier}</modifiers>')
    catalogue = CATALOGUE.replace("{link}", "").replace(CANNON_LIMIT, limit).replace(
        '</constraints>\n                    </selectionEntry>\n'
        '                    <selectionEntry type="upgrade" id="o-mortar"',
        f'</constraints>{cannon}\n                    </selectionEntry>\n'
        '                    <selectionEntry type="upgrade" id="o-mortar"')
    assert cannon_limits(tmp_path, catalogue, "wargear limits per unit left out: ") == (
        {"Cannon": most} if most else {}, {why: 1} if why else {})


def cannon_limits(tmp_path, catalogue: str, left_out: str) -> tuple[dict, dict]:
    """The Test Squad's limits per unit from a catalogue whose Cannon has a profile, and what the
    import report counts as left out under a heading."""
    assert 'id="p-cannon"' in catalogue
    result = import_folder(write_sample(tmp_path / "data", catalogue=catalogue))
    squad = result.catalog.unit_named(result.catalog.faction("Testers"), "Test Squad")
    return ({limit.weapon: limit.most for limit in squad.wargear_limits},
            {kind.removeprefix(left_out): n for kind, n in result.left_out.items() if kind.startswith(left_out)})


def gives(entry: str, weapons: list[str]) -> str:
    """The profiles of these weapons, on one entry."""
    return "<profiles>" + "".join(f'<profile id="p-{entry}-{i}" name="{weapon}" typeName="Ranged Weapons"/>'
                                  for i, weapon in enumerate(weapons)) + "</profiles>"


@pytest.mark.parametrize("cannon, laser, trooper, together, why", [
    # each entry of the Heavy Gun group gives one weapon: at most 1 of them in all
    (["Cannon"], [], [], {("Cannon", "Mortar"): 1}, None),
    # the Trooper has a Mortar of his own, outside the group: only the Cannon comes through it alone
    (["Cannon"], [], ["Mortar"], {}, "its weapons also come other ways"),
    # one selection of the Cannon's entry gives a Cannon and a Bayonet: neither is summed ...
    (["Cannon", "Bayonet"], [], [], {}, "one selection may give a model two of its weapons"),
    # ... and the other entries' weapons, one each, still are
    (["Cannon", "Bayonet"], ["Laser"], [], {("Laser", "Mortar"): 1}, None),
])
def test_a_limit_on_several_weapons_is_read_together_where_sound_and_counted_where_not(
        tmp_path, cannon, laser, trooper, together, why):
    """D26 on a made-up catalogue: the Trooper's Heavy Gun group, at most 1 selection in the unit."""
    catalogue = CATALOGUE.replace("{link}", "").replace(
        '<selectionEntryGroup id="g-heavy" name="Heavy Gun">',
        '<selectionEntryGroup id="g-heavy" name="Heavy Gun"><constraints><constraint type="max" value="1" '
        'field="selections" scope="unit" includeChildSelections="true" id="k-heavy"/></constraints>').replace(
        f"<constraints>{CANNON_LIMIT}</constraints>", gives("cannon", cannon)).replace(
        '<selectionEntry type="upgrade" id="o-mortar" name="Mortar"/>',
        f'<selectionEntry type="upgrade" id="o-mortar" name="Mortar">{gives("mortar", ["Mortar"])}</selectionEntry>'
        + (f'<selectionEntry type="upgrade" id="o-laser" name="Laser">{gives("laser", laser)}</selectionEntry>'
           if laser else "")).replace(
        '<selectionEntry type="model" id="m-trooper" name="Trooper">',
        f'<selectionEntry type="model" id="m-trooper" name="Trooper">{gives("trooper", trooper)}')
    result = import_folder(write_sample(tmp_path / "data", catalogue=catalogue))
    squad = result.catalog.unit_named(result.catalog.faction("Testers"), "Test Squad")
    assert {tuple(g.weapons): g.most for g in squad.wargear_group_limits} == {
        weapons: dict.fromkeys(range(1, 6), most) for weapons, most in together.items()}
    heading = "wargear limits on several weapons together left out: "
    assert {kind.removeprefix(heading): n for kind, n in result.left_out.items() if kind.startswith(heading)} == (
        {why: 1} if why else {})
    assert squad.limits["cannon"].most == dict.fromkeys(range(1, 6), 1)  # its own limit stands either way


def test_a_unit_without_a_unit_cost_is_priced_per_model(sample):
    walkers = sample.unit_named(sample.faction("Testers"), "Test Walkers")
    assert walkers.priced_per_model
    assert [(s.models, s.points) for s in walkers.sizes] == [(1, 25), (2, 50), (3, 75)]


def test_the_game_system_gives_battle_sizes_and_the_catalogue_its_faction(sample):
    assert [(b.name, b.points) for b in sample.system.battle_sizes] == [("Incursion", 1000), ("Strike Force", 2000)]
    faction = sample.faction("Test - Testers")
    assert (faction.faction_keyword, faction.revision, sample.data_revision) == ("Testers", 7, "test")


def test_an_enhancement_of_no_detachment_is_reported_where_it_is(tmp_path):
    result = import_folder(write_sample(tmp_path / "data"))
    [lost] = [f for f in result.findings if f.code == "bsdata-enhancement-detachment"]
    assert "Another Army's Relic" in lost.message and lost.location.file == "Test - Testers.cat"
    assert result.left_out["enhancements without a detachment"] == 1


def test_enhancements_go_to_the_detachment_their_group_or_their_hiding_names(sample):
    detachments = {d.name: d for d in sample.faction("Testers").detachments}
    assert [r.name for r in detachments["Alpha Host"].rules] == ["Alpha Drill"]
    [sword] = detachments["Alpha Host"].enhancements  # a flat group: hidden unless Alpha Host is taken
    assert (sword.name, sword.points, sword.restrictions) == ("Shiny Sword", 15,
                                                              "TESTERS model only (excluding bosses)")
    assert [(e.name, e.points) for e in detachments["Beta Host"].enhancements] == [("Dull Shield", 10)]
    assert set(detachments) == {"Alpha Host", "Beta Host"}  # Gamma Host's enhancements belong to no detachment here


def test_a_leader_list_in_capitals_with_a_footnote_names_the_datasheets(sample):
    boss = sample.unit_named(sample.faction("Testers"), "Test Boss")
    assert boss.character and boss.profiles == []
    assert [(t.name, t.condition) for t in boss.leader.units] == [
        ("Test Squad", None), ("Test Walkers", "Only while it carries a banner.")]


@pytest.mark.parametrize("text, names", [
    ("This model can be attached to the following units:\n- **^^Alpha Team^^**\n- **^^Beta Team^^**",
     ["Alpha Team", "Beta Team"]),
    ("This model can be attached to the following units: ALPHA TEAM, BETA TEAM", ["Alpha Team", "Beta Team"]),
    ("This model can be attached to the following units: ^^**Alpha Team, Beta Team^^**.", ["Alpha Team", "Beta Team"]),
    ("This model can be attached to the following unit: ^^**Alpha Team**^^", ["Alpha Team"]),
    ("This model can be attached to the following units: Alpha Team; Beta Team", ["Alpha Team", "Beta Team"]),
    ("This model can be attached to the following units: Alpha Team (excluding Fly, Gravis), Beta Team'",
     ["Alpha Team (excluding Fly, Gravis)", "Beta Team"]),
])
def test_every_textual_form_of_a_leader_list_reads_alike(text, names):
    canonical = {"alpha team": "Alpha Team", "beta team": "Beta Team"}
    assert [t.name for t in parse_leader(text, canonical).units] == names


def test_a_second_leader_permission_is_read_from_the_note():
    named = parse_leader("This model can be attached to the following units:\n■ Alpha Team\n\n"
                         "*It may join one of those units even if one ^^**Captain^^** or ^^**Chapter Master^^** "
                         "model has already been attached to it.*", {})
    assert named.alongside == ["Captain", "Chapter Master"] and not named.alongside_any
    assert [t.condition for t in named.units] == [None]
    anyone = parse_leader("This model can be attached to the following unit: Alpha Team\n*It may join an Alpha "
                          "Team even if one other Leader unit has already been attached to it.*", {})
    assert anyone.alongside_any and anyone.alongside == []
    listed = parse_leader("This model can be attached to the following unit: Alpha Team\n*It may join it even if a "
                          "PRIMUS, MAGUS, or ACOLYTE ICONWARD model has already been attached to it.*", {})
    assert listed.alongside == ["Primus", "Magus", "Acolyte Iconward"]
    characters = parse_leader("This model can be attached to the following unit: Alpha Team\n*It may join it even "
                              "if one or more Character units have already been attached to it.*", {})
    assert characters.alongside_any


def test_a_bodyguard_datasheet_may_take_two_leaders_or_borrow_another_units_leaders():
    two = parse_bodyguard(["With a Starting Strength of 20, you can attach two Leader units to this unit, "
                           "as long as they differ."], {})
    assert (two.max_leaders, two.max_leaders_from) == (2, 20)
    borrowed = parse_bodyguard(["If a Character can be attached to an ALPHA TEAM, it can be attached to this unit "
                                "instead."], {"alpha team": "Alpha Team"})
    assert borrowed.leaders_of == ["Alpha Team"] and borrowed.max_leaders == 1
    assert parse_bodyguard(["Nothing about leaders."], {}) is None


BOMB = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<catalogue id="x" name="&lol3;"/>
"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE catalogue [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<catalogue id="x" name="&secret;"/>
"""


@pytest.mark.parametrize("hostile", [BOMB, EXTERNAL])
def test_an_xml_bomb_or_external_entity_is_refused_with_its_location(tmp_path, hostile):
    result = import_folder(write_sample(tmp_path / "data", catalogue=hostile))
    [error] = result.errors
    assert error.code == "bsdata-unreadable" and "DOCTYPE" in error.message
    assert str(error.location) == "Test - Testers.cat:2"
    assert "root:" not in str(result.catalog.model_dump()) if result.catalog else True


def test_a_truncated_catalogue_is_a_located_error_not_a_traceback(tmp_path):
    result = import_folder(write_sample(tmp_path / "data", catalogue=CATALOGUE[:1500]))
    [error] = result.errors
    assert "truncated" in error.message and error.location.file == "Test - Testers.cat"
    assert error.location.line > 1


def test_a_broken_link_and_an_unknown_element_are_located_warnings(tmp_path):
    link = '<entryLink id="e-1" name="Lost Wargear" targetId="nowhere" type="selectionEntry"/><gizmo/>'
    result = import_folder(write_sample(tmp_path / "data", link=link))
    assert result.errors == [] and result.catalog is not None
    found = {f.code: f for f in result.findings}
    line = next(n for n, text in enumerate(CATALOGUE.splitlines(), 1) if "{link}" in text)
    assert str(found["bsdata-broken-link"].location) == f"Test - Testers.cat:{line}"
    assert str(found["bsdata-unknown-element"].location) == f"Test - Testers.cat:{line}"
    assert "nowhere" in found["bsdata-broken-link"].message
    assert result.left_out["broken links"] == 1


def test_the_import_holds_the_trees_of_the_files_in_use_only(tmp_path, monkeypatch):
    monkeypatch.setattr(bsdata, "PARSED_AT_ONCE", 0)  # as if the files were larger than it
    folder = write_sample(tmp_path / "data")
    with ThreadPoolExecutor(max_workers=1) as pool:
        library = Library([], Counter(), pool)
        read_folder(folder, library)
        assert [(x.path.name, x.loaded) for x in library.files] == [("Test.gst", True), ("Test - Testers.cat", False)]
        catalog = read_catalog(library, "test")
    assert catalog.unit_named(catalog.faction("Testers"), "Test Squad").sizes  # the catalogue was parsed again
    assert [x.loaded for x in library.files] == [True, False]  # and released once no faction needs it


def test_a_catalogue_changed_during_the_import_is_a_located_error(tmp_path, monkeypatch):
    monkeypatch.setattr(bsdata, "PARSED_AT_ONCE", 0)  # the catalogue is parsed again once its faction is read
    folder = write_sample(tmp_path / "data")
    add = Library.add

    def add_then_change(library, xml):  # the catalogue is cut short once read and released
        add(library, xml)
        if xml.path.suffix == ".cat":
            xml.path.write_text(CATALOGUE[:1500], encoding="utf-8")

    monkeypatch.setattr(Library, "add", add_then_change)
    result = import_folder(folder)
    [error] = result.errors
    assert result.catalog is None and error.code == "bsdata-unreadable"
    assert error.location.file == "Test - Testers.cat" and "truncated" in error.message


def test_a_folder_without_a_game_system_says_so(tmp_path):
    (tmp_path / "empty").mkdir()
    result = import_folder(tmp_path / "empty")
    assert result.catalog is None and [e.code for e in result.errors] == ["bsdata-no-game-system"]


def test_a_number_that_is_not_one_leaves_out_its_unit_located(tmp_path):
    broken = CATALOGUE.replace("{link}", "").replace('<cost name="pts" typeId="pts-id" value="25"/>',
                                                     '<cost name="pts" typeId="pts-id" value="lots"/>')
    result = import_folder(write_sample(tmp_path / "data", catalogue=broken))
    assert result.errors == []
    [bad] = [f for f in result.findings if f.code == "bsdata-bad-number"]
    assert "Test Walkers left out" in bad.message and "'lots'" in bad.message
    line = next(n for n, text in enumerate(broken.splitlines(), 1) if 'value="lots"' in text)
    assert str(bad.location) == f"Test - Testers.cat:{line}"
    assert result.catalog.unit_named(result.catalog.faction("Testers"), "Test Walkers") is None


def test_a_catalogue_revision_that_is_not_a_number_is_an_error(tmp_path):
    broken = CATALOGUE.replace("{link}", "").replace('revision="7"', 'revision="seven"')
    result = import_folder(write_sample(tmp_path / "data", catalogue=broken))
    assert result.catalog is None
    [error] = result.errors
    assert error.code == "bsdata-bad-number" and error.location.file == "Test - Testers.cat"
    assert error.location.line in (2, 3)  # the root's start tag spans both; libxml2 gives its last line


@pytest.mark.parametrize("name", ["Loop Enhancements", "Loop Options"])
def test_groups_that_link_each_other_in_a_circle_end(tmp_path, name):
    circle = '<entryLink id="e-loop" name="Loop" targetId="g-loop" type="selectionEntryGroup"/>'
    looped = CATALOGUE.replace("{link}", circle).replace(
        "</sharedSelectionEntryGroups>",
        f'<selectionEntryGroup id="g-loop" name="{name}"><entryLinks>{circle}</entryLinks>'
        '</selectionEntryGroup></sharedSelectionEntryGroups>')
    result = import_folder(write_sample(tmp_path / "data", catalogue=looped))
    assert result.errors == [] and result.catalog.unit_named(result.catalog.faction("Testers"), "Test Boss")


def condition(kind: str, value: int, child: str, scope: str = "unit", children: bool = True) -> str:
    return (f'<condition type="{kind}" value="{value}" field="selections" scope="{scope}" childId="{child}" '
            'shared="true"'
            + (' includeChildSelections="true"/>' if children else "/>"))


def conditions(*inside: str, group: str = "") -> str:
    listed = f"<conditions>{''.join(inside)}</conditions>"
    return (f'<conditionGroups><conditionGroup type="{group}">{listed}</conditionGroup></conditionGroups>' if group
            else listed)


def error(conditions: str, kind: str = "add") -> str:
    return f'<modifier type="{kind}" value="Max 1 {{this}} per 4 models" field="error">{conditions}</modifier>'


FEWER_THAN_4 = condition("lessThan", 4, "model")
MORE_THAN_1 = condition("greaterThan", 1, "o-cannon")


@pytest.mark.parametrize("message, most, why", [
    # the Intercessors' grenade launcher: fewer than 4 models and more than 1 Cannon, in an `and` group
    (error(conditions(FEWER_THAN_4, MORE_THAN_1, group="and")), {1: 1, 2: 1, 3: 1, 4: 4, 5: 5}, None),
    # ... the models counted as the group holding them all, without child selections
    (error(conditions(condition("lessThan", 4, "g-troops", children=False), MORE_THAN_1)),
     {1: 1, 2: 1, 3: 1, 4: 4, 5: 5}, None),
    # the Wracks' hexrifle: more than 2, or more than 1 below 4 models
    (error(f'<conditionGroups><conditionGroup type="or">{conditions(condition("greaterThan", 2, "o-cannon"))}'
           f'{conditions(FEWER_THAN_4, MORE_THAN_1, group="and")}</conditionGroup></conditionGroups>'),
     {1: 1, 2: 1, 3: 1, 4: 2, 5: 2}, None),
    # the Voidscarred's "Squad size must be 10": any Cannon below 3 models
    (error(conditions(condition("lessThan", 3, "model"), condition("atLeast", 1, "o-cannon"))),
     {1: 0, 2: 0, 3: 3, 4: 4, 5: 5}, None),
    # "cannot have both": a condition on another entry
    (error(conditions(condition("atLeast", 1, "o-mortar"), condition("atLeast", 1, "o-cannon"), group="and")), None,
     "under conditions on more than the unit's size and the selections of its entry"),
    # counted within the model, not the unit
    (error(conditions(FEWER_THAN_4, condition("greaterThan", 1, "o-cannon", scope="parent"))), None,
     "under conditions on more than the unit's size and the selections of its entry"),
    # a count that does not only rise (exactly 1)
    (error(conditions(FEWER_THAN_4, condition("equalTo", 1, "o-cannon"))), None,
     "under conditions on more than the unit's size and the selections of its entry"),
    # what a selection is, not how many
    (error(conditions(FEWER_THAN_4, condition("instanceOf", 1, "o-cannon"))), None,
     "under conditions on more than the unit's size and the selections of its entry"),
    (f'<modifierGroup>{conditions(FEWER_THAN_4)}<modifiers>{error(conditions(MORE_THAN_1))}</modifiers></modifierGroup>',
     None, "in a modifier group or repeated"),
    (error(""), None, "without conditions"),
])
def test_an_error_message_is_read_as_a_limit_per_unit_where_it_can_be_and_counted_where_not(tmp_path, message, most,
                                                                                           why):
    """D25 on a made-up squad of 1-5 Troopers, each of whom may take a Cannon that no constraint limits."""
    wrapper = "modifierGroups" if message.startswith("<modifierGroup") else "modifiers"
    cannon = ('<profiles><profile id="p-cannon" name="Cannon" typeName="Ranged Weapons"/></profiles>'
              f'<{wrapper}>{message}</{wrapper}>')
    catalogue = CATALOGUE.replace("{link}", "").replace(f"<constraints>{CANNON_LIMIT}</constraints>", cannon)
    assert cannon_limits(tmp_path, catalogue, "wargear rules stated as error messages left out: ") == (
        {"Cannon": most} if most else {}, {why: 1} if why else {})

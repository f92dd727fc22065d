"""Constraint kinds the Codex Astartes list does not use, on a small army built in Python."""

import pytest

from listbuilder.games import validate
from listbuilder.listengine.armylist import ArmyList, GameSettings
from listbuilder.listengine.catalog import Catalog
from listbuilder.listengine.datasheet import DatasheetFile
from listbuilder.listengine.roster import Roster

SHEETS = DatasheetFile.model_validate({"faction": "Test", "section": "0", "units": [
    {"name": "Trooper", "type": "INF", "speed": 15, "armour": "5+", "close_combat": "5+", "firefight": "5+",
     "abilities": ["Scout"], "lines": [1]},
    {"name": "Tank", "type": "AV", "speed": 30, "armour": "4+", "close_combat": "6+", "firefight": "5+",
     "transport": [{"slots": 2, "carries": {"Trooper": 1}}], "lines": [2]},
    {"name": "Strider", "type": "WE", "speed": 15, "armour": "4+", "close_combat": "4+", "firefight": "4+",
     "damage_capacity": 4, "lines": [3],
     "weapons": [{"name": "Cannon", "range": "60cm", "firepower": "AP4+"},
                 {"name": "Fist", "range": "b/c", "firepower": "Assault"}],
     "loadouts": [{"name": "Cannon", "weapons": ["Cannon"]}, {"name": "Fist", "weapons": ["Fist"]}]},
    {"name": "Gun", "type": "AV", "speed": 0, "armour": "6+", "close_combat": "-", "firefight": "6+", "lines": [4]},
]})
GAME = GameSettings.model_validate({"id": "test-game", "name": "Test", "system": "epic-armageddon",
                                    "points": {"min": 1000, "max": 5000}, "garrison": {}})
ARMY = ArmyList.model_validate({
    "id": "test-army", "name": "Test Army", "game": "test-game", "section": "1", "strategy_rating": 2,
    "initiative": "2+", "datasheets": ["test"], "rule": "1 Test list",
    "formations": [
        {"name": "HQ", "units": [{"unit": "Trooper", "count": 2}], "points": 100, "max_per_army": 1},
        {"name": "Squad", "units": [{"unit": "Trooper", "count": 4}], "points": 50, "count": {"min": 1, "max": 3}},
        {"name": "Battery", "units": [{"unit": "Gun", "count": 1}], "points": {1: 60, 2: 100},
         "count": {"min": 1, "max": 2}},
        {"name": "Mix", "units": [{"choice": ["Trooper", "Tank"], "count": 3}], "points": 90},
        {"name": "Engine", "units": [{"unit": "Strider", "count": 1}], "points": 300},
    ]})
CATALOG = Catalog(games={"test-game": GAME}, lists={"test-game": {"test-army": ARMY}},
                  datasheets={"test-game": {"test": SHEETS}})


def check(*formations, points=2000):
    roster = Roster.model_validate({"game": "test-game", "army": "test-army", "points": points,
                                    "formations": list(formations)})
    return validate(roster, CATALOG)


def test_references_resolve():
    assert CATALOG.check_references() == []


def test_per_copy_price_and_price_table():
    result = check({"type": "Squad", "count": 3}, {"type": "Battery", "count": 2})
    assert result.valid
    assert [(f.points, f.derived["units"]) for f in result.formations] == [(150, 12), (100, 2)]


def test_zero_to_one_formation():
    result = check({"type": "HQ"}, {"type": "HQ"})
    [finding] = result.findings
    assert (finding.code, finding.path) == ("limit-exceeded", ("formations", 1))
    assert finding.message == "2 HQ formations: 0-1 allowed"


def test_count_outside_range_and_on_a_single_formation():
    result = check({"type": "Squad", "count": 4}, {"type": "HQ", "count": 2})
    assert [f.code for f in result.findings] == ["quantity-out-of-range", "quantity-out-of-range"]
    assert result.findings[0].message == "Squad takes 1 to 3 per formation; the roster has 4"


def test_composition_must_add_up():
    result = check({"type": "Mix", "composition": {"Trooper": 1, "Tank": 1}})
    assert [f.message for f in result.findings] == ["Mix needs 3 units from Trooper or Tank; the roster has 2"]
    ok = check({"type": "Mix", "composition": {"trooper": 1, "TANK": 2}})
    assert ok.valid and ok.formations[0].derived["units"] == 3


def test_unknown_composition_unit_is_suggested():
    result = check({"type": "Mix", "composition": {"Tanks": 3}})
    assert {f.code for f in result.findings} == {"unknown-unit", "composition-required"}
    assert next(f for f in result.findings if f.code == "unknown-unit").suggestion == "did you mean 'Tank'?"


def test_speed_zero_garrisons_and_war_engine_breaks_by_damage_capacity():
    battery, engine = check({"type": "Battery"}, {"type": "Engine"}).formations
    assert battery.derived["garrison"] == {"eligible": True, "reason": "it includes a unit with speed 0"}
    assert (engine.derived["break_point"], engine.derived["half_strength"]) == (4, 2)
    assert engine.derived["garrison"]["eligible"] is False


@pytest.mark.parametrize("wargear, message", [
    ({"Strider": "Laser"}, "Strider has no loadout 'Laser' (choose from: Cannon, Fist)"),
    ({"Strider": {"Cannon": 2}}, "Engine has 1 Strider, but loadouts are given for 2"),
    ({"Trooper": "Cannon"}, "Engine has no 'Trooper' with a choice of weapons (choices exist for: Strider)"),
])
def test_wargear_must_match_the_datasheet(wargear, message):
    [finding] = check({"type": "Engine", "wargear": wargear}).findings
    assert (finding.code, finding.message) == ("wargear-invalid", message)


def test_points_limit_outside_the_recommended_range_is_a_warning():
    result = check({"type": "HQ"}, points=500)
    [finding] = result.findings
    assert (finding.code, finding.severity) == ("points-limit-unusual", "warning")
    assert result.valid

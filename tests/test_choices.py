"""A choice the player has not made is a finding, never silently legal: a unit whose datasheet
offers one weapon or another (5 Datasheets) and whose roster names none gets a warning."""

import pytest

from listbuilder.games import validate
from listbuilder.listengine.roster import Roster


def build(catalog, army, formation):
    roster = Roster.model_validate({"game": "epic-armageddon", "army": army, "points": 3000,
                                    "formations": [formation]})
    return validate(roster, catalog)


@pytest.mark.parametrize("army, formation, message", [
    ("tau", {"type": "Armoured Mobile Hunter Cadre"},
     "choose the wargear of the 6 Hammerhead Gunships in Armoured Mobile Hunter Cadre (one of: Railgun; Ion Cannon)"),
    ("black-legion", {"type": "Black Legion Retinue", "faction": "Khorne", "upgrades": {
        "Daemon Prince": True,
        "Chaos Space Marine Lord": {"character": "Chaos Warlord", "joins": "Daemon Prince"}}},
     "choose the wargear of the Daemon Prince in Black Legion Retinue (one of: No wings; Wings)"),
    ("ghazghkull-warhorde", {"type": "Gargant", "upgrades": {"Warlord": {"character": "Warlord",
                                                                        "joins": "Ork Gargant"}}},
     "choose the wargear of the Ork Gargant in Gargant (one of: 3 Soopaguns; 2 Soopaguns and Mega-choppa; "
     "2 Soopaguns and Supa-Zzap-Gun)"),
    ("ghazghkull-warhorde", {"type": "Mekboy Stompamob", "upgrades": {"Warlord": {"character": "Warlord",
                                                                                 "joins": "Stompa"}}},
     "choose the wargear of the 3 Stompas in Mekboy Stompamob (one of: 3 Big Guns; 2 Big Guns and Kombat 'Ammer)"),
])
def test_an_unchosen_weapon_is_a_warning(catalog, army, formation, message):
    result = build(catalog, army, formation)
    [finding] = [f for f in result.findings if f.code == "wargear-unchosen"]
    assert (finding.severity, finding.message, finding.path) == ("warning", message, ("formations", 0, "wargear"))
    assert finding.suggestion.startswith("wargear: {")
    assert result.valid, [f.message for f in result.findings]


def test_a_chosen_weapon_is_recorded_and_not_warned(catalog):
    result = build(catalog, "tau", {"type": "Armoured Mobile Hunter Cadre",
                                    "wargear": {"Hammerhead Gunship": {"Railgun": 4, "Ion Cannon": 2}}})
    assert result.findings == []
    assert result.formations[0].group("Hammerhead Gunship").wargear == {"Railgun": 4, "Ion Cannon": 2}

"""Biel-Tan Swordwind rosters worked out by hand from seed 000 (6.9, L10611-10747; Eldar datasheets
5.9, ratings L6015-6017). Each formation tuple is (points, units, break point, half strength, may
garrison, derived transports). Wave Serpents and Falcons bought for a host are units it buys, not
derived transports, so every transports dict is empty. Only Rangers and War Walkers may garrison
(L10612-10613); both are scouts (L6222, L6425). Totals include the Wraithgate purchase (50, L10638)."""

import pytest

from listbuilder.games import validate
from listbuilder.listengine.roster import Roster

from .expectations import message, roster_tests

ARMY = "biel-tan"
NO, YES = False, True

LEGAL = {
    "legal-aspect-host.yaml": dict(
        limit=3000, total=2450, bts=[5], caps=[750],  # formations 2,400 + Wraithgate 50
        formations=[
            (630, 12, 12, 6, NO, {}),      # 300 + Autarch 75 + Exarch 25 + 2 Wave Serpents 100 + 2 Falcons 130
            (325, 11, 11, 5, NO, {}),      # 150 + 3 Wraithlords 175; 3 of 7 Guardians swapped for platforms
            (150, 6, 6, 3, YES, {}),       # 6 Rangers x 25
            (345, 6, 6, 3, NO, {}),        # 3 Falcons 150 + 3 Fire Prisms 195; a Falcon becomes a Fire Storm
            (0, 1, 3, 1, NO, {}),          # Avatar: one war engine of DC 3, free
            (750, 1, 6, 3, NO, {}),        # Phantom DC 6
            (200, 6, 6, 3, YES, {}),
        ]),
    "legal-guardian-serpents.yaml": dict(
        limit=2500, total=2025, bts=[4], caps=[450],
        formations=[
            (350, 12, 12, 6, NO, {}),      # 150 + 4 Wave Serpents 200
            (350, 14, 14, 7, NO, {}),      # 150 + Support Weapon Platforms 50 + 3 Wraithguard 150
            (200, 6, 6, 3, NO, {}),        # 3 Jetbikes, 3 Vypers
            (175, 3, 3, 1, NO, {}),
            (500, 2, 6, 3, NO, {}),        # Scorpion + Storm Serpent, 250 each, DC 3 each
            (150, 1, None, None, NO, {}),  # Wraithship
            (300, 3, 3, 1, NO, {}),        # Nightwings: aircraft have a break point but never garrison
        ]),
    "legal-dragonship.yaml": dict(
        limit=3500, total=3145, bts=[0], caps=[900],
        formations=[
            (845, 16, 16, 8, NO, {}),      # 300 + Exarch 25 + 8 Falcons 520, one per rider
            (150, 8, 8, 4, NO, {}),
            (200, 8, 8, 4, YES, {}),
            (100, 4, 4, 2, YES, {}),
            (200, 6, 6, 3, YES, {}),
            (750, 3, 9, 4, NO, {}),        # Cobra + 2 Void Spinners, 250 each
            (300, 1, None, None, NO, {}),  # Dragonship
            (200, 1, 2, 1, NO, {}),        # Vampire Raider, WE/AC DC 2
            (400, 3, 3, 1, NO, {}),
        ]),
    "legal-warlock-three-troupes.yaml": dict(
        limit=3000, total=1775, bts=[4], caps=[850],
        formations=[
            (350, 8, 8, 4, NO, {}),        # 300 + 2 Exarchs 50; no unit of it can ride
            (125, 5, 5, 2, YES, {}),
            (250, 5, 5, 2, NO, {}),        # 5 Falcons x 50
            (200, 6, 6, 3, NO, {}),
            (850, 1, 6, 3, NO, {}),
        ]),
    "legal-revenants.yaml": dict(
        limit=2000, total=1750, bts=[1], caps=[650],
        formations=[
            (250, 10, 10, 5, NO, {}),      # 150 + 2 Wraithguard 100; 2 Guardians swapped for platforms
            (650, 2, 6, 3, NO, {}),        # 2 Revenants, DC 3 each
            (175, 7, 7, 3, YES, {}),
            (175, 3, 3, 1, NO, {}),        # every Night Spinner a Fire Storm
            (500, 12, 12, 6, NO, {}),      # 300 + 4 Wave Serpents 200 for 8 Banshees
        ]),
}

ILLEGAL = {
    "illegal-transports.yaml": dict(
        total=1215, codes=["transport-inexact", "transport-inexact", "transport-inexact"],
        formations=[(400, 10, 10, 5, NO, {}),       # transports that do not fit are still taken and charged (D6)
                    (450, 11, 11, 5, NO, {}), (365, 9, 9, 4, NO, {})]),
    "illegal-serpents-with-upgrades.yaml": dict(
        total=1225, codes=["upgrade-exclusive", "upgrade-exclusive"],
        formations=[
            (350, 12, 12, 6, NO, {}),      # 150 + 200; 5 Guardians, 2 platforms, 4 Wave Serpents
            (525, 15, 15, 7, NO, {}),      # 150 + 200 + 175
            (350, 12, 12, 6, NO, {}),
        ]),
    "illegal-troupes.yaml": dict(
        total=850, codes=["composition-count", "composition-count", "limit-exceeded"],
        formations=[(150, 8, 8, 4, NO, {}), (75, 3, 3, 1, YES, {}), (225, 9, 9, 4, YES, {}),
                    (200, 6, 6, 3, YES, {}), (200, 6, 6, 3, NO, {})]),
    "illegal-individuals.yaml": dict(
        total=1400, codes=["cap-exceeded", "formation-unusable", "limit-exceeded", "limit-exceeded", "limit-exceeded"],
        formations=[(0, 1, 3, 1, NO, {}), (0, 1, 3, 1, NO, {}),
                    (450, 8, 8, 4, NO, {}),         # 300 + 2 Autarchs 150
                    (850, 1, 6, 3, NO, {})]),       # + two Wraithgates 100, beyond the 0-1 but charged
    "illegal-spacecraft.yaml": dict(
        total=2150, codes=["cap-exceeded", "limit-exceeded", "limit-exceeded", "limit-exceeded", "wargear-invalid"],
        formations=[(150, 1, None, None, NO, {}), (300, 1, None, None, NO, {}),
                    (850, 1, 6, 3, NO, {}), (850, 1, 6, 3, NO, {})]),
    "illegal-exarchs-and-swaps.yaml": dict(
        total=880, codes=["quantity-out-of-range", "quantity-out-of-range", "quantity-out-of-range",
                          "upgrade-not-allowed"],
        formations=[(375, 8, 8, 4, NO, {}),         # 300 + 3 Exarchs 75, one more than allowed
                    (175, 8, 8, 4, NO, {}),         # 150 + an Exarch 25 it may not take; the platforms free
                    (330, 6, 6, 3, NO, {})]),       # 4 Falcons 200 + 2 Fire Prisms 130
}


test_legal_roster, test_illegal_roster = roster_tests(ARMY, LEGAL, ILLEGAL)


def test_three_troupes_per_warhost(check):
    finding = message(check(f"{ARMY}/illegal-troupes.yaml"), "limit-exceeded")
    assert finding.message == ("Troupes: 4 in the army, at most 3 allowed (in formations #2, #3, #4, #5; "
                               "3 per host, and the army has 1)")
    assert finding.rule == "6.9 Biel-Tan Troupes"
    assert finding.path == ("formations", 4)


def test_only_rangers_and_war_walkers_garrison(check):
    result = check(f"{ARMY}/legal-dragonship.yaml")
    guardians, rangers, walkers = result.formations[1], result.formations[2], result.formations[4]
    # 1 Farseer and 7 Guardians all move 15cm and none is a war engine: 6.1.5 alone would let them
    assert {s.speed for s in guardians.sheets()} == {15}
    assert guardians.derived["garrison"]["eligible"] is False
    assert "Rangers" in guardians.derived["garrison"]["reason"]
    assert rangers.derived["garrison"]["eligible"] is True
    assert walkers.derived["garrison"]["eligible"] is True


def test_aspect_transports_carry_exactly(check):
    result = check(f"{ARMY}/illegal-transports.yaml")
    spare, short, nobody = (f for f in result.findings if f.code == "transport-inexact")
    assert "1 space would be left spare" in spare.message          # 3 riders in 2 Wave Serpents
    assert "2 units that could ride would be left behind" in short.message  # 8 riders, 6 spaces
    assert "1 space would be left spare" in nobody.message         # Shining Spears cannot ride
    assert spare.rule == "6.9 Biel-Tan Hosts: Aspect Warrior Warhost"
    assert [f.path for f in (spare, short, nobody)] == [
        ("formations", i, "upgrades", "Transports") for i in range(3)]


def test_guardian_wave_serpents_allow_no_other_upgrade(check):
    result = check(f"{ARMY}/illegal-serpents-with-upgrades.yaml")
    first = message(result, "upgrade-exclusive")
    assert first.message == ("Eldar Guardian Warhost takes Wave Serpents, which allows no other upgrade "
                             "(it also takes Heavy Weapon Platforms)")
    assert first.rule == "6.9 Biel-Tan Hosts: Eldar Guardian Warhost"
    assert result.formations[2].upgrades == {"Wave Serpents": 200}


def test_autarch_is_one_of_the_exarchs_and_one_per_army(check):
    host = check(f"{ARMY}/legal-aspect-host.yaml").formations[0]
    assert [(c.sheet.name, c.joins.name) for c in host.characters] == [
        ("Autarch", "Howling Banshees"), ("Exarch", "Fire Dragons")]
    assert host.upgrades == {"Transports": 230, "Exarchs": 100}
    assert host.derived["units"] == 12  # characters are not units (D8)
    found = {f.message: f.rule for f in check(f"{ARMY}/illegal-individuals.yaml").findings
             if f.code == "limit-exceeded"}
    assert found["Autarch: 2 in the army, at most 1 allowed (in formations #3)"] == "6.9 Biel-Tan Individuals: Autarch"
    assert found["2 Avatar formations: 0-1 allowed"] == "6.9 Biel-Tan Individuals: Avatar"


def test_an_avatar_with_no_farseer_to_summon_it_is_a_warning(check):
    """'If there are no Farseers in play then the Avatar may not be used' (L10646-10649): legal to
    field, so a warning, once however many Avatars there are."""
    [unusable] = [f for f in check(f"{ARMY}/illegal-individuals.yaml").findings if f.code == "formation-unusable"]
    assert (unusable.severity, unusable.message) == ("warning", "Avatar may not be used: the army has no Farseer")
    assert unusable.path == ("formations", 0)
    assert not any(f.code == "formation-unusable" for f in check(f"{ARMY}/legal-aspect-host.yaml").findings)


def test_wraithgate_is_bought_once_for_the_army(check):
    legal = check(f"{ARMY}/legal-aspect-host.yaml")
    assert sum(f.points for f in legal.formations) == 2400
    assert legal.total == 2450
    result = check(f"{ARMY}/illegal-individuals.yaml")
    [gate] = [f for f in result.findings if "Wraithgate" in f.message]
    assert gate.message == "Wraithgate: 2 bought, at most 1 allowed"
    assert gate.rule == "6.9 Biel-Tan Individuals: Wraithgate"


def test_one_third_on_spacecraft_aircraft_and_titans(check):
    finding = message(check(f"{ARMY}/illegal-individuals.yaml"), "cap-exceeded")
    assert finding.message == ("Spacecraft, aircraft and Titans cost 850 points; at most 666 (1/3 of 2,000) "
                               "are allowed")
    assert finding.rule == "6.9 Biel-Tan Spacecraft, Aircraft & Titans"


def test_spacecraft_weapon_is_chosen_on_the_roster(check):
    ship = check(f"{ARMY}/legal-dragonship.yaml").formations[6]
    assert ship.group("Dragonship").wargear == {"Orbital Bombardment": 1}
    wrong = message(check(f"{ARMY}/illegal-spacecraft.yaml"), "wargear-invalid")
    assert wrong.message.startswith("Wraithship has no loadout '2 x Pin-Point Attack'")


def test_free_swaps(check):
    aspect = check(f"{ARMY}/legal-aspect-host.yaml")
    assert {g.sheet.name: g.count for g in aspect.formations[3].units} == {
        "Falcon": 2, "Fire Prism": 3, "Firestorm": 1}
    assert {g.sheet.name: g.count for g in aspect.formations[1].units} == {
        "Farseer": 1, "Guardians": 4, "Guardian Heavy Weapon Platforms": 3, "Wraithlord": 3}
    serpents = check(f"{ARMY}/legal-guardian-serpents.yaml")
    assert {g.sheet.name: g.count for g in serpents.formations[2].units} == {"Jetbikes": 3, "Vyper Jetbikes": 3}
    assert serpents.formations[2].points == 200


@pytest.mark.parametrize("rangers, valid", [(3, False), (4, True), (6, True), (8, True), (9, False)])
def test_rangers_four_to_eight_at_25_each(catalog, rangers, valid):
    roster = Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": 2000, "formations": [
        {"type": "Eldar Guardian Warhost"},
        {"type": "Ranger Troupe", "composition": {"Rangers": rangers}},
    ]})
    result = validate(roster, catalog)
    assert result.total == 150 + 25 * rangers
    assert [f.code for f in result.findings] == ([] if valid else ["composition-count"])


@pytest.mark.parametrize("falcons, prisms, points", [(5, 0, 250), (3, 3, 345), (0, 6, 390), (1, 4, 310)])
def test_swords_of_vaul_priced_per_tank(catalog, falcons, prisms, points):
    roster = Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": 2000, "formations": [
        {"type": "Eldar Guardian Warhost"},
        {"type": "Swords of Vaul Troupe", "composition": {"Falcon": falcons, "Fire Prism": prisms}},
    ]})
    result = validate(roster, catalog)
    assert result.valid
    assert result.formations[1].points == points


def test_strategy_and_initiative_ratings(check):
    result = check(f"{ARMY}/legal-aspect-host.yaml")
    # L6015-6017: strategy 4; Avatars, Aspect Warriors and Revenant, Phantom and Warlock Titans 1+, others 2+
    assert result.derived["strategy_rating"] == 4
    assert [f.derived["initiative"] for f in result.formations] == ["1+", "2+", "2+", "2+", "1+", "1+", "2+"]
    titans = check(f"{ARMY}/legal-revenants.yaml").formations[1]
    assert titans.derived["initiative"] == "1+"


def test_exarchs_join_aspect_warriors_not_their_transports(catalog):
    roster = Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": 2000, "formations": [
        {"type": "Aspect Warrior Warhost", "composition": {"Dire Avengers": 8},
         "upgrades": {"Exarchs": {"character": "Exarch", "joins": "Wave Serpent"},
                      "Transports": {"Wave Serpent": 4}}},
    ]})
    result = validate(roster, catalog)
    assert [f.code for f in result.findings] == ["character-host-invalid"]
    assert result.total == 525  # 300 + 4 Wave Serpents 200 + the misplaced Exarch 25, charged as written (D6)
    assert result.formations[0].derived["units"] == 12

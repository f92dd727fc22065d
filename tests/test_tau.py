"""Tau rosters worked out by hand from seed 000 (6.13, L11221-11416; Tau datasheets 5.13,
L8426-9275). Each formation tuple is (points, units, break point, half strength, may garrison,
derived transports). Devilfish are units a formation buys, not derived transports. Drones
(Gun, Heavy and Sniper Drone units) do not stop a formation garrisoning (L8479-8480): eligibility
is judged on the formation's other units, and on the drones only when it has nothing else.
Markerlight Sentries are robotic sentries (L8488-8497): placed before garrisons, never activated,
never given Blast markers, so no garrison, no activation and no break point."""

import re

import pytest

from listbuilder.games import validate
from listbuilder.listengine.roster import Roster

from .conftest import SEEDS
from .expectations import message, roster_tests

ARMY = "tau"
NO, YES = False, True
SENTRIES = (50, 3, None, 1, NO, {})  # 3 turrets at 0cm; they never receive Blast markers (L8493)

LEGAL = {
    "legal-hunter-cadres.yaml": dict(
        limit=3000, total=2200, bts=[0], caps=[100],
        formations=[
            (625, 21, 21, 10, NO, {}),  # 200 + Devilfish 100 + Ethereal 75 + FW 100 + their Devilfish 50 + PF 100;
                                        # 12 FW, 2 PF, 4+2+1 Devilfish: 7 move 30cm, 2 scouts of 21
            (475, 8, 8, 4, NO, {}),     # 250 + Shas'el 50 + Shas'o 100 + Gun Drones 75; 4 XV8 at 25cm besides drones
            (300, 7, 7, 3, YES, {}),    # 275 + Sniper Drone Team 25; the six Stealth are scouts
            (450, 9, 9, 4, YES, {}),    # 300 + Broadsides 150; Broadsides move 15cm
            (250, 10, 10, 5, YES, {}),  # 175 + free Devilfish + Gun Drones 75; drones aside, 4 scouts of 6
            (100, 1, 2, 1, NO, {}),     # Orca DC 2, an aircraft
        ]),
    "legal-markerlights.yaml": dict(
        limit=2000, total=675, bts=[1], caps=[0], activations=2,  # sentries get no activations (L8491)
        formations=[
            (200, 8, 8, 4, YES, {}),
            (275, 12, 12, 6, YES, {}),  # 200 + Gun Drones 75; the 8 Fire Warriors move 15cm
            SENTRIES, SENTRIES, SENTRIES, SENTRIES,  # 2 per 1,000 points: 4 at 2,000
        ]),
    "legal-air-caste.yaml": dict(
        limit=3000, total=2275, bts=[1], caps=[1000],
        formations=[
            (425, 6, 6, 3, NO, {}),        # 250 + Crisis 125 + Shas'el 50
            (500, 7, 7, 3, NO, {}),        # 375 + Skyray 75 + Swordfish 25 (two for one price) + Networked Drones 25
            (350, 8, 8, 4, NO, {}),        # 250 + Piranhas 100
            (200, 1, None, None, NO, {}),  # Hero 150 + Gravitic Tracer Salvo 50
            (250, 3, 3, 1, NO, {}),
            (300, 2, 4, 2, NO, {}),        # 2 Tiger Sharks at 150 each, DC 2 each
            (150, 1, 2, 1, NO, {}),
            (100, 1, 2, 1, NO, {}),        # Air Caste 200+250+300+150+100 = 1,000, one third of 3,000
        ]),
    "legal-auxiliaries.yaml": dict(
        limit=3000, total=1475, bts=[0, 2], caps=[0],
        formations=[
            (425, 16, 16, 8, NO, {}),    # 200 + Stealth 125 + Sniper Drone Team 25 + Gun Drones 75;
                                         # drones aside: 8 FW and 3 Stealth at 25cm, 3 scouts of 11
            (200, 8, 8, 4, YES, {}),
            (425, 24, 24, 12, YES, {}),  # 175 + 75 + 50 + 75 + 50; 1 Shaper, 14 Carnivores, 3 Hounds scouts: 18 of 24
            (300, 12, 12, 6, YES, {}),   # 150 + 2 x 75; only the Strain Leader moves over 15cm
            (125, 4, 4, 2, NO, {}),      # 75 + Heavy Drones 50; only drones, judged on them: 4 at 25cm
        ]),
    "legal-scorpionfish.yaml": dict(
        limit=5000, total=3350, bts=[3], caps=[1550],
        formations=[
            (600, 12, 12, 6, NO, {}),      # 375 + Gun Drones 75 + Hammerheads 125 + Networked Drones 25
            (675, 6, 10, 5, NO, {}),       # 2 x 225 + Supreme Commander 100 + Gun Drones 75 + Heavy Drones 50;
                                           # 2 Scorpionfish DC 3 + 4 Heavy Drones = 10
            (525, 11, 11, 5, NO, {}),      # 225 + Stingray 125 + Skyray 75 + Piranhas 100
            (850, 1, 8, 4, NO, {}),        # the Manta is a war engine on the table, so the BTS target
            (300, 1, 3, 1, NO, {}),
            (300, 1, None, None, NO, {}),  # Custodian
            (100, 1, 2, 1, NO, {}),        # Air Caste 850 + 300 + 300 + 100 = 1,550 of 1,666
        ]),
}

ILLEGAL = {
    "illegal-support-groups.yaml": dict(
        total=875, codes=["limit-exceeded"],
        formations=[(250, 4, 4, 2, NO, {}), (175, 4, 4, 2, YES, {}), (300, 6, 6, 3, YES, {}),
                    (150, 6, 6, 3, NO, {})]),
    "illegal-auxiliary-slot.yaml": dict(
        total=950, codes=["limit-exceeded"],
        formations=[(200, 8, 8, 4, YES, {}), (175, 10, 10, 5, YES, {}), (275, 6, 6, 3, YES, {}),
                    (300, 6, 6, 3, YES, {})]),
    "illegal-air-caste.yaml": dict(
        total=1300, codes=["cap-exceeded", "limit-exceeded", "limit-exceeded", "limit-exceeded",
                           "limit-exceeded"],  # Vespids, Orcas, Hero or Custodian, one spacecraft
        formations=[(250, 4, 4, 2, NO, {}), (150, 6, 6, 3, YES, {}), (100, 1, 2, 1, NO, {}),
                    (100, 1, 2, 1, NO, {}), (150, 1, None, None, NO, {}), (300, 1, None, None, NO, {}),
                    (250, 3, 3, 1, NO, {})]),
    "illegal-upgrades.yaml": dict(
        total=975, codes=["too-many-upgrades", "upgrade-not-allowed", "upgrade-repeated"],
        formations=[(600, 20, 20, 10, NO, {}),  # 200+100+100+75+125; drones aside 2 XV8 move 25cm, 2 scouts of 16
                    (225, 8, 8, 4, YES, {}),     # 200 + Networked Drones 25, refused but charged
                    (150, 8, 8, 4, NO, {})]),    # Gun Drones charged once: 75 + 75; only drones, 8 at 30cm
    "illegal-commanders.yaml": dict(
        total=2025, codes=["character-host-invalid", "character-host-missing", "limit-exceeded", "limit-exceeded",
                           "upgrade-not-allowed"],
        formations=[(250, 8, 8, 4, YES, {}), (250, 8, 8, 4, YES, {}),  # Shas'el refused, still charged 50 (D6)
                    (275, 8, 8, 4, YES, {}), (275, 8, 8, 4, YES, {}),  # an Ethereal each, 75
                    (350, 4, 4, 2, NO, {}), (325, 1, 3, 1, NO, {}),    # Shas'o 100; Scorpionfish 225 + 100
                    (300, 8, 8, 4, YES, {})]),                         # 200 + a Shas'o 100 it may not take
    "illegal-markerlights.yaml": dict(
        total=850, codes=["limit-exceeded"],
        formations=[(200, 8, 8, 4, YES, {})] * 3 + [SENTRIES] * 5),
    "illegal-replacements.yaml": dict(
        total=500, codes=["quantity-out-of-range", "quantity-out-of-range"],
        formations=[(225, 9, 9, 4, YES, {}),       # 200 + a Swordfish 25 with no Hammerhead to replace
                    (275, 5, 7, 3, NO, {})]),      # 225 + Heavy Drones 50 with no Gun Drones to replace
}


test_legal_roster, test_illegal_roster = roster_tests(ARMY, LEGAL, ILLEGAL)


def test_two_support_groups_per_cadre(check):
    finding = message(check(f"{ARMY}/illegal-support-groups.yaml"), "limit-exceeded")
    assert finding.message == ("Support Groups: 3 in the army, at most 2 allowed (in formations #2, #3, #4; "
                               "2 per cadre, and the army has 1)")
    assert finding.rule == "6.13 Tau Support Groups"
    assert finding.path == ("formations", 3)


def test_an_alien_auxiliary_also_uses_a_support_group_slot(check):
    finding = message(check(f"{ARMY}/illegal-auxiliary-slot.yaml"), "limit-exceeded")
    assert finding.message == ("Support Groups: 3 in the army, at most 2 allowed (in formations #2, #3, #4; "
                               "2 per cadre, and the army has 1)")  # #2 is the Kroot Kindred


def test_air_caste_cap_orcas_hero_or_custodian_and_auxiliaries(check):
    result = check(f"{ARMY}/illegal-air-caste.yaml")
    cap = message(result, "cap-exceeded")
    assert cap.message == "Air Caste cost 900 points; at most 666 (1/3 of 2,000) are allowed"  # 100+100+150+300+250
    assert cap.rule == "6.13 Tau Air Caste Formations"
    limits = {f.message.split(":")[0]: f for f in result.findings if f.code == "limit-exceeded"}
    assert sorted(limits) == ["Alien Auxiliaries", "Hero or Custodian", "Orca Dropships", "spacecraft"]
    assert limits["Orca Dropships"].message == ("Orca Dropships: 2 in the army, at most 1 allowed (in formations #3, "
                                                "#4; 1 per cadre, and the army has 1)")
    assert limits["Hero or Custodian"].message == ("Hero or Custodian: 2 in the army, at most 1 allowed "
                                                   "(in formations #5, #6)")
    assert limits["Alien Auxiliaries"].message == ("Alien Auxiliaries: 1 in the army, at most 0 allowed (in "
                                                   "formations #2; 1 per Fire Warrior Cadre, and the army has 0)")
    assert limits["Alien Auxiliaries"].rule == "6.13 Alien Auxiliary Formations"


def test_commanders_join_their_units_and_supreme_commander_and_ethereal_are_0_1(check):
    result = check(f"{ARMY}/illegal-commanders.yaml")
    misplaced = message(result, "character-host-invalid")
    assert misplaced.message == "Shas'el may join only XV8 Crisis Battlesuit Team, not Fire Warrior Team"
    assert misplaced.rule == "6.13 Tau Upgrades: Commander"
    assert misplaced.path[:2] == ("formations", 0)
    limits = sorted(f.message for f in result.findings if f.code == "limit-exceeded")
    assert limits == ["Ethereal: 2 in the army, at most 1 allowed (in formations #3, #4)",
                      "Supreme Commander: 2 in the army, at most 1 allowed (in formations #5, #6)"]
    assert message(result, "upgrade-not-allowed").message.startswith(
        "Fire Warrior Cadre may not take the Supreme Commander upgrade")


def test_scorpionfish_supreme_commander_and_its_drones(check):
    group = check(f"{ARMY}/legal-scorpionfish.yaml").formations[1]
    assert [(c.sheet.name, c.joins.name) for c in group.characters] == [
        ("Scorpionfish Supreme Commander", "Scorpion Super Heavy Missile Gunship")]
    assert {g.sheet.name: g.count for g in group.units} == {
        "Scorpion Super Heavy Missile Gunship": 2, "Heavy Drone Squad": 4}
    assert group.upgrades == {"Supreme Commander": 100, "Gun Drones": 75, "Heavy Drones": 50}


def test_devilfish_do_not_use_one_of_the_three_upgrades(check):
    cadre = check(f"{ARMY}/legal-hunter-cadres.yaml").formations[0]
    assert cadre.upgrades == {"Devilfish": 100, "Commander": 75, "Fire Warriors": 100,
                              "Fire Warriors Devilfish": 50, "Pathfinders": 100, "Pathfinders Devilfish": 0}
    assert {g.sheet.name: g.count for g in cadre.units} == {
        "Fire Warrior Team": 12, "Devilfish Troop Carrier": 7, "Pathfinder Team": 2}


def test_battlesuit_cadres_and_the_manta_have_initiative_1(check):
    air = check(f"{ARMY}/legal-air-caste.yaml")
    assert [f.derived["initiative"] for f in air.formations[:3]] == ["1+", "2+", "2+"]
    assert air.derived["strategy_rating"] == 3
    manta = check(f"{ARMY}/legal-scorpionfish.yaml").formations[3]
    assert manta.derived["initiative"] == "1+"


@pytest.mark.parametrize("points, allowed", [(2000, 4), (2001, 6), (3000, 6)])
def test_markerlight_sentries_two_per_1000_points_or_part(catalog, points, allowed):
    cadres = [{"type": "Fire Warrior Cadre"} for _ in range(4)]  # room for 8 Support Groups
    sentries = [{"type": "Markerlight Sentry Support Group"} for _ in range(allowed)]
    roster = Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": points,
                                    "formations": cadres + sentries})
    assert validate(roster, catalog).valid
    one_more = roster.model_copy(update={"formations": [*roster.formations, roster.formations[-1]]})
    [finding] = validate(one_more, catalog).findings
    assert finding.code == "limit-exceeded"
    assert finding.message.startswith(f"Markerlight Sentry Support Groups: {allowed + 1} in the army, "
                                      f"at most {allowed} allowed")
    assert finding.rule == "6.13 Tau Support Groups: Markerlight Sentries"


def _garrison(catalog, upgrades):
    roster = Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": 2000,
                                    "formations": [{"type": "Fire Warrior Cadre", "upgrades": upgrades}]})
    return validate(roster, catalog).formations[0].derived["garrison"]["eligible"]


def test_drones_do_not_stop_a_garrison_but_battlesuits_do(catalog):
    assert _garrison(catalog, {"Gun Drones": True, "Sniper Drone Team": True}) is True   # 5 fast drones
    assert _garrison(catalog, {"Crisis": True}) is False                                 # 2 XV8 at 25cm


def test_drones_that_help_a_formation_garrison_count(catalog):
    """A Battlesuit Cadre with Stealth: 3 scouts of 7, all seven at 25cm. A Sniper Drone
    Team is a scout too: 4 of 8, half (L8479-8480, L9415; D31)."""
    roster = Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": 2000, "formations": [
        {"type": "Battlesuit Cadre", "upgrades": {"Stealth": True}},
        {"type": "Battlesuit Cadre", "upgrades": {"Stealth": True, "Sniper Drone Team": True}}]})
    result = validate(roster, catalog)
    assert [f.points for f in result.formations] == [375, 400]
    assert [f.derived["garrison"] for f in result.formations] == [
        {"eligible": False, "reason": "7 units move more than 15cm (at most 1) and too few are scouts (3 of 7)"},
        {"eligible": True, "reason": "4 of 8 units are scouts (half, rounding up, is 4), its drones counted"}]


def test_drone_units_are_marked_as_drones(catalog):
    units = {u.name: u for u in catalog.datasheets["epic-armageddon"]["tau"].units}
    drones = sorted(n for n, u in units.items() if "Drones" in u.abilities)
    assert drones == ["Gun Drone Squad", "Heavy Drone Squad", "Sniper Drone Team"]
    assert "Drones" not in units["Markerlight Sentry Drone Turret"].abilities  # a robotic sentry (L8858-8859)


@pytest.mark.skipif(not (SEEDS / "000_bbb4a0604920da2d.txt").exists(), reason="the seed is not beside the project")
def test_upgrade_costs_follow_the_printed_cost_column(catalog):
    """19 costs for 17 upgrade names (L11331-11350): Commander and Supreme Commander have two
    priced options each, in the order they are printed."""
    seed = (SEEDS / "000_bbb4a0604920da2d.txt").read_text(encoding="utf-8").splitlines()
    printed = [int(re.fullmatch(r"\+(\d+)", seed[n - 1]).group(1)) for n in range(11332, 11351)]
    army = catalog.lists["epic-armageddon"][ARMY]
    upgrades = {u.name: u for u in army.upgrades}
    ours = [o.cost for name in ("Commander", "Supreme Commander") for o in upgrades[name].options]
    ours += [upgrades[name].cost for name in (
        "Fire Warriors", "Pathfinders", "Gun Drones", "Broadsides", "Crisis", "Stealth", "Hammerheads", "Skyray",
        "Piranhas", "Tetras", "Heavy Drones", "Swordfish", "Stingray", "Sniper Drone Team", "Networked Drones")]
    assert ours == printed


def test_an_ethereal_leads_only_a_fire_warrior_cadre(catalog):
    # L11292: the Ethereal is for Fire Warrior Cadres; a Battlesuit Cadre with bought Fire Warriors
    # has a Fire Warrior Team to join, but may not take him.
    ethereal = {"Commander": {"character": "Ethereal", "joins": "Fire Warrior Team"}}
    roster = Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": 2000, "formations": [
        {"type": "Fire Warrior Cadre", "upgrades": ethereal},
        {"type": "Battlesuit Cadre", "upgrades": {"Fire Warriors": True, **ethereal}},
    ]})
    result = validate(roster, catalog)
    [finding] = result.findings
    assert (finding.code, finding.path) == ("upgrade-not-allowed", ("formations", 1, "upgrades", "Commander",
                                                                    "character"))
    assert finding.message == "Ethereal may be taken only in Fire Warrior Cadre, not in a Battlesuit Cadre"
    assert [f.points for f in result.formations] == [275, 425]   # 200 + 75; 250 + Fire Warriors 100 + the refused 75

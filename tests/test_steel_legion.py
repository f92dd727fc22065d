"""Steel Legion rosters worked out by hand from seed 000 (6.4, L9839-10003; Imperial Guard
datasheets 5.2). Each formation tuple is (points, units, break point, half strength, may garrison,
derived transports). Chimeras bought for a company are units it buys, not derived transports."""

import pytest

from listbuilder.games import validate
from listbuilder.listengine.roster import Roster

from .expectations import message, roster_tests

ARMY = "steel-legion"
NO, YES = False, True

LEGAL = {
    "legal-mechanised.yaml": dict(
        limit=3000, total=2700, bts=[1], caps=[275],
        formations=[
            (675, 27, 27, 13, NO, {}),     # 500 + Ogryns 50 + 2 Snipers 50 + 3 Chimeras 75; 19 spaces, 7+3 Chimeras
            (850, 13, 13, 6, NO, {}),      # 650 + 3 Demolishers 200; one Leman Russ swapped for the Vanquisher
            (350, 12, 12, 6, YES, {}),     # 200 + 4 Valkyries 150; all twelve are scouts
            (250, 3, 3, 1, NO, {}),
            (300, 1, None, None, NO, {}),  # Lunar 150 + Emperor 150
            (275, 1, 3, 1, NO, {}),        # a Commissar rides in the Warhound (FAQ L12865-12870)
        ]),
    "legal-infantry-chimeras.yaml": dict(
        limit=2000, total=1700, bts=[0], caps=[150],
        formations=[
            (750, 35, 35, 17, NO, {}),     # 250 + 100 + 100 + 12 Chimeras 300 for 23 infantry units
            (400, 20, 20, 10, NO, {}),
            (100, 4, 4, 2, YES, {}),
            (150, 6, 6, 3, YES, {}),
            (150, 3, 3, 1, NO, {}),
            (150, 2, 2, 1, NO, {}),
        ]),
    "legal-super-heavies.yaml": dict(
        limit=4000, total=3300, bts=[0], caps=[900],
        formations=[
            (800, 10, 16, 8, NO, {}),      # 3 war engines of DC 3 + Hydra + 3 Hellhounds + 3 Griffons
            (650, 9, 9, 4, NO, {}),
            (200, 1, 3, 1, NO, {}),
            (200, 2, 2, 1, NO, {}),
            (300, 4, 4, 2, YES, {}),       # Vultures are scouts
            (250, 3, 3, 1, NO, {}),
            (650, 1, 6, 3, NO, {}),
            (250, 2, 2, 1, NO, {}),
        ]),
    "legal-commissars.yaml": dict(
        limit=2500, total=1575, bts=[0], caps=[0],
        formations=[
            (700, 30, 30, 15, NO, {}),
            (250, 13, 13, 6, YES, {}),
            (325, 16, 16, 8, YES, {}),     # 250 + 1 Sniper 25 + Ogryns 50
            (100, 4, 4, 2, YES, {}),
            (200, 8, 8, 4, YES, {}),
        ]),
    "legal-lunar.yaml": dict(
        limit=2000, total=1450, bts=[0], caps=[650],
        formations=[
            (650, 10, 10, 5, NO, {}),
            (150, 1, None, None, NO, {}),
            (500, 2, 6, 3, NO, {}),
            (150, 2, 2, 1, NO, {}),
        ]),
}

ILLEGAL = {
    "illegal-support-ratio.yaml": dict(
        total=550, codes=["limit-exceeded"],
        formations=[(250, 13, 13, 6, YES, {})] + [(100, 4, 4, 2, YES, {})] * 3),
    "illegal-company-upgrades.yaml": dict(
        total=1600, codes=["choice-invalid", "too-many-upgrades", "upgrade-not-allowed"],
        formations=[(500, 21, 21, 10, NO, {}),
                    (850, 13, 13, 6, NO, {}),      # 650 + a Tank Squadron of mixed tanks 200, charged as written
                    (250, 10, 10, 5, YES, {})]),   # 200 + Ogryns 50 it may not take
    "illegal-chimeras.yaml": dict(
        total=2075, codes=["transport-excess", "transport-excess", "transport-insufficient"],
        formations=[(550, 28, 28, 14, NO, {}),     # 400 + Infantry Platoon 100 + 2 Chimeras 50, as written
                    (825, 14, 14, 7, NO, {}),      # 650 + Hellhounds 150 + a Chimera 25 nobody needs
                    (700, 31, 31, 15, NO, {})]),   # 250 + Ogryns 50 + 16 Chimeras 400
    "illegal-commissars.yaml": dict(
        total=1500, codes=["limit-exceeded", "upgrade-placement"],
        formations=[(500, 20, 20, 10, NO, {})] + [(250, 13, 13, 6, YES, {})] * 3
                   + [(100, 4, 4, 2, YES, {}), (150, 6, 6, 3, YES, {})]),
    "illegal-allies-and-artillery.yaml": dict(
        total=1700, codes=["cap-exceeded", "composition-alike", "limit-exceeded", "limit-exceeded"],
        formations=[(250, 13, 13, 6, YES, {}), (250, 3, 3, 1, NO, {}), (200, 2, 2, 1, NO, {}),
                    (200, 2, 2, 1, NO, {}), (650, 1, 6, 3, NO, {}), (150, 2, 2, 1, NO, {})]),
}


test_legal_roster, test_illegal_roster = roster_tests(ARMY, LEGAL, ILLEGAL)


def test_support_ratio_names_the_rule(check):
    finding = message(check(f"{ARMY}/illegal-support-ratio.yaml"), "limit-exceeded")
    assert finding.message == ("Support formations: 3 in the army, at most 2 allowed (in formations #2, #3, #4; "
                               "2 per company, and the army has 1)")
    assert finding.rule == "6.4 Notes for Steel Legion"
    assert finding.path == ("formations", 3)


def test_commissars_one_per_500_points_and_the_first_with_the_supreme_commander(check):
    result = check(f"{ARMY}/illegal-commissars.yaml")
    allowance = message(result, "limit-exceeded")
    assert allowance.rule == "6.4.1 Commissars"
    assert allowance.message.endswith("1 per 500 points or part, and the army is 2,000)")
    placement = message(result, "upgrade-placement")
    assert placement.message == ("Commissar: the army takes one, so the first must go to the formation with the "
                                 "Supreme Commander, Regimental HQ (#1)")
    assert placement.path == ("formations", 0, "upgrades")


def test_commissars_are_free_characters_in_any_formation(check):
    result = check(f"{ARMY}/legal-mechanised.yaml")
    titan = result.formations[5]
    assert [(c.sheet.name, c.joins.name) for c in titan.characters] == [("Commissar", "Warhound Titan")]
    assert titan.upgrades == {"Commissar": 0}
    assert sum(len(f.characters) for f in result.formations) == 3


def test_chimeras_must_carry_the_whole_company_one_at_most_per_unit(check):
    result = check(f"{ARMY}/illegal-chimeras.yaml")
    short, excess = (message(result, code) for code in ("transport-insufficient", "transport-excess"))
    assert short.message == ("Chimeras in Mechanised Infantry Company: 2 taken; if any are, they must carry every "
                             "unit a Chimera can carry (3 at least) with at most one per such unit (12 at most)")
    assert excess.message == "Chimeras in Tank Company: 1 taken, but no unit of the formation needs a Chimera"
    assert short.rule == "6.4 Steel Legion company upgrades: Chimeras"


def test_company_upgrades_three_at_most_and_not_for_support(check):
    result = check(f"{ARMY}/illegal-company-upgrades.yaml")
    assert message(result, "too-many-upgrades").message == (
        "Infantry Company takes 4 upgrades (Ogryns, Snipers, Flak, Griffon Battery); at most 3 are allowed")
    assert message(result, "choice-invalid").message == (
        "Tank Squadron: take one kind only (Leman Russ or Demolisher), not a mix")


def test_vanquisher_and_chimeras_do_not_use_a_company_upgrade(check):
    mechanised = check(f"{ARMY}/legal-mechanised.yaml")
    hq, tanks = mechanised.formations[0], mechanised.formations[1]
    assert hq.upgrades == {"Ogryns": 50, "Snipers": 50, "Commissar": 0, "Chimeras": 75}
    assert {g.sheet.name: g.count for g in tanks.units} == {
        "Leman Russ": 9, "Leman Russ Vanquisher": 1, "Leman Russ Demolisher": 3}


@pytest.mark.parametrize("points, allowed", [(2000, 4), (2001, 5), (2500, 5)])
def test_commissar_allowance_rounds_up_per_500_agreed_points(catalog, points, allowed):
    commissar = {"Commissar": {"character": "Commissar", "joins": "Sentinel"}}
    roster = Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": points, "formations": [
        {"type": "Infantry Company", "upgrades": {"Commissar": {"character": "Commissar", "joins": "Commander"}}},
        {"type": "Infantry Company", "upgrades": {"Commissar": {"character": "Commissar", "joins": "Commander"}}},
        {"type": "Infantry Company", "upgrades": {"Commissar": {"character": "Commissar", "joins": "Commander"}}},
        *({"type": "Sentinel Squadron", "upgrades": commissar} for _ in range(allowed - 3)),
    ]})
    assert validate(roster, catalog).valid
    one_more = roster.model_copy(update={"formations": [*roster.formations, roster.formations[-1]]})
    assert [f.code for f in validate(one_more, catalog).findings] == ["limit-exceeded"]


def test_a_part_of_an_upgrade_that_comes_whole_says_what_it_counts(catalog):
    """'Fire Support Platoon: 1' gave '1 taken, 4 allowed', read as 'up to 4': the platoon is four
    Fire Support squads or none (seed 000 L9892-9894)."""
    roster = Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": 3000, "formations": [
        {"type": "Regimental HQ", "upgrades": {"Fire Support Platoon": 1}}]})
    [finding] = [f for f in validate(roster, catalog).findings if f.code == "quantity-out-of-range"]
    assert finding.message == ("Fire Support Platoon in Regimental HQ: 1 Support Squad taken; "
                               "the upgrade comes whole: 4 Support Squads or none")
    assert finding.suggestion == "write 'Fire Support Platoon: true' to take all 4"

"""Feral Ork rosters worked out by hand from seed 000 (6.8, L10474-10610; Feral Ork datasheets 5.8,
L5644-5957). Each formation tuple is (points, units, break point, half strength, may garrison,
derived transports). Sizes: a big formation has twice the core units, a 'uge one three times, and
every stated limit on extras is doubled or tripled with it (L10484-10492). War engines count their
damage capacity in the break point and in the Warlord's "formation with the most units"
(L10476-10479): Orkeosaurus DC 6, Steam Gargant DC 4. Speeds: Nobz, Boyz, Grotz, Wildboyz, Madboyz
15cm; Boarboyz and Squiggoths 20cm, Junkatrukks 25cm (so they stop a garrison when two or more);
Squig Katapults 10cm. A Junkatrukk bought with each extra Boyz or Nob of a Junka Brigade is one of
the brigade's own units, paid for in the pair's price, not a free derived transport (D59)."""

from listbuilder.games import validate
from listbuilder.listengine.roster import Roster

from .expectations import message, roster_tests

ARMY = "feral-orks"
NO, YES = False, True

LEGAL = {
    "legal-uge-warband.yaml": dict(
        limit=2500, total=2115, bts=[0], caps=[],
        formations=[
            (1080, 48, 53, 26, NO, {}),  # 500 + 4 Boyz 100 + 4 free Grotz + 3 Nobz 105 + 6 Katapults 150
                                         # + Orkeosaurus 175 + Wyrdboy 50; 9 Nobz, 22 Boyz, 10 Grotz, 6 SK,
                                         # 1 Orkeosaurus = 48 units; 47 + DC 6 = 53
            (475, 26, 26, 13, NO, {}),   # big 250 + 3 pairs of Wildboyz 75 + 2 Boarboyz 50 + 2 Squiggoths 100;
                                         # 4 Nobz, 12 + 6 Wildboyz, 2 + 2 units at 20cm
            (185, 7, 7, 3, YES, {}),     # 150 + Nob 35; all seven are scouts
            (175, 6, 6, 3, NO, {}),      # 100 + Boarboyz 25 + Wyrdboy 50; six at 20cm
            (200, 1, 4, 2, NO, {}),      # Steam Gargant DC 4
        ]),
    "legal-junka-brigade.yaml": dict(
        limit=2000, total=1615, bts=[0], caps=[],
        formations=[
            (525, 34, 34, 17, NO, {}),   # big 300 + 3 Boyz 75 + 2 Nobz 100 + Wyrdboy 50; 12 + 5 Junkatrukks,
                                         # 12 + 3 Boyz, 2 Nobz; the 5 Junkatrukks are bought with their pairs
            (340, 12, 12, 6, YES, {}),   # 100 + 6 Madboyz 90 + 3 Wyrdboyz 150
            (250, 14, 14, 7, YES, {}),   # 200 + 2 Boyz 50; 2 free Grotz
            (500, 3, 12, 6, NO, {}),     # 'uge: three Steam Gargants, 3 x DC 4
        ]),
    "legal-warlord-tie-war-engine.yaml": dict(
        limit=2000, total=1125, bts=[0], caps=[],
        formations=[
            (375, 11, 16, 8, NO, {}),    # 200 + Orkeosaurus 175: 10 units + DC 6 = 16
            (250, 16, 16, 8, YES, {}),   # 150 + 4 pairs 100: 2 Nobz, 14 Wildboyz = 16, a tie
            (350, 2, 8, 4, NO, {}),      # big: two Steam Gargants, 2 x DC 4
            (150, 6, 6, 3, YES, {}),
        ]),
    "legal-uge-wildboyz.yaml": dict(
        limit=2000, total=1740, bts=[0], caps=[],
        formations=[
            (1205, 39, 54, 27, NO, {}),  # 'uge 350 + 3 Nobz 105 + 9 Katapults 225 + 3 Orkeosauruses 525;
                                         # 9 + 18 + 9 + 3 = 39 units, 36 + 3 x DC 6 = 54
            (350, 17, 17, 8, NO, {}),    # 'uge 250 + 2 Boarboyz 50 + Wyrdboy 50
            (185, 7, 7, 3, YES, {}),     # Trappas 150 + Nob 35
        ]),
    "legal-two-warbands.yaml": dict(
        limit=2000, total=800, bts=[0, 1], caps=[],
        formations=[
            (250, 14, 14, 7, YES, {}),   # 200 + 2 Boyz 50, 2 free Grotz: 2 + 8 + 4
            (250, 14, 14, 7, YES, {}),   # 200 + 2 pairs of Wildboyz 50: 2 + 6 + 2 + 4
            (100, 6, 6, 3, YES, {}),
            (200, 14, 14, 7, NO, {}),    # 175 + 25: 7 Boyz, 6 + 1 Junkatrukks
        ]),
    "legal-big-warband-wyrdboyz.yaml": dict(
        limit=2000, total=450, bts=[0], caps=[],
        formations=[(450, 20, 20, 10, YES, {})]),  # big 350 + 2 Wyrdboyz 100; 4 + 12 + 4 units
}

ILLEGAL = {
    "illegal-warlord-placement.yaml": dict(
        total=600, codes=["character-placement"],
        formations=[(375, 11, 16, 8, NO, {}),      # 10 units + DC 6: the largest
                    (225, 14, 14, 7, YES, {})]),   # 150 + 3 pairs 75: 14 units, more models but smaller
    "illegal-no-warlord.yaml": dict(
        total=800, codes=["limit-exceeded", "limit-exceeded", "limit-short"],
        formations=[(200, 10, 10, 5, YES, {}), (100, 6, 6, 3, YES, {}), (100, 6, 6, 3, YES, {}),
                    (200, 1, 4, 2, NO, {}), (200, 1, 4, 2, NO, {})]),
    "illegal-scaled-limits.yaml": dict(
        total=1570,    # every refused extra charged as written (D6)
        codes=["quantity-out-of-range", "quantity-out-of-range", "quantity-out-of-range", "unknown-size",
               "unknown-size"],
        formations=[(270, 12, 12, 6, YES, {}),     # 200 + 2 Nobz 70, one beyond the limit
                    (875, 29, 39, 19, NO, {}),     # big 350 + 7 Katapults 175 + 2 Orkeosauruses 350
                    (275, 16, 16, 8, NO, {}),      # an unknown size counts as the normal one 175 + 2 x 50
                    (150, 6, 6, 3, YES, {})]),
    "illegal-extras.yaml": dict(
        total=1480,    # every refused extra charged as written (D6)
        codes=["quantity-out-of-range", "quantity-out-of-range", "quantity-out-of-range", "quantity-out-of-range",
               "upgrade-not-allowed", "upgrade-not-allowed", "wargear-invalid"],
        formations=[(550, 13, 23, 11, NO, {}),     # 200 + a refused free Grot + 2 Orkeosauruses 350 (DC 6 each)
                    (125, 7, 7, 3, NO, {}),        # 100 + 2 Wildboyz 25
                    (200, 6, 6, 3, YES, {}),       # 150 + Wyrdboy 50
                    (405, 13, 13, 6, YES, {}),     # 100 + 7 Madboyz 105 + 4 Wyrdboyz 200
                    (200, 1, 4, 2, NO, {})]),
    "illegal-points-and-two-warlords.yaml": dict(
        total=2025, codes=["character-placement", "limit-exceeded", "points-over-limit"],
        formations=[(1275, 53, 68, 34, NO, {}),    # 'uge 500 + 10 Boyz 250 + 10 Grotz + 3 Orkeosauruses 525;
                                                   # 6 + 28 + 16 + 3 units, 50 + 18
                    (750, 32, 32, 16, NO, {})]),   # 'uge 350 + 8 Squiggoths 400
    "illegal-grots-per-extra-boyz.yaml": dict(
        total=225, codes=["quantity-out-of-range"],
        formations=[(225, 14, 14, 7, YES, {})]),   # 200 + 1 Boyz 25; the three Grotz refused, free
}

test_legal_roster, test_illegal_roster = roster_tests(ARMY, LEGAL, ILLEGAL)


def units(built):
    return {g.sheet.name: g.count for g in built.units}


def test_ratings(catalog):
    army = catalog.lists["epic-armageddon"][ARMY]
    assert (army.strategy_rating, army.initiative) == (3, "3+")  # 5.8.1, L5649-5651


def test_sizes_multiply_units_and_stated_limits(check):
    result = check(f"{ARMY}/legal-uge-warband.yaml")
    warband, wildboyz = result.formations[0], result.formations[1]
    assert warband.size == "'uge"
    assert units(warband) == {"Nobz": 9, "Boyz": 22, "Grotz": 10, "Squig Katapult": 6, "Orkeosaurus": 1}
    assert warband.upgrades == {"Boyz": 100, "Free Grotz": 0, "Nob": 105, "Squig Katapults": 150, "Orkeosaurus": 175,
                                "Wyrdboy": 50, "Warlord": 0}
    assert units(wildboyz) == {"Nobz": 4, "Wildboyz": 18, "Boarboyz": 2, "Squiggoths": 2}


def test_stated_limits_are_not_scaled_for_a_normal_formation(check):
    result = check(f"{ARMY}/illegal-scaled-limits.yaml")
    found = [f.message for f in result.findings if f.code == "quantity-out-of-range"]
    assert found == ["Nob in Warband: 2 Nobz taken, 1 allowed",
                     "Squig Katapults in Warband: 7 Squig Katapults taken, 1 to 6 allowed",
                     "Junkatrukk and Nob in Junka Brigade: 2 Nobz taken, 1 allowed"]
    sizes = [f.message for f in result.findings if f.code == "unknown-size"]
    assert sizes == ["Junka Brigade comes in these sizes: normal, big; not ''uge'",
                     "Trappas comes in these sizes: normal; not 'big'"]
    assert all(f.rule.startswith("6.8 Feral Orks") for f in result.findings)


def test_wildboyz_are_bought_two_for_25(check):
    result = check(f"{ARMY}/legal-two-warbands.yaml")
    warband = result.formations[1]
    assert units(warband)["Wildboyz"] == 4
    assert warband.upgrades["Wildboyz"] == 50


def test_junkatrukk_comes_with_each_extra_boyz_and_nob(check):
    result = check(f"{ARMY}/legal-junka-brigade.yaml")
    junka = result.formations[0]
    assert units(junka) == {"Junkatrukk": 17, "Boyz": 15, "Nobz": 2}
    assert junka.derived["transports"] == {}  # bought with their Boyz and Nobz, not given free
    assert junka.upgrades == {"Junkatrukk and Boyz": 75, "Junkatrukk and Nob": 100, "Wyrdboy": 50, "Warlord": 0}


def test_free_grot_only_with_extra_boyz(check):
    result = check(f"{ARMY}/illegal-extras.yaml")
    finding = next(f for f in result.findings if f.message.startswith("Free Grotz"))
    assert finding.message == "Free Grotz in Warband: 1 Grotz taken, none allowed (one per Boyz, and Warband has 0)"
    assert finding.rule == "6.8 Feral Orks: Warband"


def test_grots_give_no_blast_markers_beside_orks(catalog, check):
    grotz = catalog.view("epic-armageddon", ARMY).unit("Grotz")
    assert grotz.abilities == ["Grot"]
    result = check(f"{ARMY}/legal-junka-brigade.yaml")
    assert result.formations[2].derived["notes"] == [
        "no Blast markers for Grots killed while it has an Ork unit (5.6.3 Grotz)"]
    assert result.formations[1].derived["notes"] == []


def test_warlord_must_join_the_largest_formation(check):
    finding = message(check(f"{ARMY}/illegal-warlord-placement.yaml"), "character-placement")
    assert finding.message == ("Warlord must go to the largest formation (#1, 16 units counting war engines' damage "
                               "capacity); Wildboyz has 14")
    assert finding.rule == "6.8 Feral Orks: Ork Warlord"
    assert finding.path == ("formations", 1, "upgrades", "Warlord")


def test_warlord_is_mandatory_and_single(check):
    missing = message(check(f"{ARMY}/illegal-no-warlord.yaml"), "limit-short")
    assert missing.message == "Warlord: 0 in the army, at least 1 needed"
    assert missing.rule == "6.8 Feral Orks: Ork Warlord"
    result = check(f"{ARMY}/illegal-points-and-two-warlords.yaml")
    two = next(f for f in result.findings if f.code == "limit-exceeded")
    assert two.message == "Warlord: 2 in the army, at most 1 allowed (in formations #1, #2)"
    assert message(result, "character-placement").message == (
        "Warlord must go to the largest formation (#1, 68 units counting war engines' damage capacity); "
        "Wildboyz has 32")


def test_warlord_is_free_and_may_join_a_war_engine(check):
    result = check(f"{ARMY}/legal-uge-wildboyz.yaml")
    wildboyz = result.formations[0]
    assert [(c.sheet.name, c.joins.name) for c in wildboyz.characters] == [("Warlord", "Orkeosaurus")]
    assert wildboyz.upgrades["Warlord"] == 0


def test_warlord_on_a_tie_may_join_either_largest(catalog):
    """A Warband with an Orkeosaurus (10 units + DC 6) ties 16 Wildboyz units: either may have him."""
    def roster(host):
        warlord = {"Warlord": {"character": "Warlord", "joins": "Wildboyz"}}
        nob = {"Warlord": {"character": "Warlord", "joins": "Nobz"}}
        return Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": 2000, "formations": [
            {"type": "Warband", "upgrades": {"Orkeosaurus": 1, **(nob if host == 0 else {})}},
            {"type": "Wildboyz", "upgrades": {"Wildboyz": 4, **(warlord if host == 1 else {})}},
            {"type": "Trappas", "upgrades": {**(warlord if host == 2 else {})}},
        ]})
    assert validate(roster(0), catalog).valid
    assert validate(roster(1), catalog).valid
    assert [f.code for f in validate(roster(2), catalog).findings] == ["character-placement"]


def test_madboyz_horde_and_steam_gargant_are_0_1(check):
    result = check(f"{ARMY}/illegal-no-warlord.yaml")
    found = sorted(f.message for f in result.findings if f.code == "limit-exceeded")
    assert found == ["2 Madboyz Horde formations: 0-1 allowed", "2 Steam Gargant formations: 0-1 allowed"]


def test_madboyz_extras_and_three_wyrdboyz(check):
    legal = check(f"{ARMY}/legal-junka-brigade.yaml").formations[1]
    assert [c.sheet.name for c in legal.characters] == ["Wyrdboy"] * 3
    assert legal.upgrades == {"Madboyz": 90, "Wyrdboyz": 150}
    result = check(f"{ARMY}/illegal-extras.yaml")
    found = [f.message for f in result.findings if f.code == "quantity-out-of-range"]
    assert found == ["Orkeosaurus in Warband: 2 Orkeosaurus taken, 1 allowed",
                     "Free Grotz in Warband: 1 Grotz taken, none allowed (one per Boyz, and Warband has 0)",
                     "Madboyz in Madboyz Horde: 7 Madboyz taken, 1 to 6 allowed",
                     "Wyrdboyz in Madboyz Horde: 4 characters taken, 1 to 3 allowed"]
    assert sorted(f.message for f in result.findings if f.code == "upgrade-not-allowed") == [
        "Boarboyz Horde may not take the Wildboyz upgrade (it may take: Boarboyz, Wyrdboy)",
        "Trappas may not take the Wyrdboy upgrade (it may take: Nob)"]


def test_trappas_are_scouts(check):
    trappas = check(f"{ARMY}/legal-uge-warband.yaml").formations[2]
    assert {g.sheet.name: g.gained for g in trappas.units} == {"Nobz": ["Scout"], "Wildboyz": ["Scout"]}
    assert trappas.derived["garrison"]["reason"] == "7 of 7 units are scouts (half, rounding up, is 4)"


def test_trappas_nob_is_a_scout_whatever_the_roster_order(check):
    trappas = check(f"{ARMY}/legal-uge-wildboyz.yaml").formations[2]
    assert {g.sheet.name: g.gained for g in trappas.units} == {"Nobz": ["Scout"], "Wildboyz": ["Scout"]}


def test_steam_gargant_arm_weapons(check):
    result = check(f"{ARMY}/legal-junka-brigade.yaml")
    gargants = result.formations[3]
    assert gargants.size == "'uge"
    assert gargants.group("Steam Gargant").wargear == {"Two Soopaguns": 1, "Soopagun and Mega-choppa": 1,
                                                       "Two Mega-choppas": 1}
    invalid = message(check(f"{ARMY}/illegal-extras.yaml"), "wargear-invalid")
    assert invalid.message.startswith("Steam Gargant has no loadout 'Three Soopaguns'")


def test_feral_transport_capacities(catalog):
    view = catalog.view("epic-armageddon", ARMY)
    capacity = {name: [(c.slots, c.carries) for c in view.unit(name).transport]
                for name in ("Junkatrukk", "Squiggoths", "Orkeosaurus")}
    riders = {"Boyz": 1, "Nobz": 1, "Wildboyz": 1}
    assert capacity == {"Junkatrukk": [(1, riders), (1, {"Grotz": 1})],      # L5866
                        "Squiggoths": [(4, riders), (2, {"Grotz": 1})],      # L5891
                        "Orkeosaurus": [(12, riders), (6, {"Grotz": 1})]}    # L5933
    assert view.unit("Orkeosaurus").damage_capacity == 6 and view.unit("Steam Gargant").damage_capacity == 4

"""Ghazghkull Thraka's War Horde rosters worked out by hand from seed 000 (6.6, L10152-10325; Ork
datasheets 5.6, L4900-5572). Each formation tuple is (points, units, break point, half strength, may
garrison, derived transports). Orks break at one Blast marker per unit; a war engine counts its
damage capacity (Gargant 8, Great Gargant 12, Supa-Stompa 4, Battle- and Gunfortress 3, Landa 3);
Grotz are units (their loss gives no Blast marker, which does not change the break point). Big
formations double the core units and every stated limit on extras, 'uge ones triple them
(L10161-10169). Characters (the Warlord, Oddboyz) are not units."""

from listbuilder.games import validate
from listbuilder.listengine.roster import Roster

from .expectations import message, roster_tests

ARMY = "ghazghkull-warhorde"
NO, YES = False, True
KROOZER = (200, 1, None, None, NO, {})  # a spacecraft: no break point, never a garrison
LANDA = (200, 1, 3, 1, NO, {})          # WE/AC, DC 3: an aircraft, so never the BTS target
WARBAND = (200, 10, 10, 5, YES, {})     # 2 Nobz, 6 Boyz, 2 Grotz, all 15cm: no unit over 15cm

LEGAL = {
    "legal-great-gargant.yaml": dict(
        limit=3000, total=2340, bts=[0], caps=[],
        formations=[
            (850, 1, 12, 6, NO, {}),       # the Warlord rides the Great Gargant (DC 12)
            (390, 18, 18, 9, NO, {}),      # 200 + 2 Boyz 50 + 2 free Grotz + 2 Nobz 70 + 2 Battlewagonz 70;
                                           # 4 Nobz, 8 Boyz, 4 Grotz, 2 Battlewagonz: two move 30cm
            (650, 1, 8, 4, NO, {}),
            (250, 1, None, None, NO, {}),  # Kill Kroozer 200 + Battlekroozer 50
            LANDA,
        ]),
    "legal-big-and-uge.yaml": dict(
        limit=4000, total=3785, bts=[3], caps=[],
        formations=[
            (675, 31, 31, 15, YES, {}),    # big 350 + 3 Boyz 75 + 3 Grotz 0 + 4 Nobz 140 + Gunwagon 35 + Big Mek 75;
                                           # 8 Nobz, 15 Boyz, 7 Grotz, 1 Gunwagon: one unit over 15cm
            (570, 26, 26, 13, NO, {}),     # 'uge 500 (24 bikes and buggies) + 2 Deth Koptas 70
            (595, 10, 14, 7, NO, {}),      # big 250 (8, 2 Flakwagonz) + 2 Gunfortresses 270 + Big Mek 75;
                                           # 8 + 2 x DC 3 = 14
            (1525, 14, 23, 11, NO, {}),    # 'uge 575 (9 Stompas) + 3 Supa-Stompas 900 + 2 Killa Kans 50;
                                           # 9 + 3 x DC 4 + 2 = 23
            (420, 14, 14, 7, YES, {}),     # big 225 (10 Big Gunz) + 2 Big Gunz 50 + 2 Nobz 70 + Slaver 75
        ]),
    "legal-warlord-any-unit.yaml": dict(
        limit=2000, total=1540, bts=[1], caps=[],
        formations=[
            (285, 11, 11, 5, YES, {}),     # 150 + 2 Stormboyz 50 + 2 Kommandos 50 + Deth Kopta 35;
                                           # 8 Stormboyz and 2 Kommandos are scouts: 10 of 11
            (310, 9, 9, 4, NO, {}),        # 200 + Gunwagon 35 + Big Mek 75
            (450, 9, 9, 4, NO, {}),        # 150 + 6 Fighta-Bommers 300; aircraft, not the BTS target
            (200, 6, 6, 3, NO, {}),        # 150 + 2 Buggies 50
            (295, 5, 5, 2, YES, {}),       # 225 + Dreadnought 35 + Flakwagon 35: only the Flakwagon is fast
        ]),
    "legal-warlord-in-gargant.yaml": dict(
        limit=2000, total=1950, bts=[1], caps=[],
        formations=[
            (650, 1, 8, 4, NO, {}),
            (900, 36, 40, 20, NO, {}),     # 'uge 500 + 2 Battlefortresses 250 + Stompa 75 + 2 Kommandos 50
                                           # + Killa Kan 25; 6 + 18 + 6 + 2 + 1 + 2 + 1 units, 30 + 2 x 3 + 4
            LANDA,
            KROOZER,
        ]),
    "legal-oddboyz-scaled.yaml": dict(
        limit=2000, total=1380, bts=[2], caps=[],
        formations=[
            (570, 18, 18, 9, NO, {}),      # big 350 + 2 Gunwagonz 70 + 2 Big Meks 150 ("up to 1", doubled)
            (235, 6, 6, 3, YES, {}),       # 125 + Nobz 35 + Slaver 75
            (575, 12, 12, 6, NO, {}),      # 'uge 350 (6 Gunwagonz, 3 Deth Koptas, 3 Flakwagonz) + 3 Big Meks 225
        ]),
}

ILLEGAL = {
    "illegal-warlord-not-in-great-gargant.yaml": dict(
        total=1050, codes=["character-placement"],
        formations=[(850, 1, 12, 6, NO, {}), WARBAND]),
    "illegal-warlord-on-boyz.yaml": dict(
        total=850, codes=["character-placement"],
        formations=[WARBAND, (650, 1, 8, 4, NO, {})]),
    "illegal-no-warlord.yaml": dict(
        total=550, codes=["limit-short"],
        formations=[(350, 20, 20, 10, YES, {}), (200, 8, 8, 4, NO, {})]),
    "illegal-choice-pools-and-sizes.yaml": dict(
        total=1600, codes=["composition-count", "composition-count", "composition-count", "unknown-size",
                           "unknown-size"],
        formations=[WARBAND,
                    (200, 9, 9, 4, NO, {}),        # the nine units as given
                    (150, 4, 4, 2, NO, {}),
                    (250, 8, 8, 4, NO, {}),
                    (150, 6, 6, 3, YES, {}),       # an unknown size counts as the normal one
                    (650, 1, 8, 4, NO, {})]),
    "illegal-extras.yaml": dict(
        total=2510, codes=["character-host-invalid", "quantity-out-of-range", "quantity-out-of-range",
                           "quantity-out-of-range", "quantity-out-of-range", "upgrade-not-allowed",
                           "upgrade-not-allowed", "wargear-invalid"],
        formations=[(305, 14, 14, 7, YES, {}),     # 200 + 3 Nobz 105 + a free Grot: refused, charged as written
                    (405, 13, 13, 6, YES, {}),     # big 225 + 3 Nobz 105 + Big Mek 75
                    (900, 5, 11, 5, NO, {}),       # 225 + 2 Supa-Stompas 600 (DC 4 each) + Slaver 75
                    (650, 1, 8, 4, NO, {}),
                    (250, 11, None, None, NO, {})]),   # 200 + Battlekroozer 50: a spacecraft has no break point
    "illegal-two-warlords-and-kroozers.yaml": dict(
        total=850, codes=["limit-exceeded", "limit-exceeded"],
        formations=[WARBAND, WARBAND, KROOZER, (250, 1, None, None, NO, {})]),
    "illegal-grots-per-extra-boyz.yaml": dict(
        total=225, codes=["quantity-out-of-range"],
        formations=[(225, 14, 14, 7, YES, {})]),   # 200 + 1 Boyz 25; the three free Grotz, two refused
}

test_legal_roster, test_illegal_roster = roster_tests(ARMY, LEGAL, ILLEGAL)


def units(built):
    return {g.sheet.name: g.count for g in built.units}


def characters(built):
    return [(c.sheet.name, c.joins.name, c.upgrade) for c in built.characters]


def test_ratings_and_datasheets(catalog):
    army = catalog.lists["epic-armageddon"][ARMY]
    assert (army.strategy_rating, army.initiative, army.break_rule.blast_markers_per_unit) == (3, "3+", 1)
    assert army.datasheets == ["orks"]


def test_sizes_double_and_triple_core_units_and_stated_limits(check):
    result = check(f"{ARMY}/legal-big-and-uge.yaml")
    warband, kult, blitz, stompas, gunz = result.formations
    assert [f.size for f in result.formations] == ["big", "'uge", "big", "'uge", "big"]
    assert units(warband) == {"Nobz": 8, "Boyz": 15, "Grotz": 7, "Gunwagonz": 1}   # 2+2 x2 Nobz, 4 extra
    assert sum(units(kult).values()) == 26
    assert units(blitz) == {"Gunwagonz": 4, "Deth Kopta": 2, "Flakwagonz": 2, "Gunfortress": 2}
    assert units(stompas) == {"Stompa": 9, "Supa Stompa": 3, "Killa Kan": 2}
    assert units(gunz) == {"Big Gunz": 12, "Nobz": 2}
    assert warband.upgrades == {"Boyz": 75, "Free Grotz": 0, "Nobz": 140, "Gunwagonz": 35, "Oddboy": 75,
                                "Warlord": 0}


def test_stated_limits_scale_and_are_refused_beyond(check):
    result = check(f"{ARMY}/illegal-extras.yaml")
    found = sorted(f.message for f in result.findings if f.code == "quantity-out-of-range")
    assert found == ["Free Grotz in Warband: 1 Grotz taken, none allowed (one per Boyz, and Warband has 0)",
                     "Nobz in Mekboy Gunzmob: 3 Nobz taken, 1 to 2 allowed",   # up to 1, doubled; never "(up to 1)"
                     "Nobz in Warband: 3 Nobz taken, 1 to 2 allowed",
                     "Supa-Stompa in Mekboy Stompamob: 2 Supa Stompas taken, 1 allowed"]
    refused = sorted((f.rule, f.message.split(" (")[0]) for f in result.findings if f.code == "upgrade-not-allowed")
    assert refused == [("6.6 Ork Formations: Mekboy Stompamob", "Mekboy Stompamob may not take the Oddboy upgrade"),
                       ("6.6 Ork Formations: Warband", "Warband may not take the Battlekroozer upgrade")]


def test_choice_pools_and_the_flakwagon_limit(check):
    result = check(f"{ARMY}/illegal-choice-pools-and-sizes.yaml")
    assert sorted(f.message for f in result.findings if f.code == "composition-count") == [
        "Blitz Brigade may have at most 1 Flakwagonz; the roster has 2",
        "Blitz Brigade may have at most 2 Flakwagonz; the roster has 3",                            # 0-1, doubled
        "Kult of Speed needs 8 units from Warbuggies/Wartraks or Warbikes or Skorcha; the roster has 9"]


def test_single_cost_formations_come_in_one_size(check):
    result = check(f"{ARMY}/illegal-choice-pools-and-sizes.yaml")
    assert sorted(f.message for f in result.findings if f.code == "unknown-size") == [
        "Gargant comes in these sizes: normal; not ''uge'",
        "Stormboyz comes in these sizes: normal; not 'big'"]
    assert result.formations[4].size == "normal" and result.formations[4].points == 150


def test_warlord_must_join_a_great_gargant_if_the_army_has_one(check):
    legal = check(f"{ARMY}/legal-great-gargant.yaml")
    assert characters(legal.formations[0]) == [("Warlord", "Ork Great Gargant", "Warlord")]
    finding = message(check(f"{ARMY}/illegal-warlord-not-in-great-gargant.yaml"), "character-placement")
    assert finding.message == "Warlord joins a unit of Nobz, but the army has an Ork Great Gargant, which it must join"
    assert finding.rule == "6.6 Special Rules: Ork Warlord"
    assert finding.path == ("formations", 1, "upgrades", "Warlord")


def test_warlord_joins_nobz_or_a_gargant_else_any_ork_unit(check):
    finding = message(check(f"{ARMY}/illegal-warlord-on-boyz.yaml"), "character-placement")
    assert finding.message == ("Warlord joins a unit of Boyz, but the army has a unit of Nobz or an Ork Gargant, "
                               "which it must join")
    gargant = check(f"{ARMY}/legal-warlord-in-gargant.yaml").formations[0]
    assert characters(gargant) == [("Warlord", "Ork Gargant", "Warlord")]   # Nobz in the army too: either
    stormboyz = check(f"{ARMY}/legal-warlord-any-unit.yaml").formations[0]   # FAQ L12880-12886
    assert characters(stormboyz) == [("Warlord", "Stormboyz", "Warlord")]


def test_the_warlord_is_free_required_and_one_only(check):
    short = message(check(f"{ARMY}/illegal-no-warlord.yaml"), "limit-short")
    assert short.message == "Warlord: 0 in the army, at least 1 needed"
    assert short.rule == "6.6 Special Rules: Ork Warlord"
    result = check(f"{ARMY}/illegal-two-warlords-and-kroozers.yaml")
    assert sorted(f.message for f in result.findings) == [
        "Warlord: 2 in the army, at most 1 allowed (in formations #1, #2)",
        "spacecraft: 2 in the army, at most 1 allowed (in formations #3, #4)"]
    assert result.formations[0].upgrades == {"Warlord": 0}


def test_oddboyz_join_a_gunwagon_gunfortress_or_big_gun(check):
    result = check(f"{ARMY}/legal-big-and-uge.yaml")
    assert characters(result.formations[0]) == [("Oddboyz", "Gunwagonz", "Oddboy"), ("Warlord", "Nobz", "Warlord")]
    assert characters(result.formations[2]) == [("Oddboyz", "Gunfortress", "Oddboy")]
    assert characters(result.formations[4]) == [("Oddboyz", "Big Gunz", "Oddboy")]
    invalid = message(check(f"{ARMY}/illegal-extras.yaml"), "character-host-invalid")
    assert invalid.message == "Big Mek may join only Gunwagonz or Gunfortress, not Big Gunz"


def test_oddboyz_double_and_triple_with_the_formation(check):
    kult, gunz, blitz = check(f"{ARMY}/legal-oddboyz-scaled.yaml").formations
    assert characters(kult) == [("Oddboyz", "Gunwagonz", "Oddboy")] * 2
    assert characters(blitz) == [("Oddboyz", "Gunwagonz", "Oddboy")] * 3
    assert (kult.upgrades["Oddboy"], blitz.upgrades["Oddboy"]) == (150, 225)


def test_a_big_mek_per_big_gun_to_upgrade(catalog):
    """A Big Mek upgrades one of the big guns of the vehicle he joins (L4973-4974; D121): a Gunwagon
    has one, so a second Big Mek on a lone Gunwagon has nothing to upgrade; a Gunfortress has three."""
    def warband(size, **upgrades):
        return {"type": "Blitz Brigade", "size": size, "composition": {"Gunwagonz": 4 if size == "normal" else 8},
                "upgrades": upgrades}
    two_meks = [{"character": "Big Mek", "joins": host} for host in ("Gunfortress", "Gunfortress")]
    crowded = [{"character": "Big Mek", "joins": "Gunwagonz"}] * 2
    roster = Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": 3000, "formations": [
        warband("big", **{"Gunfortress (up to 1)": 1, "Oddboy": two_meks}),
        {"type": "Mekboy Gunzmob", "size": "big", "upgrades": {"Oddboy": [
            {"character": "Slaver", "joins": "Big Gunz"}] * 2}},
        {"type": "Warband", "size": "big", "upgrades": {"Gunwagonz": 1, "Oddboy": crowded,
                                                         "Warlord": {"character": "Warlord", "joins": "Nobz"}}}]})
    result = validate(roster, catalog)
    assert [f.message for f in result.findings] == [
        "Big Mek: at most 1 may join each Gunwagonz, and Warband has 1 Gunwagonz with 1 Big Mek already"]
    assert result.findings[0].path == ("formations", 2, "upgrades", "Oddboy", 1, "joins")
    assert [len(f.characters) for f in result.formations[:2]] == [2, 2]   # two on a Gunfortress; a Slaver each


def test_free_grot_per_extra_boyz(check):
    warband = check(f"{ARMY}/legal-great-gargant.yaml").formations[1]
    assert units(warband)["Grotz"] == 4 and warband.upgrades["Free Grotz"] == 0
    too_many = message(check(f"{ARMY}/illegal-grots-per-extra-boyz.yaml"), "quantity-out-of-range")
    assert too_many.message == "Free Grotz in Warband: 3 Grotz taken, 1 allowed (one per Boyz, and Warband has 1)"
    assert too_many.rule == "6.6 Ork Formations: Warband"


def test_kill_kroozer_becomes_a_battlekroozer(check):
    kroozer = check(f"{ARMY}/legal-great-gargant.yaml").formations[3]
    assert units(kroozer) == {"Battlekroozer": 1}
    assert kroozer.upgrades == {"Battlekroozer": 50}


def test_gargant_and_stompa_weapon_loadouts(check):
    result = check(f"{ARMY}/legal-big-and-uge.yaml")
    stompas = result.formations[3]
    assert stompas.group("Stompa").wargear == {"3 Big Guns": 6, "2 Big Guns and Kombat 'Ammer": 3}
    assert stompas.group("Supa Stompa").wargear == {"3 Soopaguns": 3}
    great = check(f"{ARMY}/legal-great-gargant.yaml").formations[0]
    assert great.group("Ork Great Gargant").wargear == {"Twin Soopagun and Lifta-Droppa": 1}
    invalid = message(check(f"{ARMY}/illegal-extras.yaml"), "wargear-invalid")
    assert invalid.message.startswith("Ork Gargant has no loadout '2 Twin Soopaguns'")


def test_grotz_give_no_blast_markers_while_orks_remain(catalog, check):
    grotz = catalog.view("epic-armageddon", ARMY).unit("Grotz")
    assert grotz.abilities == ["Grot"]
    warband = check(f"{ARMY}/legal-great-gargant.yaml").formations[1]
    assert warband.derived["notes"] == ["no Blast markers for Grots killed while it has an Ork unit (5.6.3 Grotz)"]
    assert warband.derived["break_point"] == 18   # Grotz still count as units


def test_fortresses_carry_only_their_own_formation(catalog):
    view = catalog.view("epic-armageddon", ARMY)
    fortress, gunfortress = view.unit("Battlefortress"), view.unit("Gunfortress")
    assert [(c.slots, sorted(c.carries)) for c in fortress.transport] == [
        (8, ["Big Gunz", "Boyz", "Kommandos", "Nobz"]), (4, ["Grotz"])]     # L5440
    assert [c.slots for c in gunfortress.transport] == [4, 4]                  # L5463
    assert view.army.transports == []   # nothing lends a formation's transport to another

"""Burning Death Speed Freeks rosters worked out by hand from seed 000 (6.7, L10327-10472; Ork and
Speed Freek datasheets 5.6-5.7, L4900-5643). Each formation tuple is (points, units, break point,
half strength, may garrison, derived transports). Orks break at one Blast marker per unit; a
Battle- or Gunfortress counts its damage capacity of 3, the Landa too. Every unit moves 30cm or
more or rides a transport of its own formation that does (L10331-10333): Boyz and Nobz (15cm) and
Big Gunz (10cm) need a seat. The Mekboy Bad Ork Bikeboy is a free unit of the formation that takes
him (D100), so he counts as a unit. Big formations double the core units and
every "up to 1" extra, 'uge ones triple them (L10338-10346)."""

from .expectations import message, roster_tests

ARMY = "speed-freeks"
NO, YES = False, True
LANDA = (200, 1, 3, 1, NO, {})
BATTLEKROOZER = (250, 1, None, None, NO, {})   # Kill Kroozer 200 + 50; a spacecraft

LEGAL = {
    "legal-speed-freek-warband.yaml": dict(
        limit=2000, total=1220, bts=[0], caps=[],
        formations=[
            (335, 19, 19, 9, NO, {}),      # 200 + 2 Boyz with their free Trukks 50 + Nobz 35 + Speedsta 50;
                                           # 2 Nob Warbikes, 5 Boyz, 6 Trukks, 2 Buggies, 2 Skorchas,
                                           # Speedsta, Bikeboy = 19; the Boyz fill 5 of 6 Trukks
            (150, 5, 5, 2, YES, {}),       # five Warbikes, all scouts
            (235, 9, 9, 4, NO, {}),        # 200 + Gunwagon 35
            (250, 5, 5, 2, NO, {}),        # 150 + 2 Fighta-Bommers 100; aircraft, not the BTS target
            BATTLEKROOZER,
        ]),
    "legal-big-and-uge.yaml": dict(
        limit=3500, total=3425, bts=[1], caps=[],
        formations=[
            (630, 32, 32, 16, NO, {}),     # big 375 + Boyz 25 + Big Gunz 25 + Battlewagon 35 + 2 Nobz 70
                                           # + 2 Speedstas 100; 2 Nobz + 2 Nob Warbikes, 7 Boyz, 9 Trukks,
                                           # 8 bikes, Big Gunz, Battlewagon, 2 Speedstas; 10 riders, 11 seats
            (1470, 23, 41, 20, NO, {}),    # 'uge 675 + 10 Boyz 250 + 3 Nobz 105 + 3 Gunfortresses 405
                                           # + Flakwagon 35; 9 fortresses x DC 3 = 27, + 14 other units
            (425, 16, 16, 8, NO, {}),      # 'uge 350 + 3 Boyz 75 (in Gunwagons); the Bikeboy is a unit
            (250, 10, 10, 5, YES, {}),
            (650, 27, 27, 13, NO, {}),     # 'uge 500 + 3 Speedstas 150
        ]),
    "legal-bikeboy-in-outriders.yaml": dict(
        limit=2000, total=1145, bts=[1], caps=[],
        formations=[
            (150, 6, 6, 3, YES, {}),       # 5 Warbikes and the Bikeboy, all scouts
            (595, 9, 15, 7, NO, {}),       # 275 + 4 Boyz 100 + Nobz 35 + Speedsta 50 + Gunfortress 135;
                                           # 3 fortresses x 3 + 6
            LANDA,
            (200, 6, 6, 3, NO, {}),        # 150 + 2 Warbikes 50
        ]),
    "legal-stormboyz-and-big-gunz.yaml": dict(
        limit=2000, total=780, bts=[0], caps=[],
        formations=[
            (430, 21, 21, 10, NO, {}),     # 200 + 3 Stormboyz 75 + 2 Big Gunz 50 + Gunwagon, Flakwagon and
                                           # Deth Kopta 105; 1 + 3 + 4 + 4 + 3 + 2 + 3 + Bikeboy = 21
            (200, 8, 8, 4, NO, {}),
            (150, 3, 3, 1, NO, {}),
        ]),
    "legal-fortress-and-nob-warbikes.yaml": dict(
        limit=2000, total=1650, bts=[1], caps=[],
        formations=[
            (505, 14, 16, 8, NO, {}),      # big 250 + 2 Nobz 70 + Gunfortress 135 + 2 Boyz 50;
                                           # 8 + 2 Nob Warbikes + Gunfortress + 2 Boyz + Bikeboy, 13 + DC 3
            (695, 12, 20, 10, NO, {}),     # big 475 + 6 Boyz 150 + 2 Flakwagonz 70; 4 x 3 + 8
            BATTLEKROOZER,
            LANDA,
        ]),
    "legal-any-roster-order.yaml": dict(
        limit=2000, total=335, bts=[0], caps=[],
        formations=[
            (185, 5, 5, 2, NO, {}),        # 150 + Nobz 35, on a warbike: 4 Gunwagonz and 1 Nob Warbikes
            (150, 6, 6, 3, YES, {}),
        ]),
}

ILLEGAL = {
    "illegal-too-slow.yaml": dict(
        total=685, codes=["too-slow", "too-slow", "too-slow"],
        formations=[(250, 15, 15, 7, NO, {}),      # 200 + 2 Big Gunz 50; 4 Trukks for 6 riders
                    (200, 6, 6, 3, NO, {}),        # 150 + 2 Boyz 50; Deth Koptas carry nobody
                    (235, 13, 13, 6, NO, {})]),    # 200 + Nobz 35: 2 Nobz and 3 Boyz, 4 Trukks
    "illegal-no-bikeboy.yaml": dict(
        total=350, codes=["limit-short"],
        formations=[(200, 8, 8, 4, NO, {}), (150, 5, 5, 2, YES, {})]),
    "illegal-bikeboys.yaml": dict(
        total=875, codes=["limit-exceeded", "upgrade-not-allowed"],
        formations=[(200, 9, 9, 4, NO, {}),
                    (150, 6, 6, 3, YES, {}),
                    (150, 4, 4, 2, NO, {}),        # the Fighta Squadron's Bikeboy refused, still in it (free)
                    (375, 26, 26, 13, NO, {})]),   # big: 2 + 6 + 8 + 8 and two Bikeboys (the limit counts 4)
    "illegal-extras.yaml": dict(
        total=1745, codes=["composition-count", "composition-count", "quantity-out-of-range",
                           "quantity-out-of-range", "quantity-out-of-range", "unknown-size", "upgrade-not-allowed",
                           "upgrade-not-allowed", "upgrade-not-allowed"],
        formations=[(420, 19, 19, 9, NO, {}),      # 200 + the refused Warbikes 25, Boyz 25, 2 Nobz 70, 2 Speedstas 100
                    (200, 7, 7, 3, YES, {}),       # 150 + the refused Buggies 50
                    (150, 4, 4, 2, NO, {}),
                    (200, 8, 8, 4, NO, {}),        # an unknown size counts as the normal one
                    (500, 10, 10, 5, NO, {}),      # 150 + 7 Fighta-Bommerz 350, one more than allowed
                    (275, 3, 9, 4, NO, {})]),      # three Battlefortresses as given
    "illegal-big-gunz-in-battlewagons.yaml": dict(
        total=565, codes=["too-slow"],
        formations=[(565, 26, 26, 13, NO, {})]),  # 200 + 9 Big Gunz 225 + 4 Battlewagonz 140; 4 Warbikes,
                                                   # Nob Warbike, 3 Boyz, 4 Trukks, 9 Big Gunz, 4 wagons, Bikeboy
    "illegal-nob-warbikes.yaml": dict(
        total=600, codes=["quantity-out-of-range", "unknown-size", "upgrade-not-allowed"],
        formations=[(200, 14, 14, 7, NO, {}),      # 2 Nob Warbikes (free) for its 1 Nobz, as written
                    (200, 9, 9, 4, NO, {}), LANDA]),
}

test_legal_roster, test_illegal_roster = roster_tests(ARMY, LEGAL, ILLEGAL)


def units(built):
    return {g.sheet.name: g.count for g in built.units}


def test_ratings_minimum_speed_and_datasheets(catalog):
    army = catalog.lists["epic-armageddon"][ARMY]
    assert (army.strategy_rating, army.initiative, army.min_speed.cm) == (3, "3+", 30)
    assert army.datasheets == ["orks", "speed-freeks"]


def test_every_unit_moves_30cm_or_rides(check):
    result = check(f"{ARMY}/illegal-too-slow.yaml")
    slow = [f for f in result.findings if f.code == "too-slow"]
    assert [f.message for f in slow] == [
        "Speed Freek Warband: 2 units (Big Gunz) move less than 30cm and have no room in a transport that moves "
        "30cm or more",
        "Blitz Brigade: 2 units (Boyz) move less than 30cm and have no room in a transport that moves 30cm or more",
        "Speed Freek Warband: 1 unit (Boyz) moves less than 30cm and has no room in a transport that moves 30cm "
        "or more"]   # five riders, four Trukks: which one walks is the engine's pick
    assert [f.path for f in slow] == [("formations", 0), ("formations", 1), ("formations", 2)]
    assert all(f.rule == "6.7 Special Rules: Speed" for f in slow)


def test_a_battlewagon_takes_one_big_gun_at_most(check):
    """Twelve seats for twelve riders, but a Battlewagon holds one Big Gun (L5195; D103): the
    4 Trukks and 4 wagons seat 8 of the 9 Big Gunz, and the Boyz take the wagons' other seats."""
    slow = message(check(f"{ARMY}/illegal-big-gunz-in-battlewagons.yaml"), "too-slow")
    assert slow.message == ("Speed Freek Warband: 1 unit (Big Gunz) moves less than 30cm and has no room in a "
                            "transport that moves 30cm or more")


def test_slow_units_ride_trukks_wagons_and_fortresses(check):
    result = check(f"{ARMY}/legal-stormboyz-and-big-gunz.yaml")
    assert result.valid   # 4 Trukks for the Nobz and Boyz, a Gunwagon and a Flakwagon for the Big Gunz
    assert check(f"{ARMY}/legal-big-and-uge.yaml").valid   # Boyz and Nobz in fortresses, Gunwagons, a Battlewagon


def test_the_bikeboy_is_one_free_unit(check):
    warband = check(f"{ARMY}/legal-speed-freek-warband.yaml").formations[0]
    assert units(warband)["Mekboy Bad Ork Bikeboy"] == 1 and warband.characters == []
    assert warband.upgrades["Mekboy Bad Ork Bikeboy"] == 0
    short = message(check(f"{ARMY}/illegal-no-bikeboy.yaml"), "limit-short")
    assert short.message == "Mekboy Bad Ork Bikeboy: 0 in the army, at least 1 needed"
    assert short.rule == "6.7 Special Rules: Mekboy Bad Ork Bikeboy"
    result = check(f"{ARMY}/illegal-bikeboys.yaml")
    assert message(result, "limit-exceeded").message == (
        "Mekboy Bad Ork Bikeboy: 4 in the army, at most 1 allowed (in formations #1, #2, #4)")
    assert message(result, "upgrade-not-allowed").message == (
        "Fighta Squadron may not take the Mekboy Bad Ork Bikeboy upgrade (it may take: Fighta-Bommers)")


def test_warbike_outriders_are_scouts_the_bikeboy_too(check):
    outriders = check(f"{ARMY}/legal-bikeboy-in-outriders.yaml").formations[0]
    assert {g.sheet.name: g.gained for g in outriders.units} == {"Warbikes": ["Scout"],
                                                                "Mekboy Bad Ork Bikeboy": ["Scout"]}
    assert outriders.derived["garrison"]["reason"] == "6 of 6 units are scouts (half, rounding up, is 3)"
    refused = message(check(f"{ARMY}/illegal-extras.yaml"), "upgrade-not-allowed")
    assert refused.message.startswith("Speed Freek Warband may not take the Warbikes upgrade")


def test_outrider_scouts_whatever_the_roster_order(check):
    outriders = check(f"{ARMY}/legal-any-roster-order.yaml").formations[1]   # Scouts listed before the Bikeboy
    assert outriders.group("Mekboy Bad Ork Bikeboy").gained == ["Scout"]


def test_nob_warbikes_replace_nobz_for_free(check):
    warband = check(f"{ARMY}/legal-speed-freek-warband.yaml").formations[0]
    assert "Nobz" not in units(warband) and units(warband)["Nob Warbikes"] == 2
    assert warband.upgrades["Nob Warbikes"] == 0
    result = check(f"{ARMY}/illegal-nob-warbikes.yaml")
    assert message(result, "quantity-out-of-range").message == (
        "Nob Warbikes in Speed Freek Warband: 2 Nob Warbikes taken, 1 allowed (Speed Freek Warband has 1 Nobz "
        "to replace)")


def test_free_trukk_with_each_extra_boyz(check):
    warband = check(f"{ARMY}/legal-speed-freek-warband.yaml").formations[0]
    assert units(warband)["Ork Trukk"] == 6 and units(warband)["Boyz"] == 5   # 4 + 2 Trukks, 3 + 2 Boyz
    assert warband.upgrades["Boyz and Trukk"] == 50
    refused = [f.message for f in check(f"{ARMY}/illegal-extras.yaml").findings if f.code == "upgrade-not-allowed"]
    assert any(m.startswith("Speed Freek Warband may not take the Boyz upgrade") for m in refused)


def test_sizes_and_their_limits(check):
    result = check(f"{ARMY}/legal-big-and-uge.yaml")
    assert [f.size for f in result.formations] == ["big", "'uge", "'uge", "big", "'uge"]
    assert units(result.formations[1]) == {"Battlefortress": 4, "Gunfortress": 5, "Boyz": 10, "Nobz": 3,
                                           "Flakwagonz": 1}
    assert units(result.formations[4])["Mekboy Speedsta"] == 3
    extras = check(f"{ARMY}/illegal-extras.yaml")
    assert sorted(f.message for f in extras.findings if f.code == "quantity-out-of-range") == [
        "Fighta-Bommers in Fighta Squadron: 7 Fighta Bommerz taken, 1 to 6 allowed",
        "Mekboy Speedsta in Speed Freek Warband: 2 Mekboy Speedstas taken, 1 allowed",
        "Nobz in Speed Freek Warband: 2 Nobz taken, 1 allowed"]
    assert message(extras, "unknown-size").message == (
        "Kult of Speed comes in these sizes: normal, big, 'uge; not 'huge'")
    assert sorted(f.message for f in extras.findings if f.code == "composition-count") == [
        "Blitz Brigade may have at most 1 Flakwagonz; the roster has 2",
        "Fortress Mob needs 2 units from Battlefortress or Gunfortress; the roster has 3"]
    landa = message(check(f"{ARMY}/illegal-nob-warbikes.yaml"), "unknown-size")
    assert landa.message == "Ork Landa comes in these sizes: normal; not 'big'"


def test_no_grotz_in_the_list(catalog):
    army = catalog.lists["epic-armageddon"][ARMY]
    named = {u.unit for f in army.formations for s in f.units for u in [s] if s.unit} | {
        c for f in army.formations for s in f.units for c in s.choice or []} | {
        o.unit for u in army.upgrades for o in u.options}
    assert "Grotz" not in named   # L10350-10352


def test_trukk_and_nob_warbikes_datasheets(catalog):
    view = catalog.view("epic-armageddon", ARMY)
    trukk, nob_bikes, bikeboy = view.unit("Ork Trukk"), view.unit("Nob Warbikes"), view.unit("Mekboy Bad Ork Bikeboy")
    assert [(c.slots, sorted(c.carries)) for c in trukk.transport] == [
        (1, ["orks:Big Gunz", "orks:Boyz", "orks:Grotz", "orks:Nobz"])]                   # L5643
    assert (nob_bikes.speed, nob_bikes.armour, nob_bikes.abilities) == (35, "4+", ["Leader", "Mounted"])  # L10347
    assert (bikeboy.type, bikeboy.speed) == ("INF", 40)                                    # L5593, L5611

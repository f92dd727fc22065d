"""Black Legion rosters worked out by hand from seed 000 (6.11, L10890-11053; Chaos datasheets
5.11, L6938-7888). Each formation tuple is (points, units, break point, half strength, may
garrison, derived transports). Rhinos, Land Raiders and Dreadclaws are bought, not derived
transports. Characters (Lords, Icon Bearers, Champions) are not units. Judgement calls are the
entries D66-D78 of DECISIONS.md."""

import pytest

from listbuilder.games import validate
from listbuilder.listengine.roster import Roster

from .expectations import message, roster_tests

ARMY = "black-legion"
NO, YES = False, True

LEGAL = {
    "legal-retinues.yaml": dict(
        limit=3000, total=2205, bts=[2], caps=[300],   # + 5 lesser daemons (100) and 1 greater (100)
        formations=[
            (560, 18, 18, 9, NO, {}),      # 275 + Berzerkers 150 + 6 Rhinos 60 + Icon 50 + Pact 25; 6 Rhinos fast
            (145, 6, 6, 3, YES, {}),       # 125 + 2 Rhinos 20; 4 Scouts of 6, half rounding up is 3
            (625, 16, 16, 8, YES, {}),     # 275 + Plague Marines 150 + Havocs 150 + Champion 50
            (375, 8, 8, 4, NO, {}),        # 300 + Icon 50 + Pact 25; Bikes move 35cm
            (300, 1, 3, 1, NO, {}),        # Feral Titan DC 3
        ]),
    "legal-chosen-dreadclaws.yaml": dict(
        limit=2500, total=2005, bts=[0], caps=[250],   # + 2 greater daemons (200)
        formations=[
            (655, 8, 8, 4, NO, {}),       # 6 x 65 + Prince 50 + 2 Obliterators 150 + Pact 25 + 8 units x 5
            (595, 14, 14, 7, NO, {}),     # 275 + 2 Dreadnoughts 100 + Thousand Sons 150 + 14 units x 5
            (305, 8, 8, 4, NO, {}),        # 8 x 35 + Pact 25
            (250, 1, None, None, NO, {}),  # spacecraft
        ]),
    "legal-armour.yaml": dict(
        limit=3000, total=2515, bts=[2], caps=[850],   # Ravager 650 + Swiftdeaths 200; not the Assault Company
        formations=[
            (500, 8, 8, 4, NO, {}),        # 4 x 50 + 2 x 75 + 2 Defilers 150
            (500, 2, 7, 3, NO, {}),        # 225 + 275; DC 3 + DC 4
            (665, 18, 18, 9, NO, {}),      # 275 + Noise Marines 150 + 2 Land Raiders 150 + 4 Rhinos 40 + Champion 50
            (650, 1, 6, 3, NO, {}),
            (200, 3, 3, 1, NO, {}),        # aircraft: never the Break Their Spirit target
        ]),
    "legal-daemon-princes.yaml": dict(
        limit=2000, total=1775, bts=[0], caps=[150],   # + 10 lesser daemons (200)
        formations=[
            (650, 16, 16, 8, YES, {}),     # 275 + Prince 50 + Plague Marines 150 + Havocs 150 + Pact 25
            (605, 11, 11, 5, NO, {}),     # 275 + Prince 50 + 3 Obliterators 225 + 11 units x 5
            (170, 4, 4, 2, NO, {}),       # 125 + 4 units x 5 + Pact 25
            (150, 1, None, None, NO, {}),
        ]),
    "legal-daemon-prince-rhinos.yaml": dict(
        limit=2000, total=365, bts=[0], caps=[0],
        formations=[(365, 12, 12, 6, NO, {})]),        # 275 + Prince 50 + 4 Rhinos 40: a spare space no fewer avoid
}

ILLEGAL = {
    "illegal-factions.yaml": dict(
        total=1125, codes=["faction-mismatch", "faction-mismatch", "faction-required"],
        formations=[(425, 12, 12, 6, YES, {}),              # 275 + the refused Cult Marines 150, charged
                    (275, 8, 8, 4, YES, {}), (425, 12, 12, 6, YES, {})]),
    "illegal-daemon-princes.yaml": dict(
        total=960, codes=["limit-exceeded"],
        formations=[(325, 8, 8, 4, YES, {}), (325, 8, 8, 4, YES, {}),
                    (310, 4, 4, 2, YES, {})]),                # 4 x 65 + 50: 3 Chosen and the Prince
    "illegal-no-warlord.yaml": dict(
        total=575, codes=["limit-short"],
        formations=[(275, 8, 8, 4, YES, {}), (300, 8, 8, 4, NO, {})]),
    "illegal-upgrades.yaml": dict(
        total=1255, codes=["character-host-invalid", "limit-exceeded", "too-many-upgrades", "upgrade-not-allowed"],
        formations=[(725, 18, 18, 9, YES, {}),             # 275 + 150 + 150 + 75 + 50 + 25, all charged
                    (280, 6, 6, 3, NO, {}),                 # 4 x 65 + the refused Rhinos 20, charged
                    (125, 4, 4, 2, YES, {}), (125, 4, 4, 2, YES, {})]),
    "illegal-dreadclaws.yaml": dict(
        total=815, codes=["transport-not-allowed", "transport-prerequisite-missing",
                          "transport-prerequisite-missing"],
        formations=[(370, 9, 9, 4, NO, {}),               # 275 + 50 + 9 units x 5
                    (145, 4, 4, 2, NO, {}),               # 125 + 4 x 5
                    (300, 8, 8, 4, NO, {})]),
    "illegal-caps-and-counts.yaml": dict(
        total=1805, codes=["cap-exceeded", "composition-count", "composition-count", "limit-exceeded",
                           "limit-exceeded"],
        formations=[(315, 9, 9, 4, NO, {}),                # the 9 Raptors written, 9 x 35
                    (150, 3, 3, 1, NO, {}), (800, 1, 8, 4, NO, {}), (250, 1, None, None, NO, {}),
                    (150, 1, None, None, NO, {}), (140, 4, 4, 2, NO, {})]),
    "illegal-dreadclaws-with-vehicles.yaml": dict(
        total=625, codes=["transport-not-allowed"],
        formations=[(375, 12, 12, 6, NO, {}),          # 275 + 4 Rhinos 40 + the refused Dreadclaws 12 x 5 (D6)
                    (250, 1, None, None, NO, {})]),
}

test_legal_roster, test_illegal_roster = roster_tests(ARMY, LEGAL, ILLEGAL)


def roster(points, *formations, purchases=None):
    return Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": points,
                                  "purchases": purchases or {}, "formations": list(formations)})


WARLORD = {"Chaos Space Marine Lord": {"character": "Chaos Warlord", "joins": "Chaos Space Marine"}}


def test_ratings(check):
    result = check(f"{ARMY}/legal-retinues.yaml")
    assert result.derived["strategy_rating"] == 4
    assert {f.derived["initiative"] for f in result.formations} == {"2+"}


def test_every_formation_declares_a_faction(check):
    finding = message(check(f"{ARMY}/illegal-factions.yaml"), "faction-required")
    assert finding.message == ("Black Legion Retinue: declare its faction "
                               "(Khorne, Nurgle, Slaanesh, Tzeentch, Undivided)")
    assert finding.rule == "6.11 Black Legion Formations: Black Legion Retinue"
    assert finding.path == ("formations", 1)


def test_cult_marines_match_the_retinue(check):
    result = check(f"{ARMY}/illegal-factions.yaml")
    mismatches = [f for f in result.findings if f.code == "faction-mismatch"]
    assert [f.message for f in mismatches] == ["Plague Marines are Nurgle, but Black Legion Retinue is Khorne",
                                               "Berzerkers are Khorne, but Black Legion Retinue is Undivided"]
    assert {f.rule for f in mismatches} == {"6.11 Black Legion Upgrades: Cult Marines"}
    assert [f.path[:2] for f in mismatches] == [("formations", 0), ("formations", 2)]
    good = check(f"{ARMY}/legal-retinues.yaml").formations[0]
    assert good.faction == "Khorne" and good.count_of("Berzerkers of Khorne") == 4


def test_one_daemon_prince_per_faction(check):
    finding = message(check(f"{ARMY}/illegal-daemon-princes.yaml"), "limit-exceeded")
    assert finding.message == ("Daemon Princes: 3 in the army, at most 1 allowed (in formations #1, #2, #3; "
                               "1 per faction in the army, and it has 1 (Khorne))")
    assert finding.rule == "6.11 Black Legion Upgrades: Daemon Prince"
    two = check(f"{ARMY}/legal-daemon-princes.yaml")   # Nurgle and Undivided: two Princes allowed
    assert sum(f.count_of("Daemon Prince") for f in two.formations) == 2


def test_the_army_needs_exactly_one_chaos_warlord(catalog, check):
    short = message(check(f"{ARMY}/illegal-no-warlord.yaml"), "limit-short")
    assert short.message == "Chaos Warlord: 0 in the army, at least 1 needed"
    assert short.rule == "6.11 Black Legion: Chaos Warlord"
    retinue = {"type": "Black Legion Retinue", "faction": "Khorne", "upgrades": WARLORD}
    [finding] = validate(roster(2000, retinue, retinue), catalog).findings
    assert finding.message == "Chaos Warlord: 2 in the army, at most 1 allowed (in formations #1, #2)"


def test_a_daemon_prince_replacing_the_warlord_is_the_supreme_commander(check):
    chosen = check(f"{ARMY}/legal-chosen-dreadclaws.yaml").formations[0]
    assert {g.sheet.name: g.count for g in chosen.units} == {"Chosen": 5, "Daemon Prince": 1, "Obliterators": 2}
    [(lord, host)] = [(c.sheet, c.joins.name) for c in chosen.characters]
    assert (lord.name, host) == ("Chaos Warlord", "Daemon Prince")
    assert "Supreme Commander" in lord.abilities


def test_the_lord_joins_only_a_core_unit(check):
    finding = message(check(f"{ARMY}/illegal-upgrades.yaml"), "character-host-invalid")
    assert finding.message == ("Chaos Lord may join only Raptors or Chosen or Chaos Space Marine or "
                               "Chaos Space Marine Bikes or Daemon Prince, not Havocs")
    assert finding.rule == "6.11 Black Legion: Chaos Warlord and Chaos Lord"


def test_four_upgrades_at_most_each_once_and_the_lord_is_not_one(catalog, check):
    finding = message(check(f"{ARMY}/illegal-upgrades.yaml"), "too-many-upgrades")
    assert finding.message == ("Black Legion Retinue takes 5 upgrades (Havocs, Cult Marines, Obliterators, "
                               "Dreadnought, Daemonic Pact); at most 4 are allowed")
    assert finding.rule == "6.11 Black Legion Formations: Black Legion Retinue"
    four = check(f"{ARMY}/legal-retinues.yaml").formations[0]
    assert four.upgrades == {"Cult Marines": 150, "Rhinos": 60, "Daemonic Pact": 25, "Chaos Space Marine Lord": 0,
                             "Icon Bearer": 50}
    twice = {"type": "Black Legion Retinue", "faction": "Khorne",
             "upgrades": {**WARLORD, "Havocs": True, "havocs": True}}
    [repeated] = validate(roster(2000, twice), catalog).findings
    assert repeated.code == "upgrade-repeated"


@pytest.mark.parametrize("raptors", [4, 5, 6, 7, 8])
def test_raptors_cost_35_each(catalog, raptors):
    cult = {"type": "Raptor Cult", "faction": "Khorne", "composition": {"Raptors": raptors},
            "upgrades": {"Chaos Space Marine Lord": {"character": "Chaos Warlord", "joins": "Raptors"}}}
    result = validate(roster(2000, cult), catalog)
    assert result.valid and result.total == 35 * raptors


@pytest.mark.parametrize("chosen, valid", [(3, False), (4, True), (5, True), (6, True), (7, False)])
def test_chosen_cost_65_each_four_to_six(catalog, chosen, valid):
    formation = {"type": "Black Legion Chosen", "faction": "Tzeentch", "composition": {"Chosen": chosen},
                 "upgrades": {"Chaos Space Marine Lord": {"character": "Chaos Warlord", "joins": "Chosen"}}}
    result = validate(roster(2000, formation), catalog)
    assert result.valid == valid and result.total == 65 * chosen


def test_armoured_and_assault_companies_priced_per_vehicle(check):
    armour = check(f"{ARMY}/legal-armour.yaml")
    assert [f.points for f in armour.formations[:2]] == [500, 500]   # 4x50 + 2x75 + 2 Defilers; 225 + 275
    counts = message(check(f"{ARMY}/illegal-caps-and-counts.yaml"), "composition-count")
    assert counts.message == "Raptor Cult needs 4 to 8 units from Raptors; the roster has 9"


def test_dreadclaws_cost_5_per_unit_need_a_ship_and_no_other_vehicles(check):
    drop = check(f"{ARMY}/legal-chosen-dreadclaws.yaml")
    assert [f.upgrades.get("Dreadclaws") for f in drop.formations[:2]] == [40, 70]   # 8 and 14 units
    missing = check(f"{ARMY}/illegal-dreadclaws.yaml")
    ship = [f for f in missing.findings if f.code == "transport-prerequisite-missing"]
    assert ship[0].message == ("Black Legion Retinue uses Dreadclaws, which needs a Devastation Class Cruiser or "
                               "Despoiler Class Battleship in the army; there is none")
    assert ship[0].rule == "6.11 Black Legion Upgrades: Dreadclaws"
    vehicles = message(check(f"{ARMY}/illegal-dreadclaws-with-vehicles.yaml"), "transport-not-allowed")
    assert vehicles.message.endswith("Black Legion Retinue also has Chaos Rhino")


def test_rhinos_exactly_enough(catalog):
    def retinue(rhinos):
        return {"type": "Black Legion Retinue", "faction": "Khorne", "upgrades": {**WARLORD, "Rhinos": rhinos}}
    assert validate(roster(2000, retinue(4)), catalog).valid            # 8 Marines, 4 Rhinos
    for rhinos, problem in ((3, "2 units that could ride would be left behind"), (5, "2 spaces would be left spare")):
        [finding] = validate(roster(2000, retinue(rhinos)), catalog).findings
        assert finding.code == "transport-inexact" and problem in finding.message
        assert finding.rule == "6.11 Black Legion Upgrades: Rhinos"


def test_forlorn_hope_one_per_retinue_and_scouts(check):
    finding = message(check(f"{ARMY}/illegal-upgrades.yaml"), "limit-exceeded")
    assert finding.message == ("Black Legion Forlorn Hope: 2 in the army, at most 1 allowed (in formations #3, #4; "
                               "1 per Black Legion Retinue, and the army has 1)")
    hope = check(f"{ARMY}/legal-retinues.yaml").formations[1]
    assert {g.sheet.name: g.abilities for g in hope.units}["Chaos Space Marine"] == ["Scout"]
    assert hope.derived["garrison"]["eligible"]   # 4 scouts of 6 units with their Rhinos


def test_daemon_pool_bought_once_for_the_army_and_summoning_needs_a_pact(check):
    result = check(f"{ARMY}/legal-retinues.yaml")
    assert result.purchases == {"Lesser Daemon": (5, 100), "Greater Daemon": (1, 100)}
    can_summon = [f.index for f in result.formations if any("Daemonic Pact" in g.gained for g in f.units)]
    assert can_summon == [0, 3]


def test_navy_and_titans_a_third_of_the_points(check):
    finding = message(check(f"{ARMY}/illegal-caps-and-counts.yaml"), "cap-exceeded")
    assert finding.message == "Chaos Navy and Titan Legion cost 1,200 points; at most 1,000 (1/3 of 3,000) are allowed"
    assert finding.rule == "6.11 Black Legion: War Engines, Aircraft and Spacecraft"


def test_icon_bearer_and_champion_profiles(catalog):
    units = catalog.view("epic-armageddon", ARMY).units
    icon, champion = units["icon-bearer"], units["champion-of-chaos"]
    assert icon.abilities == ["Leader", "Invulnerable Save", "Daemonic Focus"]
    assert champion.abilities == ["Invulnerable Save", "Augment Summoning (+2D3)"]
    assert [(loadout.name, loadout.weapons) for loadout in champion.loadouts] == [
        ("Khorne, Nurgle or Undivided", ["Daemon Artifact"]), ("Slaanesh or Tzeentch", ["Daemonic Bolt"])]
    assert [w.name for w in units["sorcerer-lord"].weapons] == ["Warp Bolt"]
    assert [w.name for w in units["chaos-warlord"].weapons] == ["Daemon Weapon"]


@pytest.mark.parametrize("wings, may_garrison", [("No wings", True), ("Wings", False)])
def test_a_winged_daemon_prince_moves_30cm(catalog, wings, may_garrison):
    # 7 Chaos Space Marines (15cm), the Prince, a Chaos Land Raider (25cm): with wings two units
    # move more than 15cm, so the Retinue may no longer garrison (6.1.5; wings L7130-7131).
    result = validate(roster(2000, {
        "type": "Black Legion Retinue", "faction": "Khorne",
        "upgrades": {"Daemon Prince": True, "Chaos Land Raiders": 1,
                     "Chaos Space Marine Lord": {"character": "Chaos Warlord", "joins": "Daemon Prince"}},
        "wargear": {"Daemon Prince": wings}}), catalog)
    retinue = result.formations[0]
    assert (retinue.points, retinue.derived["units"]) == (400, 9)   # 275 + Prince 50 + Land Raider 75
    assert retinue.derived["garrison"]["eligible"] is may_garrison


def test_dreadclaws_use_one_of_the_four_upgrades(catalog):
    result = validate(roster(3000, {
        "type": "Black Legion Retinue", "faction": "Khorne", "transport": "Dreadclaws",
        "upgrades": {"Chaos Space Marine Lord": {"character": "Chaos Warlord", "joins": "Chaos Space Marine"},
                     "Havocs": True, "Obliterators": 1, "Daemonic Pact": True, "Cult Marines": "Berzerkers"}},
        {"type": "Devastation Class Cruiser", "faction": "Khorne"}), catalog)
    [finding] = result.findings
    assert finding.code == "too-many-upgrades"
    assert finding.message == ("Black Legion Retinue takes 5 upgrades (Havocs, Obliterators, Daemonic Pact, "
                               "Cult Marines, Dreadclaws); at most 4 are allowed")


def test_a_retinue_must_have_its_lord(catalog):
    # L10915-10916: "1 Chaos Space Marine Lord character upgrade and 8 Chaos Space Marines units".
    result = validate(roster(2000, {"type": "Black Legion Retinue", "faction": "Khorne"},
                             {"type": "Black Legion Retinue", "faction": "Nurgle", "upgrades": WARLORD}), catalog)
    [finding] = result.findings
    assert (finding.code, finding.path) == ("upgrade-required",
                                            ("formations", 0, "upgrades", "Chaos Space Marine Lord"))
    assert finding.message == "Black Legion Retinue must take Chaos Space Marine Lord"
    assert finding.rule == "6.11 Black Legion Formations: Black Legion Retinue"


def test_formations_landing_by_dreadclaw_must_fit_aboard_together(catalog):
    # A Devastation carries 20 infantry for planetfall (L7641); two Retinues with 4 Havocs each
    # are 2 x (8 Marines + 4 Havocs) = 24 units, a Despoiler (40, L7622) takes them all.
    retinue = {"type": "Black Legion Retinue", "faction": "Khorne", "transport": "Dreadclaws",
               "upgrades": {"Havocs": True}}
    lord = {"Chaos Space Marine Lord": {"character": "Chaos Warlord", "joins": "Chaos Space Marine"}}
    lord_only = {"Chaos Space Marine Lord": {"character": "Chaos Lord", "joins": "Chaos Space Marine"}}
    first = {**retinue, "upgrades": {**retinue["upgrades"], **lord}}
    second = {**retinue, "upgrades": {**retinue["upgrades"], **lord_only}}
    crowded = validate(roster(3000, first, second, {"type": "Devastation Class Cruiser", "faction": "Khorne"}),
                       catalog)
    [finding] = crowded.findings
    assert finding.code == "transport-capacity"
    assert finding.message == ("#2 Black Legion Retinue finds no room aboard the army's Devastation Class Cruiser: "
                               "every formation riding in it is aboard at the start, each whole in one")
    roomy = validate(roster(3000, first, second, {"type": "Despoiler Class Battleship", "faction": "Khorne"}),
                     catalog)
    assert roomy.valid, [f.message for f in roomy.findings]


def test_the_lord_rides_the_daemon_prince_his_unit_became(catalog):
    # L11021-11022: the unit that includes the Lord is replaced by the Daemon Prince.
    result = validate(roster(2000, {
        "type": "Black Legion Retinue", "faction": "Nurgle", "wargear": {"Daemon Prince": "Wings"},
        "upgrades": {"Daemon Prince": True, **WARLORD}}), catalog)
    [finding] = result.findings
    assert (finding.code, finding.path) == ("character-placement", ("formations", 0, "upgrades", "Daemon Prince"))
    assert finding.message == ("Chaos Warlord joins a Chaos Space Marine, but the Daemon Prince upgrade turned its "
                               "unit into a Daemon Prince, which it must join")

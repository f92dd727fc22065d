"""Lost and the Damned (Stigmatus Covenant) rosters worked out by hand from seed 000 (6.12,
L11055-11219; datasheets 5.12, L7890-8425; Traitor units on the Steel Legion and Imperial Navy
datasheets, L7906-7907). Each formation tuple is (points, units, break point, half strength, may
garrison, derived transports). Land Transporters and Traitor Chimeras are bought, not derived.
The Demagogue and Aspiring Champion are units; the Arch Heretic and Icon Bearer are characters.
Judgement calls are in DECISIONS.md (D79-D88)."""

import pytest

from listbuilder.games import validate
from listbuilder.listengine.roster import Roster

from .expectations import message, roster_tests

ARMY = "lost-and-the-damned"
NO, YES = False, True
COVEN = (200, 12, 12, 6, YES, {})   # a Demagogue and 11 Cultists or Mutants, all 15cm
ZOMBIES = (175, 3, 3, 1, NO, {})    # 3D6 not yet rolled: the least, 3; placed by Infestation, never a garrison

LEGAL = {
    "legal-covens.yaml": dict(
        limit=3000, total=2385, bts=[1], caps=[],      # + 1 greater daemon (100) and 5 lesser (100)
        formations=[
            (470, 21, 21, 10, YES, {}),    # 200 + Icon 40 + 8 x 15 + 3 Big Mutants 60 + Spawn 25 + Pact 25
            (650, 2, 12, 6, NO, {}),       # 2 Plague Towers x 325, DC 6 each
            (590, 19, 21, 10, NO, {}),     # 200 + 3 Hounds 30 + 3 tanks 210 + Altar 150; Altar DC 3
            (300, 4, 4, 2, NO, {}),        # Assault Engines move 25cm
            ZOMBIES,
        ]),
    "legal-transports.yaml": dict(
        limit=2000, total=1160, bts=[0], caps=[],
        formations=[
            (350, 21, 21, 10, NO, {}),     # 200 + 2 Fire Support 50 + 5 Land Transporters 50 + 2 Chimeras 50
            (325, 4, 4, 2, NO, {}),        # Basilisks move 20cm
            (335, 20, 20, 10, NO, {}),     # 200 + Prince 50 + 1 Mutant 15 + 7 Land Transporters 70
            (150, 2, 2, 1, NO, {}),        # aircraft: never the Break Their Spirit target
        ]),
    "legal-daemon-engines.yaml": dict(
        limit=2000, total=1855, bts=[4], caps=[],
        formations=[
            (225, 12, 12, 6, YES, {}),     # 200 + Pact 25
            (275, 4, 4, 2, YES, {}),       # Daemon Knights are scouts
            COVEN,
            (200, 4, 4, 2, YES, {}),       # Hellfire Cannons move 15cm
            (455, 18, 18, 9, NO, {}),      # 200 + 3 Griffons 105 + 2 Hydras 100 + 1 Hellhound 50
            (150, 3, 3, 1, NO, {}),        # Doomwings: aircraft war engines counting 1 each (D84)
            (175, 11, 11, 5, NO, {}),      # 11 zombies rolled
            ZOMBIES,
        ]),
    "legal-firelords-and-navy.yaml": dict(
        limit=2500, total=2100, bts=[3], caps=[],      # the 450-point Firelords are aircraft
        formations=[
            (250, 12, 12, 6, YES, {}),     # 200 + Prince 50
            (450, 3, 3, 1, NO, {}),        # 3 x 150
            COVEN,
            (400, 6, 6, 3, NO, {}),        # Leman Russ move 20cm
            COVEN,
            (150, 6, 6, 3, YES, {}),       # Rough Riders are scouts
            COVEN,
            (250, 2, 2, 1, NO, {}),
        ]),
    "legal-lords-of-battles.yaml": dict(
        limit=2000, total=1190, bts=[1], caps=[],
        formations=[
            (390, 13, 15, 7, NO, {}),      # 200 + Altar 150 + Icon 40; 12 units + Altar DC 3
            (800, 2, 12, 6, NO, {}),       # 2 x 400, DC 6 each
        ]),
    "legal-transports-with-hounds.yaml": dict(
        limit=2000, total=280, bts=[0], caps=[],
        formations=[(280, 20, 20, 10, NO, {})]),       # 200 + 2 Hounds 20 + 6 Land Transporters 60; Hounds walk
}

ILLEGAL = {
    "illegal-no-arch-heretic.yaml": dict(
        total=400, codes=["faction-required", "limit-short"], formations=[COVEN, COVEN]),
    "illegal-two-arch-heretics.yaml": dict(
        total=600, codes=["character-host-invalid", "limit-exceeded"], formations=[COVEN] * 3),
    "illegal-support.yaml": dict(
        total=1225, codes=["limit-exceeded", "limit-exceeded"],
        formations=[COVEN, (400, 4, 4, 2, YES, {}), (100, 4, 4, 2, YES, {}), ZOMBIES, ZOMBIES, ZOMBIES]),
    "illegal-upgrades.yaml": dict(
        total=805, codes=["quantity-out-of-range", "quantity-out-of-range", "quantity-out-of-range",
                          "transport-inexact"],
        formations=[(475, 21, 21, 10, YES, {}),       # 200 + 9 Cultists 135 + 7 Big Mutants 140, charged as written
                    (330, 21, 21, 10, NO, {})]),      # 200 + Daemon Prince 50 + 8 Land Transporters 80
    "illegal-factions.yaml": dict(
        total=640, codes=["faction-not-allowed", "upgrade-repeated"],
        formations=[(240, 12, 12, 6, YES, {}), (400, 1, 6, 3, NO, {})]),
    "illegal-daemon-engine-faction.yaml": dict(
        total=600, codes=["limit-exceeded"],           # a Khorne engine and only a Nurgle coven to go with
        formations=[COVEN, (400, 1, 6, 3, NO, {})]),
}

test_legal_roster, test_illegal_roster = roster_tests(ARMY, LEGAL, ILLEGAL)


def roster(points, *formations):
    return Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": points,
                                  "formations": list(formations)})


HERETIC = {"Arch Heretic": {"character": "Arch Heretic", "joins": "Demagogue"}}


def coven(faction="Nurgle", upgrades=None, composition=None):
    return {"type": "Stigmatus Covenant Coven", "faction": faction,
            "composition": composition or {"Demagogue": 1, "Cultists": 11}, "upgrades": upgrades or {}}


def test_ratings(check):
    result = check(f"{ARMY}/legal-firelords-and-navy.yaml")
    assert result.derived["strategy_rating"] == 2
    assert {f.derived["initiative"] for f in result.formations} == {"3+"}


def test_every_coven_declares_a_faction(check):
    finding = message(check(f"{ARMY}/illegal-no-arch-heretic.yaml"), "faction-required")
    assert finding.message == ("Stigmatus Covenant Coven: declare its faction "
                               "(Khorne, Nurgle, Slaanesh, Tzeentch, Undivided)")
    assert finding.path == ("formations", 1)


def test_one_arch_heretic_on_a_demagogue_champion_or_prince(check):
    short = message(check(f"{ARMY}/illegal-no-arch-heretic.yaml"), "limit-short")
    assert short.message == "Arch Heretic: 0 in the army, at least 1 needed"
    assert short.rule == "6.12 Lost and the Damned Demagogue"
    two = check(f"{ARMY}/illegal-two-arch-heretics.yaml")
    assert message(two, "limit-exceeded").message == ("Arch Heretic: 2 in the army, at most 1 allowed "
                                                      "(in formations #1, #2)")
    assert message(two, "character-host-invalid").message == ("Arch Heretic may join only Demagogue or Chaos Marine "
                                                              "Aspiring Champion or Daemon Prince, not Cultists")
    prince = check(f"{ARMY}/legal-firelords-and-navy.yaml").formations[0]
    [heretic] = prince.characters
    assert (heretic.sheet.name, heretic.joins.name) == ("Arch Heretic", "Daemon Prince")
    assert heretic.sheet.abilities == ["Supreme Commander"]
    assert prince.upgrades == {"Daemon Prince": 50, "Arch Heretic": 0}
    assert prince.group("Daemon Prince").wargear == {"Wings": 1}


def test_one_support_coven_per_cultist_coven_and_two_infestations(check):
    result = check(f"{ARMY}/illegal-support.yaml")
    messages = sorted(f.message for f in result.findings)
    assert messages == ["3 Plague Zombie Infestation formations: 0-2 allowed",
                        "Support covens: 2 in the army, at most 1 allowed (in formations #2, #3; "
                        "1 per Stigmatus Covenant Coven, and the army has 1)"]
    assert message(result, "limit-exceeded").rule in ("6.12 Stigmatus Covenant Support Formations",
                                                      "6.12 Stigmatus Covenant Covens: Plague Zombie Infestations")


def test_daemon_engines_keep_their_gods_faction(check):
    finding = message(check(f"{ARMY}/illegal-factions.yaml"), "faction-not-allowed")
    assert finding.message == "Khorne Lord of Battles may not be Nurgle (it may be: Khorne)"
    assert finding.rule == "6.12 Support Formations: Daemon Engines"


def test_each_upgrade_once_per_coven(check):
    finding = message(check(f"{ARMY}/illegal-factions.yaml"), "upgrade-repeated")
    assert finding.message == ("Icon Bearer is taken twice in Stigmatus Covenant Coven (as 'Icon Bearer' and "
                               "'icon-bearer'); each upgrade may be taken once")


def test_coven_upgrades_and_their_limits(check):
    covens = check(f"{ARMY}/legal-covens.yaml").formations
    assert {g.sheet.name: g.count for g in covens[0].units} == {
        "Demagogue": 1, "Cultists": 10, "Mutants": 6, "Big Mutants": 3, "Chaos Spawn": 1}
    assert covens[0].upgrades == {"Cultists or Mutants": 120, "Big Mutants": 60, "Chaos Spawn": 25,
                                  "Daemonic Pact": 25, "Arch Heretic": 0, "Icon Bearer": 40}
    assert {g.sheet.name: g.count for g in covens[2].units} == {
        "Chaos Marine Aspiring Champion": 1, "Mutants": 11, "Chaos Hounds": 3, "Leman Russ": 2,
        "Leman Russ Demolisher": 1, "Chaos Altar": 1}
    result = check(f"{ARMY}/illegal-upgrades.yaml")
    assert sorted(f.message for f in result.findings if f.code == "quantity-out-of-range") == [
        "Big Mutants in Stigmatus Covenant Coven: 7 Big Mutants taken, 1 to 6 allowed (Stigmatus Covenant Coven has 11 "
        "Mutants and 9 Cultists to replace)",                   # the 9 Cultists beyond the 8, as written
        "Cultists or Mutants in Stigmatus Covenant Coven: 9 Cultists taken, 1 to 8 allowed",
        "Daemon Prince in Stigmatus Covenant Coven: 1 Daemon Prince taken, none allowed (Stigmatus Covenant Coven "
        "has 0 "
        "Demagogues to replace)"]


def test_big_mutants_replace_cultists_and_or_mutants(catalog):
    """'Replace 1 to 6 Cultist and/or Mutant units' (L11102; D81): Mutants first, then Cultists."""
    mixed = coven(upgrades={**HERETIC, "Big Mutants": 5}, composition={"Demagogue": 1, "Cultists": 8, "Mutants": 3})
    cultists = coven(faction="Khorne", upgrades={"Big Mutants": 2})
    result = validate(roster(2000, mixed, cultists), catalog)
    assert [f.message for f in result.findings] == []
    assert [{g.sheet.name: g.count for g in f.units} for f in result.formations] == [
        {"Demagogue": 1, "Cultists": 6, "Big Mutants": 5}, {"Demagogue": 1, "Cultists": 9, "Big Mutants": 2}]
    assert [f.points for f in result.formations] == [300, 240]   # 200 + 5 x 20; 200 + 2 x 20


def test_transports_exactly_enough_in_any_mix(catalog, check):
    spare = message(check(f"{ARMY}/illegal-upgrades.yaml"), "transport-inexact")
    assert spare.message == ("Transports in Stigmatus Covenant Coven: with 8 Land Transporters, 2 spaces would be "
                             "left spare; the transports taken must carry every unit they can, with no space to spare")
    assert spare.rule == "6.12 Stigmatus Covenant Upgrades: Transports"
    mixed = check(f"{ARMY}/legal-transports.yaml").formations[0]
    assert mixed.count_of("Land Transporter") == 5 and mixed.count_of("Traitor Chimera") == 2
    chimeras = coven(upgrades={**HERETIC, "Transports": {"Traitor Chimera": 6}})
    result = validate(roster(2000, chimeras), catalog)
    assert result.valid and result.total == 350                         # 200 + 6 x 25


def test_plague_zombies_roll_3d6_and_never_garrison(catalog, check):
    zombies = check(f"{ARMY}/legal-daemon-engines.yaml").formations[6]
    assert zombies.derived["units"] == 11
    assert zombies.derived["garrison"]["reason"] == "it is deployed by Infestation (5.12.6 Plague Zombies: Infestation)"
    too_many = {"type": "Plague Zombie Infestation", "faction": "Nurgle", "composition": {"Plague Zombies": 19}}
    findings = validate(roster(2000, coven(upgrades=HERETIC), too_many), catalog).findings
    assert [f.code for f in findings] == ["composition-count"]


def test_doomwings_and_firelords_are_aircraft(catalog):
    units = catalog.view("epic-armageddon", ARMY).units
    assert (units["tzeentch-doomwing"].type, units["tzeentch-doomwing"].manoeuvre) == ("WE/AC", "F")
    assert (units["tzeentch-firelord"].type, units["tzeentch-firelord"].manoeuvre) == ("WE/AC", "B")


def test_traitor_units_use_the_steel_legion_datasheets(check):
    covens = check(f"{ARMY}/legal-daemon-engines.yaml").formations
    traitors = {g.sheet.name: g.sheet.speed for g in covens[4].units if g.source != "formation"}
    assert traitors == {"Griffon": 30, "Hydra": 30, "Hellhound": 30}


def test_daemon_pool_and_pact(check):
    result = check(f"{ARMY}/legal-covens.yaml")
    assert result.purchases == {"Greater Daemon": (1, 100), "Lesser Daemon": (5, 100)}
    can_summon = [f.index for f in result.formations if any("Daemonic Pact" in g.gained for g in f.units)]
    assert can_summon == [0]


@pytest.mark.parametrize("wings, transporters, valid", [
    ("No wings", 7, True),    # 11 Cultists and the 15cm Prince (2 spaces): 13 spaces, one left over in 7
    ("No wings", 6, False),   # 12 spaces: someone walks
    ("Wings", 6, True),       # the 30cm Prince need not ride: 11 spaces, one left over in 6 (L11133)
    ("Wings", 7, False),      # a whole Land Transporter to spare
])
def test_a_winged_daemon_prince_need_not_ride(catalog, wings, transporters, valid):
    result = validate(roster(2000, {
        "type": "Stigmatus Covenant Coven", "faction": "Nurgle", "composition": {"Demagogue": 1, "Cultists": 11},
        "upgrades": {"Daemon Prince": True, "Arch Heretic": {"character": "Arch Heretic", "joins": "Daemon Prince"},
                     "Transports": {"Land Transporter": transporters}},
        "wargear": {"Daemon Prince": wings}}), catalog)
    assert result.valid is valid, [f.message for f in result.findings]
    if valid:
        assert result.formations[0].points == 200 + 50 + 10 * transporters   # 320 or 310

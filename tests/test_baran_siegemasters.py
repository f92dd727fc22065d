"""Baran Siegemasters rosters worked out by hand from seed 000 (6.5, L10004-10151; siege units
5.5, Imperial Guard units 5.2). Each formation tuple is (points, units, break point, half
strength, may garrison, derived transports)."""

from listbuilder.games import validate
from listbuilder.listengine.roster import Roster

from .expectations import message, roster_tests

ARMY = "baran-siegemasters"
NO, YES = False, True
SHARED_OUT = (250, 0, None, None, NO, {})  # the Sapper Platoon once its units joined the companies

LEGAL = {
    "legal-sappers-shared.yaml": dict(
        limit=2000, total=1850, caps=[150], activations=6,
        bts=[0, 5],                        # the Regimental HQ, and the dearest formation (6.5, D22)
        formations=[                       # plus two sets of Fortified Positions, 200, bought for the army
            (300, 13, 13, 6, YES, {}),     # 225 + Rapiers 75
            (250, 18, 18, 9, YES, {}),     # 175 + Thudd Guns 75; 5 Sappers joined
            (175, 13, 13, 6, YES, {}),     # 3 Sappers joined
            SHARED_OUT,
            (100, 3, 3, 1, YES, {}),       # gun emplacements instead of Bruennhildes; speed 0
            (425, 9, 9, 4, YES, {}),
            (150, 2, 2, 1, NO, {}),
        ]),
    "legal-armour.yaml": dict(
        limit=3000, total=1800, bts=[0], caps=[250],
        formations=[
            (500, 18, 18, 9, NO, {}),      # 225 + Hellhounds 125 + Griffons 100 + 2 Snipers 50; 6 fast units
            (250, 16, 16, 8, YES, {}),
            (300, 6, 6, 3, YES, {}),       # Ragnaroks move 15cm
            (150, 6, 6, 3, YES, {}),       # Siegfrieds are scouts
            (200, 1, 3, 1, NO, {}),
            (150, 6, 6, 3, YES, {}),
            (250, 2, 2, 1, NO, {}),
        ]),
    "legal-guns.yaml": dict(
        limit=2500, total=1350, bts=[0, 1], caps=[0],
        formations=[                       # plus a set of Fortified Positions, 100
            (225, 10, 10, 5, YES, {}),
            (275, 13, 13, 6, NO, {}),      # three Griffons move 30cm; the dearest formation
            (150, 6, 6, 3, YES, {}),
            (100, 6, 6, 3, YES, {"Bruennhilde": 3}),
            (250, 3, 3, 1, NO, {}),
            (250, 3, 3, 1, NO, {}),
        ]),
    "legal-sapper-platoon.yaml": dict(
        limit=2000, total=1075, bts=[0, 1], caps=[400],
        formations=[
            (225, 10, 10, 5, YES, {}),
            (250, 8, 8, 4, YES, {}),       # fielded whole; the Marauders also cost 250 but are aircraft (D10)
            (200, 2, 2, 1, NO, {}),
            (150, 2, 2, 1, NO, {}),
            (250, 2, 2, 1, NO, {}),
        ]),
    "legal-grand-siege.yaml": dict(
        limit=4000, total=3375, bts=[0, 3, 4], caps=[750],
        formations=[                       # plus two sets of Fortified Positions, 200
            (400, 20, 20, 10, YES, {}),    # 225 + 75 + 75 + 25
            (250, 13, 13, 6, YES, {}),
            (175, 10, 10, 5, YES, {}),
            (425, 9, 9, 4, YES, {}),
            (425, 9, 9, 4, YES, {}),
            (300, 6, 6, 3, YES, {}),
            (200, 1, 3, 1, NO, {}),
            (250, 3, 3, 1, NO, {}),
            (250, 2, 2, 1, NO, {}),
            (250, 2, 2, 1, NO, {}),
            (250, 2, 2, 1, NO, {}),
        ]),
}

ILLEGAL = {
    "illegal-no-hq.yaml": dict(
        total=600, codes=["formation-required", "unknown-formation"],
        formations=[(175, 10, 10, 5, YES, {}), (425, 9, 9, 4, YES, {})]),
    "illegal-sappers.yaml": dict(
        total=650, codes=["split-unbalanced", "upgrade-not-allowed"],
        formations=[(225, 14, 14, 7, YES, {}),       # the 4 Sappers it may not take are still in it (free)
                    (175, 16, 16, 8, YES, {}), SHARED_OUT]),
    "illegal-company-upgrades.yaml": dict(
        total=1175, codes=["limit-exceeded", "too-many-upgrades"],  # + the three sets 300, one refused, all charged
        formations=[(225, 10, 10, 5, YES, {}), (500, 25, 25, 12, NO, {}), (150, 6, 6, 3, YES, {})]),
    "illegal-navy.yaml": dict(
        total=875, codes=["cap-exceeded", "upgrade-placement"],
        formations=[(225, 10, 10, 5, YES, {}), (250, 2, 2, 1, NO, {}), (250, 2, 2, 1, NO, {}),
                    (150, 2, 2, 1, NO, {})]),
    "illegal-support.yaml": dict(
        total=725, codes=["composition-alike", "limit-exceeded", "unknown-transport"],
        formations=[(225, 10, 10, 5, YES, {}), (100, 6, 6, 3, YES, {"Bruennhilde": 3}), (150, 6, 6, 3, YES, {}),
                    (250, 3, 3, 1, NO, {})]),
}


test_legal_roster, test_illegal_roster = roster_tests(ARMY, LEGAL, ILLEGAL)


def test_the_regimental_hq_is_required(check):
    finding = message(check(f"{ARMY}/illegal-no-hq.yaml"), "formation-required")
    assert finding.message == "the army must include 1 Regimental HQ formation; it has 0"
    assert finding.rule == "6.5 Regimental HQs and Commissars"


def test_titans_are_not_allies(check):
    finding = message(check(f"{ARMY}/illegal-no-hq.yaml"), "unknown-formation")
    assert finding.message == ("'Warhound Titans' is not a formation of Imperial Guard – Baran Siegemasters "
                               "or its allies")


def test_sappers_shared_out_are_all_placed(check):
    result = check(f"{ARMY}/legal-sappers-shared.yaml")
    platoon = result.formations[3]
    assert not platoon.on_table and platoon.sheets() == []
    assert [(g.sheet.name, g.count) for g in platoon.shared] == [("Sappers", 8)]
    assert [f.count_of("Sappers") for f in result.formations[1:3]] == [5, 3]
    assert platoon.derived["garrison"]["reason"] == "its units (8 Sappers) are shared out among other formations"
    finding = message(check(f"{ARMY}/illegal-sappers.yaml"), "split-unbalanced")
    assert finding.message == ("Sappers: 6 taken by Infantry Company, but 8 are shared out by Sapper Platoon; "
                               "every unit shared out goes to one of Infantry Company")


def test_fortified_positions_are_bought_for_the_army_one_set_per_company(check):
    result = check(f"{ARMY}/legal-grand-siege.yaml")
    assert result.purchases == {"Fortified Positions": (2, 200)}
    assert result.formations[0].upgrades == {"Commissar": 0, "Siege Infantry Platoon": 75, "Thudd Gun Platoon": 75,
                                             "Snipers": 25}
    finding = message(check(f"{ARMY}/illegal-company-upgrades.yaml"), "limit-exceeded")
    assert finding.message == ("Fortified Positions: 3 bought, at most 2 allowed (1 per Regimental HQ or "
                               "Infantry Company, and the army has 2)")
    assert finding.path == ("purchases", "Fortified Positions")


def test_gun_emplacements_are_terrain(check):
    result = check(f"{ARMY}/legal-sappers-shared.yaml")
    assert result.formations[4].terrain == ["3 gun emplacements"]
    assert result.formations[5].terrain == ["9 gun emplacements"]
    assert result.formations[4].derived["garrison"]["reason"] == "it includes a unit with speed 0"


def test_a_commissar_cannot_join_a_platoon_whose_sappers_are_shared_out(catalog):
    roster = Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": 2000, "formations": [
        {"type": "Regimental HQ", "upgrades": {"Commissar": {"character": "Commissar", "joins": "Supreme Commander"}}},
        {"type": "Infantry Company", "upgrades": {"Sappers": 8}},
        {"type": "Sapper Platoon", "split": True,
         "upgrades": {"Commissar": {"character": "Commissar", "joins": "Sappers"}}},
    ]})
    [finding] = validate(roster, catalog).findings
    assert (finding.code, finding.path) == ("character-host-missing", ("formations", 2, "upgrades", "Commissar"))
    assert finding.message == ("Commissar cannot join a Sapper Platoon whose units are shared out: "
                               "it has no unit of its own")

"""Codex Astartes rosters whose points and derived values were worked out by hand from seed 000
(6.3 L9644-9838, datasheets 5.1, allies 5.3/5.4). Each formation tuple is
(points, units, break point, half strength, may garrison, derived transports)."""

from .expectations import message, roster_tests

ARMY = "codex-astartes"
NO = False
YES = True

LEGAL = {
    "legal-tactical-rhinos-and-foot.yaml": dict(
        total=1150, limit=2000, bts=[2], caps=[0],
        formations=[
            (300, 9, 18, 4, NO, {"Rhino": 3}),     # 6 Tactical need 3 Rhinos (2 each)
            (400, 8, 16, 4, YES, {}),              # on foot + 2 Dreadnoughts at 50 each (D1)
            (450, 12, 24, 6, NO, {}),              # 6 Razorbacks carry all 6: no Rhinos left
        ]),
    "legal-scouts.yaml": dict(
        total=990, limit=2000, bts=[2], caps=[0],
        formations=[
            (250, 7, 14, 3, YES, {"Rhino": 1}),    # 4 Scouts of 7 units: half rounding up is 4
            (150, 4, 8, 2, YES, {}),
            (590, 8, 16, 4, NO, {}),               # 4 Land Raiders carry the 4 Devastators
        ]),
    "legal-speeders-and-bikes.yaml": dict(
        total=500, limit=2500, bts=[0], caps=[0],
        formations=[
            (300, 5, 10, 2, YES, {}),              # 200 + Typhoons 2x25 + Captain 50
            (200, 5, 10, 2, NO, {}),               # Attack Bikes are free swaps
        ]),
    "legal-allies.yaml": dict(
        total=1660, limit=3000, bts=[2], caps=[900],
        formations=[
            (400, 9, 18, 4, NO, {"Rhino": 3}),     # Supreme Commander: 50 + 50
            (360, 7, 14, 3, NO, {"Rhino": 1}),     # LR carries 2, Razorback 1, one Rhino for the last
            (500, 2, 6, 3, NO, {}),                # Warhound pair: DC 3 each, no TSKNF
            (150, 2, 2, 1, NO, {}),
            (250, 2, 2, 1, NO, {}),
        ]),
    "legal-drop-pods.yaml": dict(
        total=1150, limit=2000, bts=[1], caps=[0],
        formations=[
            (350, 1, None, None, NO, {}),          # spacecraft: off table, not a BTS target
            (350, 7, 14, 3, NO, {}),
            (250, 4, 8, 2, NO, {}),
            (200, 1, 4, 1, NO, {}),                # Thunderhawk DC 2 under TSKNF (D5)
        ]),
    "legal-5000-war-engines.yaml": dict(
        total=4320, limit=5000, bts=[3], caps=[1500],
        formations=[
            (570, 6, 12, 3, NO, {}),
            (350, 5, 10, 2, NO, {}),
            (375, 1, 8, 2, NO, {}),                # Landing Craft DC 4 x 2
            (850, 1, 8, 4, NO, {}),
            (650, 1, 6, 3, NO, {}),
            (375, 5, 10, 2, NO, {}),
            (325, 6, 12, 3, NO, {}),
            (325, 4, 8, 2, NO, {}),
            (500, 6, 12, 3, NO, {}),
        ]),
}

ILLEGAL = {
    "illegal-over-points.yaml": dict(
        total=2025, codes=["points-over-limit"],
        formations=[(675, 14, 28, 7, NO, {"Rhino": 3})] * 3),
    "illegal-unknown-names.yaml": dict(
        total=600, codes=["unknown-character", "unknown-formation", "unknown-upgrade", "upgrade-not-allowed"],
        formations=[(225, 7, 14, 3, YES, {"Rhino": 2}),     # Scouts 150 + the refused Hunter 75, charged
                    (200, 5, 10, 2, NO, {}), (175, 4, 8, 2, NO, {})]),   # no price for what the list lacks
    "illegal-two-supreme-commanders.yaml": dict(
        total=675, codes=["limit-exceeded"],
        formations=[(400, 9, 18, 4, NO, {"Rhino": 3}), (275, 4, 8, 2, NO, {})]),
    "illegal-character-host.yaml": dict(
        total=225, codes=["character-host-missing"], formations=[(225, 4, 8, 2, NO, {})]),   # 175 + Captain 50
    "illegal-allies-cap.yaml": dict(
        total=1425, codes=["cap-exceeded"],
        formations=[(300, 9, 18, 4, NO, {"Rhino": 3}), (850, 1, 8, 4, NO, {}), (275, 1, 3, 1, NO, {})]),
    "illegal-two-spacecraft.yaml": dict(
        total=850, codes=["limit-exceeded"],
        formations=[(200, 1, None, None, NO, {}), (350, 1, None, None, NO, {}), (300, 6, 12, 3, NO, {})]),
    "illegal-drop-pods.yaml": dict(
        total=700,
        codes=["transport-not-allowed", "transport-prerequisite-missing", "unknown-transport"],   # Scouts: one
        formations=[(300, 6, 12, 3, NO, {}), (150, 4, 8, 2, NO, {}), (250, 6, 12, 3, NO, {"Rhino": 2})]),
    "illegal-razorbacks-and-quantities.yaml": dict(
        total=2420,    # every refused upgrade charged as written (D6)
        codes=["composition-required", "quantity-out-of-range", "quantity-out-of-range", "quantity-out-of-range",
               "transport-excess", "transport-excess", "upgrade-repeated"],
        formations=[(475, 13, 26, 6, NO, {}),               # 300 + 7 Razorbacks 175: they carry all, no Rhinos
                    (445, 7, 14, 3, NO, {}),                # 250 + 2 Land Raiders 170 + 1 Razorback 25
                    (525, 13, 26, 6, NO, {"Rhino": 3}),     # 300 + 3 Dreadnoughts 150 + Hunter 75 (once)
                    (200, 6, 12, 3, NO, {}),                # 6 Attack Bikes (free) for the 5 Bikes
                    (500, 2, 6, 3, NO, {}), (275, 0, 0, 0, YES, {})]),
}


test_legal_roster, test_illegal_roster = roster_tests(ARMY, LEGAL, ILLEGAL)


def test_over_points_message_has_the_numbers(check):
    finding = message(check(f"{ARMY}/illegal-over-points.yaml"), "points-over-limit")
    assert finding.message == "the army costs 2,025 points, 25 over the agreed 2,000"
    assert finding.rule == "6.1.1 Points"


def test_allies_cap_message(check):
    finding = message(check(f"{ARMY}/illegal-allies-cap.yaml"), "cap-exceeded")
    assert finding.message == ("Imperial Navy and Titan Legions cost 1,125 points; at most 1,000 (1/3 of 3,000) "
                               "are allowed")
    assert finding.rule == "6.3 Codex Astartes notes"


def test_typos_get_suggestions_and_positions(check):
    result = check(f"{ARMY}/illegal-unknown-names.yaml")
    formation = message(result, "unknown-formation")
    assert formation.suggestion == "did you mean 'Tactical'?"
    assert (formation.location.line, formation.location.column) == (8, 5)
    upgrade = message(result, "unknown-upgrade")
    assert upgrade.suggestion == "did you mean 'Attack Bike'?"
    assert upgrade.location.line == 14
    assert "Scout may not take the Hunter upgrade" in message(result, "upgrade-not-allowed").message
    assert "'Sergeant' is not one of Captain, Librarian, Chaplain, Supreme Commander" in \
        message(result, "unknown-character").message


def test_second_supreme_commander_points_at_the_second(check):
    finding = message(check(f"{ARMY}/illegal-two-supreme-commanders.yaml"), "limit-exceeded")
    assert finding.message == "Supreme Commander: 2 in the army, at most 1 allowed (in formations #1, #2)"
    assert finding.path == ("formations", 1)


def test_character_host_message_lists_the_units(check):
    finding = message(check(f"{ARMY}/illegal-character-host.yaml"), "character-host-missing")
    assert finding.message == "Captain cannot join 'Rhino': Assault has no such unit (it has Assault)"


def test_razorbacks_beyond_need(check):
    result = check(f"{ARMY}/illegal-razorbacks-and-quantities.yaml")
    excess = [f.message for f in result.findings if f.code == "transport-excess"]
    assert excess == [
        "Razorbacks in Tactical: 7 Razorbacks taken, 1 to 6 allowed (the number needed to carry the formation is 6)",
        "Razorbacks in Devastator: 1 Razorback taken, none allowed (the number needed to carry the formation is 0)",
    ]


def test_drop_pod_needs_a_ship(check):
    result = check(f"{ARMY}/illegal-drop-pods.yaml")
    missing = [f for f in result.findings if f.code == "transport-prerequisite-missing"]
    assert [f.path for f in missing] == [("formations", 0, "transport")]   # the Scouts may not drop: said once
    assert "needs a Strike Cruiser or Battle Barge" in missing[0].message


def test_characters_and_granted_abilities_are_not_units(check):
    result = check(f"{ARMY}/legal-scouts.yaml")
    scouts = result.formations[0]
    assert scouts.group("Scout").gained == ["Sniper"]
    allies = check(f"{ARMY}/legal-allies.yaml").formations[0]
    assert [(c.sheet.name, c.joins.name) for c in allies.characters] == [("Supreme Commander", "Tactical")]
    assert allies.derived["units"] == 9


def test_wargear_choice_is_recorded(check):
    tactical = check(f"{ARMY}/legal-drop-pods.yaml").formations[1]
    assert tactical.group("Dreadnought").wargear == {"Power Fist and Assault Cannon": 1}


def test_demo_roster_is_legal(catalog):
    from listbuilder.cli import DEMO_ROSTER
    from listbuilder.games import validate
    from listbuilder.rosters.files import read_roster

    result = validate(read_roster(DEMO_ROSTER, catalog).roster, catalog)
    assert [f.message for f in result.findings] == []

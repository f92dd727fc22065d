"""White Scars rosters worked out by hand from seed 000 (6.14, L11418-11550; Space Marine
datasheets 5.1 and the White Scars Bike 5.14). Each formation tuple is (points, units, break
point, half strength, may garrison, derived transports)."""

from .expectations import message, roster_tests

ARMY = "white-scars"
NO, YES = False, True

LEGAL = {
    "legal-rhinos-and-bikes.yaml": dict(
        limit=3000, total=1275, bts=[0], caps=[275],
        formations=[
            (400, 9, 18, 4, NO, {"Rhino": 3}),
            (225, 7, 14, 3, YES, {"Rhino": 2}),   # 150 + Sniper 50 + 1 Razorback 25; 4 Scouts of 7
            (375, 8, 16, 4, NO, {}),              # 8 bikes, 3 swapped for Attack Bikes at no cost
            (275, 1, 3, 1, NO, {}),
        ]),
    "legal-drop-pods.yaml": dict(
        limit=2000, total=1675, bts=[4], caps=[0],
        formations=[
            (200, 1, None, None, NO, {}),
            (300, 6, 12, 3, NO, {}),
            (350, 6, 12, 3, NO, {}),
            (150, 6, 12, 3, YES, {"Rhino": 2}),   # Scouts cannot drop (D3), so they keep their Rhinos
            (675, 8, 16, 4, NO, {"Land Raider": 4}),   # 325 + the Land Raider upgrade 350 (D13)
        ]),
    "legal-air-transport.yaml": dict(
        limit=2500, total=1575, bts=[1], caps=[0],   # the Landing Craft ties at 375 but is an aircraft (D10)
        formations=[
            (200, 1, 4, 1, NO, {}),
            (375, 4, 8, 2, NO, {}),               # air-transported: no garrison (D15)
            (300, 6, 12, 3, NO, {}),
            (375, 1, 8, 2, NO, {}),
            (325, 5, 10, 2, YES, {}),
        ]),
    "legal-armour.yaml": dict(
        limit=3000, total=1650, bts=[0, 1], caps=[400],
        formations=[
            (500, 7, 14, 3, NO, {}),
            (500, 6, 12, 3, NO, {}),
            (250, 5, 10, 2, NO, {}),
            (250, 2, 2, 1, NO, {}),
            (150, 2, 2, 1, NO, {}),
        ]),
    "legal-battle-barge.yaml": dict(
        limit=2000, total=1150, bts=[2], caps=[500],
        formations=[
            (350, 1, None, None, NO, {}),
            (300, 6, 12, 3, NO, {}),
            (500, 2, 6, 3, NO, {}),
        ]),
}

ILLEGAL = {
    "illegal-air-transport-overloaded.yaml": dict(
        total=825, codes=["transport-capacity"],
        formations=[(200, 1, 4, 1, NO, {}), (300, 6, 12, 3, NO, {}), (325, 4, 8, 2, NO, {})]),
    "illegal-air-transport-split.yaml": dict(
        total=1150, codes=["transport-capacity"],
        formations=[(200, 1, 4, 1, NO, {}), (200, 1, 4, 1, NO, {}), (300, 6, 12, 3, NO, {}),
                    (300, 6, 12, 3, NO, {}), (150, 4, 8, 2, NO, {})]),
    "illegal-drop-pods-not-all.yaml": dict(
        total=800, codes=["transport-all-or-none"],
        formations=[(200, 1, None, None, NO, {}), (300, 6, 12, 3, NO, {}), (300, 9, 18, 4, NO, {"Rhino": 3})]),
    "illegal-on-foot.yaml": dict(
        total=975, codes=["unknown-transport"],   # "Land Raiders: 1" is the seed's upgrade: the transport (D13)
        formations=[(300, 9, 18, 4, NO, {"Rhino": 3}), (675, 8, 16, 4, NO, {"Land Raider": 4})]),
    "illegal-air-without-aircraft.yaml": dict(
        total=625, codes=["transport-prerequisite-missing", "transport-prerequisite-missing"],
        formations=[(325, 4, 8, 2, NO, {}), (300, 6, 12, 3, NO, {})]),
    "illegal-titans.yaml": dict(
        total=300, codes=["unknown-formation", "unknown-formation"],
        formations=[(300, 9, 18, 4, NO, {"Rhino": 3})]),
    "illegal-caps-and-commanders.yaml": dict(
        total=1550, codes=["cap-exceeded", "limit-exceeded"],
        formations=[(400, 9, 18, 4, NO, {"Rhino": 3}), (250, 6, 12, 3, YES, {"Rhino": 2}), (500, 2, 6, 3, NO, {}),
                    (250, 2, 2, 1, NO, {}), (150, 2, 2, 1, NO, {})]),
    "illegal-bikes-and-scout-pods.yaml": dict(
        total=525, codes=["quantity-out-of-range", "transport-not-allowed"],   # Scouts may not drop: no ship asked
        formations=[(375, 9, 18, 4, NO, {}),       # 9 Attack Bikes (free) for its 8 Bikes, as written
                    (150, 4, 8, 2, NO, {})]),
}


test_legal_roster, test_illegal_roster = roster_tests(ARMY, LEGAL, ILLEGAL)


def test_drop_pods_are_all_or_none(check):
    finding = message(check(f"{ARMY}/illegal-drop-pods-not-all.yaml"), "transport-all-or-none")
    assert finding.message == ("Tactical could use Drop Pod and must, because Tactical (#2) does: either every "
                               "formation that can uses Drop Pod, or none does")
    assert finding.path == ("formations", 2, "transport")
    assert finding.rule == "6.14 White Scar Transports; 5.1.2 Drop Pod"


def test_transports_cannot_be_left_behind(check):
    finding = message(check(f"{ARMY}/illegal-on-foot.yaml"), "unknown-transport")
    assert finding.message == "Tactical: 'on foot' is not a transport option (Rhino, air transport, Drop Pod)"


def test_only_warhounds_among_titans(check):
    result = check(f"{ARMY}/illegal-titans.yaml")
    assert [f.message for f in result.findings] == [
        "'Reaver Titan' is not a formation of Space Marines – White Scars or its allies",
        "'Warlord Titan' is not a formation of Space Marines – White Scars or its allies"]


def test_air_transport_reason(check):
    terminators = check(f"{ARMY}/legal-air-transport.yaml").formations[1]
    assert terminators.derived["garrison"]["reason"] == "it is deployed by air transport (6.14 White Scar Transports)"
    assert terminators.upgrades == {"Commander": 50}


def test_land_raider_upgrade_is_shown_with_its_cost(check):
    terminators = check(f"{ARMY}/legal-drop-pods.yaml").formations[4]
    assert terminators.upgrades == {"Land Raiders": 350}
    assert terminators.transport == "Land Raiders"


def test_air_transport_carries_only_what_fits_each_detachment_whole(check):
    """Units entering play by air start the game aboard (L9507-9509); a Thunderhawk holds 8, a
    Terminator or Dreadnought taking two (L3849-3850); a detachment is never split between two
    aircraft (FAQ 3.1.3, L12422-12444; D110)."""
    overloaded = message(check(f"{ARMY}/illegal-air-transport-overloaded.yaml"), "transport-capacity")
    assert overloaded.message == ("#3 Terminator finds no room aboard the army's Thunderhawk Gunship: every "
                                  "formation riding in it is aboard at the start, each whole in one")
    assert overloaded.path == ("formations", 2, "transport")
    split = message(check(f"{ARMY}/illegal-air-transport-split.yaml"), "transport-capacity")
    assert split.message.startswith("#5 Scout finds no room aboard the army's 2 Thunderhawk Gunships:")

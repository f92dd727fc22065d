"""Ulthwé Craftworld rosters worked out by hand from seed 000 (6.10, L10748-10889; Eldar datasheets
5.9 and the Seer Council 5.10, ratings L6900-6902). Each formation tuple is (points, units, break
point, half strength, may garrison, derived transports). Wave Serpents and Falcons bought for a host
are units it buys, not derived transports, so every transports dict is empty. Only Rangers and War
Walkers may garrison (L10750). Totals include the Wraithgate purchase (50, L10776)."""

import pytest

from listbuilder.games import validate
from listbuilder.listengine.roster import Roster

from .expectations import message, roster_tests

ARMY = "ulthwe"
NO, YES = False, True

LEGAL = {
    "legal-black-guardian-mounted.yaml": dict(
        limit=3000, total=2780, bts=[7], caps=[750],  # formations 2,730 + Wraithgate 50
        formations=[
            (450, 12, 12, 6, NO, {}),      # 150 + Seer Council 100 + 4 Wave Serpents 200
            (150, 8, 8, 4, NO, {}),
            (625, 16, 16, 8, NO, {}),      # 200 + 3 Serpents/2 Falcons 275 (200 + one swap 75) + 3 Jetbikes 150
            (355, 7, 7, 3, NO, {}),        # 150 + Exarch 25 + Wave Serpent 50 + 2 Falcons 130 for 4 riders
            (200, 8, 8, 4, YES, {}),       # 8 Rangers x 25
            (200, 6, 6, 3, YES, {}),
            (0, 1, 3, 1, NO, {}),          # Avatar DC 3, free
            (750, 1, 6, 3, NO, {}),
        ]),
    "legal-two-black-guardians.yaml": dict(
        limit=3000, total=2650, bts=[5], caps=[0],
        formations=[
            (350, 14, 14, 7, NO, {}),      # 200 + platforms 50 + 3 War Walkers 100; 3 Guardians swapped
            (650, 14, 14, 7, NO, {}),      # 200 + Seer Council 100 + 2 Serpents/4 Falcons 350 (two swaps)
            (425, 13, 13, 6, NO, {}),      # 150 + 2 Wraithguard 100 + 3 Wraithlords 175
            (150, 8, 8, 4, NO, {}),
            (325, 5, 5, 2, NO, {}),        # 5 Fire Prisms x 65
            (750, 3, 9, 4, NO, {}),        # 3 Storm Serpents x 250, DC 3 each
        ]),
    "legal-aspect-troupe-per-host.yaml": dict(
        limit=2500, total=1625, bts=[3], caps=[500],
        formations=[
            (150, 8, 8, 4, NO, {}),
            (200, 8, 8, 4, NO, {}),
            (150, 4, 4, 2, NO, {}),
            (250, 6, 6, 3, NO, {}),        # 150 + 2 Wave Serpents 100 for 4 Dark Reapers
            (200, 6, 6, 3, NO, {}),        # every Jetbike a Vyper
            (175, 3, 3, 1, NO, {}),
            (300, 3, 3, 1, NO, {}),        # aircraft: never the Break Their Spirit target
            (200, 1, 2, 1, NO, {}),        # Vampire Raider WE/AC DC 2
        ]),
    "legal-wraithship.yaml": dict(
        limit=2000, total=1050, bts=[0, 2], caps=[550],
        formations=[
            (200, 11, 11, 5, NO, {}),      # 150 + Support Weapon Platforms 50
            (100, 4, 4, 2, YES, {}),
            (200, 6, 6, 3, YES, {}),
            (150, 1, None, None, NO, {}),  # Wraithship
            (400, 3, 3, 1, NO, {}),
            (0, 1, 3, 1, NO, {}),
        ]),
    "legal-warlock.yaml": dict(
        limit=3000, total=1650, bts=[1], caps=[850],
        formations=[
            (150, 8, 8, 4, NO, {}),
            (850, 1, 6, 3, NO, {}),        # Warlock DC 6
            (500, 2, 6, 3, NO, {}),        # Scorpion + Cobra, 250 each
            (150, 6, 6, 3, YES, {}),
        ]),
}

ILLEGAL = {
    "illegal-black-guardian-ratio.yaml": dict(
        total=550, codes=["limit-exceeded"],
        formations=[(200, 8, 8, 4, NO, {}), (200, 8, 8, 4, NO, {}), (150, 8, 8, 4, NO, {})]),
    "illegal-aspect-troupes.yaml": dict(
        total=575, codes=["limit-exceeded", "limit-exceeded"],
        formations=[(150, 8, 8, 4, NO, {}), (150, 4, 4, 2, NO, {}), (175, 4, 4, 2, NO, {}),
                    (100, 4, 4, 2, YES, {})]),
    "illegal-transports.yaml": dict(
        total=1955,    # every refused upgrade charged as written (D6)
        codes=["quantity-out-of-range", "transport-inexact", "transport-inexact", "upgrade-not-allowed",
               "upgrade-prerequisite-missing"],
        formations=[
            (350, 12, 12, 6, NO, {}),      # 150 + Wave Serpents 200, refused (a platform is aboard) but charged
            (150, 8, 8, 4, NO, {}),
            (625, 15, 15, 7, NO, {}),      # 200 + 4 Wave Serpents 200 + three Falcon swaps 225: 6 Falcons for 3
            (300, 10, 10, 5, NO, {}),      # 200 + 2 Jetbikes 100, bought though they need the transports
            (215, 5, 5, 2, NO, {}),        # 150 + a Falcon 65 that leaves a Dire Avenger behind
            (315, 7, 7, 3, NO, {}),        # 150 + 2 Wave Serpents 100 + a Falcon 65 that leave a space
        ]),
    "illegal-individuals.yaml": dict(
        total=650, codes=["limit-exceeded", "limit-exceeded", "limit-exceeded"],
        formations=[(250, 8, 8, 4, NO, {}), (300, 8, 8, 4, NO, {}),   # each + Seer Council 100
                    (0, 1, 3, 1, NO, {}), (0, 1, 3, 1, NO, {})]),   # + two Wraithgates 100, one beyond the 0-1
    "illegal-cap-and-choices.yaml": dict(
        total=1175, codes=["cap-exceeded", "unknown-unit", "upgrade-not-allowed"],
        formations=[(175, 8, 8, 4, NO, {}),        # 150 + an Exarch 25 the Ulthwé host may not take
                    (250, 1, 3, 1, NO, {}), (750, 1, 6, 3, NO, {})]),
}


test_legal_roster, test_illegal_roster = roster_tests(ARMY, LEGAL, ILLEGAL)


def test_two_troupes_per_warhost_and_one_aspect_troupe(check):
    result = check(f"{ARMY}/illegal-aspect-troupes.yaml")
    troupes, aspects = (f for f in result.findings if f.code == "limit-exceeded")
    assert troupes.message == ("Troupes: 3 in the army, at most 2 allowed (in formations #2, #3, #4; "
                               "2 per host, and the army has 1)")
    assert troupes.rule == "6.10 Ulthwé Troupes"
    assert aspects.message == ("Aspect Warrior Troupes: 2 in the army, at most 1 allowed (in formations #2, #3; "
                               "1 per host, and the army has 1)")
    assert aspects.rule == "6.10 Ulthwé special rule: The Path Less Travelled"
    assert aspects.path == ("formations", 2)


def test_black_guardians_one_in_three_guardian_warhosts(check):
    finding = message(check(f"{ARMY}/illegal-black-guardian-ratio.yaml"), "limit-exceeded")
    assert finding.message.startswith("Black Guardian Warhosts: 2 in the army, at most 1 allowed")
    assert finding.message.endswith("and the army has 3)")
    assert finding.rule == "6.10 Ulthwé Hosts: Ulthwé Black Guardian Warhost"


@pytest.mark.parametrize("guardians, black, valid", [
    (0, 1, True),    # 1 host, 1 in 3 rounding up: 1 (the Black Guardians count among the Guardian Warhosts)
    (2, 1, True),
    (1, 2, False),   # 3 hosts allow 1
    (2, 2, True),    # 4 hosts allow 2 (rounding up)
    (3, 3, False),   # 6 hosts allow 2
    (4, 3, True),    # 7 hosts allow 3
])
def test_black_guardian_ratio_rounds_up_and_counts_itself(catalog, guardians, black, valid):
    formations = [{"type": "Eldar Guardian Warhost"}] * guardians + [{"type": "Black Guardian Warhost"}] * black
    roster = Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": 5000,
                                    "formations": formations})
    result = validate(roster, catalog)
    assert result.total == 150 * guardians + 200 * black
    assert [f.code for f in result.findings] == ([] if valid else ["limit-exceeded"])


@pytest.mark.parametrize("swaps, points, vehicles, valid", [
    (0, 200, {"Wave Serpent": 4}, True),
    (1, 275, {"Wave Serpent": 3, "Falcon": 2}, True),    # one Serpent swapped for two Falcons, +75
    (2, 350, {"Wave Serpent": 2, "Falcon": 4}, True),    # two swaps, +150
    (3, 425, {"Wave Serpent": 1, "Falcon": 6}, False),   # at most two may be swapped: refused, charged as written
])
def test_black_guardian_serpents_and_falcons(catalog, swaps, points, vehicles, valid):
    upgrades = {"Black Guardian Transports": True, **({"Falcons": swaps} if swaps else {})}
    roster = Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": 2000, "formations": [
        {"type": "Black Guardian Warhost", "upgrades": upgrades},
    ]})
    result = validate(roster, catalog)
    assert result.valid is valid
    assert result.formations[0].points == 200 + points
    assert {g.sheet.name: g.count for g in result.formations[0].units if g.sheet.transport} == vehicles


def test_seer_council_replaces_a_farseer_and_rides(check):
    mounted = check(f"{ARMY}/legal-black-guardian-mounted.yaml").formations[0]
    assert {g.sheet.name: g.count for g in mounted.units} == {"Seer Council": 1, "Guardians": 7, "Wave Serpent": 4}
    black = check(f"{ARMY}/legal-two-black-guardians.yaml").formations[1]
    assert {g.sheet.name: g.count for g in black.units} == {
        "Farseer": 1, "Seer Council": 1, "Guardians": 6, "Wave Serpent": 2, "Falcon": 4}
    found = {f.message: f.rule for f in check(f"{ARMY}/illegal-individuals.yaml").findings}
    assert found["Seer Council: 2 in the army, at most 1 allowed (in formations #1, #2)"] == (
        "6.10 Ulthwé Individuals: Seer Council")
    assert found["Wraithgate: 2 bought, at most 1 allowed"] == "6.10 Ulthwé Individuals: Wraithgate"


def test_mounted_hosts_only_guardians_farseers_and_the_council(check):
    result = check(f"{ARMY}/illegal-transports.yaml")
    refused = message(result, "upgrade-not-allowed")
    assert refused.rule == "6.10 Ulthwé Hosts: Eldar Guardian Warhost"
    assert refused.message.endswith("Eldar Guardian Warhost also has Guardian Heavy Weapon Platforms")
    jetbikes = message(result, "upgrade-prerequisite-missing")
    assert jetbikes.message == "Jetbikes in Black Guardian Warhost needs one of these too: Black Guardian Transports"
    short, spare = (f for f in result.findings if f.code == "transport-inexact")
    assert "1 space would be left spare" in spare.message
    assert "1 unit that could ride would be left behind" in short.message


def test_garrisons_and_initiative(check):
    result = check(f"{ARMY}/legal-black-guardian-mounted.yaml")
    assert [f.derived["garrison"]["eligible"] for f in result.formations] == [NO, NO, NO, NO, YES, YES, NO, NO]
    # L6900-6902: Avatars, Aspect Warriors, Black Guardians and Titans 1+, everything else 2+
    assert [f.derived["initiative"] for f in result.formations] == [
        "2+", "2+", "1+", "1+", "2+", "2+", "1+", "1+"]
    assert result.derived["strategy_rating"] == 5


@pytest.mark.parametrize("host, warned", [
    (None, True),
    ({"type": "Eldar Guardian Warhost"}, False),                                       # its Farseer
    ({"type": "Eldar Guardian Warhost", "upgrades": {"Seer Council": True}}, False),   # the Council replaced him
])
def test_an_avatar_needs_a_farseer_or_the_seer_council(catalog, host, warned):
    """No Farseer in play, no Avatar (L10785-10789): a warning, not an error."""
    roster = Roster.model_validate({"game": "epic-armageddon", "army": ARMY, "points": 2000,
                                    "formations": [{"type": "Avatar"}, *([host] if host else [])]})
    result = validate(roster, catalog)
    assert [f.message for f in result.findings if f.code == "formation-unusable"] == (
        ["Avatar may not be used: the army has no Farseer or Seer Council"] if warned else [])
    assert result.valid

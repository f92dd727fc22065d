"""40k rosters worked out by hand from seed 001 (Muster Your Army, L2228-2300; Leader L1673-1689;
Starting Strength L362-383; Transports L556-564; Strategic Reserves L1904-1924; Aircraft L2172)
and the points and datasheets of the BSData fixture (../shared/fixtures/bsdata), each number
checked against the .cat files. Judgement calls: lists/wh40k-10e/DECISIONS.md (D1...).

Each unit tuple is (points, Starting Strength, Below Half-strength at: models, or wounds left for
a one-model unit); each attached unit (Bodyguard index -> Starting Strength, Below Half-strength
at, the Toughness attacks use, best Leadership)."""

from pathlib import Path

import pytest

from listbuilder.cli import main
from listbuilder.games import summarise, validate
from listbuilder.listengine.catalog import Catalog
from listbuilder.report.text import roster_text
from listbuilder.rosters.batch import check_file
from listbuilder.rosters.files import read_roster

from .sampling import each_folders_share

ROSTERS = Path(__file__).resolve().parent / "wh40k-rosters"


@pytest.fixture(scope="module")
def wh40k_catalog(bsdata):
    """The fixture's 46 catalogues, imported once per run (skipped without ../shared)."""
    return bsdata.catalog


EXPECTED = {
    "space-marines/legal-gladius.yaml": dict(
        limit=2000, total=1195, reserves=170, codes=[],  # the Stormraven is an Aircraft: not counted (D4)
        units=[(90, 1, 2),      # Captain 80 + Artificer Armour 10; W 5: below half at 2 wounds left
               (140, 10, 4), (75, 1, 4), (160, 10, 4),
               (70, 1, 1),      # Lieutenant 55 + The Honour Vehement 15; W 4
               (50, 1, 1), (170, 5, 2), (280, 1, 6), (70, 1, 3), (90, 5, 2)],
        attached={1: (11, 5, "4", "6+"),
                  3: (12, 5, "4", "6+")}),  # a Lieutenant and an Apothecary: the Apothecary's datasheet allows it (D2)
    "space-marines/illegal-over-points.yaml": dict(
        limit=1000, total=1015, reserves=0, codes=["points-over-limit"]),  # 80+55+160+160+340+220
    "space-marines/legal-vindicare.yaml": dict(  # the data shows the Agent (D1) at 110 + 15 as an ally (D37)
        limit=2000, total=355, reserves=0, codes=[]),
    "space-marines/illegal-detachment.yaml": dict(
        limit=1000, total=160, reserves=0, codes=["unknown-enhancement"]),
    "space-marines/illegal-no-character.yaml": dict(
        limit=1000, total=250, reserves=0, codes=["no-character", "no-warlord"]),
    "space-marines/illegal-rule-of-three.yaml": dict(
        limit=2000, total=780, reserves=0, codes=["too-many-of-datasheet", "too-many-of-datasheet"]),
    "space-marines/illegal-enhancements.yaml": dict(
        limit=2000, total=410, reserves=0,  # 100 + 65 + 60 + 90 + 95: every Enhancement as written
        codes=["enhancement-repeated", "enhancement-not-character", "too-many-enhancements"]),
    "space-marines/illegal-warlords.yaml": dict(
        limit=1000, total=160, reserves=0, codes=["several-warlords", "warlord-not-character"]),
    "space-marines/illegal-leaders.yaml": dict(
        limit=2000, total=570, reserves=0, codes=["leader-not-allowed", "not-a-leader", "too-many-leaders"],
        attached={4: (6, 2, "4", "6+")}),  # the first Captain only: a refused attachment is not formed (D9)
    "space-marines/illegal-transports.yaml": dict(
        limit=2000, total=295, reserves=0, codes=["transport-empty"], attached={1: (11, 5, "4", "6+")}),
    "space-marines/illegal-reserves.yaml": dict(
        limit=2000, total=925, reserves=565,  # the Land Raider 220 with its Terminators 170, the Bunker 175
        codes=["fortification-in-reserves", "aircraft-not-in-reserves", "reserves-over-limit",
               "data-constraint"]),  # the Bunker's weapon, a choice the data leaves to the player (D39)
    "space-marines/illegal-rhino-passengers.yaml": dict(  # D11 revisited: one finding per refused unit
        limit=1000, total=480, reserves=0, codes=["transport-cannot-carry", "transport-cannot-carry"],
        attached={1: (6, 2, "4", "6+")}),
    "space-marines/legal-wargear.yaml": dict(  # 80 + 80 + 140 + 200: wargear does not change points (D3)
        limit=1000, total=500, reserves=0, codes=[],
        units=[(80, 1, 2), (80, 5, 2), (140, 10, 4), (200, 10, 4)]),
    "space-marines/illegal-wargear.yaml": dict(
        limit=1000, total=160, reserves=0, codes=["wargear-not-allowed"]),  # five plasma pistols, one finding (D23)
    "space-marines/legal-captain-weapons.yaml": dict(  # 80 + 80 (D47)
        limit=1000, total=160, reserves=0, codes=[], units=[(80, 1, 2), (80, 5, 2)]),
    "space-marines/illegal-captain-weapons.yaml": dict(  # the bolter's loadout and the pistol's are alternatives (D47)
        limit=1000, total=160, reserves=0, codes=["data-wargear-alternatives"]),
    # Weapons stated for units of several models, carried as the data allows or one finding (D50)
    "space-marines/illegal-sternguard-weapons.yaml": dict(  # 80 + 100: one special weapon model below 10
        limit=1000, total=180, reserves=0, codes=["data-wargear-alternatives"], units=[(80, 1, 2), (100, 5, 2)]),
    "blood-angels/legal-death-company.yaml": dict(  # 120 + 230
        limit=2000, total=350, reserves=0, codes=[], units=[(120, 1, 2), (230, 10, 4)]),
    "chaos-space-marines/legal-legionary-weapons.yaml": dict(  # 90 + 170
        limit=2000, total=260, reserves=0, codes=[], units=[(90, 1, 2), (170, 10, 4)]),
    "chaos-space-marines/illegal-legionary-weapons.yaml": dict(  # 90 + 90: "Max 1 per 5 models"
        limit=2000, total=180, reserves=0, codes=["data-wargear-alternatives"], units=[(90, 1, 2), (90, 5, 2)]),
    # Which kind of model carries some of the weapons (D56): Khârn 100 + 10 Khorne Berzerkers 180
    "world-eaters/legal-berzerker-champion.yaml": dict(  # the Champion's plasma pistol is his own entry's
        limit=2000, total=280, reserves=0, codes=[], units=[(100, 1, 2), (180, 10, 4)]),
    "world-eaters/illegal-berzerker-pistols.yaml": dict(  # three on the rank and file: "Max 1 per 5 models"
        limit=2000, total=280, reserves=0, codes=["data-error"], units=[(100, 1, 2), (180, 10, 4)]),
    "space-marines/illegal-wargear-limit.yaml": dict(
        limit=1000, total=160, reserves=0, codes=["wargear-not-allowed"]),  # 3 grenade launchers, at most 2 (D24)
    "necrons/legal-awakened-dynasty.yaml": dict(  # the Ghost Ark's 10 Warriors and 1 Character, full (D48)
        limit=2000, total=1155, reserves=70, codes=[],
        units=[(120, 1, 2), (85, 1, 1), (200, 20, 9), (50, 1, 1), (90, 10, 4), (115, 1, 6), (90, 1, 3), (90, 3, 1),
               (145, 1, 5), (70, 5, 2), (100, 1, 2)],
        attached={2: (22, 10, "4", "6+"),  # an Overlord and a Chronomancer (who may join a Noble) on 20 Warriors
                  4: (11, 5, "4", "6+"),
                  7: (4, 1, "6", "6+")}),  # the Skorpekh Lord is T7; attacks use his Destroyers' T6
    "necrons/illegal-epic-heroes.yaml": dict(
        limit=2000, total=310, reserves=0, codes=["epic-hero-repeated", "enhancement-on-epic-hero"]),
    "necrons/illegal-ghost-ark.yaml": dict(
        limit=2000, total=585, reserves=0, codes=["leader-not-allowed", "transport-over-capacity"],
        attached={2: (21, 10, "4", "6+")}),
    "space-marines/legal-stormraven.yaml": dict(  # 6 infantry and 1 Dreadnought in 12 and 1 (D48)
        limit=2000, total=645, reserves=365, codes=[],
        units=[(80, 1, 2), (80, 5, 2), (205, 1, 5), (280, 1, 6)], attached={1: (6, 2, "4", "6+")}),
    "space-marines/illegal-stormraven.yaml": dict(  # two Dreadnoughts where one fits, though 7 <= 13 (D48)
        limit=2000, total=795, reserves=435, codes=["transport-over-capacity"],
        units=[(80, 1, 2), (80, 5, 2), (205, 1, 5), (280, 1, 6), (150, 1, 5)]),
    "adepta-sororitas/legal-immolator.yaml": dict(  # the Sisters split in two: 1 + 5 of 6 (D48)
        limit=2000, total=280, reserves=0, codes=[], units=[(60, 1, 1), (105, 10, 4), (115, 1, 5)],
        attached={1: (11, 5, "3", "7+")}),
    "adepta-sororitas/illegal-immolator.yaml": dict(  # 1 + 5 + 1 of 6; the Triumph in a Rhino (D48)
        limit=2000, total=650, reserves=0, codes=["transport-over-capacity", "transport-cannot-carry"],
        units=[(60, 1, 1), (105, 10, 4), (115, 1, 5), (60, 1, 1), (235, 1, 8), (75, 1, 4)],
        attached={1: (11, 5, "3", "7+")}),
    "orks/legal-stompa.yaml": dict(  # Ghazghkull 15 + Makari 1 + a Warboss 1 of 22 (D48)
        limit=2000, total=1110, reserves=0, codes=[], units=[(235, 2, 0), (75, 1, 2), (800, 1, 14)]),
    "orks/illegal-stompa.yaml": dict(  # Ghazghkull 15 + Makari 1 + 10 Boyz = 26 of 22 (D48)
        limit=2000, total=1115, reserves=0, codes=["transport-over-capacity"],
        units=[(235, 2, 0), (80, 10, 4), (800, 1, 14)]),
    "necrons/illegal-reserves.yaml": dict(
        limit=1000, total=640, reserves=265, codes=["aircraft-not-in-reserves", "reserves-over-limit"]),
    "tau-empire/legal-kauyon.yaml": dict(
        limit=2000, total=980, reserves=90, codes=[],
        units=[(115, 1, 2), (140, 3, 1), (55, 1, 1), (50, 1, 1), (140, 20, 9), (65, 1, 1), (70, 10, 4), (85, 1, 6),
               (170, 1, 5), (90, 10, 4)],
        attached={1: (4, 1, "5", "7+"), 4: (22, 10, "3", "7+"), 6: (11, 5, "3", "7+")}),
    "tau-empire/illegal-kroot-leaders.yaml": dict(
        limit=2000, total=410, reserves=0, codes=["too-many-leaders", "too-many-leaders"],
        attached={2: (11, 5, "3", "7+"), 5: (21, 10, "3", "7+")}),  # the first Leader named only (D9)
    # The data's own rules (D1, D4, D5, D37-D39), each roster's header citing the data's lines
    "space-marines/illegal-adept-of-the-codex.yaml": dict(limit=1000, total=155, reserves=0, codes=["data-hidden"]),
    "space-marines/illegal-company-heroes.yaml": dict(limit=1000, total=160, reserves=0, codes=["data-constraint"]),
    "space-marines/legal-agents.yaml": dict(limit=2000, total=350, reserves=0, codes=[]),
    "necrons/illegal-dimensional-sanctum.yaml": dict(limit=1000, total=185, reserves=0, codes=["data-hidden"]),
    "necrons/illegal-lychguard-weapons.yaml": dict(limit=1000, total=255, reserves=0, codes=["data-error"]),
    "necrons/legal-canoptek-court.yaml": dict(limit=1000, total=355, reserves=0, codes=[]),
    "aeldari/illegal-devoted-of-ynnead.yaml": dict(limit=1000, total=170, reserves=0, codes=["data-error"]),
    "aeldari/legal-devoted-of-ynnead.yaml": dict(limit=1000, total=270, reserves=0, codes=[]),
    "aeldari/illegal-mistweave.yaml": dict(limit=1000, total=170, reserves=0, codes=["data-hidden"]),
    "aeldari/legal-ghosts-of-the-webway.yaml": dict(limit=1000, total=160, reserves=0, codes=[]),
    "astra-militarum/illegal-commissar-graves.yaml": dict(limit=1000, total=175, reserves=0, codes=["data-error"]),
    "astra-militarum/legal-combined-arms.yaml": dict(limit=1000, total=175, reserves=0, codes=[]),
    "chaos-space-marines/illegal-cults-points.yaml": dict(limit=2000, total=630, reserves=0, codes=["data-constraint"]),
    "chaos-space-marines/illegal-renegade-berzerkers.yaml": dict(limit=1000, total=270, reserves=0,
                                                                 codes=["data-hidden"]),
    "chaos-space-marines/legal-long-war.yaml": dict(limit=2000, total=450, reserves=0, codes=[]),
    "tyranids/illegal-mucolid-spores.yaml": dict(limit=1000, total=195, reserves=0,
                                                 codes=["data-hidden", "data-hidden"]),  # one per unit
    "tyranids/legal-warrior-onslaught.yaml": dict(limit=2000, total=510, reserves=0, codes=[]),
    "tau-empire/illegal-devilfish.yaml": dict(
        limit=2000, total=445, reserves=0, codes=["transport-over-capacity", "aircraft-not-in-reserves"]),
    # A unit's choices that are not weapons (`options`, D44)
    "chaos-daemons/legal-daemon-prince-allegiance.yaml": dict(limit=2000, total=490, reserves=0, codes=[]),
    "chaos-daemons/illegal-daemon-prince-allegiance.yaml": dict(limit=2000, total=380, reserves=0,
                                                                codes=["data-constraint", "unknown-option"]),
    "imperial-knights/legal-noble-pilots.yaml": dict(limit=2000, total=515, reserves=0, codes=[]),
    # Houndpack Lance: three War Dogs the player makes Characters (D57, D58)
    "chaos-knights/legal-houndpack-lance.yaml": dict(limit=2000, total=445, reserves=0, codes=[],
                                                     units=[(130, 1, 6), (165, 1, 6), (150, 1, 6)]),
    "chaos-knights/illegal-houndpack-lance.yaml": dict(limit=2000, total=720, reserves=0,
                                                       codes=["enhancement-not-character", "data-constraint"]),
    "thousand-sons/illegal-crusade-cult.yaml": dict(limit=2000, total=180, reserves=0, codes=["data-hidden"]),
}


@pytest.fixture(scope="module")
def check(wh40k_catalog):
    catalog = Catalog(installed={"wh40k-10e": wh40k_catalog})
    return lambda relative: check_file(ROSTERS / relative, catalog, relative)


def test_every_example_roster_is_expected():
    assert sorted(str(p.relative_to(ROSTERS)) for p in ROSTERS.glob("*/*.yaml")) == sorted(EXPECTED)
    assert len({name.split("/")[0] for name in EXPECTED}) >= 7


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_roster(check, name):
    expected = EXPECTED[name]
    result = check(name)
    assert [f.code for f in result.findings] == expected["codes"], [f.message for f in result.findings]
    assert result.valid == name.split("/")[1].startswith("legal")
    assert result.valid == all(f.severity == "warning" for f in result.findings)
    assert (result.total, result.limit, result.derived["reserves"]["points"]) == (
        expected["total"], expected["limit"], expected["reserves"])
    assert result.derived["reserves"]["limit"] == expected["limit"] // 4
    if "units" in expected:
        assert [(u.points, u.derived["starting_strength"],
                 u.derived["below_half_at"] if u.models > 1 else u.derived["below_half_wounds"])
                for u in result.units] == expected["units"]
    attached = {u.index: u.derived["attached"] for u in result.units if "attached" in u.derived}
    assert {i: (a["starting_strength"], a["below_half_at"], a["toughness"], a["leadership"])
            for i, a in attached.items()} == expected.get("attached", {})
    for finding in result.findings:
        assert finding.rule and finding.location is not None and finding.location.line is not None


def test_findings_name_the_numbers_and_the_fix(check):
    messages = {f.code: f.message for f in check("space-marines/illegal-reserves.yaml").findings}
    assert messages["reserves-over-limit"] == (
        "Strategic Reserves hold 565 points (#2 Land Raider 220, #3 Terminator Squad 170, #4 Hammerfall Bunker "
        "175); at most 500 (a quarter of Strike Force's 2,000)")
    [over] = check("necrons/illegal-ghost-ark.yaml").findings[1:]
    assert over.message == ("Ghost Ark carries 21 models' space (#2 1 Royal Warden, #3 20 Necron Warriors); its "
                            "transport capacity is 10 NECRON WARRIOR models and 1 NECRONS INFANTRY CHARACTER model")
    assert over.location.line == 10
    [split] = check("space-marines/illegal-stormraven.yaml").findings
    assert split.message == (
        "Stormraven Gunship carries 7 models' space (#2 5 Intercessor Squad, #3 1 Redemptor Dreadnought, #5 1 "
        "Ballistus Dreadnought); its transport capacity is 12 Adeptus Astartes Infantry models and 1 Dreadnought model")
    immolator = check("adepta-sororitas/illegal-immolator.yaml").findings[0]
    assert immolator.message == ("Immolator carries 7 models' space (#1 1 Canoness, #2 5 of 10 Battle Sisters Squad "
                                 "(split in two), #4 1 Hospitaller); its transport capacity is 6")
    [stompa] = check("orks/illegal-stompa.yaml").findings
    assert stompa.message == ("Stompa carries 26 models' space (#1 2 Ghazghkull Thraka, #2 10 Boyz); its transport "
                              "capacity is 22")


def test_a_choice_left_unmade_names_the_choices_and_a_misspelt_one_the_name_meant(check):
    """D44: the data's finding on a unit's unmade choice says where to state it and what it may be;
    a name the data does not have is one finding, with the closest name, not also the unmade choice."""
    unmade, misspelt = check("chaos-daemons/illegal-daemon-prince-allegiance.yaml").findings
    assert (unmade.location.line, unmade.suggestion) == (
        10, "state it in the unit's `options`, one of: Khorne, Nurgle, Slaanesh, Tzeentch")
    assert unmade.rule.startswith("data: Chaos - Chaos Daemons Library.cat:3717 (revision 801555b)")
    assert (misspelt.location.line, misspelt.message, misspelt.suggestion) == (
        13, "Daemon Prince of Chaos has no choice 'Nurgel' in the data", "did you mean 'Nurgle'?")


def test_the_report_shows_derived_values(check):
    text = roster_text("legal-gladius.yaml", check("space-marines/legal-gladius.yaml"))
    assert text.splitlines()[:2] == [
        "legal-gladius.yaml: LEGAL — Ultramarines 3rd Company (Space Marines)",
        "  points: 1,195 / 2,000 (805 left)"]
    assert "  Strategic Reserves: 170 / 500" in text
    assert ("      attached unit with #5 Lieutenant and #6 Apothecary: Starting Strength 12, Below Half-strength "
            "at 5 models or fewer; attacks use T 4; best Ld 6+") in text
    assert "      Starting Strength 1, Below Half-strength at 2 wounds left or fewer (W 5); T 4, best Ld 6+" in text


def test_json_report_has_the_shape_of_an_epic_one(check):
    report = summarise(check("tau-empire/illegal-devilfish.yaml")).json
    assert {"army", "army_name", "name", "valid", "points", "issues"} <= set(report)
    assert report["points"] == {"total": 445, "limit": 2000} and report["valid"] is False
    assert [i["code"] for i in report["issues"]] == ["transport-over-capacity", "aircraft-not-in-reserves"]
    assert report["units"][1]["embarked_in"] == 3


def test_unknown_faction_and_battle_size_are_unreadable(wh40k_catalog, tmp_path):
    catalog = Catalog(installed={"wh40k-10e": wh40k_catalog})
    path = tmp_path / "r.yaml"
    path.write_text("game: wh40k-10e\nfaction: Necronz\nbattle_size: Strike Forse\ndetachment: x\n")
    from listbuilder.core.findings import LoadFailure
    with pytest.raises(LoadFailure) as failure:
        read_roster(path, catalog)
    assert [(f.code, f.location.line, f.suggestion) for f in failure.value.findings] == [
        ("unknown-faction", 2, "did you mean 'Necrons'?"),
        ("unknown-battle-size", 3, "did you mean 'Strike Force'?")]


def test_check_without_installed_data_says_how_to_import(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path))
    roster = ROSTERS / "necrons" / "legal-awakened-dynasty.yaml"
    assert main(["check", str(roster)]) == 2
    out = capsys.readouterr().out
    assert "no wh40k-10e data is installed" in out and "listbuilder data import bsdata PATH" in out


def checked(wh40k_catalog, units: str, army: str = "faction: Necrons\ndetachment: Awakened Dynasty\n"):
    """A Strike Force roster of `units` (YAML list lines) in `army`, validated."""
    from listbuilder.rosters.files import parse_roster
    catalog = Catalog(installed={"wh40k-10e": wh40k_catalog})
    text = f"game: wh40k-10e\nbattle_size: Strike Force\n{army}units:\n" + units
    return validate(parse_roster(text, "r", catalog).roster, catalog)


def findings_of(wh40k_catalog, units: str, army: str = "faction: Necrons\ndetachment: Awakened Dynasty\n") -> list:
    return checked(wh40k_catalog, units, army).findings


def codes_of(wh40k_catalog, units: str, **army: str) -> list[str]:
    return [f.code for f in findings_of(wh40k_catalog, units, **army)]


def test_a_transport_text_not_read_whole_is_one_warning_quoting_it(wh40k_catalog):
    """D11: the Orion's other way to ride (a Dreadnought, the capacity then 6) is not read; a roster
    embarking a unit in it is warned, quoting the sentence, and stays legal."""
    [warning] = findings_of(wh40k_catalog, "  - {type: Shield-Captain, warlord: true}\n"
                                           "  - {type: Custodian Guard, embarked_in: Orion Assault Dropship, "
                                           "reserves: true}\n"
                                           "  - {type: Orion Assault Dropship, reserves: true}\n",
                            army="faction: Adeptus Custodes\ndetachment: Shield Host\n")
    assert (warning.code, warning.severity) == ("transport-unchecked", "warning")
    assert "“This model can also transport 1 VENERABLE CONTEMPTOR DREADNOUGHt" in warning.message
    assert warning.message.endswith("check by hand that it may carry Custodian Guard")


def test_a_capacity_the_transports_wargear_sets_is_read_from_the_wargear_stated(wh40k_catalog):
    """D48: a Battlewagon carries 22, 12 if equipped with a killkannon (Orks.cat:31)."""
    units = ("  - {type: Warboss, warlord: true, leads: Boyz, embarked_in: Battlewagon}\n"
             "  - {type: Boyz, models: 20, embarked_in: Battlewagon}\n")
    army = "faction: Orks\ndetachment: War Horde\n"
    assert findings_of(wh40k_catalog, units + "  - {type: Battlewagon}\n", army=army) == []
    [over] = findings_of(wh40k_catalog, units + "  - {type: Battlewagon, wargear: {Killkannon: 1}}\n", army=army)
    assert over.message == ("Battlewagon carries 21 models' space (#1 1 Warboss, #2 20 Boyz); its transport "
                            "capacity is 12 while it is equipped with a killkannon")


def test_a_passenger_refused_is_not_also_counted(wh40k_catalog):
    """D48: five Terminators a Rhino may not carry are one finding, not also ten Marines and five
    Terminators over its 12."""
    assert codes_of(wh40k_catalog, "  - {type: Captain, warlord: true}\n"
                                   "  - {type: Tactical Squad, embarked_in: Rhino}\n"
                                   "  - {type: Terminator Squad, embarked_in: Rhino}\n"
                                   "  - {type: Rhino}\n",
                    army="faction: Space Marines\ndetachment: Gladius Task Force\n") == ["transport-cannot-carry"]


def test_an_attached_unit_embarks_and_reserves_as_one(wh40k_catalog):
    """D9, D13, D14: a Leader outside its Bodyguard's transport; passengers of an Aircraft."""
    assert codes_of(wh40k_catalog, "  - {type: Overlord, warlord: true, leads: Necron Warriors}\n"
                                   "  - {type: Necron Warriors, embarked_in: Ghost Ark}\n"
                                   "  - {type: Ghost Ark}\n") == ["attached-unit-split"]
    assert codes_of(wh40k_catalog, "  - {type: Overlord, warlord: true}\n"
                                   "  - {type: Immortals, embarked_in: Night Scythe}\n"
                                   "  - {type: Night Scythe, reserves: true}\n") == [
        "aircraft-passenger-not-in-reserves"]
    assert codes_of(wh40k_catalog, "  - {type: Overlord, warlord: true, leads: Necron Warriors}\n"
                                   "  - {type: Necron Warriors, models: 20, reserves: true}\n"
                                   "  - {type: Lychguard, models: 10, reserves: true}\n"
                                   "  - {type: Skorpekh Destroyers, reserves: true}\n") == ["reserves-over-limit"]
    # 200 + 170 + 90 = 460 placed, and the Overlord leading the Warriors goes with them: 545 > 500


def test_print_shows_roster_findings_and_the_datasheets_taken(check, wh40k_catalog):
    import io
    import re

    from pypdf import PdfReader

    from listbuilder.report.pdf import roster_pdf
    catalog = Catalog(installed={"wh40k-10e": wh40k_catalog})
    result = check("necrons/illegal-ghost-ark.yaml")
    pages = [re.sub(r"\s+", " ", page.extract_text())
             for page in PdfReader(io.BytesIO(roster_pdf(result, catalog,
                                                         source="necrons/illegal-ghost-ark.yaml"))).pages]
    first = pages[0]
    assert "585 / 2,000 pts" in first and "ILLEGAL" in first and "Warhammer 40,000 10th edition" in first
    assert "Ghost Ark carries 21 models' space" in first and "line 10:41" in first
    assert ("attached unit with #2 Royal Warden: Starting Strength 21, "
            "Below Half-strength at 10 models or fewer") in first
    assert "Strategic Reserves 0 / 500" in first and "See finding 2" in first
    rest = " ".join(pages[1:])
    assert rest.index("Datasheets") < rest.index("Overlord") < rest.index("Ghost Ark") < rest.index("Lychguard")
    assert "transport capacity of 10 NECRON WARRIOR models" in rest
    # the data's line breaks kept and its ■ drawn as a bullet (which pypdf reads back as \x7f), never as '?'
    assert re.search(r"following units: \x7f IMMORTALS \x7f LYCHGUARD \x7f NECRON WARRIORS", rest)


def test_check_a_folder_of_40k_rosters_like_an_epic_one(bsdata, tmp_path, monkeypatch, capsys):
    """The installed catalog is read when a roster needs it; text and JSON, exit 1 when any is illegal."""
    import json

    from listbuilder.games.wh40k10.importing.installed import install
    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path))
    install(bsdata.catalog, bsdata.left_out)
    assert main(["check", str(ROSTERS / "tau-empire" / "legal-kauyon.yaml")]) == 0
    out = capsys.readouterr().out
    assert "LEGAL — Fio'vash's hunters (T'au Empire)" in out
    # the report names the data that checked it: the imported catalogue's revision, not the shipped data's
    assert out.rstrip().endswith(f"against data {bsdata.catalog.data_revision}")
    assert main(["check", str(ROSTERS / "tau-empire"), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["data_version"] == bsdata.catalog.data_revision
    reports = report["rosters"]
    assert [(r["file"].rsplit("/", 1)[1], r["valid"], r["points"]["total"]) for r in reports] == [
        ("illegal-devilfish.yaml", False, 445), ("illegal-kroot-leaders.yaml", False, 410),
        ("legal-kauyon.yaml", True, 980)]


def test_a_folder_of_two_games_names_both_data(bsdata, tmp_path, monkeypatch, capsys):
    """Epic rosters are checked against the shipped data, 40k ones against the user's import: the
    report names both, and each CSV row its own."""
    import csv
    import io

    from listbuilder.data.catalog import data_version
    from listbuilder.games.wh40k10.importing.installed import install
    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path))
    install(bsdata.catalog, bsdata.left_out)
    epic = ROSTERS.parent / "rosters" / "codex-astartes" / "illegal-over-points.yaml"
    forty = ROSTERS / "tau-empire" / "legal-kauyon.yaml"
    assert main(["check", str(epic), str(forty)]) == 1
    assert capsys.readouterr().out.rstrip().endswith(
        f"against data {data_version()}, {bsdata.catalog.data_revision}")
    assert main(["check", str(epic), str(forty), "--format", "csv"]) == 1
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out.removeprefix("\ufeff"))))
    assert [row["data"] for row in rows] == [data_version(), bsdata.catalog.data_revision]
    assert [row["game"] for row in rows] == ["epic-armageddon", "wh40k-10e"]


@pytest.mark.parametrize("every", [4, pytest.param(1, marks=pytest.mark.slow)])
def test_a_check_loads_only_its_factions_units_and_finds_what_the_whole_catalog_finds(bsdata, bsdata_bundle,
                                                                                     tmp_path, monkeypatch, every):
    """`install` also cuts the catalog by faction; a check of one roster loads its faction's part
    (its own units, its libraries' and its allies'), and every example roster's report is the one
    the whole catalog gives (each faction's first and one in `every` after it: all under -m slow).
    Parts cut from another catalog, or a faction they cannot name alone, fall back to the whole.
    Both carry the engine's data installed beside them."""
    import json

    from listbuilder.games.wh40k10.importing.installed import catalog_path, install, load_installed
    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path))
    install(bsdata.catalog, bsdata.left_out, bsdata_bundle)
    whole = load_installed("wh40k-10e")
    part = load_installed("wh40k-10e", "T'au Empire")
    [tau] = [f for f in whole.factions if f.name.endswith("T'au Empire")]
    assert set(part.units) == set(tau.units) and len(part.units) < len(whole.units) / 4
    assert part.units_of(tau) == whole.units_of(tau) and part.faction(tau.name) == tau
    assert [(f.id, f.name, f.faction_keyword) for f in part.factions] == [
        (f.id, f.name, f.faction_keyword) for f in whole.factions]  # the others by name only
    assert load_installed("wh40k-10e", "Adeptus Astartes") is whole  # a keyword several catalogues share
    from listbuilder.games.wh40k10.importing.installed import _index
    read = _index.cache_info().misses
    assert all(load_installed("wh40k-10e", f"No Such Faction {n}") is whole for n in range(20))
    assert _index.cache_info().misses == read  # names from rosters (untrusted) read nothing again

    def reports(catalog: Catalog) -> list[str]:
        return [json.dumps(summarise(check_file(path, catalog)).json, sort_keys=True)
                for path in each_folders_share(every, sorted(ROSTERS.rglob("*.yaml")))]

    by_faction = Catalog(load_installed=load_installed)
    by_parts = reports(by_faction)
    assert by_parts == reports(Catalog(load_installed=lambda game, faction: whole))
    assert "data-rules-unchecked" not in "".join(by_parts)
    assert {faction for _, faction in by_faction.installed_parts} == {
        "Necrons", "Space Marines", "T'au Empire", "Aeldari", "Astra Militarum", "Chaos Space Marines", "Tyranids",
        "Chaos Daemons", "Imperial Knights", "Thousand Sons", "Orks", "Adepta Sororitas", "Blood Angels",
        "Chaos Knights", "World Eaters"}
    assert not by_faction.installed and all(data is not whole for data in by_faction.installed_parts.values())

    assert load_installed("wh40k-10e", "T'au Empire").engine_data(tau).catalogues[0]["name"] == tau.name
    catalog_path("wh40k-10e").write_bytes(catalog_path("wh40k-10e").read_bytes() + b" ")  # replaced since
    assert len(load_installed("wh40k-10e", "T'au Empire").units) == len(whole.units)
    assert load_installed("wh40k-10e", "T'au Empire").engine_data(tau) is None  # it went with the one replaced


def test_the_parts_install_wrote_are_read_without_validating_them_and_equal_what_validating_gives(
        bsdata_installed):
    """docs/speed.md: the parts' index and each faction's part, their digests as `install` recorded
    them, are built back without validating them (building the models' validators costs more than
    the rest of reading a part); each equals what validating the same file gives, for every
    faction. A part changed since is validated: read as edited where it still validates."""
    import orjson
    import pytest

    from listbuilder.games.wh40k10.catalog import Faction, Unit, Wh40kCatalog
    from listbuilder.games.wh40k10.importing import installed

    def never(data):
        raise AssertionError("validated")

    path = installed.catalog_path("wh40k-10e")
    written = path.stat()
    index, digests = installed._index(path, written.st_size, written.st_mtime_ns)
    folder = path.with_suffix(".by-faction")
    index_json = (folder / "index.json").read_bytes().partition(b"\n")[2]
    assert index == installed._catalog_model().model_validate_json(index_json)
    assert installed._read(Wh40kCatalog, index_json, digests["index"], never) == index
    part = tuple[Faction, dict[str, Unit]]
    for n in range(len(index.factions)):
        data = (folder / f"{n}.json").read_bytes()
        built = installed._read(part, data, digests[str(n)], never)
        assert built == installed._part_adapter().validate_json(data) and built[0].name == index.factions[n].name
        assert isinstance(built[0], Faction) and all(isinstance(unit, Unit) for unit in built[1].values())

    n = next(n for n, faction in enumerate(index.factions) if faction.name == "Xenos - Necrons")
    faction, units = orjson.loads((folder / f"{n}.json").read_bytes())
    first = next(iter(units.values()))
    first["sizes"][0]["points"] += 1000
    (folder / f"{n}.json").write_bytes(orjson.dumps([faction, units]))
    with pytest.raises(AssertionError, match="validated"):
        installed._read(part, (folder / f"{n}.json").read_bytes(), digests[str(n)], never)
    edited = installed.load_installed("wh40k-10e", "Necrons").units[first["id"]]
    assert edited.sizes[0].points == first["sizes"][0]["points"]


def test_a_check_through_a_factions_part_reads_its_detachment_and_enhancements_as_the_whole_does(
        bsdata, tmp_path, monkeypatch):
    """A faction's part holds the faction whole (its detachments, their rules and enhancements)
    beside its units, and the parts' index the other factions' names only. A check of a roster
    with a detachment and two of its enhancements through the part reports what the whole catalog
    does, text and JSON. A part in its former shape (the units alone) falls back to the whole."""
    import json

    from pydantic import TypeAdapter

    from listbuilder.games.wh40k10.catalog import Unit
    from listbuilder.games.wh40k10.importing.installed import catalog_path, install, load_installed
    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path))
    install(bsdata.catalog, bsdata.left_out)
    whole = load_installed("wh40k-10e")
    [tau, necrons] = [next(f for f in whole.factions if f.name.endswith(name)) for name in ("T'au Empire", "Necrons")]
    part = load_installed("wh40k-10e", "T'au Empire")
    assert part.faction(tau.name) == tau and tau.detachments
    assert not any(f.detachments or f.units for f in part.factions if f.id != tau.id)

    kauyon = ROSTERS / "tau-empire" / "legal-kauyon.yaml"

    def report(catalog: Catalog) -> tuple[str, str]:
        result = check_file(kauyon, catalog)
        return roster_text(str(kauyon), result), json.dumps(summarise(result).json, sort_keys=True)

    by_faction = Catalog(load_installed=load_installed)
    text, as_json = report(by_faction)
    assert list(by_faction.installed_parts) == [("wh40k-10e", "T'au Empire")] and not by_faction.installed
    assert (text, as_json) == report(Catalog(load_installed=lambda game, faction: whole))
    assert "detachment: Kauyon" in text and "Enhancement Exemplar of the Kauyon (20 pts)" in text
    assert "Enhancement Precision of the Patient Hunter" in text and " 980 / 2,000 " in text

    former = TypeAdapter(dict[str, Unit]).dump_json({i: whole.units[i] for i in necrons.units}, exclude_defaults=True)
    parts = catalog_path("wh40k-10e").with_suffix(".by-faction")
    (parts / f"{whole.factions.index(necrons)}.json").write_bytes(former)
    assert load_installed("wh40k-10e", "Necrons") is whole


def test_hover_mode(wh40k_catalog):
    """D21 (L2182-2184): the Stormraven has Hover. In Hover mode it is no Aircraft: it may be set up
    on the battlefield, and in Reserves it counts toward their cap (Terminators 170 + Stormraven
    280 = 450 of 500). A unit without Hover in Hover mode is one finding, an Aircraft's included."""
    catalog = Catalog(installed={"wh40k-10e": wh40k_catalog})
    roster = read_roster(ROSTERS / "space-marines" / "legal-gladius.yaml", catalog).roster
    stormraven = next(i for i, u in enumerate(roster.units) if u.type == "Stormraven Gunship")

    def checked(index: int, **changes):
        units = list(roster.units)
        units[index] = units[index].model_copy(update=changes)
        return validate(roster.model_copy(update={"units": units}), catalog)

    on_table = checked(stormraven, hover=True, reserves=False)
    assert on_table.valid and on_table.derived["reserves"]["points"] == 170
    summary = summarise(on_table)
    assert "in Hover mode" in summary.entries[stormraven].lines[0]
    assert summary.json["units"][stormraven]["hover"] is True
    in_reserves = checked(stormraven, hover=True, reserves=True)
    assert in_reserves.valid and in_reserves.derived["reserves"]["points"] == 450
    [grounded] = checked(stormraven, reserves=False).findings  # the finding names both fixes
    assert (grounded.code, grounded.message) == ("aircraft-not-in-reserves", (
        "Stormraven Gunship is an Aircraft and must start the battle in Reserves: mark it `reserves: true`, or, "
        "as it has Hover, declare it in Hover mode: `hover: true` (`h` in the editor)"))
    drop_pod = next(i for i, u in enumerate(roster.units) if u.type == "Drop Pod")
    assert [(f.code, f.path) for f in checked(drop_pod, hover=True).findings] == [
        ("hover-not-allowed", ("units", drop_pod, "hover"))]
    # a Night Scythe is an Aircraft without Hover: one finding, not also 'not in Reserves'
    assert codes_of(wh40k_catalog, "  - {type: Overlord, warlord: true}\n  - {type: Night Scythe, hover: true}\n"
                    ) == ["hover-not-allowed"]
    # without Hover, Reserves is the one fix to name
    [scythe] = findings_of(wh40k_catalog, "  - {type: Overlord, warlord: true}\n  - {type: Night Scythe}\n")
    assert scythe.message == ("Night Scythe is an Aircraft and must start the battle in Reserves: "
                              "mark it `reserves: true`")


def test_diff_of_two_40k_rosters(bsdata, tmp_path, monkeypatch, capsys):
    """`diff` on a game whose entries are units (report/diff.py summary_diff): the Kroot cut from 20
    to 10 models (Carnivores 140 → 65 points, their Starting Strength and Below Half-strength with
    it) and the Pathfinders (90) dropped: 980 - 75 - 90 = 815; two Leaders on ten Kroot are illegal,
    and the second named, the War Shaper, stands alone (D9): 10 + 1 = 11 models, Below Half-strength
    at 5 or fewer."""
    from listbuilder.games.wh40k10.importing.installed import install
    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path))
    install(bsdata.catalog, bsdata.left_out)
    legal, changed = ROSTERS / "tau-empire" / "legal-kauyon.yaml", tmp_path / "resubmitted.yaml"
    changed.write_text(legal.read_text(encoding="utf-8").replace("models: 20", "models: 10")
                       .replace("  - type: Pathfinder Team\n    reserves: true\n", ""), encoding="utf-8")
    assert main(["diff", str(legal), str(changed)]) == 1
    leaders = "attached unit with #3 Kroot Trail Shaper and #4 Kroot War Shaper: Starting Strength"
    assert capsys.readouterr().out.splitlines() == [
        f"{legal} → {changed}",
        "~ #4 Kroot War Shaper: 50 pts → 50 pts",
        "    − leads #5 Kroot Carnivores",
        "~ #5 20 Kroot Carnivores → 10 Kroot Carnivores: 140 pts → 65 pts (-75)",
        "    − Starting Strength 20, Below Half-strength at 9 models or fewer; T 3, best Ld 7+",
        f"    − {leaders} 22, Below Half-strength at 10 models or fewer; attacks use T 3; best Ld 7+",
        "    + Starting Strength 10, Below Half-strength at 4 models or fewer; T 3, best Ld 7+",
        "    + attached unit with #3 Kroot Trail Shaper: Starting Strength 11, Below Half-strength at 5 models or "
        "fewer; attacks use T 3; best Ld 7+",
        "− #10 10 Pathfinder Team removed (90 pts)",
        "total: 980 → 815 points (-165); LEGAL → ILLEGAL"]
    assert main(["diff", str(legal), str(legal)]) == 0


def test_units_built_by_two_threads_at_once_are_those_built_one_after_another(wh40k_catalog):
    """The editor checks in a worker while its Add dialog may check on the UI thread; both build
    units in the army kept on the faction's engine data (engine_roster.BUILDING)."""
    from concurrent.futures import ThreadPoolExecutor

    from listbuilder.games.wh40k10.engine_roster import selection_tree
    from listbuilder.games.wh40k10.rules import find_faction

    catalog = Catalog(installed={"wh40k-10e": wh40k_catalog})
    rosters = [read_roster(ROSTERS / name, catalog, name).roster for name in sorted(EXPECTED)
               if name.startswith("space-marines/")]
    [faction] = find_faction(wh40k_catalog, "Space Marines")
    engine = wh40k_catalog.engine_data(faction)

    def units(roster):  # each unit of the tree: its entry and what is selected under it, by name
        tree = selection_tree(roster, wh40k_catalog, faction, engine)
        return sorted((u.option.name, sorted(s.option.name for s in u.walk())) for u in tree.units.values())

    engine.built.clear()
    alone = [units(r) for r in rosters]
    for _ in range(3):
        engine.built.clear()
        with ThreadPoolExecutor(4) as pool:
            assert list(pool.map(units, rosters * 2)) == alone * 2


@pytest.mark.parametrize("order", [("Power fist", "Plasma pistol"), ("Plasma pistol", "Power fist")])
def test_a_one_model_units_weapons_go_to_the_loadout_that_gives_them_together(wh40k_catalog, order):
    """D47: a Captain's power fist is offered in two of his loadouts, the plasma pistol in one; in
    either order both are carried, in that one, and nothing is said."""
    catalog = Catalog(installed={"wh40k-10e": wh40k_catalog})
    roster = read_roster(ROSTERS / "space-marines/legal-captain-weapons.yaml", catalog).roster
    captain = roster.units[0].model_copy(update={"wargear": dict.fromkeys(order, 1)})
    result = validate(roster.model_copy(update={"units": [captain, *roster.units[1:]]}), catalog)
    assert result.findings == []
    assert result.tree is not None
    carried = {s.option.name: s.parent.option.name for s in result.tree.units[0].walk() if s.parent is not None}
    assert carried["Plasma pistol"] == carried["Power fist"] == "Pistol and Melee Weapon"


def _loadout(unit) -> list[tuple[str, int, list[str]]]:
    """A unit's model selections in the engine's tree: kind, how many, the weapons they carry."""
    from listbuilder.games.wh40k10.engine_roster import unit_models
    return sorted((m.option.name, m.number, sorted(s.option.name for s in m.walk() if s is not m))
                  for m in unit_models(unit))


@pytest.mark.parametrize(("name", "index", "expected"), [
    ("space-marines/legal-wargear.yaml", 3, [  # the pyrecannon is no longer displaced by the heavy bolter
        ("Sternguard Veteran Sergeant", 1, ["Close combat weapon", "Sternguard Bolt Pistol", "Sternguard Bolt Rifle"]),
        ("Sternguard Veteran w/ Bolt Rifle", 7, ["Close combat weapon", "Sternguard Bolt Pistol",
                                                 "Sternguard Bolt Rifle"]),
        ("Sternguard Veteran w/ Special Weapon", 1, ["Close combat weapon", "Pyrecannon", "Sternguard Bolt Pistol"]),
        ("Sternguard Veteran w/ Special Weapon", 1, ["Close combat weapon", "Sternguard Bolt Pistol",
                                                     "Sternguard Heavy Bolter"])]),
    ("blood-angels/legal-death-company.yaml", 1, [  # inferno pistols beside power fists, as the data asks
        ("Death Company Marine", 5, ["Astartes Chainsword", "Heavy Bolt Pistol"]),
        ("Death Company Marine w/ alternate weapons", 1, ["Heavy Bolt Pistol", "Power fist"]),
        ("Death Company Marine w/ alternate weapons", 2, ["Eviscerator", "Plasma pistol"]),
        ("Death Company Marine w/ alternate weapons", 2, ["Inferno Pistol", "Power fist"])]),
    ("chaos-space-marines/legal-legionary-weapons.yaml", 1, [
        ("Aspiring Champion", 1, ["Bolt pistol", "Boltgun", "Close combat weapon"]),
        ("Legionary w/ boltgun", 7, ["Bolt pistol", "Boltgun", "Close combat weapon"]),
        ("Legionary w/ other weapon", 1, ["Bolt pistol", "Close combat weapon", "Heavy bolter"]),
        ("Legionary w/ other weapon", 1, ["Bolt pistol", "Close combat weapon", "Plasma gun"])]),
])
def test_every_weapon_a_unit_of_several_models_states_is_carried_where_the_data_allows(
        wh40k_catalog, name, index, expected):
    """D50: where one weapon placed after another took its place, the placements of them all on
    the unit's models are searched, and the first the engine finds breaking no rule is taken."""
    catalog = Catalog(installed={"wh40k-10e": wh40k_catalog})
    result = validate(read_roster(ROSTERS / name, catalog).roster, catalog)
    assert result.tree is not None
    assert _loadout(result.tree.units[index]) == expected


@pytest.mark.parametrize(("name", "line", "message"), [
    ("space-marines/illegal-sternguard-weapons.yaml", 16,
     "Sternguard Veteran Squad cannot carry Pyrecannon together with Sternguard Heavy Bolter as stated: no placement "
     "of them on its models that the data allows carries them all"),
    ("chaos-space-marines/illegal-legionary-weapons.yaml", 16,
     "Legionaries cannot carry Plasma gun together with Heavy bolter as stated: no placement of them on its models "
     "that the data allows carries them all")])
def test_weapons_no_placement_on_a_units_models_carries_are_one_finding_on_the_first(check, name, line, message):
    (finding,) = check(name).findings
    assert (finding.code, finding.path[-1], finding.location.line, finding.message) == (
        "data-wargear-alternatives", message.split(" cannot carry ")[1].split(" together")[0], line, message)
    assert finding.suggestion == ("state fewer of these weapons (or more models, where the datasheet allows more "
                                  "of them)")
    assert finding.rule.startswith("data: ") and "(revision 801555b)" in finding.rule


def test_a_kind_of_model_bringing_an_unstated_weapon_is_taken_last(wh40k_catalog):
    """D55: ten Khorne Berzerkers' two plasma pistols are carried by "w/ chainblade and plasma pistol"
    models, not by the data's first kind giving one, "w/ eviscerator and plasma pistol", whose
    eviscerators no one stated (Chaos - World Eaters.cat:3787-3820)."""
    result = checked(wh40k_catalog, "  - {type: Khârn the Betrayer, warlord: true}\n"
                                    "  - {type: Khorne Berzerkers, models: 10, wargear: {Plasma pistol: 2}}\n",
                     army="faction: World Eaters\ndetachment: Berzerker Warband\n")
    assert result.findings == [] and result.tree is not None
    assert ("Khorne Berzerker w/ chainblade and plasma pistol", 2, ["Chainblade", "Plasma pistol"]) in _loadout(
        result.tree.units[1])
    assert not any("eviscerator" in weapon for *_, weapons in _loadout(result.tree.units[1]) for weapon in weapons)


def test_the_kinds_of_model_a_roster_says_carry_a_weapon_carry_it(wh40k_catalog, check):
    """D56: the Champion's plasma pistol on the Champion, the rank and file's two and their two
    eviscerators on Berzerkers (which of them carry both the roster does not say: D55's order puts
    them together, on the data's first kind bringing no weapon no one stated), none of the data's
    limits broken; the same weapons by their numbers alone put all three plasma pistols on the rank
    and file, as D55 left it."""
    catalog = Catalog(installed={"wh40k-10e": wh40k_catalog})
    roster = read_roster(ROSTERS / "world-eaters/legal-berzerker-champion.yaml", catalog).roster
    result = validate(roster, catalog)
    assert result.findings == [] and result.tree is not None
    assert _loadout(result.tree.units[1]) == [
        ("Khorne Berzerker", 7, ["Bolt pistol", "Chainblade"]),
        ("Khorne Berzerker Champion", 1, ["Chainblade", "Plasma pistol"]),
        ("Khorne Berzerker w/ eviscerator and plasma pistol", 2, ["Khornate eviscerator", "Plasma pistol"])]
    counted = roster.units[1].model_copy(update={"carried_by": {}})
    alone = validate(roster.model_copy(update={"units": [roster.units[0], counted]}), catalog)
    assert [f.message for f in alone.findings if f.code == "data-error"] == [
        "Khornate eviscerator: Max 1 Khornate eviscerator per 5 models",
        "Plasma pistol: Max 1 plasma pistol per 5 models"]
    (finding,) = check("world-eaters/illegal-berzerker-pistols.yaml").findings
    assert (finding.code, finding.message, finding.location.line) == (
        "data-error", "Plasma pistol: Max 1 plasma pistol per 5 models", 14)
    assert "Chaos - World Eaters.cat:9846" in finding.rule


def test_kinds_of_model_the_datasheet_lacks_or_more_weapons_than_wargear_are_one_finding_each(wh40k_catalog):
    """D56: `carried_by` names kinds of model of the datasheet (or the name its kinds share before
    ' w/'), and gives a weapon to no more models than `wargear` does."""
    findings = findings_of(wh40k_catalog, "  - {type: Khârn the Betrayer, warlord: true}\n"
                                          "  - type: Khorne Berzerkers\n    models: 10\n"
                                          "    wargear: {Plasma pistol: 2}\n"
                                          "    carried_by: {Khorne Berzerker Chamion: {Plasma pistol: 1}, "
                                          "Khorne Berzerkers: {Plasma pistol: 2, Chainblade: 1}}\n",
                           army="faction: World Eaters\ndetachment: Berzerker Warband\n")
    assert [(f.code, f.path, f.message, f.suggestion) for f in findings] == [
        ("unknown-model-kind", ("units", 1, "carried_by", "Khorne Berzerker Chamion"),
         "Khorne Berzerkers has no kind of model 'Khorne Berzerker Chamion'",
         "did you mean 'Khorne Berzerker Champion'?"),
        ("carried-by-over-wargear", ("units", 1, "carried_by", "Khorne Berzerkers", "Chainblade"),
         "`carried_by` gives Chainblade to 1 model of Khorne Berzerkers, `wargear` to 0",
         "state every weapon in `wargear` with all the models carrying it: `Chainblade: 1`")]


def test_a_unit_whose_character_is_its_model_is_a_character(wh40k_catalog):
    """D54: Chaplain Grimaldus's CHARACTER and EPIC HERO are his model's categories in the data, not his
    unit's (Imperium - Black Templars.cat:33-40, 97-106): he may be the Warlord, and twice is one too many."""
    grimaldus = wh40k_catalog.unit_named(wh40k_catalog.faction("Black Templars"), "Chaplain Grimaldus")
    assert {"Character", "Epic Hero", "Infantry"} <= set(grimaldus.keywords)
    army = "faction: Black Templars\ndetachment: Wrathful Procession\n"
    warlord = "  - {type: Chaplain Grimaldus, warlord: true}\n"
    assert findings_of(wh40k_catalog, warlord, army) == []
    assert codes_of(wh40k_catalog, warlord + "  - {type: Chaplain Grimaldus}\n", army=army) == ["epic-hero-repeated"]


@pytest.mark.parametrize("faction", ["Space Marines", "Black Templars"])
def test_a_sergeants_power_weapon_beside_five_bolt_rifles_is_legal(wh40k_catalog, faction):
    """D50: the Intercessor Sergeant's power weapon is offered in place of his bolt rifle and in
    place of his close combat weapon; beside five bolt rifles it is the second (the `-m slow`
    loadout sweep found the first taken, and no placement of the search carrying all)."""
    squad = "  - {type: Intercessor Squad, models: 5, wargear: {Power weapon: 1, Bolt Rifle: 5}}\n"
    result = checked(wh40k_catalog, "  - {type: Captain, warlord: true}\n" + squad,
                     army=f"faction: {faction}\ndetachment: Gladius Task Force\n")
    assert result.findings == [] and result.tree is not None
    assert ("Intercessor Sergeant", 1, ["Bolt Rifle", "Bolt pistol", "Power weapon"]) in _loadout(result.tree.units[1])


def test_every_model_of_a_kind_may_take_another_kinds_weapon(wh40k_catalog):
    """D50: twenty Necron Warriors with gauss reapers are twenty "Warrior w/ gauss reaper" models
    (the weapons placed one by one kept one with a flayer)."""
    result = checked(wh40k_catalog, "  - {type: Overlord, warlord: true}\n"
                                    "  - {type: Necron Warriors, models: 20, wargear: {Gauss reaper: 20}}\n")
    assert result.findings == [] and result.tree is not None
    assert _loadout(result.tree.units[1]) == [("Warrior w/ gauss reaper", 20, ["Close combat weapon", "Gauss reaper"])]


def test_three_weapons_where_two_fit_are_one_finding_naming_all_three(wh40k_catalog):
    """D50: ten Legionaries may have two "other weapon" models, not three: one finding, on the first."""
    catalog = Catalog(installed={"wh40k-10e": wh40k_catalog})
    roster = read_roster(ROSTERS / "chaos-space-marines/legal-legionary-weapons.yaml", catalog).roster
    squad = roster.units[1].model_copy(update={"wargear": {"Plasma gun": 1, "Lascannon": 1, "Heavy bolter": 1}})
    (finding,) = validate(roster.model_copy(update={"units": [roster.units[0], squad]}), catalog).findings
    assert finding.path == ("units", 1, "wargear", "Plasma gun")
    assert finding.message.startswith("Legionaries cannot carry Plasma gun together with Lascannon and Heavy bolter ")


def test_a_weapon_the_data_offers_only_instead_of_another_is_one_finding_on_it(check):
    (finding,) = check("space-marines/illegal-captain-weapons.yaml").findings
    assert finding.code == "data-wargear-alternatives"
    assert finding.path == ("units", 0, "wargear", "Plasma pistol")
    assert finding.message == ("Captain cannot take Plasma pistol together with Master-crafted bolter: "
                               "the data offers them as alternatives")
    assert finding.rule.startswith("data: Imperium - Space Marines.cat:") and finding.location.line == 13


def test_warlord_findings_say_which_units_may_be_the_warlord(wh40k_catalog):
    """Two Warlords, one not a Character: each finding names the units to choose from, as the report
    numbers them."""
    found = {f.code: f.suggestion for f in findings_of(
        wh40k_catalog, "  - {type: Overlord, warlord: true}\n  - {type: Necron Warriors, warlord: true}\n"
                       "  - {type: Royal Warden}\n")}
    assert found == {"several-warlords": "keep `warlord: true` on one of #1 Overlord, #2 Necron Warriors",
                     "warlord-not-character": "make one of #1 Overlord, #3 Royal Warden the Warlord"}
    alone = {f.code: f.suggestion for f in findings_of(wh40k_catalog, "  - {type: Necron Warriors, warlord: true}\n")}
    assert alone["warlord-not-character"] == "make a Character the Warlord"


def test_houndpack_lance_characters_are_the_players_three(check, wh40k_catalog):
    """D57, D58: a War Dog is no Character until the player makes it one of the three; the one made
    so may be the Warlord and take an Enhancement, another may not; a fourth, or a third missing, is
    the data's one finding."""
    legal = check("chaos-knights/legal-houndpack-lance.yaml")
    assert legal.tree is not None
    assert [legal.tree.has_keyword(i, "Character") for i in range(3)] == [True] * 3
    assert [s.option.name for s in legal.tree.units[0].children if s.option.name.startswith("Houndpack")] == [
        "Houndpack Lance Character"]
    fourth, enhancement = check("chaos-knights/illegal-houndpack-lance.yaml").findings[::-1]
    assert (fourth.message, fourth.path) == ("Houndpack Lance Character: at most 3 selections in the force, 4 taken",
                                            ("units", 0, "options", 0))
    assert fourth.rule.startswith("data: Chaos - Chaos Knights Library.cat:6267 (revision 801555b)")
    assert (enhancement.message, enhancement.location.line) == (
        "War Dog Karnivore is not a Character and cannot take Final Howl (Aura)", 16)
    army = "faction: Chaos Knights\ndetachment: Houndpack Lance\n"
    chosen = "  - {type: War Dog Brigand, options: [Houndpack Lance Character]}\n"
    [warlord] = findings_of(wh40k_catalog, chosen * 3 + "  - {type: War Dog Executioner, warlord: true}\n", army)
    assert (warlord.code, warlord.path) == ("warlord-not-character", ("units", 3, "warlord"))
    assert "data: Chaos - Chaos Knights Library.cat:" in warlord.rule  # the data hides its Warlord: one finding
    leader = "  - {type: War Dog Brigand, options: [Houndpack Lance Character], warlord: true}\n"
    [two] = findings_of(wh40k_catalog, leader + chosen + "  - {type: War Dog Executioner}\n", army)
    assert (two.code, two.message, two.path) == (  # the army's, not also on a War Dog's choice
        "data-constraint", "Houndpack Lance Character: at least 3 selections in the force, 2 taken", ("units",))


def test_an_enhancement_two_detachments_name_alike_is_the_detachments(wh40k_catalog):
    """D60: Deathwing Assault is an Enhancement of Inner Circle Task Force (30 points, Imperium -
    Space Marines.cat:40791) and of Wrath of the Rock (15 points, line 41828); a Chaplain in
    Terminator Armour of a Wrath of the Rock army takes the second, shown to him."""
    result = checked(wh40k_catalog, "  - {type: Chaplain in Terminator Armour, warlord: true, "
                                    "enhancement: Deathwing Assault}\n",
                     army="faction: Dark Angels\ndetachment: Wrath of the Rock\n")
    assert result.findings == [] and result.total == 90 and result.tree is not None
    [enhancement] = [s for s in result.tree.units[0].walk() if s.option.name == "Deathwing Assault"]
    assert enhancement.option.group is not None and enhancement.option.group.name == "Wrath of the Rock Enhancements"


def test_a_commanders_own_missile_pods_are_not_a_drones(wh40k_catalog):
    """D60: a Commander in Enforcer Battlesuit's missile pod is his Support Systems' (T'au
    Empire.cat:841), not the one a Missile Drone of his Drones group carries."""
    result = checked(wh40k_catalog, "  - {type: Commander in Enforcer Battlesuit, warlord: true, "
                                    "wargear: {Missile pod: 1}}\n",
                     army="faction: T'au Empire\ndetachment: Kauyon\n")
    assert result.findings == [] and result.tree is not None
    assert "Missile Drone" not in [s.option.name for s in result.tree.units[0].walk()]


def test_a_one_model_unit_carries_as_many_of_a_weapon_as_stated(wh40k_catalog):
    """D63: a Deff Dread takes four weapons and has none by default (Orks.cat:4118-4190): two
    klaws and two big shootas are legal, one of each is the data's "at least 4"; a Commander's
    four fusion blasters put his default weapon aside; a Riptide's two missile pods are two
    Missile Drones (T'au Empire.cat:7093); a Forgefiend's three ectoplasma cannons come from its
    arms and its head; a Captain's two plasma pistols are one finding, the
    data's one."""
    orks = "faction: Orks\ndetachment: War Horde\n"
    warboss = "  - {type: Warboss, warlord: true}\n"
    dread = warboss + "  - {type: Deff Dread, wargear: {Dread klaw: 2, Big shoota: 2}}\n"
    result = checked(wh40k_catalog, dread, army=orks)
    assert result.findings == [] and result.tree is not None
    assert sorted((s.option.name, s.number) for s in result.tree.units[1].children if "Stompy" not in s.option.name) \
        == [("Big shoota", 2), ("Dread klaw", 2)]
    [short] = findings_of(wh40k_catalog, warboss + "  - {type: Deff Dread, wargear: {Dread klaw: 1, Big shoota: 1}}\n",
                          army=orks)
    assert short.message == "Wargear Options: at least 4 selections in Deff Dread, 2 taken"
    tau = checked(wh40k_catalog, "  - {type: Commander in Coldstar Battlesuit, warlord: true, "
                                 "wargear: {Fusion blaster: 4}}\n  - {type: Riptide Battlesuit, "
                                 "wargear: {Missile pod: 2}}\n", army="faction: T'au Empire\ndetachment: Kauyon\n")
    assert tau.findings == [] and tau.tree is not None
    assert [(s.option.name, s.number) for s in tau.tree.units[0].walk() if "blaster" in s.option.name
            or "burst" in s.option.name] == [("Fusion blaster", 4)]
    assert [(s.option.name, s.number) for s in tau.tree.units[1].walk() if s.option.name == "Missile Drone"] == [
        ("Missile Drone", 2)]
    from listbuilder.games.wh40k10.engine_roster import held
    fiend = checked(wh40k_catalog, "  - {type: Chaos Lord, warlord: true}\n  - {type: Forgefiend, wargear: "
                                   "{Ectoplasma cannon: 3}}\n",  # its arms' two and its head's one
                    army="faction: Chaos Space Marines\ndetachment: Veterans of the Long War\n")
    assert fiend.findings == [] and fiend.tree is not None and held(fiend.tree.units[1], "Ectoplasma cannon") == 3
    [pistols] = findings_of(wh40k_catalog, "  - {type: Captain, warlord: true, wargear: {Plasma pistol: 2, "
                                           "Power fist: 1}}\n",
                            army="faction: Space Marines\ndetachment: Gladius Task Force\n")
    assert (pistols.code, pistols.path, pistols.message, pistols.suggestion) == (
        "data-wargear-count", ("units", 0, "wargear", "Plasma pistol"),
        "Captain cannot carry as many Plasma pistol as stated: the data lets it hold 1", "state `Plasma pistol: 1`")


def test_a_hidden_enhancement_says_whom_it_is_for(check):
    """D62: the data hides Dimensional Sanctum on a bearer that is not a Cryptek; the finding says
    so, as the data's Enhancement states it."""
    [finding] = [f for f in check("necrons/illegal-dimensional-sanctum.yaml").findings if f.code == "data-hidden"]
    assert finding.message == "Dimensional Sanctum is hidden and may not be taken"
    assert finding.suggestion == ("Dimensional Sanctum: CRYPTEK model only; give it to such a Character, or take "
                                  "another Enhancement")

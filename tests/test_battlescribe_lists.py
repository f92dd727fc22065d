"""40k BattleScribe and New Recruit rosters (.ros, .rosz) as those tools write them
(tests/wh40k-lists/real/battlescribe/, SOURCES.md), imported against the BSData fixture: army-wide
configuration kept aside, counts the data no longer allows, every model's weapons, the Enhancement
and Warlord, Legends names (DECISIONS.md D27, D28)."""

import io
import re
import zipfile
from collections import Counter
from pathlib import Path

import pytest

from listbuilder.battlescribe.importing.roster_xml import read_roster_xml
from listbuilder.core.findings import LoadFailure
from listbuilder.core.names import name_key
from listbuilder.games.wh40k10.catalog import weapon_name
from listbuilder.games.wh40k10.lists import default_loadout, named
from listbuilder.games.wh40k10.loadout import unit_gear
from listbuilder.games.wh40k10.rules import find_faction
from listbuilder.listengine.catalog import Catalog
from listbuilder.rosters.batch import check_file
from listbuilder.rosters.lists import read_list

REAL = Path(__file__).resolve().parent / "wh40k-lists" / "real" / "battlescribe"
SOURCES = REAL / "SOURCES.md"


@pytest.fixture(scope="module")
def catalog(bsdata):
    return Catalog(installed={"wh40k-10e": bsdata.catalog})


def samples() -> list[str]:
    return sorted(p.name for p in REAL.iterdir() if p.suffix in (".ros", ".rosz"))


def ros_bytes(name: str) -> bytes:
    data = (REAL / name).read_bytes()
    if name.endswith(".rosz"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            [member] = archive.namelist()
            return archive.read(member)
    return data


def units(imported):
    return [(u.type, u.models, u.enhancement, u.warlord) for u in imported.roster.units]


def found(findings):
    return [(f.code, f.location.line) for f in findings]


# name -> (faction, battle size, detachment, units as (type, models, enhancement, warlord),
#          import findings as (code, line), the check's own codes after them)
EXPECTED = {
    "bs-tau-kauyon-old-stealth.ros": (
        "T'au Empire", "Strike Force", "Kauyon",
        [("Cadre Fireblade", None, "Exemplar of the Kauyon", True), ("Stealth Battlesuits", 3, None, False),
         ("Strike Team", None, None, False)],
        [("list-total-differs", 4), ("list-other-revision", 10), ("list-configuration", 42),
         ("list-wargear-unplaced", 126)],
        ["model-count"]),
    "nr-daemons-khorne-visible.rosz": (
        "Chaos Daemons", "Incursion", "Daemonic Incursion",
        [("Bloodmaster", None, "Soulstealer", True), ("Bloodletters", None, None, False),
         ("Flesh Hounds", 5, None, False)],
        [("list-configuration", 42)],  # the Flesh Hounds' Collars of Khorne are their default: not set aside (D46)
        ["data-hidden"]),  # Soulstealer is an Enhancement of SLAANESH models only: the data hides it on a Bloodmaster
    "nr-thousand-sons-rituals.ros": (
        "Thousand Sons", "Strike Force", "Hexwarp Thrallband",
        [("Exalted Sorcerer", None, "Arcane Might", True), ("Rubric Marines", 5, None, False),
         ("Tzaangors", 10, None, False)],
        [("list-configuration", 42)],  # no unit's Great Cult is in the file: a Crusade choice, which the data
        []),  # hides outside a Crusade army, and with it the minimum it puts on it (D44)
    "bs-aeldari-skyrunner-legends.ros": (
        "Aeldari", "Strike Force", "Warhost",
        [("Autarch Skyrunner [Legends]", None, None, False), ("Farseer", None, "Phoenix Gem", True),
         ("Guardian Defenders", None, None, False)],
        [("list-other-revision", 10), ("list-configuration", 42), ("list-legends", 50)], []),
    "bs-necrons-awakened.rosz": (
        "Necrons", "Incursion", "Awakened Dynasty",
        [("Overlord", None, "Veil of Darkness", True), ("Royal Warden", None, None, False),
         ("Necron Warriors", 10, None, False)],
        [], []),
    "nr-space-marines-gladius.ros": (
        "Space Marines", "Strike Force", "Gladius Task Force",
        [("Captain", None, "Artificer Armour", True), ("Lieutenant", None, None, False),
         ("Intercessor Squad", 10, None, False)],
        [("list-configuration", 42)], []),  # the Captain's Storm shield, a choice with no weapon profile, is an option
}


def test_every_sample_is_expected_and_has_its_source():
    assert samples() == sorted(EXPECTED)
    sources = SOURCES.read_text(encoding="utf-8")
    assert all(f"| {name} |" in sources for name in samples())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_imports(catalog, name):
    faction, size, detachment, expected_units, notes, codes = EXPECTED[name]
    imported = read_list(REAL / name, catalog, name)
    roster = imported.roster
    assert (roster.faction, roster.battle_size, roster.detachment) == (faction, size, detachment)
    assert units(imported) == expected_units
    assert found(imported.findings) == notes
    result = check_file(REAL / name, catalog, name)
    assert sorted(f.code for f in result.findings) == sorted([code for code, _ in notes] + codes)
    assert all(f.location.file == name and f.location.line for f in result.findings)
    assert result.valid == (not codes)


def test_configuration_is_kept_aside_not_units(catalog):
    """'Khorne Daemons are visible' is an army-wide setting (the data's Configuration category):
    one warning names it with its line; Battle Size and Detachment are read from theirs."""
    imported = read_list(REAL / "nr-daemons-khorne-visible.rosz", catalog)
    [note] = [f for f in imported.findings if f.code == "list-configuration"]
    assert note.message == "the list's configuration, kept aside (not units): Khorne Daemons are visible (line 42)"
    assert note.severity == "warning"
    assert "Khorne Daemons are visible" not in [u.type for u in imported.roster.units]


def test_a_selection_that_is_no_unit_nor_configuration_is_an_error_at_its_line(catalog, tmp_path):
    ros = ros_bytes("nr-thousand-sons-rituals.ros").decode()
    ros = ros.replace('name="Configuration" entryId="4ac9-fd30-1e3d-b249" primary="true"',
                      'name="Reference" entryId="eef1-be80-500a-edfc" primary="true"')
    (tmp_path / "list.ros").write_text(ros, encoding="utf-8")
    findings = read_list(tmp_path / "list.ros", catalog).findings
    # Battle Size and Detachment are still read by name; "Rituals reference" is now nothing known
    assert [(f.code, f.severity, f.location.line) for f in findings] == [("list-line-unread", "error", 42)]
    assert "Rituals reference" in findings[0].message


def test_a_count_the_data_no_longer_allows_stays_and_the_check_says_so(catalog):
    """D27: 3 Stealth Battlesuits at 60 pts, where the data has only 5 at 100: kept at 3, the
    check's model-count error at the unit's line, and the total compared with the unit at 100."""
    name = "bs-tau-kauyon-old-stealth.ros"
    imported = read_list(REAL / name, catalog, name)
    stealth = imported.roster.units[1]
    assert (stealth.type, stealth.models) == ("Stealth Battlesuits", 3)
    assert "list-points-differ" not in [f.code for f in imported.findings]
    [total] = [f for f in imported.findings if f.code == "list-total-differs"]
    assert total.message == "the list says a total of 200 points, the data of 801555b says 240"  # 70 + 100 + 70
    [count] = [f for f in check_file(REAL / name, catalog, name).findings if f.code == "model-count"]
    assert (count.message, count.location.line) == (
        "Stealth Battlesuits cannot have 3 models (it may have 5 (100 pts))", 124)


def test_weapons_are_carried_with_their_carriers(catalog):
    """D28, D32: every weapon a roster states outside the loadout the unit's models must start with,
    with how many models carry it, named as the datasheet names it; the Captain's weapons come from
    under an option that is not itself a weapon."""
    roster = read_list(REAL / "nr-space-marines-gladius.ros", catalog).roster
    captain, lieutenant, squad = roster.units
    assert captain.wargear == {}  # his default loadout, which his choice's default option gives
    assert lieutenant.wargear == {"Plasma pistol": 1, "Power fist": 1}
    assert squad.wargear == {"Power fist": 1, "Astartes grenade launcher": 2}  # bolt rifles, pistols: defaults


def test_a_weapon_the_data_limits_is_found_at_its_line(catalog, tmp_path):
    """Three grenade launchers in ten Intercessors (the data allows two), on three launcher models
    (a weapon's number is its model selection's, D56): the check's finding is at the line of the
    launcher's selection."""
    lines = ros_bytes("nr-space-marines-gladius.ros").decode().splitlines()
    for name, before, after in (("Intercessor w/ Grenade Launcher", 2, 3), ("Astartes grenade launcher", 2, 3),
                                ("Intercessor", 7, 6)):
        at = next(i for i, line in enumerate(lines) if f'name="{name}"' in line)
        lines[at] = lines[at].replace(f'number="{before}"', f'number="{after}"')
    launcher = next(i for i, line in enumerate(lines) if 'name="Astartes grenade launcher"' in line)
    (tmp_path / "list.ros").write_text("\n".join(lines), encoding="utf-8")
    result = check_file(tmp_path / "list.ros", catalog, "list.ros")
    [limit] = [f for f in result.findings if f.code == "wargear-not-allowed"]
    assert "3 models of Intercessor Squad carry Astartes grenade launcher" in limit.message
    assert limit.location.line == launcher + 1


def test_wargear_the_data_gives_by_default_is_neither_set_aside_nor_an_option(catalog):
    """D46: the Flesh Hounds' Collar of Khorne, wargear with no weapon profile, is theirs by default:
    what the data gives the unit anyway is not carried into the roster, nor reported as set aside."""
    imported = read_list(REAL / "nr-daemons-khorne-visible.rosz", catalog)
    hounds = next(u for u in imported.roster.units if u.type == "Flesh Hounds")
    assert (hounds.wargear, hounds.options) == ({}, [])
    assert [f for f in imported.findings if f.code == "list-wargear-unplaced"] == []


def test_a_unit_the_data_now_names_legends_is_matched_and_said_to_be(catalog):
    imported = read_list(REAL / "bs-aeldari-skyrunner-legends.ros", catalog)
    [legends] = [f for f in imported.findings if f.code == "list-legends"]
    assert legends.message == ("'Autarch Skyrunner' is the Legends datasheet Autarch Skyrunner [Legends] in the data "
                               "of 801555b")
    assert imported.roster.units[0].wargear == {}  # its Laser Lance and Twin Shuriken Catapult are its defaults (D46)


def test_legends_marks_are_matched_both_ways():
    assert named("Autarch Skyrunner", ["Autarch", "Autarch Skyrunner [Legends]"]) == "Autarch Skyrunner [Legends]"
    assert named("Farseer [Legends]", ["Farseer", "Farseer Skyrunner"]) == "Farseer"
    assert named("autarch skyrunners", ["Autarch Skyrunner [Legends]"]) == "Autarch Skyrunner [Legends]"
    assert named("Skyrunner", ["Autarch Skyrunner [Legends]"]) is None


def test_units_in_a_force_within_the_force_are_read(catalog, tmp_path):
    """An allied or sub-force is a <force> inside the army's: its units are the list's too."""
    ros = ros_bytes("bs-necrons-awakened.rosz").decode()
    start = ros.rindex("\n", 0, ros.index('name="Necron Warriors"')) + 1  # the last unit: moved into a force
    end = ros.index("\n      </selections>\n      <categories>")
    nested = ('      <forces>\n        <force id="f2" name="Army Roster" entryId="e2" catalogueId="b654-a18a-ea1-3bf2" '
              'catalogueName="Xenos - Necrons">\n          <selections>\n' + ros[start:end] +
              '\n          </selections>\n        </force>\n      </forces>')
    ros = ros[:start].rstrip() + "\n" + ros[end:].replace("</categories>\n", "</categories>\n" + nested + "\n", 1)
    assert 'name="Necron Warriors"' in ros[ros.index('<force id="f2"'):]
    (tmp_path / "list.ros").write_text(ros, encoding="utf-8")
    assert units(read_list(tmp_path / "list.ros", catalog)) == EXPECTED["bs-necrons-awakened.rosz"][3]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_reading_keeps_every_model_weapon_and_enhancement(catalog, name):
    """The round trip's reading side: what the roster file holds, read by the game-neutral roster
    reader, is all in the imported roster: each unit, its models, each weapon with its carriers
    (but for the loadout the unit's models must start with, D28, D32, and what the data gives the
    unit by default, D46) and each Enhancement."""
    imported = read_list(REAL / name, catalog, name)
    roster = imported.roster
    data = catalog.installed["wh40k-10e"]
    [force] = read_roster_xml(ros_bytes(name))["forces"]
    stated = [s for s in force["selections"] if s.get("type") in ("unit", "model")]
    assert len(stated) == len(roster.units)
    for selection, unit in zip(stated, roster.units, strict=True):
        assert named(selection["name"], [unit.type]) == unit.type
        inner = list(_tree(selection))
        models = sum(int(s.get("number", 1)) for s in inner if s.get("type") == "model")
        fewest = next(u for u in data.units.values() if u.name == unit.type).min_models
        assert (unit.models or fewest) == models
        weapons: Counter[str] = Counter()
        for s in inner:
            for weapon in dict.fromkeys(weapon_name(p["name"]) for p in s.get("profiles", ())
                                        if p.get("typeName") in ("Ranged Weapons", "Melee Weapons")):
                weapons[weapon] += int(s.get("number", 1))
        faction = find_faction(data, roster.faction)[0]
        datasheet = data.unit_named(faction, unit.type)
        defaults = {name_key(w) for w in default_loadout(datasheet)}
        given = unit_gear(data, faction, roster.model_copy(update={"units": []}), datasheet, models, {})
        carried = {w: n if models == 1 else min(n, models) for w, n in weapons.items()}  # D63: one model's own count
        assert unit.wargear == {w: n for w, n in carried.items()  # D32, D46, D59
                                if (name_key(w) not in defaults or name_key(w) in given.unchosen)
                                and n > given.carried.get(name_key(w), 0)}
        enhancements = [s["name"] for s in inner if s["name"] in _enhancements(data)]
        assert enhancements == ([unit.enhancement] if unit.enhancement else [])


def _tree(selection):
    yield selection
    for inner in selection.get("selections", ()):
        yield from _tree(inner)


def _enhancements(data) -> set[str]:
    return {e.name for f in data.factions for d in f.detachments for e in d.enhancements}


def test_figures(catalog, capsys):
    """Every sample imported whole (no line of it unplaced); before D28 (main at 743b55e) 1 whole,
    5 partly (each configuration selection an unplaced line), 0 refused (SOURCES.md)."""
    figures: Counter[str] = Counter()
    for name in samples():
        try:
            imported = read_list(REAL / name, catalog, name)
        except LoadFailure:
            figures["refused"] += 1
            continue
        figures["partly" if any(f.severity == "error" for f in imported.findings) else "whole"] += 1
    with capsys.disabled():
        print(f"\nBattleScribe rosters: {figures['whole']} whole, {figures['partly']} partly, "
              f"{figures['refused']} refused")
    assert figures == Counter(whole=len(EXPECTED))
    assert re.search(rf"after, {len(EXPECTED)} / 0 / 0", SOURCES.read_text(encoding="utf-8"))

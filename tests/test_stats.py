"""`listbuilder stats`: the field's statistics over a folder of rosters of the three games, each
figure summed by hand from the roster files and the data.

Epic Armageddon (lists/epic-armageddon/*.yaml prices; datasheets/epic-armageddon/ types):
- codex-astartes/legal-allies.yaml, 1,660 points, 5 activations: Tactical 300 + Supreme Commander
  100 = 400 and Devastator 250 + 1 Land Raider 85 + 1 Razorback 25 = 360 are "other"; Warhound
  Titans x2 500 (titan-legions), Thunderbolt Fighters 150 and Marauder Bombers 250 (imperial-navy)
  are allies: 900. Units: 6 Tactical + 3 Rhinos (the free Space Marine Transports) and 4
  Devastators + Land Raider + Razorback + 1 Rhino = 16 other; 2 Warhounds + 2 + 2 aircraft = 6 allies.
- codex-astartes/legal-5000-war-engines.yaml, 4,320 points, 9 activations: the Landing Craft
  (WE/AC) 375 is aircraft, 1 unit; the Warlord 850 and Reaver 650 Titans allies, 1,500, 2 units;
  the rest other: Terminator 350+170+50, Predators 275+75, Whirlwind 300+75, Assault 175+150,
  Vindicator 275+50, Land Raider 350+75+75 = 2,445, 32 units.
- steel-legion/legal-super-heavies.yaml, 3,300 points, 8 activations: Super-Heavy Tank Company
  500 + Flak 50 + Hellhound Squadron 150 + Griffon Battery 100 = 800 (3 super-heavies + 1 Hydra + 3
  Hellhounds + 3 Griffons) and the Super-Heavy Tank Platoon 200 (1) are war engines: 1,000, 11
  units; Reaver Titan 650 + Marauder Bombers 250 allies: 900, 3 units; Artillery Company 650 (9),
  Deathstrike 200 (2), Vultures 300 (4), Artillery Battery 250 (3) other: 1,400, 18 units.
- codex-astartes/legal-tactical-rhinos-and-foot.yaml, 1,150 points, 3 activations: three Tactical
  formations (300; 300 + 2 Dreadnoughts 100; 300 + 6 Razorbacks 150), all other; 9 + 8 + 12 = 29 units.
So: war engines 1,000, aircraft 375, spacecraft 0, allies 900 + 1,500 + 900 = 3,300, other 760 +
2,445 + 1,400 + 1,150 = 5,755 (10,430 in all); units 11, 1, 0, 6 + 2 + 3 = 11, 16 + 32 + 18 + 29 = 95.
Codex Astartes' Tactical: 2 lists, 1 + 3 = 4 copies.

Epic Remastered: tests/epic-remastered-rosters/imperium.yaml, twice (the core samples give no
points): Infantry and Vehicle units 1 + 6 + 4 + 2 = 13, War Engine units 2 + 1 + 1 + 2 = 6, each
time: 26 and 12; Imperial Warhound Titans 2 lists, 2 copies.

40k (the BSData fixture, 801555b; tests/test_wh40k_rosters.py works out the same points):
- space-marines/legal-gladius.yaml, 1,195 points: Battleline Tactical Squad 140 + Intercessor
  Squad 160 = 300; Characters Captain 80 + Artificer Armour 10, Lieutenant 55 + The Honour Vehement
  15, Apothecary 50 = 210; Dedicated Transports Rhino 75 + Drop Pod 70 = 145; other Terminators 170,
  Stormraven 280, Infernus Squad 90 = 540. Models 1+10+1+10+1+1+5+1+1+5 = 36; wounds (W of each
  model): 5 + 10x2 + 10 + 10x2 + 4 + 4 + 5x3 + 14 + 8 + 5x2 = 110.
- space-marines/legal-vindicare.yaml, 355 points: Captain 80 (Characters), Vindicare Assassin 110 + 15
  as an ally (Agents of the Imperium: allies; the data's surcharge), Drop Pod 70 (no Faction keyword:
  the army's; Dedicated Transports), 5 Intercessors 80 (Battleline). Models 8; wounds 5 + 4 + 8 + 5x2 = 27.
So: Battleline 380, Characters 290, Dedicated Transports 215, allies 125, other 540 (1,550).
"""

import csv
import dataclasses
import io
import json
import shutil
from pathlib import Path

import pytest

from listbuilder.cli import main
from listbuilder.games import field_facts, game_name, known_games
from listbuilder.games.wh40k10.facts import wounds
from listbuilder.report.folder import check_all
from listbuilder.report.stats import field_stats, stats_report
from listbuilder.report.submissions import Provenance
from listbuilder.rosters.batch import roster_files

TESTS = Path(__file__).resolve().parent
EPIC = ["codex-astartes/legal-allies.yaml", "codex-astartes/legal-5000-war-engines.yaml",
        "steel-legion/legal-super-heavies.yaml", "codex-astartes/legal-tactical-rhinos-and-foot.yaml"]
WH40K = ["space-marines/legal-gladius.yaml", "space-marines/legal-vindicare.yaml"]


def epic_folder(folder: Path) -> Path:
    for name in EPIC:
        target = folder / "epic" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(TESTS / "rosters" / name, target)
    (folder / "er").mkdir()
    for name in ("imperium.yaml", "imperium-again.yaml"):
        shutil.copy(TESTS / "epic-remastered-rosters" / "imperium.yaml", folder / "er" / name)
    return folder


@pytest.fixture(scope="module")
def field(catalog, bsdata, tmp_path_factory):
    """The statistics of the folder of the three games (the 40k rosters checked against the fixture)."""
    folder = epic_folder(tmp_path_factory.mktemp("field"))
    for name in WH40K:
        target = folder / "40k" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(TESTS / "wh40k-rosters" / name, target)
    every = dataclasses.replace(catalog, installed={"wh40k-10e": bsdata.catalog})
    items, skipped, _ = roster_files([str(folder)])
    submissions = list(check_all(items, every, None, "stats", jobs=1))
    names = {game: game_name(every, game) for game in known_games(every)}
    return field_stats(submissions, skipped, Provenance("test", "data"), names)


def game(stats, game_id):
    return next(g for g in stats["games"] if g["game"] == game_id)


def by_category(g, what="points"):
    return {c["category"]: c[what] for c in g["categories"]}


def entry(g, name):
    return next((e["lists"], e["copies"]) for e in g["entries"] if e["entry"] == name)


def test_epic_armageddon_points_units_and_formations_as_summed_by_hand(field):
    epic = game(field, "epic-armageddon")
    assert epic["lists"] == 4 and epic["name"] == "Epic Armageddon"
    assert by_category(epic) == {"war engines": 1000, "aircraft": 375, "spacecraft": 0, "allies": 3300, "other": 5755}
    assert epic["points_total"] == 10430
    assert by_category(epic, "units") == {"war engines": 11, "aircraft": 1, "spacecraft": 0, "allies": 11,
                                          "other": 95}
    assert entry(epic, "Tactical") == (2, 4)
    assert entry(epic, "Reaver Titan (Titan Legions)") == (1, 1)  # one list of each army
    rows = {Path(r["file"]).name: (r["points"], r["units"], r["activations"]) for r in epic["rosters"]}
    assert rows == {"legal-allies.yaml": (1660, 22, 5), "legal-5000-war-engines.yaml": (4320, 35, 9),
                    "legal-super-heavies.yaml": (3300, 32, 8), "legal-tactical-rhinos-and-foot.yaml": (1150, 29, 3)}
    assert [a["army"] for a in epic["armies"]] == ["Space Marines – Codex Astartes", "Imperial Guard – Steel Legion"]
    assert [a["lists"] for a in epic["armies"]] == [3, 1]


def test_epic_remastered_units_by_detachment_kind(field):
    er = game(field, "epic-remastered")
    assert er["lists"] == 2 and er["points_total"] == 0
    assert by_category(er, "units") == {"Infantry and Vehicle": 26, "War Engine": 12, "Flyer": 0, "other": 0}
    assert entry(er, "Imperial Warhound Titans") == (2, 2)
    assert er["entry_kind"] == "detachment list"


def test_40k_points_by_category_models_and_wounds(field):
    wh = game(field, "wh40k-10e")
    assert by_category(wh) == {"Battleline": 380, "Characters": 290, "Dedicated Transports": 215, "allies": 125,
                               "other": 540}
    rows = {Path(r["file"]).name: (r["points"], r["models"], r["wounds"]) for r in wh["rosters"]}
    assert rows == {"legal-gladius.yaml": (1195, 36, 110), "legal-vindicare.yaml": (355, 8, 27)}
    assert entry(wh, "Captain") == (2, 2) and entry(wh, "Tactical Squad") == (1, 1)
    assert wh["armies"] == [{"army": "Space Marines", "lists": 2,
                             "detachments": [{"detachment": "Gladius Task Force", "lists": 2}]}]
    assert field["lists"] == 8 and not field["not_counted"]


def test_wounds_of_units_whose_models_differ(bsdata):
    """D36: Boyz, a Boss Nob (W2, one to a unit) and Boys (W1): 10 models are 2 + 9 = 11 wounds;
    Dark Reapers, an Exarch (W2) and Dark Reapers (W1): 5 models are 2 + 4 = 6; the Silent King,
    Szarekh (W16) and two Triarchal Menhirs (W5): 16 + 10 = 26."""
    units = {u.name: u for u in bsdata.catalog.units.values()}
    assert wounds(units["Boyz"], 10) == 11
    assert wounds(units["Dark Reapers"], 5) == 6
    assert wounds(units["The Silent King"], 3) == 26


def test_each_form_says_the_same(field):
    text = stats_report("text", field)
    assert "Warhammer 40,000 10th edition: 2 lists" in text
    assert "      380   24.5%       25  Battleline" in text  # 380 of 1,550; 10 Tacticals, 10 + 5 Intercessors
    data = json.loads(stats_report("json", field))
    assert data == json.loads(json.dumps(field)) and stats_report("json", field) == stats_report("json", field)
    document = stats_report("csv", field)
    assert document.startswith("\ufeff")
    rows = list(csv.DictReader(io.StringIO(document[1:])))
    battleline = next(r for r in rows if r["table"] == "category" and r["name"] == "Battleline")
    assert (battleline["points"], battleline["share"], battleline["models or units"]) == ("380", "24.5", "25")
    tactical = next(r for r in rows if r["table"] == "formation" and r["name"] == "Tactical")
    assert (tactical["lists"], tactical["copies"]) == ("2", "4")
    page = stats_report("html", field)
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    assert '<span class="bar" style="width: 100.0%">' in page


def test_the_command_in_each_format_escapes_hostile_file_names(tmp_path, capsys, monkeypatch):
    """A file name is the organiser's players': markup, a formula and a bidi override stay inert."""
    folder = epic_folder(tmp_path)
    hostile = folder / "epic" / "=cmd|' <img src=x onerror=alert(1)>\u202e.yaml"
    shutil.copy(TESTS / "rosters" / EPIC[0], hostile)
    for form in ("text", "json", "csv", "html"):
        assert main(["stats", str(folder), "--format", form]) == 0
        out = capsys.readouterr().out
        assert "\u202e" not in out and "\\u202e" in out
        if form == "html":
            assert "<img" not in out and "&lt;img src=x onerror=alert(1)&gt;" in out
        if form == "json":
            epic = game(json.loads(out), "epic-armageddon")
            assert epic["lists"] == 5 and entry(epic, "Tactical") == (3, 5)
    monkeypatch.chdir(hostile.parent)  # named alone, the file's name starts its cell: not a formula
    assert main(["stats", hostile.name, "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out[1:])))
    assert next(r for r in rows if r[0] == "roster")[3] == "'=cmd|' <img src=x onerror=alert(1)>\\u202e.yaml"


def test_a_folder_without_rosters_or_with_an_unreadable_one_exits_2(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["stats", str(tmp_path / "empty")]) == 2
    broken = epic_folder(tmp_path / "full")
    (broken / "broken.yaml").write_text("game: epic-armageddon\narmy: [\n")
    assert main(["stats", str(broken)]) == 2
    out = capsys.readouterr().out
    assert "not counted:" in out and "broken.yaml (UNREADABLE)" in out and "6 lists counted" in out


def test_a_shared_out_formation_counts_its_points_and_no_units(check):
    """D125, baran-siegemasters/legal-sappers-shared.yaml: the Sapper Platoon 250, shared out among
    the Infantry Companies, is other and has no units; its 5 + 3 Sappers count in the companies.
    Other: Regimental HQ 225 + Rapier Platoon 75, Infantry Company 175 + Thudd Gun Platoon 75 (the
    Sappers free), Infantry Company 175, Sapper Platoon 250, AA Battery 100, Artillery Company 425,
    two Fortified Positions bought for the army 2 x 100 = 1,700; allies: Thunderbolt Fighters 150.
    Units: 1 + 9 + 3 Rapiers, 1 + 9 + 5 + 3 Thudd Guns, 1 + 9 + 3, 0, 3, 9 = 56 other, 2 allies."""
    facts = field_facts(check("baran-siegemasters/legal-sappers-shared.yaml"))
    assert facts.points == {"war engines": 0, "aircraft": 0, "spacecraft": 0, "allies": 150, "other": 1700}
    assert facts.sizes == {"war engines": 0, "aircraft": 0, "spacecraft": 0, "allies": 2, "other": 56}
    assert facts.entries["Infantry Company"] == 2 and facts.entries["Sapper Platoon"] == 1


def test_every_game_counts_its_rosters():
    from listbuilder.games import every_system

    assert all(system.field_facts is not None for system in every_system())


def test_the_event_names_the_page_and_its_file_is_left_out(tmp_path, capsys):
    folder = epic_folder(tmp_path)
    (folder / "event.yaml").write_text("name: Autumn <Open>\npoints: 3000\n")
    assert main(["stats", str(folder), "--format", "html", "--event", str(folder / "event.yaml")]) == 0
    page = capsys.readouterr().out
    assert "<h1>Autumn &lt;Open&gt;: field statistics</h1>" in page
    assert "event.yaml (the event file)" in page and "6 lists counted" in page  # illegal ones are counted too

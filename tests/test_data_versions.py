"""Versions of the imported data side by side (D41): `data list`, `data use`, `data diff`, `check --data`
and an event's `data:`, `reprice`, and the organiser report's "priced under" column.

Two imports of the snapshot's Space Marines (tests/conftest.py, `bsdata_versions`): 'MFM old' as the
snapshot has it, and 'MFM new', changed by hand in `Imperium - Space Marines.cat`:
- Intercessor Squad: 5 models 80 → 85 pts, 6 to 10 models 160 → 170 (the data prices 6-10 alike);
- Artificer Armour (Gladius Task Force): 10 → 20 pts;
- Bladeguard Veteran Squad no longer offered (its entry link removed).
The roster below is worked by hand under each: Captain 80 (unchanged) + Artificer Armour 10 → 20
= 90 → 100; Intercessor Squad of 10 160 → 170; of 5 80 → 85; Bladeguard Veteran Squad of 3 80 →
gone. Totals: 90 + 160 + 80 + 80 = 410 under 'MFM old'; 100 + 170 + 85 = 355 under 'MFM new'.
"""

import csv
import io
import json
import shutil

import pytest

from listbuilder.cli import main
from listbuilder.games.wh40k10.data_diff import EnhancementChange, SizeChange, UnitChange, data_diff, diff_text
from listbuilder.games.wh40k10.importing.bsdata import import_folder
from listbuilder.games.wh40k10.importing.installed import DATA_DIR_VARIABLE, load_installed, versions
from tests.bsdata_samples import write_sample

ROSTER = """\
# a Gladius strike at Incursion
game: wh40k-10e
name: Repriced
faction: Space Marines
battle_size: Incursion
detachment: Gladius Task Force
units:
  - type: Captain
    enhancement: Artificer Armour
    warlord: true
  - type: Intercessor Squad
    models: 10
  - type: Intercessor Squad
  - type: Bladeguard Veteran Squad
"""
SPACE_MARINES = "Space Marines"  # as every view names the faction (D42)


@pytest.fixture
def two_versions(bsdata_versions, monkeypatch):
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(bsdata_versions))
    return bsdata_versions


@pytest.fixture
def own_versions(bsdata_versions, tmp_path, monkeypatch):
    """A copy of the two versions this test may change."""
    folder = shutil.copytree(bsdata_versions, tmp_path / "data")
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(folder))
    return folder


@pytest.fixture
def roster(tmp_path):
    path = tmp_path / "gladius.yaml"
    path.write_text(ROSTER, encoding="utf-8")
    return path


def test_data_list_shows_each_version_and_the_last_import_as_the_default(two_versions, capsys):
    assert main(["data", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("  wh40k-10e  'MFM old'  801555b  imported ")
    assert "2 factions, 256 units" in lines[0]
    assert lines[1].startswith("* wh40k-10e  'MFM new'  801555b-repriced  imported ")
    assert "2 factions, 255 units" in lines[1]  # the Bladeguard Veteran Squad is no longer offered
    assert lines[2].startswith("* the default")


def test_data_diff_names_each_change_made_by_hand(two_versions, capsys):
    assert main(["data", "diff", "MFM old", "MFM new"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "MFM old (801555b) → MFM new (801555b-repriced)",
        "Datasheets re-priced or resized (1):",
        "  Intercessor Squad: 5 models 80 → 85; 6-10 models 160 → 170",  # five sizes changed alike: one run
        "Datasheets removed (1):",
        "  Bladeguard Veteran Squad",
        "Enhancements changed (1):",
        f"  {SPACE_MARINES} — Gladius Task Force — Artificer Armour: 10 → 20"]
    assert main(["data", "diff", "801555b", "MFM new", "--faction", "Space Marines", "--format", "json"]) == 0
    diff = json.loads(capsys.readouterr().out)
    assert diff["old"] == {"label": "MFM old", "revision": "801555b"} and diff["faction"] == "Space Marines"
    assert diff["units"][0]["sizes"][:2] == [{"models": 5, "old": 80, "new": 85}, {"models": 6, "old": 160, "new": 170}]
    assert diff["datasheets_removed"] == ["Bladeguard Veteran Squad"] and diff["datasheets_added"] == []
    assert diff["enhancements"] == [{"faction": SPACE_MARINES, "detachment": "Gladius Task Force",
                                     "name": "Artificer Armour", "old": 10, "new": 20}]
    assert main(["data", "diff", "MFM old", "MFM new", "--faction", "Agents of the Imperium"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "No points, datasheets, detachments or Enhancements changed."


def test_an_unknown_version_or_faction_exits_2_naming_those_installed(two_versions, roster, tmp_path, capsys):
    assert main(["data", "diff", "MFM old", "MFM 9"]) == 2
    assert "no wh40k-10e data is installed as 'MFM 9' (installed: 'MFM old', 'MFM new')" in capsys.readouterr().err
    assert main(["data", "diff", "MFM old", "MFM new", "--faction", "Nobody"]) == 2
    assert "neither version has the faction 'Nobody'" in capsys.readouterr().err
    assert main(["check", str(roster), "--data", "MFM 9"]) == 2
    assert "--data: error: no wh40k-10e data is installed as 'MFM 9'" in capsys.readouterr().err
    event = tmp_path / "event.yaml"
    event.write_text("name: Autumn Open\ndata: MFM 9\n")
    assert main(["check", str(roster), "--event", str(event)]) == 2
    assert f"{event}:2:1: error: no wh40k-10e data is installed as 'MFM 9'" in capsys.readouterr().err
    assert main(["reprice", str(roster), "--data", "MFM 9"]) == 2
    assert "installed: 'MFM old', 'MFM new'" in capsys.readouterr().err


def test_check_uses_the_version_data_or_the_events_data_names(two_versions, roster, tmp_path, capsys):
    assert main(["check", str(roster)]) == 1  # the default, 'MFM new': no Bladeguard Veteran Squad
    out = capsys.readouterr().out
    assert "points: 355 / 1,000" in out and "against data 801555b-repriced" in out
    assert main(["check", str(roster), "--data", "MFM old"]) == 0
    out = capsys.readouterr().out
    assert "points: 410 / 1,000" in out and "#1 Captain: 90 pts" in out and "against data 801555b" in out
    event = tmp_path / "event.yaml"
    event.write_text("name: Autumn Open\ndata: '801555b'\n")  # a revision names its version too
    assert main(["check", str(roster), "--event", str(event)]) == 0
    assert "points: 410 / 1,000" in capsys.readouterr().out
    assert main(["check", str(roster), "--event", str(event), "--data", "MFM new"]) == 1  # the option wins
    assert "points: 355 / 1,000" in capsys.readouterr().out


def test_data_use_makes_another_version_the_default(own_versions, roster, capsys):
    assert main(["data", "use", "MFM old"]) == 0
    assert "'MFM old' (801555b) is the default data from now on" in capsys.readouterr().out
    assert [v.label for v in versions("wh40k-10e") if v.default] == ["MFM old"]
    assert main(["check", str(roster)]) == 0
    assert "points: 410 / 1,000" in capsys.readouterr().out
    assert main(["data", "use", "MFM 9"]) == 2


def test_reprice_reports_each_units_points_and_what_is_no_longer_valid(two_versions, roster, tmp_path, capsys):
    stamped = roster.with_name("stamped.yaml")
    roster.write_text(ROSTER.replace("name: Repriced\n", "name: Repriced\ndata: MFM old\n"))
    before = roster.read_bytes()
    assert main(["reprice", str(roster), "--data", "MFM new"]) == 1  # illegal under it
    assert capsys.readouterr().out.splitlines() == [
        f"{roster}: Repriced ({SPACE_MARINES}) repriced from 'MFM old' (801555b) to 'MFM new' (801555b-repriced)",
        "  total 410 → 355 (-55) of 1,000",
        "  #1   Captain                        90 →   100 (+10)",
        "  #2   10 Intercessor Squad          160 →   170 (+10)",
        "  #3   5 Intercessor Squad            80 →    85 (+5)",
        "  #4   3 Bladeguard Veteran Squad     80 → not priced",
        "No longer valid under 'MFM new':",
        f"  {roster}:15:5: error: 'Bladeguard Veteran Squad' is not a datasheet of {SPACE_MARINES} (did you "
        "mean 'Sternguard Veteran Squad'?) [Muster Your Army 5: Select Units]"]
    assert roster.read_bytes() == before and not stamped.exists()  # the roster is left as it is
    assert main(["reprice", str(roster), "--data", "MFM new", "-o", str(stamped)]) == 1
    assert roster.read_bytes() == before
    written = stamped.read_text()
    assert written.startswith("# a Gladius strike at Incursion\n") and "data: MFM new\n" in written
    assert main(["reprice", str(stamped), "--data", "MFM new"]) == 1  # from the version it is stamped with
    assert "  total 355 → 355 (+0) of 1,000" in capsys.readouterr().out.splitlines()


def test_reprice_without_a_stamp_compares_from_the_default(two_versions, roster, capsys):
    assert main(["reprice", str(roster), "--data", "MFM old"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "repriced from 'MFM new' (801555b-repriced) to 'MFM old' (801555b)" in out[0]
    assert out[1] == "  total 355 → 410 (+55) of 1,000"
    assert out[-1] == "Nothing of it becomes invalid under 'MFM old'."
    roster.write_text(ROSTER.replace("name: Repriced\n", "name: Repriced\ndata: MFM 0\n"))  # not installed
    assert main(["reprice", str(roster), "--data", "MFM old"]) == 0
    captured = capsys.readouterr()
    assert "its data 'MFM 0' is not installed; compared with the default 'MFM new'" in captured.err
    assert captured.out.splitlines()[1] == "  total 355 → 410 (+55) of 1,000"


def test_the_organiser_report_says_which_version_a_list_was_priced_under(two_versions, roster, tmp_path, capsys):
    folder = tmp_path / "inbox"
    folder.mkdir()
    for label, name in (("MFM old", "old.txt"), ("MFM new", "new.txt")):
        assert main(["export", str(roster), "--data", label, "-o", str(folder / name)]) == 0
    shutil.copy(roster, folder / "gladius.yaml")
    assert "Repriced (410 Points)" in (folder / "old.txt").read_text()  # the app's text states its total
    assert main(["check", str(folder), "--format", "csv"]) == 1
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out.lstrip("\ufeff"))))
    assert [(r["file"].rpartition("/")[2], r["points"], r["priced under"]) for r in rows] == [
        ("gladius.yaml", "355", ""), ("new.txt", "355", "MFM new"), ("old.txt", "355", "MFM old")]
    assert main(["check", str(folder / "old.txt"), "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["rosters"][0]["priced_under"] == "MFM old"
    assert main(["check", str(folder / "old.txt")]) == 1
    assert "\n  priced under: MFM old\n" in capsys.readouterr().out
    assert main(["check", str(folder), "--format", "html"]) == 1
    page = capsys.readouterr().out
    assert "<th>priced under</th>" in page and "<td>MFM old</td>" in page and "<li>priced under MFM new</li>" in page
    (folder / "old.txt").write_text((folder / "old.txt").read_text().replace("(410 Points)", "(400 Points)"))
    assert main(["check", str(folder / "old.txt"), "--format", "csv"]) == 1
    assert ",MFM old (off by 10 points)\r\n" in capsys.readouterr().out  # 410 is nearer 400 than 355 is


def test_with_one_version_there_is_no_priced_under(bsdata_installed, roster, tmp_path, capsys):
    text = tmp_path / "list.txt"
    assert main(["export", str(roster), "-o", str(text)]) == 0
    assert main(["check", str(text), "--format", "html"]) in (0, 1)
    assert "priced under" not in capsys.readouterr().out


def test_the_layout_before_versions_still_loads_and_an_import_keeps_it_or_replaces_it(tmp_path, monkeypatch, capsys):
    data = tmp_path / "data"
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(data))
    sample = write_sample(tmp_path / "bsdata")
    assert main(["data", "import", "bsdata", str(sample), "--revision", "abc123"]) == 0
    catalogs = data / "catalogs"
    for written in (catalogs / "wh40k-10e").iterdir():  # as the first layout had it: one catalog per game
        if written.name.startswith("1."):
            written.rename(catalogs / written.name.replace("1.", "wh40k-10e.", 1))
    shutil.rmtree(catalogs / "wh40k-10e")
    assert load_installed().data_revision == "abc123"
    assert load_installed("wh40k-10e", "Testers").data_revision == "abc123"  # its parts too
    assert main(["data", "list"]) == 0
    assert "* wh40k-10e  'abc123 20" in capsys.readouterr().out
    assert main(["data", "import", "bsdata", str(sample), "--revision", "def456", "--label", "later"]) == 0
    assert [(v.data_revision, v.default) for v in versions("wh40k-10e")] == [("abc123", False), ("def456", True)]
    assert load_installed("wh40k-10e", version="abc123").data_revision == "abc123"
    capsys.readouterr()
    assert main(["data", "import", "bsdata", str(sample), "--revision", "abc123"]) == 0  # that revision again
    assert "(replacing 'abc123 20" in capsys.readouterr().out
    assert [(v.data_revision, v.default) for v in versions("wh40k-10e")] == [("def456", False), ("abc123", True)]
    assert not (catalogs / "wh40k-10e.json").exists() and not (catalogs / "wh40k-10e.by-faction").exists()
    assert main(["data", "import", "bsdata", str(sample), "--revision", "ghi789", "--label", "later"]) == 0
    assert [v.data_revision for v in versions("wh40k-10e")] == ["abc123", "ghi789"]  # a label names one version


def test_data_diff_pairs_sizes_detachments_and_enhancements(tmp_path):
    old = import_folder(write_sample(tmp_path / "bsdata"), revision="a").catalog
    testers = old.factions[0]
    squad, boss = old.units["u-squad"], old.units["u-boss"]
    alpha, beta = testers.detachments
    new_faction = testers.model_copy(update={
        "units": ["u-squad", "u-walkers", "u-boss", "u-new"],
        "detachments": [alpha.model_copy(update={"enhancements": [
            alpha.enhancements[0].model_copy(update={"points": 20}),
            alpha.enhancements[0].model_copy(update={"name": "Bright Sword", "points": 5})]}),
            beta.model_copy(update={"name": "Gamma Host"})]})
    new = old.model_copy(update={"data_revision": "b", "factions": [new_faction], "units": {
        **old.units, "u-squad": squad.model_copy(update={"sizes": [
            s.model_copy(update={"points": 45}) if s.models == 1 else s for s in squad.sizes if s.models != 5] + [
            squad.sizes[0].model_copy(update={"models": 6, "points": 120})]}),
        "u-new": boss.model_copy(update={"id": "u-new", "name": "Test Hero"})}})
    diff = data_diff(old, new)
    assert diff.units == [UnitChange("Test Squad", [SizeChange(1, 40, 45), SizeChange(5, 90, None),
                                                    SizeChange(6, None, 120)])]
    assert (diff.datasheets_added, diff.datasheets_removed) == (["Test Hero"], [])
    # the faction named as every view names it: its catalogue name's last part (D42)
    assert diff.detachments_added == [("Testers", "Gamma Host")]
    assert diff.detachments_removed == [("Testers", "Beta Host")]
    assert diff.enhancements == [EnhancementChange("Testers", "Alpha Host", "Shiny Sword", 15, 20),
                                 EnhancementChange("Testers", "Alpha Host", "Bright Sword", None, 5)]
    assert diff_text(diff, "a", "b").splitlines()[2] == (
        "  Test Squad: 1 model 40 → 45; 5 models gone (was 90); 6 models added (120)")
    assert data_diff(new, old).datasheets_removed == ["Test Hero"]
    assert data_diff(old, old.model_copy(update={"data_revision": "c"})).same


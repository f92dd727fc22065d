"""40k lists in the forms other tools write (tests/wh40k-lists/: our own samples of the official
app's text, New Recruit's two text layouts and BattleScribe .ros/.rosz), imported against the BSData
fixture: what each becomes, every stated cost against the data's, every line placed or reported."""

import io
import json
import re
import zipfile
from collections import Counter
from pathlib import Path

import pytest

from listbuilder.cli import main
from listbuilder.core.findings import LoadFailure
from listbuilder.games import system_for, validate
from listbuilder.games.wh40k10.listtext import app_text
from listbuilder.games.wh40k10.roster import Wh40kUnit
from listbuilder.listengine.catalog import Catalog
from listbuilder.rosters.batch import KEPT_TEXT, check_file
from listbuilder.rosters.files import to_data
from listbuilder.rosters.lists import MAX_UNZIPPED, read_list, read_list_data

from .sampling import one_in

LISTS = Path(__file__).resolve().parent / "wh40k-lists"
ROSTERS = Path(__file__).resolve().parent / "wh40k-rosters"


@pytest.fixture(scope="module")
def catalog(bsdata):
    return Catalog(installed={"wh40k-10e": bsdata.catalog})


def units(imported):
    return [(u.type, u.models, u.enhancement, u.warlord) for u in imported.roster.units]


def found(findings):
    return [(f.code, f.location.line) for f in findings]


# name -> (faction, battle size, detachment, units as (type, models, enhancement, warlord), import findings,
#          check codes after them)
EXPECTED = {
    "app-gladius-legal.txt": (
        "Ultramarines", "Strike Force", "Gladius Task Force",
        [("Captain", None, "Artificer Armour", True), ("Lieutenant", None, None, False),
         ("Intercessor Squad", 10, None, False), ("Intercessor Squad", 5, None, False),
         ("Terminator Squad", 5, None, False)],
        [], []),
    "app-chaos-illegal.txt": (
        "Chaos Space Marines", "Strike Force", "Pactbound Zealots",
        [("Chaos Lord", None, None, True), ("Legionaries", 5, "Talisman of Burning Blood", False),
         *[("Forgefiend", None, None, False)] * 4, ("Necron Warriors", 10, None, False)],
        [("list-total-differs", 1), ("list-wargear-unplaced", 12), ("list-points-differ", 28),
         ("list-line-unread", 40)],
        ["unknown-unit", "too-many-of-datasheet", "enhancement-not-character"]),
    "nr-kauyon-legal.txt": (
        "T'au Empire", "Incursion", "Kauyon",
        [("Cadre Fireblade", None, "Exemplar of the Kauyon", True), ("Strike Team", None, None, False),
         ("Kroot Carnivores", 10, None, False)],
        [("list-battle-size-assumed", 4)], []),
    "nr-app-style-legal.txt": (
        "T'au Empire", "Strike Force", "Kauyon",
        [("Cadre Fireblade", None, "Exemplar of the Kauyon", True), ("Strike Team", None, None, False),
         ("Kroot Carnivores", 10, None, False)],
        [], []),
    "nr-ultramarines-illegal.txt": (
        "Ultramarines", "Incursion", "Gladius Task Force",
        [("Captain", None, "Artificer Armour", True), ("Intercessor Squad", 10, "Fire Discipline", False),
         ("Intercessor Squad", 5, None, False), ("Primaris Space Pope", 1, None, False)],  # '1x' as written (D22)
        [("list-battle-size-assumed", 4), ("list-configuration", 9),  # '+ FAVOURITE COLOUR' kept aside, said so
         ("list-points-differ", 14)],  # (D30, D32)
        ["unknown-unit", "enhancement-not-character"]),
    "ros-necrons-legal.ros": (
        "Necrons", "Strike Force", "Awakened Dynasty",
        [("Overlord", None, "Phasal Subjugator", True), ("Necron Warriors", 20, None, False)],
        [("list-other-revision", 10), ("list-configuration", 22)], []),
}


def test_every_sample_is_expected():
    assert sorted(p.name for p in LISTS.iterdir() if p.is_file()) == sorted(EXPECTED)  # real/: their own tests


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_imports(catalog, name):
    faction, size, detachment, expected_units, notes, codes = EXPECTED[name]
    imported = read_list(LISTS / name, catalog, name)
    roster = imported.roster
    assert (roster.faction, roster.battle_size, roster.detachment) == (faction, size, detachment)
    assert units(imported) == expected_units
    assert found(imported.findings) == notes
    result = check_file(LISTS / name, catalog, name)
    assert [f.code for f in result.findings] == [code for code, _ in notes] + codes
    assert all(f.location.file == name and f.location.line for f in result.findings)
    assert result.valid == (Path(name).stem.split("-")[-1] == "legal")


def test_points_as_written_against_the_data(catalog):
    messages = [f.message for f in read_list(LISTS / "app-chaos-illegal.txt", catalog).findings
                if f.code != "list-wargear-unplaced"]
    # Chaos Lord 90 + Legionaries 5 models 90 + Talisman 15 + 4 Forgefiends at 170 + 10 Necron Warriors 90
    assert messages[:2] == ["the list says a total of 1,150 points, the data of 801555b says 965",
                            "Forgefiend: the list says 150, the data of 801555b says 170"]
    # The Enhancement is part of the unit's cost: 160 stated for an Intercessor Squad with Fire Discipline (25)
    [differ] = [f for f in read_list(LISTS / "nr-ultramarines-illegal.txt", catalog).findings
                if f.code == "list-points-differ"]
    assert differ.message == "Intercessor Squad: the list says 160, the data of 801555b says 185"


def test_names_as_a_person_writes_them(catalog, tmp_path):
    """Case, curly apostrophes and plurals: 'FIRE WARRIOR SHAS’UI' and '9x fire warriors w/ pulse rifle'."""
    text = (LISTS / "nr-app-style-legal.txt").read_text(encoding="utf-8")
    text = text.replace("1x Fire Warrior Shas'ui", "1x FIRE WARRIOR SHAS’UI").replace(
        "Strike Team (70", "strike teams (70").replace("9x Kroot Carnivores", "9x kroot carnivore")
    (tmp_path / "list.txt").write_text(text, encoding="utf-8")
    imported = read_list(tmp_path / "list.txt", catalog)
    assert units(imported)[1:] == [("Strike Team", None, None, False), ("Kroot Carnivores", 10, None, False)]
    assert imported.findings == []


def rosz(tmp_path, ros: bytes, name="list.rosz") -> Path:
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("list.ros", ros)
    return path


def test_a_rosz_reads_as_its_ros(catalog, tmp_path):
    path = rosz(tmp_path, (LISTS / "ros-necrons-legal.ros").read_bytes())
    assert units(read_list(path, catalog)) == EXPECTED["ros-necrons-legal.ros"][3]


def test_a_zip_bomb_is_refused_unread(catalog, tmp_path):
    path = rosz(tmp_path, b"<roster>" + b" " * (MAX_UNZIPPED + 10) + b"</roster>")
    assert path.stat().st_size < 100_000
    with pytest.raises(LoadFailure) as failure:
        read_list(path, catalog)
    assert "larger than 8,000,000 bytes unzipped" in failure.value.findings[0].message


def test_xml_with_a_doctype_is_refused(catalog, tmp_path):
    path = tmp_path / "bomb.ros"
    path.write_text('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY a "aaaa">]>\n<roster>&a;</roster>')
    with pytest.raises(LoadFailure) as failure:
        read_list(path, catalog)
    [finding] = failure.value.findings
    assert (finding.code, finding.location.line) == ("list-unreadable", 2)


def test_text_of_no_known_form_is_unreadable(catalog, tmp_path):
    path = tmp_path / "note.txt"
    path.write_text("please find my list attached\n")
    with pytest.raises(LoadFailure) as failure:
        read_list(path, catalog)
    assert failure.value.findings[0].message == "not a list form listbuilder reads"


def test_round_trip_through_app_text(catalog, tmp_path):
    """Our roster written as the app's text and read back is the same roster (the app's text says
    nothing of Leaders, transports or reserves, so the roster takes none, but for the Aircraft the
    rules put in Reserves, D20)."""
    source = ROSTERS / "necrons" / "legal-awakened-dynasty.yaml"
    result = check_file(source, catalog)
    assert [c.has("Aircraft") for c in result.units].count(True) == 1  # the Night Scythe
    roster = result.roster.model_copy(update={"units": [
        u.model_copy(update={"leads": None, "embarked_in": None, "reserves": checked.has("Aircraft"), "label": None})
        for u, checked in zip(result.roster.units, result.units, strict=True)]})
    result = validate(roster, catalog)
    text = app_text(result, catalog)
    (tmp_path / "list.txt").write_text(text, encoding="utf-8")
    imported = read_list(tmp_path / "list.txt", catalog)
    assert imported.findings == []
    in_sections = sorted(range(len(result.units)), key=lambda i: ["CHARACTERS", "BATTLELINE", "DEDICATED TRANSPORTS",
                                                                  "OTHER DATASHEETS"].index(_section(result.units[i])))
    expected = roster.model_copy(update={"units": [roster.units[i] for i in in_sections]})
    assert to_data(imported.roster) == to_data(expected)
    assert app_text(validate(imported.roster, catalog), catalog) == text


def _as_exported(result):
    """What the app's text says of a checked roster: faction, battle size, detachment and total, and
    each unit's datasheet, models, Enhancement, Warlord and points (in any order: the text groups
    them by section)."""
    return ((result.faction.name, result.battle_size.name, result.roster.detachment, result.total),
            sorted((u.name, u.models, u.entry.enhancement or "", u.entry.warlord, u.points) for u in result.units))



@pytest.mark.parametrize("markdown", [False, True], ids=["text", "markdown"])
@pytest.mark.parametrize("name", one_in(3, sorted(str(p.relative_to(ROSTERS)) for p in ROSTERS.glob("*/*.yaml"))))
def test_every_example_roster_exports_and_imports_as_itself(catalog, name, markdown):
    result = check_file(ROSTERS / name, catalog, name)
    text = system_for("wh40k-10e").list_text(result, catalog, markdown)
    assert text.startswith("# ") == markdown
    imported = read_list_data(text.encode(), "posted.md", catalog)
    assert imported.findings == []
    assert _as_exported(validate(imported.roster, catalog)) == _as_exported(result)
    assert len(imported.roster.units) == len(result.roster.units)


def test_markdown_is_the_app_text_as_headings_and_list_items(catalog):
    result = check_file(ROSTERS / "necrons" / "legal-awakened-dynasty.yaml", catalog)
    plain, markdown = app_text(result, catalog), app_text(result, catalog, markdown=True)
    assert markdown.splitlines()[:8] == [f"# {plain.splitlines()[0]}", "", "Necrons", "", "Awakened Dynasty", "",
                                         "Strike Force (2,000 Points)", ""]
    overlord = ("Overlord (120 Points)\n{0}Warlord\n{0}Attached to: Warriors of Sautekh\n{0}1x Overlord's blade\n"
                "{0}1x Tachyon arrow\n{0}Enhancements: Phasal Subjugator\n")
    assert "\n## CHARACTERS\n\n### " + overlord.format("- ") in markdown
    assert "\nCHARACTERS\n\n" + overlord.format("  • ") in plain
    warriors = ("Necron Warriors (90 Points)\n{0}Label: Ark Guard\n{0}Embarked in: Ghost Ark\n"
                "{0}10x Warrior w/ gauss flayer\n")
    weapons = "{0}10x Close combat weapon\n{0}10x Gauss flayer\n"
    assert "\n### " + warriors.format("- ") + weapons.format("  - ") in markdown  # a nested list: the model's weapons
    assert "\n" + warriors.format("  • ") + weapons.format("     ◦ ") in plain


def test_what_the_data_does_not_allow_is_exported_as_written(catalog):
    """A datasheet the data lacks and a model count no size allows are written as the roster has
    them (the unknown unit at 0 points), so the imported list is checked into the same findings."""
    roster = check_file(ROSTERS / "space-marines" / "legal-gladius.yaml", catalog).roster
    captain = roster.units[0].model_copy(update={"leads": None, "embarked_in": None})
    units = [captain, Wh40kUnit(type="Intercessor Squad", models=11), Wh40kUnit(type="Primaris Space Pope", models=3)]
    result = validate(roster.model_copy(update={"units": units}), catalog)
    text = app_text(result, catalog)
    assert "Intercessor Squad (80 Points)\n  • 11x Intercessor Squad\n" in text
    assert "OTHER DATASHEETS\n\nPrimaris Space Pope (0 Points)\n  • 3x Primaris Space Pope\n" in text
    back = validate(read_list_data(text.encode(), "posted.txt", catalog).roster, catalog)
    assert sorted(f.code for f in back.findings) == sorted(f.code for f in result.findings) == [
        "model-count", "unknown-unit"]
    assert back.roster.units[2] == units[2]  # its 3 models too (D22)
    assert back.total == result.total


def test_a_datasheet_the_data_does_not_know_keeps_its_model_count(catalog):
    """D22: the count its lines state, where they are evidently models (one has weapons of its own
    or names the unit); weapon lines alone state none. The check's finding says the count."""
    app = (LISTS / "app-gladius-legal.txt").read_text(encoding="utf-8").replace(
        "Terminator Squad (", "Terminator Squadd (").replace("Lieutenant (", "Lieutenantt (").replace(
        "Intercessor Squad (80", "Primaris Space Pope (80").replace("1x Intercessor Sergeant\n  • 4x Intercessor\n",
                                                                   "3x Primaris Space Pope\n")
    imported = read_list_data(app.encode(), "app.txt", catalog)
    assert [(u.type, u.models) for u in imported.roster.units[1:]] == [
        ("Lieutenantt", None),  # '1x Master-crafted bolter', '1x Close combat weapon': weapons, or models?
        ("Intercessor Squad", 10), ("Primaris Space Pope", 3),  # named as the unit itself, as export writes it
        ("Terminator Squadd", 5)]  # 1 Sergeant + 4 with weapons of their own
    new_recruit = (LISTS / "nr-kauyon-legal.txt").read_text(encoding="utf-8").replace(
        "1x Kroot Carnivores", "1x Kroot Eaters").replace("1x Strike Team (70 pts)\n", "1x Stroke Team (70 pts)\n")
    imported = read_list_data(new_recruit.encode(), "nr.txt", catalog)
    assert [(u.type, u.models) for u in imported.roster.units] == [
        ("Cadre Fireblade", None), ("Stroke Team", 10), ("Kroot Eaters", 10)]
    unknown = [f.message for f in validate(imported.roster, catalog).findings if f.code == "unknown-unit"]
    assert unknown == ["'Stroke Team' (10 models as written) is not a datasheet of T'au Empire",
                       "'Kroot Eaters' (10 models as written) is not a datasheet of T'au Empire"]
    # '0x' lines count no model, known datasheet or not (a count of 0 had raised a ValidationError)
    kroot = "1x Kroot Carnivores (65 pts)\n• 1x Long-quill: Kroot rifle\n• 9x kroot carnivores: 9 with Kroot rifle\n"
    for written, counted in (("1x Kroot Carnivores (65 pts)\n• 0x Long-quill: Kroot rifle\n", 10),  # by its points
                             ("0x Kroot Eaters (65 pts)\n", None),
                             ("1x Kroot Eaters (65 pts)\n• 0x Kroot Eater\n", None)):
        zero = read_list_data(new_recruit.replace("1x Kroot Eaters", "1x Kroot Carnivores").replace(kroot, written)
                              .encode(), "nr.txt", catalog)
        assert zero.roster.units[-1].models == counted


def test_cli_exports_a_40k_roster_that_imports_as_itself(bsdata_installed, catalog, tmp_path, capsys):
    source = ROSTERS / "tau-empire" / "legal-kauyon.yaml"
    assert main(["export", str(source), "--format", "markdown", "-o", str(tmp_path / "post.md")]) == 0
    assert main(["import", str(tmp_path / "post.md"), "-o", str(tmp_path / "back.yaml")]) == 0
    assert capsys.readouterr().err == f"{tmp_path / 'back.yaml'}: 10 units imported from the official app's text\n"
    # Leaders, the unit embarked and Reserves come back from the lines `export` adds for them (D19)
    assert main(["check", str(tmp_path / "back.yaml"), "--format", "json"]) == 0
    [report] = json.loads(capsys.readouterr().out)["rosters"]
    assert report["points"] == {"total": 980, "limit": 2000}
    assert report["issues"] == []
    back = check_file(tmp_path / "back.yaml", catalog).roster
    source_roster = check_file(source, catalog).roster
    for field in ("leads", "embarked_in", "reserves"):
        assert sorted((u.type, str(getattr(u, field))) for u in back.units) == sorted(
            (u.type, str(getattr(u, field))) for u in source_roster.units)


def test_an_aircraft_in_a_list_starts_in_reserves(bsdata_installed, tmp_path, capsys):
    """D20: a list's Aircraft is in Reserves, and the units `export` wrote as embarked are, so `check`
    finds the exported Kauyon list legal, as the roster it was exported from."""
    assert main(["export", str(ROSTERS / "tau-empire" / "legal-kauyon.yaml"), "-o", str(tmp_path / "post.txt")]) == 0
    assert main(["check", str(tmp_path / "post.txt"), "--format", "json"]) == 0
    [report] = json.loads(capsys.readouterr().out)["rosters"]
    assert report["issues"] == []


def _section(checked):
    from listbuilder.games.wh40k10.listtext import section_of
    return section_of(checked.unit)


def test_cli_import_writes_the_roster(bsdata_installed, tmp_path, capsys):
    output = tmp_path / "army.yaml"
    assert main(["import", str(LISTS / "ros-necrons-legal.ros"), "-o", str(output)]) == 0
    assert "type: Necron Warriors" in output.read_text()
    assert capsys.readouterr().err.endswith(f"{output}: 2 units imported from a BattleScribe roster\n")
    assert main(["check", str(output)]) == 0
    text = (LISTS / "nr-ultramarines-illegal.txt").read_text(encoding="utf-8")
    (tmp_path / "nr.txt").write_text(text.replace("\n1x Primaris", "\nPlease find my list attached\n1x Primaris"),
                                     encoding="utf-8")
    assert main(["import", str(tmp_path / "nr.txt"), "-o", str(tmp_path / "no.yaml")]) == 2
    assert not (tmp_path / "no.yaml").exists()
    assert "nr.txt:22: error: cannot place 'Please find my list attached'" in capsys.readouterr().err


def test_cli_checks_a_folder_of_whatever_was_sent(bsdata_installed, tmp_path, capsys, monkeypatch):
    """Each .txt is read once: the bytes that told a list from notes are the ones checked."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for name in ("app-gladius-legal.txt", "app-chaos-illegal.txt", "ros-necrons-legal.ros"):
        (inbox / name).write_bytes((LISTS / name).read_bytes())
    rosz(inbox, (LISTS / "ros-necrons-legal.ros").read_bytes(), "zipped.rosz")
    (inbox / "notes.txt").write_text("Dave's list is attached")
    padded = (LISTS / "app-gladius-legal.txt").read_text(encoding="utf-8") + "\n" * KEPT_TEXT
    (inbox / "padded.txt").write_text(padded, encoding="utf-8")  # too large to keep: read again when checked
    opened, real_open = Counter(), Path.open

    def counted_open(path, *args, **kwargs):
        opened[path.name] += 1
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(Path, "open", counted_open)
    assert main(["check", str(inbox)]) == 1
    out = capsys.readouterr().out
    assert "4 of 5 rosters legal" in out and "notes.txt — text, but not a list another tool wrote" in out
    assert "app-chaos-illegal.txt:28: warning: Forgefiend: the list says 150, the data of 801555b says 170" in out
    assert [opened[name] for name in ("app-gladius-legal.txt", "app-chaos-illegal.txt", "notes.txt", "padded.txt")
            ] == [1, 1, 1, 2]
    main(["check", str(inbox), "--format", "json"])
    [in_folder] = [r for r in json.loads(capsys.readouterr().out)["rosters"] if r["file"].endswith("chaos-illegal.txt")]
    assert main(["check", str(inbox / "app-chaos-illegal.txt"), "--format", "json"]) == 1  # named alone: read then
    assert json.loads(capsys.readouterr().out)["rosters"] == [in_folder]


def test_new_recruit_header_lines_must_name_their_unit(catalog, tmp_path):
    text = (LISTS / "nr-kauyon-legal.txt").read_text(encoding="utf-8").replace(
        "+ ENHANCEMENT: Exemplar of the Kauyon (on Char1: Cadre Fireblade)",
        "+ ENHANCEMENT: Exemplar of the Kauyon\n+ WARLORD: Char7: Ethereal")
    (tmp_path / "list.txt").write_text(text, encoding="utf-8")
    imported = read_list(tmp_path / "list.txt", catalog)
    assert [(f.code, f.location.line, f.message) for f in imported.findings if f.severity == "error"] == [
        ("list-line-unread", 7, "cannot place 'ENHANCEMENT: Exemplar of the Kauyon': it does not say which unit "
                                "it is on ('(on Char1: Name)')"),
        ("list-line-unread", 8, "cannot place 'WARLORD: Char7: Ethereal': no unit 'Ethereal' in the list")]
    assert units(imported)[0] == ("Cadre Fireblade", None, None, True)  # the first WARLORD line still counts


def test_a_list_without_a_faction_cannot_be_read(catalog, tmp_path):
    text = (LISTS / "app-gladius-legal.txt").read_text(encoding="utf-8")
    (tmp_path / "list.txt").write_text(text.replace("Space Marines\nUltramarines\n", "Space Pirates\n"),
                                       encoding="utf-8")
    with pytest.raises(LoadFailure) as failure:
        read_list(tmp_path / "list.txt", catalog)
    assert [(f.code, f.location.line, f.message, f.suggestion) for f in failure.value.findings] == [
        ("list-no-faction", 3, "the list names no faction of the data ('Space Pirates')",
         "did you mean 'Space Marines'?")]


def test_a_battlescribe_enhancement_outside_its_group_is_still_found(catalog, tmp_path):
    ros = (LISTS / "ros-necrons-legal.ros").read_text(encoding="utf-8").replace(' group="Enhancements"', "")
    (tmp_path / "list.ros").write_text(ros, encoding="utf-8")
    imported = read_list(tmp_path / "list.ros", catalog)
    assert units(imported) == EXPECTED["ros-necrons-legal.ros"][3]
    assert imported.lines[("units", 0, "enhancement")] == 26


def test_cli_import_reads_standard_input(bsdata_installed, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO((LISTS / "nr-kauyon-legal.txt").read_bytes())))
    assert main(["import", "-"]) == 0
    assert capsys.readouterr().out.startswith("game: wh40k-10e\nfaction: T'au Empire\nbattle_size: Incursion\n")


def test_an_empty_transport_in_a_list(catalog, tmp_path):
    """The app's text cannot say who starts in the Rhino: a warning when checked as sent (D19), an
    error once imported into a roster, which can say it."""
    text = (LISTS / "app-gladius-legal.txt").read_text(encoding="utf-8").replace(
        "(555 points)", "(630 points)").replace("OTHER DATASHEETS", "DEDICATED TRANSPORTS\n\nRhino (75 points)\n"
                                                                    "  • 1x Rhino\n\nOTHER DATASHEETS")
    (tmp_path / "list.txt").write_text(text, encoding="utf-8")
    result = check_file(tmp_path / "list.txt", catalog, "list.txt")
    [finding] = result.findings
    assert (finding.code, finding.severity, finding.location.line, result.valid) == (
        "transport-empty", "warning", 39, True)  # the Rhino's line
    assert finding.message.endswith("(the list's form does not say which units start embarked)")
    imported = read_list(tmp_path / "list.txt", catalog)
    assert [f.code for f in validate(imported.roster, catalog).findings if f.severity == "error"] == ["transport-empty"]


def _without_detachment(name: str) -> str:
    text = (LISTS / name).read_text(encoding="utf-8")
    if name.endswith(".ros"):
        return re.sub(r'\n\s*<selection id="s3".*?</selections>\s*</selection>', "", text, flags=re.DOTALL)
    return re.sub(r"(?m)^(Gladius Task Force|Kauyon|\+ DETACHMENT: Kauyon)\n", "", text)


@pytest.mark.parametrize(("name", "line"), [
    ("app-gladius-legal.txt", 5),  # the battle size's line, which the detachment's follows
    ("nr-app-style-legal.txt", 4),
    ("nr-kauyon-legal.txt", 2),  # the faction's: this list names no battle size either
    ("ros-necrons-legal.ros", 14)])
def test_a_list_that_names_no_detachment_is_one_finding(catalog, tmp_path, name, line):
    """One mistake, one finding (issue 28): the check's, at the line the detachment belongs after, in
    the list's words, citing the seed's section and the data's Detachment choice; not a second one
    naming '' as a detachment."""
    path = tmp_path / f"list{Path(name).suffix}"
    path.write_text(_without_detachment(name), encoding="utf-8")
    result = check_file(path, catalog, path.name)
    [finding] = [f for f in result.findings if "detachment" in f.code]
    assert (finding.code, finding.severity, finding.location.line) == ("no-detachment", "error", line)
    assert finding.message.startswith("the list names no detachment (")
    assert finding.suggestion == "add the detachment the army uses to the list"
    assert finding.rule.startswith("Muster Your Army 4: Select Detachment Rules; data: ")
    assert "''" not in " ".join(f.message for f in result.findings)
    # its Enhancement priced as written: no points the list states differ for want of a detachment
    assert not [f for f in result.findings if f.code in ("list-points-differ", "list-total-differs")]


def test_cli_import_refuses_a_list_that_names_no_detachment(bsdata_installed, tmp_path, capsys):
    (tmp_path / "list.txt").write_text(_without_detachment("app-gladius-legal.txt"), encoding="utf-8")
    assert main(["import", str(tmp_path / "list.txt"), "-o", str(tmp_path / "army.yaml")]) == 2
    assert not (tmp_path / "army.yaml").exists()
    [error, refused] = capsys.readouterr().err.splitlines()  # as before the check made the finding (D51)
    assert error.startswith(f"{tmp_path / 'list.txt'}:5: error: the list names no detachment (Ultramarines has ")
    assert refused == f"{tmp_path / 'list.txt'}: not imported; nothing was written"


def test_a_roster_that_names_no_detachment_is_one_finding(catalog, tmp_path):
    text = (ROSTERS / "space-marines" / "legal-gladius.yaml").read_text(encoding="utf-8")
    (tmp_path / "roster.yaml").write_text(text.replace("detachment: Gladius Task Force", 'detachment: ""'),
                                          encoding="utf-8")
    result = check_file(tmp_path / "roster.yaml", catalog, "roster.yaml")
    [finding] = result.findings
    assert (finding.code, str(finding.location)) == ("no-detachment", "roster.yaml:7:1")
    assert finding.message.startswith("the roster names no detachment (Space Marines has ")
    assert "Gladius Task Force" in finding.message and "data: Imperium - Space Marines.cat:" in finding.rule


def test_a_misspelt_detachment_in_the_apps_text_is_named_as_written(catalog, tmp_path):
    """The line after the battle size is the detachment's: misspelt, it is the one finding naming it,
    not an unread line besides a list with no detachment."""
    text = (LISTS / "app-gladius-legal.txt").read_text(encoding="utf-8")
    (tmp_path / "list.txt").write_text(text.replace("\nGladius Task Force\n", "\nGladius Taks Force\n"),
                                       encoding="utf-8")
    result = check_file(tmp_path / "list.txt", catalog, "list.txt")
    assert [(f.code, f.location.line, f.suggestion) for f in result.findings] == [
        ("unknown-detachment", 6, "did you mean 'Gladius Task Force'?")]


APP_ARMY = "Space Marines\nStrike Force (2,000 points)\nGladius Task Force\n\nCHARACTERS\n\n" \
           "Captain (80 points)\n  • Warlord\n\nOTHER DATASHEETS\n\n"


def test_a_default_weapon_stated_for_a_choice_the_data_leaves_unmade_is_carried(catalog, tmp_path):
    """D59: the Hellblaster Sergeant's Pistol Option has a minimum and no default (Imperium - Space
    Marines.cat:17183); his listed bolt pistol, a default of the other Hellblasters, is carried, and
    nothing is said. The Boyz' choppas, a default the list states on more models than the data
    gives, stay out (D28)."""
    path = tmp_path / "list.txt"
    path.write_text(APP_ARMY + "Hellblaster Squad (110 points)\n  • 1x Hellblaster Sergeant\n    ◦ 1x Bolt pistol\n"
                    "    ◦ 1x Close combat weapon\n    ◦ 1x Plasma incinerator\n  • 4x Hellblaster\n"
                    "    ◦ 4x Bolt pistol\n    ◦ 4x Close combat weapon\n    ◦ 4x Plasma incinerator\n",
                    encoding="utf-8")
    assert read_list(path, catalog).roster.units[1].wargear == {"Bolt pistol": 5}
    assert check_file(path, catalog, path.name).findings == []
    orks = read_list(LISTS / "real" / "app" / "orks-v1.24-war-horde.txt", catalog).roster
    assert [u.wargear for u in orks.units if u.type == "Boyz"] == [{}] * 3


def test_a_one_model_units_weapons_are_read_as_many_as_listed(catalog, tmp_path):
    """D63: '2x Dread Klaw' under a Deff Dread is two klaws on its one model (Orks.cat:4118: four
    weapons, no default), and the list is legal."""
    path = tmp_path / "list.txt"
    path.write_text("Orks\nStrike Force (2,000 points)\nWar Horde\n\nCHARACTERS\n\nWarboss (75 points)\n"
                    "  • Warlord\n\nOTHER DATASHEETS\n\nDeff Dread (120 points)\n  • 1x Deff Dread\n"
                    "    ◦ 3x Dread Klaw\n    ◦ 1x Rokkit launcha\n", encoding="utf-8")
    assert read_list(path, catalog).roster.units[1].wargear == {"Dread klaw": 3, "Rokkit launcha": 1}
    result = check_file(path, catalog, path.name)
    assert [f.code for f in result.findings] == [] and result.valid

"""What fuzzing every reader and output found (issue 30; tests/test_fuzz_readers.py), each the
exact input it found: refused or read with a located reason, never an internal error."""

import zipfile
from pathlib import Path

import pytest

from listbuilder.cli import main
from listbuilder.core.findings import LoadFailure, finding_text
from listbuilder.rosters.files import parse_roster
from listbuilder.rosters.lists import read_list_data

TESTS = Path(__file__).resolve().parent
REAL = TESTS / "wh40k-lists" / "real"


def test_a_rosz_whose_header_lost_a_byte_is_refused_not_a_crash(tmp_path, capsys):
    """Byte 4 of the first local header cut: zipfile seeks to -1 and raised ValueError (exit 3)."""
    data = (REAL / "battlescribe" / "bs-necrons-awakened.rosz").read_bytes()
    broken = tmp_path / "army.rosz"
    broken.write_bytes(data[:4] + data[5:])
    with zipfile.ZipFile(broken) as archive:  # the archive still lists its .ros: only opening it fails
        assert archive.namelist()
    assert main(["check", str(broken)]) == 2
    assert f"{broken}: error: the .rosz (a zip archive) is damaged or cut short" in capsys.readouterr().out
    assert main(["import", str(broken)]) == 2
    assert "the .rosz (a zip archive) is damaged or cut short" in capsys.readouterr().err


def test_an_unknown_battle_size_in_new_recruit_text_is_an_error_at_its_line(bsdata_installed, tmp_path,
                                                                           capsys):
    """'Battle Size:&a Strike Force': New Recruit's reader took the size as written, and the check
    `import` runs on the placed roster asserted it was known (exit 3)."""
    text = (REAL / "new-recruit" / "roster-text" / "csm-fellhammer.txt").read_text()
    assert "Battle Size: Strike Force" in text
    listed = tmp_path / "army.txt"
    listed.write_text(text.replace("Battle Size: Strike Force", "Battle Size:&a Strike Force"))
    assert main(["import", str(listed), "-o", str(tmp_path / "army.yaml")]) == 2
    err = capsys.readouterr().err
    assert (f"{listed}:5: error: '&a Strike Force' is not a battle size of the data; read as Strike Force, the "
            "smallest that holds its 1,990 points (write one of: ") in err
    assert not (tmp_path / "army.yaml").exists()
    assert main(["check", str(listed)]) == 1
    assert f"{listed}:5: error: '&a Strike Force' is not a battle size" in capsys.readouterr().out


def test_an_unknown_battle_size_in_a_ros_is_an_error_at_its_line(bsdata_installed, tmp_path, capsys):
    ros = (REAL / "battlescribe" / "nr-space-marines-gladius.ros").read_text()
    written = next(line for line in ros.splitlines() if "Strike Force" in line and "<selection " in line)
    listed = tmp_path / "army.ros"
    listed.write_text(ros.replace(written, written.replace("Strike Force", "Strike Farce")))
    assert main(["check", str(listed)]) == 1
    assert "'Strike Farce' is not a battle size of the data" in capsys.readouterr().out


def test_epic_list_text_read_by_import_names_its_file(catalog, tmp_path, capsys):
    """An Epic Armageddon list `export` wrote, read back: its places name the file (they named none)."""
    roster = TESTS / "rosters" / "baran-siegemasters" / "legal-armour.yaml"
    assert main(["export", str(roster), "-o", str(tmp_path / "army.txt")]) == 0
    imported = read_list_data((tmp_path / "army.txt").read_bytes(), "army.txt", catalog, fallback=True)
    assert imported.roster is not None and imported.locate(("formations", 0)).file == "army.txt"
    broken = read_list_data(b"Epic Armageddon \xe2\x80\x94 Nobody\n", "army.txt", catalog, fallback=True)
    assert broken.roster is None and broken.locate(()).file == "army.txt"


def test_reading_a_rosz_is_refused_with_a_located_failure(catalog):
    data = (REAL / "battlescribe" / "nr-daemons-khorne-visible.rosz").read_bytes()
    with pytest.raises(LoadFailure) as refused:
        read_list_data(data[:4] + data[5:], "army.rosz", catalog)
    assert refused.value.findings[0].location.file == "army.rosz"


@pytest.mark.parametrize("where", ["header", "total", "cost"])
def test_epic_list_text_with_a_number_of_5000_digits_is_refused_not_a_crash(where, tmp_path, capsys):
    """Points past Python's int-string limit (4,300 digits) raised ValueError (exit 3) on `import`."""
    roster = TESTS / "rosters" / "baran-siegemasters" / "legal-armour.yaml"
    assert main(["export", str(roster), "-o", str(tmp_path / "army.txt")]) == 0
    text = (tmp_path / "army.txt").read_text()
    huge = "9" * 5000
    listed = tmp_path / "huge.txt"
    listed.write_text({"header": text.replace("3,000 points", f"{huge} points", 1),
                       "total": text.replace("Total: ", f"Total: {huge}", 1),
                       "cost": text.replace(" pts\n", f"{huge} pts\n", 1)}[where])
    assert listed.read_text() != text
    assert main(["import", str(listed), "-o", str(tmp_path / "army.yaml")]) == 2
    assert f"{listed}:" in capsys.readouterr().err


def test_an_unknown_tag_in_the_editor_is_shown_as_written(catalog):
    """`!!python/object:os.system` on a name: the editor's reader keeps it, and the refusal showed
    ruamel's TaggedScalar(value=..., style=None, tag=Tag(...)) instead of the text."""
    roster = (TESTS / "rosters" / "baran-siegemasters" / "legal-armour.yaml").read_text()
    name = next(line for line in roster.splitlines() if line.startswith("name: "))
    with pytest.raises(LoadFailure) as refused:
        parse_roster(roster.replace(name, "name: !!python/object:os.system Siege"), "r.yaml", catalog, round_trip=True)
    [finding] = refused.value.findings
    assert finding_text(finding).startswith("r.yaml:")
    assert "TaggedScalar" not in finding.message and "!!python/object:os.system Siege" in finding.message

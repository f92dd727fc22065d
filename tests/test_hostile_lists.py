"""Hostile lists other tools wrote (issue 30, "A stranger's worst file"): a .ros, .rosz or list text
a stranger sends is refused with exit 2 and a located reason, in bounded time and memory, without
blocking; never an internal error (exit 3). The 40k cases read the BSData fixture (skipped without
../shared)."""

import os
import time
import zipfile
from pathlib import Path

import pytest

from listbuilder.cli import main
from tests.bsdata_samples import write_sample

LISTS = Path(__file__).resolve().parent / "wh40k-lists"
NECRONS = (LISTS / "ros-necrons-legal.ros").read_text(encoding="utf-8")


def checked(capsys, path: Path, *options: str) -> tuple[int, str]:
    code = main(["check", str(path), *options])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def rosz(path: Path, roster: bytes, method: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", compression=method) as archive:
        archive.writestr("roster.ros", roster)
    return path


@pytest.mark.parametrize("old, new", [  # each was an internal error (exit 3)
    ('value="320.0"', 'value="abc"'),  # the total's cost
    ('value="320.0"', 'value="NaN"'),
    ('value="320.0"', 'value="1e400"'),  # OverflowError
    ('value="85.0"', 'value="1e400"'),  # a unit's cost
    ('number="1" type="model"', 'number="x" type="model"'),
    ('catalogueRevision="101"', 'catalogueRevision="²"'),  # '²'.isdigit(), but int('²') fails
])
def test_a_ros_with_a_bad_number_is_unreadable(bsdata_installed, tmp_path, capsys, old, new):
    line = NECRONS[:NECRONS.index(old)].count("\n") + 1
    words = new.split(" ")[0].split("=")[1] + " is not a"
    path = tmp_path / "bad.ros"
    path.write_text(NECRONS.replace(old, new, 1), encoding="utf-8")
    code, out = checked(capsys, path)
    assert code == 2, out
    assert f"bad.ros:{line}:" in out and words in out


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_a_rosz_with_a_corrupt_stream_is_unreadable(bsdata_installed, tmp_path, capsys, method):
    data = bytearray(rosz(tmp_path / "good.rosz", NECRONS.encode(), method).read_bytes())
    start = 30 + len("roster.ros") + 20  # past the local header and the stream's own header
    data[start:start + 40] = bytes(b ^ 0x55 for b in data[start:start + 40])  # was zlib.error, OSError, LZMAError
    (tmp_path / "bad.rosz").write_bytes(bytes(data))
    code, out = checked(capsys, tmp_path / "bad.rosz")
    assert code == 2, out
    assert "bad.rosz: error: the .rosz (a zip archive) is damaged or cut short" in out


KAUYON = (LISTS / "nr-kauyon-legal.txt").read_text(encoding="utf-8")
GLADIUS = (LISTS / "app-gladius-legal.txt").read_text(encoding="utf-8")
HUGE = "9" * 5_000  # past Python's int-string limit: int() raised ValueError


@pytest.mark.parametrize("text, old, name", [
    (KAUYON, "TOTAL ARMY POINTS: 205pts", "TOTAL ARMY POINTS: {}pts"),
    (KAUYON, "1x Strike Team (70 pts)", "1x Strike Team ({} pts)"),
    (KAUYON, "1x Strike Team (70 pts)", "{}x Strike Team (70 pts)"),
    (KAUYON, "• 9x kroot carnivores", "• {}x kroot carnivores"),
    (GLADIUS, "Intercessor Squad (80 points)", "Intercessor Squad ({} points)"),
], ids=["total", "unit-points", "unit-count", "model-count", "app-unit-points"])
def test_list_text_with_a_huge_number_is_unreadable(bsdata_installed, tmp_path, capsys, text, old, name):
    assert old in text
    line = text[:text.index(old)].count("\n") + 1
    (tmp_path / "huge.txt").write_text(text.replace(old, name.format(HUGE), 1), encoding="utf-8")
    code, out = checked(capsys, tmp_path / "huge.txt")
    assert code == 2, out
    assert f"huge.txt:{line}: error: the number 999999999999... (5,000 characters) is larger than any list holds" in out


XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
INJECTED = '<!-- <x -->\n<!DOCTYPE roster [<!ENTITY inj "INJECTED">]>\n'  # the comment hid the DOCTYPE


def hidden_doctype(xml: str, root: str) -> str:
    """The XML with a DOCTYPE declaring an entity after a comment that looks like a start tag, the
    entity used in the root's name."""
    body = xml.removeprefix(XML_DECLARATION)
    return XML_DECLARATION + INJECTED.replace("roster", root) + body.replace(' name="', ' name="&inj;', 1)


@pytest.mark.parametrize("how", ["comment", "utf-16"])
@pytest.mark.parametrize("suffix", [".ros", ".rosz"])
def test_a_roster_declaring_a_doctype_is_refused(bsdata_installed, tmp_path, capsys, how, suffix):
    if how == "comment":
        data = hidden_doctype(NECRONS, "roster").encode()
    else:  # a DOCTYPE the byte search cannot see
        data = ('<?xml version="1.0" encoding="UTF-16"?>\n<!DOCTYPE roster [<!ENTITY inj "INJECTED">]>\n'
                + NECRONS.removeprefix(XML_DECLARATION).replace(' name="', ' name="&inj;', 1)).encode("utf-16")
    path = tmp_path / f"doctype{suffix}"
    if suffix == ".rosz":
        rosz(path, data)
    else:
        path.write_bytes(data)
    code, out = checked(capsys, path, "--format", "json")
    assert code == 2, out
    assert "INJECTED" not in out
    assert {"comment": "declares a DOCTYPE or entities", "utf-16": "not UTF-8" if suffix == ".rosz" else
            "not a list form"}[how] in out


def bsdata_import(capsys, folder: Path) -> tuple[int, str]:
    code = main(["data", "import", "bsdata", str(folder)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.parametrize("how", ["comment", "utf-16"])
def test_a_catalogue_declaring_a_doctype_is_refused(tmp_path, capsys, monkeypatch, how):
    from tests.bsdata_samples import CATALOGUE

    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path / "data"))
    catalogue = CATALOGUE.replace("{link}", "")
    folder = write_sample(tmp_path / "bsdata")
    if how == "comment":
        (folder / "Test - Testers.cat").write_text(hidden_doctype(catalogue, "catalogue"), encoding="utf-8")
    else:
        (folder / "Test - Testers.cat").write_bytes(
            ('<?xml version="1.0" encoding="UTF-16"?>\n<!DOCTYPE catalogue [<!ENTITY inj "INJECTED">]>\n'
             + catalogue.removeprefix(XML_DECLARATION).replace(' name="', ' name="&inj;', 1)).encode("utf-16"))
    code, out = bsdata_import(capsys, folder)
    assert code == 2, out
    assert "Test - Testers.cat" in out and "nothing installed" in out and "INJECTED" not in out
    assert {"comment": "declares a DOCTYPE or entities", "utf-16": "not UTF-8"}[how] in out


def test_a_catalogue_of_another_root_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path / "data"))
    folder = write_sample(tmp_path / "bsdata")
    (folder / "Other.cat").write_text(NECRONS, encoding="utf-8")  # a roster named .cat
    code, out = bsdata_import(capsys, folder)
    assert code == 2, out
    assert "Other.cat:2: error: a BattleScribe data file's root is <catalogue> or <gameSystem>, not <roster>" in out


@pytest.mark.parametrize("units", [1_001, 150_000])
def test_a_list_of_too_many_units_is_refused_before_any_is_placed(bsdata_installed, tmp_path, capsys, units):
    unit = '<selection name="Overlord" type="unit"/>'  # 150,000 took minutes; a 40 KB .rosz
    roster = NECRONS.replace("<selections>", "<selections>" + unit * units, 1)
    start = time.perf_counter()
    code, out = checked(capsys, rosz(tmp_path / "many.rosz", roster.encode()))
    assert code == 2, out
    assert "many.rosz:11: error: the list holds more than 1,000 units (a real army has under 100); it is refused" in out
    assert time.perf_counter() - start < 5


def test_list_text_of_too_many_units_is_refused(bsdata_installed, tmp_path, capsys):
    (tmp_path / "many.txt").write_text(KAUYON + "1x Kroot Carnivores (65 pts)\n" * 1_001, encoding="utf-8")
    code, out = checked(capsys, tmp_path / "many.txt")
    assert code == 2, out
    assert "many.txt:1017: error: the list holds more than 1,000 units" in out


@pytest.mark.parametrize("text, line", [
    (GLADIUS, "  • " + " " * 40_000 + "x"),  # 23 s: a pattern's optional blanks tried at every place
    (GLADIUS, "  • Enhancement: a" + " " * 40_000 + "b"),
    (GLADIUS, "A" + " " * 40_000 + "B (1 points)"),
    (KAUYON, "+ ENHANCEMENT: x " + "(on " * 10_000),  # two lazy parts of one pattern
    (KAUYON, "1x Strike Team (70 pts): " + ", a" * 13_000),  # a lookahead from every comma
], ids=["bullet", "enhancement", "unit", "enhancement-on", "items"])
def test_a_long_line_of_list_text_reads_in_linear_time(tmp_path, text, line):
    from listbuilder.games.wh40k10.listtext import read_app_text, read_new_recruit, text_form

    start = time.perf_counter()
    army = (read_app_text if text is GLADIUS else read_new_recruit)(text + line + "\n")
    assert text_form(text + line + "\n") is not None
    assert time.perf_counter() - start < 0.5
    assert army.units


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("name", ["list.ros", "list.rosz", "list.txt"])
def test_check_refuses_a_fifo_without_blocking(tmp_path, capsys, name):
    code, out = checked(capsys, fifo(tmp_path / name))  # blocked until something wrote to it
    assert code == 2, out
    assert f"{name}: error: cannot read the file: it is not a regular file" in out


@pytest.mark.parametrize("name", ["list.txt", "list.yaml", "list"])
def test_import_refuses_a_fifo_without_blocking(tmp_path, capsys, name):
    assert main(["import", str(fifo(tmp_path / name)), "-o", str(tmp_path / "out.yaml")]) == 2
    assert "cannot read the file: it is not a regular file" in capsys.readouterr().err


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_data_import_reads_only_regular_files(tmp_path, capsys, monkeypatch, special):
    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path / "data"))
    folder = write_sample(tmp_path / "bsdata")
    if special == "fifo":  # blocked
        fifo(folder / "Other.cat")
    else:  # read whole: a link to /dev/zero claims no size
        (folder / "Other.cat").symlink_to(special)
    code, out = bsdata_import(capsys, folder)
    assert code == 2, out
    assert "Other.cat: error: cannot read Other.cat: it is not a regular file" in out and "nothing installed" in out

"""Hostile and damaged input (issue 13): every case exits 2 with file:line:col, or is reported as an
internal error (exit 3) naming its file; the other files of a folder are still reported; reading
is bounded; output shows control characters escaped."""

import json
import os
import stat

import pytest

from listbuilder.cli import main
from listbuilder.core.findings import LoadFailure
from listbuilder.data.yamlfile import MAX_BYTES, read_text
from listbuilder.rosters.files import parse_roster

HEADER = "game: epic-armageddon\narmy: codex-astartes\npoints: 3000\n"
FERAL = "game: epic-armageddon\narmy: feral-orks\npoints: 3000\nformations:\n  - type: Warband\n"


def refused(catalog, text: str):
    with pytest.raises(LoadFailure) as raised:
        parse_roster(text, "r.yaml", catalog)
    [finding] = raised.value.findings
    return finding


def run(capsys, *arguments: str):
    code = main(list(arguments))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("text, code, line, column", [
    (HEADER + "name: " + "[" * 247 + "]" * 247 + "\n", "yaml-too-deep", 4, 31),  # was a RecursionError
    (HEADER.replace("3000", "9" * 331), "number-too-large", 3, 9),  # was an OverflowError
    (HEADER + "name: " + "1" * 4400 + "\n", "number-too-large", 4, 7),  # was a ValueError in the reader
    (FERAL + "    upgrades: {Wildboyz: 1000000000}\n", "count-too-large", 6, 16),  # was 6 GB in 30 s
    (FERAL + "    upgrades: {Wildboyz: 1000000000000000}\n", "number-too-large", 6, 26),
    (FERAL + "    upgrades: {Wildboyz: 100000000}\n", "count-too-large", 6, 16),
    (HEADER + "formations:\n  - type: Scout\n    composition: {Rangers: 1e12}\n", "count-too-large", 6, 19),
    (HEADER + "formations:\n  - {type: Tactical, count: 999}\n", "count-too-large", 5, 22),
    (HEADER + 'name: "\\ud800"\nname: "\\ud800"\n', "yaml-syntax", 5, 1),  # a lone surrogate
    (HEADER + "purchases: !!omap [a: 1]\n", "wrong-value", 4, 1),  # was a TypeError locating the key
    (HEADER + "formations:\n  - &a {type: Tactical}\n", "yaml-alias", 5, 5),
    (HEADER + "? [a]\n: 1\n", "yaml-syntax", 4, 3),
    (HEADER + "---\n" + HEADER, "yaml-syntax", 4, 1),
    (HEADER + "...\n%YAML 1.3\n---\n" + HEADER, "yaml-syntax", 5, 1),  # was ruamel's AssertionError (exit 3)
    ("%YAML 1." + "9" * 5000 + "\n---\n" + HEADER, "yaml-syntax", 1, 18),
    (HEADER + "formations:\n" + "  - type: Bike\n" * 1001, "too-many-formations", 1005, 5),  # was 61 s, 782 MB
    (HEADER + "formations:\n" + "  - type: Bike\n" * 10_001, "too-many-items", 10_005, 5),  # stops reading
])
def test_bad_input_is_one_located_finding(catalog, text, code, line, column):
    finding = refused(catalog, text)
    assert (finding.code, finding.location.line, finding.location.column) == (code, line, column)


def test_the_count_ceiling_comes_from_the_lists(catalog):
    # The largest maximum in Epic Armageddon's lists is 18 (Plague Zombies), 3 times for an 'uge
    # Ork formation; 5,000 points (the game's largest limit) buy 500 of its cheapest 10-point upgrade.
    assert catalog.count_ceiling("epic-armageddon") == 500
    finding = refused(catalog, FERAL + "    upgrades: {Wildboyz: 501}\n")
    assert finding.message == "501 is more than any epic-armageddon list allows anywhere (at most 500)"


def test_a_list_of_picks_under_an_upgrade_that_is_not_a_character_one(catalog, capsys, tmp_path):
    roster = tmp_path / "boarboyz.yaml"
    roster.write_text(FERAL + "    upgrades:\n      Boarboyz: [{character: Warboss, joins: Boyz}]\n")
    code, out, _ = run(capsys, "check", str(roster))
    assert code == 1 and f"{roster}:7:7: error: Boarboyz is not a character upgrade" in out


def test_special_files_are_refused_without_blocking(tmp_path):
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    for path, reason in ((fifo, "it is not a regular file"), ("/dev/zero", "it is not a regular file"),
                         (tmp_path, "Is a directory")):
        with pytest.raises(LoadFailure) as raised:
            read_text(path, str(path))
        assert raised.value.findings[0].message == f"cannot read the file: {reason}"


def test_size_is_counted_while_reading_not_trusted(tmp_path, monkeypatch):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (MAX_BYTES + 1))
    monkeypatch.setattr(os, "fstat", lambda fd: os.stat_result((stat.S_IFREG | 0o644, 0, 0, 1, 0, 0, 0, 0, 0, 0)))
    with pytest.raises(LoadFailure) as raised:
        read_text(big, "big.yaml")
    assert raised.value.findings[0].code == "file-too-large"


def test_text_that_is_not_utf8_is_located(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(HEADER.encode() + "name: Caf\xe9\n".encode("latin-1"))
    with pytest.raises(LoadFailure) as raised:
        read_text(path, "latin1.yaml")
    finding = raised.value.findings[0]
    assert (finding.location.line, finding.location.column) == (4, 10)
    assert "byte 0xe9 is not UTF-8" in finding.message


def test_output_escapes_control_characters(capsys, tmp_path):
    roster = tmp_path / "evil.yaml"
    roster.write_text(HEADER + 'name: "\\e[2K\\e[1AILLEGAL? no\\nfake.yaml: LEGAL"\nformations:\n'
                               '  - {type: Tactical, label: "\\x9b31m\\u202e"}\n')
    code, out, _ = run(capsys, "check", str(roster))
    assert code == 0
    assert "\x1b" not in out and "\x9b" not in out and "\u202e" not in out
    assert "\\u001b[2K\\u001b[1AILLEGAL? no\\u000afake.yaml: LEGAL" in out.splitlines()[0]
    code, out, _ = run(capsys, "check", str(roster), "--format", "json")
    assert "\x9b" not in out and "\u202e" not in out
    assert json.loads(out)["rosters"][0]["formations"][0]["label"] == "\x9b31m\u202e"


def test_every_character_escaped_is_one_python_does_not_print():
    """`printable` leaves a line that Python calls printable as it is, unescaped: that is safe only
    while no character it escapes is printable (they all lie below U+E000)."""
    import re

    from listbuilder.report.safe import UNSAFE, printable

    unsafe = [c for c in map(chr, range(0xE000)) if re.fullmatch(UNSAFE, c)]
    assert len(unsafe) == 32 + 33 + 1 + 2 + 2 + 5 + 4 + 2048
    assert [c for c in unsafe if c.isprintable()] == []
    assert printable("Tactical \u00a0— 5\u202e") == "Tactical \u00a0— 5\\u202e"


def test_a_file_name_that_is_not_utf8_is_reported_escaped(capsys, tmp_path):
    folder = tmp_path / "inbox"
    folder.mkdir()
    (folder / os.fsdecode(b"bad\xff.yaml")).write_text(HEADER)
    code, out, _ = run(capsys, "check", str(folder))
    assert code == 0 and "bad\\udcff.yaml: LEGAL" in out
    code, out, _ = run(capsys, "check", str(folder), "--format", "json")
    assert json.loads(out)["rosters"][0]["file"].endswith("bad\udcff.yaml")


def test_an_internal_error_names_its_file_exits_3_and_the_others_are_still_reported(capsys, tmp_path, monkeypatch):
    folder = tmp_path / "inbox"
    folder.mkdir()
    (folder / "a.yaml").write_text(HEADER)
    (folder / "b.yaml").write_text(HEADER + "name: crash me\n")
    (folder / "c.yaml").write_text("game: [\n")
    from listbuilder.rosters import batch

    validate = batch.validate

    def fragile(roster, catalog):
        if roster.name == "crash me":
            raise ZeroDivisionError("division by zero")
        return validate(roster, catalog)

    monkeypatch.setattr(batch, "validate", fragile)  # what checks each file of a folder
    code, out, _ = run(capsys, "check", str(folder), "--format", "json")
    assert code == 3
    a, b, c = json.loads(out)["rosters"]
    assert a["valid"] is True and c["readable"] is False and c["issues"][0]["code"] == "yaml-syntax"
    assert b["internal_error"] is True and b["issues"][0]["where"] == str(folder / "b.yaml")
    assert "ZeroDivisionError" in b["issues"][0]["message"]
    code, out, _ = run(capsys, "check", str(folder))
    assert code == 3 and f"{folder / 'b.yaml'}: INTERNAL ERROR" in out and "1 of 3 rosters legal" in out


def test_an_unlistable_folder_is_reported_unreadable(capsys, tmp_path, monkeypatch):
    folder = tmp_path / "locked"
    folder.mkdir()

    def refuse(path):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(os, "scandir", refuse)
    code, out, _ = run(capsys, "check", str(folder))
    assert code == 2 and f"{folder}: UNREADABLE" in out


def test_a_closed_pipe_ends_quietly(capsys, monkeypatch, tmp_path):
    from listbuilder import cli

    def closed(*_):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli, "command_check", closed)
    monkeypatch.setattr(cli.os, "dup2", lambda *_: None)
    assert main(["check"]) == 2


def test_unexpected_errors_outside_a_file_exit_3(capsys, monkeypatch):
    from listbuilder.data import catalog

    monkeypatch.setattr(catalog, "load_catalog", lambda: 1 / 0)
    code, _, err = run(capsys, "armies")
    assert code == 3 and "internal error" in err and "ZeroDivisionError" in err


def test_new_refuses_a_negative_points_limit(capsys):
    with pytest.raises(SystemExit) as raised:
        main(["new", "x.yaml", "--points", "-5"])
    assert raised.value.code == 2
    assert "a whole number of points above 0, not '-5'" in capsys.readouterr().err


def test_help_documents_the_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "3 an internal\nerror (a bug" in capsys.readouterr().out


def test_print_takes_long_names_labels_and_many_alike_formations(catalog, tmp_path):
    import io

    from pypdf import PdfReader

    from listbuilder.games import validate
    from listbuilder.report.pdf import roster_pdf
    from listbuilder.report.pdf.document import MAX_TEXT

    text = (HEADER.replace("3000", "5000") + "name: " + "N" * 16_000 + "\nformations:\n  - type: Tactical\n    label: "
            + "L" * 5_500 + "\n" + ("  - {type: Scout, label: " + "S" * 40 + "}\n") * 325)
    result = validate(parse_roster(text, "long.yaml", catalog).roster, catalog)
    pages = PdfReader(io.BytesIO(roster_pdf(result, catalog))).pages
    first = pages[0].extract_text().replace("\n", "")
    assert "N" * (MAX_TEXT - 1) + "..." in first and "N" * MAX_TEXT not in first  # NFKC spells … as ...
    assert len(pages) > 3


def test_print_writes_only_regular_files(capsys, tmp_path):
    fifo = tmp_path / "out.pdf"
    os.mkfifo(fifo)
    roster = tmp_path / "r.yaml"
    roster.write_text(HEADER)
    code, _, err = run(capsys, "print", str(roster), "-o", str(fifo))
    assert code == 2 and "cannot write the PDF: it is not a regular file" in err
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_edit_refuses_an_absurd_count_instead_of_hanging(catalog, capsys, tmp_path):
    from listbuilder.tui import run_editor

    roster = tmp_path / "wildboyz.yaml"
    roster.write_text(FERAL + "    upgrades: {Wildboyz: 100000000}\n")
    assert run_editor(catalog, roster) == 2
    assert f"{roster}:6:16: error: 100,000,000 is more than any epic-armageddon list allows" in capsys.readouterr().err

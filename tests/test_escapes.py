"""Names from a stranger's roster reach no output raw (issue 30): control characters (C0, ESC, the
C1 single bytes CSI and OSC) and bidi overrides and isolates are escaped in every format."""

import csv
import io
import json
from pathlib import Path

import pytest

from listbuilder.cli import main

ROSTERS = Path(__file__).resolve().parent / "rosters"
UNSAFE = ["\x1b", "\x07", "\x9b", "\x9d", "\u202a", "\u202e", "\u2066", "\u2069"]
EVIL_NAME = "\\x9b31mRed\\u202eeman\\x9d0;title\\x07"
EVIL_LABEL = "\\e]52;c;aGk=\\a\\u2066x\\u2069\\u202a"


def run(capsys, *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def raw(text: str) -> list[str]:
    return [c for c in UNSAFE if c in text]


@pytest.fixture
def evil(tmp_path) -> Path:
    roster = tmp_path / "evil.yaml"
    text = (ROSTERS / "codex-astartes" / "legal-scouts.yaml").read_text()
    text = text.replace("name: Scouts and Devastators", f'name: "{EVIL_NAME}"')
    text = text.replace("  - type: Scout\n", f'  - type: Scout\n    label: "{EVIL_LABEL}"\n', 1)
    assert EVIL_NAME in text and EVIL_LABEL in text
    roster.write_text(text)
    return roster


@pytest.mark.parametrize("form", ["csv", "html"])
def test_check_reports_escape_names(capsys, evil, form):
    code, out, _ = run(capsys, "check", str(evil), "--format", form)
    assert code == 0 and raw(out) == []
    assert "\\u009b31mRed\\u202eeman\\u009d0;title\\u0007" in out


def test_csv_cells_stay_cells(capsys, evil):
    _, out, _ = run(capsys, "check", str(evil), "--format", "csv")
    [row] = list(csv.DictReader(io.StringIO(out)))
    assert row["name"] == "\\u009b31mRed\\u202eeman\\u009d0;title\\u0007"


def test_diff_escapes_names(capsys, evil, tmp_path):
    before = tmp_path / "before.yaml"
    before.write_text((ROSTERS / "codex-astartes" / "legal-scouts.yaml").read_text())
    code, out, _ = run(capsys, "diff", str(before), str(evil))
    assert code == 1 and "name: " in out and raw(out) == []


@pytest.mark.parametrize("form", ["text", "markdown"])
def test_export_escapes_names(capsys, evil, form):
    code, out, _ = run(capsys, "export", str(evil), "--format", form)
    assert code == 0 and "Red" in out and raw(out) == []


def test_import_escapes_names(capsys, evil, tmp_path):
    listed = tmp_path / "list.txt"
    assert main(["export", str(evil), "-o", str(listed)]) == 0
    assert "\u202e" in listed.read_text()  # the file written keeps what the roster holds
    capsys.readouterr()
    code, out, err = run(capsys, "import", str(listed))
    assert code == 0 and "Red" in out and raw(out) == [] and raw(err) == []


@pytest.mark.parametrize("name, shown", [(" =HYPERLINK(\"x\")", "' =HYPERLINK(\"x\")"), ("  +1+1", "'  +1+1"),
                                         ("\uff1d1+1", "'\uff1d1+1"), (" -1+1", "' -1+1"), ("\uff0b1", "'\uff0b1"),
                                         ("\t=1+1", "\\u0009=1+1"), ("\r@SUM(A1)", "\\u000d@SUM(A1)")])
def test_csv_cells_that_a_spreadsheet_would_read_as_formulas_are_quoted(capsys, tmp_path, name, shown):
    """A formula after spaces, or after a fullwidth '＝', is quoted; a tab or CR is escaped (it is a
    control character), so the cell starts with a backslash, which no spreadsheet reads as a formula."""
    roster = tmp_path / "sneaky.yaml"
    roster.write_text((ROSTERS / "codex-astartes" / "legal-scouts.yaml").read_text().replace(
        "name: Scouts and Devastators", f"name: {json.dumps(name)}"))  # JSON strings are YAML's
    _, out, _ = run(capsys, "check", str(roster), "--format", "csv")
    [row] = list(csv.DictReader(io.StringIO(out.removeprefix("\ufeff"))))
    assert row["name"] == shown


def test_neutral_takes_out_what_printable_escapes_and_keeps_the_width():
    from rich.cells import cell_len

    from listbuilder.report.safe import neutral

    text = "Co\x1b]52;c;aGk=\x07\x9b31m\u202eX\u2066Y\u2069\ud800"
    assert neutral(text) == "Co]52;c;aGk=31mXY\ufffd"
    assert cell_len(neutral(text)) == cell_len(text)
    assert neutral("Tactical “Hale” · Khorne") == "Tactical “Hale” · Khorne"

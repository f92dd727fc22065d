"""A newcomer's first hour: `import` of a file that is already a roster says so, once, instead of a
'cannot place' line for each of its lines."""

from pathlib import Path

from listbuilder.cli import main

ROSTER = Path(__file__).resolve().parent / "rosters" / "codex-astartes" / "illegal-drop-pods.yaml"


def test_import_of_a_roster_file_says_it_is_one_already(tmp_path, capsys):
    output = tmp_path / "out.yaml"
    assert main(["import", str(ROSTER), "-o", str(output)]) == 2
    err = capsys.readouterr().err
    assert err == (f"{ROSTER}: this is already a roster file; check or edit it directly: `listbuilder check {ROSTER}`, "
                   f"`listbuilder edit {ROSTER}`\n")
    assert not output.exists()


def test_import_still_reads_list_text(tmp_path, capsys):
    text = tmp_path / "post.txt"
    assert main(["export", str(ROSTER), "-o", str(text)]) == 0
    assert main(["import", str(text), "-o", str(tmp_path / "back.yaml")]) == 0
    assert "imported" in capsys.readouterr().err

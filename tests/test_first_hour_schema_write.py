"""A newcomer's first hour: `schema --write` to a folder that cannot be written is exit 2 with a clear
message, not an internal error."""

import pytest

from listbuilder.cli import main


@pytest.mark.parametrize("where", ["/proc/x", "file"])
def test_schema_write_to_a_folder_that_cannot_be_written_is_exit_2(tmp_path, capsys, where):
    target = tmp_path / "file" if where == "file" else where
    if where == "file":
        target.write_text("not a folder\n")  # a file where the folder should be
    assert main(["schema", "--write", str(target)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"{target}: cannot write the schemas there: ")
    assert "give a folder you can write to" in captured.err and "internal error" not in captured.err


def test_schema_write_still_writes(tmp_path, capsys):
    assert main(["schema", "--write", str(tmp_path / "schemas")]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(list((tmp_path / "schemas").iterdir())) > 0

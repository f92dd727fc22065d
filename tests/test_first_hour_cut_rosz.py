"""A .rosz cut short or damaged (an interrupted download) is refused in a player's words, with the
file's name and what to do, by `check` and `import` alike: never Python's zipfile wording ("negative
seek value", "File is not a zip file", a zlib error number)."""

from pathlib import Path

import pytest

from listbuilder.cli import main

ROSZ = Path(__file__).parent / "wh40k-lists" / "real" / "battlescribe" / "bs-necrons-awakened.rosz"
PYTHONS = ("seek", "File is not a zip file", "Error -3", "codec", "Traceback")


@pytest.mark.parametrize("cut", [
    pytest.param(lambda data: data[:2000], id="end-cut-off"),
    pytest.param(lambda data: data[:4] + data[5:], id="a-byte-of-the-header-lost"),
    pytest.param(lambda data: data[:300] + data[500:], id="a-piece-of-the-middle-lost"),
    pytest.param(lambda data: data[8:], id="start-cut-off"),  # no longer begins as a zip archive
])
@pytest.mark.parametrize("command", ["check", "import"])
def test_a_cut_rosz_is_a_players_message_with_the_file_and_what_to_do(cut, command, tmp_path, capsys):
    path = tmp_path / "army.rosz"
    path.write_bytes(cut(ROSZ.read_bytes()))
    assert main([command, str(path)]) == 2
    shown = capsys.readouterr()
    said = shown.out + shown.err
    assert f"{path}: error: the .rosz (a zip archive) is " in said
    assert "(an interrupted download or copy?): its roster cannot be unzipped" in said
    assert "save the list again from BattleScribe or New Recruit" in said
    assert not any(words in said for words in PYTHONS), said

"""A roster value of the wrong kind is said in a player's words (data/yamlfile.py `_plain`), never in
the validation library's ("Input should be a valid integer, unable to parse string as an integer")."""

import pytest

from listbuilder.cli import main

ROSTER = "game: epic-armageddon\narmy: Steel Legion\npoints: {}\nformations: []\n"


@pytest.mark.parametrize(("written", "said"), [
    ("!!int abc", "points: should be a whole number (got 'abc')"),
    ("!!bool maybe", "points: should be a whole number (got 'maybe')"),
    ("x", "points: should be a whole number (got 'x')"),
    ("-5", "points: should be more than 0 (got -5)"),
    ("[1]", "points: should be a whole number (got [1])"),
])
def test_a_wrong_points_value_is_said_plainly(written, said, tmp_path, capsys):
    roster = tmp_path / "roster.yaml"
    roster.write_text(ROSTER.format(written), encoding="utf-8")
    assert main(["check", str(roster)]) == 2
    out = capsys.readouterr()
    assert f"{roster.name}:3:1: error: {said}" in out.out + out.err
    assert "Input should" not in out.out + out.err


def test_a_wrong_kind_of_formations_is_said_plainly(tmp_path, capsys):
    roster = tmp_path / "roster.yaml"
    roster.write_text("game: epic-armageddon\narmy: Steel Legion\npoints: 3000\nformations: {a: 1}\n",
                      encoding="utf-8")
    assert main(["check", str(roster)]) == 2
    out = capsys.readouterr()
    assert "formations: should be a list (one `- ` line per item) (got {'a': 1})" in out.out + out.err

"""A newcomer's first hour: a file that is no roster at all (empty, a YAML list, Markdown) is said
so in a player's words, with what a roster holds; never pydantic's wording."""

import pytest

from listbuilder.cli import main


@pytest.mark.parametrize(("name", "text", "what"), [
    ("empty.yaml", "", "the file is empty"),
    ("list.yaml", "- a\n- b\n", "the file is a YAML list, not a roster"),
    ("notes.md", "# My army\n\nSome text\n", "the file is a Markdown document, not a roster"),
])
def test_a_file_that_is_no_roster_says_what_it_is_and_what_a_roster_needs(tmp_path, capsys, name, text, what):
    path = tmp_path / name
    path.write_text(text)
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().out
    assert f"{path}: error: {what}: a roster is a YAML mapping of `game:` and the army" in err
    assert "wh40k-10e: `faction:`, `battle_size:`, `detachment:`, `units:`" in err
    assert "epic-armageddon: `army:`, `points:`, `formations:`" in err
    assert "listbuilder new FILE" in err
    assert "Input should be" not in err and "document:" not in err

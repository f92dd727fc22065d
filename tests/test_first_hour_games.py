"""A newcomer's first hour: a roster whose `game:` is not a known game's id is told so (with the
game it likely means), not read against another game's schema; one without `game:` is told it
lacks it, with every game listed."""

import pytest

from listbuilder.cli import main

EVERY_ID = "epic-armageddon, epic-remastered, wh40k-10e"
EVERY_GAME = ("epic-armageddon (Epic Armageddon), epic-remastered (Epic Remastered), "
              "wh40k-10e (Warhammer 40,000 10th edition)")


@pytest.mark.parametrize(("written", "meant"), [
    ("warhammer-40k", "wh40k-10e"), ("40k", "wh40k-10e"),
    ("Warhammer 40,000", "wh40k-10e"), ("epic-armagedon", "epic-armageddon")])
def test_an_unknown_game_is_named_with_the_game_it_likely_means(tmp_path, capsys, written, meant):
    roster = tmp_path / "army.yaml"
    roster.write_text(f"game: {written}\nname: My army\nfaction: Necrons\n")
    assert main(["check", str(roster)]) == 2
    out = capsys.readouterr().out
    assert f"{roster}:1:1: error: unknown game '{written}' (known: {EVERY_ID}) (did you mean '{meant}'?)" in out
    assert "'army' is required" not in out and "unknown key" not in out


def test_a_mapping_without_game_says_it_lacks_game(tmp_path, capsys):
    roster = tmp_path / "army.yaml"
    roster.write_text("name: My army\narmy: codex-astartes\n")
    assert main(["check", str(roster)]) == 2
    out = capsys.readouterr().out
    assert f"{roster}:1:1: error: the file has no `game:`, so it is not a roster" in out
    assert EVERY_GAME in out and "'points' is required" not in out


def test_a_game_that_is_not_text_is_said_so(tmp_path, capsys):
    roster = tmp_path / "army.yaml"
    roster.write_text("game: 40\nname: My army\n")
    assert main(["check", str(roster)]) == 2
    out = capsys.readouterr().out
    assert f"{roster}:1:1: error: `game:` is the number 40, not a game's id (known: {EVERY_GAME})" in out
    assert "Input should be" not in out

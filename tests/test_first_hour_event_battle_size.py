"""A newcomer's first hour: an event's points that a 40k roster's battle size does not match suggest
the battle size to set, where its `battle_size:` is, never `points:` (which a 40k roster has not).
Needs the BSData snapshot of ../shared (skipped without it)."""

from pathlib import Path

from listbuilder.cli import main

ROSTER = Path(__file__).resolve().parent / "wh40k-rosters" / "tau-empire" / "legal-kauyon.yaml"


def test_an_event_of_another_battle_size_suggests_that_battle_size(bsdata_installed, tmp_path, capsys):
    assert main(["check", "--points", "1000", str(ROSTER)]) == 1
    out = capsys.readouterr().out
    assert (f"{ROSTER}:5:1: error: the roster's limit is 2,000 points; the event is played at 1,000 "
            "(set battle_size: Incursion)") in out
    assert "set points" not in out


def test_event_points_that_are_no_battle_size_say_which_there_are(bsdata_installed, tmp_path, capsys):
    assert main(["check", "--points", "1500", str(ROSTER)]) == 1
    out = capsys.readouterr().out
    assert ("(no battle size is 1,500 points (Incursion 1,000, Strike Force 2,000, Onslaught 3,000): ask the "
            "organiser which one is played)") in out
    assert "set points" not in out

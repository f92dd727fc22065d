"""A newcomer's first hour: an event's points that a 40k roster's battle size does not match suggest
the battle size to set, where its `battle_size:` is, never `points:` (which a 40k roster has not);
points between battle sizes cap the army's total within the battle size that holds them.
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


def test_event_points_that_are_no_battle_size_cap_the_battle_size_that_holds_them(bsdata_installed, capsys):
    """D40: a 1,500-point event is played at Strike Force, the army's total capped at 1,500. The
    roster (980 points, Strike Force) is legal there; at 900 it is at the wrong battle size and over
    the cap, two mistakes; points no battle size holds say which there are."""
    assert main(["check", "--points", "1500", str(ROSTER)]) == 0
    assert main(["check", "--points", "900", str(ROSTER)]) == 1
    out = capsys.readouterr().out
    assert (f"{ROSTER}:5:1: error: the roster's limit is 2,000 points; the event is played at 900 (within "
            "Incursion's 1,000) (set battle_size: Incursion) [event rules]") in out
    assert ("error: the army costs 980 points, 80 over the 900 of the event (take 80 points of units or wargear "
            "out) [event rules]") in out
    assert main(["check", "--points", "4000", str(ROSTER)]) == 1
    out = capsys.readouterr().out
    assert ("(no battle size holds 4,000 points (Incursion 1,000, Strike Force 2,000, Onslaught 3,000): ask the "
            "organiser which one is played)") in out
    assert "set points" not in out

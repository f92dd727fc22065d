"""`diff` of rosters whose entries are units (report/diff.py summary_diff): a unit moved to another
place in the file is the same unit, not one removed and one added (issue 30, "40k details")."""

from pathlib import Path

from listbuilder.cli import main

ROSTER = Path(__file__).resolve().parent / "wh40k-rosters" / "tau-empire" / "legal-kauyon.yaml"
PATHFINDERS = "  - type: Pathfinder Team\n    reserves: true\n"


def test_a_unit_moved_to_the_top_is_no_change(bsdata_installed, tmp_path, capsys):
    text = ROSTER.read_text(encoding="utf-8")
    assert PATHFINDERS in text
    moved = tmp_path / "moved.yaml"
    moved.write_text(text.replace(PATHFINDERS, "").replace("units:\n", "units:\n" + PATHFINDERS, 1), encoding="utf-8")
    assert main(["diff", str(ROSTER), str(moved)]) == 0
    assert capsys.readouterr().out == f"{ROSTER} and {moved} are the same roster\n"


def test_a_moved_unit_that_changed_shows_its_change_only(bsdata_installed, tmp_path, capsys):
    """The Pathfinders moved to the top and out of Strategic Reserves: one change, at its new place."""
    text = ROSTER.read_text(encoding="utf-8")
    moved = tmp_path / "moved.yaml"
    moved.write_text(text.replace(PATHFINDERS, "").replace("units:\n", "units:\n  - type: Pathfinder Team\n", 1),
                     encoding="utf-8")
    assert main(["diff", str(ROSTER), str(moved)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert not [line for line in out if line.startswith(("+ ", "− "))]
    [changed] = [line for line in out if line.startswith("~ ")]
    assert changed.startswith("~ #10 → #1 ") and "Pathfinder Team" in changed

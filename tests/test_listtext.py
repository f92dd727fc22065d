"""Lists as text: the export players post, read back into the same roster; lenient reading of what
people write, and every line that cannot be placed reported with its number."""

from pathlib import Path

import pytest

from listbuilder.core.findings import LoadFailure
from listbuilder.games import validate
from listbuilder.listengine.read_text import read_list_text
from listbuilder.listengine.text import list_text
from listbuilder.rosters.files import read_roster

ROSTERS = Path(__file__).resolve().parent / "rosters"


def _readable(catalog):
    for path in sorted(ROSTERS.rglob("*.yaml")):
        try:
            yield path, read_roster(path, catalog).roster
        except LoadFailure:
            continue  # the unreadable examples have no roster to export


@pytest.mark.parametrize("markdown", [False, True], ids=["text", "markdown"])
def test_export_then_import_gives_the_same_roster_for_every_example(catalog, markdown):
    checked = 0
    for path, roster in _readable(catalog):
        text = list_text(validate(roster, catalog), catalog, markdown)
        back = read_list_text(text, "list.txt", catalog)
        assert [f for f in back.findings if f.code != "import-unknown-name"] == [], f"{path}:\n{text}"
        army_id = catalog.find_list(roster.game, roster.army).id  # the export prints the army's name
        assert back.roster == roster.model_copy(update={"army": army_id}), f"{path}:\n{text}"
        checked += 1
    assert checked >= 100


def test_export_is_the_compact_list_players_post(catalog):
    roster = read_roster(ROSTERS / "codex-astartes" / "legal-allies.yaml", catalog).roster
    assert list_text(validate(roster, catalog), catalog) == (
        "Titans and aircraft as allies\n"
        "Epic Armageddon — Space Marines – Codex Astartes — 3,000 points\n"
        "\n"
        "Tactical — 400 pts\n"
        "  + Commander: Supreme Commander with Tactical\n"
        "  (6 Tactical, 3 Rhinos (transport); Supreme Commander with a Tactical)\n"
        "Devastator — 360 pts\n"
        "  + Land Raiders ×1\n"
        "  + Razorbacks ×1\n"
        "  Razorback wargear: Twin Heavy Bolter\n"
        "  (4 Devastators, 1 Land Raider, 1 Razorback (Twin Heavy Bolter), 1 Rhino (transport))\n"
        "2 × Warhound Titans — 500 pts\n"
        "  (2 Warhound Titans)\n"
        "Thunderbolt Fighters — 150 pts\n"
        "  (2 Thunderbolt Fighters)\n"
        "Marauder Bombers — 250 pts\n"
        "  (2 Marauder Bombers)\n"
        "\n"
        "Total: 1,660 of 3,000 points\n")


def test_export_quotes_names_it_does_not_know(catalog):
    roster = read_roster(ROSTERS / "codex-astartes" / "illegal-unknown-names.yaml", catalog).roster
    text = list_text(validate(roster, catalog), catalog)
    assert '\n"Tactikal"\n' in text and '+ "Attack Bikes" ×2' in text  # read literally, not as 'Attack Bike'


def test_import_is_lenient_where_a_person_would_be(catalog):
    text = """My marines
epic armageddon - Codex Astartes - 3000 points

1. TACTICAL DETACHMENT (450 pts)
   + commander: supreme commander with a tactical
   + razorback x2
   transport: rhinos
2x warhound titan
"""
    back = read_list_text(text, "post.txt", catalog)
    assert back.findings == []
    roster = back.roster
    assert (roster.name, roster.army, roster.points) == ("My marines", "codex-astartes", 3000)
    tactical, titans = roster.formations
    assert tactical.type == "Tactical" and tactical.transport == "Rhino"
    assert tactical.upgrades["Razorbacks"] == 2
    assert tactical.upgrades["commander"].character == "supreme commander"
    assert (titans.type, titans.count) == ("Warhound Titans", 2)


def test_import_reports_every_line_it_cannot_place(catalog, tmp_path):
    text = """Epic Armageddon — Codex Astartes — 3,000 points
  + Hunter ×1
Tactical — 300 pts
Please find my list attached
Tactikal — 300 pts
"""
    back = read_list_text(text, "post.txt", catalog)
    assert back.roster is None
    errors = [(f.location.line, f.code) for f in back.findings if f.severity == "error"]
    assert errors == [(2, "import-unplaced-line"), (4, "import-unplaced-line")]
    [kept] = [f for f in back.findings if f.severity == "warning"]
    assert kept.location.line == 5 and "'Tactikal' is not a known formation; kept as written" in kept.message
    assert kept.suggestion == "did you mean 'Tactical'?"


def test_import_warns_where_a_stated_cost_or_units_line_differs(catalog):
    text = ("Epic Armageddon — Codex Astartes — 3,000 points\nTactical — 275 pts\n  (6 Tactical, 2 Rhino (transport))\n"
            "Total: 299 points\n")
    back = read_list_text(text, "post.txt", catalog)
    assert back.roster is not None
    assert [(f.location.line, f.message) for f in back.findings] == [
        (2, "the text gives Tactical 275 pts; it costs 300"),
        (3, "the text gives Tactical '6 Tactical, 2 Rhino (transport)'; it makes '6 Tactical, 3 Rhinos (transport)'"),
        (4, "the text gives a total of 299 points; the roster costs 300")]


def test_a_units_line_in_the_singular_as_older_exports_wrote_it_is_no_warning(catalog):
    text = "Epic Armageddon — Codex Astartes — 3,000 points\nTactical — 300 pts\n  (6 Tactical, 3 Rhino (transport))\n"
    assert read_list_text(text, "post.txt", catalog).findings == []


def test_import_without_a_header_says_what_is_missing(catalog):
    back = read_list_text("Tactical\n", "post.txt", catalog)
    assert back.roster is None
    assert [f.code for f in back.findings] == ["import-no-header"]


def test_import_does_not_read_huge_numbers_as_counts(catalog):
    text = "Epic Armageddon — Codex Astartes — 3,000 points\nTactical\n  + Hunter ×999999999\n99999999 × Tactical\n"
    back = read_list_text(text, "post.txt", catalog)
    assert back.roster is None
    assert [(f.location.line, f.severity) for f in back.findings] == [(3, "warning"), (4, "error")]


def test_import_refuses_text_larger_than_a_roster_file_may_be(catalog):
    back = read_list_text("Tactical\n" * 200_000, "post.txt", catalog)
    assert back.roster is None and [f.code for f in back.findings] == ["file-too-large"]


def test_an_upgrade_that_comes_whole_says_what_it_takes_and_reads_back(catalog):
    """The editor writes 'Fire Support Platoon: 4' (units); 'Fire Support Platoon ×4' read as four
    platoons. The text names the upgrade once with what it takes (seed 000 L9892-9894)."""
    roster = read_roster(ROSTERS / "steel-legion" / "legal-commissars.yaml", catalog).roster
    hq = roster.formations[0]
    taken = roster.model_copy(update={"formations": [
        hq.model_copy(update={"upgrades": {**hq.upgrades, "Fire Support Platoon": 4}}), *roster.formations[1:]]})
    text = list_text(validate(taken, catalog), catalog)
    assert "  + Fire Support Platoon (4 Fire Support)\n" in text and "×4" not in text
    back = read_list_text(text, "list.txt", catalog)
    assert back.findings == []
    assert back.roster == taken


def test_an_upgrade_that_comes_whole_warns_when_the_text_names_another_unit(catalog):
    text = ("Epic Armageddon — Steel Legion — 3,000 points\nRegimental HQ\n"
            "  + Fire Support Platoon (4 Leman Russ)\n")
    back = read_list_text(text, "post.txt", catalog)
    assert back.roster is not None and back.roster.formations[0].upgrades == {"Fire Support Platoon": 4}
    assert [(f.location.line, f.message) for f in back.findings] == [
        (3, "Fire Support Platoon takes Fire Support, not 'Leman Russ'; read as 4 Fire Support")]

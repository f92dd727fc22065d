"""Epic Remastered list text: `export` writes the roster as players post it, plain or Markdown, and
`import` (and `check` of a .txt file) reads it back into the same roster; a line it cannot place is an
error with its number."""

import time
from pathlib import Path

import pytest

from listbuilder.cli import main
from listbuilder.data.catalog import load_catalog
from listbuilder.games import validate
from listbuilder.games.epic_remastered.read_text import read_list_text
from listbuilder.games.epic_remastered.text import FORM, list_text
from listbuilder.rosters.files import read_roster
from listbuilder.rosters.lists import read_list_data

from .test_er_data import FLYERS_AND_BOYZ, data_root

ROSTERS = Path(__file__).resolve().parent / "epic-remastered-rosters"


@pytest.mark.parametrize("markdown", [False, True], ids=["text", "markdown"])
def test_export_then_import_gives_the_same_roster_for_every_example(catalog, markdown):
    paths = sorted(ROSTERS.glob("*.yaml"))
    assert len(paths) >= 6
    for path in paths:
        roster = read_roster(path, catalog).roster
        text = list_text(validate(roster, catalog), catalog, markdown)
        back = read_list_data(text.encode(), "list.txt", catalog, fallback=True)  # told from EA list text
        assert (back.form, back.findings) == (FORM, []), f"{path}:\n{text}"
        assert back.roster == roster, f"{path}:\n{text}"


def test_export_is_the_compact_list_players_post(catalog, tmp_path, capsys):
    output = tmp_path / "post.txt"
    assert main(["export", str(ROSTERS / "war-engines.yaml"), "-o", str(output)]) == 0
    assert output.read_text(encoding="utf-8") == (
        "War engines\n"
        "Epic Remastered — Core rules samples\n"
        "\n"
        "Ork Great Gargant\n"
        "  1 × Great Gargant\n"
        "  (1 unit; HQ Great Gargant)\n"
        "Imperial Guard Super Heavy Tank Company “four Baneblades”\n"
        "  4 × Baneblade\n"
        "  (4 units; HQ Baneblade)\n"
        "Imperial Guard Super Heavy Tank Company “three Baneblades”\n"
        "  3 × Baneblade\n"
        "  (3 units; HQ Baneblade)\n"
        "Imperial Warlord Titan\n"
        "  1 × Imperial Warlord Titan\n"
        "  (1 unit; HQ Imperial Warlord Titan)\n"
        "Imperial Warhound Titans\n"
        "  2 × Imperial Warhound Titan\n"
        "  (2 units; HQ Imperial Warhound Titan)\n")


def test_a_priced_roster_states_its_points_hq_and_upgrades_and_reads_back(orks_catalog):
    text = ("Epic Remastered — Test Orks — 1,000 points\n\nOrk Mob “Da Boyz” — 190 pts\n  HQ: Ork Warboss\n"
            "  1 × Ork Warboss\n  4 × Ork Boyz (Big Shoota), with 1 × Battlefortress\n  (6 units; HQ Ork Warboss)\n"
            "\nTotal: 190 of 1,000 points\n")
    back = read_list_text(text.encode(), FORM, "post.txt", orks_catalog)
    assert back.findings == []
    mob = back.roster.detachments[0]
    assert (back.roster.points, mob.label, mob.hq) == (1000, "Da Boyz", "Ork Warboss")
    assert (mob.units[1].count, mob.units[1].upgrades, mob.units[1].transport.unit) == (4, ["Big Shoota"],
                                                                                        "Battlefortress")
    assert list_text(validate(back.roster, orks_catalog), orks_catalog) == text


def test_import_reports_every_line_it_cannot_place(catalog, tmp_path, capsys):
    post = tmp_path / "post.txt"
    post.write_text("My army\nEpic Remastered — Ork Horde\n  1 × Ork Warboss\n", encoding="utf-8")
    assert main(["import", str(post)]) == 2
    err = capsys.readouterr().err
    assert "post.txt:2: error: cannot place 'Epic Remastered — Ork Horde': unknown army list 'Ork Horde' " \
           "(known: core-samples)" in err
    post.write_text("Epic Remastered — Core rules samples\n  1 × Ork Warboss\nOrk Mob\n  0 × Ork Boyz\n",
                    encoding="utf-8")
    assert main(["import", str(post)]) == 2
    err = capsys.readouterr().err
    assert "post.txt:2: error: cannot place '1 × Ork Warboss': it comes before the first detachment" in err
    assert "post.txt:4: error: cannot place '0 × Ork Boyz': a count is 1 or more" in err


def test_check_reads_list_text_and_locates_findings_on_its_lines(tmp_path, capsys):
    post = tmp_path / "post.txt"
    post.write_text("Epic Remastered — Core rules samples\n\nOrk Mob\n  1 × Ork Warboss\n"
                    "  5 × Ork Boyz, with 1 × Ork Battlefortress\n", encoding="utf-8")
    assert main(["check", str(post)]) == 1
    out = capsys.readouterr().out
    assert f"{post}:5: error: 5 Ork Boyz do not fit in 1 Ork Battlefortress" in out


@pytest.fixture(scope="module")
def orks_catalog(tmp_path_factory):
    lists = FLYERS_AND_BOYZ["list"].replace("{unit: Ork Boyz, points: 10, transports: [Battlefortress]}",
                                            "{unit: Ork Boyz, points: 10, transports: [Battlefortress], "
                                            "upgrades: [{name: Big Shoota, abilities: [Firepower +1], points: 5}]}")
    root = data_root(tmp_path_factory.mktemp("orks"), {"test-orks": lists}, {"flyers": FLYERS_AND_BOYZ["sheets"]})
    return load_catalog(root, use_cache=False)


@pytest.mark.parametrize("line", ["1 × a" + " " * 900_000 + "(x", "x" + " “" * 400_000, "x" + " " * 900_000 + "“",
                                  "1 × a" + ", with 1 × " * 80_000, "1 × a" + " (" * 400_000 + ")"],
                         ids=["spaces-then-bracket", "opening-quotes", "spaces-then-quote", "withs", "brackets"])
def test_reading_a_hostile_line_takes_linear_time(catalog, line):
    """Patterns of optional parts after a lazy name retried at every character: minutes for a line."""
    text = f"Epic Remastered — Core rules samples\nOrk Mob\n{line}\n".encode()[:999_000]
    started = time.perf_counter()
    read_list_text(text, FORM, "post.txt", catalog)
    assert time.perf_counter() - started < 1

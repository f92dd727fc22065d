"""Every datasheet traces to the seed lines it came from, and the values the lists rely on hold."""

import difflib
import re

import pytest

from .conftest import SEEDS

SEED = SEEDS / "000_bbb4a0604920da2d.txt"


def words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.casefold().replace("’", "'"))


@pytest.mark.skipif(not SEED.exists(), reason="the rules documents (../shared/seeds) are not beside the project")
def test_every_unit_cites_lines_that_name_it(catalog):
    seed = SEED.read_text(encoding="utf-8").splitlines()
    untraced = []
    for stem, sheets in catalog.datasheets["epic-armageddon"].items():
        for unit in sheets.units:
            first = words(unit.name)[0]
            nearby = {w for line in unit.lines for i in range(line - 4, line + 3) if 0 <= i < len(seed)
                      for w in words(seed[i])}
            if not difflib.get_close_matches(first, nearby, n=1, cutoff=0.75):
                untraced.append(f"{stem}: {unit.name} {unit.lines[:3]}")
            assert all(0 < line <= len(seed) for line in unit.lines), unit.name
    assert untraced == []


def test_space_marine_transport_capacities(catalog):
    view = catalog.view("epic-armageddon", "codex-astartes")
    rhino, razorback, land_raider = (view.unit(n) for n in ("Rhino", "Razorback", "Land Raider"))
    assert [(c.slots, c.carries) for c in rhino.transport] == [(2, {"Tactical": 1, "Devastator": 1, "Scout": 1})]
    assert razorback.transport[0].slots == 1
    assert land_raider.transport[0].carries["Terminator"] == 2  # one Terminator fills it (L3687)


def test_titan_war_engine_values(catalog):
    titans = {u.name: u for u in catalog.datasheets["epic-armageddon"]["titan-legions"].units}
    assert [(n, titans[n].damage_capacity, titans[n].void_shields) for n in sorted(titans)] == [
        ("Reaver Titan", 6, 4), ("Warhound Titan", 3, 2), ("Warlord Titan", 8, 6)]
    assert all(t.critical_hit for t in titans.values())


def test_notes_speak_to_players_not_to_data_authors(catalog):
    """How a value was read off the rules documents belongs in DECISIONS.md and YAML comments,
    not on a player's datasheet."""
    author_words = re.compile(r"print|column|extract|orphan|uncertain|the sheet|taken here|transcri", re.IGNORECASE)
    notes = [(stem, unit.name, note) for stem, file in catalog.datasheets["epic-armageddon"].items()
             for unit in file.units for note in unit.notes if author_words.search(note)]
    assert notes == []

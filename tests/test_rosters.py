"""Saving rosters: atomic, the previous version kept, comments and key order preserved."""


import pytest

from listbuilder.core.roster import CharacterPick
from listbuilder.rosters.files import backup_path, dump, parse_roster, read_roster, save_text

HAND_WRITTEN = """\
# My list for the club tournament
game: epic-armageddon
army: codex-astartes
points: 3000   # agreed with Sam
name: Ultramarines
formations:
  # the anvil
  - type: Tactical
    upgrades:
      Hunter: 1   # anti-air
  - type: Scout
    transport: on foot
"""


def test_save_keeps_comments_and_order(catalog, tmp_path):
    path = tmp_path / "list.yaml"
    path.write_text(HAND_WRITTEN)
    loaded = read_roster(path, catalog, round_trip=True)
    first = loaded.roster.formations[0]
    changed = loaded.roster.model_copy(update={"formations": [
        first.model_copy(update={"upgrades": {**first.upgrades, "Commander": CharacterPick(character="Captain",
                                                                                            joins="Tactical")}}),
        *loaded.roster.formations[1:]]})
    save_text(path, dump(changed, loaded.document))
    text = path.read_text()
    for comment in ("# My list for the club tournament", "# agreed with Sam", "# the anvil", "# anti-air"):
        assert comment in text
    assert text.index("game:") < text.index("army:") < text.index("points:") < text.index("formations:")
    again = read_roster(path, catalog).roster
    assert again == changed
    assert backup_path(path).read_text() == HAND_WRITTEN


def test_unchanged_roster_saves_byte_for_byte(catalog, tmp_path):
    path = tmp_path / "list.yaml"
    path.write_text(HAND_WRITTEN)
    loaded = read_roster(path, catalog, round_trip=True)
    assert dump(loaded.roster, loaded.document) == HAND_WRITTEN


def test_dump_of_a_new_roster_reads_back(catalog):
    roster = parse_roster(HAND_WRITTEN, "x", catalog).roster
    assert parse_roster(dump(roster), "y", catalog).roster == roster


def test_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "list.yaml"
    path.write_text("old")

    def broken_replace(*_):
        raise OSError("disk full")

    monkeypatch.setattr("listbuilder.rosters.files.os.replace", broken_replace)
    with pytest.raises(OSError):
        save_text(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_first_save_makes_no_backup(tmp_path):
    path = tmp_path / "fresh.yaml"
    save_text(path, "game: x\n")
    assert path.read_text() == "game: x\n"
    assert not backup_path(path).exists()

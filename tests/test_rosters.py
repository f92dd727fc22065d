"""Saving rosters: atomic, the previous version kept, comments and key order preserved."""

import os
import stat
from pathlib import Path

import pytest

from listbuilder.listengine.roster import CharacterPick
from listbuilder.rosters.files import backup_path, dump, parse_roster, read_roster, save_bytes, save_text

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


COMMENTED = """\
game: epic-armageddon
army: codex-astartes
points: 3000
formations:
  # the anvil
  - type: Tactical   # front line
    split: false  # explicit default
  # the eyes
  - type: Scout
    label: Hale's men
  # the guns
  - type: Devastator
  - {type: Bike}   # the hammer
# end of the list
"""


def _saved(catalog, formations, text=COMMENTED):
    loaded = parse_roster(text, "x.yaml", catalog, round_trip=True)
    chosen = [loaded.roster.formations[i] for i in formations]
    return dump(loaded.roster.model_copy(update={"formations": chosen}), loaded.document)


def test_comments_stay_with_their_own_formation(catalog):
    assert _saved(catalog, [0, 1, 2, 3]) == COMMENTED  # explicit defaults and their comments stay too
    removed = _saved(catalog, [0, 2, 3])
    assert "# the eyes" not in removed and removed.index("# the guns") < removed.index("Devastator")
    moved = _saved(catalog, [1, 0, 2, 3])
    assert moved.index("# the eyes") < moved.index("Scout") < moved.index("# the anvil") < moved.index("Tactical")
    assert "Tactical   # front line\n    split: false  # explicit default\n  # the guns\n  - type: Devastator" in moved
    swapped = _saved(catalog, [0, 1, 3, 2])
    assert swapped.endswith("label: Hale's men\n  - {type: Bike}   # the hammer\n  # the guns\n"
                            "  - type: Devastator\n# end of the list\n")


def test_line_endings_and_byte_order_mark_are_kept(catalog):
    text = "\ufeff" + COMMENTED.replace("\n", "\r\n")
    assert _saved(catalog, [0, 1, 2, 3], text) == text
    assert _saved(catalog, [0, 2, 3], text).count("\n") == _saved(catalog, [0, 2, 3], text).count("\r\n")


def test_saves_keep_the_mode_and_a_new_file_gets_the_umasks(tmp_path):
    path = tmp_path / "list.yaml"
    old = os.umask(0o022)
    try:
        save_text(path, "game: x\n")
        assert stat.S_IMODE(path.stat().st_mode) == 0o644
        path.chmod(0o640)
        save_text(path, "game: y\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert backup_path(path).read_text() == "game: x\n"


def test_only_regular_files_are_written(tmp_path):
    fifo = tmp_path / "out.pdf"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        save_bytes(fifo, b"%PDF")
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    with pytest.raises(OSError, match="not a regular file"):
        save_bytes(Path("/dev/null"), b"%PDF")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_failed_save_keeps_the_previous_backup_and_leaves_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "list.yaml"
    save_text(path, "one\n")
    save_text(path, "two\n")

    def full_disk(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("listbuilder.rosters.files.os.fsync", full_disk)
    with pytest.raises(OSError):
        save_text(path, "three\n")
    assert path.read_text() == "two\n" and backup_path(path).read_text() == "one\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["list.yaml", "list.yaml.bak"]


def test_leftovers_of_a_killed_save_are_swept_and_the_folder_synced(tmp_path, monkeypatch):
    path = tmp_path / "list.yaml"
    stale, fresh = tmp_path / ".list.yaml.0123456789ab.tmp", tmp_path / ".list.yaml.bak.ba9876543210.tmp"
    for leftover in (stale, fresh):
        leftover.write_text("half")
    os.utime(stale, (0, 0))
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr("listbuilder.rosters.files.os.fsync", lambda fd: (synced.append(os.fstat(fd).st_mode),
                                                                           real_fsync(fd)))
    save_text(path, "game: x\n")
    assert not stale.exists() and fresh.exists()  # one a minute old: no save running now writes it
    assert any(stat.S_ISDIR(mode) for mode in synced)

"""The editor's reader (ruamel's round-trip loader, which runs explicit tags) gives the same clear,
located error as `check` for a tagged value that is not what its tag says, never a traceback."""

from pathlib import Path

import pytest

from listbuilder.core.findings import LoadFailure, finding_text
from listbuilder.data.catalog import load_catalog
from listbuilder.data.yamlfile import parse
from listbuilder.rosters.files import read_roster

ROSTER = "game: epic-armageddon\narmy: Steel Legion\npoints: {}\nformations: []\n"


@pytest.mark.parametrize("tag", ["!!int abc", "!!int 0x1g", "!!bool maybe", "!!omap x", "!!float abc"])
def test_a_bad_tagged_value_is_a_located_error(tag, tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(ROSTER.format(tag), encoding="utf-8")
    with pytest.raises(LoadFailure) as failure:
        read_roster(path, load_catalog(), "r.yaml", round_trip=True)
    shown = tag.split()[0]
    assert [finding_text(f) for f in failure.value.findings] == [
        f"r.yaml:3:9: error: YAML error: the value cannot be read as {shown}; remove the tag and write the value "
        "itself"]


def test_a_good_tagged_value_is_read(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(ROSTER.format("!!int 3000"), encoding="utf-8")
    assert read_roster(Path(path), load_catalog(), "r.yaml", round_trip=True).roster.points == 3000


def test_a_break_ruamel_cannot_place_after_a_comment_is_a_located_error(tmp_path):
    """CR and NEL in a key under a comment: libyaml refuses it, and ruamel, asked for its message,
    raised NotImplementedError ('overlap in comment'), which `check` did not catch (exit 3)."""
    with pytest.raises(LoadFailure) as failure:
        parse("- upgrades:  # each once\n    Kr\r\x85oot: true\n", "r.yaml")
    assert finding_text(failure.value.findings[0]).startswith("r.yaml:4:1: error: YAML error: ")

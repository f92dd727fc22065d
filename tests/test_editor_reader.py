"""The editor's reader (ruamel's round-trip loader, which runs explicit tags) gives the same clear,
located error as `check` for a tagged value that is not what its tag says, never a traceback."""

from pathlib import Path

import pytest

from listbuilder.core.findings import LoadFailure, finding_text
from listbuilder.data.catalog import load_catalog
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

"""`edit` opens every roster `check` reads and saves it without losing anything: a tab (in a value,
as the space after a colon, before a comment), NEL (U+0085) and LS (U+2028) as libyaml reads them
(`check`'s reader: line breaks, as YAML 1.1 has them), where ruamel's round-trip reader (the
editor's) refused them or, saving, wrote NEL raw in single quotes, which reads back as a space."""

import pytest

from listbuilder.data.catalog import load_catalog
from listbuilder.data.yamlfile import read
from listbuilder.rosters.files import dump, read_roster, save_text
from listbuilder.tui.app import opened_app

TOP = "game: epic-armageddon\narmy: Steel Legion\npoints: 3000\n"
FORMATIONS = "formations:\n  - type: Infantry Company  # the core\n"
FILES = {
    "tab": TOP + "name: Strike\tForce Hale\t# the GT list\t(final)\n" + FORMATIONS.replace(": Inf", ":\tInf"),
    "tab-tagged": TOP + "name: !!str Strike\tForce Hale\n" + FORMATIONS,
    "nel": TOP + "name: \"Strike\\NForce Hale\"\n# saved by an old tool\x85" + FORMATIONS,
    "nel-line": TOP + "name: Strike Force Hale\n\x85" + FORMATIONS,
    "ls": TOP + "name: \"Strike\u2028Force Hale\" # the GT list\u2028" + FORMATIONS,
}
NAMES = {"tab": "Strike\tForce Hale", "tab-tagged": "Strike\tForce Hale", "nel": "Strike\x85Force Hale",
         "nel-line": "Strike Force Hale", "ls": "Strike\u2028Force Hale"}


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


@pytest.mark.parametrize("kind", FILES)
def test_edit_opens_and_saves_what_check_reads(kind, catalog, tmp_path):
    path = tmp_path / "army.yaml"
    path.write_text(FILES[kind], encoding="utf-8", newline="")
    checked = read_roster(path, catalog).roster
    assert checked.name == NAMES[kind] and checked.formations[0].type == "Infantry Company"
    app = opened_app(catalog, path)  # as `listbuilder edit army.yaml` opens it
    assert app.history.current == checked
    save_text(path, dump(app.history.current, app.document))
    assert read_roster(path, catalog).roster == checked
    saved = path.read_text(encoding="utf-8")
    assert "# the core" in saved and ("GT list" in saved) == ("GT list" in FILES[kind])


def test_the_editor_counts_lines_as_check_does(tmp_path):
    """LS and NEL are line breaks to `check`: a finding the editor places is on the line check gives."""
    path = tmp_path / "army.yaml"
    path.write_text(TOP + 'name: "Strike\u2028Force Hale" # the GT list\u2028label: x # old tool\x85' + FORMATIONS,
                    encoding="utf-8")
    where = {round_trip: [read(path, "army.yaml", round_trip).locate(("formations", 0, "type")).line,
                          read(path, "army.yaml", round_trip).locate(("label",)).line] for round_trip in (False, True)}
    assert where[False] == where[True] == [8, 6]

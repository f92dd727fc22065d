"""Where a finding's rule is in the real data: the file and line of the BSData 40k snapshot it was
compiled from, and the data's revision. Every line here was read in the .cat file by hand, and
each finding's line is read again from the snapshot."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from listbuilder.battlescribe import Editor
from tests.battlescribe_real.army import NECRONS, SPACE_MARINES, add, child, codes, configured_army, new_army

GLADIUS = "Gladius Task Force"
REVISION = "801555b"  # the snapshot's commit of BSData/wh40k-10e
SM_FILE = "Imperium - Space Marines.cat"
INTERCESSOR_RULE = "Intercessor Squad, constraint 6cdb-3d8f-d424-ec3e"


def seven_intercessor_squads(bundle: dict[str, Any], data_revision: str | None) -> Editor:
    editor, force = configured_army(bundle, SPACE_MARINES, GLADIUS, located=True, data_revision=data_revision)
    add(editor, force, "Captain")
    for _ in range(7):
        add(editor, force, "Intercessor Squad")
    return editor


def test_the_seventh_intercessor_squad_names_its_constraints_line_and_the_datas_revision(
        bundle: dict[str, Any]) -> None:
    editor = seven_intercessor_squads(bundle, REVISION)
    assert codes(editor) == [
        ("data-constraint", f"data: {SM_FILE}:4366 (revision {REVISION}), {INTERCESSOR_RULE}",
         "Intercessor Squad: at most 6 selections in the roster, 7 taken")]


def test_without_the_datas_revision_the_catalogues_own_is_named(bundle: dict[str, Any]) -> None:
    editor = seven_intercessor_squads(bundle, None)
    assert [f.rule for f in editor.findings()] == [f"data: {SM_FILE}:4366 (revision 213), {INTERCESSOR_RULE}"]


def test_without_sources_the_finding_keeps_its_ids(bundle: dict[str, Any]) -> None:
    editor, force = configured_army(bundle, SPACE_MARINES, GLADIUS)
    add(editor, force, "Captain")
    for _ in range(7):
        add(editor, force, "Intercessor Squad")
    assert [f.rule for f in editor.findings()] == ["e0af-67df-9d63-8fb7:8da0-4570-c3c-819f/6cdb-3d8f-d424-ec3e"]


def test_company_heroes_a_hidden_enhancement_and_the_armys_own_needs(bundle: dict[str, Any]) -> None:
    """A constraint a modifier changes (Company Heroes' max of 0) is at the constraint's line; the
    hidden enhancement at its entry's, where the modifier that hides it (with no id) is; the
    army's detachment at the catalogue's lines, its Battle Size at the game system's, with the
    game system's revision."""
    editor, force = new_army(bundle, SPACE_MARINES, located=True)
    lieutenant = add(editor, force, "Lieutenant")
    add(editor, force, "Company Heroes")
    editor.select_child_entry(lieutenant, "c0aa-7c93-7b8f-5585")  # Adept of the Codex
    assert [(f.code, f.rule) for f in editor.findings()] == [
        ("data-constraint", "data: Imperium - Space Marines.cat:35552 (revision 213), Company Heroes, "
                            "constraint 1852-2e76-ee7b-15aa"),
        ("data-constraint", "data: Imperium - Space Marines.cat:38695 (revision 213), Detachment, "
                            "constraint 23da-d33f-3805-f52e"),
        ("data-constraint", "data: Imperium - Space Marines.cat:6921 (revision 213), Detachment, "
                            "constraint 958-3242-6a92-a9b9"),
        ("data-constraint", "data: Warhammer 40,000.gst:744 (revision 118), Battle Size, "
                            "constraint 132a-318-b78a-7afb"),
        ("data-hidden", "data: Imperium - Space Marines.cat:39487 (revision 213), Adept of the Codex, "
                        "hidden modifier"),
    ]


def test_lychguards_mixed_weapons_are_at_each_weapons_line(bundle: dict[str, Any]) -> None:
    """The data's message modifiers have no id (nor a line of their own): each weapon's line."""
    editor, force = configured_army(bundle, NECRONS, "Awakened Dynasty", located=True, data_revision=REVISION)
    add(editor, force, "Overlord")
    unit = add(editor, force, "Lychguard")
    models = child(editor, unit, "Lychguard")
    editor.set_count(models, 4)
    odd_one = add(editor, unit, "Lychguard")
    editor.deselect(child(editor, odd_one, "Warscythe"))
    add(editor, odd_one, "Hyperphase sword and dispersion shield")
    assert [f.rule for f in editor.findings()] == [
        f"data: Necrons.cat:7120 (revision {REVISION}), Warscythe, error modifier",
        f"data: Necrons.cat:7156 (revision {REVISION}), Hyperphase sword and dispersion shield, error modifier",
    ]


PLACE = re.compile(r"data: (?P<file>.+):(?P<line>\d+) \(revision [^)]+\), (?P<name>.+), "
                   r"(?:constraint (?P<constraint>\S+)|modifier (?P<modifier>\S+)|.+)$")


def test_every_line_named_is_the_rules_own_in_the_file(bundle: dict[str, Any], bsdata_folder: Path) -> None:
    """Read back from the snapshot: the line holds the constraint or modifier the finding names by
    id, else the entry it names."""
    rosters = [seven_intercessor_squads(bundle, REVISION)]
    editor, force = new_army(bundle, SPACE_MARINES, located=True)
    lieutenant = add(editor, force, "Lieutenant")
    add(editor, force, "Company Heroes")
    editor.select_child_entry(lieutenant, "c0aa-7c93-7b8f-5585")
    rosters.append(editor)
    checked = 0
    for finding in (f for editor in rosters for f in editor.findings()):
        found = PLACE.match(finding.rule)
        assert found is not None, finding.rule
        line = (bsdata_folder / found["file"]).read_text(encoding="utf-8").splitlines()[int(found["line"]) - 1]
        wanted = found["constraint"] or found["modifier"]
        assert (f'id="{wanted}"' if wanted else f'name="{found["name"]}"') in line, (finding.rule, line)
        checked += 1
    assert checked == 6

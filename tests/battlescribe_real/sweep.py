"""Every root unit of a faction added alone, at the defaults the Editor selects, to an Army Roster
of that faction: the errors found on the unit itself (roster- and force-level ones, such as the
army's need of a Character or a chosen detachment, are the force's, not the unit's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from listbuilder.battlescribe import Editor
from listbuilder.battlescribe.roster import Force
from tests.battlescribe_real.army import new_army

KNOWN_FILE = Path(__file__).resolve().parent / "known_data_findings.yaml"
UNIT_TYPES = ("unit", "model")


def offered_units(editor: Editor, force: Force) -> list[dict[str, Any]]:
    """The root entries a force offers that are units or models (not its configuration)."""
    return [item for item in editor.available(force) if item["type"] in UNIT_TYPES]


def unit_findings(bundle: dict[str, Any], faction: str) -> list[tuple[str, str]]:
    """(entry name, finding rule) for each error on a unit added alone, in the order offered."""
    editor, force = new_army(bundle, faction)
    found: list[tuple[str, str]] = []
    for item in offered_units(editor, force):
        selection, _ = editor.select_entry(force, item["entryId"])
        where = selection.path()
        found += [(str(item["name"]), finding.rule) for finding in editor.findings()
                  if finding.severity == "error" and finding.path[:len(where)] == where]
        editor.deselect(selection)
    return found


def known_findings() -> dict[str, Any]:
    """known_data_findings.yaml: the reasons, and the findings by faction."""
    loaded: dict[str, Any] = YAML(typ="safe", pure=False).load(KNOWN_FILE.read_text(encoding="utf-8"))
    return loaded


def known_for(faction: str) -> list[tuple[str, str]]:
    """The findings recorded for a faction, as unit_findings gives them."""
    return [(str(item["entry"]), str(item["rule"])) for item in known_findings()["findings"].get(faction) or []]


def factions(bundle: dict[str, Any]) -> list[str]:
    """Every catalogue a player builds an army of (not a library)."""
    return sorted(c["name"] for c in bundle["catalogues"] if not c.get("library"))

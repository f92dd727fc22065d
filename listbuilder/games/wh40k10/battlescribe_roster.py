"""A checked 40k roster as the BattleScribe roster BattleScribe and New Recruit open (`listbuilder
export --format ros|rosz`): the selection tree the engine checked (engine_roster.py), each
selection with its profiles and rules as the data shows them in this army, the battle size's
points as the roster's limit. What a .ros has no field for is written where those tools show a
player's own words: a unit's label as its custom name, and its Leader, Transport, Strategic
Reserves and Hover mode as lines of its custom notes, in the words `import` reads back (lists.py
`formation_notes`, D19)."""

from __future__ import annotations

from typing import Any

from ...battlescribe.roster import new_id
from .engine_roster import POINTS
from .importing.foreign import GENERATED_BY
from .lists import formation_notes
from .rules import Wh40kResult


def battlescribe_roster(result: Wh40kResult) -> dict[str, Any] | str:
    """The roster in BattleScribe's roster form, or why it cannot be written."""
    tree = result.tree
    if tree is None:
        return ("the installed 40k data was imported by an earlier listbuilder, without what a BattleScribe roster "
                "is made of: import it again (listbuilder data import bsdata PATH)")
    for index, unit in tree.units.items():
        entry = result.roster.units[index]
        tree.editor.set_customization(unit, entry.label, "\n".join(formation_notes(entry, label=False)) or None)
    roster = tree.editor.to_dict(described=True)
    points = next((str(c["id"]) for c in tree.editor.data.cost_types() if c.get("name") == POINTS), None)
    if points is not None:
        roster["costLimits"] = [{"name": POINTS, "typeId": points, "value": float(result.limit)}]
    return {"id": new_id("roster"), **roster, "name": result.roster.name or f"{result.faction.short_name} roster",
            "generatedBy": GENERATED_BY}

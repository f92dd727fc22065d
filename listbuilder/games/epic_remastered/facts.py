"""What `listbuilder stats` counts of a checked Epic Remastered roster (core.system.FieldFacts)."""

from __future__ import annotations

from ...core.system import FieldFacts
from .catalog import FLYERS, GROUND, WAR_ENGINES
from .rules import ErResult

OTHER = "other"  # a detachment of no list, or whose units' type the data does not give
CATEGORIES = (GROUND, WAR_ENGINES, FLYERS, OTHER)  # the detachment kinds its data tells apart (L2293)


def field_facts(result: ErResult) -> FieldFacts:
    """Each detachment list taken and how often; points (a unit the army list gives no points counts
    none: the core samples give none at all) and units on the table (transports too) by the
    detachment's kind."""
    entries: dict[str, int] = {}
    points, units = dict.fromkeys(CATEGORIES, 0), dict.fromkeys(CATEGORIES, 0)
    for detachment in result.detachments:
        entries[detachment.name] = entries.get(detachment.name, 0) + 1
        kind = detachment.kind if detachment.kind in points else OTHER
        points[kind] += sum(u.points or 0 for u in detachment.units)
        units[kind] += detachment.derived["units"]
    return FieldFacts(result.army.army.name, "", entries, points, units, entry_kind="detachment list",
                      counted="units")

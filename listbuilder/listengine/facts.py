"""What `listbuilder stats` counts of a checked list-engine roster (core.system.FieldFacts)."""

from __future__ import annotations

from ..core.system import FieldFacts
from .engine import BuiltFormation, RosterResult

ALLIES, AIRCRAFT, SPACECRAFT, WAR_ENGINES, OTHER = "allies", "aircraft", "spacecraft", "war engines", "other"
CATEGORIES = (WAR_ENGINES, AIRCRAFT, SPACECRAFT, ALLIES, OTHER)


def category(built: BuiltFormation, result: RosterResult) -> str:
    """A formation's points category: allies when its list is one of the army's allies, else by the
    units the formation itself fields (not those its upgrades or transports add): aircraft (a war
    engine that flies too), spacecraft, war engines, or other."""
    if built.army is not result.army:
        return ALLIES
    types = {group.sheet.type for group in built.units if group.source == "formation"}
    if types & {"AC", "WE/AC"}:
        return AIRCRAFT
    if "SC" in types:
        return SPACECRAFT
    return WAR_ENGINES if "WE" in types else OTHER


def field_facts(result: RosterResult) -> FieldFacts:
    """Each formation taken (an ally's named with its list) and how often; points and units by
    category (points bought for the whole army count as other); the activations the game's pack
    worked out, where it has them."""
    entries: dict[str, int] = {}
    points, units = dict.fromkeys(CATEGORIES, 0), dict.fromkeys(CATEGORIES, 0)
    for built in result.formations:
        name = built.name if built.army is result.army else f"{built.name} ({built.army.name})"
        entries[name] = entries.get(name, 0) + 1
        kind = category(built, result)
        points[kind] += built.points
        units[kind] += built.unit_count  # none where shared out: they count in the formations they join
    points[OTHER] += sum(paid for _, paid in result.purchases.values())
    return FieldFacts(result.army.name, "", entries, points, units, activations=result.derived.get("activations"),
                      entry_kind="formation", counted="units")

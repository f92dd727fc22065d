"""What `listbuilder stats` counts of a checked 40k roster (core.system.FieldFacts)."""

from __future__ import annotations

from ...core.names import name_key
from ...core.system import FieldFacts
from .catalog import Unit
from .rules import CheckedUnit, Wh40kResult, number

ALLIES, CHARACTERS, BATTLELINE, OTHER = "allies", "Characters", "Battleline", "other"
TRANSPORTS = "Dedicated Transports"
CATEGORIES = (BATTLELINE, CHARACTERS, TRANSPORTS, ALLIES, OTHER)


def category(checked: CheckedUnit, army: str) -> str:
    """A unit's points category: allies when it has Faction keywords and none is the army's (an
    Agent of the Imperium in a Space Marine army; the Drop Pod, of none, is the army's: D1), else
    Characters, Battleline, Dedicated Transports by its datasheet, else other."""
    keywords = checked.unit.faction_keywords
    if keywords and all(name_key(k) != army for k in keywords):
        return ALLIES
    if checked.unit.character:
        return CHARACTERS
    if checked.unit.battleline:
        return BATTLELINE
    return TRANSPORTS if checked.unit.dedicated_transport else OTHER


def wounds(unit: Unit, models: int) -> int:
    """The W of each of `models` models of the unit, summed. A roster gives a unit's model count, not
    which models: where the profiles differ, each kind of model the datasheet fixes in number (one
    Exarch, one Boss Nob) whose name a profile has takes that profile's W, and every other model the
    lowest W of the profiles left (DECISIONS.md D36). W not a number counts 0."""
    values = [number(p.wounds) or 0 for p in unit.profiles]
    if len(set(values)) <= 1:
        return models * (values[0] if values else 0)
    by_name = {name_key(p.name): w for p, w in zip(unit.profiles, values)}
    total, left, used = 0, models, set()
    for kind in unit.models:
        key = name_key(kind.name)
        if kind.min == kind.max and key in by_name and 0 < kind.min <= left:
            total, left = total + kind.min * by_name[key], left - kind.min
            used.add(key)
    rest = [w for key, w in by_name.items() if key not in used] or values
    return total + left * min(rest)


def field_facts(result: Wh40kResult) -> FieldFacts:
    """Each datasheet taken and how many units of it; points and models by category (a unit's
    Enhancement with it); the models' wounds."""
    army = name_key(result.faction.faction_keyword)
    entries: dict[str, int] = {}
    points, models = dict.fromkeys(CATEGORIES, 0), dict.fromkeys(CATEGORIES, 0)
    for checked in result.units:
        entries[checked.name] = entries.get(checked.name, 0) + 1
        kind = category(checked, army)
        points[kind] += checked.points
        models[kind] += checked.models
    detachment = result.detachment.name if result.detachment else result.roster.detachment
    return FieldFacts(result.faction_name, detachment, entries, points, models,
                      wounds=sum(wounds(c.unit, c.models) for c in result.units))

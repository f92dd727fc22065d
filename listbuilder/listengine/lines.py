"""What every view of a checked roster shows, worked out once: formation lines, totals, findings."""

from __future__ import annotations

from typing import Any

from ..core.findings import finding_json
from ..core.names import a_unit, plural
from .catalog import ArmyView
from .datasheet import Datasheet, Loadout
from .engine import Attached, BuiltFormation, RosterResult, UnitGroup


def group_text(group: UnitGroup) -> str:
    """'2 Razorbacks (Twin Lascannon)', '3 Rhinos (transport)', '4 Scouts (+Sniper)', '1 Daemon Prince
    (wargear not chosen)'."""
    notes = [f"{n} {loadout}" if len(group.wargear) > 1 else loadout for loadout, n in group.wargear.items()]
    if group.sheet.loadouts and not group.wargear:
        notes.append("wargear not chosen")
    notes += [f"+{a}" for a in group.gained]
    if group.source == "transport":
        notes.insert(0, "transport")
    return plural(group.count, group.sheet.name) + (f" ({', '.join(notes)})" if notes else "")


def loadout_text(loadout: Loadout) -> str:
    """'Twin Lascannon', 'Wings (30cm, armour 4+, Jump Packs)'."""
    changes = [f"{loadout.speed}cm" if loadout.speed is not None else "",
               f"armour {loadout.armour}" if loadout.armour else "", *loadout.abilities]
    changes = [c for c in changes if c]
    return loadout.name + (f" ({', '.join(changes)})" if changes else "")


def character_text(character: Attached) -> str:
    """'Supreme Commander with a Tactical', 'Commissar with an Infantry', 'Captain (no unit to join)'."""
    if character.joins is None:
        return f"{character.sheet.name} (no unit to join)"
    return f"{character.sheet.name} with {a_unit(character.joins.name)}"


def unit_line(built: BuiltFormation) -> str:
    """'6 Tactical, 1 Hunter, 3 Rhinos (transport); Supreme Commander with a Tactical'."""
    if not built.on_table:
        return ", ".join(group_text(group) for group in built.shared) + ", shared out among other formations"
    line = ", ".join(group_text(group) for group in built.units)
    for character in built.characters:
        line += "; " + character_text(character)
    if built.terrain:
        line += "; terrain: " + ", ".join(built.terrain)
    return line


def upgrades_text(built: BuiltFormation, only_refused: bool = False) -> str:
    """'Cult Marines 150, Rhinos 70 (refused)': what the formation pays for its upgrades; one taken
    against a rule is still charged (the total is what the roster as written costs) and marked."""
    paid = [f"{name} {points:,}" + (" (refused)" if name in built.refused else "")
            for name, points in built.upgrades.items()
            if name in built.refused or (points and not only_refused)]  # the free Lord every Retinue has: not news
    free = [f"{name} (refused)" for name in built.refused if name not in built.upgrades]  # e.g. a free transport
    return ", ".join(paid + free)


def title(built: BuiltFormation) -> str:
    """'2 × Warhound Titans', 'Warband (big)', 'Black Legion Retinue (Khorne) “Skulltakers”'."""
    name = built.name if built.copies == 1 or built.definition.count is None else f"{built.copies} × {built.name}"
    declared = [d for d in (built.size if built.definition.sizes and len(built.definition.sizes) > 1 else None,
                            built.faction) if d]
    name = f"{name} ({', '.join(declared)})" if declared else name
    name = f"{name} “{built.label}”" if built.label else name
    return f"{name} [{built.army.name}]" if built.is_ally else name


def garrison_text(built: BuiltFormation) -> str:
    garrison = built.derived.get("garrison")
    if not garrison:
        return ""
    return ("may garrison: " if garrison["eligible"] else "may not garrison: ") + garrison["reason"]


def purchases_text(result: RosterResult) -> str:
    """'Wraithgate ×1 (50 pts), Lesser Daemon ×4 (80 pts)'."""
    return ", ".join(f"{name} ×{number} ({points:,} pts)" for name, (number, points) in result.purchases.items())


def purchase_sheets(result: RosterResult, view: ArmyView) -> list[Datasheet]:
    """The datasheets of what the roster buys for the whole army: each purchase's units, and those
    it brings for the factions of the formations that may summon them (the daemons of its pool)."""
    sheets: dict[str, Datasheet] = {}
    for name in result.purchases:
        purchase = next(p for p in result.army.purchases if p.name == name)
        factions = {f.faction for f in result.formations
                    if f.faction and (purchase.summoned_by is None or purchase.summoned_by in f.upgrades)}
        chosen = [*purchase.units, *(u for faction, units in purchase.units_by_faction.items()
                                     if faction in factions for u in units)]
        for unit in chosen:
            sheet = view.unit(unit)
            assert sheet is not None, f"unresolved unit {unit}: the catalog's reference check missed it"
            sheets.setdefault(sheet.name, sheet)
    return list(sheets.values())


def formation_json(built: BuiltFormation) -> dict[str, Any]:
    return {
        "index": built.index,
        "type": built.name,
        "label": built.label,
        "list": built.army.id,
        "points": built.points,
        "count": built.copies,
        "size": built.size,
        "faction": built.faction,
        "upgrades": dict(built.upgrades),
        "refused": list(built.refused),
        "transport": built.transport,
        "unit_list": [{"unit": g.sheet.name, "count": g.count, "source": g.source, "gained": g.gained,
                       "wargear": g.wargear} for g in built.units],
        "characters": [{"character": c.sheet.name, "joins": c.joins and c.joins.name, "upgrade": c.upgrade}
                       for c in built.characters],
        "terrain": built.terrain,
        "shared_out": [{"unit": g.sheet.name, "count": g.count} for g in built.shared],
        **built.derived,
    }


def army_json(result: RosterResult) -> dict[str, Any]:
    derived = dict(result.derived)
    targets = derived.pop("break_their_spirit", [])
    by_index = {f.index: f for f in result.formations}
    return {
        "army": result.army.id,
        "army_name": result.army.name,
        "name": result.roster.name,
        "valid": result.valid,
        "points": {"total": result.total, "limit": result.roster.points},
        "caps": [{"name": c.name, "points": c.points, "limit": c.limit, "rule": c.rule} for c in result.caps],
        "purchases": [{"name": name, "number": number, "points": points}
                      for name, (number, points) in result.purchases.items()],
        "formation_count": len(result.formations),
        "break_their_spirit": [{"index": i, "type": by_index[i].name, "points": by_index[i].points} for i in targets],
        **derived,
        "issues": [finding_json(f) for f in result.findings],
        "formations": [formation_json(f) for f in result.formations],
    }

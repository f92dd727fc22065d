"""What the check, the PDF and the editor show of an Epic Remastered roster (core.system.RosterSummary):
each detachment with its HQ, who takes over command, its units and Leadership bonuses, and every data
sheet used, derived ones with the steps of their derivation (as Table 9, L2331-2338). A value the
data does not give is printed as an empty cell: a box to fill in (L3319)."""

from __future__ import annotations

from typing import Any

from ...core.findings import finding_json
from ...core.names import plural
from ...core.system import EntrySummary, RosterSummary, SheetSummary
from .catalog import WAR_ENGINES
from .derive import CARRIER, DerivedSheet, profile_of
from .models import GAME_ID, DamageResult
from .rules import LEADERSHIP_DC, LEADERSHIP_UNITS, CheckedDetachment, CheckedUnit, ErResult

GAME_NAME = "Epic Remastered"
COLUMNS = ["Type", "Speed", "Range", "Firepower", "Assault", "Armour"]
HEADINGS = {"Firepower": "FP"}  # the columns are narrow on a two-column page
BLANK = "(__)"  # a number the data does not give, written in by hand: Transport (__)


def ability_text(ability: str) -> str:
    match = CARRIER.match(ability)
    return f"{match.group(1)} {BLANK}" if match and match.group(2) == "X" else ability


def notes_text(sheet: DerivedSheet) -> str:
    return "; ".join(ability_text(a) for a in sheet.profile.abilities)


def unit_text(unit: CheckedUnit) -> str:
    pick = unit.pick
    name = unit.sheet.name if unit.sheet else pick.unit
    text = f"{pick.count} x {name}"
    if pick.upgrades:
        text += f" ({', '.join(pick.upgrades)})"
    if pick.transport:
        text += f", with {pick.transport.count} x {unit.transport.name if unit.transport else pick.transport.unit}"
        carries = unit.transport.carries if unit.transport else None
        if carries is not None:
            ability, capacity = carries
            text += (f" ({ability} ({capacity}): room for {capacity * pick.transport.count})" if capacity is not None
                     else f" ({ability} {BLANK}: capacity not given, check it by hand)")
    return f"{unit.group}: {text}" if unit.group else text


def command_text(d: dict[str, Any]) -> str:
    if d.get("hq"):
        head = f"HQ {d['hq']}"
    elif d.get("hq_choices"):
        head = f"HQ: choose {' or '.join(d['hq_choices'])} (equally senior)"
    else:
        head = "no HQ"
    others = d.get("takes_over", [])
    return head + "; " + (f"takes over command: {', then '.join(others)}" if others
                          else "no unit can take over command")


def detachment_lines(checked: CheckedDetachment) -> list[str]:
    d = checked.derived
    lines = [unit_text(u) for u in checked.units]
    if checked.detachment is None:
        return lines
    lines.insert(0, command_text(d))
    size = f"{plural(d['units'], 'unit')}" + (f", {d['kind']} detachment" if d.get("kind") else "")
    bonus = f"Leadership +1 ({LEADERSHIP_UNITS} or more units)" if d["units"] >= LEADERSHIP_UNITS else ""
    if d.get("kind") == WAR_ENGINES:
        dc = d["damage_capacity"]
        known = d["damage_capacity_known"]
        dc_text = (f"initial Damage Capacity {dc}" if dc is not None else
                   f"initial Damage Capacity at least {known} (some not given)" if known else
                   f"initial Damage Capacity {BLANK} (not given)")
        size += f"; {dc_text}"
        if d["damage_capacity_known"] >= LEADERSHIP_DC:
            bonus = f"Leadership +1 (Damage Capacity {LEADERSHIP_DC} or more)"
        elif d["leadership_bonus"] is None:
            bonus = f"Leadership +1 unknown (it needs Damage Capacity {LEADERSHIP_DC} or more)"
    lines.append(size + (f"; {bonus}" if bonus else ""))
    # what the abilities mean at the table (Heavy Weapons cannot use Rapid Fire, L2909), once per data sheet
    sheets = {id(u.sheet): u.sheet for u in checked.units if u.sheet is not None}
    lines += [f"{sheet.name}: {note}" for sheet in sheets.values() for note in sheet.notes]
    if d["abilities"]:
        lines.append("detachment abilities: " + ", ".join(d["abilities"]))
    return lines


def unit_json(unit: CheckedUnit) -> dict[str, Any]:
    pick = unit.pick
    return {"unit": unit.sheet.name if unit.sheet else pick.unit, "count": pick.count, "group": unit.group,
            "upgrades": pick.upgrades, "points": unit.points,
            "transport": {"unit": pick.transport.unit, "count": pick.transport.count} if pick.transport else None,
            "profile": {**unit.sheet.profile.printed(), "Notes": notes_text(unit.sheet)} if unit.sheet else None}


def detachment_json(checked: CheckedDetachment) -> dict[str, Any]:
    derived = {("unit_count" if key == "units" else key): value for key, value in checked.derived.items()}
    return {"index": checked.index, "type": checked.name, "label": checked.pick.label, "points": checked.points,
            **derived, "units": [unit_json(u) for u in checked.units]}


def _damage_table(heading: str, dice: str, rolls: range,
                  results: list[DamageResult]) -> tuple[list[str], list[list[str]]]:
    rows = [[r.roll, r.effect] for r in results] or [[str(n), ""] for n in rolls]
    return [dice, heading], rows


def sheet(derived: DerivedSheet) -> SheetSummary:
    profile = derived.profile.printed()
    heads = ["Unit", *(HEADINGS.get(c, c) for c in COLUMNS[:4]),
             "Dogfight" if derived.profile.type == "FLY" else "Assault", "Armour"]
    rows = []
    if derived.base is not None:
        base = profile_of(derived.base).printed()
        rows.append([f"Base unit: {derived.base.name}", *(base[c] for c in COLUMNS)])
        rows += [[f"+ {step.ability}", *(step.changed.get(c, "") for c in COLUMNS)] for step in derived.steps]
        rows.append([f"= {derived.name}", *(profile[c] for c in COLUMNS)])
    else:
        rows.append([derived.name, *(profile[c] for c in COLUMNS)])
    tables = [(heads, rows)]
    unit = derived.sheet if derived.base is None else derived.base
    if derived.profile.type == "WE":
        shields = unit.shields
        tables.append((["Damage Capacity", "Shields"],
                       [[str(derived.damage_capacity or ""),
                         f"{shields.count if shields.count is not None else BLANK} {shields.technology or ''}".strip()
                         if shields else "not given"]]))
        tables.append((["Weapon mount", "Weapon system", "Firepower", "Range", "Arc"],
                       [[m.name, m.system.name or "", str(m.system.firepower or m.system.weapon or ""),
                         m.system.range or "", m.arc or ""] for m in unit.mounts] or [["", "", "", "", ""]]))
        tables.append(_damage_table("Critical damage", "2D6", range(2, 13), unit.critical_damage))
        tables.append(_damage_table("Catastrophic damage", "D6", range(1, 7), unit.catastrophic_damage))
    lines = [("Notes", notes_text(derived) or "none")]
    lines += [("", note) for note in derived.notes]
    if unit.description:
        lines.append(("", unit.description))
    lines.append(("Source", f"seed 004 {derived.sheet.source}"))
    subtitle = derived.profile.type or "type not given"
    return SheetSummary(derived.name, subtitle, tables, lines)


def sheets_used(result: ErResult) -> list[SheetSummary]:
    """Every data sheet of the roster once, in roster order: units as upgraded, then their transports."""
    used: dict[int, DerivedSheet] = {}
    for detachment in result.detachments:
        for unit in detachment.units:
            for derived in (unit.sheet, unit.transport):
                if derived is not None:
                    used.setdefault(id(derived), derived)
    return [sheet(d) for d in used.values()]


def summary(result: ErResult) -> RosterSummary:
    army = result.army.army
    rating = result.derived["strategy_rating"]
    # a box to fill in means nothing in a status line or a check: say what is missing
    army_lines = [f"Strategy Rating: {rating if rating is not None else 'not given by the army list'}",
                  f"detachments: {result.derived['detachments']}, units: {result.derived['units']}"]
    # a limit with nothing priced (an event's points on a list without them) is no '0 / 3,000'
    priced = result.roster.points is not None and any(
        u.points is not None for d in result.detachments for u in d.units)
    if result.roster.points is not None and not priced:
        army_lines.append(f"points: none given by the army list (limit {result.roster.points:,})")
    if army.abilities:
        army_lines.append("army abilities: " + ", ".join(army.abilities))
    json = {"game": GAME_ID, "army": army.id, "army_name": army.name, "name": result.roster.name,
            "valid": result.valid,
            "points": {"total": result.total, "limit": result.roster.points, "known": result.derived["points_known"]},
            "strategy_rating": rating, "issues": [finding_json(f) for f in result.findings],
            "detachments": [detachment_json(d) for d in result.detachments]}
    return RosterSummary(
        name=result.roster.name, army=army.name, game=GAME_NAME, total=result.total, limit=result.limit,
        findings=result.findings, army_lines=army_lines,
        entries=[EntrySummary(d.index, d.title, d.points or 0, detachment_lines(d)) for d in result.detachments],
        json=json, sheets=sheets_used(result), priced=priced,
        entry_kind=("Detachment", "Detachments"))

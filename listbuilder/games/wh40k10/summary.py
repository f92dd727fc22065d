"""What the check, the PDF and the editor show of a 40k roster (core.system.RosterSummary)."""

from __future__ import annotations

from typing import Any

from ...core.findings import finding_json
from ...core.names import plural
from ...core.system import EntrySummary, RosterSummary, SheetSummary
from .catalog import Unit
from .rules import CheckedUnit, Wh40kResult, toughness

GAME_NAME = "Warhammer 40,000 10th edition"


def strength_text(derived: dict[str, Any]) -> str:
    """'Starting Strength 10, Below Half-strength at 4 models or fewer'; a one-model unit counts wounds."""
    if derived["starting_strength"] == 1:
        wounds = derived.get("wounds")
        if wounds is None:
            return "Starting Strength 1, Below Half-strength with fewer than half its wounds left"
        return (f"Starting Strength 1, Below Half-strength at {plural(derived['below_half_wounds'], 'wound')} "
                f"left or fewer (W {wounds})")
    return (f"Starting Strength {derived['starting_strength']}, "
            f"Below Half-strength at {plural(derived['below_half_at'], 'model')} or fewer")


def unit_lines(checked: CheckedUnit, at: dict[int, CheckedUnit]) -> list[str]:
    roles = []
    if checked.enhancement is not None:
        roles.append(f"Enhancement {checked.enhancement.name} ({checked.enhancement.points} pts)")
    if checked.entry.warlord:
        roles.append("Warlord")
    if checked.leads is not None:
        roles.append(f"leads #{checked.leads + 1} {at[checked.leads].name}")
    if checked.embarked_in is not None:
        roles.append(f"embarked in #{checked.embarked_in + 1} {at[checked.embarked_in].name}")
    if checked.entry.hover:
        roles.append("in Hover mode")
    if checked.entry.reserves:
        roles.append("in Reserves")
    lines = ["; ".join(roles)] if roles else []
    if checked.entry.wargear:
        lines.append("wargear: " + ", ".join(f"{n} {weapon}" for weapon, n in checked.entry.wargear.items()))
    d = checked.derived
    lines.append(f"{strength_text(d)}; T {toughness(checked.unit)}, best Ld {d['leadership'] or '—'}")
    attached = d.get("attached")
    if attached:
        leaders = " and ".join(f"#{i + 1} {at[i].name}" for i in attached["leaders"])
        lines.append(f"attached unit with {leaders}: Starting Strength {attached['starting_strength']}, Below "
                     f"Half-strength at {plural(attached['below_half_at'], 'model')} or fewer; attacks use T "
                     f"{attached['toughness']}; best Ld {attached['leadership'] or '—'}")
    return lines


def unit_json(checked: CheckedUnit) -> dict[str, Any]:
    return {"index": checked.index, "type": checked.name, "label": checked.entry.label, "models": checked.models,
            "points": checked.points, "enhancement": checked.enhancement.name if checked.enhancement else None,
            "warlord": checked.entry.warlord, "wargear": dict(checked.entry.wargear), "leads": checked.leads,
            "leaders": checked.leaders, "embarked_in": checked.embarked_in, "reserves": checked.entry.reserves,
            "hover": checked.entry.hover, "keywords": checked.unit.keywords, **checked.derived}


def sheet(unit: Unit) -> SheetSummary:
    profiles = [["", "M", "T", "Sv", "W", "Ld", "OC", "Inv"]]
    rows = [[p.name, p.movement, p.toughness, p.save, p.wounds, p.leadership, p.objective_control,
             p.invulnerable_save or "—"] for p in unit.profiles]
    tables = [(profiles[0], rows)]
    for kind, skill in (("ranged", "BS"), ("melee", "WS")):
        weapons = [w for w in unit.weapons if w.kind == kind]
        if weapons:
            tables.append((["Ranged weapons" if kind == "ranged" else "Melee weapons",
                            "Range", "A", skill, "S", "AP", "D"],
                           [[w.name + (f" [{', '.join(w.keywords)}]" if w.keywords else ""), w.range, w.attacks,
                             w.skill, w.strength, w.armour_penetration, w.damage] for w in weapons]))
    lines = [("Abilities", ", ".join(unit.rules))] if unit.rules else []
    lines += [(a.name, a.text) for a in unit.abilities]
    if unit.transport:
        lines.append(("Transport", unit.transport))
    lines.append(("Unit composition", ", ".join(f"{m.min}-{m.max} {m.name}" if m.min != m.max else f"{m.min} {m.name}"
                                                for m in unit.models)))
    lines.append(("Points", ", ".join(f"{plural(s.models, 'model')} {s.points}" for s in unit.sizes)))
    return SheetSummary(unit.name, ", ".join(unit.keywords + unit.faction_keywords), tables, lines)


def summary(result: Wh40kResult) -> RosterSummary:
    at = {c.index: c for c in result.units}
    reserves = result.derived["reserves"]
    warlords = [f"#{c.index + 1} {c.name}" for c in result.units if c.entry.warlord]
    army_lines = [f"battle size: {result.battle_size.name} ({result.limit:,} points)",
                  f"Strategic Reserves: {reserves['points']:,} / {reserves['limit']:,}",
                  *(["Warlord: " + ", ".join(warlords)] if warlords else []),
                  f"detachment: {result.detachment.name if result.detachment else result.roster.detachment}"]
    json = {
        "game": result.roster.game, "army": result.faction.faction_keyword, "army_name": result.faction.name,
        "name": result.roster.name, "valid": result.valid, "points": {"total": result.total, "limit": result.limit},
        "battle_size": result.battle_size.name, "detachment": result.detachment.name if result.detachment else None,
        "reserves": reserves, "issues": [finding_json(f) for f in result.findings],
        "units": [unit_json(c) for c in result.units],
    }
    sheets = list({c.unit.id: sheet(c.unit) for c in result.units}.values())
    return RosterSummary(
        name=result.roster.name, army=result.faction.name, game=GAME_NAME, total=result.total, limit=result.limit,
        findings=result.findings, army_lines=army_lines,
        entries=[EntrySummary(c.index, c.title, c.points, unit_lines(c, at)) for c in result.units],
        json=json, sheets=sheets, data_revision=result.data_revision)

"""What the check, the PDF and the editor show of a 40k roster (core.system.RosterSummary)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ...core.findings import finding_json
from ...core.names import name_key, plural
from ...core.system import EntrySummary, RosterSummary, SheetSummary
from .catalog import Ability, ModelRange, Unit, weapon_name
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


def kinds_of(unit: Unit, models: int) -> list[tuple[ModelRange, int]]:
    """How many models of each kind a unit of `models` has by default: each kind its least, the
    rest to the kinds in the data's order, each up to its most (a Sergeant and 9 Intercessors)."""
    left = models - sum(kind.min for kind in unit.models)
    found = []
    for kind in unit.models:
        more = max(0, min(left, kind.max - kind.min))
        left -= more
        found.append((kind, kind.min + more))
    return found


def replaced_by(unit: Unit, weapon: str) -> list[str]:
    """The default weapons a model gives up to carry `weapon`, by the first plain choice that gives
    it: through a default option (a choice within it), that option's defaults of the same kind,
    ranged or melee; else through another option, what the defaults give and that option does
    not. Nothing where no choice the import read gives it (D33)."""
    wanted = name_key(weapon)
    kinds = {name_key(weapon_name(w.name)): w.kind for w in unit.weapons}
    for choice in unit.wargear_choices:
        through = [option for option, gives in choice.gives.items() if wanted in {name_key(w) for w in gives}]
        if any(option in choice.default for option in through):
            return [w for w in choice.default_weapons
                    if name_key(w) != wanted and kinds.get(name_key(w)) == kinds.get(wanted)]
        if through:
            gives = {name_key(w) for w in choice.gives[through[0]]}
            return [w for w in choice.default_weapons if name_key(w) not in gives]
    return []


def loadout(unit: Unit, models: int, wargear: dict[str, int]) -> dict[str, int] | None:
    """How many models carry each weapon (by name_key): the defaults of each kind of model, changed
    by the unit's `wargear` (n models carry a weapon, D3); None where the import did not record
    the defaults."""
    if any(kind.default_weapons is None for kind in unit.models):
        return None
    carried: dict[str, int] = {}
    for kind, count in kinds_of(unit, models):
        for weapon in kind.default_weapons or ():
            carried[name_key(weapon)] = carried.get(name_key(weapon), 0) + count
    for weapon, count in wargear.items():
        if name_key(weapon) not in carried:  # a default the roster counts itself replaces nothing
            for given_up in replaced_by(unit, weapon):
                key = name_key(given_up)
                carried[key] = max(0, carried.get(key, 0) - count)
    carried.update((name_key(weapon), count) for weapon, count in wargear.items())
    return {weapon: count for weapon, count in carried.items() if count > 0}


def has(ability: Ability, carried: dict[str, int] | None) -> bool:
    """Whether a unit carrying these weapons has the ability: one a wargear option gives, where it
    carries every weapon of such an option (D33)."""
    return carried is None or not ability.comes_with or any(
        all(name_key(weapon) in carried for weapon in option) for option in ability.comes_with)


def sheet(unit: Unit, faction_id: str, carried: dict[str, int] | None = None,
          taken_as: Sequence[str] = ()) -> SheetSummary:
    """A unit's card in an army of this catalogue: what the data shows there, and the weapons
    `carried` (by name_key, with how many models carry each; None: every weapon of the datasheet)."""
    profiles = [["", "M", "T", "Sv", "W", "Ld", "OC", "Inv"]]
    rows = [[p.name, p.movement, p.toughness, p.save, p.wounds, p.leadership, p.objective_control,
             p.invulnerable_save or "—"] for p in unit.profiles]
    tables = [(profiles[0], rows)]
    several = unit.max_models > 1
    for kind, skill in (("ranged", "BS"), ("melee", "WS")):
        weapons = [(w, None if carried is None else carried.get(name_key(weapon_name(w.name))))
                   for w in unit.weapons if w.kind == kind]
        weapons = [(w, count) for w, count in weapons if carried is None or count]
        if weapons:
            tables.append((["Ranged weapons" if kind == "ranged" else "Melee weapons",
                            "Range", "A", skill, "S", "AP", "D"],
                           [[w.name + (f" ×{count}" if count and several else "")
                             + (f" [{', '.join(w.keywords)}]" if w.keywords else ""), w.range, w.attacks,
                             w.skill, w.strength, w.armour_penetration, w.damage] for w, count in weapons]))
    rules = unit.rules_in(faction_id)
    lines = [("Taken as", ", ".join(taken_as))] if taken_as else []
    lines += [("Abilities", ", ".join(rules))] if rules else []
    lines += [(a.name, a.text) for a in unit.abilities if a.shown_in(faction_id) and has(a, carried)]
    if unit.transport:
        lines.append(("Transport", unit.transport))
    lines.append(("Unit composition", ", ".join(f"{m.min}-{m.max} {m.name}" if m.min != m.max else f"{m.min} {m.name}"
                                                for m in unit.models)))
    lines.append(("Points", ", ".join(f"{plural(s.models, 'model')} {s.points}" for s in unit.sizes)))
    return SheetSummary(unit.name, ", ".join(unit.keywords + unit.faction_keywords), tables, lines)


def sheets(result: Wh40kResult) -> list[SheetSummary]:
    """One card per datasheet and loadout taken, each naming the units it is for."""
    cards: dict[tuple[str, tuple[tuple[str, int], ...] | None], tuple[Unit, dict[str, int] | None, list[str]]] = {}
    for checked in result.units:
        carried = loadout(checked.unit, checked.models, dict(checked.entry.wargear))
        key = (checked.unit.id, None if carried is None else tuple(sorted(carried.items())))
        cards.setdefault(key, (checked.unit, carried, []))[2].append(f"#{checked.index + 1} {checked.title}")
    return [sheet(unit, result.faction.id, carried, taken) for unit, carried, taken in cards.values()]


def listing(result: Wh40kResult) -> RosterSummary:
    """The summary without the datasheets and the JSON: what the editor lists after each edit
    (working those two out for every unit is most of a summary's time, and only reports read them)."""
    at = {c.index: c for c in result.units}
    reserves = result.derived["reserves"]
    warlords = [f"#{c.index + 1} {c.name}" for c in result.units if c.entry.warlord]
    detachment = result.detachment.name if result.detachment else result.roster.detachment or "(none)"
    army_lines = [f"battle size: {result.battle_size.name} ({result.limit:,} points)",
                  f"Strategic Reserves: {reserves['points']:,} / {reserves['limit']:,}",
                  *(["Warlord: " + ", ".join(warlords)] if warlords else []),
                  f"detachment: {detachment}"]
    return RosterSummary(
        name=result.roster.name, army=result.faction_name, game=GAME_NAME, total=result.total,
        limit=result.points_limit, findings=result.findings, army_lines=army_lines,
        entries=[EntrySummary(c.index, c.title, c.points, unit_lines(c, at)) for c in result.units],
        data_revision=result.data_revision)


def summary(result: Wh40kResult) -> RosterSummary:
    json = {
        "game": result.roster.game, "army": result.faction.faction_keyword, "army_name": result.faction_name,
        "name": result.roster.name, "valid": result.valid,
        "points": {"total": result.total, "limit": result.points_limit},
        "battle_size": result.battle_size.name, "detachment": result.detachment.name if result.detachment else None,
        "reserves": result.derived["reserves"], "issues": [finding_json(f) for f in result.findings],
        "units": [unit_json(c) for c in result.units],
    }
    return replace(listing(result), json=json, sheets=sheets(result))

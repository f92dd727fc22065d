"""A unit's full datasheet: statistics, weapons, abilities with short summaries, and notes."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.content import Content

from ...listengine.catalog import Catalog
from ...listengine.datasheet import Datasheet

TYPES = {"CH": "character", "INF": "infantry", "LV": "light vehicle", "AV": "armoured vehicle", "WE": "war engine",
         "AC": "aircraft", "SC": "spacecraft", "WE/AC": "war engine and aircraft"}


def _stat(value: object, unit: str = "") -> str:
    return "n/a" if value is None else f"{value}{unit}"


def datasheet(sheet: Datasheet, catalog: Catalog, game: str) -> RenderableType:
    parts: list[RenderableType] = [Text.assemble((sheet.name, "bold"), "  ",
                                                 (TYPES.get(sheet.type, sheet.type), "dim"))]
    stats = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold")
    for column in ("Type", "Speed", "Armour", "Close combat", "Firefight"):
        stats.add_column(column)
    speed = _stat(sheet.speed, "cm") + (f" ({sheet.manoeuvre})" if sheet.manoeuvre else "")
    stats.add_row(sheet.type, speed, _stat(sheet.armour), _stat(sheet.close_combat), _stat(sheet.firefight))
    parts += [Text(""), stats]
    if sheet.weapons:
        weapons = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold")
        weapons.add_column("Weapon")
        weapons.add_column("Range", no_wrap=True)
        weapons.add_column("Firepower")
        for weapon in sheet.weapons:
            count = f"{weapon.count} × " if weapon.count != 1 else ""
            weapons.add_row(count + weapon.name, weapon.range, weapon.firepower)
        parts += [Text(""), weapons]
    for loadout in sheet.loadouts:
        parts.append(Text.assemble(("Loadout ", "dim"), (loadout.name, "bold"), ": ", ", ".join(loadout.weapons)))
    extras = [f"damage capacity {sheet.damage_capacity}" if sheet.damage_capacity else "",
              f"{sheet.void_shields} void shields" if sheet.void_shields else "",
              f"power field {sheet.power_field}" if sheet.power_field else ""]
    if any(extras):
        parts += [Text(""), Text(" · ".join(e for e in extras if e).capitalize())]
    if sheet.critical_hit:
        parts.append(Text.assemble(("Critical hit: ", "bold"), sheet.critical_hit))
    for compartment in sheet.transport:
        carried = ", ".join(f"{unit.rpartition(':')[2]} ({n})" for unit, n in compartment.carries.items())
        parts.append(Text.assemble(("Transport: ", "bold"), f"{compartment.slots} spaces for {carried}"))
    if sheet.abilities:
        parts += [Text(""), Text("Abilities", style="bold")]
        for printed in sheet.abilities:
            ability = catalog.ability(game, printed)
            line = Text.assemble(("• ", "dim"), (printed, "bold"))
            if ability is not None:
                line.append(f" — {ability.summary}")
                line.append(f" [{ability.rule}]", style="dim")
            parts.append(line)
    if sheet.notes:
        parts += [Text(""), Text("Notes", style="bold")]
        parts += [Text.assemble(("• ", "dim"), note) for note in sheet.notes]
    return Group(*parts)


def stats(sheet: Datasheet) -> Content:
    """A unit's datasheet in a few lines, for choosing: 'Dreadnought AV · 15cm · armour 4+ · CC 4+
    · FF 4+', its weapons, then its abilities and notes."""
    values = [sheet.type, _stat(sheet.speed, "cm"), f"armour {_stat(sheet.armour)}", f"CC {_stat(sheet.close_combat)}",
              f"FF {_stat(sheet.firefight)}"]
    if sheet.damage_capacity:
        values.append(f"DC {sheet.damage_capacity}")
    lines = [Content.assemble((sheet.name, "bold"), "  ", " · ".join(values))]
    if sheet.weapons:
        lines.append(Content("  " + " · ".join((f"{w.count} × " if w.count != 1 else "") + f"{w.name} {w.range} "
                                              f"{w.firepower}" for w in sheet.weapons)))
    extras = [*sheet.abilities, *sheet.notes]
    if extras:
        lines.append(Content.styled("  " + " · ".join(extras), "$text-muted"))
    return Content("\n").join(lines)

"""The PDF of a roster the list engine checked (Epic Armageddon): formations with their break points
and activations, the game's own datasheets, and the glossary of the special abilities they name."""

from __future__ import annotations

import re
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, NextPageTemplate, PageBreak, Spacer

from ...core.names import plural
from ...listengine.datasheet import Ability, Datasheet, Weapon, ability_name
from ...listengine.engine import BuiltFormation, RosterResult
from ...listengine.lines import (
    garrison_text,
    loadout_text,
    purchase_sheets,
    purchases_text,
    title,
    unit_line,
    upgrades_text,
)
from .document import (
    DASH,
    FONT,
    GREY,
    RULE,
    Paragraph,
    RosterDocument,
    Text,
    _findings_by_entry,
    _grid,
    _or_dash,
    _table,
    _widths,
    clean,
)


def weapon_abilities(firepower: str) -> list[str]:
    """The ability names in a firepower entry: 'MW2+, TK (D3), Fwd Arc' gives MW, TK, Fwd Arc.
    Whether each one is a special ability is for the glossary to say."""
    names = []
    for part in re.split(r",|\bOR\b|\bAND\b", firepower, flags=re.IGNORECASE):
        name = ability_name(re.sub(r"^\s*\([^)]*\)", "", part))  # "(15cm) Small Arms"
        name = re.sub(r"^\d+\s*x\s*", "", name)  # "2 x MW2+"
        name = re.sub(r"\d+\+$", "", name).strip()  # "MW2+"
        if name:
            names.append(name)
    return names



class FormationsDocument(RosterDocument):
    """The PDF of a roster checked by the list engine (Epic): formations with their break points,
    the game's own datasheets and the glossary of special abilities."""

    result: RosterResult

    def totals(self) -> list[Flowable]:
        result = self.result
        rows = [self.points_row()]
        for cap in result.caps:
            state = f"{cap.points - cap.limit:,} over" if cap.points > cap.limit else f"{cap.limit - cap.points:,} left"
            rows.append((cap.name, f"{cap.points:,} of at most {cap.limit:,} ({state}) [{cap.rule}]"))
        if result.purchases:
            rows.append(("Bought for the army", purchases_text(result)))
        derived = result.derived
        rows.append(("Formations", str(len(result.formations))))
        if "activations" in derived:
            rows.append(("Activations", str(derived["activations"])))
        if "strategy_rating" in derived:
            rows.append(("Strategy rating", str(derived["strategy_rating"])))
        targets = [f for f in result.formations if f.index in derived.get("break_their_spirit", [])]
        if "break_their_spirit" in derived:
            rows.append(("Break Their Spirit", " or ".join(f"#{f.index + 1} {title(f)} ({f.points:,} pts)"
                                                           for f in targets) or "none"))
        return self.army_table(rows)

    def entries(self) -> list[Flowable]:
        """One row per formation: a row never splits, so a formation stays with its heading,
        and the column headings repeat on every page the table runs onto."""
        style, result = self.styles, self.result
        heads = ["#", "Formation and units", "Points", "Units", "Break point", "Half strength", "Initiative"]
        rows: list[list[Any]] = [[Text(h, style["CellHeadRight" if i >= 2 else "CellHead"])
                                  for i, h in enumerate(heads)]]
        by_formation = _findings_by_entry(result.findings, "formations")
        targets = set(result.derived.get("break_their_spirit", []))
        built_at = {built.index: built for built in result.formations}
        for index, entry in enumerate(result.roster.formations):
            numbers = by_formation.get(index, [])
            built = built_at.get(index)
            if built is None:  # a formation the army list does not have: shown, never counted
                cell = [Text(entry.type, style["CellBold"]),
                        Text(f"Not a formation of this army; not counted (see finding {', '.join(map(str, numbers))})",
                             style["CellBold"])]
                rows.append([Text(str(index + 1), style["CellBold"]), cell,
                             *(Text(DASH, style["CellRight"]) for _ in range(5))])
                continue
            d = built.derived
            figures = [f"{built.points:,}", *(_or_dash(d.get(name)) for name in
                                               ("units", "break_point", "half_strength", "initiative"))]
            rows.append([Text(str(index + 1), style["CellBold"]), self.formation_cell(built, index in targets, numbers),
                         *(Text(figure, style["CellRight"]) for figure in figures)])
        for name, (number, points) in result.purchases.items():
            rows.append([Text("", style["Cell"]),
                         Paragraph(f"<b>{clean(name)} ×{number}</b> (bought for the army)", style["Cell"]),
                         Text(f"{points:,}", style["CellRight"]), "", "", "", ""])
        if len(rows) == 1:
            return [Paragraph("Formations", style["Heading"]), Paragraph("No formations.", style["Normal"])]
        rows.append([Text("", style["Cell"]), Text("Total", style["CellBold"]),
                     Text(f"{result.total:,}", style["CellBoldRight"]), "", "", "", ""])
        widths = _widths(self.width, [7 * mm, None, 14 * mm, 11 * mm, 13 * mm, 15 * mm, 15 * mm])
        return [Paragraph("Formations", style["Heading"]), _table(rows, widths, _grid(), repeat_rows=1)]

    def formation_cell(self, built: BuiltFormation, target: bool, numbers: list[int]) -> list[Flowable | Text]:
        style = self.styles
        heading: Flowable | Text = Text(title(built), style["CellBold"])
        if target:
            heading = Paragraph(f"<b>{clean(title(built))}</b>  <i>(Break Their Spirit target)</i>", style["Cell"])
        lines = [heading, Text(unit_line(built), style["Cell"])]
        details = []
        paid = upgrades_text(built)
        if paid:
            details.append(f"base {built.points - sum(built.upgrades.values()):,} + upgrades: {paid}")
        if built.transport:
            details.append(f"transport: {built.transport}")
        if details:
            lines.append(Text("; ".join(details), style["Cell"]))
        garrison = garrison_text(built)
        if garrison:
            lines.append(Text(garrison[0].upper() + garrison[1:], style["Cell"]))
        for note in built.derived.get("notes", []):
            lines.append(Text(note[0].upper() + note[1:], style["Cell"]))
        if numbers:
            lines.append(Text(f"See finding {', '.join(str(n) for n in numbers)}", style["CellBold"]))
        return lines

    # --- datasheets and glossary --------------------------------------------------------

    def datasheets(self) -> list[Flowable]:
        sheets = self.sheets_used()
        parts: list[Flowable] = []
        if sheets:
            parts += [NextPageTemplate("columns"), PageBreak(), Paragraph("Datasheets", self.styles["Heading"])]
            parts += [self.datasheet(sheet) for sheet in sheets]
        glossary = self.glossary(sheets)
        if glossary:
            parts += [Paragraph("Special abilities", self.styles["Heading"]), *glossary]
        return parts

    def sheets_used(self) -> list[Datasheet]:
        """Every unit type of the roster, characters included, then those of what it buys for the
        whole army (its daemons), once each, in roster order."""
        seen: dict[str, Datasheet] = {}
        for built in self.result.formations:
            for sheet in [g.sheet for g in built.units] + [c.sheet for c in built.characters]:
                seen.setdefault(sheet.name, sheet)
        for sheet in purchase_sheets(self.result, self.catalog.view(self.game, self.result.army.id)):
            seen.setdefault(sheet.name, sheet)
        return list(seen.values())

    def datasheet(self, sheet: Datasheet) -> Flowable:
        style = self.styles
        span_rows: list[int] = []
        rows: list[list[Any]] = []

        def whole_row(value: Paragraph | Text) -> None:
            span_rows.append(len(rows))
            rows.append([value, "", ""])

        def labelled(label: str, text: str) -> None:
            whole_row(Paragraph(f"<b>{label}:</b> {clean(text)}", style["Cell"]))

        faction = self.faction_of(sheet)
        whole_row(Paragraph(f"{clean(sheet.name)}  <font name='{FONT}' size='7.5'>{sheet.type}"
                            f"{'  ·  ' + clean(faction) if faction else ''}</font>", style["SheetName"]))
        whole_row(Text(" · ".join(_statistics(sheet)), style["Cell"]))
        weapons_at = len(rows)
        if sheet.weapons:
            rows.append([Text(h, style["CellHead"]) for h in ("Weapon", "Range", "Firepower")])
            rows += [[Text(value, style["Cell"]) for value in (_weapon_name(weapon), weapon.range, weapon.firepower)]
                     for weapon in sheet.weapons]
        if sheet.abilities:
            labelled("Abilities", ", ".join(sheet.abilities))
        if sheet.loadouts:
            labelled("Weapon choice, one per unit", " or ".join(map(loadout_text, sheet.loadouts)))
        if sheet.transport:
            labelled("Transport", "; ".join(_compartment(c.slots, c.carries) for c in sheet.transport))
        if sheet.critical_hit:
            labelled("Critical hit", sheet.critical_hit)
        for note in sheet.notes:
            whole_row(Text(note, style["Cell"]))
        for markup in self.gains(sheet):
            whole_row(Paragraph(markup, style["Cell"]))
        commands = _grid(header_rows=0) + [("BACKGROUND", (0, 0), (-1, 0), GREY)]
        commands += [("SPAN", (0, r), (-1, r)) for r in span_rows]
        if sheet.weapons:
            commands.append(("LINEBELOW", (0, weapons_at), (-1, weapons_at), 0.8, RULE))
        table = _table(rows, _widths(self.column, [None, 0.17, 0.42]), commands, repeat_rows=1)
        return KeepTogether([table, Spacer(1, 2.5 * mm)])

    def gains(self, sheet: Datasheet) -> list[str]:
        """What this unit type gains in this roster: characters' weapons and abilities, and
        abilities granted by upgrades, with the formation it happens in."""
        lines = []
        for built in self.result.formations:
            for character in built.characters:
                if character.joins is None or character.joins.name != sheet.name:
                    continue
                gained = [f"{_weapon_name(w)} ({w.range}, {w.firepower})" for w in character.sheet.weapons]
                gained += character.sheet.abilities
                lines.append(f"<b>In formation {built.index + 1}, one {clean(sheet.name)} carries a "
                             f"{clean(character.sheet.name)} and gains:</b> {clean('; '.join(gained))}")
            for group in built.units:
                if group.sheet.name == sheet.name and group.gained:
                    lines.append(f"<b>In formation {built.index + 1}, the upgrades give:</b> "
                                 f"{clean(', '.join(group.gained))}")
        return lines

    def faction_of(self, sheet: Datasheet) -> str | None:
        """The unit's faction, or that of the datasheet file it comes from (telling allies apart)."""
        files = self.catalog.datasheets.get(self.game, {}).values()
        return sheet.faction or next((f.faction for f in files if any(unit is sheet for unit in f.units)), None)

    def glossary(self, sheets: list[Datasheet]) -> list[Flowable]:
        """The glossary entries of every ability the roster's units have or gain, or that a
        weapon of theirs carries, once each and in alphabetical order."""
        printed: list[str] = []
        for sheet in sheets:
            printed += sheet.abilities
            printed += [name for weapon in sheet.weapons for name in weapon_abilities(weapon.firepower)]
        printed += [a for built in self.result.formations for group in built.units for a in group.gained]
        entries: dict[str, Ability] = {}
        for name in printed:
            entry = self.catalog.ability(self.game, name)
            if entry is not None:
                entries.setdefault(entry.name, entry)
        return [Paragraph(f"<b>{clean(e.name)}</b> <i>({clean(e.rule)})</i>: {clean(e.summary)}",
                          self.styles["Glossary"]) for e in sorted(entries.values(), key=lambda e: e.name.casefold())]


def _statistics(sheet: Datasheet) -> list[str]:
    if sheet.is_character:
        return ["a character: it joins a unit, which gains its weapons and abilities"]
    stats = [f"Speed {f'{sheet.speed}cm' if sheet.speed is not None else 'n/a'}",
             *(f"{label} {value or 'n/a'}" for label, value in
               (("Armour", sheet.armour), ("CC", sheet.close_combat), ("FF", sheet.firefight)))]
    extras = [("Manoeuvre", sheet.manoeuvre), ("DC", sheet.damage_capacity), ("Void shields", sheet.void_shields),
              ("Power field", sheet.power_field)]
    return stats + [f"{label} {value}" for label, value in extras if value is not None]


def _weapon_name(weapon: Weapon) -> str:
    return weapon.name if weapon.count == 1 else f"{weapon.count} × {weapon.name}"


def _compartment(slots: int, carries: dict[str, int]) -> str:
    """'2 spaces: Tactical, Devastator (1 each); Terminator (2 each)'."""
    by_size: dict[int, list[str]] = {}
    for cargo, spaces in carries.items():
        by_size.setdefault(spaces, []).append(cargo.rpartition(":")[2])
    groups = [f"{', '.join(names)} ({size} each)" for size, names in sorted(by_size.items())]
    return f"{plural(slots, 'space')} for " + ", ".join(groups)

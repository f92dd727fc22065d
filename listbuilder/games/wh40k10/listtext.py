"""The text forms 40k players send, read into a `ListedArmy` (lists.py), and our roster written
in the official app's form.

The official app (and New Recruit's "GW app" style, the same layout), as v1.53 writes it and
`export` too (D46)::

    Ultramarines 3rd Company (1195 Points)         the list's name and total
    Space Marines                                  faction (a sub-faction may follow)
    Gladius Task Force                             detachment
    Strike Force (2,000 Points)                    battle size (the header's lines in any order)
    CHARACTERS                                     sections: headings in capitals
    Captain (90 Points)                            a unit and its points (Enhancement included)
      • Warlord
      • 1x Bolt pistol                             a one-model unit: its weapons and wargear
      • Enhancements: Artificer Armour
    Intercessor Squad (160 Points)
      • 1x Intercessor Sergeant                    its models ...
         ◦ 1x Hand flamer                          ... and their weapons (carried where optional, D28)
      • 9x Intercessor
         ◦ 9x Bolt rifle
    Exported with App Version: ..., Data Version: ...

Most builds (v1.14 to v1.32) write a model's weapons as one bullet continued by lines without one,
and a one-model unit's weapons at the first level, its Warlord among them::

    Daemon Prince of Khorne (200 points)
      • Warlord
      • 1x Hellforged weapons
        1x Infernal cannon

Tournament sites pass lists on without their indents or their title line: both are read (D27).
`export` adds lines of its own for what the app's text has none for (`• Attached to: ...`,
`• Embarked in: ...`, `• In Strategic Reserves`, `• In Hover mode`, `• Label: ...`,
and the roster's `wargear` and `options` its model lines do not give back: `• Wargear: 1x
Neo-volkite Pistol`, `• Option: Nurgle`; D19, D28, D46), read back the same.

New Recruit's own layouts are read by new_recruit.py.
"""

from __future__ import annotations

import re
from functools import partial

from ...battlescribe.roster import Selection
from ...listengine.catalog import Catalog
from .catalog import Unit, Wh40kCatalog
from .engine_roster import choice_named
from .lists import (
    ListedArmy,
    ListedItem,
    ListedUnit,
    ListUnreadable,
    carried,
    formation_notes,
    read_formation_note,
)
from .loadout import Gear, Line, unit_gear
from .rules import CheckedUnit, Wh40kResult, data_of

APP, NEW_RECRUIT = "the official app's text", "New Recruit's text"
POINTS = r"\(\s*(?P<points>\d[\d,]*(?:[ .]\d{3})*)\s*(?:points|pts?)\s*\)"  # '2,000', '2 000', '2.000'
HEADED = re.compile(rf"^(?P<name>.+?)\s*{POINTS}$", re.IGNORECASE)
BULLET = re.compile(r"^(?P<indent>\s*)(?P<bullet>[•◦▪∙·*+-])\s*(?P<text>.*)$")
COUNTED = re.compile(r"^(?P<count>\d+)\s*x\s*(?P<name>.+?)\s*(?::\s*(?P<rest>.*))?$", re.IGNORECASE)
ENHANCEMENT = re.compile(r"^enhancements?:\s*(?P<name>.+?)\s*(?:\(\s*\+?\s*\d+\s*(?:points|pts?)\s*\))?$",
                         re.IGNORECASE)
EXPORTED = re.compile(r"^exported with\b", re.IGNORECASE)
OURS = re.compile(r"^exported with listbuilder\b", re.IGNORECASE)  # `export`'s: it states Leaders, transports, Reserves
MARKDOWN_HEADING = re.compile(r"^#{1,6}\s+")  # the app's text as `listbuilder export --format markdown` writes it
WARGEAR_NOTE = re.compile(r"^wargear:\s*(?P<value>.+)$", re.IGNORECASE)  # app_text's line of a weapon taken
OPTION_NOTE = re.compile(r"^option:\s*(?P<value>.+)$", re.IGNORECASE)  # app_text's line of a unit's option
SECTIONS = {"character": "CHARACTERS", "battleline": "BATTLELINE", "dedicated_transport": "DEDICATED TRANSPORTS",
            "other": "OTHER DATASHEETS"}


MAX_FIGURE = 10**9  # a points figure or count in a list: an army is a few thousand points


class FigureTooLarge(ListUnreadable):
    """A points figure or count of more digits than any list holds (int() of 5,000 digits raises;
    of fewer it is slow), with the line it is on."""

    def __init__(self, line: int, written: str):
        shown = written if len(written) <= 20 else f"{written[:12]}... ({len(written):,} characters)"
        super().__init__(line, f"the number {shown} is larger than any list holds (at most {MAX_FIGURE:,})")


def _number(text: str, line: int) -> int:
    digits = re.sub(r"[, .]", "", text).lstrip("0") or "0"  # thousands written '2,000', '2 000' or '2.000'
    if len(digits) > len(str(MAX_FIGURE)) or int(digits) > MAX_FIGURE:
        raise FigureTooLarge(line, text)
    return int(digits)


def _tidy(raw: str) -> str:
    """A line with its indent kept, trailing blanks dropped and every other run of blanks one
    space: the patterns' optional blanks then cannot make a long line quadratic (a 40 KB bullet
    line of spaces took 23 s)."""
    text = raw.lstrip()
    return raw[:len(raw) - len(text)] + " ".join(text.split()) if text else ""


def text_form(text: str) -> str | None:
    """Which 40k text form this is, if either."""
    from .new_recruit import layout  # it reads with this module's helpers: imported when asked

    if layout(text) is not None:
        return NEW_RECRUIT
    lines = [MARKDOWN_HEADING.sub("", _tidy(line).strip()) for line in text.splitlines() if line.strip()]
    if any(HEADED.match(line) for line in lines) and (any(EXPORTED.match(line) for line in lines)
                                                       or any(line in SECTIONS.values() for line in lines)):
        return APP
    return None


def _heading(text: str) -> bool:
    return text == text.upper() and any(c.isalpha() for c in text) and not HEADED.match(text)


class _UnitLines:
    """The lines under one unit (D27). A first-level bullet is a kind of model, its Warlord or
    Enhancement, or a weapon; a deeper bullet (or a '◦') is a weapon of the model line above it. A
    line with no bullet continues the group the last bullet began: most of the app's builds list a
    model's weapons as one bullet and lines under it ('• 1x Hellforged weapons' then '1x Infernal
    cannon'), and write its Warlord among them. Such a group at the first level is weapons: of the
    unit's one model, or, where the list lost its indents, of the bare model line just before it."""

    def __init__(self, listed: ListedUnit, army: ListedArmy):
        self.listed, self.army = listed, army
        self.top_indent: int | None = None
        self.model: int | None = None  # the index of the last first-level item: the model deeper lines are under
        self.group: int | None = None  # the index of the item the last bullet line wrote
        self.previous: int | None = None  # the first-level item before that, if the group began at the first level

    def read(self, line: int, indent: int, bullet: str | None, text: str) -> None:
        if self.special(line, text):
            return
        counted = COUNTED.match(text)
        if counted is None:
            what = "model, weapon, Warlord or Enhancement" if bullet else "'Nx Name' line continuing the one above"
            self.army.unread(line, text, f"not a {what} line of {self.listed.name}")
            return
        item = ListedItem(counted["name"], _number(counted["count"], line), line)
        items = self.listed.items
        if bullet is None:  # one more of the group the last bullet line began
            if self.group is None:
                self.army.unread(line, text, f"not under a '•' line of {self.listed.name}")
                return
            head = items[self.group]
            if head.kind == "either":  # a group at the first level: weapons
                head.kind = "weapon"
                before = items[self.previous] if self.previous is not None else None
                if before is not None and before.kind == "either":
                    before.kind, head.under = "model", self.previous
            item.kind, item.under = "weapon", head.under
            self.listed.add(item)
            return
        if self.top_indent is None:
            self.top_indent = indent
        if indent > self.top_indent or bullet == "◦":  # a weapon of the model line above
            if self.model is not None and items[self.model].kind == "either":
                items[self.model].kind = "model"
            item.kind, item.under = "weapon", self.model
            self.group, self.previous = self.listed.add(item), None
            return
        if counted["rest"]:  # New Recruit's 'Nx Model: its weapons'
            item.kind = "model"
        self.previous = self.model
        self.model = self.group = self.listed.add(item)

    def special(self, line: int, text: str) -> bool:
        """Reads a Warlord or Enhancement item, or one of the notes `app_text` writes; False if neither."""
        enhancement = ENHANCEMENT.match(text)
        wargear = WARGEAR_NOTE.match(text)
        option = OPTION_NOTE.match(text)
        if enhancement:
            self.listed.enhancement, self.listed.enhancement_line = enhancement["name"], line
        elif text.casefold() == "warlord":
            self.listed.warlord = True
        elif wargear and (taken := COUNTED.fullmatch(wargear["value"])):
            self.listed.add(ListedItem(taken["name"], _number(taken["count"], line), line, "weapon", chosen=True))
        elif option:
            self.listed.stated_options.append((option["value"], line))
        else:
            return read_formation_note(self.listed, text)
        return True


def _is_unit(lines: list[str], at: int) -> bool:
    """Whether the header line at `at` ('Name (N points)') is a unit: a '•' line follows it."""
    following = next((lines[i] for i in range(at + 1, len(lines)) if lines[i].strip()), "")
    return bool(BULLET.match(following))


def read_app_text(text: str) -> ListedArmy:
    """The app's text, its title line or not (a tournament site may drop it), its indents or not."""
    army = ListedArmy(APP)
    unit_lines: _UnitLines | None = None
    in_header = True
    lines = [MARKDOWN_HEADING.sub("", _tidy(raw)) for raw in text.splitlines()]
    first = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    for index, line in enumerate(lines):
        number, stripped = index + 1, line.strip()
        if not stripped:
            continue
        bullet = BULLET.match(line)
        headed = HEADED.match(stripped)
        if index == first and headed:  # the title: the list's name and stated total
            army.name, army.total, army.total_line = headed["name"], _number(headed["points"], number), number
        elif EXPORTED.match(stripped):  # which app and data made it: the points are checked against the data
            army.formations_stated = OURS.match(stripped) is not None
        elif _heading(stripped):
            in_header, unit_lines = False, None
        elif headed and not bullet and (not in_header or _is_unit(lines, index)):
            in_header = False
            listed = ListedUnit(headed["name"], number, _number(headed["points"], number))
            army.add(listed)
            unit_lines = _UnitLines(listed, army)
        elif unit_lines is not None:
            unit_lines.read(number, len(line) - len(line.lstrip()), bullet["bullet"] if bullet else None,
                            bullet["text"].strip() if bullet else stripped)
        elif in_header:
            army.header.append((number, stripped))
        else:
            army.unread(number, stripped, "not a unit line ('Name (N points)') or one of its lines")
    return army


def read_new_recruit(text: str) -> ListedArmy:
    """New Recruit's text, in any of its layouts (new_recruit.py, which reads with this module's
    helpers: imported when a list is read)."""
    from .new_recruit import read_new_recruit as read

    return read(text)


def section_of(unit: Unit) -> str:
    return SECTIONS["character" if unit.character else "battleline" if unit.battleline else
                    "dedicated_transport" if unit.dedicated_transport else "other"]


def _options(result: Wh40kResult, index: int) -> list[str]:
    """A unit's `options` by the data's names ('Allegiance: Tzeentch' is 'Tzeentch'); as written
    where the data has none of that name (the check of the text then says so again)."""
    unit = result.tree.units.get(index) if result.tree is not None else None
    chosen = [(written, choice_named(unit.option, written) if unit is not None else None)
              for written in result.roster.units[index].options]
    return [choice.name if choice is not None else written for written, choice in chosen]


def _unit_lines(result: Wh40kResult, data: Wh40kCatalog, index: int, name: str) -> list[Line]:
    """A unit's bullet lines: its Warlord, the notes of `formation_notes`, its wargear as the
    selection tree holds it, the notes of the roster's wargear and options those lines do not
    give back (D46), its Enhancement. A unit the tree does not hold (a datasheet the data lacks,
    a model count it does not allow, no engine data): its models as one line of its own name."""
    entry, checked = result.roster.units[index], next((c for c in result.units if c.index == index), None)
    lines = [(0, "Warlord")] if entry.warlord else []
    lines += [(0, note) for note in formation_notes(entry)]
    tree = result.tree
    unit = tree.units.get(index) if tree is not None else None
    if tree is not None and unit is not None and checked is not None and entry.models in (None, checked.models):
        own = {s.id for s in unit.walk() if tree.places.get(s.id, ())[2:3] in (("warlord",), ("enhancement",))}
        gear = Gear(checked.unit, own).lines(unit)
        wargear, options = _read_back(result, data, checked, unit, gear)
        lines += gear
    else:
        models = checked.models if checked is not None and entry.models is None else entry.models
        lines += [(0, f"{models}x {name}")] if models is not None else []
        wargear, options = {}, []
    lines += [(0, f"Wargear: {count}x {weapon}") for weapon, count in entry.wargear.items()
              if wargear.get(weapon) != count]
    lines += [(0, f"Option: {option}") for option in _options(result, index) if option not in options]
    if entry.enhancement:
        lines.append((0, f"Enhancements: {entry.enhancement}"))
    return lines


def _read_back(result: Wh40kResult, data: Wh40kCatalog, checked: CheckedUnit, unit: Selection,
               lines: list[Line]) -> tuple[dict[str, int], list[str]]:
    """The `wargear` and `options` `import` takes from a unit's wargear lines, read as any list's are."""
    listed = ListedUnit(checked.name, 0)
    reader = _UnitLines(listed, ListedArmy(APP))
    for level, text in lines:
        reader.read(0, 5 if level else 2, "◦" if level else "•", text)
    army = result.roster.model_copy(update={"units": []})
    wargear, options, _ = carried(checked.unit, listed, checked.models, unit.option,
                                  partial(unit_gear, data, result.faction, army, checked.unit, checked.models))
    return wargear, [name for name, _ in options]


def app_text(result: Wh40kResult, catalog: Catalog, markdown: bool = False) -> str:
    """The roster in the official app's text form (units grouped by section, each unit's kinds of
    model with their wargear, as the app writes them; D46). In Markdown the same lines: the list,
    its sections and its units as headings, each header line a paragraph of its own, the bullets
    list items; `read_app_text` reads both. A unit the data does not know is written as named, at
    0 points, and a model count its datasheet does not allow as written, so that the check of the
    imported list finds them again."""
    roster = result.roster
    data = data_of(catalog, roster.faction)
    assert data is not None  # it checked the roster
    title, section_heading, unit_heading = ("# ", "## ", "### ") if markdown else ("", "", "")
    bullets = ("- ", "  - ") if markdown else ("  • ", "     ◦ ")
    header = [result.faction.short_name, result.detachment.name if result.detachment else roster.detachment,
              f"{result.battle_size.name} ({result.limit:,} Points)"]
    lines = [f"{title}{roster.name or result.faction.short_name} ({result.total} Points)", ""]
    for line in header:  # in Markdown, each a paragraph of its own
        lines += [line, ""] if markdown else [line]
    if not markdown:
        lines.append("")
    checked_units = {checked.index: checked for checked in result.units}
    sections = [section_of(checked_units[i].unit) if i in checked_units else SECTIONS["other"]
                for i in range(len(roster.units))]
    for section in SECTIONS.values():
        if section not in sections:
            continue
        lines += [section_heading + section, ""]
        for index in (i for i, in_section in enumerate(sections) if in_section == section):
            checked = checked_units.get(index)
            name = checked.name if checked else roster.units[index].type
            lines.append(f"{unit_heading}{name} ({checked.points if checked else 0} Points)")
            lines += [bullets[level] + text for level, text in _unit_lines(result, data, index, name)]
            lines.append("")
    lines.append(f"Exported with listbuilder, Data Version: {result.data_revision}")
    return "\n".join(lines) + "\n"

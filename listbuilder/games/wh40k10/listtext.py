"""The text forms 40k players send, read into a `ListedArmy` (lists.py), and our roster written
in the official app's form.

The official app (and New Recruit's "GW app" style, the same layout)::

    Ultramarines 3rd Company (1,195 points)        the list's name and total
    Space Marines                                  faction (a sub-faction may follow)
    Strike Force (2,000 points)                    battle size
    Gladius Task Force                             detachment
    CHARACTERS                                     sections: headings in capitals
    Captain (90 points)                            a unit and its points (Enhancement included)
      • Warlord
      • 1x Captain                                 its models ...
        ◦ 1x Bolt pistol                           ... and their weapons (read, not carried over)
      • Enhancement: Artificer Armour
    Exported with App Version: ..., Data Version: ...

New Recruit's own layouts are read by new_recruit.py.
"""

from __future__ import annotations

import re

from .catalog import Unit
from .lists import ListedArmy, ListedUnit, ListUnreadable
from .rules import Wh40kResult

APP, NEW_RECRUIT = "the official app's text", "New Recruit's text"
POINTS = r"\(\s*(?P<points>\d[\d,]*)\s*(?:points|pts?)\s*\)"
HEADED = re.compile(rf"^(?P<name>.+?)\s*{POINTS}$", re.IGNORECASE)
BULLET = re.compile(r"^(?P<indent>\s*)(?P<bullet>[•◦▪∙·*+-])\s*(?P<text>.*)$")
COUNTED = re.compile(r"^(?P<count>\d+)\s*x\s*(?P<name>.+?)\s*(?::\s*(?P<rest>.*))?$", re.IGNORECASE)
ENHANCEMENT = re.compile(r"^enhancements?:\s*(?P<name>.+?)\s*(?:\(\s*\+?\s*\d+\s*(?:points|pts?)\s*\))?$",
                         re.IGNORECASE)
EXPORTED = re.compile(r"^exported with\b", re.IGNORECASE)
MARKDOWN_HEADING = re.compile(r"^#{1,6}\s+")  # the app's text as `listbuilder export --format markdown` writes it
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
    digits = text.replace(",", "").lstrip("0") or "0"
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
    if lines and HEADED.match(lines[0]) and (any(EXPORTED.match(line) for line in lines)
                                             or any(line in SECTIONS.values() for line in lines)):
        return APP
    return None


def _heading(text: str) -> bool:
    return text == text.upper() and any(c.isalpha() for c in text) and not HEADED.match(text)


class _UnitLines:
    """The bullet lines under one unit: the first level is models (by the datasheet's model names),
    its Warlord and Enhancement, or wargear; anything deeper is wargear."""

    def __init__(self, listed: ListedUnit, army: ListedArmy):
        self.listed, self.army = listed, army
        self.top_indent: int | None = None
        self.after_counted = False  # the last first-level line was an 'Nx Name' line

    def read(self, line: int, indent: int, bullet: str, text: str) -> None:
        if self.top_indent is None:
            self.top_indent = indent
        if indent > self.top_indent or bullet == "◦":
            self.listed.armed |= self.after_counted  # a weapon of the model above
            return
        counted = COUNTED.match(text)
        self.after_counted = False
        if not self.special(line, text):
            if counted:  # a model or a weapon: told apart by the datasheet's model names (lists.py)
                self.listed.model_lines.append((counted["name"], _number(counted["count"], line)))
                self.listed.armed |= bool(counted["rest"])
                self.after_counted = True
            elif text:
                self.army.unread(line, text, f"not a model, Warlord or Enhancement line of {self.listed.name}")

    def special(self, line: int, text: str) -> bool:
        """Reads a Warlord or Enhancement item; False if it is neither."""
        enhancement = ENHANCEMENT.match(text)
        if enhancement:
            self.listed.enhancement, self.listed.enhancement_line = enhancement["name"], line
        elif text.casefold() == "warlord":
            self.listed.warlord = True
        else:
            return False
        return True


def read_app_text(text: str) -> ListedArmy:
    army = ListedArmy(APP)
    unit_lines: _UnitLines | None = None
    in_title, in_header = True, True
    for number, raw in enumerate(text.splitlines(), start=1):
        line = MARKDOWN_HEADING.sub("", _tidy(raw))
        stripped = line.strip()
        if not stripped:
            continue
        bullet = BULLET.match(line)
        headed = HEADED.match(stripped)
        if in_title:  # the first line: the list's name and stated total
            in_title = False
            if headed:
                army.name, army.total, army.total_line = headed["name"], _number(headed["points"], number), number
            else:
                army.name = stripped
        elif EXPORTED.match(stripped):
            continue  # which app and data made it: the points are checked against the data instead
        elif _heading(stripped):
            in_header, unit_lines = False, None
        elif bullet and unit_lines is not None:
            unit_lines.read(number, len(bullet["indent"]), bullet["bullet"], bullet["text"].strip())
        elif in_header:
            army.header.append((number, stripped))
        elif headed and line == stripped:
            listed = ListedUnit(headed["name"], number, _number(headed["points"], number))
            army.add(listed)
            unit_lines = _UnitLines(listed, army)
        else:
            army.unread(number, stripped, "not a unit line ('Name (N points)') or one of its bullet lines")
    return army


def read_new_recruit(text: str) -> ListedArmy:
    """New Recruit's text, in any of its layouts (new_recruit.py, which reads with this module's
    helpers: imported when a list is read)."""
    from .new_recruit import read_new_recruit as read

    return read(text)


def model_counts(unit: Unit, models: int) -> list[tuple[str, int]]:
    """How a unit of `models` models splits among its kinds of model: each its fewest, the rest to
    the first that may have more."""
    counts = [m.min for m in unit.models]
    spare = models - sum(counts)
    for i, model in enumerate(unit.models):
        more = min(spare, model.max - model.min)
        counts[i] += more
        spare -= more
    return [(model.name, count) for model, count in zip(unit.models, counts) if count]


def section_of(unit: Unit) -> str:
    return SECTIONS["character" if unit.character else "battleline" if unit.battleline else
                    "dedicated_transport" if unit.dedicated_transport else "other"]


def app_text(result: Wh40kResult, markdown: bool = False) -> str:
    """The roster in the official app's text form (units grouped by section, as the app does). In
    Markdown the same lines: the list, its sections and its units as headings, each header line a
    paragraph of its own, the bullets list items; `read_app_text` reads both. A unit the data does
    not know is written as named, at 0 points, and a model count its datasheet does not allow as
    written, so that the check of the imported list finds them again."""
    roster = result.roster
    title, section_heading, unit_heading, bullet = ("# ", "## ", "### ", "- ") if markdown else ("", "", "", "  • ")
    header = [result.faction.short_name, f"{result.battle_size.name} ({result.limit:,} points)",
              result.detachment.name if result.detachment else roster.detachment]
    lines = [f"{title}{roster.name or result.faction.short_name} ({result.total:,} points)", ""]
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
            entry, checked = roster.units[index], checked_units.get(index)
            name = checked.name if checked else entry.type
            lines.append(f"{unit_heading}{name} ({checked.points if checked else 0:,} points)")
            if entry.warlord:
                lines.append(f"{bullet}Warlord")
            if checked is not None and entry.models in (None, checked.models):
                lines += [f"{bullet}{count}x {model}" for model, count in model_counts(checked.unit, checked.models)]
            elif entry.models is not None:
                lines.append(f"{bullet}{entry.models}x {name}")
            if entry.enhancement:
                lines.append(f"{bullet}Enhancement: {entry.enhancement}")
            lines.append("")
    lines.append(f"Exported with listbuilder, Data Version: {result.data_revision}")
    return "\n".join(lines) + "\n"

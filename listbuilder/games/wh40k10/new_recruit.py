"""New Recruit's text exports, each of its layouts told from the bytes and read into a
`ListedArmy` (lists.py), every line placed or reported with its number.

Three layouts open with the same header::

    + FACTION KEYWORD: Chaos - World Eaters
    + DETACHMENT: Berzerker Warband (Relentless Rage)     the detachment, then the rule chosen
    + TOTAL ARMY POINTS: 1995pts
    + WARLORD: Char1: Khârn the Betrayer
    + ENHANCEMENT: Favoured of Khorne (on Char2: Lord on Juggernaut)
    & Berzerker Glaive (on Char3: Master of Executions)   the header's next Enhancement

The header's `CharN` counts only the characters that may take an Enhancement (not Epic Heroes);
the body's counts every character, so the two disagree as soon as an Epic Hero comes first. An
Enhancement is therefore placed by what the body says under its bearer, else by the unit's name
(DECISIONS.md D30). The bodies:

- "GW": sections in capitals (`CHARACTER`, `BATTLELINE`, `ALLIED UNITS`), `Name (N pts)` or
  `1x Name (N pts)`, then `•` lines: a kind of model with its weapons on deeper `•` lines, or a
  weapon of a one-model unit; the Enhancement as `• Name (+N pts)`; `• Warlord` or
  `• Houndpack Lance Character, Warlord`.
- "WTC": the same sections; `Char1: 1x Name (N pts)`; `• 9x Model` with `5 with Bolt pistol,
  Chainblade` lines under it (or `1 with ...` under a one-model unit); `Enhancement: Name (+N pts)`
  under its bearer.
- "WTC-Compact": no sections; `Char1: 1x Name (N pts): Warlord, weapons` on one line,
  `• 2x Model: 2 with weapons`, the same `N with` and `Enhancement:` lines.

The fourth, New Recruit's roster text::

    Chaos - World Eaters - Fiendish! - [2000 pts]          catalogue - list name - [total]
    # ++ Army Roster ++ [2000 pts]
    ## Configuration                                       battle size, detachment, settings
    ## Character [410 pts]                                 a category
    Daemon Prince of Khorne [215 pts]: Warlord, Favoured of Khorne, Hellforged weapons
    Khorne Berzerkers [180 pts]:
    • 5x Khorne Berzerker: Bolt pistol, Chainblade         models, by the data's names

A unit's lines become its items (`ListedUnit.items`): its kinds of model, each weapon with how
many models carry it and the model line it is under; `to_roster` tells models from weapons and
carries the weapons (D27, D28). A Leader is attached where the list says so (`Leading X`,
`Attached to X`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .catalog import loose_key
from .lists import ListedArmy, ListedItem, ListedUnit
from .listtext import BULLET, COUNTED, ENHANCEMENT, NEW_RECRUIT, POINTS, _heading, _number, _tidy

GW, WTC, WTC_COMPACT, ROSTER_TEXT = "GW", "WTC", "WTC-Compact", "roster text"

HEADER = re.compile(r"^\+\s*(?P<key>[A-Z][A-Z ]*?)\s*:\s*(?P<value>.*)$")
HEADER_NOTE = re.compile(r"^\+\s*\S")  # '+ PLAYER - ...': a header line of no key New Recruit documents
CONTINUED = re.compile(r"^&\s*(?P<value>.*)$")  # '& Name (on Char2: Unit)': the header's next Enhancement
IGNORED = {"NUMBER OF UNITS", "SECONDARY", "SECONDARIES", "ARMY NAME", "GAME TYPE", "BATTLE SIZE"}
UNIT = re.compile(rf"^(?:(?P<label>[A-Za-z]+\d+)\s*:\s*)?(?:(?P<count>\d+)\s*x\s*)?(?P<name>[^•\s].*?)\s*{POINTS}"
                  r"\s*(?::\s*(?P<rest>.*))?$", re.IGNORECASE)
ON_OPEN = re.compile(r"\s*\(\s*on\s+", re.IGNORECASE)  # 'Name (on Char1: Unit)': where the unit starts
ON = re.compile(r"(?:(?P<label>[A-Za-z]+\d+)\s*:\s*)?(?P<unit>.+?)\s*\)", re.IGNORECASE)
UNIT_REFERENCE = re.compile(r"^(?:(?P<label>[A-Za-z]+\d+)\s*:\s*)?(?P<unit>.+)$")
ENHANCED = re.compile(r"^(?P<name>[^(]+?)\s*\(\s*\+\s*\d{1,9}\s*(?:points|pts?)\s*\)$", re.IGNORECASE)  # GW's bullet
LOADOUT = re.compile(r"^(?P<count>\d+)\s+with\s+(?P<items>.*)$", re.IGNORECASE)  # '5 with Bolt pistol, Chainblade'
ITEM = re.compile(r"^(?:(?P<count>\d+)\s*x\s+)?(?P<name>.+)$", re.IGNORECASE)  # '2x Shield Drone'
INNER = re.compile(r"^[^(]*\((?P<inner>[^()]+)\)$")  # 'Gun Drone (Twin pulse carbine)': what the option gives
ATTACHED = re.compile(r"^(?P<how>attached to|leading)\s+(?P<unit>.+)$", re.IGNORECASE)
DETACHMENT_RULE = re.compile(r"^(?P<name>.+?)\s*\([^()]*\)$")  # 'Houndpack Lance (Marked Prey)'
ROSTER_TITLE = re.compile(r"^#*\s*\+\+\s*Army Roster\s*\+\+\s*(?:\[\s*(?P<points>\d[\d,]*)\s*pts?\s*\])?",
                          re.IGNORECASE)
ROSTER_NAME = re.compile(r"^(?P<title>[^#\[].*?)\s*-?\s*\[\s*(?P<points>\d[\d,]*)\s*pts?\s*\]$", re.IGNORECASE)
ROSTER_SECTION = re.compile(r"^##\s*(?P<name>[^\[]*?)\s*(?:\[.*\])?$")
ROSTER_UNIT = re.compile(r"^(?P<name>[^•#].*?)\s*\[\s*(?P<points>\d[\d,]*)\s*pts?\s*\]\s*(?::\s*(?P<rest>.*))?$",
                         re.IGNORECASE)
ROSTER_SETTING = re.compile(r"^(?P<key>battle size|detachment(?: choice)?)\s*:\s*(?P<value>.+)$", re.IGNORECASE)
SUMMARY = re.compile(r"^\d+\s+[^\d,][^,]*(?:,\s*\d+\s+[^\d,][^,]*)*$")  # '1 mauler chainblade, 7 chainblades'


def layout(text: str) -> str | None:
    """Which of New Recruit's layouts the text is, if any: roster text by its `++ Army Roster ++`
    line; the others by their `+ FACTION KEYWORD:` / `+ DETACHMENT:` header, then WTC-Compact
    without sections, WTC with `N with`, `Enhancement:` or `Char1:` lines, else GW."""
    lines = [line for line in (_tidy(raw).strip() for raw in text.splitlines()) if line]
    if any(ROSTER_TITLE.match(line) for line in lines[:40]):
        return ROSTER_TEXT
    if not any((header := HEADER.match(line)) and header["key"] in ("FACTION KEYWORD", "DETACHMENT")
               for line in lines[:40]):
        return None
    body = [line for line in lines if not line.startswith(("+", "&"))]
    if not any(_heading(line) for line in body):
        return WTC_COMPACT
    wtc = any(LOADOUT.match(line) or ENHANCEMENT.match(line) or ((unit := UNIT.match(line)) and unit["label"])
              for line in body)
    return WTC if wtc else GW


def read_new_recruit(text: str) -> ListedArmy:
    """The list in whichever of New Recruit's layouts it is (text_form has said it is one)."""
    kind = layout(text) or WTC_COMPACT
    army = ListedArmy(f"{NEW_RECRUIT} ({kind} layout)")
    reader = _RosterText(army) if kind == ROSTER_TEXT else _Headed(army, kind)
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _tidy(raw)
        if line.strip():
            reader.read(number, len(line) - len(line.lstrip()), line.strip())
    reader.finish()
    return army


@dataclass
class _Group:
    """One `• Nx Name` line of a unit: a kind of model (or, in the GW layout, perhaps a weapon)."""

    name: str
    count: int
    line: int
    per_model: bool  # its wargear is written per model ('2 with X', ': X'), not as totals ('• 9x X')
    item: int  # its index in the unit's items
    nested: bool = False  # deeper lines were written under it


class _Unit:
    """The lines under one unit: its kinds of model and the wargear each carries."""

    def __init__(self, listed: ListedUnit, gw: bool):
        self.listed, self.gw = listed, gw
        self.groups: list[_Group] = []
        self.top: int | None = None  # the indent of its first-level '•' lines

    def bullet(self, number: int, indent: int, text: str) -> None:
        if self.top is None:
            self.top = indent
        group = self.groups[-1] if self.groups and indent > self.top else None
        if self.special(number, text):
            return
        counted = COUNTED.match(text)
        if group is None and counted and "," not in counted["name"]:  # not '2x Missile Drone, Weapon support system'
            count = _number(counted["count"], number)
            item = self.listed.add(ListedItem(counted["name"], count, number, "model" if counted["rest"] else "either"))
            group = _Group(counted["name"], count, number, per_model=not self.gw or bool(counted["rest"]), item=item)
            self.groups.append(group)
            self.items(number, counted["rest"] or "", group, count)
        elif group is not None:
            self.armed(group)
            self.items(number, text, group, 1 if group.per_model else None)
        else:
            self.items(number, text, None, 1)

    def loadout(self, number: int, count: int, items: str) -> None:
        """'5 with Bolt pistol, Chainblade': the last kind of model's (or, with none, the unit's)."""
        group = self.groups[-1] if self.groups else None
        if group is not None:
            group.per_model = True
            self.armed(group)
        self.items(number, items, group, count)

    def armed(self, group: _Group) -> None:
        """Weapons are written under the line: it is a kind of model."""
        group.nested = True
        self.listed.items[group.item].kind = "model"

    def special(self, number: int, text: str) -> bool:
        """Reads a Warlord or Enhancement line; False if it is neither."""
        enhancement = ENHANCEMENT.match(text) or (ENHANCED.match(text) if self.gw else None)
        if enhancement:
            self.listed.enhancement, self.listed.enhancement_line = enhancement["name"], number
        elif text.casefold() == "warlord":
            self.listed.warlord = True
        else:
            return False
        return True

    def items(self, number: int, text: str, group: _Group | None, carriers: int | None) -> None:
        """A list of wargear: each item carried by `carriers` models ('N with' changes it for the
        items after it), or, with None (the GW layout's totals), by as many as it counts ('9x X')."""
        for item in _items(text):
            with_count = LOADOUT.match(item)
            if with_count:
                carriers, item = _number(with_count["count"], number), with_count["items"]
            if self.special(number, item):  # 'Warlord', 'Enhancement: Name (+N pts)' among the items
                continue
            inner = INNER.match(item)
            for part in _items(inner["inner"]) if inner else [item]:
                counted = ITEM.match(part)
                assert counted is not None  # every item is a name, perhaps counted
                name = counted["name"].strip()
                many = carriers if carriers is not None else _number(counted["count"] or "1", number)
                self.listed.add(ListedItem(name, many, number, "weapon",
                                           under=group.item if group is not None else None))


def _items(rest: str) -> list[str]:
    """'Warlord, Bolt pistol, Gun Drone (Twin pulse carbine, X)' -> its items (commas inside
    parentheses kept), in one pass."""
    items, depth, start = [], 0, 0
    for at, character in enumerate(rest):
        if character == "(":
            depth += 1
        elif character == ")":
            depth = max(depth - 1, 0)
        elif character == "," and depth == 0:
            items.append(rest[start:at])
            start = at + 1
    items.append(rest[start:])
    return [item.strip() for item in items if item.strip()]


def _on_unit(value: str) -> tuple[str, str | None, str] | None:
    """'Name (on Char1: Unit)' -> (name, label, unit), or None: found from the first '(on' (one
    pattern with two lazy parts was quadratic in a line of many '(on')."""
    value = value.strip()
    opening = ON_OPEN.search(value, 1)
    inner = ON.fullmatch(value, opening.end()) if opening else None
    if opening is None or inner is None:
        return None
    return value[:opening.start()], inner["label"], inner["unit"]


def _detachment(army: ListedArmy, number: int, value: str) -> None:
    """'Advanced Acquisition Cadre, Retaliation Cadre (Expert Fieldcraft)': the detachment is the
    one written with the rule chosen for it, its name without that rule (D30); any other name on
    the line is kept aside."""
    names = _items(value)
    chosen = next((name for name in names if DETACHMENT_RULE.match(name)), names[0] if names else "")
    rule = DETACHMENT_RULE.match(chosen)
    army.detachment, army.detachment_line = (rule["name"] if rule else chosen), number
    army.configuration += [(f"DETACHMENT: {name}", number) for name in names if name != chosen]


class _Headed:
    """The three layouts under the `+` header: GW, WTC and WTC-Compact."""

    def __init__(self, army: ListedArmy, kind: str):
        self.army, self.gw = army, kind == GW
        self.unit: _Unit | None = None
        self.units: list[_Unit] = []
        self.references: list[tuple[int, str, str]] = []  # WARLORD / ENHANCEMENT lines: placed at the end
        self.attachments: list[tuple[int, str, ListedUnit, str]] = []  # (line, how, written under, unit named)
        self.last_key: str | None = None

    def read(self, number: int, indent: int, text: str) -> None:
        army = self.army
        if set(text) <= set("+=-#"):
            return
        header, bullet = HEADER.match(text), BULLET.match(text)
        continued = CONTINUED.match(text)
        if header:
            self.header(number, header["key"], header["value"].strip(), text)
        elif continued and self.last_key in ("ENHANCEMENT", "ENHANCEMENTS"):
            self.references.append((number, "ENHANCEMENT", continued["value"].strip()))
        elif HEADER_NOTE.match(text):
            army.configuration.append((text.lstrip("+ "), number))
        elif _heading(text):
            self.close()
        elif (unit := UNIT.match(text)) and not bullet:
            self.close()
            count = _number(unit["count"], number) if unit["count"] else None
            listed = ListedUnit(unit["name"], number, _number(unit["points"], number), label=unit["label"],
                                count=count, models=count if count and count > 1 else None)  # D30
            army.add(listed)
            self.unit = _Unit(listed, self.gw)
            self.unit.items(number, unit["rest"] or "", None, 1)
        elif self.unit is None:
            army.unread(number, text, "not a header ('+ KEY: value') or a unit line ('1x Name (N pts)')")
        elif bullet:
            self.unit.bullet(number, indent, bullet["text"].strip())
        elif (loadout := LOADOUT.match(text)):
            self.unit.loadout(number, _number(loadout["count"], number), loadout["items"])
        elif (attached := ATTACHED.match(text)):
            self.attachments.append((number, attached["how"].casefold(), self.unit.listed, attached["unit"].strip()))
        elif not self.unit.special(number, text):
            army.unread(number, text, f"not a model, wargear, Warlord or Enhancement line of {self.unit.listed.name}")

    def header(self, number: int, key: str, value: str, text: str) -> None:
        army = self.army
        self.last_key = key
        if key == "FACTION KEYWORD":
            army.faction, army.faction_line = value, number
        elif key == "DETACHMENT":
            _detachment(army, number, value)
        elif key == "TOTAL ARMY POINTS":
            digits = re.match(r"\d[\d,]*", value)
            if digits:
                army.total, army.total_line = _number(digits.group(), number), number
            else:
                army.unread(number, text, "no points figure")
        elif key in ("WARLORD", "ENHANCEMENT", "ENHANCEMENTS"):
            if value:  # an empty '+ ENHANCEMENT:': the list has none
                self.references.append((number, "WARLORD" if key == "WARLORD" else "ENHANCEMENT", value))
        elif key not in IGNORED:
            army.configuration.append((text.lstrip("+ "), number))

    def close(self) -> None:
        if self.unit is not None:
            self.unit = None

    def finish(self) -> None:
        self.close()
        stated = Counter(loose_key(u.enhancement) for u in self.army.units if u.enhancement)
        warlord_stated = any(u.warlord for u in self.army.units)
        for number, key, value in self.references:
            self.refer(number, key, value, stated, warlord_stated)
        for number, how, written_under, named in self.attachments:
            self.attach(number, how, written_under, named)

    def refer(self, number: int, key: str, value: str, stated: Counter[str], warlord_stated: bool) -> None:
        """A header line naming a unit: kept as the body already says it, else placed by the unit's
        name, its label deciding only among units of that name (D30)."""
        army = self.army
        if key == "WARLORD":
            reference = UNIT_REFERENCE.match(value)
            on = (value, reference["label"], reference["unit"]) if reference else None
        else:
            on = _on_unit(value)
        if on is None:
            army.unread(number, f"{key}: {value}", "it does not say which unit it is on ('(on Char1: Name)')")
            return
        name, label, unit_name = on
        named = [u for u in army.units if loose_key(u.name) == loose_key(unit_name)]
        if not named:
            army.unread(number, f"{key}: {value}", f"no unit '{unit_name}' in the list")
            return
        if key == "WARLORD":
            if not warlord_stated:
                next((u for u in named if label and u.label == label), named[0]).warlord = True
            return
        if stated[loose_key(name)]:
            stated[loose_key(name)] -= 1  # the body says who has it
            return
        free = [u for u in named if u.enhancement is None]
        if not free:
            army.unread(number, f"{key}: {value}", f"every '{unit_name}' in the list has an Enhancement already")
            return
        chosen = next((u for u in free if label and u.label == label), free[0])
        chosen.enhancement, chosen.enhancement_line = name, number

    def attach(self, number: int, how: str, written_under: ListedUnit, named: str) -> None:
        """'Leading X' under a Leader, 'Attached to X' under its Bodyguard unit."""
        if how == "leading":
            written_under.leads = written_under.leads or named
            return
        leaders = [u for u in self.army.units if loose_key(u.name) == loose_key(named)]
        leader = next((u for u in leaders if loose_key(u.leads or "") == loose_key(written_under.name)), None) or \
            next((u for u in leaders if u.leads is None), None)
        if leader is None:
            self.army.unread(number, f"Attached to {named}", f"no unit '{named}' in the list to lead it")
        else:
            leader.leads = written_under.name


class _RosterText:
    """New Recruit's roster text: a title, `## Configuration`, categories and `Name [N pts]` units."""

    def __init__(self, army: ListedArmy):
        self.army = army
        self.unit: _Unit | None = None
        self.in_configuration = False
        self.titled = False

    def read(self, number: int, indent: int, text: str) -> None:
        army = self.army
        title, section, bullet = ROSTER_TITLE.match(text), ROSTER_SECTION.match(text), BULLET.match(text)
        if title:
            self.titled = True  # a title comes before it, if at all
            if title["points"]:
                army.total, army.total_line = _number(title["points"], number), number
        elif section:
            self.close()
            self.in_configuration = section["name"].casefold() == "configuration"
        elif not self.titled and self.unit is None and not self.in_configuration and \
                (named := ROSTER_NAME.match(text)):
            self.title(number, named["title"], named["points"])
        elif self.in_configuration:
            self.setting(number, text)
        elif (unit := ROSTER_UNIT.match(text)):
            self.close()
            listed = ListedUnit(unit["name"], number, _number(unit["points"], number))
            army.add(listed)
            self.unit = _Unit(listed, gw=False)
            self.unit.items(number, unit["rest"] or "", None, 1)  # an Enhancement among them: lists.py finds it
        elif self.unit is not None and bullet:
            self.unit.bullet(number, 0, bullet["text"].strip())  # each '•' line is a kind of model
        elif self.unit is not None and self.unit.groups and SUMMARY.match(text):
            pass  # '1 mauler chainblade, 7 chainblades': a tally of the loadouts the model lines state
        else:
            army.unread(number, text, "not a unit ('Name [N pts]: ...') or one of its '•' lines")

    def title(self, number: int, title: str, points: str) -> None:
        """'Xenos - T'au Empire - Big Suits To Fill - [2070 pts]': the catalogue, then the list's
        name (D30: the last ' - ' part, when there are three or more)."""
        self.titled = True
        parts = [part.strip() for part in title.removesuffix("-").split(" - ")]
        faction, name = (parts[:-1], parts[-1]) if len(parts) > 2 else (parts, "")
        self.army.faction, self.army.faction_line = " - ".join(faction), number
        self.army.name = name
        self.army.total, self.army.total_line = _number(points, number), number

    def setting(self, number: int, text: str) -> None:
        setting = ROSTER_SETTING.match(text)
        if setting and setting["key"].casefold() == "battle size":
            self.army.battle_size = re.sub(r"\s*\(.*\)\s*$", "", setting["value"])
            self.army.battle_size_line = number
        elif setting:
            _detachment(self.army, number, setting["value"])
        else:
            self.army.configuration.append((text, number))

    def close(self) -> None:
        if self.unit is not None:
            counted = sum(item.count for item in self.unit.listed.items if item.kind != "weapon")
            self.unit.listed.models = counted or None  # here every '•' line is models
            self.unit = None

    def finish(self) -> None:
        self.close()

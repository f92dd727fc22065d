"""Reading Leader permissions out of BSData ability text.

The data writes a Leader's list of units as prose in several forms: `■ Unit` lines, markdown
`- **^^Unit^^**` lines, one comma-separated line, names in capitals, and names with footnote
stars whose condition is a note below the list. A note may instead allow a second Leader ("even
if one X model has already been attached"). Bodyguard datasheets may say that leaders of another
unit may join them, or that they take two Leaders from some Starting Strength.
"""

from __future__ import annotations

import re
import string

from ..catalog import BodyguardRule, LeaderRule, LeaderTarget

LIST_START = re.compile(r"attached to the following units?\s*:", re.IGNORECASE)
BULLET = re.compile(r"^\s*(?:■|-|•)\s*(.+?)\s*$")
ALONGSIDE = re.compile(r"even\s+if\s+(?:one\s+)?(.+?)(?: models?| units?)? (?:has|have) already been attached",
                       re.IGNORECASE)
INSTEAD = re.compile(r"can be attached to an? (.+?)(?: unit)?, it can be attached to this unit instead",
                     re.IGNORECASE)
STARTING_STRENGTH = re.compile(r"Starting Strength of (\d+)", re.IGNORECASE)
UP_TO_LEADERS = re.compile(r"(?:up to )?(two|three) Leader units", re.IGNORECASE)
NUMBERS = {"two": 2, "three": 3}
MAX_TEXT = 5000  # a Leader ability is a few hundred characters; a stranger's file may hold megabytes


def plain(text: str) -> str:
    """The text without markdown emphasis and keyword marks, non-breaking spaces as spaces."""
    return re.sub(r"\^\^|\*\*", "", text).replace("\xa0", " ")


LIST_SEPARATOR = re.compile(r"[,;]\s*(?![^(]*\))")  # a comma or semicolon outside parentheses
ARTICLE = re.compile(r"^(?:a|an|one)\s+", re.IGNORECASE)
ANY_OTHER = re.compile(r"\b(?:other|more)\b|^(?:character|leader)$", re.IGNORECASE)


def names_in(phrase: str) -> list[str]:
    """'Royal Warden or Noble', 'a A, B, or C' -> the names."""
    parts = re.split(r",\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+", phrase)
    return [ARTICLE.sub("", n.strip(" .")) for n in parts if n.strip(" .")]


def parse_leader(text: str, canonical: dict[str, str]) -> LeaderRule | None:
    """A Leader ability's text as a LeaderRule, or None when it names no unit.

    `canonical` maps a casefolded datasheet name to its spelling, so that `■ IMMORTALS` reads as
    Immortals; names it does not know (keyword lists such as 'Imperium Battleline Infantry') are
    kept as written, in title case when written in capitals.
    """
    text = re.sub(r"\^\^", "", text[:MAX_TEXT].replace("\xa0", " "))  # keep **: it is not a footnote star
    found = LIST_START.search(text)
    if found is None:
        return None
    lines = [line.strip() for line in text[found.end():].splitlines()]
    listed: list[str] = []
    notes: list[str] = []
    for line in lines:
        if not line:
            continue
        bullet = BULLET.match(line)
        if bullet and not notes:
            listed.append(bullet.group(1))
        elif not listed and not notes and not line.lstrip("*").lower().startswith("you can"):
            listed += [n for n in LIST_SEPARATOR.split(line.rstrip(".")) if n.strip()]
        else:
            notes.append(line)
    rule_notes, alongside, alongside_any = [], [], False
    for note in notes:
        note_text = plain(note)
        stars = len(note_text) - len(note_text.lstrip("*"))
        body = note_text.strip("* ")
        permission = ALONGSIDE.search(body)
        if permission:
            who = ARTICLE.sub("", permission.group(1).strip())
            if ANY_OTHER.search(who):  # "one other Leader unit", "one or more Character units"
                alongside_any = True
            else:
                alongside += [_spelled(n, canonical) for n in names_in(who)]
        elif body:
            rule_notes.append((stars, body))
    units = []
    for raw in listed:
        name = plain(raw).strip(" .'\"")
        stars = len(name) - len(name.rstrip("*"))
        name = name.rstrip("* ").strip()
        if not name:
            continue
        condition = None
        if stars:
            condition = next((b for s, b in rule_notes if s == stars), rule_notes[0][1] if rule_notes else None)
        units.append(LeaderTarget(name=_spelled(name, canonical), condition=condition))
    if not units:
        return None
    return LeaderRule(units=units, alongside=alongside, alongside_any=alongside_any)


def parse_bodyguard(texts: list[str], canonical: dict[str, str]) -> BodyguardRule | None:
    """What a unit's abilities say about Leaders joining it, or None when they say nothing."""
    leaders_of: list[str] = []
    max_leaders, max_leaders_from, condition = 1, None, None
    for text in texts:
        body = plain(text[:MAX_TEXT])
        instead = INSTEAD.search(body)
        if instead:
            leaders_of.append(_spelled(instead.group(1).strip(), canonical))
        more = UP_TO_LEADERS.search(body)
        if more and "attach" in body:
            max_leaders = NUMBERS[more.group(1).lower()]
            strength = STARTING_STRENGTH.search(body)
            max_leaders_from = int(strength.group(1)) if strength else None
            condition = body.strip("* ").strip()
    if not leaders_of and max_leaders == 1:
        return None
    return BodyguardRule(leaders_of=leaders_of, max_leaders=max_leaders, max_leaders_from=max_leaders_from,
                         condition=condition)


def _spelled(name: str, canonical: dict[str, str]) -> str:
    name = re.sub(r"\s+", " ", name).strip()
    known = canonical.get(name.casefold())
    if known is not None:
        return known
    return string.capwords(name.lower()) if name.isupper() else name

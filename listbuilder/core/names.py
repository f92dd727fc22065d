"""How names typed by people are matched: case-insensitively, by id or printed name."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from functools import lru_cache


@lru_cache(maxsize=8192)  # the engine asks for the same few hundred names over and over
def name_key(name: str) -> str:
    """'Land Speeder', 'land-speeder' and 'LAND_SPEEDER' all give 'land-speeder'."""
    return re.sub(r"[^0-9a-z]+", "-", name.casefold()).strip("-")


def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """The printed name closest to `name`, if any is close enough to be a likely typo."""
    by_key = {name_key(c): c for c in candidates}
    close = difflib.get_close_matches(name_key(name), list(by_key), n=1, cutoff=0.6)
    return by_key[close[0]] if close else None


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """The hint shown with a misspelt name, if a close one exists."""
    hint = suggest(name, candidates)
    return f"did you mean '{hint}'?" if hint else None


# last words that are the same in the plural: a body of troops, a craft, a unit named by its role
INVARIANT = ("infantry", "cavalry", "artillery", "chosen", "craft", "wraithguard", "tactical", "assault")


def plural(count: int, word: str) -> str:
    """'1 Rhino', '3 Rhinos', '2 Robotic Sentries', '2 Lords of Change', '7 Guardians', '4 Nobz',
    '18 Infantry', '2 Tiger Shark Strike Craft (AX-1-0 Variant)' (a name already plural stays)."""
    return f"{count} {word if count == 1 else plural_name(word)}"


def plural_name(name: str) -> str:
    head, bracket, tail = name.partition(" (")  # '... (AX-1-0 Variant)': the name before the brackets
    head, of, rest = head.partition(" of ")  # 'Lord of Change': its first part
    last = head.rsplit(" ", 1)[-1].casefold()
    if last in INVARIANT or head.endswith(("s", "z")):
        plural_head = head
    elif re.search(r"[^aeiou]y$", head, re.IGNORECASE):
        plural_head = head[:-1] + "ies"
    elif head.endswith(("ch", "sh", "x")):
        plural_head = head + "es"
    else:
        plural_head = head + "s"
    return plural_head + of + rest + bracket + tail


def a(word: str) -> str:
    """'a Rhino', 'an Ork Gargant', 'an XV8 Crisis Battlesuit Team' (an initialism is read letter by
    letter: 'ex-vee-eight')."""
    first = word.split(" ", 1)[0]
    spelt = len(first) > 1 and (first[:2].isupper() or first[1].isdigit())
    return f"{'an' if first[:1].upper() in ('AEFHILMNORSX' if spelt else 'AEIOU') else 'a'} {word}"


def a_unit(name: str) -> str:
    """One unit of a datasheet: 'a Rhino', but 'a unit of Raptors' or 'of Noise Marines of Slaanesh'
    for a name that is plural."""
    if " or " in name:
        return " or ".join(a_unit(part) for part in name.split(" or "))
    head = name.split(" of ", 1)[0]
    return f"a unit of {name}" if head.endswith(("s", "z")) and not head.endswith("ss") else a(name)

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


def plural(count: int, word: str) -> str:
    """'1 Rhino', '3 Rhinos', '7 Guardians', '4 Nobz' (a name already plural stays as it is)."""
    return f"{count} {word}" if count == 1 or word.endswith(("s", "z")) else f"{count} {word}s"


def a(word: str) -> str:
    """'a Rhino', 'an Ork Gargant'."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"

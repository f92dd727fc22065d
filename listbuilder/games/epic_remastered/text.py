"""Epic Remastered rosters as the compact text players post, plain or Markdown (Markdown adds '# ',
'**' and list bullets, which reading ignores); read back by read_text.py into the same roster.

    Example 2 detachments                                  the roster's name (optional)
    Epic Remastered — Core rules samples — 2,000 points    game, army list, agreed points (optional)

    Space Marines detachment “Force Gadrel” — 150 pts      detachment list “label” — cost (where priced)
      HQ: Space Marine Captain                             the HQ the player chose among equals
      1 × Space Marine Captain, with 1 × Space Marine Razorback      count × unit, with its transports
      6 × Imperial Guard Command Squad (Primaris Psyker)   (its upgrades)
      (13 units; HQ Space Marine Captain)                  what it makes (checked, not read)

    Total: 1,200 of 2,000 points                           (where priced)
"""

from __future__ import annotations

import re

from ...core.names import plural
from ...listengine.catalog import Catalog
from .models import UnitPick
from .rules import ErResult
from .summary import GAME_NAME, command_text

FORM = "Epic Remastered list text"
# the line that names the game: the first or second line of text, after any Markdown
HEADER = re.compile(r"^[#*\s-]*epic remastered\s+[—–-]+\s+", re.IGNORECASE)


def list_form(data: bytes) -> str | None:
    """The form's name when the text's first lines name Epic Remastered, else None."""
    try:
        head = data[:4096].decode("utf-8-sig", errors="strict" if len(data) <= 4096 else "ignore")
    except UnicodeDecodeError:
        return None
    lines = [line for line in head.splitlines() if line.strip()][:2]
    return FORM if any(HEADER.match(line) for line in lines) else None


def unit_line(pick: UnitPick) -> str:
    text = f"{pick.count} × {pick.unit}"
    if pick.upgrades:
        text += f" ({', '.join(pick.upgrades)})"
    if pick.transport is not None:
        text += f", with {pick.transport.count} × {pick.transport.unit}"
    return text


def list_text(result: ErResult, catalog: Catalog, markdown: bool = False) -> str:
    """The checked roster as the compact list players post; reads back with read_text.read_list_text."""
    roster, priced = result.roster, any(u.points is not None for d in result.detachments for u in d.units)
    lines = [("# " if markdown else "") + roster.name] if roster.name else []
    header = f"{GAME_NAME} — {result.army.army.name}" + (f" — {roster.points:,} points" if roster.points else "")
    lines += [f"**{header}**" if markdown else header, ""]
    for checked in result.detachments:
        pick = checked.pick
        head = pick.type + (f" “{pick.label}”" if pick.label is not None else "")
        if priced and checked.points is not None:
            head += f" — {checked.points:,} pts"
        lines.append(f"- **{head}**" if markdown else head)
        details = ([f"HQ: {pick.hq}"] if pick.hq is not None else []) + [unit_line(u) for u in pick.units]
        made = plural(checked.derived["units"], "unit")
        if checked.detachment is not None:  # its HQ, as the check works it out
            made += "; " + command_text(checked.derived).split(";")[0]
        details.append(f"({made})")
        lines += [("  - " if markdown else "  ") + detail for detail in details]
    if priced and roster.points:
        total = f"Total: {result.total:,} of {roster.points:,} points"
        lines += ["", f"**{total}**" if markdown else total]
    return "\n".join(lines) + "\n"

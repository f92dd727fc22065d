"""Epic Remastered list text (as text.py writes it, plain or Markdown) read back into a roster.
Names are kept as written (the check then says what it does not know); a line that cannot be
placed is an error with its line number; lines in brackets, costs and the total are what the list
makes, not read."""

from __future__ import annotations

import re
from typing import Any

from ...core.bounds import MAX_BYTES
from ...core.findings import Finding, Location
from ...core.system import ImportedList
from ...listengine.catalog import Catalog
from ...listengine.read_text import plain_line
from .models import GAME_ID, ErRoster
from .rules import data_of
from .text import FORM, HEADER

COUNT = re.compile(r"(?P<n>\d{1,4})\s*[×xX]\s+")  # a number a person writes: a larger one is no count
HQ = re.compile(r"hq:\s*", re.IGNORECASE)
TOTAL = re.compile(r"^total:?\s", re.IGNORECASE)


def read_list_text(data: bytes, form: str, shown: str, catalog: Catalog) -> ImportedList[ErRoster]:
    """A roster from the text; every line it cannot place is an error (nothing is made then)."""
    if len(data) > MAX_BYTES:
        return ImportedList(None, [Finding("file-too-large", f"the text is longer than {MAX_BYTES:,} bytes",
                                           location=Location(shown))], name=shown, form=FORM)
    findings: list[Finding] = []
    top: dict[str, Any] = {"game": GAME_ID}
    detachments: list[dict[str, Any]] = []
    lines: dict[tuple[str | int, ...], int] = {}

    def unplaced(number: int, raw: str, why: str) -> None:
        findings.append(Finding("import-unplaced-line", f"cannot place '{raw.strip()}': {why}",
                                location=Location(shown, number)))

    for number, raw in enumerate(data.decode("utf-8-sig").splitlines(), start=1):
        text = plain_line(raw)
        if not text:
            continue
        if "army" not in top:
            if HEADER.match(text):
                _header(HEADER.sub("", text), number, raw, top, catalog, unplaced)
                lines[("army",)] = number
            elif "name" not in top:
                top["name"] = text
            else:
                unplaced(number, raw, "expected the game and army list, like 'Epic Remastered — Core rules samples'")
        elif text.startswith("(") and text.endswith(")") or TOTAL.match(text):
            continue  # what the list makes: the check works it out again
        elif (detail := HQ.match(text) or _unit(text)) is not None:
            if not detachments:
                unplaced(number, raw, "it comes before the first detachment")
            elif isinstance(detail, re.Match):  # 'HQ: Space Marine Librarian'
                detachments[-1]["hq"] = text[detail.end():].strip()
                lines[("detachments", len(detachments) - 1, "hq")] = number
            elif detail["count"] == 0 or detail.get("transport", {}).get("count") == 0:
                unplaced(number, raw, "a count is 1 or more")
            else:
                lines[("detachments", len(detachments) - 1, "units", len(detachments[-1]["units"]))] = number
                detachments[-1]["units"].append(detail)
        else:
            lines[("detachments", len(detachments))] = number
            detachments.append(_detachment(text))
    if "army" not in top and not any(f.severity == "error" for f in findings):
        findings.append(Finding("import-no-header", "no line names the game and army list, like "
                                "'Epic Remastered — Core rules samples — 2,000 points'", location=Location(shown)))
    if any(f.severity == "error" for f in findings):
        return ImportedList(None, findings, lines, shown, FORM)
    return ImportedList(ErRoster.model_validate({**top, "detachments": detachments}), findings, lines, shown, FORM)


# Lines are taken apart with string methods, not one pattern: a pattern of optional parts after a lazy
# name retries at every character, and a line of a million spaces took minutes.


def _without_cost(text: str, words: tuple[str, ...]) -> tuple[str, int | None]:
    """'Ork Mob “Da Boyz” — 190 pts' as ('Ork Mob “Da Boyz”', 190); text with no such end as it is."""
    parts = text.rsplit(None, 3)
    if (len(parts) == 4 and parts[1].strip("—–-") == "" and re.fullmatch(r"[\d,]{1,12}", parts[2])
            and parts[3].casefold().rstrip(".") in words):
        return parts[0], int(parts[2].replace(",", "") or 0)
    return text, None


def _header(rest: str, number: int, raw: str, top: dict[str, Any], catalog: Catalog, unplaced: Any) -> None:
    name, points = _without_cost(rest.strip(), ("points", "pts"))
    army = data_of(catalog).find(name)
    if army is None:
        unplaced(number, raw, f"unknown army list '{name}' (known: {', '.join(sorted(data_of(catalog).armies))})")
        return
    top["army"] = army.army.id
    if points:
        top["points"] = points


def _detachment(text: str) -> dict[str, Any]:
    """'Space Marines detachment “Force Gadrel” — 150 pts': its type and label (the cost is checked)."""
    text, _ = _without_cost(text, ("pts", "points"))
    opening = text.rfind("“")
    if text.endswith("”") and opening > 0:
        return {"type": text[:opening].strip(), "label": text[opening + 1:-1], "units": []}
    return {"type": text, "units": []}


def _unit(text: str) -> dict[str, Any] | None:
    """'6 × Space Marines (Upgrade, Upgrade), with 3 × Space Marine Rhino'; None if it is not a unit line."""
    count = COUNT.match(text)
    if count is None:
        return None
    body, with_, rides = text[count.end():].rpartition(", with ")
    transport = COUNT.match(rides) if with_ else None
    if transport is None:
        body = text[count.end():]
    unit: dict[str, Any] = {"count": int(count["n"])}
    opening = body.rfind(" (")
    if body.endswith(")") and opening > 0 and "(" not in body[opening + 2:-1]:
        unit["upgrades"] = [u.strip() for u in body[opening + 2:-1].split(",")]
        body = body[:opening]
    unit = {"unit": body.strip(), **unit}
    if transport is not None:
        unit["transport"] = {"unit": rides[transport.end():].strip(), "count": int(transport["n"])}
    return unit

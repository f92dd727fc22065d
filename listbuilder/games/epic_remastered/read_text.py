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

COUNT = r"\d{1,4}"  # a number a person writes: a larger one is not read as a count
POINTS = re.compile(r"^(?P<army>.+?)(?:\s+[—–-]+\s+(?P<points>[\d,]{1,9})\s*(?:points|pts)\.?)?$", re.IGNORECASE)
DETACHMENT = re.compile(r"^(?P<type>.+?)(?:\s+“(?P<label>[^”]*)”)?(?:\s+[—–-]+\s*[\d,]+\s*(?:pts|points)\.?)?$")
UNIT = re.compile(rf"^(?P<count>{COUNT})\s*[×xX]\s+(?P<unit>.+?)(?:\s+\((?P<upgrades>[^()]*)\))?"
                  rf"(?:,\s*with\s+(?P<rides>{COUNT})\s*[×xX]\s+(?P<transport>.+))?$")
HQ = re.compile(r"^hq:\s*(?P<hq>.+)$", re.IGNORECASE)
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
        elif (detail := UNIT.match(text) or HQ.match(text)) is not None:
            if not detachments:
                unplaced(number, raw, "it comes before the first detachment")
            elif "hq" in detail.groupdict():
                detachments[-1]["hq"] = detail["hq"].strip()
                lines[("detachments", len(detachments) - 1, "hq")] = number
            elif int(detail["count"]) == 0 or detail["rides"] is not None and int(detail["rides"]) == 0:
                unplaced(number, raw, "a count is 1 or more")
            else:
                lines[("detachments", len(detachments) - 1, "units", len(detachments[-1]["units"]))] = number
                detachments[-1]["units"].append(_unit(detail))
        elif (head := DETACHMENT.match(text)) is not None:
            lines[("detachments", len(detachments))] = number
            detachments.append({"type": head["type"].strip(), "units": []}
                               | ({"label": head["label"]} if head["label"] is not None else {}))
    if "army" not in top and not any(f.severity == "error" for f in findings):
        findings.append(Finding("import-no-header", "no line names the game and army list, like "
                                "'Epic Remastered — Core rules samples — 2,000 points'", location=Location(shown)))
    if any(f.severity == "error" for f in findings):
        return ImportedList(None, findings, lines, shown, FORM)
    return ImportedList(ErRoster.model_validate({**top, "detachments": detachments}), findings, lines, shown, FORM)


def _header(rest: str, number: int, raw: str, top: dict[str, Any], catalog: Catalog, unplaced: Any) -> None:
    match = POINTS.match(rest.strip())
    assert match is not None  # '.+?' takes any text
    army = data_of(catalog).find(match["army"].strip())
    if army is None:
        unplaced(number, raw, f"unknown army list '{match['army'].strip()}' (known: "
                              f"{', '.join(sorted(data_of(catalog).armies))})")
        return
    top["army"] = army.army.id
    if match["points"] is not None:
        top["points"] = int(match["points"].replace(",", "")) or None


def _unit(match: re.Match[str]) -> dict[str, Any]:
    unit: dict[str, Any] = {"unit": match["unit"].strip(), "count": int(match["count"])}
    if match["upgrades"]:
        unit["upgrades"] = [u.strip() for u in match["upgrades"].split(",")]
    if match["transport"] is not None:
        unit["transport"] = {"unit": match["transport"].strip(), "count": int(match["rides"])}
    return unit

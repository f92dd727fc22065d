"""Army-list rosters (Epic) read back from the compact text players post, as
listengine/text.py writes it (plain or Markdown: headings, bold and list bullets are
ignored).

Reading is lenient where a person would be (case, plural or singular, 'Tactical Detachment' for
'Tactical', Markdown, 'x2' for '×2') and strict where it matters: a name it does not know is kept
as written with a warning (the check then names the rule), a line it cannot place is an error with
its line number, and a cost or units line that differs from what the list makes is a warning.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.bounds import MAX_BYTES
from ..core.findings import Finding, Location, Severity
from ..core.names import name_key
from ..core.system import ImportedList
from .catalog import Catalog
from .engine import build
from .lines import unit_line
from .roster import Roster
from .text import COUNT, COUNT_PREFIX, COUNT_SUFFIX, Names, read_counts, read_name, read_value, unquoted

POINTS = r"[\d,]{1,20}(?![\d,])"  # bounded: a number of thousands of digits is past what int() reads
COST = re.compile(rf"\s+[—–-]+\s*(?P<cost>{POINTS})\s*(?:pts|points|p)?\.?$"
                  rf"|\s*[(\[](?P<cost2>{POINTS})\s*(?:pts|points)?[)\]]$",
                  re.IGNORECASE)
HEADER = re.compile(rf"^(?P<game>.+?)\s+[—–-]+\s+(?P<army>.+)\s+[—–-]+\s+(?P<points>{POINTS})\s*(?:points|pts)\.?$",
                    re.IGNORECASE)
TOTAL = re.compile(rf"^total:?\s*(?P<total>{POINTS})", re.IGNORECASE)
PURCHASES = re.compile(r"^bought for the army:\s*(?P<items>.*)$", re.IGNORECASE)
TRANSPORT = re.compile(r"^transport:\s*(?P<value>.+)$", re.IGNORECASE)
UNITS = re.compile(r"^units:\s*(?P<value>.+)$", re.IGNORECASE)
WARGEAR = re.compile(r"^(?P<unit>.+?)\s+wargear:\s*(?P<value>.+)$", re.IGNORECASE)
SHARED_OUT = re.compile(r"^shared out$", re.IGNORECASE)
TAKES = re.compile(rf"^(?P<name>.+?)\s*\({COUNT}\s+(?P<option>[^()]+)\)$")  # 'Fire Support Platoon (4 Fire Support)'
PICK = re.compile(r"^(?P<character>.+?)\s+with\s+(?:an?\s+)?(?P<joins>.+)$")


def plain_line(line: str) -> str:
    """The line without Markdown: headings, bold, list bullets (but '+', which marks upgrades)."""
    text = line.strip().replace("**", "")
    text = re.sub(r"^#+\s*", "", text)
    text = re.sub(r"^[-*]\s+", "", text)
    return re.sub(r"^\d+[.)]\s+", "", text).strip()


def _singular(text: str) -> str:
    """A units line with its words in the singular: '3 Rhino' (as exports before plurals wrote it)
    says what '3 Rhinos' says."""
    return re.sub(r"s\b", "", re.sub(r"ies\b", "y", text.casefold()))


class _Reader:
    def __init__(self, text: str, shown: str, catalog: Catalog):
        self.lines = text.splitlines()
        self.shown, self.catalog = shown, catalog
        self.findings: list[Finding] = []
        self.line = 0
        self.names = Names()
        self.top: dict[str, Any] = {}
        self.formations: list[dict[str, Any]] = []
        self.stated: dict[int, tuple[int, int]] = {}  # formation index -> (line, cost stated)
        self.units: dict[int, tuple[int, str]] = {}  # formation index -> (line, units line stated)
        self.total: tuple[int, int] | None = None

    def note(self, severity: Severity, code: str, message: str, suggestion: str | None = None) -> None:
        self.findings.append(Finding(code, message, severity=severity, location=Location(self.shown, self.line),
                                     suggestion=suggestion))

    def warn(self, message: str, suggestion: str | None = None) -> None:
        self.note("warning", "import-unknown-name", message, suggestion)

    def unplaced(self, raw: str, why: str) -> None:
        self.note("error", "import-unplaced-line", f"cannot place '{raw.strip()}': {why}")

    def read(self) -> ImportedList:
        for number, raw in enumerate(self.lines, start=1):
            self.line = number
            text = plain_line(raw)
            if text:
                self.read_line(raw, text)
        if "army" not in self.top:
            self.line = 0
            self.findings.append(Finding("import-no-header", "no line names the game, army and points, like "
                                         "'Epic Armageddon — Codex Astartes — 3,000 points'",
                                         location=Location(self.shown)))
        if any(f.severity == "error" for f in self.findings):
            return ImportedList(None, self.findings, name=self.shown)
        roster = Roster.model_validate({**self.top, "formations": self.formations})
        self.compare_stated(roster)
        return ImportedList(roster, self.findings, name=self.shown)

    def read_line(self, raw: str, text: str) -> None:
        if "army" not in self.top:
            self.read_header(raw, text)
        elif (match := TOTAL.match(text)) is not None:
            self.total = (self.line, int(match["total"].replace(",", "")))
        elif (match := PURCHASES.match(text)) is not None:
            counts = read_counts(match["items"], "purchase", self.names, self.warn)
            if counts is None:
                self.unplaced(raw, "write what is bought as '1 Wraithgate, 4 Lesser Daemon'")
            else:
                self.top["purchases"] = counts
        elif text.startswith("(") and text.endswith(")"):
            if not self.formations:
                self.unplaced(raw, "it comes before the first formation")
            else:
                self.units[len(self.formations) - 1] = (self.line, text[1:-1])
        elif text.startswith("+") or TRANSPORT.match(text) or UNITS.match(text) or WARGEAR.match(text) \
                or SHARED_OUT.match(text):
            if not self.formations:
                self.unplaced(raw, "it comes before the first formation")
            else:
                self.read_detail(raw, text, self.formations[-1])
        else:
            self.read_formation(raw, text)

    def read_header(self, raw: str, text: str) -> None:
        match = HEADER.match(text)
        if match is None:
            if "name" in self.top:
                self.unplaced(raw, "expected the game, army and points, like "
                                   "'Epic Armageddon — Codex Astartes — 3,000 points'")
            else:
                self.top["name"] = text
            return
        games = ({name_key(g.name): i for i, g in self.catalog.games.items()}
                 | {name_key(i): i for i in self.catalog.games})
        game = games.get(name_key(match["game"]))
        if game is None:
            self.unplaced(raw, f"unknown game '{match['game']}' (known: {', '.join(self.catalog.games)})")
            return
        army = self.catalog.find_list(game, match["army"].strip())
        if army is None or army.kind != "army":
            known = self.catalog.army_ids(game)
            self.unplaced(raw, f"unknown army '{match['army'].strip()}' for {game} (known: {', '.join(known)})")
            return
        self.top |= {"game": game, "army": army.id, "points": int(match["points"].replace(",", ""))}
        self.names = Names.of(self.catalog, game, army.id)

    def read_formation(self, raw: str, text: str) -> None:
        cost = COST.search(text)
        if cost is not None:
            text = text[:cost.start()].strip()
        entry: dict[str, Any] = {}
        label = re.search(r"\s*“(?P<label>.*)”$", text)
        if label is not None:
            entry["label"], text = label["label"], text[:label.start()].strip()
        count = re.match(rf"^{COUNT}\s*[×xX]\s*(?P<rest>.+)$", text)
        if count is not None:
            entry["count"], text = int(count["n"]), count["rest"].strip()
        declared: list[str] = []
        if unquoted(text) is None and self.names.lenient("formation", text) is None \
                and (split := re.match(r"^(?P<type>.+?)\s*\((?P<declared>[^()]*)\)$", text)) is not None:
            text, declared = split["type"], [d.strip() for d in split["declared"].split(",")]
        known = unquoted(text) is not None or self.names.lenient("formation", text) is not None
        if not known and cost is None and count is None:
            self.unplaced(raw, "not a formation of the army or its allies, nor an upgrade ('+ ...') or setting")
            return
        entry["type"] = read_name(text, "formation", self.names, self.warn)
        self.read_declared(raw, declared, entry)
        if cost is not None:
            self.stated[len(self.formations)] = (self.line, int((cost["cost"] or cost["cost2"]).replace(",", "")))
        self.formations.append(entry)

    def read_declared(self, raw: str, declared: list[str], entry: dict[str, Any]) -> None:
        """'(big, Khorne)': a size and a faction; one alone is a faction if it is known as one."""
        if len(declared) > 2:
            self.unplaced(raw, "at most a size and a faction go in brackets")
            return
        if len(declared) == 1:
            declared.insert(0 if self.names.lenient("faction", declared[0]) is not None else 1, "")
        for kind, value in zip(("size", "faction"), declared):
            if value:
                entry[kind] = read_name(value, kind, self.names, self.warn)

    def read_detail(self, raw: str, text: str, entry: dict[str, Any]) -> None:
        if text.startswith("+"):
            self.read_upgrade(raw, text[1:].strip(), entry)
        elif (match := TRANSPORT.match(text)) is not None:
            entry["transport"] = read_name(match["value"].strip(), "transport", self.names, self.warn)
        elif (match := UNITS.match(text)) is not None:
            counts = read_counts(match["value"], "unit", self.names, self.warn)
            if counts is None:
                self.unplaced(raw, "write the units as '2 Predator Annihilator, 2 Predator Destructor'")
            else:
                entry["composition"] = counts
        elif (match := WARGEAR.match(text)) is not None:
            unit = read_name(match["unit"].strip(), "unit", self.names, self.warn)
            entry.setdefault("wargear", {})[unit] = read_value(match["value"].strip(), "loadout", self.names, self.warn)
        else:
            entry["split"] = True

    def read_upgrade(self, raw: str, text: str, entry: dict[str, Any]) -> None:
        name, _, value = text.partition(":")
        value = value.strip()
        choice: int | str | dict[str, int] | dict[str, str] | list[dict[str, str]]
        if not value and (match := TAKES.match(text)) is not None and self.names.lenient("upgrade", text) is None:
            name, choice = match["name"], int(match["n"])
            option = read_name(match["option"].strip(), "option", self.names, self.warn)
            whole = self.names.whole.get(name_key(self.names.lenient("upgrade", name.strip()) or name))
            if whole is not None and name_key(option) != name_key(whole[1]):
                self.warn(f"{name.strip()} takes {whole[1]}, not '{option}'; read as {choice} {whole[1]}")
        elif not value and (match := COUNT_SUFFIX.match(text) or COUNT_PREFIX.match(text)) is not None \
                and self.names.lenient("upgrade", text) is None:
            name, choice = match["name"], int(match["n"])
        elif not value:
            choice = True
        elif value.lower() in ("yes", "no"):
            choice = value.lower() == "yes"
        elif re.fullmatch(COUNT, value):
            choice = int(value)
        elif not self.names.knows("option", value) and all(PICK.match(part.strip()) for part in value.split(";")):
            picks = [p for part in value.split(";") if (p := PICK.match(part.strip())) is not None]
            chosen = [{"character": read_name(p["character"], "option", self.names, self.warn),
                       "joins": read_name(p["joins"], "unit", self.names, self.warn)} for p in picks]
            choice = chosen[0] if len(chosen) == 1 else chosen
        else:
            choice = read_value(value, "option", self.names, self.warn)
        name = read_name(name.strip(), "upgrade", self.names, self.warn)
        if name in entry.setdefault("upgrades", {}):
            self.unplaced(raw, f"'{name}' is already given for this formation")
        entry["upgrades"][name] = choice

    def compare_stated(self, roster: Roster) -> None:
        """Costs and units the text states that differ from what the list makes: warnings on their lines."""
        result = build(roster, self.catalog)
        for built in result.formations:
            line, stated = self.stated.get(built.index, (0, built.points))
            if stated != built.points:
                self.line = line
                self.note("warning", "import-cost-differs", f"the text gives {built.name} {stated:,} pts; "
                                                            f"it costs {built.points:,}")
            line, units = self.units.get(built.index, (0, unit_line(built)))
            if _singular(units) != _singular(unit_line(built)):
                self.line = line
                self.note("warning", "import-units-differ", f"the text gives {built.name} '{units}'; "
                                                            f"it makes '{unit_line(built)}'")
        if self.total is not None and self.total[1] != result.total:
            self.line = self.total[0]
            self.note("warning", "import-cost-differs", f"the text gives a total of {self.total[1]:,} points; "
                                                        f"the roster costs {result.total:,}")


def read_list_text(text: str, shown: str, catalog: Catalog) -> ImportedList:
    """A roster from list text (see the module's notes); every line it cannot place is an error.
    The text is untrusted: it is bounded like a roster file."""
    if len(text) > MAX_BYTES:
        return ImportedList(None, [Finding("file-too-large", f"the text is longer than {MAX_BYTES:,} characters",
                                           location=Location(shown))])
    return _Reader(text, shown, catalog).read()

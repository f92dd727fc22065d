"""Rosters as the compact text players post in forums and e-mails (plain or Markdown), and that
text read back into a roster.

The text, line by line (Markdown adds '# ', '**' and list bullets, which reading ignores):

    Titans and aircraft as allies                            the roster's name (optional)
    Epic Armageddon — Space Marines – Codex Astartes — 3,000 points    game, army, agreed points
    2 × Warband (big, Khorne) “Rex” — 500 pts                copies ×, type (size, faction) “label” — cost
      + Sniper                                               an upgrade taken
      + Hunter ×1                                            ... a number of it
      + Tank Squadron: Demolisher                            ... an option
      + Tornado/Typhoon: 2 Typhoon, 1 Tornado                ... option counts
      + Commander: Supreme Commander with Tactical           ... characters ('; ' between several)
      Transport: Rhino
      Units: 2 Predator Annihilator, 2 Predator Destructor   an 'any mix of' formation's units
      Razorback wargear: Twin Lascannon                      (or loadout counts, like option counts)
      Shared out                                             split among other formations
      (6 Tactical, 3 Rhino (transport); Supreme Commander with a Tactical)   what it makes: units,
                                                             transports, characters (checked, not read)
    Bought for the army: 1 Wraithgate
    Total: 1,660 of 3,000 points

Reading is lenient where a person would be (case, plural or singular, 'Tactical Detachment' for
'Tactical', Markdown, 'x2' for '×2') and strict where it matters: a name it does not know is kept
as written with a warning (the check then names the rule), a line it cannot place is an error with
its line number, and a cost or units line that differs from what the list makes is a warning. A
name in straight double quotes is taken literally; the export quotes a name only where reading
would change it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.catalog import Catalog
from ..core.engine import RosterResult
from ..core.findings import Finding, Location
from ..core.names import did_you_mean, name_key
from ..core.roster import CharacterPick, Roster, RosterFormation
from ..data.yamlfile import MAX_BYTES
from ..report.summary import unit_line
from ..systems import validate

# The kinds of names a list text holds; each is matched against its own pool.
KINDS = ("formation", "upgrade", "option", "unit", "loadout", "transport", "size", "faction", "purchase")
SEED_SUFFIXES = ("-detachment", "-formation")  # 'TACTICAL DETACHMENT' is printed for Tactical
# A count is what a person writes, up to 9,999: a larger number is not read as one (the engine would
# build that many units), so it is reported like any other text it cannot place.
COUNT = r"(?P<n>\d{1,4})"
COUNT_SUFFIX = re.compile(rf"^(?P<name>.+?)\s*[×xX]\s*{COUNT}$")
COUNT_PREFIX = re.compile(rf"^{COUNT}\s*(?:[×xX]\s+|\s)(?P<name>.+)$")
COST = re.compile(r"\s+[—–-]+\s*(?P<cost>[\d,]+)\s*(?:pts|points|p)?\.?$|\s*[(\[](?P<cost2>[\d,]+)\s*(?:pts|points)?[)\]]$",
                  re.IGNORECASE)
HEADER = re.compile(r"^(?P<game>.+?)\s+[—–-]+\s+(?P<army>.+)\s+[—–-]+\s+(?P<points>[\d,]+)\s*(?:points|pts)\.?$",
                    re.IGNORECASE)
TOTAL = re.compile(r"^total:?\s*(?P<total>[\d,]+)", re.IGNORECASE)
PURCHASES = re.compile(r"^bought for the army:\s*(?P<items>.*)$", re.IGNORECASE)
TRANSPORT = re.compile(r"^transport:\s*(?P<value>.+)$", re.IGNORECASE)
UNITS = re.compile(r"^units:\s*(?P<value>.+)$", re.IGNORECASE)
WARGEAR = re.compile(r"^(?P<unit>.+?)\s+wargear:\s*(?P<value>.+)$", re.IGNORECASE)
SHARED_OUT = re.compile(r"^shared out$", re.IGNORECASE)
PICK = re.compile(r"^(?P<character>.+?)\s+with\s+(?:an?\s+)?(?P<joins>.+)$")


def _variants(key: str) -> list[str]:
    """Keys a person might mean by `key`: singular or plural, with or without the seed's suffix."""
    forms = {key, key + "s", key + "es", key.removesuffix("s"), key.removesuffix("es")}
    if key.endswith("ies"):
        forms.add(key[:-3] + "y")
    if key.endswith("y"):
        forms.add(key[:-1] + "ies")
    forms |= {form.removesuffix(suffix) for form in list(forms) for suffix in SEED_SUFFIXES}
    return [form for form in forms if form]


@dataclass
class Names:
    """The names an army and its allies know, by kind: key -> printed name."""

    pools: dict[str, dict[str, str]] = field(default_factory=lambda: {kind: {} for kind in KINDS})

    @classmethod
    def of(cls, catalog: Catalog, game: str, army_name: str) -> Names:
        names = cls()
        army = catalog.find_list(game, army_name) if game in catalog.games else None
        if army is None:
            return names
        for view in catalog.view(game, army.id).lists():
            listed = view.army
            names.add("faction", listed.factions)
            names.add("purchase", [p.name for p in listed.purchases])
            names.add("transport", [m.name for rule in listed.transports for m in rule.modes])
            names.add("upgrade", [u.name for u in listed.upgrades])
            names.add("option", [o.name or o.unit for u in listed.upgrades for o in u.options])
            names.add("option", [o.unit for u in listed.upgrades for o in u.options])
            for formation in listed.formations:
                names.add("formation", [formation.name])
                names.add("size", [s.name for s in formation.sizes])
                names.add("faction", formation.factions or [])
            names.add("unit", [s.name for s in view.units.values()])
            names.add("loadout", [l.name for s in view.units.values() for l in s.loadouts])
        return names

    def add(self, kind: str, printed: list[str]) -> None:
        for name in printed:
            self.pools[kind].setdefault(name_key(name), name)

    def knows(self, kind: str, name: str) -> bool:
        return name_key(name) in self.pools[kind]

    def lenient(self, kind: str, name: str) -> str | None:
        """`name` as written if it is known, else the one printed name a person most likely meant."""
        if self.knows(kind, name):
            return name
        pool = self.pools[kind]
        wanted = set(_variants(name_key(name)))
        meant = {printed for key, printed in pool.items() if wanted & set(_variants(key))}
        return meant.pop() if len(meant) == 1 else None

    def quoted(self, kind: str, name: str, reads_back: Callable[[str], Any] | None = None) -> str:
        """`name` as the export writes it: in quotes where it is not a known name or reading it would
        give something else, so that it reads back as written."""
        back = reads_back(name) if reads_back else self.lenient(kind, name)
        return name if self.knows(kind, name) and back == name else f'"{name}"'


# ---------------------------------------------------------------- writing


def list_text(result: RosterResult, catalog: Catalog, markdown: bool = False) -> str:
    """The checked roster as the compact list players post: army, points, each formation with its
    upgrades, characters, transport and cost, and the total. Reads back with `read_list_text`."""
    roster = result.roster
    names = Names.of(catalog, roster.game, roster.army)
    built = {formation.index: formation for formation in result.formations}
    game = catalog.games[roster.game].name if roster.game in catalog.games else roster.game
    lines = [("# " if markdown else "") + roster.name] if roster.name else []
    army = catalog.find_list(roster.game, roster.army)
    header = f"{game} — {army.name if army else roster.army} — {roster.points:,} points"
    lines.append(f"**{header}**" if markdown else header)
    lines.append("")
    for index, entry in enumerate(roster.formations):
        head = _formation_head(entry, names, built[index].points if index in built else None)
        lines.append(f"- **{head}**" if markdown else head)
        details = [f"+ {upgrade_text(name, choice, names)}" for name, choice in entry.upgrades.items()]
        if entry.transport is not None:
            details.append(f"Transport: {names.quoted('transport', entry.transport)}")
        if entry.composition is not None:
            details.append(f"Units: {_counts_text(entry.composition, 'unit', names)}")
        for unit, loadout in entry.wargear.items():
            details.append(f"{names.quoted('unit', unit)} wargear: {_value_text(loadout, 'loadout', names)}")
        if entry.split:
            details.append("Shared out")
        if index in built:
            details.append(f"({unit_line(built[index])})")
        lines += [("  " if detail.startswith("+") or not markdown else "  - ") + detail for detail in details]
    if roster.purchases:
        lines += ["", "Bought for the army: " + _counts_text(roster.purchases, "purchase", names)]
    total = f"Total: {result.total:,} of {roster.points:,} points"
    lines += ["", f"**{total}**" if markdown else total]
    return "\n".join(lines) + "\n"


def _formation_head(entry: RosterFormation, names: Names, cost: int | None) -> str:
    head = f"{entry.count} × " if entry.count is not None else ""
    head += names.quoted("formation", entry.type)
    declared = [names.quoted(kind, value) for kind, value in (("size", entry.size), ("faction", entry.faction)) if value]
    if entry.faction and not entry.size and not names.knows("faction", entry.faction):
        declared.insert(0, "")  # '(, Khornate)': an unknown faction alone would read as a size
    head += f" ({', '.join(declared)})" if declared else ""
    head += f" “{entry.label}”" if entry.label is not None else ""
    return head + (f" — {cost:,} pts" if cost is not None else "")


def _counts_text(counts: dict[str, int], kind: str, names: Names) -> str:
    return ", ".join(f"{n} {names.quoted(kind, name)}" for name, n in counts.items()) or "none"


def _value_text(value: str | dict[str, int], kind: str, names: Names) -> str:
    if isinstance(value, dict):
        return _counts_text(value, kind, names)
    return names.quoted(kind, value, lambda text: _read_value(text, kind, names, lambda *_: None))


def upgrade_text(name: str, choice: Any, names: Names) -> str:
    shown = names.quoted("upgrade", name)
    if choice is True:
        return shown
    if choice is False:
        return f"{shown}: no"
    if isinstance(choice, int):
        return f"{shown} ×{choice}"
    if isinstance(choice, CharacterPick):
        choice = [choice]
    if isinstance(choice, list):
        return f"{shown}: " + "; ".join(f"{names.quoted('option', p.character)} with {names.quoted('unit', p.joins)}"
                                        for p in choice)
    return f"{shown}: {_value_text(choice, 'option', names)}"


# ---------------------------------------------------------------- reading


@dataclass
class ImportedList:
    roster: Roster | None  # None when a line could not be placed or the header is missing
    findings: list[Finding]  # errors: lines not placed; warnings: names kept as written, costs that differ


def _unquoted(text: str) -> str | None:
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else None


def _read_name(text: str, kind: str, names: Names, warn: Callable[[str, str | None], None]) -> str:
    literal = _unquoted(text)
    if literal is not None:
        if not names.knows(kind, literal):
            warn(f"'{literal}' is not a known {kind}; kept as written", None)
        return literal
    meant = names.lenient(kind, text)
    if meant is None:
        warn(f"'{text}' is not a known {kind}; kept as written", did_you_mean(text, names.pools[kind].values()))
        return text
    return meant


def _count_items(text: str) -> list[tuple[str, int]] | None:
    """'2 Typhoon, 1 Tornado' (or 'Typhoon ×2, ...') as (name, count) pairs; None if it is not that."""
    if text.strip().lower() == "none":
        return []
    items = [COUNT_PREFIX.match(item.strip()) or COUNT_SUFFIX.match(item.strip()) for item in text.split(",")]
    return None if None in items else [(match["name"].strip(), int(match["n"])) for match in items]


def _read_counts(text: str, kind: str, names: Names, warn: Callable[[str, str | None], None]) -> dict[str, int] | None:
    items = _count_items(text)
    return None if items is None else {_read_name(name, kind, names, warn): n for name, n in items}


def _read_value(text: str, kind: str, names: Names, warn: Callable[[str, str | None], None]) -> str | dict[str, int]:
    """An option or loadout: a name (known, quoted, or as written), or counts of them."""
    if _unquoted(text) is None and not names.knows(kind, text) and _count_items(text) is not None:
        return _read_counts(text, kind, names, warn)
    return _read_name(text, kind, names, warn)


def _plain(line: str) -> str:
    """The line without Markdown: headings, bold, list bullets (but '+', which marks upgrades)."""
    text = line.strip().replace("**", "")
    text = re.sub(r"^#+\s*", "", text)
    text = re.sub(r"^[-*]\s+", "", text)
    return re.sub(r"^\d+[.)]\s+", "", text).strip()


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

    def note(self, severity: str, code: str, message: str, suggestion: str | None = None) -> None:
        self.findings.append(Finding(code, message, severity=severity, location=Location(self.shown, self.line),
                                     suggestion=suggestion))

    def warn(self, message: str, suggestion: str | None = None) -> None:
        self.note("warning", "import-unknown-name", message, suggestion)

    def unplaced(self, raw: str, why: str) -> None:
        self.note("error", "import-unplaced-line", f"cannot place '{raw.strip()}': {why}")

    def read(self) -> ImportedList:
        for self.line, raw in enumerate(self.lines, start=1):
            text = _plain(raw)
            if text:
                self.read_line(raw, text)
        if "army" not in self.top:
            self.line = 0
            self.findings.append(Finding("import-no-header", "no line names the game, army and points, like "
                                         "'Epic Armageddon — Codex Astartes — 3,000 points'",
                                         location=Location(self.shown)))
        if any(f.severity == "error" for f in self.findings):
            return ImportedList(None, self.findings)
        roster = Roster.model_validate({**self.top, "formations": self.formations})
        self.compare_stated(roster)
        return ImportedList(roster, self.findings)

    def read_line(self, raw: str, text: str) -> None:
        if "army" not in self.top:
            self.read_header(raw, text)
        elif (match := TOTAL.match(text)) is not None:
            self.total = (self.line, int(match["total"].replace(",", "")))
        elif (match := PURCHASES.match(text)) is not None:
            counts = _read_counts(match["items"], "purchase", self.names, self.warn)
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
        games = {name_key(g.name): i for i, g in self.catalog.games.items()} | {name_key(i): i for i in self.catalog.games}
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
        if _unquoted(text) is None and self.names.lenient("formation", text) is None \
                and (split := re.match(r"^(?P<type>.+?)\s*\((?P<declared>[^()]*)\)$", text)) is not None:
            text, declared = split["type"], [d.strip() for d in split["declared"].split(",")]
        known = _unquoted(text) is not None or self.names.lenient("formation", text) is not None
        if not known and cost is None and count is None:
            self.unplaced(raw, "not a formation of the army or its allies, nor an upgrade ('+ ...') or setting")
            return
        entry["type"] = _read_name(text, "formation", self.names, self.warn)
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
                entry[kind] = _read_name(value, kind, self.names, self.warn)

    def read_detail(self, raw: str, text: str, entry: dict[str, Any]) -> None:
        if text.startswith("+"):
            self.read_upgrade(raw, text[1:].strip(), entry)
        elif (match := TRANSPORT.match(text)) is not None:
            entry["transport"] = _read_name(match["value"].strip(), "transport", self.names, self.warn)
        elif (match := UNITS.match(text)) is not None:
            counts = _read_counts(match["value"], "unit", self.names, self.warn)
            if counts is None:
                self.unplaced(raw, "write the units as '2 Predator Annihilator, 2 Predator Destructor'")
            else:
                entry["composition"] = counts
        elif (match := WARGEAR.match(text)) is not None:
            unit = _read_name(match["unit"].strip(), "unit", self.names, self.warn)
            entry.setdefault("wargear", {})[unit] = _read_value(match["value"].strip(), "loadout", self.names, self.warn)
        else:
            entry["split"] = True

    def read_upgrade(self, raw: str, text: str, entry: dict[str, Any]) -> None:
        name, _, value = text.partition(":")
        value = value.strip()
        if not value and (match := COUNT_SUFFIX.match(text) or COUNT_PREFIX.match(text)) is not None \
                and self.names.lenient("upgrade", text) is None:
            name, choice = match["name"], int(match["n"])
        elif not value:
            choice = True
        elif value.lower() in ("yes", "no"):
            choice = value.lower() == "yes"
        elif re.fullmatch(COUNT, value):
            choice = int(value)
        elif not self.names.knows("option", value) and all(PICK.match(part.strip()) for part in value.split(";")):
            picks = [PICK.match(part.strip()) for part in value.split(";")]
            choice = [{"character": _read_name(p["character"], "option", self.names, self.warn),
                       "joins": _read_name(p["joins"], "unit", self.names, self.warn)} for p in picks]
            choice = choice[0] if len(choice) == 1 else choice
        else:
            choice = _read_value(value, "option", self.names, self.warn)
        name = _read_name(name.strip(), "upgrade", self.names, self.warn)
        if name in entry.setdefault("upgrades", {}):
            self.unplaced(raw, f"'{name}' is already given for this formation")
        entry["upgrades"][name] = choice

    def compare_stated(self, roster: Roster) -> None:
        """Costs and units the text states that differ from what the list makes: warnings on their lines."""
        result = validate(roster, self.catalog)
        for built in result.formations:
            line, stated = self.stated.get(built.index, (0, built.points))
            if stated != built.points:
                self.line = line
                self.note("warning", "import-cost-differs", f"the text gives {built.name} {stated:,} pts; "
                                                            f"it costs {built.points:,}")
            line, units = self.units.get(built.index, (0, unit_line(built)))
            if units != unit_line(built):
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

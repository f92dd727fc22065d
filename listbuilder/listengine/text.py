"""Army-list rosters (the games of the list engine: Epic) as the compact text players post in
forums and e-mails, plain or Markdown: the writer, and the names in such a text read as a person
means them. rosters/listtext.py reads a whole text back into a roster.

The text, line by line (Markdown adds '# ', '**' and list bullets, which reading ignores):

    Titans and aircraft as allies                            the roster's name (optional)
    Epic Armageddon — Space Marines – Codex Astartes — 3,000 points    game, army, agreed points
    2 × Warband (big, Khorne) “Rex” — 500 pts                copies ×, type (size, faction) “label” — cost
      + Sniper                                               an upgrade taken
      + Hunter ×1                                            ... a number of it
      + Fire Support Platoon (4 Fire Support)                ... a number of an upgrade that comes whole
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

A name in straight double quotes is taken literally; the export quotes a name only where reading
would change it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.names import did_you_mean, name_key
from .catalog import Catalog
from .engine import RosterResult
from .lines import unit_line
from .roster import CharacterPick, RosterFormation

# The kinds of names a list text holds; each is matched against its own pool.
KINDS = ("formation", "upgrade", "option", "unit", "loadout", "transport", "size", "faction", "purchase")
SEED_SUFFIXES = ("-detachment", "-formation")  # 'TACTICAL DETACHMENT' is printed for Tactical
# A count is what a person writes, up to 9,999: a larger number is not read as one (the engine would
# build that many units), so it is reported like any other text it cannot place.
COUNT = r"(?P<n>\d{1,4})"
COUNT_SUFFIX = re.compile(rf"^(?P<name>.+?)\s*[×xX]\s*{COUNT}$")
COUNT_PREFIX = re.compile(rf"^{COUNT}\s*(?:[×xX]\s+|\s)(?P<name>.+)$")


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
    # upgrades that always take the same number of their one option: key -> (number, option)
    whole: dict[str, tuple[int, str]] = field(default_factory=dict)

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
            for upgrade in listed.upgrades:
                fixed = upgrade.fixed_count or 0
                if fixed > 1 and len(upgrade.options) == 1:  # 'Fire Support Platoon: 4' is the upgrade, not 4 of it
                    names.whole.setdefault(name_key(upgrade.name), (fixed, upgrade.options[0].label))
            names.add("option", [o.name or o.unit for u in listed.upgrades for o in u.options])
            names.add("option", [o.unit for u in listed.upgrades for o in u.options])
            for formation in listed.formations:
                names.add("formation", [formation.name])
                names.add("size", [s.name for s in formation.sizes])
                names.add("faction", formation.factions or [])
            names.add("unit", [s.name for s in view.units.values()])
            names.add("loadout", [loadout.name for s in view.units.values() for loadout in s.loadouts])
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
    declared = [names.quoted(kind, value)
                for kind, value in (("size", entry.size), ("faction", entry.faction)) if value]
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
    return names.quoted(kind, value, lambda text: read_value(text, kind, names, lambda *_: None))


def upgrade_text(name: str, choice: Any, names: Names) -> str:
    shown = names.quoted("upgrade", name)
    if choice is True:
        return shown
    if choice is False:
        return f"{shown}: no"
    if isinstance(choice, int):
        whole = names.whole.get(name_key(name))
        if whole is not None:  # 'Fire Support Platoon ×4' would read as four platoons: say what it takes
            return f"{shown} ({choice} {names.quoted('option', whole[1])})"
        return f"{shown} ×{choice}"
    if isinstance(choice, CharacterPick):
        choice = [choice]
    if isinstance(choice, list):
        return f"{shown}: " + "; ".join(f"{names.quoted('option', p.character)} with {names.quoted('unit', p.joins)}"
                                        for p in choice)
    return f"{shown}: {_value_text(choice, 'option', names)}"


# ---------------------------------------------------------------- names read


def unquoted(text: str) -> str | None:
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else None


def read_name(text: str, kind: str, names: Names, warn: Callable[[str, str | None], None]) -> str:
    literal = unquoted(text)
    if literal is not None:
        if not names.knows(kind, literal):
            warn(f"'{literal}' is not a known {kind}; kept as written", None)
        return literal
    meant = names.lenient(kind, text)
    if meant is None:
        warn(f"'{text}' is not a known {kind}; kept as written", did_you_mean(text, names.pools[kind].values()))
        return text
    return meant


def count_items(text: str) -> list[tuple[str, int]] | None:
    """'2 Typhoon, 1 Tornado' (or 'Typhoon ×2, ...') as (name, count) pairs; None if it is not that."""
    if text.strip().lower() == "none":
        return []
    matches = [COUNT_PREFIX.match(item.strip()) or COUNT_SUFFIX.match(item.strip()) for item in text.split(",")]
    items = [(match["name"].strip(), int(match["n"])) for match in matches if match is not None]
    return items if len(items) == len(matches) else None


def read_counts(text: str, kind: str, names: Names, warn: Callable[[str, str | None], None]) -> dict[str, int] | None:
    items = count_items(text)
    return None if items is None else {read_name(name, kind, names, warn): n for name, n in items}


def read_value(text: str, kind: str, names: Names, warn: Callable[[str, str | None], None]) -> str | dict[str, int]:
    """An option or loadout: a name (known, quoted, or as written), or counts of them."""
    if unquoted(text) is None and not names.knows(kind, text):
        counts = read_counts(text, kind, names, warn)
        if counts is not None:
            return counts
    return read_name(text, kind, names, warn)

"""Warhammer 40,000 10th edition: the muster rules of seed 001 on the user's imported catalog."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.names import suggest
from ...core.system import EventRules, GameSystem, ListReader, deferred
from .catalog import GAME_ID
from .facts import field_facts
from .roster import Wh40kRoster
from .rules import BATTLE_SIZE, faction_name, find_faction, installed, unknown_names, validate
from .summary import GAME_NAME, summary

if TYPE_CHECKING:
    from ...core.new_roster import NewRosterChoices

FIRST_BATTLE_SIZE = 2000  # Strike Force: a new roster's battle size where none is given
# The hooks a check of a roster file does not call (reading other tools' lists, exports, an event's
# rules) name their modules, loaded on first use: a 40k check loads only the muster rules.
EVENT_RULES = EventRules(frozenset({"legends", "incursion_limits", "detachments", "max_per_keyword"}),
                         deferred(f"{__name__}.event_rules:army_names"),
                         deferred(f"{__name__}.event_rules:event_problems"), deferred(f"{__name__}.event_rules:apply"))


def new_roster_choices(catalog, game: str) -> NewRosterChoices:
    from ...core.new_roster import ArmyChoice, NewRosterChoices  # only when a roster is started

    data = installed(catalog)
    if isinstance(data, str):
        return NewRosterChoices([], "battle size", army_label="Faction", unavailable=data)
    factions = [ArmyChoice(faction_name(data, f), f.short_name, f"{f.name.partition(' - ')[0]} · "
                           f"{len(f.detachments)} detachments · {len(f.units)} units", f"{f.name} {f.faction_keyword}")
                for f in sorted(data.factions, key=lambda f: f.short_name)]
    sizes = [(s.name, s.points) for s in data.system.battle_sizes]
    return NewRosterChoices(factions, "battle size", FIRST_BATTLE_SIZE, sizes, army_label="Faction")


def list_text(result, catalog, markdown: bool) -> str:
    """The roster as the 40k app's text: what `export` writes and `import` reads back."""
    from .listtext import app_text

    return app_text(result, catalog, markdown)


def armies(catalog) -> list[str]:
    """`listbuilder armies`: the installed factions and their detachments, or how to install them."""
    data = installed(catalog)
    if isinstance(data, str):
        return [f"{GAME_NAME} ({GAME_ID})", f"  {data}"]
    lines = [f"{GAME_NAME} ({GAME_ID})" + (f", data {data.data_revision}" if data.data_revision else "")]
    for faction in sorted(data.factions, key=lambda f: f.short_name):
        lines.append(f"  {faction.short_name:<24} {faction.name} — {len(faction.units)} units")
        lines.append(f"      detachments: {', '.join(d.name for d in faction.detachments) or 'none'}")
    return lines


def start_roster(catalog, game: str, faction: str, points: int | None) -> Wh40kRoster | str:
    """The faction's first detachment (the editor's `D` changes it), the battle size of `points`
    (None: Strike Force; points no battle size has: a message naming them)."""
    data = installed(catalog)
    if isinstance(data, str):
        return data
    found = find_faction(data, faction)
    if len(found) > 1:
        return (f"unknown or ambiguous faction '{faction}': it may be {', '.join(f.name for f in found)}; give one "
                f"of them")
    if not found:
        by_name: dict[str, list[str]] = {}  # a name or short name and the factions it names, as rosters name them
        for f in data.factions:
            for name in {f.name, f.short_name, f.name.rpartition(" - ")[2]}:
                by_name.setdefault(name, []).append(faction_name(data, f))  # what find_faction surely finds
        hint = suggest(faction, by_name)
        meant = f" (did you mean {' or '.join(repr(n) for n in by_name[hint])}?)" if hint else ""
        return f"unknown or ambiguous faction '{faction}': none is called that" + (
            meant or "; `listbuilder armies wh40k-10e` lists them")
    sizes = data.system.battle_sizes
    size = next((s for s in sizes if s.points == (points or FIRST_BATTLE_SIZE)), None)
    if size is None:
        return (f"{points:,} points is no battle size ({BATTLE_SIZE}): "
                + ", ".join(f"{s.name} {s.points:,}" for s in sizes))
    return Wh40kRoster(game=GAME_ID, faction=faction_name(data, found[0]), battle_size=size.name,
                       detachment=found[0].detachments[0].name if found[0].detachments else "")


SYSTEM = GameSystem(Wh40kRoster, unknown_names, validate, summary, new_roster_choices, start_roster,
                    entries_field="units", editor_screen="listbuilder.tui.games.wh40k10:UnitsScreen",
                    pdf_document="listbuilder.report.pdf.wh40k10:Wh40kDocument",
                    schemas={"wh40k-roster": Wh40kRoster},
                    list_readers=(ListReader(deferred(f"{__name__}.importing.foreign:list_form"),
                                             deferred(f"{__name__}.importing.foreign:imported_list")),),
                    list_text=list_text, armies=armies,
                    battlescribe_roster=deferred(f"{__name__}.battlescribe_roster:battlescribe_roster"), name=GAME_NAME,
                    field_facts=field_facts, event_rules=EVENT_RULES)

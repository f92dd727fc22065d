"""Games whose army lists are data (lists/<game>/): the core list engine builds the formations and
the game's pack, chosen by game.yaml `system` (else the game's id), adds its derived values."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import partial
from typing import TYPE_CHECKING

from pydantic import BaseModel

from ..core.findings import Finding, Path
from ..core.names import did_you_mean, plural, suggest
from ..core.system import EntrySummary, GameSystem, ImportedList, ListReader, RosterSummary
from .armylist import ArmyList, GameSettings
from .catalog import Catalog
from .datasheet import DatasheetFile
from .engine import BuiltFormation, FormationCache, RosterResult, build
from .facts import field_facts
from .lines import army_json, garrison_text, purchases_text, title, unit_line, upgrades_text
from .roster import Roster
from .text import list_text

if TYPE_CHECKING:
    from ..core.new_roster import NewRosterChoices

# A list-engine game's derived values (break points, garrisons...), worked out on its checked roster by
# the pack its game.yaml names (games.LIST_ENGINE_PACKS).
Derive = Callable[[RosterResult, GameSettings], None]


def unknown_names(roster: Roster, catalog: Catalog) -> list[Finding]:
    """An army the game lacks, or counts beyond what any of its lists allows (refused before the
    engine builds a unit for them)."""
    army = catalog.find_list(roster.game, roster.army)
    if army is not None and army.kind == "army":
        ceiling = catalog.count_ceiling(roster.game)
        return [Finding("count-too-large", f"{number:,} is more than any {roster.game} list allows anywhere (at most "
                        f"{ceiling:,})", path=path) for path, number in _counts(roster) if number > ceiling]
    armies = catalog.army_ids(roster.game)
    names = armies + [catalog.lists[roster.game][a].name for a in armies]
    return [Finding("unknown-army", f"unknown army '{roster.army}' for {roster.game} (known: {', '.join(armies)})",
                    path=("army",), suggestion=did_you_mean(roster.army, names))]


def _counts(roster: Roster) -> Iterator[tuple[Path, int]]:
    """Every number of something the roster asks for, with where it is."""
    for name, number in roster.purchases.items():
        yield ("purchases", name), number
    for i, entry in enumerate(roster.formations):
        where = ("formations", i)
        if entry.count is not None:
            yield (*where, "count"), entry.count
        for name, number in (entry.composition or {}).items():
            yield (*where, "composition", name), number
        for group in ("upgrades", "wargear"):
            for name, choice in getattr(entry, group).items():
                if isinstance(choice, int) and not isinstance(choice, bool):
                    yield (*where, group, name), choice
                elif isinstance(choice, dict):
                    yield from (((*where, group, name, option), n) for option, n in choice.items())


def validate(roster: Roster, catalog: Catalog, derivers: Mapping[str, Derive],
             reuse: FormationCache | None = None) -> RosterResult:
    """Build the roster, find what is illegal, and work out the game's derived values (`reuse`:
    see `listengine.engine.build`)."""
    result = build(roster, catalog, reuse)
    game = catalog.games[roster.game]
    derive = derivers.get(game.system or game.id)
    if derive is not None:
        derive(result, game)
    return result


def army_lines(result: RosterResult) -> list[str]:
    lines = [f"{cap.name}: {cap.points:,} / {cap.limit:,}" for cap in result.caps]
    if result.purchases:
        lines.append(f"bought for the army: {purchases_text(result)}")
    derived = result.derived
    if "activations" in derived:
        lines.append(f"strategy rating {derived['strategy_rating']}, {plural(derived['activations'], 'activation')}")
    targets = [f for f in result.formations if f.index in derived.get("break_their_spirit", [])]
    if targets:
        lines.append("Break Their Spirit: "
                     + " or ".join(f"#{f.index + 1} {f.name} ({f.points:,} pts)" for f in targets))
    return lines


def formation_lines(built: BuiltFormation) -> list[str]:
    lines = [unit_line(built)]
    paid = upgrades_text(built)
    if paid:
        lines.append(f"upgrades: {paid}")
    d = built.derived
    if d and built.on_table:
        bp = "—" if d.get("break_point") is None else d["break_point"]
        half = "—" if d.get("half_strength") is None else d["half_strength"]
        lines.append(f"{plural(d['units'], 'unit')}, initiative {d['initiative']}, "
                     f"break point {bp}, "
                     f"half strength at {half}; {garrison_text(built)}")
        lines += d.get("notes", [])
    return lines


def summary(result: RosterResult) -> RosterSummary:
    return RosterSummary(
        name=result.roster.name, army=result.army.name, game=result.roster.game, total=result.total,
        limit=result.roster.points,
        findings=result.findings, army_lines=army_lines(result),
        entries=[EntrySummary(built.index, title(built), built.points, formation_lines(built))
                 for built in result.formations],
        json=army_json(result))


NEW_ROSTER_POINTS = 3000  # the limit the new-roster dialog offers first


def new_roster_choices(catalog: Catalog, game: str) -> NewRosterChoices:
    from ..core.new_roster import ArmyChoice, NewRosterChoices  # only when a roster is started

    armies = []
    for army_id in catalog.army_ids(game):
        army = catalog.lists[game][army_id]
        allies = ", ".join(catalog.lists[game][a.list].name for a in army.allies)
        details = f"{army.section} · strategy {army.strategy_rating} · {len(army.formations)} formations"
        armies.append(ArmyChoice(army_id, army.name, details + (f" · allies: {allies}" if allies else ""),
                                 f"{army_id} {army.section} {allies}"))
    points = catalog.games[game].points
    return NewRosterChoices(armies, "points", NEW_ROSTER_POINTS, hint=f"balanced for {points.min:,}-{points.max:,}")


def start_roster(catalog: Catalog, game: str, army: str, points: int | None) -> Roster | str:
    found = catalog.find_list(game, army)
    if found is None or found.kind != "army":
        armies = catalog.army_ids(game)
        by_name: dict[str, list[str]] = {}  # a name, or a part of one ('Space Marines'), and the armies it names
        for army_id in armies:
            for name in {army_id, catalog.lists[game][army_id].name, *catalog.lists[game][army_id].name.split(" – ")}:
                by_name.setdefault(name, []).append(army_id)
        hint = suggest(army, by_name)
        return f"unknown army '{army}' (known: {', '.join(armies)})" + (
            f" (did you mean {' or '.join(repr(a) for a in by_name[hint])}?)" if hint else "")
    if points is None:
        return "the points limit is a whole number above 0"
    return Roster(game=game, army=found.id, points=points)


def _read_text(data: bytes, form: str, shown: str, catalog: Catalog) -> ImportedList[Roster]:
    from .read_text import read_list_text  # only `listbuilder import` reads list text

    return read_list_text(data.decode("utf-8-sig"), shown, catalog)


SCHEMAS: dict[str, type[BaseModel]] = {"army-list": ArmyList, "datasheets": DatasheetFile, "game": GameSettings,
                                       "roster": Roster}


def list_engine_system(derivers: Mapping[str, Derive]) -> GameSystem[Roster, RosterResult]:
    """The list engine as a game system, each game's values derived by `derivers` (by game.yaml's
    `system`, else the game's id)."""
    return GameSystem(Roster, unknown_names, partial(validate, derivers=derivers), summary, new_roster_choices,
                      start_roster, entries_field="formations",
                      editor_screen="listbuilder.tui.games.formations:MainScreen",
                      schemas=SCHEMAS, pdf_document="listbuilder.report.pdf.formations:FormationsDocument",
                      list_readers=(ListReader(lambda data: "list text", _read_text, fallback=True),),
                      list_text=list_text, field_facts=field_facts)

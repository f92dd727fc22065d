"""The one registry of games: each game's system (core.system.GameSystem: the roster model, the names
it must resolve, the check, the summary every view prints and where each front end finds the game's
own parts), by the game id a roster names in `game:`. Adding a game is a folder under games/, its
editor screen under tui/games/, its tests, and one line here."""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the registry itself loads no game and no model: `--help` names the data sources
    from ..core.new_roster import NewRosterChoices
    from ..core.system import FieldFacts, GameSystem, ListReader, RosterSummary
    from ..listengine.catalog import Catalog
    from ..listengine.engine import FormationCache
    from ..listengine.system import Derive

# Games whose army lists are data (lists/<game>/game.yaml) use the list engine; the others have a
# pack of their own, imported when a roster or data file of that game first needs it, so that
# checking an Epic Armageddon roster never builds the 40k or Epic Remastered models.
PACKS = {"wh40k-10e": "wh40k10", "epic-remastered": "epic_remastered"}
# The packs that derive the values of list-engine games, by game.yaml's `system` (else the game's id).
LIST_ENGINE_PACKS = {"epic-armageddon": "epic_armageddon"}
# The games whose data users bring and `listbuilder data fetch` can download: game id -> GitHub
# repository. Here, not in a game's package, so that the command table names them without loading one.
DATA_SOURCES = {"wh40k-10e": "BSData/wh40k-10e"}


def system_for(game: str) -> GameSystem[Any, Any]:
    pack = PACKS.get(game)
    return list_engine() if pack is None else importlib.import_module(f"{__name__}.{pack}").SYSTEM


@cache
def list_engine() -> GameSystem[Any, Any]:
    """The list engine as the system of every game whose army lists are data."""
    from ..core.longlived import long_lived

    with long_lived():  # its models, built at import, live as long as the process (as cli._catalog's data)
        from ..listengine.system import list_engine_system

    return list_engine_system(_derivers())


@cache
def _derivers() -> dict[str, Derive]:
    return {system: importlib.import_module(f"{__name__}.{pack}").derive for system, pack in LIST_ENGINE_PACKS.items()}


def every_system() -> list[GameSystem[Any, Any]]:
    """Each system once: the list engine's, then the packs' in PACKS' order."""
    return [list_engine()] + [system_for(game) for game in PACKS]


def list_readers(fallback: bool = False) -> list[ListReader]:
    """The forms of list other tools write that the games read; with `fallback`, also the readers
    that take any text (the list engine's list text), last."""
    readers = [reader for system in every_system() for reader in system.list_readers]
    return [r for r in readers if not r.fallback] + ([r for r in readers if r.fallback] if fallback else [])


def known_games(catalog: Catalog) -> list[str]:
    return sorted({*catalog.games, *PACKS})


def is_known_game(catalog: Catalog, game: str) -> bool:
    """Whether `game` is among known_games, loading no list-engine game's data for a pack's game."""
    return game in PACKS or game in catalog.games


def games_text(catalog: Catalog) -> str:
    """Every game by id and printed name: 'epic-armageddon (Epic Armageddon), ...'."""
    return ", ".join(f"{game} ({game_name(catalog, game)})" for game in known_games(catalog))


def unknown_game(catalog: Catalog, game: str) -> str:
    return f"unknown game '{game}' (known: {', '.join(known_games(catalog))})"


def suggest_game(catalog: Catalog, text: str) -> str | None:
    """'did you mean ...?' for a game written another way: a misspelt id ('wh40k-10'), a printed
    name ('Warhammer 40,000'), or a word only one game's id or name holds ('warhammer-40k', '40k')."""
    from ..core.names import did_you_mean, name_key

    games = known_games(catalog)
    hint = did_you_mean(text, games)
    if hint:
        return hint
    words = [word for word in name_key(text).split("-") if len(word) >= 3]
    matching = [game for game in games if any(word in f"{game} {name_key(game_name(catalog, game))}"
                                              for word in words)]
    return f"did you mean '{matching[0]}'?" if len(matching) == 1 else None


def roster_needs(catalog: Catalog) -> str:
    """What a roster file holds, for one that holds something else: its keys, game by game."""
    needs = []
    for game in known_games(catalog):
        system = system_for(game)
        keys = [key for key, field in system.roster_model.model_fields.items() if field.is_required() and key != "game"]
        needs.append(f"{game}: {', '.join(f'`{key}:`' for key in [*keys, system.entries_field])}")
    return f"a roster is a YAML mapping of `game:` and the army ({'; '.join(needs)})"


def game_name(catalog: Catalog, game: str) -> str:
    return catalog.games[game].name if game in catalog.games else system_for(game).name


def new_roster_choices(catalog: Catalog, game: str) -> NewRosterChoices:
    """What a new roster of `game` may be built from: its armies (factions) and its limit."""
    return system_for(game).new_roster_choices(catalog, game)


def new_roster(catalog: Catalog, game: str, army: str, limit: int | None) -> Any:
    """A new, empty roster of `game` built from `army` (an id or name) to `limit` (points, or a battle
    size's points; None where the game allows none), or a message saying why there is none: the
    one place the command line's `new --game --army --points` and the new-roster dialog both use."""
    if game not in known_games(catalog):
        return unknown_game(catalog, game)
    return system_for(game).start_roster(catalog, game, army, limit)


def validate(roster: Any, catalog: Catalog, reuse: FormationCache | None = None) -> Any:
    """Check the roster by its game's rules: what is illegal, its points and derived values.
    `reuse`: the formations the list engine built in earlier checks (see listengine.engine.build); the
    other systems check afresh."""
    if reuse is not None and roster.game not in PACKS:  # the list engine, loaded only for its games
        from ..listengine.system import validate as build

        return build(roster, catalog, _derivers(), reuse)
    return system_for(roster.game).validate(roster, catalog)


def summarise(result: Any) -> RosterSummary:
    """What every view shows of a checked roster, its findings as located at this point."""
    return system_for(result.roster.game).summary(result)


def field_facts(result: Any) -> FieldFacts:
    """What `listbuilder stats` counts of a checked roster."""
    facts = system_for(result.roster.game).field_facts
    assert facts is not None, "every game's system counts its rosters' field statistics"
    return facts(result)

"""Game system packs, registered by the game id a roster names in `game:` (core.system.GameSystem:
the roster model, the names it must resolve, the check and the summary every view prints)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the registry itself loads no game and no model: `--help` names the data sources
    from ..core.new_roster import NewRosterChoices
    from ..core.system import GameSystem, RosterSummary
    from ..listengine.catalog import Catalog
    from ..listengine.engine import FormationCache

# Games whose army lists are data (lists/<game>/game.yaml) use the list engine; the others have a
# pack of their own, imported when a roster or data file of that game first needs it, so that
# checking an Epic Armageddon roster never builds the 40k or Epic Remastered models.
PACKS = {"wh40k-10e": "wh40k10", "epic-remastered": "epic_remastered"}
# The games whose data users bring and `listbuilder data fetch` can download: game id -> GitHub
# repository. Here, not in a game's package, so that the command table names them without loading one.
DATA_SOURCES = {"wh40k-10e": "BSData/wh40k-10e"}


def system_for(game: str) -> GameSystem:
    from ..listengine import system as list_engine

    pack = PACKS.get(game)
    return list_engine.SYSTEM if pack is None else importlib.import_module(f"{__name__}.{pack}").SYSTEM


def known_games(catalog: Catalog) -> list[str]:
    return sorted({*catalog.games, *PACKS})


def unknown_game(catalog: Catalog, game: str) -> str:
    return f"unknown game '{game}' (known: {', '.join(known_games(catalog))})"


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
    `reuse`: the formations the list engine built in earlier checks (see core.engine.build); the
    other systems check afresh."""
    from ..listengine import system as list_engine

    system = system_for(roster.game)
    if reuse is not None and system is list_engine.SYSTEM:
        return list_engine.validate(roster, catalog, reuse)
    return system.validate(roster, catalog)


def summarise(result: Any) -> RosterSummary:
    """What every view shows of a checked roster, its findings as located at this point."""
    return system_for(result.roster.game).summary(result)

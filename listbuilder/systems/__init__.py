"""Game system packs, registered by the game id a roster names in `game:` (core.system.GameSystem:
the roster model, the names it must resolve, the check and the summary every view prints)."""

from __future__ import annotations

from typing import Any

from ..core.catalog import Catalog
from ..core.engine import FormationCache
from ..core.system import GameSystem, RosterSummary
from . import epic_remastered, list_engine, wh40k10
from .wh40k10.catalog import GAME_ID as WH40K

# Games whose army lists are data (lists/<game>/game.yaml) use the list engine; others register here.
SYSTEMS: dict[str, GameSystem] = {WH40K: wh40k10.SYSTEM, epic_remastered.GAME_ID: epic_remastered.SYSTEM}


def system_for(game: str) -> GameSystem:
    return SYSTEMS.get(game, list_engine.SYSTEM)


def known_games(catalog: Catalog) -> list[str]:
    return sorted({*catalog.games, *SYSTEMS})


def validate(roster: Any, catalog: Catalog, reuse: FormationCache | None = None) -> Any:
    """Check the roster by its game's rules: what is illegal, its points and derived values.
    `reuse`: the formations the list engine built in earlier checks (see core.engine.build); the
    other systems check afresh."""
    system = system_for(roster.game)
    if reuse is not None and system is list_engine.SYSTEM:
        return list_engine.validate(roster, catalog, reuse)
    return system.validate(roster, catalog)


def summarise(result: Any) -> RosterSummary:
    """What every view shows of a checked roster, its findings as located at this point."""
    return system_for(result.roster.game).summary(result)

"""Game system packs: the rules of one game that data alone cannot say, registered by game id."""

from __future__ import annotations

from ..core.catalog import Catalog
from ..core.engine import RosterResult, build
from ..core.roster import Roster
from . import epic_armageddon

DERIVERS = {"epic-armageddon": epic_armageddon.derive}


def validate(roster: Roster, catalog: Catalog) -> RosterResult:
    """Build the roster, find what is illegal, and work out the game's derived values."""
    result = build(roster, catalog)
    game = catalog.games[roster.game]
    derive = DERIVERS.get(game.system or game.id)
    if derive is not None:
        derive(result, game)
    return result

"""Epic Remastered (seed 004): detachments with an HQ and a chain of command, and data sheets built
from a base unit plus data sheet modifier abilities."""

from ...core.system import GameData, GameSystem
from .catalog import assemble
from .models import GAME_ID, ArmyList, DatasheetFile, ErRoster
from .rules import unknown_names, validate
from .summary import summary

SYSTEM = GameSystem(ErRoster, unknown_names, validate, summary, GameData(ArmyList, DatasheetFile, assemble))

__all__ = ["GAME_ID", "SYSTEM"]

"""A game-neutral BattleScribe roster engine: build and check rosters for any game whose data is
in BattleScribe's format (BSData), as New Recruit does. Pure: the standard library and the
project's Finding type. docs/battlescribe-engine.md describes the model, the API and every
semantic choice."""

from listbuilder.battlescribe.editor import EditError, Editor
from listbuilder.battlescribe.model import GameData
from listbuilder.battlescribe.rosterdict import roster_from_dict, roster_to_dict
from listbuilder.battlescribe.validate import RuleError

__all__ = ["EditError", "Editor", "GameData", "RuleError", "roster_from_dict", "roster_to_dict"]

"""Epic Remastered (seed 004): detachments with an HQ and a chain of command, and data sheets built
from a base unit plus data sheet modifier abilities."""

from ...core.system import GameData, GameSystem
from .catalog import assemble
from .models import GAME_ID, ArmyList, DatasheetFile, ErRoster
from .rules import data_of, unknown_names, validate
from .summary import GAME_NAME, summary


def armies(catalog) -> list[str]:
    lines = [f"{GAME_NAME} ({GAME_ID})"]
    for army_id, er in sorted(data_of(catalog).armies.items()):
        rating = er.army.strategy_rating if er.army.strategy_rating is not None else "not given"
        lines.append(f"  {army_id:<24} {er.army.name} — strategy rating {rating}, "
                     f"{len(er.army.detachments)} detachment lists")
    return lines


SYSTEM = GameSystem(ErRoster, unknown_names, validate, summary, GameData(ArmyList, DatasheetFile, assemble), armies)

__all__ = ["GAME_ID", "SYSTEM"]

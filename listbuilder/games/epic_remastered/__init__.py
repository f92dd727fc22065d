"""Epic Remastered (seed 004): detachments with an HQ and a chain of command, and data sheets built
from a base unit plus data sheet modifier abilities."""

from ...core.names import suggest
from ...core.new_roster import ArmyChoice, NewRosterChoices
from ...core.system import GameData, GameSystem, ImportedList, ListReader
from .catalog import assemble
from .facts import field_facts
from .models import GAME_ID, ArmyList, DatasheetFile, ErRoster
from .rules import data_of, unknown_names, validate
from .summary import GAME_NAME, summary
from .text import list_form, list_text


def _choices(catalog) -> list[ArmyChoice]:
    choices = []
    for army_id, er in sorted(data_of(catalog).armies.items()):
        rating = er.army.strategy_rating if er.army.strategy_rating is not None else "not given"
        choices.append(ArmyChoice(army_id, er.army.name, f"strategy rating {rating}, "
                                  f"{len(er.army.detachments)} detachment lists", army_id))
    return choices


def armies(catalog) -> list[str]:
    return [f"{GAME_NAME} ({GAME_ID})"] + [f"  {c.id:<24} {c.name} — {c.details}" for c in _choices(catalog)]


def new_roster_choices(catalog, game: str) -> NewRosterChoices:
    return NewRosterChoices(_choices(catalog), "optional points", hint="optional: played without points if empty")


def start_roster(catalog, game: str, army: str, points: int | None) -> ErRoster | str:
    """Played without points unless a limit is given."""
    armies = data_of(catalog)
    found = armies.find(army)
    if found is None:
        by_name = {name: army_id for army_id, er in armies.armies.items() for name in (army_id, er.army.name)}
        hint = suggest(army, by_name)
        return f"unknown army '{army}' (known: {', '.join(sorted(armies.armies))})" + (
            f" (did you mean '{by_name[hint]}'?)" if hint else "")
    return ErRoster(game=GAME_ID, army=found.army.id, points=points)


def _read_text(data: bytes, form: str, shown: str, catalog) -> ImportedList[ErRoster]:
    from .read_text import read_list_text  # only `import` and a list file's check read list text

    return read_list_text(data, form, shown, catalog)


SYSTEM = GameSystem(ErRoster, unknown_names, validate, summary, new_roster_choices, start_roster,
                    entries_field="detachments", editor_screen="listbuilder.tui.games.epic_remastered:ErScreen",
                    pdf_document="listbuilder.report.pdf.epic_remastered:ErDocument",
                    schemas={"epic-remastered-list": ArmyList, "epic-remastered-datasheets": DatasheetFile,
                             "epic-remastered-roster": ErRoster},
                    data=GameData(ArmyList, DatasheetFile, assemble), armies=armies, name=GAME_NAME,
                    list_readers=(ListReader(list_form, _read_text),), list_text=list_text, field_facts=field_facts)

__all__ = ["GAME_ID", "SYSTEM"]

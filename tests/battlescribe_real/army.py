"""Building 40k armies on the snapshot with the Editor, by the names the data gives."""

from __future__ import annotations

from typing import Any

from listbuilder.battlescribe import Editor
from listbuilder.battlescribe.importing import faction_catalogues
from listbuilder.battlescribe.roster import Force, Selection

ARMY_ROSTER = "bb9d-299a-ed60-2d8a"  # the game system's "Army Roster" force entry
POINTS = "51b2-306e-1021-d207"  # the "pts" cost type
STRIKE_FORCE = "2. Strike Force (2000 Point limit)"
SPACE_MARINES = "Imperium - Adeptus Astartes - Space Marines"
NECRONS = "Xenos - Necrons"


def new_army(bundle: dict[str, Any], faction: str, located: bool = False,
             data_revision: str | None = None) -> tuple[Editor, Force]:
    """An editor on a faction's catalogues and an Army Roster force of it; ``located``: its
    findings name the data's file, line and revision (``data_revision`` where given)."""
    catalogues = faction_catalogues(bundle, faction)
    sources = bundle["sources"] if located else None
    editor = Editor(bundle["gameSystem"], catalogues, sources=sources, data_revision=data_revision)
    force, _ = editor.add_force(ARMY_ROSTER, catalogues[0]["id"])
    return editor, force


def configured_army(bundle: dict[str, Any], faction: str, detachment: str, located: bool = False,
                    data_revision: str | None = None) -> tuple[Editor, Force]:
    """An army with its detachment and the Strike Force battle size chosen, as the data asks."""
    editor, force = new_army(bundle, faction, located, data_revision)
    for holder_name, choice in (("Detachment", detachment), ("Battle Size", STRIKE_FORCE)):
        holder = next(s for s in force.selections if s.option.name == holder_name)
        add(editor, holder, choice)
    return editor, force


def offered(editor: Editor, container: Selection | Force, name: str) -> str:
    """The entry id of what the Editor offers under that name there."""
    return str(next(item["entryId"] for item in editor.available(container) if item["name"] == name))


def add(editor: Editor, container: Selection | Force, name: str) -> Selection:
    """Select what is offered under that name, at the root of a force or under a selection."""
    entry_id = offered(editor, container, name)
    if isinstance(container, Force):
        return editor.select_entry(container, entry_id)[0]
    return editor.select_child_entry(container, entry_id)[0]


def child(editor: Editor, selection: Selection, name: str) -> Selection:
    """A selection's child of that (effective) name."""
    return next(c for c in selection.children if editor.evaluation.view(c).name == name)


def points(editor: Editor, selection: Selection | None = None) -> float:
    """A selection's points with all below it, or the roster's."""
    costs = editor.evaluation.roster_costs() if selection is None else editor.evaluation.total_costs(selection)
    return costs[POINTS]


def codes(editor: Editor) -> list[tuple[str, str, str]]:
    """Every finding as (code, rule, message)."""
    return [(f.code, f.rule, f.message) for f in editor.findings()]

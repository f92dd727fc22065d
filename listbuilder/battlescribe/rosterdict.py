"""A roster to and from its dict form: BattleScribe's .ros roster, element for element, in the same
camelCase "JSON" shape as the data (the importing package turns .ros XML into this and back).

``number`` is written as BattleScribe and New Recruit's exports write it, in all (three Troopers
with a Rifle each: Rifle number 3), and read back per parent model. Entries are found again by
their composite entryId (``link::entry``), so a roster re-links against the data it was made with;
what can no longer be found is reported, not guessed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from listbuilder.battlescribe.evaluate import Evaluation
from listbuilder.battlescribe.model import GameData, Node, Option, as_list, as_number
from listbuilder.battlescribe.roster import Force, Roster, Selection
from listbuilder.core.findings import Finding

Describe = Callable[[Selection], dict[str, Any]]  # a selection's profiles and rules, as a roster file shows them


def roster_to_dict(roster: Roster, evaluation: Evaluation | None = None,
                   describe: Describe | None = None) -> dict[str, Any]:
    """The roster as BattleScribe's roster element (ids, entry ids, numbers, costs, categories);
    with `describe`, each selection's profiles and rules too, as the files BattleScribe and New
    Recruit export carry them for readers without the data."""
    ev = evaluation or Evaluation(roster)
    names = {str(c["id"]): str(c.get("name") or c["id"]) for c in roster.data.cost_types()}
    game_system = roster.data.game_system
    return {
        "name": roster.name,
        "gameSystemId": game_system.get("id"),
        "gameSystemName": game_system.get("name"),
        "gameSystemRevision": game_system.get("revision"),
        "costs": [{"name": names.get(t, t), "typeId": t, "value": v} for t, v in ev.roster_costs().items()],
        "costLimits": [{"name": names.get(t, t), "typeId": t, "value": v} for t, v in roster.cost_limits.items()],
        "forces": [_force_to_dict(f, ev, names, describe) for f in roster.forces],
    }


def _force_to_dict(force: Force, ev: Evaluation, names: dict[str, str], describe: Describe | None) -> dict[str, Any]:
    catalogue = ev.data.catalogue_by_id.get(force.catalogue_id, {})
    result: dict[str, Any] = {
        "id": force.id, "name": force.entry.get("name"), "entryId": force.entry_id,
        "catalogueId": force.catalogue_id, "catalogueName": catalogue.get("name"),
        "catalogueRevision": catalogue.get("revision"),
        "selections": [_selection_to_dict(s, ev, names, describe) for s in force.selections],
        "forces": [_force_to_dict(f, ev, names, describe) for f in force.child_forces],
    }
    _custom(result, force.custom_name, force.custom_notes)
    return result


def _selection_to_dict(selection: Selection, ev: Evaluation, names: dict[str, str],
                       describe: Describe | None) -> dict[str, Any]:
    view = ev.view(selection)
    option = selection.option
    result: dict[str, Any] = {
        "id": selection.id, "name": view.name, "entryId": option.entry_id,
        "number": selection.total_number, "type": option.type,
        "costs": [{"name": names.get(t, t), "typeId": t, "value": v} for t, v in ev.own_costs(selection).items()],
        "categories": [{"id": f"{selection.id}::{c.id}", "name": c.name, "entryId": c.id, "primary": c.primary}
                       for c in view.categories],
        "selections": [_selection_to_dict(c, ev, names, describe) for c in selection.children],
        **(describe(selection) if describe is not None else {}),
    }
    if option.entry_group_id is not None:
        result["entryGroupId"] = option.entry_group_id
    _custom(result, selection.custom_name, selection.custom_notes)
    return result


def _custom(result: dict[str, Any], name: str | None, notes: str | None) -> None:
    if name is not None:
        result["customName"] = name
    if notes is not None:
        result["customNotes"] = notes


def roster_from_dict(data: GameData, source: dict[str, Any]) -> tuple[Roster, list[Finding]]:
    """A roster re-linked against the data, and a finding for each force or selection whose entry
    the data no longer has (it is left out)."""
    roster = Roster(data, name=str(source.get("name") or "New Roster"))
    for limit in as_list(source, "costLimits"):
        roster.cost_limits[str(limit.get("typeId"))] = as_number(limit.get("value"), -1.0)
    problems: list[Finding] = []
    for index, force_source in enumerate(as_list(source, "forces")):
        force = _force_from_dict(data, roster, None, force_source, ("forces", index), problems)
        if force is not None:
            roster.forces.append(force)
    return roster, problems


def _force_from_dict(data: GameData, roster: Roster, parent: Force | None, source: Node,
                     path: tuple[str | int, ...], problems: list[Finding]) -> Force | None:
    found = data.force_entry(str(source.get("entryId")))
    if found is None:
        problems.append(_missing("force entry", source, path))
        return None
    catalogue_id = str(source.get("catalogueId") or (parent.catalogue_id if parent else found[1]))
    force = Force(found[0], catalogue_id, parent=parent, roster=roster,
                  custom_name=source.get("customName"), custom_notes=source.get("customNotes"))
    if source.get("id"):
        force.id = str(source["id"])
    for index, child in enumerate(as_list(source, "selections")):
        option = data.find_root(catalogue_id, str(child.get("entryId")))
        selection = _selection_from_dict(option, child, force, None, path + ("selections", index), problems)
        if selection is not None:
            force.selections.append(selection)
    for index, child in enumerate(as_list(source, "forces")):
        child_force = _force_from_dict(data, roster, force, child, path + ("forces", index), problems)
        if child_force is not None:
            force.child_forces.append(child_force)
    return force


def _selection_from_dict(option: Option | None, source: Node, force: Force, parent: Selection | None,
                         path: tuple[str | int, ...], problems: list[Finding]) -> Selection | None:
    if option is None:
        problems.append(_missing("entry", source, path))
        return None
    total = int(as_number(source.get("number"), 1))
    above = parent.total_number if parent is not None else 1
    number = total // above if above and total % above == 0 else total
    selection = Selection(option, number=number, parent=parent, force=force,
                          custom_name=source.get("customName"), custom_notes=source.get("customNotes"))
    if source.get("id"):
        selection.id = str(source["id"])
    for index, child in enumerate(as_list(source, "selections")):
        child_option = option.find(str(child.get("entryId")))
        made = _selection_from_dict(child_option, child, force, selection, path + ("selections", index), problems)
        if made is not None:
            selection.children.append(made)
    return selection


def _missing(what: str, source: Node, path: tuple[str | int, ...]) -> Finding:
    name = source.get("name") or source.get("entryId")
    return Finding("roster-unknown-entry", f"{name}: the data has no {what} {source.get('entryId')!r}; left out",
                   "", "error", path)

"""Findings kept across states (reuse.py) on a small game of our own: a unit whose constraint's
value a condition on the roster changes is checked again when another unit changes what the
condition counts; a unit that reads nothing outside it is reused; either way the findings are
those of a check from scratch."""

from __future__ import annotations

from typing import Any

import pytest

from listbuilder.battlescribe.editor import Editor
from listbuilder.battlescribe.model import GameData
from listbuilder.battlescribe.reuse import Reuse
from listbuilder.battlescribe.roster import Selection
from listbuilder.battlescribe.validate import Validator

BANNER_IN_ROSTER = {"type": "atLeast", "value": 1, "field": "selections", "scope": "roster", "childId": "banner",
                    "includeChildSelections": True}


def _game() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A chief who may carry a banner; where a banner is carried, a gang is named so and needs four
    raiders (two otherwise) and the warband needs a standard (a root entry's min at the force, 0
    otherwise); scouts read nothing outside themselves."""
    game_system = {"id": "gs", "name": "Skirmish", "costTypes": [{"id": "pts", "name": "points"}],
                   "forceEntries": [{"id": "band", "name": "Warband"}]}
    raised = [{"type": "set", "value": 4, "field": "enough", "conditions": [BANNER_IN_ROSTER]}]
    catalogue = {
        "id": "cat", "name": "Raiders", "gameSystemId": "gs",
        "selectionEntries": [
            {"id": "chief", "name": "Chief", "type": "model",
             "selectionEntries": [{"id": "banner", "name": "Banner", "type": "upgrade"}]},
            {"id": "gang", "name": "Gang", "type": "unit",
             "modifiers": [{"type": "append", "value": "(bannered)", "field": "name",
                            "conditions": [BANNER_IN_ROSTER]}],
             "selectionEntries": [{"id": "raider", "name": "Raider", "type": "model", "modifiers": raised,
                                   "constraints": [{"id": "enough", "type": "min", "value": 2,
                                                    "field": "selections", "scope": "parent"}]}]},
            {"id": "scouts", "name": "Scouts", "type": "unit",
             "selectionEntries": [{"id": "scout", "name": "Scout", "type": "model",
                                   "constraints": [{"id": "few", "type": "max", "value": 3,
                                                    "field": "selections", "scope": "parent"}]}]},
            {"id": "standard", "name": "Standard", "type": "upgrade",
             "modifiers": [{"type": "set", "value": 1, "field": "needed", "conditions": [BANNER_IN_ROSTER]}],
             "constraints": [{"id": "needed", "type": "min", "value": 0, "field": "selections", "scope": "parent"}]},
        ],
    }
    return game_system, [catalogue]


@pytest.fixture
def replayed(monkeypatch) -> list[str]:
    """The names of the units (and force options: 'force') whose findings were reused."""
    names: list[str] = []
    replay = Validator._replay

    def spied(self: Validator, found: Any, places: list[Selection], force: Any) -> None:
        names.append(places[0].option.name if places else "force")
        replay(self, found, places, force)

    monkeypatch.setattr(Validator, "_replay", spied)
    return names


def _roster(data: GameData, reuse: Reuse | None, banner: bool, scouts: int = 2) -> Editor:
    editor = Editor.on(data, reuse=reuse)
    force, _ = editor.add_force("band")
    chief, _ = editor.select_entry(force, "chief")
    if banner:
        editor.select_child_entry(chief, "banner")
    gang, _ = editor.select_entry(force, "gang")
    editor.set_count(gang.children[0], 2)
    squad, _ = editor.select_entry(force, "scouts")
    scout, _ = editor.select_child_entry(squad, "scout")
    editor.set_count(scout, scouts)
    return editor


def _found(editor: Editor) -> list[tuple[str, str, tuple[str | int, ...]]]:
    return [(f.rule, f.message, f.path) for f in editor.findings()]


def test_a_unit_reading_the_roster_is_checked_again_when_another_unit_changes_what_it_reads(replayed) -> None:
    data = GameData(*_game())
    reuse = Reuse()
    assert _found(_roster(data, reuse, banner=False)) == []
    assert replayed == []  # nothing kept yet
    with_banner = _found(_roster(data, reuse, banner=True))
    assert with_banner == _found(_roster(data, None, banner=True)) == [
        ("cat:standard/needed", "Standard: at least 1 selection in Warband, 0 taken", ("forces", 0)),
        ("cat:raider/enough", "Raider: at least 4 selections in Gang (bannered), 2 taken",
         ("forces", 0, "selections", 1))]
    # the scouts read nothing outside them; the gang and the standard read the banner's count
    assert "Scouts" in replayed and "Gang" not in replayed and "Chief" not in replayed
    replayed.clear()
    assert _found(_roster(data, reuse, banner=False)) == []  # back again: the first state's findings
    assert {"Gang", "Scouts", "Chief"} <= set(replayed)


def test_a_units_views_are_kept_with_what_they_read_outside_it() -> None:
    """The gang's name reads the roster's banners: its views are taken by a later state with that
    read, counted again (and kept with it again), and not where the banner is carried."""
    data = GameData(*_game())
    reuse = Reuse()
    first = _roster(data, reuse, banner=False)
    _found(first)
    gang = first.roster.forces[0].selections[1]
    read = first.evaluation.own_views(gang)
    assert read is not None and {r.selection for r in read} == {0, 1}  # the gang's name, the raiders' min
    again = _roster(data, reuse, banner=False)
    _found(again)
    kept = again.roster.forces[0].selections[1]
    assert again.evaluation.view(kept) is first.evaluation.view(gang)  # taken, not worked out
    assert again.evaluation.own_views(kept) == read
    bannered = _roster(data, reuse, banner=True)
    assert bannered.evaluation.view(bannered.roster.forces[0].selections[1]).name == "Gang (bannered)"


def test_a_reused_units_findings_move_with_it(replayed) -> None:
    data = GameData(*_game())
    reuse = Reuse()
    _found(_roster(data, reuse, banner=False, scouts=5))
    editor = _roster(data, reuse, banner=False, scouts=5)
    force = editor.roster.forces[0]
    force.selections.insert(0, force.selections.pop())  # the scouts first: their places change
    editor._changed()
    replayed.clear()
    found = _found(editor)
    assert "Scouts" in replayed
    assert found == [("cat:scout/few", "Scout: at most 3 selections in Scouts, 5 taken",
                      ("forces", 0, "selections", 0, "selections", 0))]
    fresh = Editor.on(data)
    fresh.roster = editor.roster
    assert _found(fresh) == found


def test_the_kept_findings_are_bounded() -> None:
    data = GameData(*_game())
    reuse = Reuse(units=3, per_unit=1)
    for scouts in range(1, 7):
        _found(_roster(data, reuse, banner=scouts % 2 == 0, scouts=scouts))
    assert len(reuse._found) == 3
    assert all(len(kept) == 1 for kept in reuse._found.values())


def test_what_is_kept_is_not_pickled() -> None:
    """A folder's spawned workers get the data (with its Reuse) pickled: empty, bounded alike."""
    import pickle

    data = GameData(*_game())
    reuse = Reuse(units=5, per_unit=2)
    _found(_roster(data, reuse, banner=True))
    assert reuse._found
    copy = pickle.loads(pickle.dumps(reuse))
    assert (copy._units, copy._per_unit, len(copy._found)) == (5, 2, 0)


def test_a_unit_whose_own_modifiers_read_its_categories_keeps_its_views() -> None:
    """A walker named by whether it is a vehicle reads its own view while that is in progress (as
    the data states it, whatever was asked first): its views are kept and taken by a later state."""
    game_system = {"id": "gs", "name": "Skirmish", "costTypes": [{"id": "pts", "name": "points"}],
                   "categoryEntries": [{"id": "vehicle", "name": "Vehicle"}],
                   "forceEntries": [{"id": "band", "name": "Warband"}]}
    vehicle = {"type": "instanceOf", "value": 1, "field": "selections", "scope": "self", "childId": "vehicle"}
    catalogue = {"id": "cat", "name": "Raiders", "gameSystemId": "gs", "selectionEntries": [
        {"id": "walker", "name": "Walker", "type": "unit", "costs": [{"typeId": "pts", "value": 40}],
         "categoryLinks": [{"id": "walker-vehicle", "targetId": "vehicle", "primary": True}],
         "modifiers": [{"type": "append", "value": "(armoured)", "field": "name", "conditions": [vehicle]}]}]}
    data = GameData(game_system, [catalogue])
    reuse = Reuse()

    def walker(reuse: Reuse | None) -> Editor:
        editor = Editor.on(data, reuse=reuse)
        force, _ = editor.add_force("band")
        editor.select_entry(force, "walker")
        return editor

    first = walker(reuse)
    found = _found(first)
    unit = first.roster.forces[0].selections[0]
    assert first.evaluation.view(unit).name == "Walker (armoured)"
    assert first.evaluation.own_views(unit) == ()  # it read nothing outside itself
    again = walker(reuse)
    assert _found(again) == found == _found(walker(None))
    assert again.evaluation.view(again.roster.forces[0].selections[0]) is first.evaluation.view(unit)

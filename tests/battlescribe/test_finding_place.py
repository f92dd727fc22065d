"""Where a finding's rule is in the data: the file, line and revision it was compiled from, when the
Editor is given compile_data's ``sources`` (a spec's setup has none: its findings keep their ids)."""

from __future__ import annotations

import copy
from typing import Any

from listbuilder.battlescribe.editor import Editor

SOURCES = {"gs": {"file": "Skirmish.gst", "revision": 7}, "cat": {"file": "Raiders.cat", "revision": 12}}


def _game() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A small game as compile_data gives it: every element with an id has its sourceLine."""
    game_system = {
        "id": "gs", "name": "Skirmish", "sourceLine": 2,
        "costTypes": [{"id": "pts", "name": "points", "sourceLine": 4}],
        "categoryEntries": [{"id": "leader", "name": "Leader", "sourceLine": 7}],
        "forceEntries": [{"id": "band", "name": "Warband", "sourceLine": 10,
                          "constraints": [{"id": "two-bands", "type": "min", "value": 2, "field": "selections",
                                           "scope": "roster", "sourceLine": 12}],
                          "categoryLinks": [{"id": "band-leader", "targetId": "leader", "sourceLine": 15,
                                             "constraints": [{"id": "one-leader", "type": "min", "value": 1,
                                                              "field": "selections", "scope": "parent",
                                                              "sourceLine": 17}]}]}],
    }
    catalogue = {
        "id": "cat", "name": "Raiders", "gameSystemId": "gs", "sourceLine": 2,
        "selectionEntries": [
            {"id": "chief", "name": "Chief", "type": "model", "sourceLine": 20,
             "costs": [{"typeId": "pts", "value": 30}],
             "categoryLinks": [{"id": "chief-leader", "targetId": "leader", "primary": True, "sourceLine": 22}],
             "constraints": [{"id": "one-chief", "type": "max", "value": 1, "field": "selections",
                              "scope": "roster", "sourceLine": 25}]},
            {"id": "oath", "name": "Oath", "type": "upgrade", "sourceLine": 30,
             "modifiers": [{"type": "add", "field": "error", "value": "No oath with a chief",
                            "conditions": [{"type": "atLeast", "value": 1, "field": "selections",
                                            "scope": "roster", "childId": "chief"}]}]},
            {"id": "banner", "name": "Banner", "type": "upgrade", "sourceLine": 40,
             "modifiers": [{"id": "hide-banner", "type": "set", "field": "hidden", "value": True,
                            "sourceLine": 42,
                            "conditions": [{"type": "atLeast", "value": 1, "field": "selections",
                                            "scope": "roster", "childId": "chief"}]}]},
            {"id": "relic", "name": "Relic", "type": "upgrade", "hidden": True, "sourceLine": 50},
            {"id": "drummer", "name": "Drummer", "type": "model", "sourceLine": 60,
             "constraints": [{"id": "one-drummer", "type": "max", "value": 1, "field": "selections",
                              "scope": "roster"}]},  # no line of its own: its entry's
        ],
    }
    return game_system, [catalogue]


def _roster(editor: Editor) -> None:
    """One band, two chiefs, an oath, a banner, a relic, two drummers: every rule broken once."""
    force, _ = editor.add_force("band")
    for entry_id in ("chief", "chief", "oath", "banner", "relic", "drummer", "drummer"):
        editor.select_entry(force, entry_id)


def _rules(editor: Editor) -> list[tuple[str, str]]:
    return [(f.code, f.rule) for f in editor.findings()]


def test_without_sources_a_finding_keeps_its_ids() -> None:
    editor = Editor(*_game())
    _roster(editor)
    editor.set_cost_limit("pts", 50)
    assert _rules(editor) == [
        ("data-constraint", "band/two-bands"), ("data-constraint", "cat:chief/one-chief"),
        ("data-constraint", "cat:drummer/one-drummer"), ("data-hidden", "cat:banner/hidden"),
        ("data-hidden", "cat:relic/hidden"), ("data-error", "cat:oath/error"), ("cost-limit", "costLimits/pts")]


def test_with_sources_each_finding_names_the_file_line_and_catalogue_revision() -> None:
    game_system, catalogues = _game()
    editor = Editor(game_system, catalogues, sources=SOURCES)
    force, _ = editor.add_force("band")
    editor.select_entry(force, "chief")
    editor.select_entry(force, "chief")
    assert _rules(editor) == [  # each file's own revision
        ("data-constraint", "data: Skirmish.gst:12 (revision 7), Warband, constraint two-bands"),
        ("data-constraint", "data: Raiders.cat:25 (revision 12), Chief, constraint one-chief")]


def test_every_kind_of_data_rule_at_its_own_line_with_the_datas_revision() -> None:
    """A force entry's constraint, an entry's at its own line (or its entry's where it has none), a
    hiding modifier with an id at its own line, a hidden entry at its own, a message modifier
    without an id at its entry's; a cost limit is no data rule."""
    game_system, catalogues = _game()
    editor = Editor(game_system, catalogues, sources=SOURCES, data_revision="801555b")
    _roster(editor)
    editor.set_cost_limit("pts", 50)
    assert _rules(editor) == [
        ("data-constraint", "data: Skirmish.gst:12 (revision 801555b), Warband, constraint two-bands"),
        ("data-constraint", "data: Raiders.cat:25 (revision 801555b), Chief, constraint one-chief"),
        ("data-constraint", "data: Raiders.cat:60 (revision 801555b), Drummer, constraint one-drummer"),
        ("data-hidden", "data: Raiders.cat:42 (revision 801555b), Banner, modifier hide-banner"),
        ("data-hidden", "data: Raiders.cat:50 (revision 801555b), Relic, hidden"),
        ("data-error", "data: Raiders.cat:30 (revision 801555b), Oath, error modifier"),
        ("cost-limit", "costLimits/pts"),
    ]


def test_a_category_constraint_is_where_the_force_entry_links_the_category() -> None:
    game_system, catalogues = _game()
    editor = Editor(game_system, catalogues, sources=SOURCES)
    editor.add_force("band")
    assert _rules(editor) == [
        ("data-constraint", "data: Skirmish.gst:12 (revision 7), Warband, constraint two-bands"),
        ("data-constraint", "data: Skirmish.gst:17 (revision 7), Leader, constraint one-leader")]


def test_a_message_modifier_without_an_id_is_at_its_entrys_line() -> None:
    game_system, catalogues = _game()
    editor = Editor(game_system, catalogues, sources=SOURCES)
    force, _ = editor.add_force("band")
    editor.select_entry(force, "chief")
    editor.select_entry(force, "oath")
    assert [(f.code, f.rule, f.message) for f in editor.findings()] == [
        ("data-constraint", "data: Skirmish.gst:12 (revision 7), Warband, constraint two-bands",
         "Warband: at least 2 such forces, 1 there"),
        ("data-error", "data: Raiders.cat:30 (revision 12), Oath, error modifier", "Oath: No oath with a chief")]


def test_data_without_lines_or_revisions_names_the_file_alone() -> None:
    """A file read from JSON has no lines; a file missing from ``sources`` keeps its ids."""
    game_system, catalogues = _game()
    catalogues = copy.deepcopy(catalogues)
    del catalogues[0]["selectionEntries"][4]["sourceLine"]  # the Drummer's (his constraint has none)
    editor = Editor(game_system, catalogues, sources={"cat": {"file": "Raiders.json", "revision": None}})
    force, _ = editor.add_force("band")
    editor.select_entry(force, "drummer")
    editor.select_entry(force, "drummer")
    assert _rules(editor) == [("data-constraint", "band/two-bands"), ("data-constraint", "band-leader/one-leader"),
                              ("data-constraint", "data: Raiders.json, Drummer, constraint one-drummer")]

"""The engine's API on a small game of our own: findings, what may be added, saving and loading."""

from __future__ import annotations

from typing import Any

from listbuilder.battlescribe.editor import Editor


def _game() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    game_system = {
        "id": "gs", "name": "Skirmish",
        "costTypes": [{"id": "pts", "name": "points", "defaultCostLimit": 100}],
        "categoryEntries": [{"id": "leader", "name": "Leader"}],
        "forceEntries": [{"id": "band", "name": "Warband",
                          "categoryLinks": [{"id": "band-leader", "targetId": "leader",
                                             "constraints": [{"id": "one-leader", "type": "min", "value": 1,
                                                              "field": "selections", "scope": "parent"}]}]}],
    }
    catalogue = {
        "id": "cat", "name": "Raiders", "gameSystemId": "gs",
        "sharedSelectionEntries": [{"id": "axe", "name": "Axe", "type": "upgrade", "collective": True,
                                    "costs": [{"typeId": "pts", "value": 2}]}],
        "selectionEntries": [
            {"id": "chief", "name": "Chief", "type": "model", "costs": [{"typeId": "pts", "value": 30}],
             "categoryLinks": [{"id": "chief-leader", "targetId": "leader", "primary": True}],
             "constraints": [{"id": "one-chief", "type": "max", "value": 1, "field": "selections", "scope": "roster"}]},
            {"id": "gang", "name": "Gang", "type": "unit",
             "selectionEntries": [{"id": "raider", "name": "Raider", "type": "model",
                                   "costs": [{"typeId": "pts", "value": 10}],
                                   "entryLinks": [{"id": "raider-axe", "targetId": "axe", "type": "selectionEntry"}],
                                   "constraints": [{"id": "two-raiders", "type": "min", "value": 2,
                                                    "field": "selections", "scope": "parent"}]}]},
        ],
    }
    return game_system, [catalogue]


def test_a_missing_leader_is_one_finding_on_the_category() -> None:
    editor = Editor(*_game())
    force, _ = editor.add_force("band")
    findings = editor.findings()
    assert [(f.code, f.rule) for f in findings] == [("data-constraint", "band-leader/one-leader")]
    editor.select_entry(force, "chief")
    assert editor.findings() == []


def test_a_second_chief_breaks_the_roster_limit_at_his_selection() -> None:
    editor = Editor(*_game())
    force, _ = editor.add_force("band")
    editor.select_entry(force, "chief")
    editor.select_entry(force, "chief")
    finding, = editor.findings()
    assert finding.rule == "cat:chief/one-chief"
    assert "at most 1" in finding.message and "2 taken" in finding.message
    assert finding.path[:2] == ("forces", 0)


def test_min_children_are_selected_and_collective_axes_follow_their_raiders() -> None:
    editor = Editor(*_game())
    force, _ = editor.add_force("band")
    editor.select_entry(force, "chief")
    gang, auto = editor.select_entry(force, "gang")
    raiders = gang.children[0]
    assert (raiders.option.name, raiders.number) == ("Raider", 2) and "raider" in auto
    editor.select_child_entry(raiders, "raider-axe")
    state = editor.state()
    gang_state = next(s for s in state["forces"][0]["selections"] if s["name"] == "Gang")
    axe = gang_state["children"][0]["children"][0]
    assert (axe["entryId"], axe["number"], axe["costs"][0]["value"]) == ("raider-axe::axe", 2, 4)
    assert state["costs"][0]["value"] == 30 + 20 + 4


def test_going_over_the_points_limit_is_a_cost_finding() -> None:
    editor = Editor(*_game())
    force, _ = editor.add_force("band")
    editor.select_entry(force, "chief")
    for _ in range(4):
        editor.select_entry(force, "gang")
    assert [f.code for f in editor.findings()] == ["cost-limit"]


def test_what_may_be_added_comes_with_its_cost() -> None:
    editor = Editor(*_game())
    force, _ = editor.add_force("band")
    offered = {entry["name"]: entry["costs"] for entry in editor.available(force)}
    assert offered == {"Chief": {"pts": 30.0}, "Gang": {}}


def test_an_entry_at_its_max_is_offered_as_full() -> None:
    game_system, catalogues = _game()
    catalogues[0]["selectionEntries"].append(
        {"id": "banner", "name": "Banner", "type": "upgrade",
         "constraints": [{"id": "one-banner", "type": "max", "value": 1, "field": "selections", "scope": "parent"}]})
    editor = Editor(game_system, catalogues)
    force, _ = editor.add_force("band")
    assert {e["name"]: e["full"] for e in editor.available(force)}["Banner"] is False
    editor.select_entry(force, "banner")
    assert {e["name"]: e["full"] for e in editor.available(force)}["Banner"] is True


def test_a_roster_survives_saving_and_loading() -> None:
    editor = Editor(*_game())
    force, _ = editor.add_force("band")
    editor.select_entry(force, "chief")
    gang, _ = editor.select_entry(force, "gang")
    editor.select_child_entry(gang.children[0], "axe")
    before = editor.state()
    assert editor.reload() == []
    after = editor.state()
    assert after["forces"][0]["selections"] == before["forces"][0]["selections"]
    assert after["costs"] == before["costs"]


def test_an_entry_the_data_no_longer_has_is_reported_not_guessed() -> None:
    editor = Editor(*_game())
    force, _ = editor.add_force("band")
    editor.select_entry(force, "chief")
    saved = editor.to_dict()
    saved["forces"][0]["selections"][0]["entryId"] = "gone"
    problems = editor.load(saved)
    assert [p.code for p in problems] == ["roster-unknown-entry"]
    assert editor.roster.forces[0].selections == []


def _pack_game() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Hounds, each of which may be made a pack leader: three of them in the army, one per hound (the
    shape of BSData's Houndpack Lance Character), and a standard every band starts with."""
    game_system = {"id": "gs", "name": "Skirmish", "forceEntries": [{"id": "band", "name": "Warband"}]}
    army = [{"id": "three-leaders", "type": "min", "value": 3, "field": "selections", "scope": "force",
             "includeChildSelections": True},
            {"id": "one-each", "type": "max", "value": 1, "field": "selections", "scope": "parent"}]
    catalogue = {
        "id": "cat", "name": "Hounds", "gameSystemId": "gs",
        "selectionEntries": [
            {"id": "standard", "name": "Standard", "type": "upgrade",
             "constraints": [{"id": "one-standard", "type": "min", "value": 1, "field": "selections",
                              "scope": "force"}]},
            {"id": "hound", "name": "Hound", "type": "model",
             "selectionEntries": [{"id": "leader", "name": "Pack Leader", "type": "upgrade", "constraints": army},
                                  {"id": "collar", "name": "Collar", "type": "upgrade",
                                   "constraints": [{"id": "a-collar", "type": "min", "value": 1,
                                                    "field": "selections", "scope": "parent"}]}]},
        ],
    }
    return game_system, [catalogue]


def test_a_min_in_the_whole_army_selects_nothing_under_a_unit() -> None:
    """Under a selection only mins within it are selected for the player: which three hounds lead
    is the player's choice, as New Recruit leaves it (40k D57); a root entry's min in the force
    is still met when the force is made (constraint-min-on-force-linked)."""
    editor = Editor(*_pack_game())
    force, auto = editor.add_force("band")
    assert [s.option.name for s in force.selections] == ["Standard"] and "standard" in auto
    hounds = [editor.select_entry(force, "hound")[0] for _ in range(3)]
    assert [[c.option.name for c in hound.children] for hound in hounds] == [["Collar"]] * 3
    assert [f.message for f in editor.findings()] == ["Pack Leader: at least 3 selections in the force, 0 taken"]
    for hound in hounds:
        editor.select_child_entry(hound, "leader")
    assert editor.findings() == []


def _trophy_game() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The Gang of `_game` with a group of trophies whose options have only maxima (one a roster's
    limit, in a group within the group), as BSData's Crusade groups under every unit."""
    game_system, (catalogue,) = _game()
    trophies = {"id": "trophies", "name": "Trophies", "selectionEntries": [
        {"id": "skull", "name": "Skull", "type": "upgrade",
         "constraints": [{"id": "one-skull", "type": "max", "value": 1, "field": "selections", "scope": "parent"}]}],
        "selectionEntryGroups": [{"id": "relics", "name": "Relics", "selectionEntries": [
            {"id": "crown", "name": "Crown", "type": "upgrade",
             "constraints": [{"id": "one-crown", "type": "max", "value": 1, "field": "selections",
                              "scope": "roster"}]}]}]}
    gang = next(e for e in catalogue["selectionEntries"] if e["id"] == "gang")
    gang["selectionEntryGroups"] = [trophies]
    return game_system, [catalogue]


def test_a_group_of_maxima_is_checked_once_one_of_its_options_is_taken() -> None:
    editor = Editor(*_trophy_game())
    force, _ = editor.add_force("band")
    editor.select_entry(force, "chief")
    gang, _ = editor.select_entry(force, "gang")
    assert editor.findings() == []
    checkable = editor.data.checkable(gang.option.children())
    assert [(group.group.id, sorted(group.ids)) for _, group in checkable.later] == [("trophies", ["crown", "skull"])]
    editor.select_child_entry(gang, "skull")
    assert editor.findings() == []
    editor.select_child_entry(gang, "skull")
    finding, = editor.findings()
    assert finding.rule == "cat:skull/one-skull" and "at most 1" in finding.message
    editor.deselect(gang.children[-1])
    other, _ = editor.select_entry(force, "gang")
    editor.select_child_entry(gang, "crown")
    assert editor.findings() == []
    editor.select_child_entry(other, "crown")
    finding, = editor.findings()
    assert finding.rule == "cat:crown/one-crown" and "2 taken" in finding.message

"""The engine on the BSData 40k snapshot: facts and rules the data states, checked through the
Editor. Every value here was read from the data by hand (the .cat files of the snapshot)."""

from __future__ import annotations

from typing import Any

from tests.battlescribe_real.army import (
    NECRONS,
    SPACE_MARINES,
    add,
    child,
    codes,
    configured_army,
    new_army,
    offered,
    points,
)

SM = "e0af-67df-9d63-8fb7"  # the Space Marines catalogue
NECRONS_ID = "b654-a18a-ea1-3bf2"
GLADIUS = "Gladius Task Force"


# -- Intercessor Squad: 5 models 80 pts, 10 models 160, Battleline, at most 6 in a roster ---------


def test_intercessor_squad_costs_80_for_5_models_and_160_for_10(bundle: dict[str, Any]) -> None:
    editor, force = configured_army(bundle, SPACE_MARINES, GLADIUS)
    add(editor, force, "Captain")
    squad = add(editor, force, "Intercessor Squad")
    intercessors = child(editor, squad, "Intercessor")
    assert [(c.option.name, c.number) for c in squad.children] == [("Intercessor Sergeant", 1), ("Intercessor", 4)]
    assert points(editor, squad) == 80
    editor.set_count(intercessors, 9)  # the Sergeant and nine: ten models
    assert points(editor, squad) == 160
    assert points(editor) == 80 + 160  # the Captain and the squad
    assert codes(editor) == []


def test_intercessor_squad_is_battleline(bundle: dict[str, Any]) -> None:
    editor, force = new_army(bundle, SPACE_MARINES)
    squad = add(editor, force, "Intercessor Squad")
    view = editor.evaluation.view(squad)
    assert view.primary_category == "e338-111e-d0c6-b687"
    assert [(c.name, c.primary) for c in view.categories if c.primary] == [("Battleline", True)]


def test_a_seventh_intercessor_squad_breaks_the_roster_limit_of_six(bundle: dict[str, Any]) -> None:
    editor, force = configured_army(bundle, SPACE_MARINES, GLADIUS)
    add(editor, force, "Captain")
    for _ in range(6):
        add(editor, force, "Intercessor Squad")
    assert codes(editor) == []
    add(editor, force, "Intercessor Squad")
    assert codes(editor) == [("data-constraint", f"{SM}:8da0-4570-c3c-819f/6cdb-3d8f-d424-ec3e",
                              "Intercessor Squad: at most 6 selections in the roster, 7 taken")]
    assert points(editor) == 80 + 7 * 80


# -- rule 1: a Captain-only Enhancement on a Lieutenant ---------------------------------------------
# The data hides Adept of the Codex (Gladius Task Force) unless an ancestor is a Captain.


def test_a_captain_only_enhancement_is_not_offered_to_a_lieutenant(bundle: dict[str, Any]) -> None:
    editor, force = configured_army(bundle, SPACE_MARINES, GLADIUS)
    lieutenant = add(editor, force, "Lieutenant")
    captain = add(editor, force, "Captain")
    offered_to = {name: {item["name"] for item in editor.available(holder)}
                  for name, holder in (("Lieutenant", lieutenant), ("Captain", captain))}
    gladius = {"Artificer Armour", "The Honour Vehement", "Fire Discipline"}
    assert offered_to["Lieutenant"] >= gladius and "Adept of the Codex" not in offered_to["Lieutenant"]
    assert offered_to["Captain"] >= gladius | {"Adept of the Codex"}


def test_a_lieutenant_given_a_captain_only_enhancement_gets_the_finding(bundle: dict[str, Any]) -> None:
    editor, force = configured_army(bundle, SPACE_MARINES, GLADIUS)
    lieutenant = add(editor, force, "Lieutenant")
    captain = add(editor, force, "Captain")
    enhancement, _ = editor.select_child_entry(lieutenant, "c0aa-7c93-7b8f-5585")  # Adept of the Codex
    assert codes(editor) == [("data-hidden", f"{SM}:9770-3a56-619e-f390::4bfa-543a-d74d-1db6::c0aa-7c93-7b8f-5585"
                              "/hidden", "Adept of the Codex is hidden and may not be taken")]
    assert points(editor) == 55 + 80 + 20
    editor.deselect(enhancement)
    editor.select_child_entry(captain, offered(editor, captain, "Adept of the Codex"))
    assert codes(editor) == []
    assert points(editor, captain) == 80 + 20


def test_an_enhancement_of_another_detachment_is_neither_offered_nor_allowed(bundle: dict[str, Any]) -> None:
    """A detachment's enhancements sit in a group the data hides unless that detachment is chosen."""
    editor, force = configured_army(bundle, SPACE_MARINES, GLADIUS)
    add(editor, force, "Captain")
    lieutenant = add(editor, force, "Lieutenant")
    assert "Tip of the Spear" not in {item["name"] for item in editor.available(lieutenant)}
    editor.select_child_entry(lieutenant, "189e-db08-cd33-9d34")  # Tip of the Spear, another detachment's
    assert [(code, message) for code, _, message in codes(editor)] == [
        ("data-hidden", "Tip of the Spear is hidden and may not be taken")]


# -- rule 2: Company Heroes need a Captain ---------------------------------------------------------
# Company Heroes: max 0 in the roster, set to 1 by one Captain (or a Chapter Master), 2 by two, ...


def test_company_heroes_without_a_captain_get_the_finding(bundle: dict[str, Any]) -> None:
    editor, force = configured_army(bundle, SPACE_MARINES, GLADIUS)
    add(editor, force, "Lieutenant")
    add(editor, force, "Company Heroes")
    rule = f"{SM}:2f2e-d99b-b235-163a/1852-2e76-ee7b-15aa"
    assert codes(editor) == [("data-constraint", rule, "Company Heroes: at most 0 selections in the roster, 1 taken")]
    add(editor, force, "Captain")
    assert codes(editor) == []
    assert points(editor) == 55 + 105 + 80
    add(editor, force, "Company Heroes")
    assert codes(editor) == [("data-constraint", rule, "Company Heroes: at most 1 selection in the roster, 2 taken")]


# -- rule 3: Necron Lychguard all with the same weapons ---------------------------------------------
# Each weapon choice adds the error "All models must have the same weapons" when the unit holds both.


def test_lychguard_with_mixed_weapons_get_the_finding(bundle: dict[str, Any]) -> None:
    editor, force = configured_army(bundle, NECRONS, "Awakened Dynasty")
    add(editor, force, "Overlord")
    unit = add(editor, force, "Lychguard")
    models = child(editor, unit, "Lychguard")
    assert (models.number, [c.option.name for c in models.children]) == (5, ["Warscythe"])
    assert codes(editor) == []
    editor.set_count(models, 4)
    odd_one = add(editor, unit, "Lychguard")
    editor.deselect(child(editor, odd_one, "Warscythe"))
    add(editor, odd_one, "Hyperphase sword and dispersion shield")
    message = "All models must have the same weapons"
    assert codes(editor) == [
        ("data-error", f"{NECRONS_ID}:423a-4db1-981-163/error", f"Warscythe: {message}"),
        ("data-error", f"{NECRONS_ID}:902b-16a7-8dcf-af6c::d28a-823-5ce2-8af4/error",
         f"Hyperphase sword and dispersion shield: {message}"),
    ]
    assert points(editor, unit) == 85


def test_lychguard_all_with_swords_and_shields_get_none(bundle: dict[str, Any]) -> None:
    editor, force = configured_army(bundle, NECRONS, "Awakened Dynasty")
    add(editor, force, "Overlord")
    unit = add(editor, force, "Lychguard")
    models = child(editor, unit, "Lychguard")
    editor.deselect(child(editor, models, "Warscythe"))
    add(editor, models, "Hyperphase sword and dispersion shield")
    editor.set_count(models, 10)
    assert codes(editor) == []
    assert points(editor, unit) == 170  # 6 models or more


# -- units shared through a library, shown by the force's own catalogue -----------------------------


def test_imperial_knights_are_offered_in_their_own_army(bundle: dict[str, Any]) -> None:
    """Knights live in a library the data shows only where the force's catalogue is Imperial Knights."""
    editor, force = new_army(bundle, "Imperium - Imperial Knights")
    names = {item["name"] for item in editor.available(force)}
    assert {"Knight Paladin", "Canis Rex", "Armiger Warglaive"} <= names


# -- a min the data raises once the unit's defaults are there ---------------------------------------


def test_an_inceptor_sergeant_takes_his_squads_assault_bolters(bundle: dict[str, Any]) -> None:
    """The Sergeant's Assault Bolters have a min of 0, set to 1 when the squad holds Assault Bolters,
    which the Inceptors are given after him: the second pass of automatic selection takes them."""
    editor, force = configured_army(bundle, SPACE_MARINES, GLADIUS)
    add(editor, force, "Captain")
    squad = add(editor, force, "Inceptor Squad")
    sergeant, inceptors = child(editor, squad, "Inceptor Sergeant"), child(editor, squad, "Inceptor")
    assert [c.option.name for c in sergeant.children] == ["Close combat weapon", "Assault Bolters"]
    assert (inceptors.number, [c.option.name for c in inceptors.children]) == (
        2, ["Close combat weapon", "Assault Bolters"])
    assert codes(editor) == []
    assert points(editor, squad) == 120


def test_a_wracks_acothyst_takes_one_set_of_tools(bundle: dict[str, Any]) -> None:
    """The Acothyst's weapon group asks for 2 until his default (the tools) is taken, then for 1:
    the Editor takes the default once, reading the min again after it."""
    editor, force = new_army(bundle, "Xenos - Drukhari")
    unit = add(editor, force, "Wracks")
    acothyst = child(editor, unit, "Acothyst")
    assert [(c.option.name, c.number) for c in acothyst.children] == [("Twin torturer's tools", 1)]
    assert [finding for finding in editor.findings() if finding.path[:len(unit.path())] == unit.path()] == []
    assert points(editor, unit) == 60

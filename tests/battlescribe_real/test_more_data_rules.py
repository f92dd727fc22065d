"""Seven more rules the BSData 40k snapshot states, each as a broken roster built with the Editor
and its fixed version: the broken one gets the exact finding the data states, the fixed one none.

Where each rule is written is given as `file:line` in the snapshot (wh40k-10e at 801555b). Only a
finding's code and message are asserted here, not its `rule` text."""

from __future__ import annotations

from typing import Any

from listbuilder.battlescribe import Editor
from listbuilder.battlescribe.roster import Force
from tests.battlescribe_real.army import NECRONS, add, child, configured_army, offered, points

AELDARI = "Xenos - Aeldari"
ASTRA_MILITARUM = "Imperium - Astra Militarum"
CHAOS_SPACE_MARINES = "Chaos - Chaos Space Marines"
TYRANIDS = "Xenos - Tyranids"


def found(editor: Editor) -> list[tuple[str, str]]:
    """Every finding as (code, message)."""
    return [(f.code, f.message) for f in editor.findings()]


def names(editor: Editor, container: Any) -> set[str]:
    return {item["name"] for item in editor.available(container)}


# -- 1. a Necron Overlord with a Cryptek-only Enhancement -------------------------------------------
# Necrons.cat:241-259: Dimensional Sanctum (Canoptek Court) is hidden when no ancestor is of the
# Cryptek category (notInstanceOf, scope ancestor, a98a-4cc0-5f02-e078, line 247).


def test_an_overlord_given_a_cryptek_only_enhancement_gets_the_finding(bundle: dict[str, Any]) -> None:
    editor, force = configured_army(bundle, NECRONS, "Canoptek Court")
    overlord = add(editor, force, "Overlord")
    technomancer = add(editor, force, "Technomancer")
    assert "Dimensional Sanctum" not in names(editor, overlord)
    assert "Dimensional Sanctum" in names(editor, technomancer)
    enhancement, _ = editor.select_child_entry(overlord, "8894-c0fc-28c4-1bb4")  # Dimensional Sanctum
    assert found(editor) == [("data-hidden", "Dimensional Sanctum is hidden and may not be taken")]
    editor.deselect(enhancement)
    add(editor, technomancer, "Dimensional Sanctum")
    assert found(editor) == []
    assert points(editor, child(editor, technomancer, "Dimensional Sanctum")) == 20


# -- 2. Devoted of Ynnead without Yvraine or the Yncarne as Warlord ---------------------------------
# Aeldari - Aeldari Library.cat:40399-40420: the detachment adds the error "You must select Yvraine
# or the Yncarne as Warlord" while the roster holds neither one's Warlord (links d02-9208-d67-6a5b on
# Yvraine, line 16045, and 3b73-0955-8953-153a on the Yncarne, line 12096).

YNNEAD = "You must select Yvraine or the Yncarne as Warlord"


def test_devoted_of_ynnead_with_a_farseer_as_warlord_gets_the_finding(bundle: dict[str, Any]) -> None:
    editor, force = configured_army(bundle, AELDARI, "Devoted of Ynnead")
    farseer = add(editor, force, "Farseer")
    farseer_warlord = add(editor, farseer, "Warlord")
    assert found(editor) == [("data-error", f"Devoted of Ynnead: {YNNEAD}")]
    yvraine = add(editor, force, "Yvraine")  # in the army, but not the Warlord: her own error too
    assert found(editor) == [("data-error", f"Devoted of Ynnead: {YNNEAD}"),
                             ("data-error", "Yvraine: Yvraine or The Yncarne must be Warlord")]
    editor.deselect(farseer_warlord)
    add(editor, yvraine, "Warlord")
    assert found(editor) == []


def test_devoted_of_ynnead_with_the_yncarne_as_warlord_gets_none(bundle: dict[str, Any]) -> None:
    editor, force = configured_army(bundle, AELDARI, "Devoted of Ynnead")
    add(editor, force, "Farseer")
    assert found(editor) == [("data-error", f"Devoted of Ynnead: {YNNEAD}")]
    yncarne = add(editor, force, "The Yncarne")
    add(editor, yncarne, "Warlord")
    assert found(editor) == []


# -- 3. a Farseer with a Shadowseer-only Enhancement ------------------------------------------------
# Aeldari - Aeldari Library.cat:42488-42513: Mistweave (Ghosts of the Webway) is hidden when its
# parent is not of the Shadowseer category (notInstanceOf, scope parent, d2c0-da0-5989-959c).


def test_a_farseer_given_a_shadowseer_only_enhancement_gets_the_finding(bundle: dict[str, Any]) -> None:
    editor, force = configured_army(bundle, AELDARI, "Ghosts of the Webway")
    farseer = add(editor, force, "Farseer")
    shadowseer = add(editor, force, "Shadowseer")
    assert "Mistweave" not in names(editor, farseer) and "Mistweave" in names(editor, shadowseer)
    enhancement, _ = editor.select_child_entry(farseer, "5d21-7924-d79b-3be1")  # Mistweave
    assert found(editor) == [("data-hidden", "Mistweave is hidden and may not be taken")]
    editor.deselect(enhancement)
    editor.select_child_entry(shadowseer, offered(editor, shadowseer, "Mistweave"))
    assert found(editor) == []


# -- 4. both Commissar Graves entries ---------------------------------------------------------------
# Imperium - Astra Militarum - Library.cat:35958-35995: Commissar Graves on Foot adds the error
# "Cannot take Commissar Graves and Commissar Graves on Foot in the same list." while the force
# holds both (Commissar Graves, his mounted datasheet, is line 35738). Each alone has a max of 1.

GRAVES = "Cannot take Commissar Graves and Commissar Graves on Foot in the same list."


def test_both_commissar_graves_entries_get_the_finding(bundle: dict[str, Any]) -> None:
    editor, force = configured_army(bundle, ASTRA_MILITARUM, "Combined Arms")
    mounted = add(editor, force, "Commissar Graves")
    assert found(editor) == []
    add(editor, force, "Commissar Graves on Foot")
    assert found(editor) == [("data-error", f"Commissar Graves on Foot: {GRAVES}")]
    editor.deselect(mounted)
    assert found(editor) == []


# -- 5. Cults of the Dark Gods over their points cap ------------------------------------------------
# Chaos - Chaos Space Marines.cat:70-96: the hidden category Cults of the Dark Gods has a max of 0
# pts in the force (line 94), set to 250, 500 or 750 by the battle size (lines 72-86); Khorne
# Berzerkers, Rubric Marines and Plague Marines carry it (their links, lines 250-264). The force
# entry does not link the category: the engine checked no constraint of it until it read a
# category entry's own constraints wherever the force's selections carry it.

CULTS = "Cults of the Dark Gods: at most 500 pts in the force, 555 taken"


def cult_army(bundle: dict[str, Any]) -> tuple[Editor, Force]:
    editor, force = configured_army(bundle, CHAOS_SPACE_MARINES, "Veterans of the Long War")
    add(editor, force, "Chaos Lord")
    return editor, force


def test_cults_of_the_dark_gods_over_500_pts_in_a_strike_force_get_the_finding(bundle: dict[str, Any]) -> None:
    editor, force = cult_army(bundle)
    cults = [add(editor, force, name) for name in ("Khorne Berzerkers", "Rubric Marines", "Plague Marines")]
    assert [points(editor, unit) for unit in cults] == [180, 100, 95]
    assert found(editor) == []  # 375 pts
    extra = add(editor, force, "Khorne Berzerkers")
    assert found(editor) == [("data-constraint", CULTS)]
    editor.deselect(extra)
    assert found(editor) == []


# -- 6. Berzerkers in the Renegade Warband detachment -----------------------------------------------
# Chaos - Chaos Space Marines.cat:16731-16747: Khorne Berzerkers are hidden when the force holds the
# Renegade Warband detachment (2cf4-ac9c-5417-10ac, line 3086) and is not a Crusade Force; in a
# Crusade Force the data only warns (lines 16748-16757).


def test_berzerkers_in_a_renegade_warband_get_the_finding(bundle: dict[str, Any]) -> None:
    editor, force = configured_army(bundle, CHAOS_SPACE_MARINES, "Renegade Warband")
    add(editor, force, "Chaos Lord")
    assert "Khorne Berzerkers" not in names(editor, force)
    berzerkers, _ = editor.select_entry(force, "674f-31c8-6604-450")  # the catalogue's link to them
    assert found(editor) == [("data-hidden", "Khorne Berzerkers is hidden and may not be taken")]
    editor.deselect(berzerkers)
    assert found(editor) == []


def test_berzerkers_in_another_detachment_get_none(bundle: dict[str, Any]) -> None:
    editor, force = cult_army(bundle)
    assert "Khorne Berzerkers" in names(editor, force)
    add(editor, force, "Khorne Berzerkers")
    assert found(editor) == []


# -- 7. Mucolid Spores taken as standalone units ----------------------------------------------------


def test_mucolid_spores_of_a_sporocyst_without_one_get_the_finding(bundle: dict[str, Any]) -> None:
    """The data does not forbid Mucolid Spores as standalone units: its Mucolid Spores datasheet
    (Tyranids.cat:3990-4033, a root entry, line 76) is 1 or 2 models at 30 pts each, at most 3 in a
    roster (line 4019), hidden only in Boarding Actions. What it forbids is the Sporocyst's own
    spores without a Sporocyst: Mucolid Spores (Sporocyst) (lines 9237-9280, no points, at most 1)
    is hidden while the roster holds nothing of the Sporocyst category (line 9274)."""
    editor, force = configured_army(bundle, TYRANIDS, "Invasion Fleet")
    add(editor, force, "Hive Tyrant")
    assert "Mucolid Spores (Sporocyst)" not in names(editor, force)
    seeded, _ = editor.select_entry(force, "4d65-b3c0-b075-e79e")  # Mucolid Spores (Sporocyst)
    assert found(editor) == [("data-hidden", "Mucolid Spores (Sporocyst) is hidden and may not be taken")]
    add(editor, force, "Sporocyst")
    assert "Mucolid Spores (Sporocyst)" in names(editor, force)
    assert found(editor) == []
    assert [(c.option.name, c.number) for c in seeded.children] == [("Mucolid Spore", 1)]


def test_standalone_mucolid_spores_are_legal_up_to_three(bundle: dict[str, Any]) -> None:
    editor, force = configured_army(bundle, TYRANIDS, "Invasion Fleet")
    add(editor, force, "Hive Tyrant")
    spores = [add(editor, force, "Mucolid Spores") for _ in range(3)]
    assert [points(editor, unit) for unit in spores] == [30, 30, 30]
    assert found(editor) == []
    add(editor, force, "Mucolid Spores")
    assert found(editor) == [("data-constraint", "Mucolid Spores: at most 3 selections in the roster, 4 taken")]

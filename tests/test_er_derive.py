"""Epic Remastered derived data sheets (seed 004 L2317-2338): Example 28 exactly, then one test per
data sheet modifier in the order the seed describes them."""

import pytest

from listbuilder.games.epic_remastered.derive import derive
from listbuilder.games.epic_remastered.models import UnitSheet
from listbuilder.games.epic_remastered.rules import data_of

IMPERIAL_GUARD = UnitSheet(name="Imperial Guard", type="INF", speed="10/20 cm", range="30 cm", firepower=1, assault=1,
                           armour="3+", source="L2334")
SPACE_MARINES = UnitSheet(name="Space Marines", type="INF", speed="10/20 cm", range="30 cm", firepower=1, assault=3,
                          armour="5+", abilities=["Rapid Fire", "Stubborn"], source="L498")


@pytest.fixture(scope="module")
def book(catalog):
    return data_of(catalog).find("core-samples").book


def derived(*abilities, base=IMPERIAL_GUARD):
    """The columns of a unit made from `base` plus `abilities`, as printed."""
    unit = UnitSheet(name="Derived", base=base.name, abilities=list(abilities), source="test")
    return derive(unit, base)


def columns(*abilities, base=IMPERIAL_GUARD):
    return derived(*abilities, base=base).profile.printed()


def test_example_28_rough_riders_exactly(book):
    riders = book.derived("Imperial Guard Rough Riders")
    assert riders.profile.printed() == {"Type": "VEH", "Speed": "20/30 cm", "Range": "15 cm", "Firepower": "1",
                                        "Assault": "2", "Armour": "4+"}
    assert riders.profile.abilities == ("Cavalry", "Armour +1", "Assault")  # the notes of Table 9
    # Table 9's rows, one per modifier with the values it changed
    assert [(s.ability, s.changed) for s in riders.steps] == [
        ("Cavalry", {"Type": "VEH", "Speed": "20/30 cm"}),
        ("Armour +1", {"Armour": "4+"}),
        ("Assault", {"Range": "15 cm", "Assault": "2"}),
    ]


def test_armour_plus_one():  # L2386-2388
    assert columns("Armour +1")["Armour"] == "4+"


def test_armour_never_better_than_six_plus():  # L1442
    land_raider = UnitSheet(name="Land Raider", type="VEH", armour="6+", source="L4497")
    assert columns("Armour +1", base=land_raider)["Armour"] == "6+"


def test_assault_plus_one():  # L2428-2430
    assert columns("Assault +1")["Assault"] == "2"


def test_assault():  # L2440-2443
    assert columns("Assault") == {**columns(), "Assault": "2", "Range": "15 cm"}


@pytest.mark.parametrize("order", [("Assault", "Heavy Weapons"), ("Heavy Weapons", "Assault")])
def test_assault_with_heavy_weapons_is_one_change(order):  # L2445-2448, whichever is written first
    # Space Marines: Assault 3 halved is 1.5, +1 is 2.5, rounded up 3; Range 45 cm; Heavy Weapons' Firepower +1
    assert columns(*order, base=SPACE_MARINES) == {**columns(base=SPACE_MARINES), "Assault": "3", "Range": "45 cm",
                                                   "Firepower": "2"}


def test_cavalry():  # L2475-2479, Example 32
    assert columns("Cavalry") == {**columns(), "Type": "VEH", "Speed": "20/30 cm"}


def test_cavalry_works_from_the_first_speed_of_a_single_speed_base():
    beast = UnitSheet(name="Beast", type="INF", speed="15 cm", source="test")
    assert columns("Cavalry", base=beast)["Speed"] == "30/45 cm"


def test_firepower_plus_one():  # L2564-2566
    assert columns("Firepower +1")["Firepower"] == "2"


def test_has_super_heavy_weapon(book):  # L2590-2598, Example 33: the Leman Russ Vanquisher
    assert book.derived("Leman Russ").profile.firepower == 3
    vanquisher = book.derived("Leman Russ Vanquisher")
    assert vanquisher.profile.firepower == "Macro-weapon"
    assert vanquisher.profile.type == "VEH"


def test_heavy_weapons(book):  # L2612-2616: the Devastators of Force Cantro
    devastators = book.derived("Space Marine Devastators")
    assert devastators.profile.printed() == {"Type": "INF", "Speed": "10/20 cm", "Range": "45 cm", "Firepower": "2",
                                             "Assault": "2", "Armour": "5+"}
    assert devastators.notes == ("cannot use Rapid Fire: it has Heavy Weapons (L2909)",)


def test_hero():  # L2626-2629
    hero = derived("Hero")
    assert hero.profile.assault == 2
    assert "Save" in hero.profile.abilities


def test_jump_packs_added():  # L2739-2748, Example 35: Swooping Hawks from Aspect Warriors
    aspect_warriors = UnitSheet(name="Aspect Warriors", speed="15/30 cm", source="L2748")
    assert columns("Jump Packs", base=aspect_warriors)["Speed"] == "30/45 cm"


def test_jump_packs_built_into_the_base_change_nothing():  # L2731-2735
    crisis = UnitSheet(name="Crisis Battlesuit", speed="20/30 cm", abilities=["Jump Packs"], source="L3886")
    assert columns("Jump Packs", base=crisis)["Speed"] == "20/30 cm"


def test_long_range():  # L2786-2788
    assert columns("Long Range")["Range"] == "45 cm"


def test_short_range():  # L2949-2951
    assert columns("Short Range")["Range"] == "15 cm"


def test_support():  # L3011-3015
    support = derived("Support")
    assert support.profile.printed() == {**columns(), "Range": "15 cm", "Firepower": "2"}
    assert "Close Support" in support.profile.abilities


def test_support_keeps_a_firepower_above_two():
    leman_russ = UnitSheet(name="Leman Russ", type="VEH", firepower=3, source="L2598")
    assert columns("Support", base=leman_russ)["Firepower"] == "3"


def test_a_value_the_data_leaves_out_stays_unknown_unless_a_modifier_sets_it():
    unknown = UnitSheet(name="Scouts", source="L581")
    assert columns("Firepower +1", "Long Range", "Armour +1", base=unknown) == {
        "Type": "", "Speed": "", "Range": "", "Firepower": "", "Assault": "", "Armour": ""}
    assert columns("Assault", base=unknown)["Range"] == "15 cm"


def test_modifiers_apply_in_the_order_written():  # DECISIONS.md: order of modifiers
    assert columns("Assault +1", "Hero")["Assault"] == "4"  # (1 + 1) x 2
    assert columns("Hero", "Assault +1")["Assault"] == "3"  # 1 x 2 + 1


def test_an_upgrade_adds_its_abilities_to_the_unit(book):  # L2305: a Primaris Psyker
    squad = book.derived("Imperial Guard Command Squad", ("Psyker",))
    assert squad.profile.abilities == ("Psyker",)
    assert squad.profile.printed() == book.derived("Imperial Guard").profile.printed()


def test_a_base_units_own_modifiers_are_already_in_its_values():  # L2307, L2733-2735
    warboss = UnitSheet(name="Warboss", type="INF", assault=3, abilities=["Hero", "Save"], source="test")
    assert derive(warboss, None).profile.assault == 3  # not doubled again
    assert derive(warboss, None, ["Assault +1"]).profile.assault == 4  # an upgrade still applies

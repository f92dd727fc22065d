"""The whole BSData snapshot (../shared/fixtures/bsdata) imports, and facts from it come out right.

The expected values are those its README lists, or read off the snapshot's files by hand.
"""

import pytest


@pytest.fixture(scope="module")
def catalog(bsdata):
    return bsdata.catalog


def unit(catalog, faction, name):
    found = catalog.unit_named(catalog.faction(faction), name)
    assert found is not None, f"{name} not in {faction}"
    return found


def test_all_46_catalogues_import_without_an_error(bsdata):
    assert bsdata.errors == []
    assert bsdata.catalog.summary.catalogues == 46
    assert len(bsdata.catalog.factions) == 36  # the catalogues that are not libraries
    assert bsdata.catalog.data_revision == "801555b"


def test_battle_sizes_come_from_the_game_system(catalog):
    assert [(b.name, b.points) for b in catalog.system.battle_sizes] == [
        ("Incursion", 1000), ("Strike Force", 2000), ("Onslaught", 3000)]


def test_intercessor_squad(catalog):
    squad = unit(catalog, "Space Marines", "Intercessor Squad")
    assert (squad.points_for(5), squad.points_for(10), squad.points_for(11)) == (80, 160, None)
    assert squad.battleline and squad.max_in_army == 6
    assert squad.faction_keywords == ["Adeptus Astartes"]
    sergeant = next(p for p in squad.profiles if p.name == "Intercessor Sergeant")
    assert (sergeant.toughness, sergeant.save, sergeant.wounds, sergeant.objective_control) == ("4", "3+", "2", "2")
    rifle = next(w for w in squad.weapons if w.name == "Bolt Rifle")
    assert rifle.kind == "ranged" and rifle.skill == "3+"
    assert "Bolt Rifle" in next(m for m in squad.models if m.name == "Intercessor").default_wargear


def test_stacked_set_modifiers_last_applicable_wins(catalog):
    destroyers = unit(catalog, "Necrons", "Lokhust Destroyers")
    assert [destroyers.points_for(n) for n in (2, 3, 4, 5, 6)] == [60, 90, 180, 180, 180]


def test_a_unit_priced_per_model(catalog):
    spyders = unit(catalog, "Necrons", "Canoptek Spyders")
    assert spyders.priced_per_model
    assert spyders.points_for(2) == 2 * spyders.points_for(1) > 0


def test_leader_lists_in_each_textual_form(catalog):
    def targets(faction, name):
        return {t.name: t.condition for t in unit(catalog, faction, name).leader.units}

    captain = targets("Space Marines", "Captain")  # ■ lines, footnote stars
    assert captain["Intercessor Squad"] is None
    assert "relic shield" in captain["Bladeguard Veteran Squad"]
    assert set(targets("Necrons", "Chronomancer")) == {"Immortals", "Necron Warriors"}  # ■ IN CAPITALS
    assert "Crisis Sunforge Battlesuits" in targets("T'au Empire", "Commander in Coldstar Battlesuit")  # - **^^x^^**
    assert set(targets("Necrons", "Overlord")) == {"Immortals", "Lychguard", "Necron Warriors"}  # comma-separated


def test_second_leaders_and_bodyguard_permissions(catalog):
    assert unit(catalog, "Necrons", "Chronomancer").leader.alongside == ["Royal Warden", "Noble"]
    assert "Lieutenant" in unit(catalog, "Space Marines", "Apothecary").leader.alongside
    assert unit(catalog, "Death Guard", "Biologus Putrifier").leader.alongside_any
    carnivores = unit(catalog, "T'au Empire", "Kroot Carnivores").bodyguard
    assert (carnivores.max_leaders, carnivores.max_leaders_from) == (2, 20)


def test_leader_lists_name_datasheets(catalog):
    names = {u.name for u in catalog.units.values()}
    targets = [t.name for u in catalog.units.values() if u.leader for t in u.leader.units]
    matched = sum(name in names for name in targets)
    assert len(targets) > 1000 and matched / len(targets) > 0.9


def test_necron_enhancements_belong_to_their_detachments(catalog):
    detachments = {d.name: d for d in catalog.faction("Necrons").detachments}
    awakened = {e.name: e for e in detachments["Awakened Dynasty"].enhancements}
    assert awakened["Veil of Darkness"].points == 20
    assert awakened["Veil of Darkness"].restrictions == "NECRONS model only"
    assert "Veil of Darkness" not in {e.name for e in detachments["Annihilation Legion"].enhancements}
    assert all(len(d.enhancements) == 4 for name, d in detachments.items() if name != "Pantheon of Woe")


def test_a_chapter_sees_its_own_detachments_and_epic_heroes(catalog):
    blood_angels, space_marines = catalog.faction("Blood Angels"), catalog.faction("Space Marines")
    assert "The Angelic Host" in {d.name for d in blood_angels.detachments}
    assert "The Angelic Host" not in {d.name for d in space_marines.detachments}
    assert "Gladius Task Force" in {d.name for d in blood_angels.detachments}
    dante = unit(catalog, "Blood Angels", "Commander Dante")
    assert dante.epic_hero and dante.character
    assert catalog.unit_named(space_marines, "Commander Dante") is None
    assert blood_angels.faction_keyword == "Adeptus Astartes"


def test_the_drop_pod_takes_its_armys_faction_keyword(bsdata, catalog):
    space_marines = catalog.faction("Space Marines")
    pod = unit(catalog, "Space Marines", "Drop Pod")
    assert pod.faction_keywords == [] and pod.dedicated_transport
    assert catalog.faction_keywords_of(space_marines, pod) == ["Adeptus Astartes"]
    assert catalog.faction_keywords_of(catalog.faction("Blood Angels"), pod) == ["Adeptus Astartes"]
    [note] = [f for f in bsdata.findings if f.code == "bsdata-faction-supplied" and "Drop Pod has" in f.message]
    assert note.location.file == "Imperium - Space Marines.cat" and note.location.line > 1
    assert "12" in pod.transport


def test_what_was_left_out_is_counted(bsdata):
    assert bsdata.left_out["wargear option rules (units keep their default loadout)"] > 1000
    assert bsdata.catalog.summary.wargear_rules_left_out == \
        bsdata.left_out["wargear option rules (units keep their default loadout)"]


def test_wargear_limits_per_unit_are_read_or_counted_by_why(bsdata, catalog):
    """D24, D25: each constraint and error message that may limit a weapon per unit is read or
    counted, once per datasheet."""
    counted = {kind.removeprefix("wargear limits per unit left out: "): n for kind, n in bsdata.left_out.items()
               if kind.startswith("wargear limits per unit")}
    assert counted == {"counted in something other than the unit (a model, another datasheet)": 34,
                       "not counting what the unit's models take": 2,
                       "raised by a modifier on more than the unit's size": 13,
                       "on only some of the ways to a weapon": 73}
    # of 123 error messages (counted per datasheet), 65 are read and these left out
    messages = {kind.removeprefix("wargear rules stated as error messages left out: "): n
                for kind, n in bsdata.left_out.items() if kind.startswith("wargear rules stated as error")}
    assert messages == {"under conditions on more than the unit's size and the selections of its entry": 58}
    limited = [(u.name, limit.weapon) for u in catalog.units.values() for limit in u.wargear_limits]
    assert len(limited) == 120 and sum(1 for u in catalog.units.values() if u.wargear_limits) == 40
    assert ("Intercessor Squad", "Astartes grenade launcher") in limited


def test_limits_on_several_weapons_are_read_together_where_sound_and_counted_where_not(bsdata, catalog):
    """D26: of the 53 limits D24 and D25 read (per datasheet) whose entry gives more than one weapon,
    on 21 datasheets, 47 have fewer than two weapons that come only through them, 2 may give a model
    two of their weapons in one selection (a Legionary with an other weapon, through no plain choice;
    a Wolf Guard Terminator with an assault cannon and a power fist, both his by default), and 4 are
    read, 3 of them tighter than their weapons' own limits added up (the Voidscarred's heavy weapons
    are 0 each below 10 models, and no limit at 10)."""
    counted = {kind.removeprefix("wargear limits on several weapons together left out: "): n
               for kind, n in bsdata.left_out.items() if kind.startswith("wargear limits on several weapons")}
    assert counted == {"its weapons also come other ways": 47, "one selection may give a model two of its weapons": 2}
    together = sorted((u.name, limit.weapons, limit.most[5]) for u in catalog.units.values()
                      for limit in u.wargear_group_limits)
    assert together == [("Chaos Terminator Squad", ["Heavy flamer", "Reaper autocannon"], 1),
                        ("Chaos Terminators", ["Heavy flamer", "Reaper autocannon"], 1),
                        ("Proteus Kill Team [Legends]", ["Frag Cannon", "Infernus heavy bolter"], 2)]


@pytest.mark.parametrize("faction, name, weapon, most", [
    # more than 2, or more than 1 below 10 models (two condition groups under an `or`)
    ("Drukhari", "Wracks", "hexrifle", {**dict.fromkeys(range(5, 10), 1), 10: 2}),
    # more than 3 below 20 models, more than 2 below 15
    ("World Eaters", "Khorne Berzerkers", "khornate-eviscerator",
     {**dict.fromkeys(range(10, 15), 2), **dict.fromkeys(range(15, 20), 3), 20: 4}),
    # "Squad size must be 10": any below 10 models
    ("Aeldari", "Corsair Voidscarred", "fusion-pistol", {**dict.fromkeys(range(5, 10), 0), 10: 10}),
    # the models and the entry counted without child selections (the unit selects its models itself)
    ("Deathwatch", "Deathwatch Veterans", "frag-cannon", {**dict.fromkeys(range(5, 10), 1), 10: 10}),
])
def test_error_messages_on_unit_size_and_their_own_entry_are_read_in_each_shape(catalog, faction, name, weapon, most):
    """D25 on the snapshot: the most carriers at each unit size that raise none of the data's messages."""
    assert catalog.unit_named(catalog.faction(faction), name).limits[weapon].most == most


def test_every_enhancement_finds_its_detachment(bsdata, catalog):
    assert bsdata.left_out["enhancements without a detachment"] == 0
    salamanders = {d.name: d for d in catalog.faction("Salamanders").detachments}
    # a group named after its detachment, without the word "Enhancements"
    assert len(salamanders["Forgefather's Seekers"].enhancements) == 4
    assert "Forgefather's Seekers" not in {d.name for d in catalog.faction("Space Marines").detachments}


def test_boarding_actions_detachments_are_not_matched_play(catalog):
    tyranids = {d.name for d in catalog.faction("Tyranids").detachments}
    assert "Boarding Swarm" not in tyranids and "Invasion Fleet" in tyranids


def test_points_that_depend_on_the_models_taken_are_reported_where_they_are(bsdata):
    varying = [f for f in bsdata.findings if f.code == "bsdata-points-vary"]
    assert any("Outrider Squad" in f.message for f in varying)
    assert all(f.location.line for f in varying)


def test_a_choice_of_whole_compositions_gives_only_those_sizes(catalog):
    shock_troops = unit(catalog, "Astra Militarum", "Cadian Shock Troops")  # "1 + 9" or "2 + 18"
    assert [s.models for s in shock_troops.sizes] == [10, 20]
    assert {m.name: (m.min, m.max) for m in shock_troops.models}["Shock Trooper Sergeant"] == (1, 2)


def test_a_constraint_scoped_by_its_groups_id_bounds_the_models(catalog):
    headtakers = unit(catalog, "Space Wolves", "Wolf Guard Headtakers")
    assert {m.name: (m.min, m.max) for m in headtakers.models}["Wolf Guard Headtakers"] == (3, 6)
    assert headtakers.sizes[0].models == 3


def test_plain_wargear_choices_are_imported_and_conditioned_ones_left_out(bsdata, catalog):
    choices = {c.name: c for c in unit(catalog, "Space Marines", "Intercessor Squad").wargear_choices}
    weapon_2 = choices["Weapon 2"]
    assert weapon_2.model == "Intercessor Sergeant" and "Power fist" in weapon_2.options
    assert (weapon_2.default, weapon_2.min, weapon_2.max) == (["Close combat weapon"], 1, 1)
    assert "Weapon 1" not in choices  # one option brings a grenade launcher limited per unit

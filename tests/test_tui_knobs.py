"""The editor's settings (knobs) without a screen: what each formation offers, and the roster
entry each step, toggle or pick produces. Formations and costs are those of
lists/epic-armageddon/codex-astartes.yaml and titan-legions.yaml."""

from __future__ import annotations

import pytest

from listbuilder.games import validate
from listbuilder.listengine import edits
from listbuilder.listengine.knobs import knobs_for, mix_step, offers, refusal
from listbuilder.listengine.roster import CharacterPick, Roster, RosterFormation
from listbuilder.tui.history import History


def roster_of(*formations: RosterFormation) -> Roster:
    return Roster(game="epic-armageddon", army="codex-astartes", points=3000, formations=list(formations))


def knobs(catalog, entry: RosterFormation):
    roster = roster_of(entry)
    built = validate(roster, catalog).formations[0]
    return {k.key: k for k in knobs_for(built, entry)}


@pytest.mark.parametrize("counts, target, delta, total, expected", [
    ({}, "A", 1, 4, {"A": 4}),  # an empty mix becomes all of the unit stepped
    ({"A": 4}, "B", 1, 4, {"A": 3, "B": 1}),  # a unit added is taken from another
    ({"A": 3, "B": 1}, "B", -1, 4, {"A": 4}),  # a unit removed goes to the next name
    ({"A": 1}, "A", 1, 4, {"A": 2}),  # a mix short of its total is only stepped
    ({"A": 0, "B": 4}, "A", -1, 4, None),  # nothing to take away
    ({"A": 4}, "A", 1, 4, None),  # nothing left to take from
])
def test_mix_step_keeps_the_total(counts, target, delta, total, expected):
    assert mix_step(counts, ["A", "B"], target, delta, total) == expected


def test_a_tactical_detachment_offers_exactly_its_upgrades(catalog):
    offered = knobs(catalog, RosterFormation(type="Tactical"))
    assert list(offered) == [("transport",), ("upgrades", "Commander", "character"), ("upgrades", "Dreadnought"),
                             ("upgrades", "Razorbacks"), ("upgrades", "Hunter"), ("upgrades", "Vindicator")]
    assert [c.label for c in offered[("transport",)].choices] == ["Rhino", "on foot", "Drop Pod"]
    assert [(c.label, c.cost) for c in offered[("upgrades", "Commander", "character")].choices] == [
        ("none", ""), ("Captain", "+50"), ("Librarian", "+50"), ("Chaplain", "+50"), ("Supreme Commander", "+100")]


def test_steps_write_counts_flags_options_and_characters(catalog):
    entry = RosterFormation(type="Tactical")
    offered = knobs(catalog, entry)
    with_dreadnought = offered[("upgrades", "Dreadnought")].step(entry, 1)
    assert with_dreadnought.upgrades == {"Dreadnought": 1}
    assert offered[("upgrades", "Hunter")].toggle(entry).upgrades == {"Hunter": 1}
    captain = offered[("upgrades", "Commander", "character")].pick(entry, "Captain")
    assert captain.upgrades == {"Commander": CharacterPick(character="Captain", joins="Tactical")}
    assert offered[("transport",)].pick(entry, "Drop Pod").transport == "Drop Pod"
    # one fewer than one is none: the upgrade goes
    assert knobs(catalog, with_dreadnought)[("upgrades", "Dreadnought")].step(with_dreadnought, -1).upgrades == {}
    # the joined unit can be changed once a character is chosen (here the Dreadnought)
    both = captain.model_copy(update={"upgrades": {**captain.upgrades, "Dreadnought": 1}})
    joins = knobs(catalog, both)[("upgrades", "Commander", "joins")]
    assert joins.hosts == ("Tactical", "Dreadnought", "Rhino")
    assert joins.pick(both, "Dreadnought").upgrades["Commander"].joins == "Dreadnought"


def test_option_counts_flags_and_counts_per_formation(catalog):
    speeders = RosterFormation(type="Land Speeder")
    typhoon = knobs(catalog, speeders)[("upgrades", "Tornado/Typhoon", "Typhoon")]
    assert (typhoon.kind, typhoon.cost) == ("step", "+25 each")
    assert typhoon.step(speeders, 1).upgrades == {"Tornado/Typhoon": {"Typhoon": 1}}
    scouts = RosterFormation(type="Scout")
    sniper = knobs(catalog, scouts)[("upgrades", "Sniper")]
    assert (sniper.kind, sniper.cost, sniper.toggle(scouts).upgrades) == ("toggle", "+50", {"Sniper": True})
    warhounds = RosterFormation(type="Warhound Titans")
    count = knobs(catalog, warhounds)[("count",)]
    assert (count.value, count.cost) == ("1", "1: 275 / 2: 500")
    assert count.step(warhounds, 1).count == 2
    assert count.step(warhounds, -1) is None  # at least one Warhound
    two = RosterFormation(type="Warhound Titans", count=2)
    assert knobs(catalog, two)[("count",)].step(two, 1) is None  # at most two


def test_compositions_and_wargear_keep_their_totals(catalog):
    predators = RosterFormation(type="Predators")
    offered = knobs(catalog, predators)
    annihilators = offered[("composition", "Predator Annihilator")].step(predators, 1)
    assert annihilators.composition == {"Predator Annihilator": 4}
    mixed = knobs(catalog, annihilators)[("composition", "Predator Destructor")].step(annihilators, 1)
    assert mixed.composition == {"Predator Annihilator": 3, "Predator Destructor": 1}
    # a mix written the short way is read and rewritten in place
    short = RosterFormation(type="Predators", composition={"Annihilator": 2, "Destructor": 2})
    assert knobs(catalog, short)[("composition", "Predator Destructor")].value == "2"
    assert knobs(catalog, short)[("composition", "Predator Destructor")].step(short, 1).composition == {
        "Annihilator": 1, "Destructor": 3}
    tactical = RosterFormation(type="Tactical", upgrades={"Dreadnought": 2})
    loadouts = [k for k in knobs(catalog, tactical).values() if k.key[0] == "wargear"]
    assert [k.key[2] for k in loadouts] == ["Missile Launcher and Twin Lascannon", "Power Fist and Assault Cannon"]
    all_fists = loadouts[1].step(tactical, 1)
    assert all_fists.wargear == {"Dreadnought": "Power Fist and Assault Cannon"}
    split = knobs(catalog, all_fists)[("wargear", "Dreadnought", "Missile Launcher and Twin Lascannon")].step(
        all_fists, 1)
    assert split.wargear == {"Dreadnought": {"Missile Launcher and Twin Lascannon": 1,
                                             "Power Fist and Assault Cannon": 1}}
    assert validate(roster_of(split), catalog).valid


def test_what_the_formation_does_not_offer_can_only_be_removed(catalog):
    entry = RosterFormation(type="Scout", upgrades={"Hunter": 1, "Sniper": True}, wargear={"Rhino": "Twin Bolter"})
    offered = knobs(catalog, entry)
    hunter, rhino = offered[("upgrades", "Hunter")], offered[("wargear", "Rhino")]
    assert (hunter.kind, rhino.kind) == ("clear", "clear")
    assert hunter.toggle(entry).upgrades == {"Sniper": True}
    assert rhino.toggle(entry).wargear == {}


def test_edits_keep_the_order_and_spelling_the_player_wrote(catalog):
    entry = RosterFormation(type="Tactical", upgrades={"dreadnought": 1, "Hunter": 1})
    more = knobs(catalog, entry)[("upgrades", "Dreadnought")].step(entry, 1)
    assert list(more.upgrades.items()) == [("dreadnought", 2), ("Hunter", 1)]


def test_refusal_asks_the_engine(catalog):
    roster = roster_of(RosterFormation(type="Tactical", upgrades={"Dreadnought": 2}))
    before = validate(roster, catalog)
    entry = roster.formations[0]
    three = entry.model_copy(update={"upgrades": {"Dreadnought": 3}})
    blocked = refusal(before, 0, three, catalog)
    assert blocked is not None and blocked.code == "quantity-out-of-range" and "3 Dreadnoughts taken" in blocked.message
    assert refusal(before, 0, entry, catalog) is None
    # Razorbacks: no more than the detachment needs to ride (six Tactical, a Razorback carries one)
    assert refusal(before, 0, entry.model_copy(update={"upgrades": {"Razorbacks": 6}}), catalog) is None
    seven = refusal(before, 0, entry.model_copy(update={"upgrades": {"Razorbacks": 7}}), catalog)
    assert seven is not None and seven.code == "transport-excess"


def test_offers_list_every_formation_with_its_price(catalog):
    view = catalog.view("epic-armageddon", "codex-astartes")
    found = {o.name: o for o in offers(view)}
    assert (found["Tactical"].points, found["Tactical"].contents) == ("300 pts", "6 Tactical")
    assert found["Warhound Titans"].is_ally and found["Warhound Titans"].points == "275 / 500 pts"
    rangers = {o.name: o for o in offers(catalog.view("epic-armageddon", "biel-tan"))}["Ranger Troupe"]
    assert rangers.points == "25 pts each"          # never '25 each pts'
    assert found["Predators"].contents == "4 of Predator Annihilator / Predator Destructor"


def test_roster_edits_and_history():
    roster = roster_of(RosterFormation(type="Tactical"), RosterFormation(type="Scout"))
    history = History(roster)
    copied = edits.duplicate_formation(roster, 0)
    assert [f.type for f in copied.formations] == ["Tactical", "Tactical", "Scout"]
    assert copied.formations[1] is not copied.formations[0]
    assert [f.type for f in edits.move_formation(roster, 0, 5).formations] == ["Scout", "Tactical"]
    assert edits.relabel_formation(roster, 1, "  ").formations[1].label is None
    assert history.push(copied, "duplicate", 1) and not history.push(copied, "again", 1)
    assert history.undo().what == "duplicate" and history.current == roster and history.undo() is None
    assert history.redo().focus == 1 and history.current == copied and not history.can_redo


def guard_knobs(catalog, army: str, entry: RosterFormation):
    roster = Roster(game="epic-armageddon", army=army, points=3000, formations=[entry])
    built = validate(roster, catalog).formations[0]
    return {k.key: k for k in knobs_for(built, entry)}


def test_any_formation_upgrades_reach_allied_formations(catalog):
    offered = guard_knobs(catalog, "steel-legion", RosterFormation(type="Warhound Titans"))
    assert ("upgrades", "Commissar", "character") in offered
    assert [c.label for c in offered[("upgrades", "Commissar", "character")].choices] == ["none", "Commissar"]


def test_fixed_bundles_toggle_and_alike_options_step_as_a_whole(catalog):
    entry = RosterFormation(type="Infantry Company")
    offered = guard_knobs(catalog, "steel-legion", entry)
    ogryns = offered[("upgrades", "Ogryns")]
    assert ogryns.kind == "toggle"
    assert ogryns.toggle(entry).upgrades == {"Ogryns": 2}
    demolishers = offered[("upgrades", "Tank Squadron", "Demolisher")].step(entry, 1)
    assert demolishers.upgrades == {"Tank Squadron": {"Demolisher": 3}}
    written = RosterFormation(type="Infantry Company", upgrades={"Tank Squadron": "Demolisher"})
    assert guard_knobs(catalog, "steel-legion", written)[("upgrades", "Tank Squadron", "Demolisher")].value == "3"


def test_a_sapper_platoon_can_be_shared_out(catalog):
    entry = RosterFormation(type="Sapper Platoon")
    share = guard_knobs(catalog, "baran-siegemasters", entry)[("split",)]
    assert (share.kind, share.value) == ("toggle", "no")
    shared = share.toggle(entry)
    assert shared.split is True
    assert guard_knobs(catalog, "baran-siegemasters", shared)[("split",)].toggle(shared).split is False


def test_an_upgrade_of_several_characters_offers_one_pick_at_a_time(catalog):
    entry = RosterFormation(type="Aspect Warrior Warhost", composition={"Dire Avengers": 8})
    offered = guard_knobs(catalog, "biel-tan", entry)
    first = offered[("upgrades", "Exarchs", "character", "1")]
    one = first.pick(entry, "Exarch")
    assert one.upgrades == {"Exarchs": [CharacterPick(character="Exarch", joins="Dire Avengers")]}
    offered = guard_knobs(catalog, "biel-tan", one)
    assert ("upgrades", "Exarchs", "joins", "1") in offered
    two = offered[("upgrades", "Exarchs", "character", "2")].pick(one, "Autarch")
    assert [p.character for p in two.upgrades["Exarchs"]] == ["Exarch", "Autarch"]
    assert ("upgrades", "Exarchs", "character", "3") not in guard_knobs(catalog, "biel-tan", two)  # two at most
    removed = guard_knobs(catalog, "biel-tan", two)[("upgrades", "Exarchs", "character", "1")].pick(two, None)
    assert [p.character for p in removed.upgrades["Exarchs"]] == ["Autarch"]


def test_a_formation_offers_its_sizes_and_factions(catalog):
    # ghazghkull-warhorde.yaml: a Warband is 200, big 350, 'uge 500; black-legion.yaml: five powers.
    warband = RosterFormation(type="Warband")
    size = guard_knobs(catalog, "ghazghkull-warhorde", warband)[("size",)]
    assert [(c.label, c.cost) for c in size.choices] == [("normal", "200"), ("big", "350"), ("'uge", "500")]
    assert size.value == "normal"
    assert size.pick(warband, "big").size == "big"
    retinue = RosterFormation(type="Black Legion Retinue")
    faction = guard_knobs(catalog, "black-legion", retinue)[("faction",)]
    assert [c.label for c in faction.choices] == ["Khorne", "Nurgle", "Slaanesh", "Tzeentch", "Undivided"]
    assert faction.value == "—"   # not declared yet, which the findings say
    assert faction.pick(retinue, "Nurgle").faction == "Nurgle"

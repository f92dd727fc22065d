"""A 40k unit's `wargear` against what its datasheet offers (DECISIONS.md D23), on the BSData
snapshot (../shared/fixtures/bsdata). The expected numbers are read off `Imperium - Space
Marines.cat` by hand: an Intercessor Squad is 1 Intercessor Sergeant and 4-9 Intercessors, up to 2
of them with a grenade launcher (each lowers the Intercessors' minimum by one); only the Sergeant's
options offer a plasma pistol, and his Weapon 2 choice (one of five) a power fist or thunder
hammer. A Tactical Squad of 10 has one Marine with a special weapon and one with a heavy or
special weapon. A Sternguard Veteran Squad of exactly 10 may have a second special weapon model
(a modifier raises that model's maximum). Limits per unit (D24): the Intercessor Squad's grenade
launcher, on both of its ways (the launcher Intercessors' and the Sergeant's bolt rifle with one),
carries `max 2 in the unit` and, below 10 models, the error message "Max 1 {this} per 5 models" once
there are more than 1 (D25); Termagants' strangleweb is `max 0` and one more per 10 models."""

import pytest

from listbuilder.core.names import name_key
from listbuilder.games import validate
from listbuilder.games.wh40k10.catalog import Unit, weapon_name
from listbuilder.games.wh40k10.roster import Wh40kRoster, Wh40kUnit
from listbuilder.games.wh40k10.rules import by_size
from listbuilder.listengine.catalog import Catalog
from listbuilder.rosters.files import parse_roster

START = "game: wh40k-10e\nfaction: Space Marines\nbattle_size: Strike Force\ndetachment: Gladius Task Force\n"


@pytest.fixture(scope="module")
def data(bsdata):
    return bsdata.catalog


def findings(data, unit: str, start: str = START):
    """The wargear findings of a roster of a Captain (the Warlord) and one unit (a YAML flow mapping)."""
    catalog = Catalog(installed={"wh40k-10e": data})
    text = start + "units:\n  - {type: Captain, warlord: true}\n  - " + unit + "\n"
    return [f for f in validate(parse_roster(text, "r", catalog).roster, catalog).findings if "wargear" in f.code]


def unit(data, name):
    return data.unit_named(data.faction("Space Marines"), name)


def test_the_import_records_who_may_carry_what_and_how_many_of_each(data):
    squad = unit(data, "Intercessor Squad")
    models = {m.name: m for m in squad.models}
    sergeant, intercessor, launcher = (models[n] for n in (
        "Intercessor Sergeant", "Intercessor", "Intercessor w/ Grenade Launcher"))
    assert {"Plasma pistol", "Hand flamer", "Power fist", "Bolt Rifle"} <= set(sergeant.wargear)
    assert set(intercessor.wargear) == {"Bolt Rifle", "Bolt pistol", "Close combat weapon"}
    assert [(m.fewest, m.most) for m in (sergeant, intercessor, launcher)] == [(1, 1), (0, 9), (0, 2)]
    assert squad.carriers[name_key("Plasma pistol")] == [sergeant]
    assert squad.carriers[name_key("Astartes grenade launcher")] == [sergeant, launcher]
    weapon_2 = next(c for c in squad.wargear_choices if c.name == "Weapon 2")
    # his close combat weapon is Weapon 2's default; a power weapon and chainsword are Weapon 1 options too
    assert weapon_2.exclusive == ["Close combat weapon", "Power fist", "Thunder Hammer"]
    special = next(m for m in unit(data, "Sternguard Veteran Squad").models if "Special" in m.name)
    assert (special.max, special.most) == (1, None)


def test_a_legal_loadout_stays_legal(data):
    assert findings(data, "{type: Intercessor Squad, models: 5, wargear: "
                          "{Plasma pistol: 1, Power fist: 1, Astartes grenade launcher: 1}}") == []
    assert findings(data, "{type: Intercessor Squad, models: 10, wargear: {Astartes grenade launcher: 2}}") == []
    assert findings(data, "{type: Tactical Squad, models: 10, wargear: {Flamer: 1, Plasma gun: 1, Boltgun: 8}}") == []


def test_a_plasma_pistol_for_every_intercessor_is_one_finding_with_the_numbers(data):
    [finding] = findings(data, "{type: Intercessor Squad, models: 5, wargear: {Plasma pistol: 5}}")
    assert finding.code == "wargear-not-allowed" and finding.path == ("units", 1, "wargear", "Plasma pistol")
    assert finding.message == ("5 models of Intercessor Squad carry Plasma pistol, but at most 1 of its 5 may: "
                               "only its Intercessor Sergeant (1) may take it")
    assert finding.suggestion == "give it to at most 1: `Plasma pistol: 1`"
    assert finding.rule == "Intercessor Squad datasheet (Datasheets 6-7: Unit Composition, Wargear Options)"


def test_kinds_of_model_bound_a_weapon_together_and_by_what_the_others_leave(data):
    [launchers] = findings(data, "{type: Intercessor Squad, models: 10, wargear: {Astartes grenade launcher: 4}}")
    assert "at most 3 of its 10 may: only its Intercessor Sergeant (1) and Intercessor w/ Grenade Launcher " \
           "(up to 2) may take it" in launchers.message
    # A Sergeant and 9 Marines all keep their boltguns when the two weapon models are not taken.
    assert findings(data, "{type: Tactical Squad, models: 10, wargear: {Boltgun: 10}}") == []


def test_more_carriers_than_models_stays_the_one_wargear_count_finding(data):
    assert [f.code for f in findings(data, "{type: Intercessor Squad, models: 5, wargear: {Plasma pistol: 6}}")] == [
        "wargear-count"]


def test_weapons_only_one_choice_gives_count_together(data):
    [hammers] = findings(data, "{type: Intercessor Squad, models: 5, wargear: {Power fist: 1, Thunder Hammer: 1}}")
    assert hammers.message == ("Intercessor Squad has 1 Power fist + 1 Thunder Hammer, but these come only from the "
                               "Weapon 2 choice of its Intercessor Sergeant (1 model, 1 each): at most 1 in all")
    assert hammers.path[-1] == "Thunder Hammer"
    [guns] = findings(data, "{type: Tactical Squad, models: 10, wargear: {Flamer: 1, Meltagun: 1, Lascannon: 1}}")
    assert guns.code == "wargear-not-allowed" and guns.message.endswith(": at most 2 in all")
    assert "Weapon choice of its Tactical Marine w/Heavy or Special Weapon (1 model, 1 each)" in guns.message
    # two lascannons are refused alone (one model may take one); the flamer and meltagun left fit
    [lascannons] = findings(data, "{type: Tactical Squad, models: 10, wargear: {Lascannon: 2, Flamer: 1, Meltagun: 1}}")
    assert lascannons.path[-1] == "Lascannon" and "at most 1 of its 10 may" in lascannons.message


def test_what_the_data_does_not_bound_is_never_flagged(data):
    # The Sternguard's second special weapon model comes from a modifier: only the unit bounds it.
    assert findings(data, "{type: Sternguard Veteran Squad, models: 10, wargear: "
                          "{Pyrecannon: 1, Sternguard Heavy Bolter: 1}}") == []
    # Limits that count within something else than the unit are no limits per unit: the only
    # constraint on the Legionaries' plasma pistol counts within the Aspiring Champion's model.
    legionaries = data.unit_named(data.faction("Chaos Space Marines"), "Legionaries")
    assert "plasma-pistol" not in legionaries.limits and "flamer" in legionaries.limits
    # An error message that counts anything but the unit's size and its own entry is not read: the
    # Beserks' "Max 1 twin concussion gauntlets per 5 models" is raised at exactly 2, not at 3.
    beserks = data.unit_named(data.faction("Leagues of Votann"), "Cthonian Beserks")
    assert "twin-concussion-gauntlets" not in beserks.limits
    # A Breachers' demolition charge is given by the unit's own entries, outside any model.
    breachers = data.unit_named(data.faction("Astra Militarum"), "Imperial Navy Breachers")
    assert breachers.shared_wargear == ["Demolition charge"] and breachers.carriers["demolition-charge"] is None
    # A catalog imported before the import recorded who carries what: only the unit's size bounds.
    squad = unit(data, "Intercessor Squad")
    older = Unit.model_validate(squad.model_dump() | {"models": [  # not model_copy: it keeps cached properties
        m.model_copy(update={"wargear": None}) for m in squad.models]})
    assert all(kinds is None for kinds in older.carriers.values())
    older_data = data.model_copy(update={"units": {**data.units, squad.id: older}})
    found = findings(older_data, "{type: Intercessor Squad, models: 5, wargear: {Plasma pistol: 5}}")
    # ... which a warning says, once, with the way to a full check: the roster stays legal
    assert [(f.code, f.severity, f.path, f.suggestion) for f in found] == [
        ("wargear-unchecked", "warning", ("units", 1, "wargear"),
         "import your BSData copy again: listbuilder data import bsdata PATH")]
    assert "1 unit is checked only against unit sizes" in found[0].message
    # ... and one imported before limits per unit were recorded checks none, and says so
    unlimited = Unit.model_validate(squad.model_dump() | {"wargear_limits": None})
    found = findings(data.model_copy(update={"units": {**data.units, squad.id: unlimited}}),
                     "{type: Intercessor Squad, models: 5, wargear: {Astartes grenade launcher: 3}}")
    assert [(f.code, f.severity) for f in found] == [("wargear-unchecked", "warning")]
    assert found[0].message == ("the installed data does not record the limits per unit on the wargear of Intercessor "
                                "Squad (it was imported by an earlier listbuilder): the wargear of 1 unit is checked "
                                "without limits per unit")


def test_a_limit_per_unit_is_one_finding_with_the_numbers(data):
    # `max 2` in the unit, and "Max 1 {this} per 5 models" raised below 10 models past 1 (D25)
    assert unit(data, "Intercessor Squad").limits["astartes-grenade-launcher"].most == {
        **dict.fromkeys(range(5, 10), 1), 10: 2}
    [launchers] = findings(data, "{type: Intercessor Squad, models: 5, wargear: {Astartes grenade launcher: 2}}")
    assert (launchers.code, launchers.path) == ("wargear-not-allowed",
                                                ("units", 1, "wargear", "Astartes grenade launcher"))
    assert launchers.message == ("2 models of Intercessor Squad carry Astartes grenade launcher, but its datasheet "
                                 "allows at most 1 in a unit of 5 models (1 at 5-9 models, 2 at 10 models)")
    assert launchers.suggestion == "give it to at most 1: `Astartes grenade launcher: 1`, or field 10 models"
    assert launchers.rule == "Intercessor Squad datasheet (Datasheets 6-7: Unit Composition, Wargear Options)"
    [three] = findings(data, "{type: Intercessor Squad, models: 10, wargear: {Astartes grenade launcher: 3}}")
    assert three.code == "wargear-not-allowed" and three.message == (
        "3 models of Intercessor Squad carry Astartes grenade launcher, but its datasheet allows at most 2 in a unit "
        "of 10 models (1 at 5-9 models, 2 at 10 models)")
    assert three.suggestion == "give it to at most 2: `Astartes grenade launcher: 2`"
    # refused by the kinds of model that may carry it, it is not refused a second time by the limit
    [kinds] = findings(data, "{type: Intercessor Squad, models: 10, wargear: {Astartes grenade launcher: 4}}")
    assert "only its Intercessor Sergeant (1) and" in kinds.message


def test_a_limit_counts_an_entry_once_however_many_ways_lead_to_it(data):
    guard = data.faction("Astra Militarum")
    # the Goad lance rider's and the Sergeant's lance are one entry, limited by `set 1 below 10 models`
    riders = data.unit_named(guard, "Attilan Rough Riders")
    assert riders.limits["goad-lance"].most == {**dict.fromkeys(range(5, 10), 1), 10: 2}
    # a kind of model the unit selects directly counts without its child selections
    assert data.unit_named(guard, "Kasrkin").limits["meltagun"].most == {10: 2}


CHAOS = ("game: wh40k-10e\nfaction: Chaos Space Marines\nbattle_size: Strike Force\n"
         "detachment: Veterans of the Long War\n")
TERMINATORS = "{type: Chaos Terminator Squad, models: %d, wargear: {%s}}"


def test_weapons_limited_together_are_one_finding_over_the_limit_and_legal_at_it(data):
    """D26: a Chaos Terminator Squad's heavy weapon model is "Max 1 per 5 models" below 10 (D25) and
    takes one of a heavy flamer and a reaper autocannon (its plain choice), which no other model has."""
    squad = data.unit_named(data.faction("Chaos Space Marines"), "Chaos Terminator Squad")
    assert [(g.weapons, g.most) for g in squad.wargear_group_limits] == [
        (["Heavy flamer", "Reaper autocannon"], {**dict.fromkeys(range(5, 10), 1), 10: 10})]
    [both] = findings(data, TERMINATORS % (5, "Heavy flamer: 1, Reaper autocannon: 1"), CHAOS)
    assert (both.code, both.path) == ("wargear-not-allowed", ("units", 1, "wargear", "Reaper autocannon"))
    assert both.message == ("Chaos Terminator Squad has 1 Heavy flamer + 1 Reaper autocannon, but its datasheet "
                            "allows at most 1 of Heavy flamer and Reaper autocannon together in a unit of 5 models "
                            "(1 at 5-9 models, any at 10 models)")
    assert both.suggestion == "take at most 1 of Heavy flamer, Reaper autocannon in all, or field 10 models"
    assert both.rule == "Chaos Terminator Squad datasheet (Datasheets 6-7: Unit Composition, Wargear Options)"
    assert findings(data, TERMINATORS % (5, "Reaper autocannon: 1"), CHAOS) == []
    assert findings(data, TERMINATORS % (10, "Heavy flamer: 1, Reaper autocannon: 1"), CHAOS) == []
    # a catalog imported before these were recorded checks what it did, each weapon by its own
    # limit, and says once that it checks no more; the data's own rules still find that no placement
    # on the unit's models carries both (D50)
    older = Unit.model_validate(squad.model_dump(exclude={"wargear_group_limits"}))
    older_data = data.model_copy(update={"units": {**data.units, squad.id: older}})
    [unchecked, alternatives] = findings(older_data, TERMINATORS % (5, "Heavy flamer: 1, Reaper autocannon: 1"),
                                         CHAOS)
    assert (alternatives.code, alternatives.path[-1]) == ("data-wargear-alternatives", "Heavy flamer")
    assert (unchecked.code, unchecked.severity, unchecked.message) == (
        "wargear-unchecked", "warning", "the installed data does not record the limits on several weapons together of "
        "Chaos Terminator Squad (it was imported by an earlier listbuilder): the wargear of 1 unit is checked without "
        "limits on several weapons together")
    assert [(f.code, f.path[-1]) for f in findings(older_data, TERMINATORS % (5, "Heavy flamer: 2"), CHAOS)] == [
        ("wargear-not-allowed", "Heavy flamer"), ("wargear-unchecked", "wargear")]


def test_a_weapon_over_its_own_limit_is_refused_alone_and_left_out_of_the_shared_count(data):
    [flamers] = findings(data, TERMINATORS % (5, "Heavy flamer: 2, Reaper autocannon: 1"), CHAOS)
    assert flamers.path[-1] == "Heavy flamer" and "allows at most 1 in a unit of 5 models" in flamers.message
    # over a choice's bound (its 2 heavy weapon models, 1 each) and the data's shared limit alike: the
    # shared limit's one finding, with the sizes
    [over] = findings(data, "{type: Chaos Terminators, models: 10, wargear: {Heavy flamer: 2, Reaper autocannon: 1}}",
                      CHAOS.replace("Chaos Space Marines", "World Eaters"))
    assert over.message.endswith("at most 2 of Heavy flamer and Reaper autocannon together in a unit of 10 models "
                                 "(1 at 5-9 models, 2 at 10 models)")


def test_weapons_one_selection_gives_together_are_not_summed(data):
    # A Wolf Guard Terminator with an assault cannon (at most 1 below 10 models) also has its power
    # fist: one model carries both, so 1 + 1 is legal.
    wolves = data.unit_named(data.faction("Space Wolves"), "Wolf Guard Terminators")
    assert wolves.wargear_group_limits == []
    assert findings(data, "{type: Wolf Guard Terminators, models: 5, wargear: {Assault Cannon: 1, Power fist: 1}}",
                    START.replace("Space Marines", "Space Wolves")) == []


TYRANIDS = "game: wh40k-10e\nfaction: Tyranids\nbattle_size: Strike Force\ndetachment: Invasion Fleet\n"


@pytest.mark.parametrize("models, allowed", [(10, 1), (20, 2)])
def test_a_limit_per_so_many_models_at_two_unit_sizes(data, models, allowed):
    termagants = data.unit_named(data.faction("Tyranids"), "Termagants")
    assert termagants.limits["strangleweb"].most == {**dict.fromkeys(range(10, 20), 1), 20: 2}
    unit = "{type: Termagants, models: %d, wargear: {Strangleweb: %d}}"
    assert findings(data, unit % (models, allowed), TYRANIDS) == []
    [over] = findings(data, unit % (models, allowed + 1), TYRANIDS)
    assert over.code == "wargear-not-allowed" and over.message == (
        f"{allowed + 1} models of Termagants carry Strangleweb, but its datasheet allows at most {allowed} in a unit "
        f"of {models} models (1 at 10-19 models, 2 at 20 models)")
    assert over.suggestion == f"give it to at most {allowed}: `Strangleweb: {allowed}`" + (
        ", or field 20 models" if models == 10 else "")


def test_the_firm_bounds_are_never_tighter_than_the_priced_compositions(data):
    """Every kind of model of every datasheet: `fewest` no more than the least of it in a priced
    size, `most` (where set) no less than the most; and the fewest of all kinds fit the smallest size."""
    for each in data.units.values():
        for model in each.models:
            assert model.fewest <= model.min and (model.most is None or model.most >= model.max), (each.name, model)
        assert sum(m.fewest for m in each.models) <= each.min_models, each.name


def loadout(each, pick: int | None) -> dict[str, int]:
    """A datasheet's kinds of model at their least, each carrying its defaults, or with every
    imported choice made the same way on all of them (`pick`: which option other than the
    default), as weapon name -> models carrying it."""
    weapons = {name_key(weapon_name(w.name)): weapon_name(w.name) for w in each.weapons}
    carried: dict[str, int] = {}
    for model in each.models:
        kept = {name_key(w) for w in model.default_wargear}
        for choice in (c for c in each.wargear_choices if c.model == model.name and pick is not None):
            others = [o for o in choice.options if o not in choice.default] or choice.options
            kept = kept - {name_key(d) for d in choice.default} | {name_key(others[pick % len(others)])}
        for weapon in kept & weapons.keys():
            if model.min:
                carried[weapons[weapon]] = carried.get(weapons[weapon], 0) + model.min
    return carried


@pytest.mark.parametrize("pick, every", [pytest.param(None, 1, marks=pytest.mark.slow), (0, 8),  # the suite: 1 in 8
                                         pytest.param(0, 1, marks=pytest.mark.slow),
                                         pytest.param(-1, 1, marks=pytest.mark.slow)])  # each a sweep of every unit
def test_every_datasheets_default_and_chosen_loadouts_pass(data, pick, every):
    """Every unit whose kinds of model at their least make its smallest size, with its default
    loadout or each plain choice made on every model of its kind: no wargear finding (the bounds
    never refuse what the data allows). Each unit once, in a roster of the first faction that has
    it under its name alone; `every` other one of them, where the sweep is sampled."""
    catalog = Catalog(installed={"wh40k-10e": data})
    seen: set[str] = set()
    checked = 0
    for faction in data.factions:
        units = [u for u in data.units_of(faction) if u.id not in seen and data.unit_named(faction, u.name) is u
                 and sum(m.min for m in u.models) == u.min_models]
        seen |= {u.id for u in units}
        units = units[::every]
        roster = Wh40kRoster(game="wh40k-10e", faction=faction.name, battle_size="Onslaught", detachment="-",
                             units=[Wh40kUnit(type=u.name, models=u.min_models, wargear=loadout(u, pick))
                                    for u in units])
        refused = [f.message for f in validate(roster, catalog).findings if "wargear" in f.code]
        assert refused == [], faction.name
        checked += sum(1 for unit in roster.units if unit.wargear)
    assert checked > 400 // every


def test_a_limit_by_unit_size_reads_any_where_the_unit_is_no_larger():
    """The sizes a finding lists: equal limits joined, and a limit of the unit's own size or more
    (none, in effect) read as 'any' rather than '10 at 10 models'."""
    assert by_size({5: 1, 6: 1, 9: 1, 10: 2}) == "1 at 5-9 models, 2 at 10 models"
    assert by_size({5: 1, 9: 1, 10: 10, 11: 11}) == "1 at 5-9 models, any at 10-11 models"

"""The 40k roster as the BattleScribe engine's selection tree (games/wh40k10/engine_roster.py),
on the BSData snapshot: every roster that loads keeps loading and keeps its points (each faction's
first example and one in three after it by default, all under `-m slow`)."""

from pathlib import Path

import pytest

from listbuilder.battlescribe.model import as_list
from listbuilder.games.wh40k10.engine_roster import selection_tree
from listbuilder.games.wh40k10.rules import find_faction, validate
from listbuilder.listengine.catalog import Catalog
from listbuilder.rosters.files import read_roster

from .sampling import one_in

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = sorted([*(ROOT / "tests" / "wh40k-rosters").glob("*/*.yaml"), ROOT / "benchmarks" / "strike-force-2000.yaml"])
POINTS = "pts"


@pytest.fixture(scope="module")
def catalog(bsdata):
    return Catalog(installed={"wh40k-10e": bsdata.catalog})


def tree_of(path, catalog):
    roster = read_roster(path, catalog).roster
    data = catalog.imported("wh40k-10e", roster.faction)
    [faction] = find_faction(data, roster.faction)
    return roster, selection_tree(roster, data, faction, data.engine_data(faction))


def points_of(tree, selection):
    cost = next(c for c in tree.editor.data.cost_types() if c.get("name") == POINTS)
    return tree.editor.evaluation.total_costs(selection)[str(cost["id"])]


# Where the data's modifiers price a unit otherwise in this army than the import's table does
# (D37): the Vindicare Assassin (110, +15) and the Inquisitor (55, +10) in an army whose primary catalogue is not
# the Agents of the Imperium (Imperium - Agents of the Imperium.cat: its entry's points modifier).
PRICED_HERE = {("legal-vindicare.yaml", 1): 15, ("legal-agents.yaml", 2): 10}


@pytest.mark.parametrize("path", one_in(3, ROSTERS), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_roster_keeps_loading_and_its_points_in_the_selection_tree(catalog, path):
    """Each unit costs in the engine what the import's table says at its model count, with its
    Enhancement, but where the data prices it otherwise in this army."""
    roster, tree = tree_of(path, catalog)
    result = validate(roster, catalog)
    assert sorted(tree.units) == [c.index for c in result.units]
    table = {c.index: c.unit.points_for(c.models) + (c.enhancement.points if c.enhancement else 0)
             + PRICED_HERE.get((path.name, c.index), 0) for c in result.units}
    unplaced = {place[1] for place, _, _ in tree.unplaced if place[2] == "enhancement"}
    assert {c.index: tree.points(tree.units[c.index]) for c in result.units} == {
        i: points - (result.units[i].enhancement.points if i in unplaced else 0) for i, points in table.items()}
    assert {c.index: c.points for c in result.units} == table


def test_which_constraints_can_break_is_read_alike_wherever_an_entry_is_offered(catalog):
    """The data keeps `Option.breakable` per entry and link (docs/speed.md, the check as a process,
    part 4): every option offered, three levels down from the Necrons' root entries, reads what its
    own constraints say, its link's among them, also where one entry is linked at several places
    with constraints of their own."""
    _, tree = tree_of(ROOT / "benchmarks" / "strike-force-2000.yaml", catalog)
    options = list(tree.editor.data.root_options(tree.force.catalogue_id))
    constrained_links: dict[int, set[int]] = {}
    for _ in range(3):
        for option in options:
            assert option.breakable == [str(c.get("type")) for c in option.constraints if option.can_break(c)]
            if option.link is not None and as_list(option.link, "constraints"):
                constrained_links.setdefault(id(option.node), set()).add(id(option.link))
        options = [child for option in options for child in option.children()]
    assert any(len(links) > 1 for links in constrained_links.values())


def test_a_catalog_installed_without_the_engines_data_says_the_datas_rules_went_unchecked(bsdata, tmp_path,
                                                                                       monkeypatch):
    """An install by an earlier listbuilder (no engine data beside the catalog): the muster rules
    are checked and one warning says the data's own rules were not, never a silent LEGAL."""
    from listbuilder.games.wh40k10.importing.installed import install, load_installed
    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path))
    install(bsdata.catalog, bsdata.left_out)
    catalog = Catalog(load_installed=load_installed)
    roster = read_roster(ROOT / "tests" / "wh40k-rosters" / "necrons" / "illegal-dimensional-sanctum.yaml",
                         catalog).roster
    result = validate(roster, catalog)
    assert [(f.code, f.severity, f.path) for f in result.findings] == [
        ("data-rules-unchecked", "warning", ("faction",))]
    assert result.valid and result.tree is None


def test_data_an_earlier_importer_installed_is_checked_with_one_warning_to_import_it_again(
        bsdata, bsdata_bundle, tmp_path, monkeypatch, capsys):
    """D53: data installed before the importer recorded its version (such as one that still took
    other factions' detachments, D49) is checked, with one warning saying to import it again; `data
    list` says so under it. What this importer installs is stamped, and not warned of."""
    from listbuilder.cli import main
    from listbuilder.games.wh40k10.catalog import IMPORTER_VERSION
    from listbuilder.games.wh40k10.importing.installed import install, installed, load_installed
    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path))
    assert bsdata.catalog.importer == IMPORTER_VERSION
    install(bsdata.catalog.model_copy(update={"importer": 0}), bsdata.left_out, bsdata_bundle)
    roster = read_roster(ROOT / "tests" / "wh40k-rosters" / "space-marines" / "legal-gladius.yaml",
                         Catalog(load_installed=load_installed)).roster
    result = validate(roster, Catalog(load_installed=load_installed))
    assert [(f.code, f.severity, f.path, f.suggestion) for f in result.findings] == [
        ("data-imported-earlier", "warning", ("faction",),
         "import your BSData copy again: listbuilder data import bsdata PATH")]
    assert result.valid and result.tree is not None  # checked all the same, the data's own rules too
    assert main(["data", "list"]) == 0
    assert "imported by an earlier listbuilder" in capsys.readouterr().out
    install(bsdata.catalog, bsdata.left_out, bsdata_bundle)  # imported again: that version replaced (D41)
    assert [v.imported_earlier for v in installed()] == [False]
    assert validate(roster, Catalog(load_installed=load_installed)).findings == []
    assert main(["data", "list"]) == 0
    assert "imported by an earlier listbuilder" not in capsys.readouterr().out


def test_an_event_waives_a_data_rule_by_its_id(catalog, tmp_path):
    """Data has bugs; organisers decide: an event file's `waive` names a rule of the data by the id
    its finding cites. Its finding stays on the report as a warning saying so, and the roster is
    legal for it; the rules it does not name still apply."""
    from listbuilder.core.event import Event
    from listbuilder.rosters.batch import check_file, read_event

    roster = ROOT / "tests" / "wh40k-rosters" / "chaos-space-marines" / "illegal-cults-points.yaml"
    [cults] = check_file(roster, catalog).findings
    assert (cults.code, cults.rule) == ("data-constraint", "data: Chaos - Chaos Space Marines.cat:94 (revision "
                                        "801555b), Cults of the Dark Gods, constraint b9a6-1702-143b-322e")
    event_file = tmp_path / "event.yaml"
    event_file.write_text("name: Grand Tournament\ngame: wh40k-10e\nwaive: [b9a6-1702-143b-322e]\n")
    result = check_file(roster, catalog, event=read_event(event_file, catalog))
    assert [(f.code, f.severity, f.message) for f in result.findings] == [
        ("data-constraint", "warning", "Cults of the Dark Gods: at most 500 pts in the force, 540 taken "
                                       "(waived by Grand Tournament)")]
    assert result.valid
    hidden = ROOT / "tests" / "wh40k-rosters" / "necrons" / "illegal-dimensional-sanctum.yaml"
    [finding] = check_file(hidden, catalog).findings
    entry_id = finding.rule.rpartition(", id ")[2]
    assert entry_id.endswith("/hidden")
    assert check_file(hidden, catalog, event=Event(waive=[entry_id])).valid
    assert not check_file(hidden, catalog, event=Event(waive=["b9a6-1702-143b-322e"])).valid


def test_data_list_counts_the_transport_texts_not_read_whole(bsdata, bsdata_bundle, tmp_path, monkeypatch, capsys):
    """D11: a transport whose datasheet text says more than is read (the Orion's other way to ride)
    is counted by `data list`, apart from the import's own count; the Ghost Ark's split between its
    10 Warriors and 1 Character, the Immolator's unit split in two and the Battlewagon's capacity
    with a killkannon are read whole (D48)."""
    from listbuilder.cli import main
    from listbuilder.games.wh40k10.importing.installed import TRANSPORTS_UNREAD, install
    from listbuilder.games.wh40k10.rules import capacity
    monkeypatch.setenv("LISTBUILDER_DATA_DIR", str(tmp_path))
    installed = install(bsdata.catalog, bsdata.left_out, bsdata_bundle)
    unread = [u.name for u in bsdata.catalog.units.values() if u.transport and (
        capacity(u) is None or capacity(u).unread)]
    assert "Orion Assault Dropship" in unread and "Manta" in unread
    assert not {"Ghost Ark", "Immolator", "Stompa", "Battlewagon", "Rhino"} & set(unread)
    assert installed.left_out[TRANSPORTS_UNREAD] == len(unread)
    assert main(["data", "list"]) == 0
    out = capsys.readouterr().out
    assert f"{sum(bsdata.left_out.values())} data rules left out, {len(unread)} transport texts not read whole" in out


def test_a_detachment_the_faction_lacks_is_one_finding_citing_both_rules(catalog):
    """L2276 and the data's min of one Detachment choice (Imperium - Space Marines.cat:38695 and
    6921) state the same rule: one finding, the seed's, citing both."""
    from listbuilder.rosters.files import parse_roster

    text = ("game: wh40k-10e\nfaction: Space Marines\nbattle_size: Incursion\ndetachment: Gladius Strike Force\n"
            "units:\n  - {type: Captain, warlord: true}\n")
    [finding] = validate(parse_roster(text, "r", catalog).roster, catalog).findings
    assert (finding.code, finding.path) == ("unknown-detachment", ("detachment",))
    assert finding.rule == ("Muster Your Army 4: Select Detachment Rules; data: Imperium - Space Marines.cat:38695 "
                            "(revision 801555b), Detachment, constraint 23da-d33f-3805-f52e; data: Imperium - Space "
                            "Marines.cat:6921 (revision 801555b), Detachment, constraint 958-3242-6a92-a9b9")


def test_every_detachment_a_faction_lists_is_one_its_army_may_choose(catalog, bsdata):
    """D49: the detachments the import lists for a faction (those `new` and the editor offer) are
    the choices of its army's own Detachment entry, and naming one selects it. The Agents of the
    Imperium's and the Chaos Daemons' Detachment entries are marked `import="false"` (Imperium -
    Agents of the Imperium.cat:18213): not every Imperium or Chaos army's; and the Adeptus Custodes
    catalogue calls the entry holding its choice "Detachments" (Imperium - Adeptus Custodes.cat:7394)."""
    from listbuilder.games.wh40k10.roster import Wh40kRoster

    wrong = []
    for faction in bsdata.catalog.factions:
        if not faction.detachments:
            continue
        roster = Wh40kRoster(game="wh40k-10e", faction=faction.name, battle_size="Strike Force",
                             detachment=faction.detachments[-1].name, units=[])
        data = catalog.imported("wh40k-10e", faction.name)
        tree = selection_tree(roster, data, faction, data.engine_data(faction))
        [holder] = [s for s in tree.force.selections if s.option.name.removesuffix("s") == "Detachment"]
        offered = {option.name for option in holder.option.selectable_children()}
        chosen = [child.option.name for child in holder.walk() if child.option.name == roster.detachment]
        if not {d.name for d in faction.detachments} <= offered or not chosen:
            wrong.append(faction.name)
    assert wrong == []


@pytest.mark.parametrize("faction, detachment, unit, models", [
    ("Astra Militarum", "Combined Arms", "Cadian Shock Troops", 20),  # the composition entry naming 20
    ("Space Marines", "Gladius Task Force", "Outrider Squad", 7),  # an Invader ATV beside the Sergeant and 5 Outriders
    ("T'au Empire", "Kauyon", "Broadside Battlesuits", 3),  # Shas'ui beside the one Shas'vre
])
def test_a_model_count_is_reached_on_the_kinds_the_data_lets_grow(catalog, faction, detachment, unit, models):
    """The data's own limits on each kind of model hold at every size the roster may state: no
    finding on the unit, and its points are the import's table's."""
    from listbuilder.rosters.files import parse_roster

    text = (f"game: wh40k-10e\nfaction: {faction}\nbattle_size: Strike Force\ndetachment: {detachment}\n"
            f"units:\n  - {{type: \"{unit}\", models: {models}}}\n")
    result = validate(parse_roster(text, "r", catalog).roster, catalog)
    assert [f.code for f in result.findings if f.path[:2] == ("units", 0)] == []
    [checked] = result.units
    assert sum(m.total_number for m in result.tree.units[0].walk() if m.option.type == "model") == models
    assert checked.points == checked.unit.points_for(models)


@pytest.mark.parametrize(("captain", "instead"), [("\n    warlord: true", " instead of Shield-Captain"), ("", "")])
def test_a_unit_the_data_makes_the_warlord_is_named_at_its_place(catalog, tmp_path, captain, instead):
    """Trajann Valoris's Warlord has a minimum of one (Imperium - Adeptus Custodes.cat:3030): the data
    selects it itself. Not marked so, he is one finding at his unit, saying what to do, not the
    force's "Warlord: at most 1 selection" at `units:` (another Character marked) nor the seed's
    "no Warlord" (none marked)."""
    from listbuilder.rosters.batch import check_file

    (tmp_path / "custodes.yaml").write_text(
        "game: wh40k-10e\nfaction: Adeptus Custodes\nbattle_size: Strike Force\ndetachment: Shield Host\nunits:\n"
        f"  - type: Shield-Captain{captain}\n  - type: Trajann Valoris\n  - type: Custodian Guard\n",
        encoding="utf-8")
    [finding] = check_file(tmp_path / "custodes.yaml", catalog, "custodes.yaml").findings
    assert (finding.code, str(finding.location)) == ("warlord-required", f"custodes.yaml:{7 + bool(captain)}:5")
    assert finding.message == "Trajann Valoris must be the army's Warlord: the data selects its Warlord itself"
    assert finding.suggestion == f"make Trajann Valoris the Warlord (`warlord: true`){instead}"
    assert finding.rule == ("data: Imperium - Adeptus Custodes.cat:3030 (revision 801555b), Warlord, "
                            "constraint c849-a3d5-d581-db35")

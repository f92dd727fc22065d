"""Issue 12, sections 1-3, across the Epic Armageddon lists: the total is what the roster as written
costs (a refused upgrade stays in the points, marked, in every view); one mistake gives one finding;
messages read the right way round and point a key the list does not have to the one meant. Prices
are seed 000's, cited where they are used; the judgement calls are D6 and D54 of DECISIONS.md."""

import asyncio
from dataclasses import fields, replace
from pathlib import Path

import pytest
from pypdf import PdfReader

from listbuilder.core.findings import Finding, Location
from listbuilder.core.names import a, a_unit, plural
from listbuilder.games import validate
from listbuilder.listengine.lines import army_json
from listbuilder.listengine.roster import Roster
from listbuilder.report.pdf import roster_pdf
from listbuilder.report.text import roster_text
from listbuilder.rosters.batch import check_file
from listbuilder.rosters.files import read_roster
from listbuilder.tui.app import EditorApp
from listbuilder.tui.games.formation_editor import summary
from listbuilder.tui.games.knob_row import KnobRow

ROSTERS = Path(__file__).resolve().parent / "rosters"


def roster(army: str, *formations: dict, points: int = 3000, **top) -> Roster:
    return Roster.model_validate({"game": "epic-armageddon", "army": army, "points": points,
                                  "formations": list(formations), **top})


def errors(result) -> list[str]:
    return [f.code for f in result.findings if f.severity == "error"]


# --- 1. The total is what the roster as written costs -------------------------------------------

def test_refused_wave_serpents_are_charged_in_both_eldar_lists(catalog):
    # Biel-Tan: 4 Wave Serpents +200 allow no other upgrade (L10699-10700); platforms +50 (L10695).
    biel_tan = validate(roster("biel-tan", {"type": "Eldar Guardian Warhost", "upgrades": {
        "Wave Serpents": True, "Support Weapon Platforms": True}}), catalog)
    # Ulthwé: the same Wave Serpents only for a host of Guardians (L10813-10814); 2 Wraithguard
    # +50 each (L10810).
    ulthwe = validate(roster("ulthwe", {"type": "Eldar Guardian Warhost", "upgrades": {
        "Wraithguard": 2, "Wave Serpents": True}}), catalog)
    assert (biel_tan.total, errors(biel_tan)) == (150 + 200 + 50, ["upgrade-exclusive"])
    assert (ulthwe.total, errors(ulthwe)) == (150 + 100 + 200, ["upgrade-not-allowed"])
    assert biel_tan.formations[0].refused == ["Wave Serpents"] == ulthwe.formations[0].refused


def test_refused_land_transporters_in_a_coven_are_charged(catalog):
    # A Demagogue, 11 Cultists and a Chaos Spawn (two spaces) need 7 Land Transporters: 6 leave one
    # behind. Coven 200 (L11080), Spawn 25 (L11106), Land Transporters 10 each (L11135).
    result = validate(roster("lost-and-the-damned", {
        "type": "Stigmatus Covenant Coven", "faction": "Undivided", "composition": {"Demagogue": 1, "Cultists": 11},
        "upgrades": {"Arch Heretic": {"character": "Arch Heretic", "joins": "Demagogue"}, "Chaos Spawn": True,
                     "Transports": {"Land Transporter": 6}}}), catalog)
    assert errors(result) == ["transport-inexact"]
    assert result.total == 200 + 25 + 6 * 10
    assert result.formations[0].count_of("Land Transporter") == 6


def test_one_more_rhino_in_the_editor_never_lowers_the_total(catalog):
    # legal-retinues: 2,205 with the Khorne Retinue's 6 Rhinos (10 each, L11000); a 7th leaves two
    # spaces spare and is refused, and the total is 2,215, not 2,145.
    roster_file = read_roster(ROSTERS / "black-legion" / "legal-retinues.yaml", catalog)
    app = EditorApp(catalog, roster_file.roster, document=roster_file.document)

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert app.main.result.total == 2205
            rhinos = next(r for r in app.main.query(KnobRow) if r.key == ("upgrades", "Rhinos"))
            rhinos.focus()
            await pilot.press("right")
            for worker in [w for w in app.workers if w.group == "check"]:
                await worker.wait()
            await pilot.pause()
            assert app.history.current.formations[0].upgrades["Rhinos"] == 7
            result = app.main.result
            assert result.total == 2215
            assert [f.code for f in result.findings] == ["transport-inexact"]
            assert "Charged as written: Rhinos 70 (refused)" in summary(result.formations[0]).plain

    asyncio.run(scenario())


def test_a_refused_upgrade_is_shown_marked_with_its_cost_in_check_json_and_pdf(catalog, tmp_path):
    # illegal-factions: the Khorne Retinue's Plague Marines and the Undivided one's Berzerkers are
    # refused; each still costs 150 (L11003): 3 x 275 + 2 x 150 = 1,125, not 825.
    path = ROSTERS / "black-legion" / "illegal-factions.yaml"
    result = validate(read_roster(path, catalog).roster, catalog)
    assert result.total == 1125
    assert "upgrades: Cult Marines 150 (refused)" in roster_text(str(path), result)
    formation = army_json(result)["formations"][0]
    assert (formation["upgrades"]["Cult Marines"], formation["refused"]) == (150, ["Cult Marines"])
    (tmp_path / "r.pdf").write_bytes(roster_pdf(result, catalog, source=str(path)))
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(tmp_path / "r.pdf").pages)
    assert "Cult Marines 150 (refused)" in text and "1,125 / 2,000 pts" in text


# --- 2. One mistake, one finding ----------------------------------------------------------------

RETINUE = {"type": "Black Legion Retinue", "faction": "Khorne"}
LORD = {"Chaos Space Marine Lord": {"character": "Chaos Warlord", "joins": "Chaos Space Marine"}}


@pytest.mark.parametrize("lord", [
    {"character": "Chaos Warlord", "joins": "Rhino"},                           # no such unit
    {"character": "Chaos Warlord", "joins": "Havocs"},                          # not a core unit
    [{"character": "Chaos Warlord", "joins": "Chaos Space Marine"}] * 2,         # one Lord only
])
def test_a_refused_chaos_lord_does_not_also_leave_the_army_without_a_warlord(catalog, lord):
    result = validate(roster("black-legion",
                             {**RETINUE, "upgrades": {"Havocs": True, "Chaos Space Marine Lord": lord}}),
                      catalog)
    assert len(errors(result)) == 1 and "limit-short" not in errors(result)


def test_berzerkers_refused_in_a_nurgle_retinue_leave_its_rhinos_exact(catalog):
    # 8 Marines and 4 Berzerkers fill 6 Rhinos: the roster as written is exact.
    result = validate(roster("black-legion", {**RETINUE, "faction": "Nurgle", "upgrades": {
        **LORD, "Cult Marines": "Berzerkers", "Rhinos": 6}}), catalog)
    assert errors(result) == ["faction-mismatch"]
    assert result.total == 275 + 150 + 60


def test_a_refused_supa_stompa_keeps_its_weapons(catalog):
    result = validate(roster("ghazghkull-warhorde",
                             {"type": "Warband", "upgrades": {"Warlord": {"character": "Warlord", "joins": "Nobz"}}},
                             {"type": "Mekboy Stompamob", "upgrades": {"Supa-Stompa": 2},
                              "wargear": {"Supa Stompa": {"3 Soopaguns": 2}}}), catalog)
    assert errors(result) == ["quantity-out-of-range"]
    assert result.formations[1].group("Supa Stompa").wargear == {"3 Soopaguns": 2}


def test_a_second_regimental_hq_does_not_move_the_first_commissar(catalog):
    result = validate(roster("steel-legion",
                             {"type": "Regimental HQ", "upgrades": {"Commissar": {"character": "Commissar",
                                                                                 "joins": "Infantry"}}},
                             {"type": "Regimental HQ"}), catalog)
    assert errors(result) == ["limit-exceeded"]


# Every army: one of its legal example rosters with one upgrade too many in its first formation
# (one it may not take, or one beyond the most). The roster is then as written: one error, and the
# upgrade's price added to the total.
NOT_ALLOWED, TOO_MANY = "upgrade-not-allowed", "quantity-out-of-range"
ONE_MISTAKE = [
    ("baran-siegemasters", "legal-armour.yaml", "Sappers", 1, 0, NOT_ALLOWED),
    ("biel-tan", "legal-aspect-host.yaml", "Wraithguard", 2, 100, NOT_ALLOWED),   # beside exact transports
    ("black-legion", "legal-armour.yaml", "Cult Marines", "Berzerkers", 150, NOT_ALLOWED),
    ("codex-astartes", "legal-5000-war-engines.yaml", "Hunter", 1, 75, NOT_ALLOWED),
    ("feral-orks", "legal-big-warband-wyrdboyz.yaml", "Junkatrukk and Nob", 1, 50, NOT_ALLOWED),
    ("ghazghkull-warhorde", "legal-big-and-uge.yaml", "Battlekroozer", True, 50, NOT_ALLOWED),
    ("lost-and-the-damned", "legal-covens.yaml", "Chaos Hounds", 4, 40, TOO_MANY),  # 1 to 3, 10 each
    ("speed-freeks", "legal-any-roster-order.yaml", "Battlewagonz", 1, 35, NOT_ALLOWED),
    ("steel-legion", "legal-commissars.yaml", "Valkyries", True, 150, NOT_ALLOWED),
    ("tau", "legal-air-caste.yaml", "Kroot Carnivores", True, 75, NOT_ALLOWED),
    ("ulthwe", "legal-aspect-troupe-per-host.yaml", "War Walkers", True, 100, NOT_ALLOWED),
    ("white-scars", "legal-air-transport.yaml", "Vindicator", 1, 75, NOT_ALLOWED),
]


@pytest.mark.parametrize("army, name, upgrade, taken, price, code", ONE_MISTAKE, ids=[m[0] for m in ONE_MISTAKE])
def test_a_roster_breaking_one_rule_gets_one_error(catalog, army, name, upgrade, taken, price, code):
    legal = read_roster(ROSTERS / army / name, catalog).roster
    before = validate(legal, catalog)
    assert before.valid
    first = legal.formations[0]
    broken = legal.model_copy(update={"formations": [
        first.model_copy(update={"upgrades": {**first.upgrades, upgrade: taken}}), *legal.formations[1:]]})
    result = validate(broken, catalog)
    assert errors(result) == [code], [f.message for f in result.findings]
    assert result.total == before.total + price
    assert upgrade in result.formations[0].refused


# --- 3. Messages a player reads once and understands ---------------------------------------------

def test_counts_read_rule_first_then_the_roster(catalog):
    result = validate(roster("baran-siegemasters", {"type": "Super-Heavy Tank Platoon",
                                                    "composition": {"Baneblade": 1, "Shadowsword": 1}}), catalog)
    messages = [f.message for f in result.findings if f.code == "composition-count"]
    assert messages == ["Super-Heavy Tank Platoon needs 1 unit from Baneblade or Shadowsword; the roster has 2"]


def test_articles_and_plural_names():
    assert a("XV8 Crisis Battlesuit Team") == "an XV8 Crisis Battlesuit Team"
    assert (a("Ork Gargant"), a("Rhino"), a("Land Raider")) == ("an Ork Gargant", "a Rhino", "a Land Raider")
    assert (a_unit("Raptors"), a_unit("Leman Russ"), a_unit("Chosen")) == (
        "a unit of Raptors", "a Leman Russ", "a Chosen")
    assert a_unit("Noise Marines of Slaanesh") == "a unit of Noise Marines of Slaanesh"
    assert a_unit("Champion of Chaos") == "a Champion of Chaos"


def test_plural_names_read_as_english():
    """'2 Warhound Titan', '1 activations', '1 units' read wrongly; a name stays whole around its plural."""
    assert [plural(2, n) for n in ("Warhound Titan", "Robotic Sentry", "Lord of Change", "Infantry", "Chosen",
                                   "Noise Marines of Slaanesh", "Tiger Shark Strike Craft (AX-1-0 Variant)",
                                   "Leman Russ", "Wyrdboy")] == [
        "2 Warhound Titans", "2 Robotic Sentries", "2 Lords of Change", "2 Infantry", "2 Chosen",
        "2 Noise Marines of Slaanesh", "2 Tiger Shark Strike Craft (AX-1-0 Variant)", "2 Leman Russ", "2 Wyrdboys"]
    assert (plural(1, "activation"), plural(1, "unit"), plural(1, "error")) == ("1 activation", "1 unit", "1 error")


def test_check_says_plurals_as_english(catalog, tmp_path):
    allies = roster_text("allies.yaml", check_file(ROSTERS / "codex-astartes" / "legal-allies.yaml", catalog))
    assert "      2 Warhound Titans\n" in allies and "3 Rhinos (transport)" in allies
    titan = tmp_path / "titan.yaml"
    titan.write_text("game: epic-armageddon\narmy: codex-astartes\npoints: 3000\nformations:\n"
                     "  - type: Warlord Titan\n")
    one = roster_text("titan.yaml", check_file(titan, catalog))
    assert "strategy rating 5, 1 activation\n" in one and "      1 unit, initiative 1+" in one


def test_no_upgrade_name_states_a_number(catalog):
    """'Nobz (up to 1)' met messages allowing 2: a row's own limit is now the formation's."""
    names = [u.name for army in catalog.lists["epic-armageddon"].values() for u in army.upgrades]
    assert names and not [n for n in names if "up to" in n]


@pytest.mark.parametrize("army, formation, upgrades, hint", [
    ("biel-tan", {"type": "Aspect Warrior Warhost", "composition": {"Dire Avengers": 8}},
     {"Autarch": {"character": "Autarch", "joins": "Dire Avengers"}},
     "an Autarch is bought with the Exarchs upgrade: upgrades: {Exarchs: {character: Autarch, joins: ...}}"),
    ("lost-and-the-damned", {"type": "Stigmatus Covenant Coven", "faction": "Undivided",
                             "composition": {"Chaos Marine Aspiring Champion": 1, "Cultists": 11}},
     {"Daemon Prince": True, "Arch Heretic": {"character": "Arch Heretic", "joins": "Chaos Marine Aspiring Champion"}},
     "a Chaos Marine Aspiring Champion becomes a Daemon Prince with the Daemon Prince (Aspiring Champion) upgrade"),
])
def test_a_key_the_list_does_not_have_points_to_the_upgrade_meant(catalog, army, formation, upgrades, hint):
    result = validate(roster(army, {**formation, "upgrades": upgrades}), catalog)
    assert [f.suggestion for f in result.findings if f.severity == "error"] == [hint]


@pytest.mark.parametrize("army, formation, hint", [
    ("tau", {"type": "Fire Warrior Cadre", "transport": "Devilfish"},
     "a Devilfish Troop Carrier is bought with the Devilfish upgrade: upgrades: {Devilfish: true}"),
    ("biel-tan", {"type": "Aspect Warrior Warhost", "composition": {"Dire Avengers": 8}, "transport": "Wave Serpent"},
     "a Wave Serpent is bought with the Transports upgrade: upgrades: {Transports: {Wave Serpent: n}}"),
    ("ulthwe", {"type": "Wraithgate"}, "a Wraithgate is bought for the whole army: purchases: {Wraithgate: 1}"),
])
def test_a_transport_or_formation_that_is_bought_otherwise_says_how(catalog, army, formation, hint):
    result = validate(roster(army, formation), catalog)
    assert [f.suggestion for f in result.findings if f.severity == "error"] == [hint]


def test_the_seeds_printed_names_are_accepted(catalog):
    # "Ulthwé Black Guardian Warhost" (L10816); the White Scars Terminators' "Land Raider upgrade",
    # 4 Land Raiders for 350 (L11454, L11508, L11514; D13).
    host = validate(roster("ulthwe", {"type": "Ulthwé Black Guardian Warhost"}), catalog)
    assert host.formations[0].name == "Black Guardian Warhost" and not errors(host)
    terminators = validate(roster("white-scars", {"type": "Terminator", "upgrades": {"Land Raiders": True}}), catalog)
    assert terminators.formations[0].transport == "Land Raiders" and terminators.total == 325 + 350
    assert not errors(terminators)


@pytest.mark.parametrize("army, formation, old, new", [
    ("ghazghkull-warhorde", {"type": "Mekboy Gunzmob", "size": "big"}, {"Nobz (up to 1)": 2}, {"Nobz": 2}),
    ("ghazghkull-warhorde", {"type": "Blitz Brigade", "composition": {"Gunwagonz": 4}},
     {"Gunfortress (up to 1)": 1}, {"Gunfortress": 1}),
    ("ghazghkull-warhorde", {"type": "Warband", "upgrades": {}}, {"Gunfortresses": 1}, {"Gunfortress": 1}),
    ("ulthwe", {"type": "Aspect Warrior Troupe", "composition": {"Dire Avengers": 4}},
     {"Exarch": {"character": "Exarch", "joins": "Dire Avengers"}},
     {"Exarchs": {"character": "Exarch", "joins": "Dire Avengers"}}),
    ("ulthwe", {"type": "Black Guardian Warhost"}, {"Black Guardian Transports": True}, {"Wave Serpents": True}),
    ("tau", {"type": "Pathfinder Support Group"}, {"Pathfinder Group Devilfish": True}, {"Devilfish": True}),
])
def test_one_name_for_one_thing_and_old_keys_still_load(catalog, army, formation, old, new):
    def built(upgrades):
        result = validate(roster(army, {**formation, "upgrades": upgrades}), catalog)
        f = result.formations[0]
        return f.points, {g.sheet.name: g.count for g in f.units}, [x.code for x in result.findings]
    assert built(old) == built(new)
    assert built(new)[:2] != built({})[:2]   # the upgrade was taken (points, or units)


def test_a_formation_written_twice_is_reported_twice_where_each_stands(catalog, tmp_path):
    """A check builds a formation written exactly like an earlier one only once (core.engine
    `_moved`): the copy's findings, index and values are still its own, located at its own lines."""
    source = (ROSTERS / "codex-astartes" / "illegal-razorbacks-and-quantities.yaml").read_text()
    first = source[source.index("  - type: Tactical"):source.index("  - type: Devastator")]
    path = tmp_path / "twice.yaml"
    path.write_text(source + first)
    result = check_file(path, catalog, "twice.yaml")
    too_many = [f for f in result.findings if f.message.startswith("Razorbacks in Tactical: 7 Razorbacks taken")]
    assert [(f.path, f.location.line) for f in too_many] == [(("formations", 0, "upgrades", "Razorbacks"), 12),
                                                            (("formations", 6, "upgrades", "Razorbacks"), 33)]
    original, twin = result.formations[0], result.formations[6]
    assert (twin.index, twin.points, twin.refused, twin.derived) == (6, 475, original.refused, original.derived)
    assert result.total == 2420 + 475


def test_a_twin_the_editor_keeps_outlives_the_formation_it_was_copied_from(catalog):
    """The editor keeps the formations whose entries it did not change (core.engine `reuse`): a
    twin so kept still has its units and values once the formation it was copied from is changed,
    and the army is worked out as a fresh check works it out."""
    tactical = {"type": "Tactical", "upgrades": {"Razorbacks": 2}}
    reuse: dict = {}
    before = validate(roster("codex-astartes", tactical, tactical), catalog, reuse)
    assert before.formations[1].twin is before.formations[0]
    changed = roster("codex-astartes", {"type": "Scout"}, tactical)
    changed.formations[1] = before.roster.formations[1]  # the entry the editor left alone
    kept = validate(changed, catalog, reuse)
    assert kept.formations[1] is before.formations[1]
    assert army_json(kept) == army_json(validate(changed, catalog))


def test_a_moved_finding_keeps_all_but_its_path():
    """Finding.moved spells out every field: one added to Finding and forgotten there fails here."""
    values = {f.name: f"{f.name}!" for f in fields(Finding)}
    finding = Finding(**{**values, "location": Location("roster.yaml", 3, 5)})
    assert finding.moved(("formations", 9)) == replace(finding, path=("formations", 9))


def test_a_whole_upgrade_and_one_unit_of_it_are_not_twins(catalog):
    """`Ogryns: true` takes the upgrade's 2 Ogryns, `Ogryns: 1` one, which is refused (L9909: '2
    Ogryns'): the second formation is built for itself, though True == 1 in Python."""
    result = validate(roster("steel-legion", *({"type": "Infantry Company", "upgrades": {"Ogryns": taken}}
                                               for taken in (True, 1))), catalog)
    assert [sum(g.count for g in f.units if g.sheet.name == "Ogryns") for f in result.formations] == [2, 1]
    assert [(f.code, f.path) for f in result.findings if "Ogryns" in f.message] == [
        ("quantity-out-of-range", ("formations", 1, "upgrades", "Ogryns"))]

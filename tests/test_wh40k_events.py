"""A 40k event's format rules (DECISIONS.md D40, docs/roster-format.md, Event files): its factions and
detachments, its points as a cap within the battle size that holds them, Legends, Chapter Approved's
Incursion limits and caps per keyword. Hand-worked rosters under tests/wh40k-events/ (each says its
points and what is wrong with it), on the BSData snapshot imported once per run."""

from pathlib import Path

import pytest

from listbuilder.core.event import Event
from listbuilder.core.findings import LoadFailure, finding_text
from listbuilder.listengine.catalog import Catalog
from listbuilder.rosters.batch import check_file, read_event

EVENTS = Path(__file__).resolve().parent / "wh40k-events"
GT, NIGHT = EVENTS / "autumn-gt", EVENTS / "incursion-night"
KAUYON = Path(__file__).resolve().parent / "wh40k-rosters" / "tau-empire" / "legal-kauyon.yaml"
GT_RULE = "[event rules: Autumn GT]"
NIGHT_RULE = "[event rules: Incursion Night]"
CA = "(Chapter Approved 2025-26)"


@pytest.fixture(scope="module")
def wh40k(bsdata):
    return Catalog(installed={"wh40k-10e": bsdata.catalog})


def findings(path: Path, event: Event, catalog) -> list[str]:
    return [finding_text(f) for f in check_file(path, catalog, path.name, event).findings]


EXPECTED = {
    (GT, "legal.yaml"): [],
    (GT, "illegal-legends.yaml"): [
        "illegal-legends.yaml:17:6: error: Bike Squad [Legends] is a Legends datasheet in the data of 801555b; Autumn "
        f"GT does not allow Legends (take a datasheet that is not Legends) {GT_RULE}",
        "illegal-legends.yaml:18:6: error: Assault Squad [Legends] is a Legends datasheet in the data of 801555b; "
        f"Autumn GT does not allow Legends (take a datasheet that is not Legends) {GT_RULE}"],
    (GT, "illegal-detachment.yaml"): [
        "illegal-detachment.yaml:6:1: error: Vanguard Spearhead may not be played at Autumn GT (allowed: Gladius Task "
        f"Force, Awakened Dynasty) (set detachment: Gladius Task Force) {GT_RULE}"],
    (GT, "illegal-points.yaml"): [
        "illegal-points.yaml:8:1: error: the army costs 1,620 points, 120 over the 1,500 of Autumn GT (take 120 points "
        f"of units or wargear out) {GT_RULE}"],
    (GT, "illegal-keywords.yaml"): [
        "illegal-keywords.yaml:11:6: error: 2 units with the keyword Epic Hero (#2 Vindicare Assassin and #3 Watch "
        f"Captain Artemis); Autumn GT allows at most 1 (take at most 1 of them) {GT_RULE}",
        "illegal-keywords.yaml:16:6: error: 4 units with the keyword Vehicle (#5 Predator Destructor, #6 Land Raider, "
        f"#7 Predator Annihilator and #8 Predator Destructor); Autumn GT allows at most 3 (take at most 3 of them) "
        f"{GT_RULE}"],
    (NIGHT, "legal.yaml"): [],
    (NIGHT, "illegal.yaml"): [  # four Lieutenants: Incursion's finding, not also the rule of three's
        f"illegal.yaml:13:6: error: 4 units of Lieutenant; at most 2 at Incursion {CA} (take at most 2) {NIGHT_RULE}",
        "illegal.yaml:19:6: error: 5 units of Intercessor Squad; at most 4 at Incursion (Battleline) "
        f"{CA} (take at most 4) {NIGHT_RULE}",
        "illegal.yaml:20:6: warning: Bike Squad [Legends] is a Legends datasheet in the data of 801555b; Incursion "
        f"Night allows Legends with a warning (check with the organiser that it may be played) {NIGHT_RULE}"],
}


@pytest.mark.parametrize("folder, name", list(EXPECTED), ids=lambda part: getattr(part, "name", part))
def test_each_rule_of_the_event_is_one_finding_citing_it(wh40k, folder, name):
    event = read_event(folder / "event.yaml", wh40k)
    assert findings(folder / name, event, wh40k) == EXPECTED[folder, name]


def test_a_faction_the_event_does_not_allow_is_one_finding_not_also_its_detachment(wh40k):
    """The T'au list under Autumn GT: its faction refused (its detachment, of a refused faction, is
    not refused again); its four Vehicles (battlesuits are Vehicles) are a mistake of their own."""
    event = read_event(GT / "event.yaml", wh40k)
    assert [f.code for f in check_file(KAUYON, wh40k, "kauyon", event).findings] == [
        "army-not-allowed", "too-many-with-keyword"]
    assert findings(KAUYON, event.model_copy(update={"max_per_keyword": {}}), wh40k) == [
        "legal-kauyon.yaml:4:1: error: T'au Empire may not be played at Autumn GT (allowed: Space Marines, "
        f"Xenos - Necrons) (build the army from a faction the event allows) {GT_RULE}"]
    for name in ("T'au Empire", "t'au empire", "Xenos - T'au Empire"):  # short name (and keyword), name
        assert check_file(KAUYON, wh40k, "kauyon", Event(armies=[name])).valid
    faction_id = wh40k.imported("wh40k-10e").faction("T'au Empire").id
    assert check_file(KAUYON, wh40k, "kauyon", Event(armies=[faction_id])).valid


def test_incursion_limits_are_off_unless_the_event_switches_them_on(wh40k):
    """The same roster without the switch: the rule of three's finding (four Lieutenants, at most 3)
    and no Incursion limit on the five Intercessor Squads (six allowed)."""
    event = read_event(NIGHT / "event.yaml", wh40k).model_copy(update={"incursion_limits": False})
    assert [f.code for f in check_file(NIGHT / "illegal.yaml", wh40k, "illegal.yaml", event).findings] == [
        "legends-datasheet", "too-many-of-datasheet"]


def roster(units: str, detachment: str = "Gladius Task Force", faction: str = "Space Marines") -> str:
    return (f"game: wh40k-10e\nfaction: {faction}\nbattle_size: Incursion\ndetachment: {detachment}\nunits:\n"
            + units)


def test_a_detachments_battleline_grant_counts_at_incursion(wh40k, tmp_path):
    """Troupes are Battleline in Ghosts of the Webway (the data's category, D40): four are allowed
    at Incursion, the fifth is one finding."""
    night = Event(name="Night", incursion_limits=True)
    units = "  - {type: Shadowseer, warlord: true}\n" + "  - {type: Troupe}\n" * 4
    four = tmp_path / "four.yaml"
    four.write_text(roster(units, "Ghosts of the Webway", "Aeldari"))
    assert check_file(four, wh40k, "four.yaml", night).findings == []
    five = tmp_path / "five.yaml"
    five.write_text(roster(units + "  - {type: Troupe}\n", "Ghosts of the Webway", "Aeldari"))
    assert findings(five, night, wh40k) == [
        f"five.yaml:11:6: error: 5 units of Troupe; at most 4 at Incursion (Battleline) {CA} (take at most 4) "
        "[event rules: Night]"]


def test_a_stricter_limit_of_the_check_stands_alone(wh40k, tmp_path):
    """Three Uriel Ventris at Incursion: an Epic Hero once is stricter than Incursion's 2, so the
    check's finding is the one; a cap of one Epic Hero does not count the copies it refuses, but
    does count Cato Sicarius beside the first Uriel. Likewise the data's own limit of one."""
    path = tmp_path / "uriel.yaml"
    path.write_text(roster("  - {type: Captain, warlord: true}\n" + "  - {type: Uriel Ventris}\n" * 3
                           + "  - {type: Cato Sicarius}\n", faction="Ultramarines"))
    event = Event(name="Night", incursion_limits=True, max_per_keyword={"Epic Hero": 1})
    assert [(f.code, f.path) for f in check_file(path, wh40k, "uriel.yaml", event).findings] == [
        ("too-many-with-keyword", ("units", 4, "type")), ("epic-hero-repeated", ("units", 2, "type"))]
    assert check_file(path, wh40k, "uriel.yaml", event).findings[0].message == (
        "2 units with the keyword Epic Hero (#2 Uriel Ventris and #5 Cato Sicarius); Night allows at most 1")
    # the data allows one Emperor's Champion (Imperium - Black Templars.cat:1202): its finding alone
    path.write_text(roster("  - {type: Captain, warlord: true}\n" + "  - {type: Emperor's Champion}\n" * 3,
                           faction="Black Templars"))
    assert [(f.code, f.message) for f in check_file(path, wh40k, "champion.yaml", event).findings] == [
        ("data-constraint", "Emperor's Champion: at most 1 selection in the roster, 3 taken")]


def test_an_event_of_another_game_refuses_the_40k_rules_and_names_are_checked(catalog, wh40k, tmp_path):
    """D40: Epic has no Legends (nor Incursion, nor 40k detachments): an Epic event that sets them is
    refused where it says so, rather than silently ignored; a 40k event's names must be the data's."""
    epic = tmp_path / "epic.yaml"
    epic.write_text("name: Open\ngame: epic-armageddon\nlegends: forbidden\n")
    with pytest.raises(LoadFailure) as refused:
        read_event(epic, catalog)
    assert [finding_text(f) for f in refused.value.findings] == [
        f"{epic}:3:1: error: legends: Epic Armageddon has no such rule (it is a rule of Warhammer 40,000 10th "
        "edition events) (leave `legends` out)"]
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("game: wh40k-10e\narmies: [Space Marine]\ndetachments: [Gladius Taskforce]\n"
                     "max_per_keyword: {Epic Heroes: 1}\nlegends: no\n")
    with pytest.raises(LoadFailure) as refused:
        read_event(wrong, wh40k)
    assert [finding_text(f) for f in refused.value.findings] == [
        f"{wrong}:5:1: error: legends: should be one of 'allowed', 'warn' or 'forbidden' (got 'no')"]
    wrong.write_text("game: wh40k-10e\narmies: [Space Marine]\ndetachments: [Gladius Taskforce]\n"
                     "max_per_keyword: {Epic Heroes: 1}\n")
    with pytest.raises(LoadFailure) as refused:
        read_event(wrong, wh40k)
    assert [(f.code, f.location.line, f.suggestion) for f in refused.value.findings] == [
        ("unknown-army", 2, "did you mean 'Space Marines'?"),
        ("unknown-detachment", 3, "did you mean 'Gladius Task Force'?"),
        ("unknown-keyword", 4, "did you mean 'Epic Hero'?")]


def test_check_a_folder_against_the_event(bsdata_installed, capsys):
    """`check FOLDER --event`: the event file left out, each roster by the event's rules, the event's
    rules on the report."""
    import json

    from listbuilder.cli import main

    assert main(["check", str(GT), "--event", str(GT / "event.yaml"), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["event"] == ("Autumn GT: Warhammer 40,000 10th edition, 1,500 points, armies: Space Marines, "
                               "Xenos - Necrons, detachments: Gladius Task Force, Awakened Dynasty, "
                               "Legends: forbidden, Epic Hero: at most 1, Vehicle: at most 3")
    assert {Path(r["file"]).name: [i["code"] for i in r["issues"]] for r in report["rosters"]} == {
        "illegal-detachment.yaml": ["detachment-not-allowed"], "illegal-keywords.yaml": ["too-many-with-keyword"] * 2,
        "illegal-legends.yaml": ["legends-datasheet"] * 2, "illegal-points.yaml": ["points-over-event-limit"],
        "legal.yaml": []}
    # each army may cost the event's 1,500 within Strike Force's 2,000 (D40), and the reports say so
    assert {r["points"]["limit"] for r in report["rosters"]} == {1500}
    assert {r["battle_size"] for r in report["rosters"]} == {"Strike Force"}

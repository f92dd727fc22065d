"""Epic Remastered data files: a list typed in from docs/epic-remastered.md loads, or gives located
errors; rules the sample list cannot show (flyers, Hitch, points, army-wide limits) on small lists."""

import re
import shutil
from pathlib import Path

import pytest

from listbuilder.cli import main
from listbuilder.core.event import Event
from listbuilder.core.findings import LoadFailure
from listbuilder.data.catalog import load_catalog
from listbuilder.games import summarise, validate
from listbuilder.games.epic_remastered.rules import data_of
from listbuilder.rosters.batch import check_file
from listbuilder.rosters.files import parse_roster

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "epic-remastered.md"


def doc_example(heading: str) -> str:
    """The first YAML example under a heading of the format doc."""
    section = DOC.read_text(encoding="utf-8").split(f"## {heading}\n", 1)[1]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1)


def data_root(tmp_path: Path, lists: dict[str, str], sheets: dict[str, str] | None = None) -> Path:
    """A data folder with the shipped Epic Remastered data sheets, plus `sheets`, and only `lists`."""
    shutil.copytree(ROOT / "datasheets" / "epic-remastered", tmp_path / "datasheets" / "epic-remastered")
    (tmp_path / "lists" / "epic-remastered").mkdir(parents=True)
    for stem, text in (sheets or {}).items():
        (tmp_path / "datasheets" / "epic-remastered" / f"{stem}.yaml").write_text(text, encoding="utf-8")
    for stem, text in lists.items():
        (tmp_path / "lists" / "epic-remastered" / f"{stem}.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def load_failure(root: Path) -> list:
    with pytest.raises(LoadFailure) as raised:
        load_catalog(root, use_cache=False)
    return raised.value.findings


def check(catalog, text: str, army: str):
    roster_file = parse_roster(f"game: epic-remastered\narmy: {army}\n" + text, "roster.yaml", catalog)
    result = validate(roster_file.roster, catalog)
    return result, [roster_file.locate(f) for f in result.findings]


def test_the_format_docs_list_example_loads_and_checks(tmp_path):
    catalog = load_catalog(data_root(tmp_path, {"core-samples": doc_example("Army lists")}), use_cache=False)
    army = data_of(catalog).find("Core rules samples")
    assert (army.army.strategy_rating, army.army.abilities) == (3, ["Ork Initiative"])
    result, findings = check(catalog, "points: 100\ndetachments:\n  - type: Space Marines detachment\n    units:\n"
                             "      - {unit: Space Marine Captain, transport: {unit: Space Marine Rhino}}\n"
                             "      - {unit: Imperial Guard Command Squad, upgrades: [Primaris Psyker]}\n",
                             "core-samples")
    # the Captain at 50, the Rhino has no entry of its own and so no points: the total counts what is priced
    assert [f.code for f in findings] == ["points-unknown"]
    assert findings[0].severity == "warning"
    assert result.detachments[0].derived["takes_over"] == []
    assert result.total == 0  # a detachment with an unpriced unit has no total of its own


def test_the_format_docs_roster_example_checks(catalog):
    text = doc_example("Rosters").split("army: core-samples", 1)[1].split("\n", 1)[1]
    result, findings = check(catalog, text.replace("points: 2000", ""), "core-samples")
    # the shipped sample list offers no Command Squad in a Space Marines detachment
    assert [(f.code, f.location.line) for f in findings] == [("not-in-list", 13)]


def test_a_typo_in_a_list_key_is_located_with_the_right_key(tmp_path):
    text = doc_example("Army lists").replace("chain_of_command:", "chain_of_comand:")
    findings = load_failure(data_root(tmp_path, {"core-samples": text}))
    assert {f.location.file for f in findings} == {"lists/epic-remastered/core-samples.yaml"}
    assert [(f.code, f.location.line) for f in findings] == [("missing-key", 10), ("unknown-key", 12)]
    assert findings[1].suggestion == "did you mean 'chain_of_command'?"


def test_a_unit_without_a_data_sheet_is_located_with_the_likely_name(tmp_path):
    text = doc_example("Army lists").replace("- unit: Space Marine Captain", "- unit: Space Marine Captian")
    findings = load_failure(data_root(tmp_path, {"core-samples": text}))
    unknown = next(f for f in findings if f.code == "unknown-unit")
    assert (unknown.location.line, unknown.suggestion) == (19, "did you mean 'Space Marine Captain'?")


def test_a_derived_unit_may_not_state_its_values(tmp_path):
    sheets = {"extra": "units:\n  - name: Fast Guard\n    base: Imperial Guard\n    speed: 20/30 cm\n"
                       "    abilities: [Cavalry]\n    source: test\n"}
    [finding] = load_failure(data_root(tmp_path, {}, sheets))
    assert (finding.code, finding.location.line) == ("derived-values", 4)


def test_a_detachment_list_may_not_mix_kinds(tmp_path):
    text = ("id: mixed\nname: Mixed\ndatasheets: [space-marines, titans]\ndetachments:\n  - name: Odd\n"
            "    chain_of_command: [Space Marine Captain]\n    groups:\n      - name: All\n"
            "        units: [Space Marine Captain, Imperial Warhound Titan]\n")
    [finding] = load_failure(data_root(tmp_path, {"mixed": text}))
    assert (finding.code, finding.location.line) == ("mixed-detachment-list", 5)


FLYERS_AND_BOYZ = {
    "sheets": "units:\n"
              "  - {name: Fighta-Bommer, type: FLY, speed: Flyer, assault: 2/2, source: L476}\n"
              "  - {name: Battlefortress, type: VEH, abilities: [Hitch (4)], source: L2669}\n",
    "list": "id: test-orks\nname: Test Orks\nstrategy_rating: 2\ndatasheets: [orks, flyers]\n"
            "limits:\n  - {detachment: Ork Mob, max: 1}\n"
            "detachments:\n"
            "  - name: Ork Mob\n    chain_of_command: [Ork Warboss]\n    groups:\n      - name: Command\n"
            "        units: [{unit: Ork Warboss, points: 30}]\n      - name: Boyz\n"
            "        units:\n          - {unit: Ork Boyz, points: 10, transports: [Battlefortress]}\n"
            "          - {unit: Battlefortress, points: 100}\n"
            "  - name: Fighta-Bommers\n    chain_of_command: [Fighta-Bommer]\n    groups:\n"
            "      - name: Flyers\n        units: [{unit: Fighta-Bommer, points: 50}]\n",
}


@pytest.fixture(scope="module")
def orks(tmp_path_factory):
    root = data_root(tmp_path_factory.mktemp("orks"), {"test-orks": FLYERS_AND_BOYZ["list"]},
                     {"flyers": FLYERS_AND_BOYZ["sheets"]})
    return load_catalog(root, use_cache=False)


MOB = ("  - type: Ork Mob\n    units:\n      - {unit: Ork Warboss}\n"
       "      - {unit: Ork Boyz, count: COUNT, transport: {unit: Battlefortress}}\n")


def test_hitch_holds_its_number_of_infantry(orks):  # L2663, Example 34: Hitch (4)
    result, findings = check(orks, "points: 1000\ndetachments:\n" + MOB.replace("COUNT", "4"), "test-orks")
    assert findings == []
    assert result.total == 30 + 4 * 10 + 100
    _, findings = check(orks, "detachments:\n" + MOB.replace("COUNT", "5"), "test-orks")
    [finding] = findings
    assert finding.code == "transport-capacity"
    assert "each carries 4 (Hitch (4))" in finding.message


def test_a_flyer_cannot_join_a_ground_detachment(orks):  # L559
    _, findings = check(orks, "detachments:\n" + MOB.replace("COUNT", "2") + "      - {unit: Fighta-Bommer}\n",
                        "test-orks")
    [finding] = findings
    assert finding.code == "mixed-detachment"
    assert "Flyer unit" in finding.message


def test_flyer_detachments_and_their_dogfight_value(orks):  # L3605-3612, L3622-3626
    result, findings = check(orks, "detachments:\n  - type: Fighta-Bommers\n"
                                   "    units: [{unit: Fighta-Bommer, count: 2}]\n",
                             "test-orks")
    assert findings == []
    assert result.detachments[0].kind == "Flyer"
    assert "never Broken" in result.detachments[0].derived["abilities"][0]
    [sheet] = summarise(result).sheets
    headings, rows = sheet.tables[0]
    assert headings[5] == "Dogfight"
    assert rows[0][1:] == ["FLY", "Flyer", "", "", "2/2", ""]
    assert summarise(result).army_lines[0] == "Strategy Rating: 2"


def test_points_over_the_limit_and_army_wide_limits(orks):
    mob = MOB.replace("COUNT", "4")
    result, findings = check(orks, "points: 300\ndetachments:\n" + mob + mob, "test-orks")
    assert [f.code for f in findings] == ["army-limit", "points-over-limit"]
    assert result.total == 340
    assert findings[1].message == "the army costs 340 points; the limit is 300"


def test_an_event_played_to_points_sets_the_limit_of_a_roster_without_one(orks, tmp_path):
    """The event's points are the agreement the seed leaves to the players (DECISIONS.md, Points): a
    roster with no `points:` is checked against them; one with other points is one finding."""
    roster = tmp_path / "mob.yaml"
    roster.write_text("game: epic-remastered\narmy: test-orks\ndetachments:\n" + MOB.replace("COUNT", "4"))
    result = check_file(roster, orks, "mob.yaml", Event(points=150))
    assert [(f.code, f.message) for f in result.findings] == [
        ("points-over-limit", "the army costs 170 points; the limit is 150")]
    assert (summarise(result).limit, summarise(result).priced) == (150, True)
    assert check_file(roster, orks, "mob.yaml", Event(points=1000)).findings == []
    roster.write_text(roster.read_text().replace("detachments:", "points: 300\ndetachments:"))
    [differs] = check_file(roster, orks, "mob.yaml", Event(name="Autumn Open", points=1000)).findings
    assert (differs.code, differs.location.line, differs.message) == (
        "points-limit-differs", 3, "the roster's limit is 300 points; Autumn Open is played at 1,000")


def test_check_with_points_prices_the_sample_rosters_at_the_events_limit(capsys):
    sample = ROOT / "tests" / "epic-remastered-rosters" / "sample-detachments.yaml"
    assert main(["check", "--points", "2000", str(sample)]) == 0
    out = capsys.readouterr().out
    # the sample list prices nothing: no '0 / 2,000 (2,000 left)' as if the roster were empty
    assert "  points: none given by the army list (limit 2,000)\n" in out and "0 / 2,000" not in out
    assert "limit of 0" not in out and "limit is 0" not in out and ": 0 pts" not in out
    assert "warning: Core rules samples gives no points for some units" in out


def test_a_characteristic_not_written_as_the_seed_writes_it_is_located(tmp_path):
    sheets = {"extra": "units:\n  - name: Odd Guard\n    type: INF\n    speed: 10-20cm\n    source: test\n"}
    [finding] = load_failure(data_root(tmp_path, {}, sheets))
    assert (finding.location.file, finding.location.line) == ("datasheets/epic-remastered/extra.yaml", 4)
    assert "cm" in finding.message


@pytest.mark.parametrize("old, new, code, line", [
    ("transports: [Space Marine Rhino]   #", "transports: [Space Marine Whirlwind]   #", "not-a-transport", 22),
    ("- [Space Marine Captain, Space Marine Librarian]", "- [Space Marine Captain, Space Marine Chaplain]",
     "command-not-listed", 13),
])
def test_list_references_are_checked_and_located(tmp_path, old, new, code, line):
    findings = load_failure(data_root(tmp_path, {"core-samples": doc_example("Army lists").replace(old, new, 1)}))
    assert [(f.code, f.location.line) for f in findings] == [(code, line)]


def test_hitch_carries_only_infantry(tmp_path):  # L2661-2663: 'It can transport Infantry units'
    """A list may let a vehicle ride a Hitch (X) unit; the roster is still one finding."""
    text = FLYERS_AND_BOYZ["list"].replace(
        "          - {unit: Battlefortress, points: 100}\n",
        "          - {unit: Battlefortress, points: 100}\n          - {unit: Trukk, transports: [Battlefortress]}\n")
    sheets = FLYERS_AND_BOYZ["sheets"] + "  - {name: Trukk, type: VEH, source: test}\n"
    catalog = load_catalog(data_root(tmp_path, {"test-orks": text}, {"flyers": sheets}), use_cache=False)
    _, findings = check(catalog, "detachments:\n" + MOB.replace("COUNT", "4"), "test-orks")
    assert findings == []  # Ork Boyz are Infantry
    _, findings = check(catalog, "detachments:\n" + MOB.replace("COUNT", "4")
                        + "      - {unit: Trukk, transport: {unit: Battlefortress}}\n", "test-orks")
    [finding] = findings
    assert (finding.code, finding.location.line, finding.rule) == (
        "hitch-infantry-only", 8, "Transport (X) (L3082-3084), Hitch (X) (L2661-2663)")
    assert finding.message == "Trukk is a Vehicle unit: Battlefortress may carry only Infantry units (Hitch (4))"

"""Bad input gives one located, helpful line per problem, never a traceback."""

import shutil
from pathlib import Path

import pytest

from listbuilder.core.findings import LoadFailure
from listbuilder.data.catalog import CACHE_SCHEMA, data_version, load_catalog
from listbuilder.data.yamlfile import MAX_BYTES
from listbuilder.rosters.files import parse_roster

ROOT = Path(__file__).resolve().parent.parent

HEADER = "game: epic-armageddon\narmy: codex-astartes\npoints: 2000\n"


def failure(catalog, text: str):
    with pytest.raises(LoadFailure) as raised:
        parse_roster(text, "roster.yaml", catalog)
    return raised.value.findings


def test_yaml_syntax_error_is_located(catalog):
    [finding] = failure(catalog, HEADER + "formations:\n  - type: Tactical\n    upgrades: {Hunter: 1\n")
    assert finding.code == "yaml-syntax"
    assert finding.location.file == "roster.yaml"
    assert finding.location.line == 7  # where the parser noticed: the end of the file
    assert "began at line 6, column 15" in finding.message


def test_duplicate_key_is_an_error(catalog):
    [finding] = failure(catalog, HEADER + "points: 3000\n")
    assert finding.code == "yaml-syntax"
    assert "duplicate key" in finding.message
    assert finding.location.line == 4


def test_unknown_key_suggests_the_right_one(catalog):
    [finding] = failure(catalog, HEADER + "formations:\n  - type: Tactical\n    upgrade: {Hunter: 1}\n")
    assert finding.code == "unknown-key"
    assert finding.message == "unknown key 'upgrade'"
    assert finding.suggestion == "did you mean 'upgrades'?"
    assert (finding.location.line, finding.location.column) == (6, 5)
    assert str(finding.location) == "roster.yaml:6:5"


def test_unknown_key_without_a_close_match_lists_the_allowed_keys(catalog):
    [finding] = failure(catalog, HEADER + "colour: blue\n")
    assert finding.suggestion is None
    assert "allowed here: game, army, points, name, purchases, formations" in finding.message


def test_wrong_type_names_the_field(catalog):
    [finding] = failure(catalog, "game: epic-armageddon\narmy: codex-astartes\npoints: lots\n")
    assert finding.code == "wrong-value"
    assert finding.message.startswith("points: ")
    assert "'lots'" in finding.message
    assert finding.location.line == 3


def test_every_problem_is_reported_once(catalog):
    findings = failure(catalog, "game: epic-armageddon\npoints: -5\nformations:\n  - type: Tactical\n"
                                "    upgrades: {Hunter: [1]}\n")
    assert sorted(f.code for f in findings) == ["missing-key", "wrong-value", "wrong-value"]
    assert sorted(f.location.line for f in findings if f.code == "wrong-value") == [2, 5]


def test_unknown_army_and_game_get_suggestions(catalog):
    [army] = failure(catalog, "game: epic-armageddon\narmy: codex-astartez\npoints: 2000\n")
    assert army.code == "unknown-army"
    assert army.suggestion == "did you mean 'codex-astartes'?"
    assert army.location.line == 2
    [game] = failure(catalog, "game: epic-armageddn\narmy: codex-astartes\npoints: 2000\n")
    assert game.code == "unknown-game"
    assert game.suggestion == "did you mean 'epic-armageddon'?"


def test_army_may_be_given_by_printed_name(catalog):
    roster = parse_roster("game: epic-armageddon\narmy: Space Marines – Codex Astartes\npoints: 2000\n", "r", catalog)
    assert roster.roster.army == "Space Marines – Codex Astartes"


def test_anchors_and_aliases_are_refused(catalog):
    text = HEADER + "formations:\n  - &t {type: Tactical}\n  - *t\n"
    [finding] = failure(catalog, text)
    assert finding.code == "yaml-alias"


def test_oversized_and_deeply_nested_input_is_refused(catalog):
    [big] = failure(catalog, HEADER + "name: " + "x" * MAX_BYTES + "\n")
    assert big.code == "file-too-large"
    [deep] = failure(catalog, HEADER + "name: " + "[" * 40 + "]" * 40 + "\n")
    assert deep.code == "yaml-too-deep"


def test_hostile_input_is_refused_and_never_run(catalog, tmp_path):
    marker = tmp_path / "ran"
    [tag] = failure(catalog, f"game: !!python/object/apply:os.system ['touch {marker}']\n"
                             "army: codex-astartes\npoints: 2000\n")
    assert tag.code == "wrong-value" and tag.location.line == 1
    assert not marker.exists()
    [nul] = failure(catalog, "game: epic\n\x00")
    assert (nul.code, nul.location.line, nul.location.column) == ("yaml-syntax", 2, 1)
    [empty] = failure(catalog, "")
    assert empty.code == "wrong-value"


def test_negative_numbers_are_refused(catalog):
    findings = failure(catalog, HEADER + "formations:\n  - type: Predators\n"
                                "    composition: {Annihilator: -2, Destructor: 6}\n"
                                "  - type: Tactical\n    upgrades: {Hunter: -1}\n")
    assert [(f.code, f.location.line) for f in findings] == [("wrong-value", 6), ("wrong-value", 8)]
    assert findings[1].message == "formations.1.upgrades.Hunter: should be at least 0 (got -1)"


def test_a_character_pick_gets_one_message_from_the_branch_that_fits(catalog):
    [missing] = failure(catalog, HEADER + "formations:\n  - type: Tactical\n"
                                          "    upgrades: {Commander: {character: Captain}}\n")
    assert (missing.code, missing.message) == ("missing-key", "'joins' is required here")
    [extra] = failure(catalog, HEADER + "formations:\n  - type: Tactical\n"
                                        "    upgrades: {Commander: {character: Captain, joins: Tactical, x: 1}}\n")
    assert extra.message == "unknown key 'x' (allowed here: character, joins)"


def test_a_document_that_is_not_a_mapping(catalog):
    [finding] = failure(catalog, "- just\n- a list\n")
    assert finding.code == "wrong-value"


@pytest.fixture
def data_copy(tmp_path):
    for folder in ("lists", "datasheets"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def data_failure(root: Path):
    with pytest.raises(LoadFailure) as raised:
        load_catalog(root, use_cache=False)
    return raised.value.findings


def test_list_naming_a_unit_without_datasheet(data_copy):
    replace_in(data_copy / "lists/epic-armageddon/codex-astartes.yaml", "{unit: Land Speeder, count: 5}",
               "{unit: Land Speder, count: 5}")
    [finding] = data_failure(data_copy)
    assert finding.code == "unknown-reference"
    assert finding.message == "unit 'Land Speder' is not defined"
    assert finding.suggestion == "did you mean 'Land Speeder'?"
    assert finding.location.file == "lists/epic-armageddon/codex-astartes.yaml"
    line = (data_copy / finding.location.file).read_text().splitlines()[finding.location.line - 1]
    assert "Land Speder" in line


def test_upgrade_naming_a_missing_upgrade(data_copy):
    replace_in(data_copy / "lists/epic-armageddon/codex-astartes.yaml", "upgrades: [Commander, Attack Bike]",
               "upgrades: [Commander, Atack Bike]")
    [finding] = data_failure(data_copy)
    assert (finding.message, finding.suggestion) == ("upgrade 'Atack Bike' is not defined",
                                                     "did you mean 'Attack Bike'?")


def test_unknown_key_in_a_datasheet(data_copy):
    replace_in(data_copy / "datasheets/epic-armageddon/space-marines.yaml", "close_combat:", "close_combt:")
    findings = data_failure(data_copy)
    unknown = [f for f in findings if f.code == "unknown-key"]
    assert unknown and unknown[0].suggestion == "did you mean 'close_combat'?"
    assert unknown[0].location.file == "datasheets/epic-armageddon/space-marines.yaml"


def test_broken_yaml_in_the_data(data_copy):
    (data_copy / "lists/epic-armageddon/titan-legions.yaml").write_text("id: [unclosed\n")
    findings = data_failure(data_copy)
    assert any(f.code == "yaml-syntax" and f.location.file.endswith("titan-legions.yaml") for f in findings)


def test_transport_cargo_must_exist(data_copy):
    replace_in(data_copy / "datasheets/epic-armageddon/space-marines.yaml",
               "carries: {Tactical: 1, Devastator: 1, Scout: 1}", "carries: {Tactical: 1, Devastatr: 1, Scout: 1}")
    [finding] = data_failure(data_copy)
    assert finding.suggestion == "did you mean 'Devastator'?"


def test_cache_is_keyed_by_content(data_copy, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    first = load_catalog(data_copy)
    assert first.lists["epic-armageddon"]["codex-astartes"].formations[0].points == 175  # read on first use
    assert len(list((tmp_path / "cache/listbuilder").glob("catalog-*.json"))) == 1
    replace_in(data_copy / "lists/epic-armageddon/codex-astartes.yaml", "points: 175", "points: 180")
    second = load_catalog(data_copy)
    assert first.lists["epic-armageddon"]["codex-astartes"].formations[0].points == 175
    assert second.lists["epic-armageddon"]["codex-astartes"].formations[0].points == 180
    # each says which data it was loaded from (what `check` prints), read from its cache or not
    again = load_catalog(data_copy)
    assert again.data_version == second.data_version == data_version(data_copy) != first.data_version


def test_a_damaged_cache_is_rebuilt_silently_never_trusted(data_copy, tmp_path, monkeypatch):
    """The cache is data checked three ways (schema version, sources' hash, its own SHA-256), and
    built back only into the shape the models have: every one of these damages gives the right data
    back, and a sound cache."""
    import hashlib
    import json
    import random

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    right = load_catalog(data_copy)
    assert right.games  # looked into: read, and cached
    [cache] = (tmp_path / "cache/listbuilder").glob("catalog-*.json")
    sound = cache.read_bytes()
    header, _, payload = sound.partition(b"\n")
    forged = payload.replace(b'"points":175', b'"points":1', 1)
    assert forged != payload
    random.seed(13)
    damages = [sound[: len(sound) // 2], header + b"\n" + forged,
               header.replace(b'"schema": %d' % CACHE_SCHEMA, b'"schema": 0') + b"\n" + payload,
               json.dumps({"schema": CACHE_SCHEMA, "sources": json.loads(header)["sources"],
                           "sha256": hashlib.sha256(b"[]").hexdigest()}).encode() + b"\n[]"]
    for _ in range(2):
        flipped = bytearray(sound)
        flipped[random.randrange(len(flipped))] ^= 1 << random.randrange(8)
        damages.append(bytes(flipped))
    for damaged in damages:
        cache.write_bytes(damaged)
        assert load_catalog(data_copy) == right
        assert cache.read_bytes() == sound


def test_each_data_folder_keeps_its_own_cache(data_copy, tmp_path, monkeypatch):
    """Two checkouts (or a checkout and an installed copy) no longer evict each other's cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    other = tmp_path / "other"
    for folder in ("lists", "datasheets"):
        shutil.copytree(data_copy / folder, other / folder)
    replace_in(other / "lists/epic-armageddon/codex-astartes.yaml", "points: 175", "points: 180")
    assert load_catalog(data_copy).games and load_catalog(other).games  # each looked into: cached
    caches = {p: p.read_bytes() for p in (tmp_path / "cache/listbuilder").glob("catalog-*.json")}
    assert len(caches) == 2
    assert load_catalog(data_copy).lists["epic-armageddon"]["codex-astartes"].formations[0].points == 175
    assert load_catalog(other).lists["epic-armageddon"]["codex-astartes"].formations[0].points == 180
    assert {p: p.read_bytes() for p in caches} == caches  # both read from their cache, neither rewritten


def test_the_cache_builds_back_exactly_what_validating_it_gives():
    """The cache is built back into models without validating them again (data.catalog.trusted):
    on all the shipped data that gives what validating gives, model for model, down to the types
    JSON cannot tell (a price per count keyed by numbers, a count that is a range)."""
    import orjson

    from listbuilder.core.trusted import trusted
    from listbuilder.data.catalog import _adapter, _files, parse_catalog
    from listbuilder.listengine.armylist import Range
    from listbuilder.listengine.shipped import ShippedData

    parsed = parse_catalog(ROOT, _files(ROOT))
    payload = _adapter().dump_json(ShippedData(dict(parsed.games), dict(parsed.lists), dict(parsed.datasheets),
                                               dict(parsed.abilities)))
    built, validated = trusted(ShippedData, orjson.loads(payload)), _adapter().validate_json(payload)
    assert built == validated
    assert built.lists == parsed.lists and built.datasheets == parsed.datasheets and built.games == parsed.games
    formations = [f for army in built.lists["epic-armageddon"].values() for f in army.formations]
    per_count = [f.points for f in formations if isinstance(f.points, dict)]
    assert per_count and all(isinstance(count, int) for prices in per_count for count in prices)
    slots = [s for f in formations for s in f.units]
    assert any(isinstance(s.count, Range) for s in slots) and any(isinstance(s.count, int) for s in slots)
    assert all(type(a) is type(b) for a, b in zip(formations, (f for army in parsed.lists["epic-armageddon"].values()
                                                                for f in army.formations), strict=True))

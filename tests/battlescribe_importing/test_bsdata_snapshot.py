"""The whole BSData 40k snapshot compiled into one bundle, checked against facts read by hand."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from listbuilder.battlescribe.importing import compile_data, read_data_json, read_data_xml
from listbuilder.battlescribe.importing.zipped import zip_single

SPACE_MARINES = "Imperium - Space Marines.cat"
POINTS = "51b2-306e-1021-d207"  # the game system's pts cost type


@pytest.fixture(scope="module")
def bundle(bsdata_files: dict[str, bytes]) -> dict[str, Any]:
    return compile_data(bsdata_files)


def dicts(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for child in value.values():
            yield from dicts(child)
    elif isinstance(value, list):
        for child in value:
            yield from dicts(child)


def catalogue(bundle: dict[str, Any], file: str) -> dict[str, Any]:
    ids = [root_id for root_id, source in bundle["sources"].items() if source["file"] == file]
    return next(root for root in bundle["catalogues"] if root["id"] == ids[0])


def test_the_game_system_and_46_catalogues_with_their_sources(bundle: dict[str, Any]) -> None:
    assert bundle["gameSystem"]["name"] == "Warhammer 40,000 10th Edition"
    assert len(bundle["catalogues"]) == 46
    assert len(bundle["sources"]) == 47
    assert bundle["sources"]["sys-352e-adc2-7639-d6a9"] == {"file": "Warhammer 40,000.gst", "revision": 118}
    assert all(root["gameSystemId"] == "sys-352e-adc2-7639-d6a9" for root in bundle["catalogues"])


def test_the_bundle_is_json(bundle: dict[str, Any]) -> None:
    assert orjson.loads(orjson.dumps(bundle)) == bundle


def test_every_element_with_an_id_keeps_its_line_and_nothing_is_lost(bundle: dict[str, Any],
                                                                     bsdata_files: dict[str, bytes]) -> None:
    # Counted in the bytes, independently of the reader: the `id` attributes, the characteristics.
    ids = sum(len(re.findall(rb'\sid="', data)) for data in bsdata_files.values())
    characteristics = sum(data.count(b"<characteristic ") for data in bsdata_files.values())
    everything = [bundle["gameSystem"], bundle["catalogues"]]
    assert sum(1 for element in dicts(everything) if "sourceLine" in element) == ids == 103_457
    assert sum(len(element.get("characteristics", [])) for element in dicts(everything)) == characteristics == 56_821


def test_the_intercessor_squad(bundle: dict[str, Any]) -> None:
    marines = catalogue(bundle, SPACE_MARINES)
    squad = next(entry for entry in marines["sharedSelectionEntries"] if entry["name"] == "Intercessor Squad")
    assert (squad["id"], squad["type"], squad["sourceLine"]) == ("8da0-4570-c3c-819f", "unit", 4343)
    assert squad["costs"] == [{"name": "pts", "typeId": POINTS, "value": 80}]
    ten_models = [modifier for modifier in squad["modifiers"] if modifier["field"] == POINTS]
    assert [(modifier["type"], modifier["value"]) for modifier in ten_models] == [("set", "160")]
    assert [(c["type"], c["value"], c["childId"]) for c in ten_models[0]["conditions"]] \
        == [("atLeast", 6, "e371-90b3-5640-949")]  # 6 or more in the Intercessors group
    per_roster = [c for c in squad["constraints"] if c["scope"] == "roster"]
    assert [(c["type"], c["value"], c["field"]) for c in per_roster] == [("max", 6, "selections")]
    primary = [link["name"] for link in squad["categoryLinks"] if link["primary"]]
    assert primary == ["Battleline"]


def test_the_battle_sizes(bundle: dict[str, Any]) -> None:
    names = {entry["name"]: entry["sourceLine"] for entry in dicts(bundle["gameSystem"])
             if "Point limit)" in str(entry.get("name"))}
    assert names == {"1. Incursion (1000 Point limit)": 748, "2. Strike Force (2000 Point limit)": 753,
                     "3. Onslaught (3000 Point limit)": 758}


def test_a_catalogue_reads_the_same_zipped_and_as_json(bsdata_files: dict[str, bytes]) -> None:
    data = bsdata_files[SPACE_MARINES]
    plain = read_data_xml(data)
    assert read_data_xml(zip_single(SPACE_MARINES, data)) == plain
    assert read_data_json(orjson.dumps({plain.kind: plain.root})) == plain

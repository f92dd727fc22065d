"""Game system and catalogue XML -> the dict form, on small files written here."""

from __future__ import annotations

from typing import Any

from listbuilder.battlescribe.importing import read_data_xml
from listbuilder.battlescribe.importing.zipped import zip_single

CATALOGUE = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" id="cat-1" name="Test" revision="3"
    battleScribeVersion="2.03" gameSystemId="gs-1" gameSystemRevision="1" library="false">
  <readme>Read me</readme>
  <selectionEntries>
    <selectionEntry id="se-1" name="Squad" type="unit" hidden="false" collective="true" import="true">
      <comment>a comment</comment>
      <costs>
        <cost name="pts" typeId="pts" value="80"/>
        <cost name="power" typeId="pl" value="2.5"/>
      </costs>
      <constraints>
        <constraint id="c-1" type="max" value="6" field="selections" scope="roster" shared="true"/>
      </constraints>
      <modifiers>
        <modifier type="set" field="hidden" value="true">
          <repeats>
            <repeat value="1" repeats="2" field="selections" scope="self" childId="x" shared="true" roundUp="false"/>
          </repeats>
          <conditions>
            <condition type="atLeast" value="6" field="selections" scope="self" childId="m" shared="true"/>
          </conditions>
        </modifier>
      </modifiers>
      <profiles>
        <profile id="p-1" name="Marine" typeId="pt" typeName="Unit" hidden="false">
          <characteristics>
            <characteristic name="M" typeId="ct-m">6"</characteristic>
            <characteristic name="Keywords" typeId="ct-k"/>
          </characteristics>
          <alias>Trooper</alias>
          <alias>Brother</alias>
        </profile>
      </profiles>
      <rules>
        <rule id="r-1" name="Rapid Fire" hidden="false">
          <description>Twice &amp; again</description>
        </rule>
      </rules>
      <associations>
        <association id="a-1" name="Ride" min="1" max="2" scope="parent" childId="any"/>
      </associations>
      <formatRules>
        <formatRule match="^0$" replace="-"/>
      </formatRules>
      <novelty flavour="strange">text</novelty>
      <note>just text</note>
    </selectionEntry>
  </selectionEntries>
  <catalogueLinks/>
</catalogue>
"""


def squad(root: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = root["selectionEntries"][0]
    return entry


def test_the_root_and_its_attributes_are_typed() -> None:
    kind, root = read_data_xml(CATALOGUE)
    assert kind == "catalogue"
    assert {key: root[key] for key in ("id", "revision", "gameSystemRevision", "library", "battleScribeVersion")} \
        == {"id": "cat-1", "revision": 3, "gameSystemRevision": 1, "library": False, "battleScribeVersion": "2.03"}
    assert root["readme"] == "Read me"
    assert root["catalogueLinks"] == []


def test_containers_become_lists_and_numbers_are_numbers_where_the_schema_says() -> None:
    entry = squad(read_data_xml(CATALOGUE).root)
    assert entry["hidden"] is False and entry["collective"] is True
    assert entry["costs"] == [{"name": "pts", "typeId": "pts", "value": 80},
                              {"name": "power", "typeId": "pl", "value": 2.5}]
    assert entry["constraints"][0]["value"] == 6 and entry["constraints"][0]["shared"] is True
    modifier = entry["modifiers"][0]
    assert modifier["value"] == "true"  # a modifier's value is text
    assert modifier["repeats"][0]["repeats"] == 2 and modifier["repeats"][0]["roundUp"] is False
    assert modifier["conditions"][0]["value"] == 6
    assert entry["associations"] == [{"id": "a-1", "name": "Ride", "min": 1, "max": 2, "scope": "parent",
                                      "childId": "any"}]


def test_text_elements_become_strings() -> None:
    entry = squad(read_data_xml(CATALOGUE).root)
    assert entry["comment"] == "a comment"
    assert entry["rules"][0]["description"] == "Twice & again"
    profile = entry["profiles"][0]
    assert profile["characteristics"] == [{"name": "M", "typeId": "ct-m", "value": '6"'},
                                          {"name": "Keywords", "typeId": "ct-k", "value": ""}]
    assert profile["alias"] == ["Trooper", "Brother"]


def test_unknown_elements_are_kept() -> None:
    entry = squad(read_data_xml(CATALOGUE).root)
    assert entry["formatRules"] == [{"match": "^0$", "replace": "-"}]
    assert entry["novelty"] == {"flavour": "strange", "value": "text"}
    assert entry["note"] == "just text"


def test_source_lines_only_when_asked_and_only_on_elements_with_an_id() -> None:
    plain = squad(read_data_xml(CATALOGUE).root)
    assert "sourceLine" not in plain
    lined = read_data_xml(CATALOGUE, source_lines=True).root
    assert lined["sourceLine"] == 3  # a start tag over two lines: libxml2 gives the line it ends on
    assert squad(lined)["sourceLine"] == 6
    assert squad(lined)["constraints"][0]["sourceLine"] == 13
    assert "sourceLine" not in squad(lined)["costs"][0]


def test_the_zipped_form_reads_the_same() -> None:
    assert read_data_xml(zip_single("Test.cat", CATALOGUE)) == read_data_xml(CATALOGUE)


def test_a_game_system_and_no_namespace() -> None:
    kind, root = read_data_xml(b'<gameSystem id="gs" name="G" revision="7"><costTypes>'
                               b'<costType id="pts" name="pts" defaultCostLimit="-1.0" hidden="false"/>'
                               b'</costTypes></gameSystem>')
    assert kind == "gameSystem"
    assert root == {"id": "gs", "name": "G", "revision": 7,
                    "costTypes": [{"id": "pts", "name": "pts", "defaultCostLimit": -1.0, "hidden": False}]}


def test_a_byte_order_mark_and_windows_line_ends() -> None:
    data = b'\xef\xbb\xbf<?xml version="1.0" encoding="UTF-8"?>\r\n<catalogue id="c">\r\n' \
           b'<rules><rule id="r"><description>a\r\nb</description></rule></rules></catalogue>'
    assert read_data_xml(data, source_lines=True).root == {
        "id": "c", "sourceLine": 2, "rules": [{"id": "r", "description": "a\nb", "sourceLine": 3}]}

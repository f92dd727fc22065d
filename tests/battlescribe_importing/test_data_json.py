"""The JSON form (New Recruit's editor's, as some BSData repositories publish) reads as the XML does."""

from __future__ import annotations

import orjson

from listbuilder.battlescribe.importing import read_data_json, read_data_xml

XML = b"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" id="cat-1" name="1999" revision="3"
 gameSystemId="gs-1" library="false">
  <sharedSelectionEntries>
    <selectionEntry id="se-1" name="Squad" type="unit" hidden="false" page="12">
      <costs><cost name="pts" typeId="pts" value="80"/></costs>
      <modifiers>
        <modifier type="set" field="hidden" value="true"/>
        <modifier type="increment" field="c-1" value="2"/>
      </modifiers>
      <constraints><constraint id="c-1" type="max" value="6" field="selections" scope="roster" shared="true"/>\
</constraints>
      <profiles>
        <profile id="p-1" name="Marine" typeId="pt" hidden="false">
          <characteristics><characteristic name="M" typeId="ct-m">6"</characteristic></characteristics>
        </profile>
      </profiles>
      <rules><rule id="r-1" name="Rule"><description>Text</description></rule></rules>
      <comment>note</comment>
    </selectionEntry>
  </sharedSelectionEntries>
</catalogue>
"""

# As New Recruit writes it: every attribute that looks like a number or boolean typed as one
# (the name "1999", the page "12", the modifier's value "true"), text under "$text", and a few
# keys of its own beside the root.
NEW_RECRUIT_JSON = {
    "catalogue": {
        "id": "cat-1", "name": 1999, "revision": 3, "gameSystemId": "gs-1", "library": False,
        "sharedSelectionEntries": [{
            "id": "se-1", "name": "Squad", "type": "unit", "hidden": False, "page": 12,
            "costs": [{"name": "pts", "typeId": "pts", "value": 80}],
            "modifiers": [{"type": "set", "field": "hidden", "value": True},
                          {"type": "increment", "field": "c-1", "value": 2}],
            "constraints": [{"id": "c-1", "type": "max", "value": 6, "field": "selections", "scope": "roster",
                             "shared": True}],
            "profiles": [{"id": "p-1", "name": "Marine", "typeId": "pt", "hidden": False,
                          "characteristics": [{"name": "M", "typeId": "ct-m", "$text": '6"'}]}],
            "rules": [{"id": "r-1", "name": "Rule", "description": "Text"}],
            "comment": "note",
        }],
    },
    "playable": True, "id": 12345, "include": [1000], "short": "x", "version": "2.03", "nrversion": 3,
}


def test_new_recruits_json_reads_as_the_xml_does() -> None:
    assert read_data_json(orjson.dumps(NEW_RECRUIT_JSON)) == read_data_xml(XML)


def test_text_given_as_an_object_and_strings_where_numbers_are_meant() -> None:
    document = {"gameSystem": {"id": "gs", "name": "G", "revision": "4", "readme": {"$text": "hello"},
                               "costTypes": [{"id": "pts", "name": "pts", "defaultCostLimit": "-1",
                                              "hidden": "false"}]}}
    kind, root = read_data_json(orjson.dumps(document))
    assert kind == "gameSystem"
    assert root == {"id": "gs", "name": "G", "revision": 4, "readme": "hello",
                    "costTypes": [{"id": "pts", "name": "pts", "defaultCostLimit": -1, "hidden": False}]}


def test_an_unwrapped_root_that_says_what_it_is() -> None:
    kind, root = read_data_json(b'{"id": "c", "name": "C", "gameSystemId": "g", "type": "catalogue"}')
    assert kind == "catalogue" and root["gameSystemId"] == "g"
    assert read_data_json(b'{"id": "c", "name": "C", "gameSystemId": "g"}').kind == "catalogue"


def test_lists_left_nested_under_their_items_name() -> None:
    document = {"catalogue": {"id": "c", "gameSystemId": "g",
                              "costTypes": {"costType": {"id": "pts", "name": "pts"}},
                              "publications": {"publication": [{"id": "p1"}, {"id": "p2"}]},
                              "rules": {}}}
    root = read_data_json(orjson.dumps(document)).root
    assert root["costTypes"] == [{"id": "pts", "name": "pts"}]
    assert root["publications"] == [{"id": "p1"}, {"id": "p2"}]
    assert root["rules"] == []

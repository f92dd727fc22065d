"""Rosters: .ros/.rosz read to the roster dict and written back, read -> write -> read the same."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from listbuilder.battlescribe.importing import RosterWriteError, read_roster_xml, write_roster_rosz, write_roster_xml

SPECS = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "battlescribe-spec" / "roster-specs"
SPEC_ROSTERS = sorted(SPECS.glob("*/*.ros")) if SPECS.is_dir() else []
SPEC_YAMLS = sorted(SPECS.glob("*/*.yaml")) if SPECS.is_dir() else []

ROSTER = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<roster id="r-1" name="My List" battleScribeVersion="2.03" gameSystemId="gs-1" gameSystemName="Test"
 gameSystemRevision="2" xmlns="http://www.battlescribe.net/schema/rosterSchema">
  <costs><cost name="pts" typeId="pts" value="95.0"/></costs>
  <costLimits><costLimit name="pts" typeId="pts" value="2000"/></costLimits>
  <forces>
    <force id="f-1" name="Detachment" entryId="fe-1" catalogueId="cat-1" catalogueRevision="4" catalogueName="Cat">
      <selections>
        <selection id="s-1" name="Squad" entryId="se-1::se-2" entryGroupId="g-1" number="1" type="unit"
         customName="Red Squad" from="entry">
          <customNotes>Paint them red &amp; gold</customNotes>
          <rules><rule id="ru-1" name="Fast" hidden="false"><description>Moves fast</description></rule></rules>
          <profiles>
            <profile id="p-1" name="Trooper" hidden="false" typeId="pt" typeName="Unit">
              <characteristics>
                <characteristic name="M" typeId="m">6"</characteristic>
                <characteristic name="Keywords" typeId="k"/>
              </characteristics>
            </profile>
          </profiles>
          <selections>
            <selection id="s-2" name="Trooper" entryId="se-3" number="5" type="model"/>
          </selections>
          <costs><cost name="pts" typeId="pts" value="95"/></costs>
          <categories><category id="c-1" name="Troops" entryId="cat-troops" primary="true"/></categories>
        </selection>
      </selections>
      <categories><category id="c-2" name="Troops" entryId="cat-troops" primary="false"/></categories>
      <forces>
        <force id="f-2" name="Allies" entryId="fe-2" catalogueId="cat-2"/>
      </forces>
    </force>
  </forces>
</roster>
"""


def test_a_roster_reads_to_the_roster_dict() -> None:
    roster = read_roster_xml(ROSTER)
    assert (roster["name"], roster["gameSystemId"], roster["gameSystemRevision"]) == ("My List", "gs-1", 2)
    assert roster["costs"] == [{"name": "pts", "typeId": "pts", "value": 95.0}]
    assert roster["costLimits"] == [{"name": "pts", "typeId": "pts", "value": 2000}]
    force = roster["forces"][0]
    assert (force["entryId"], force["catalogueId"], force["catalogueRevision"]) == ("fe-1", "cat-1", 4)
    assert force["forces"] == [{"id": "f-2", "name": "Allies", "entryId": "fe-2", "catalogueId": "cat-2"}]
    squad = force["selections"][0]
    assert {key: squad[key] for key in ("entryId", "entryGroupId", "number", "type", "customName", "customNotes")} \
        == {"entryId": "se-1::se-2", "entryGroupId": "g-1", "number": 1, "type": "unit", "customName": "Red Squad",
            "customNotes": "Paint them red & gold"}
    assert squad["selections"][0]["number"] == 5
    assert squad["categories"][0]["primary"] is True
    assert squad["profiles"][0]["characteristics"] == [{"name": "M", "typeId": "m", "value": '6"'},
                                                       {"name": "Keywords", "typeId": "k", "value": ""}]
    assert squad["rules"][0]["description"] == "Moves fast"


def test_read_write_read_is_the_same_dict_and_writing_is_deterministic() -> None:
    roster = read_roster_xml(ROSTER)
    written = write_roster_xml(roster)
    assert read_roster_xml(written) == roster
    assert write_roster_xml(read_roster_xml(written)) == written


def test_written_rosters_are_battlescribe_2_03_in_the_roster_namespace() -> None:
    written = write_roster_xml({"id": "r", "name": "R", "gameSystemId": "g", "battleScribeVersion": "2.01",
                                "forces": []})
    assert written.startswith(b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<roster ')
    assert b'xmlns="http://www.battlescribe.net/schema/rosterSchema"' in written
    assert b'battleScribeVersion="2.03"' in written


def test_the_schemas_order_whatever_the_dicts() -> None:
    roster = read_roster_xml(ROSTER)
    reordered = dict(reversed(list(roster.items())))
    assert write_roster_xml(reordered) == write_roster_xml(roster)
    written = write_roster_xml(roster).decode()
    assert written.index("<costs>") < written.index("<costLimits>") < written.index("<forces>")
    assert written.index("<customNotes>") < written.index("<rules>") < written.index("<profiles>") \
        < written.index("<selections>", written.index("<profiles>")) < written.index("</categories>")
    assert '<selection id="s-1" name="Squad" entryId="se-1::se-2" entryGroupId="g-1" customName="Red Squad" ' \
           'number="1" type="unit" from="entry">' in written


def test_rosz_holds_one_ros_and_is_deterministic() -> None:
    roster = read_roster_xml(ROSTER)
    rosz = write_roster_rosz(roster)
    assert rosz == write_roster_rosz(roster)
    with zipfile.ZipFile(io.BytesIO(rosz)) as archive:
        assert archive.namelist() == ["My List.ros"]
    assert read_roster_xml(rosz) == roster


def test_a_roster_without_what_battlescribe_requires_is_not_written() -> None:
    with pytest.raises(RosterWriteError, match="gameSystemId"):
        write_roster_xml({"id": "r", "name": "R"})
    with pytest.raises(RosterWriteError, match="cost value"):
        write_roster_xml({"id": "r", "name": "R", "gameSystemId": "g",
                          "costs": [{"name": "pts", "typeId": "pts", "value": float("nan")}]})
    with pytest.raises(RosterWriteError, match="XML"):
        write_roster_xml({"id": "r", "name": "R\x00", "gameSystemId": "g"})
    with pytest.raises(RosterWriteError, match="XML"):
        write_roster_xml({"id": "r", "name": "R", "gameSystemId": "g", "bad key": "x"})


def spec_ros_contents() -> list[tuple[str, str]]:
    contents = [(path.name, path.read_text(encoding="utf-8")) for path in SPEC_ROSTERS]
    for path in SPEC_YAMLS:
        spec = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
        for number, step in enumerate(spec.get("steps") or []):
            if isinstance(step, dict) and step.get("action") == "loadRoster":
                contents.append((f"{path.name} step {number}", step["content"]))
    return contents


@pytest.mark.skipif(not SPEC_ROSTERS, reason="../shared/fixtures/battlescribe-spec is absent")
def test_the_conformance_specs_rosters_round_trip() -> None:
    contents = spec_ros_contents()
    assert len(contents) >= 6, [name for name, _ in contents]
    for name, text in contents:
        roster = read_roster_xml(text.encode("utf-8"))
        assert isinstance(roster["forces"], list), name
        again = read_roster_xml(write_roster_xml(roster))
        assert again == {**roster, "battleScribeVersion": "2.03"}, name
    print(f"{len(contents)} spec rosters round-tripped")


def test_unknown_elements_round_trip_too() -> None:
    roster = {"id": "r", "name": "R", "gameSystemId": "g", "forces": [],
              "novelty": [{"a": "1"}, {"a": "2"}], "extras": [{"b": "x"}], "note": "text", "tags": [],
              "odd": {"value": "inner", "deeper": {"c": "y"}}, "alias": ["one", "two"]}
    assert read_roster_xml(write_roster_xml(roster)) == {**roster, "battleScribeVersion": "2.03"}

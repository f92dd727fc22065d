"""Small made-up BattleScribe files for importer tests (no BSData content)."""

from __future__ import annotations

from pathlib import Path

GAME_SYSTEM = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<gameSystem xmlns="http://www.battlescribe.net/schema/gameSystemSchema" id="sys-test" name="Test System"
            revision="3" type="gameSystem">
  <costTypes><costType id="pts-id" name="pts" defaultCostLimit="-1"/></costTypes>
  <categoryEntries>
    <categoryEntry id="cat-battleline" name="Battleline"/>
    <categoryEntry id="cat-character" name="Character"/>
    <categoryEntry id="cat-faction" name="Faction: Testers"/>
  </categoryEntries>
  <sharedSelectionEntries>
    <selectionEntry id="bs" name="Battle Size" type="upgrade">
      <selectionEntryGroups>
        <selectionEntryGroup id="bs-group" name="Battle Size">
          <selectionEntries>
            <selectionEntry id="bs-1" name="1. Incursion (1000 Point limit)" type="upgrade"/>
            <selectionEntry id="bs-2" name="2. Strike Force (2000 Point limit)" type="upgrade"/>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntry>
  </sharedSelectionEntries>
</gameSystem>
"""

PROFILE = """<profiles><profile id="{id}" name="{name}" typeName="Unit"><characteristics>
  <characteristic name="M">6"</characteristic><characteristic name="T">4</characteristic>
  <characteristic name="SV">3+</characteristic><characteristic name="W">2</characteristic>
  <characteristic name="LD">6+</characteristic><characteristic name="OC">2</characteristic>
</characteristics></profile></profiles>"""


def when(kind: str, value: int, child: str, scope: str = "u-squad") -> str:
    return (f'<conditions><condition type="{kind}" value="{value}" field="selections" scope="{scope}" '
            f'childId="{child}"/></conditions>')


def between(low: int, high: int, key: str) -> str:
    """Constraints: at least `low` and at most `high` selections in the parent."""
    return (f'<constraints><constraint type="min" value="{low}" field="selections" scope="parent" id="{key}-min"/>'
            f'<constraint type="max" value="{high}" field="selections" scope="parent" id="{key}-max"/></constraints>')


CATALOGUE = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" id="cat-test" name="Test - Testers"
           revision="7" library="false" gameSystemId="sys-test" type="catalogue">
  <selectionEntries>
    <selectionEntry type="unit" id="u-squad" name="Test Squad">
      <categoryLinks>
        <categoryLink id="l-1" targetId="cat-battleline" name="Battleline"/>
        <categoryLink id="l-2" targetId="cat-faction" name="Faction: Testers"/>
      </categoryLinks>
      <constraints><constraint type="max" value="6" field="selections" scope="roster" id="k-roster"/></constraints>
      <costs><cost name="pts" typeId="pts-id" value="40"/></costs>
      <modifiers>
        <modifier type="set" value="60" field="pts-id">{when("atLeast", 2, "model")}</modifier>
        <modifier type="set" value="90" field="pts-id">{when("greaterThan", 2, "model")}</modifier>
        <modifier type="set" value="100" field="pts-id">{when("equalTo", 4, "g-troops")}</modifier>
      </modifiers>
      <selectionEntryGroups>
        <selectionEntryGroup id="g-troops" name="Troops">
          {between(1, 5, "k-troops")}
          <selectionEntries>
            <selectionEntry type="model" id="m-trooper" name="Trooper">
              {between(1, 5, "k-trooper")}
              {PROFILE.format(id="p-trooper", name="Trooper")}
              <selectionEntryGroups>
                <selectionEntryGroup id="g-gun" name="Gun" defaultSelectionEntryId="o-rifle">
                  {between(1, 1, "k-gun")}
                  <selectionEntries>
                    <selectionEntry type="upgrade" id="o-rifle" name="Rifle"/>
                    <selectionEntry type="upgrade" id="o-pistol" name="Pistol"/>
                  </selectionEntries>
                </selectionEntryGroup>
                <selectionEntryGroup id="g-heavy" name="Heavy Gun">
                  <selectionEntries>
                    <selectionEntry type="upgrade" id="o-cannon" name="Cannon">
                      <constraints><constraint type="max" value="1" field="selections" scope="unit" id="k-cannon"/>\
</constraints>
                    </selectionEntry>
                    <selectionEntry type="upgrade" id="o-mortar" name="Mortar"/>
                  </selectionEntries>
                </selectionEntryGroup>
              </selectionEntryGroups>
            </selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntry>
    <selectionEntry type="unit" id="u-walkers" name="Test Walkers">
      <categoryLinks><categoryLink id="l-3" targetId="cat-faction" name="Faction: Testers"/></categoryLinks>
      <selectionEntries>
        <selectionEntry type="model" id="m-walker" name="Walker">
          {between(1, 3, "k-walker")}
          <costs><cost name="pts" typeId="pts-id" value="25"/></costs>
          {PROFILE.format(id="p-walker", name="Walker")}
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
    <selectionEntry type="model" id="u-boss" name="Test Boss">
      <categoryLinks>
        <categoryLink id="l-4" targetId="cat-character" name="Character"/>
        <categoryLink id="l-5" targetId="cat-faction" name="Faction: Testers"/>
      </categoryLinks>
      <costs><cost name="pts" typeId="pts-id" value="70"/></costs>
      <profiles>
        <profile id="p-leader" name="Leader" typeName="Abilities"><characteristics>
          <characteristic name="Description">This model can be attached to the following units:
■ TEST SQUAD
■ Test Walkers*

* Only while it carries a banner.</characteristic>
        </characteristics></profile>
      </profiles>
      <entryLinks>{{link}}</entryLinks>
    </selectionEntry>
    <selectionEntry type="upgrade" id="detachment" name="Detachment">
      <selectionEntryGroups>
        <selectionEntryGroup id="detachment-choice" name="Detachment">
          <selectionEntries>
            <selectionEntry type="upgrade" id="d-alpha" name="Alpha Host">
              <rules><rule id="r-alpha" name="Alpha Drill"><description>Made-up rule text.</description></rule></rules>
            </selectionEntry>
            <selectionEntry type="upgrade" id="d-beta" name="Beta Host"/>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntry>
  </selectionEntries>
  <sharedSelectionEntryGroups>
    <selectionEntryGroup id="enhancements" name="Enhancements">
      <selectionEntries>
        <selectionEntry type="upgrade" id="e-sword" name="Shiny Sword">
          <profiles><profile id="p-sword" name="Shiny Sword" typeName="Abilities"><characteristics>
            <characteristic name="Description">TESTERS model only (excluding bosses). The bearer shines.\
</characteristic>
          </characteristics></profile></profiles>
          <modifiers><modifier type="set" value="true" field="hidden">{when("lessThan", 1, "d-alpha", "force")}\
</modifier></modifiers>
          <costs><cost name="pts" typeId="pts-id" value="15"/></costs>
        </selectionEntry>
      </selectionEntries>
      <selectionEntryGroups>
        <selectionEntryGroup id="enhancements-beta" name="Beta Host Enhancements">
          <selectionEntries><selectionEntry type="upgrade" id="e-shield" name="Dull Shield">
            <costs><cost name="pts" typeId="pts-id" value="10"/></costs></selectionEntry></selectionEntries>
        </selectionEntryGroup>
        <selectionEntryGroup id="enhancements-gamma" name="Gamma Host Enhancements">
          <selectionEntries><selectionEntry type="upgrade" id="e-other" name="Another Army's Relic"/></selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntryGroup>
  </sharedSelectionEntryGroups>
</catalogue>
"""


def write_sample(folder: Path, catalogue: str | None = None, link: str = "") -> Path:
    """A folder with the made-up game system and catalogue; `link` goes into the Test Boss entry."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "Test.gst").write_text(GAME_SYSTEM, encoding="utf-8")
    (folder / "Test - Testers.cat").write_text(catalogue or CATALOGUE.replace("{link}", link), encoding="utf-8")
    return folder

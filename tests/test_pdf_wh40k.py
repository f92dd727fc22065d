"""The printed 40k roster shows what the player plays with (issue 28): the chosen loadout, the
abilities and rules the data shows for the army (its hide conditions applied, DECISIONS.md D33),
no markup, weapon keywords with their weapons, the Transport text once, and a section with the army
rule, the detachment rule and the Enhancements taken. On the BSData snapshot (801555b)."""

import io
import re
import shutil
import subprocess

import pytest
from pypdf import PdfReader

from listbuilder.core.names import name_key
from listbuilder.games.wh40k10.summary import loadout, sheet
from listbuilder.listengine.catalog import Catalog
from listbuilder.report.pdf import roster_pdf
from listbuilder.rosters.batch import check_file

ROSTER = """\
# A Captain with a plasma pistol and power fist leading five Intercessors (the Sergeant's power
# fist, one grenade launcher), a Tactical Squad in a Rhino (which carries no TACTICUS models such as
# Intercessors, by its datasheet as the data states it), and five Terminators: a Gladius Task Force.
game: wh40k-10e
faction: Space Marines
battle_size: Strike Force
detachment: Gladius Task Force
name: Issue 28
units:
  - type: Captain
    warlord: true
    enhancement: Artificer Armour
    leads: Intercessor Squad
    wargear: {Plasma pistol: 1, Power fist: 1}
  - type: Intercessor Squad
    models: 5
    wargear: {Power fist: 1, Astartes grenade launcher: 1}
  - type: Tactical Squad
    models: 10
    embarked_in: Rhino
  - type: Rhino
  - type: Terminator Squad
    models: 5
"""


@pytest.fixture(scope="module")
def data(bsdata):
    return bsdata.catalog


@pytest.fixture(scope="module")
def printed(data, tmp_path_factory):
    """The roster's PDF, and the text of each of its pages (white space runs made one space)."""
    path = tmp_path_factory.mktemp("print") / "issue-28.yaml"
    path.write_text(ROSTER, encoding="utf-8")
    catalog = Catalog(installed={"wh40k-10e": data})
    result = check_file(path, catalog, "issue-28.yaml")
    assert result.valid, [f.message for f in result.findings]
    pdf = roster_pdf(result, catalog, source="issue-28.yaml")
    return pdf, [re.sub(r"\s+", " ", page.extract_text()) for page in PdfReader(io.BytesIO(pdf)).pages]


def card(text: str, heading: str) -> str:
    """One datasheet's text: from its heading (its name and first keywords) to its Points line."""
    start = text.index(heading, text.index("Datasheets"))
    return text[start:text.index("Points:", start)]


def test_the_army_rules_section_comes_before_the_datasheets(printed):
    rest = " ".join(printed[1][1:])
    assert rest.index("Army rules") < rest.index("Oath of Moment: If your Army Faction is Adeptus Astartes") \
        < rest.index("Detachment rule Gladius Task Force") < rest.index("Combat Doctrines: ") \
        < rest.index("Enhancements taken by this army") \
        < rest.index("Artificer Armour (10 pts, #1 Captain): Adeptus Astartes model only.") < rest.index("Datasheets")


def test_no_markup_no_hidden_rule_and_the_transport_text_once(printed):
    text = " ".join(printed[1])
    assert "^^" not in text and "**" not in text
    assert "Templar Vows" not in text  # hidden unless the primary catalogue is Black Templars
    assert text.count("transport capacity of 12 ADEPTUS ASTARTES INFANTRY") == 1


def test_each_card_shows_the_chosen_loadout_with_its_weapons_keywords(printed):
    text = " ".join(printed[1][1:])
    captain = card(text, "Captain Character, Infantry")
    assert "Plasma pistol - standard [Pistol]" in captain and "Power fist" in captain
    for not_carried in ("Master-crafted bolter", "Neo-volkite", "Heavy Bolt Pistol", "Close combat weapon",
                        "Master-crafted power weapon"):
        assert not_carried not in captain
    assert "Abilities: Leader, Oath of Moment " in captain  # no Pistol, Hazardous: those are weapon keywords
    assert "Relic Shield" not in captain and "Finest Hour" in captain  # the shield comes with an option not taken
    intercessors = card(text, "Intercessor Squad Infantry, Battleline")
    assert "Bolt Rifle ×5 [Assault, Heavy]" in intercessors and "Close combat weapon ×4" in intercessors
    assert "Power fist ×1" in intercessors and "Astartes grenade launcher - krak ×1" in intercessors
    assert "Thunder Hammer" not in intercessors and "Hand flamer" not in intercessors
    assert "Taken as: #2 5 Intercessor Squad" in intercessors
    assert "Abilities: Oath of Moment " in intercessors
    terminators = card(text, "Terminator Squad Infantry")
    assert "Storm bolter ×5 [Rapid Fire 2]" in terminators and "Power fist ×5" in terminators
    assert "Chainfist" not in terminators and "Assault Cannon" not in terminators


def test_a_rule_hidden_by_the_army_catalogue_shows_where_the_data_shows_it(data):
    space_marines, black_templars = data.faction("Space Marines"), data.faction("Black Templars")
    captain = data.unit_named(space_marines, "Captain")
    assert captain.rules_in(space_marines.id) == ["Leader", "Oath of Moment"]
    assert captain.rules_in(black_templars.id) == ["Leader", "Templar Vows"]
    assert [r.name for r in space_marines.army_rules] == ["Oath of Moment"]
    assert [r.name for r in black_templars.army_rules] == ["Templar Vows"]
    assert dict(sheet(captain, black_templars.id).lines)["Abilities"] == "Leader, Templar Vows"


def test_the_loadout_starts_from_the_datas_defaults(data):
    space_marines = data.faction("Space Marines")
    captain = data.unit_named(space_marines, "Captain")
    assert loadout(captain, 1, {}) == keyed({"Bolt pistol": 1, "Close combat weapon": 1, "Master-crafted bolter": 1})
    # a power fist alone comes through the default option's melee choice: it replaces the close combat weapon
    assert loadout(captain, 1, {"Power fist": 1}) == keyed({"Bolt pistol": 1, "Master-crafted bolter": 1,
                                                             "Power fist": 1})
    intercessors = data.unit_named(space_marines, "Intercessor Squad")
    assert loadout(intercessors, 10, {"Astartes grenade launcher": 2}) == keyed({
        "Bolt Rifle": 10, "Bolt pistol": 10, "Close combat weapon": 10, "Astartes grenade launcher": 2})


def keyed(carried: dict[str, int]) -> dict[str, int]:
    return {name_key(weapon): count for weapon, count in carried.items()}


def test_an_ability_an_option_gives_is_printed_with_that_options_weapons(data):
    space_marines = data.faction("Space Marines")
    captain = data.unit_named(space_marines, "Captain")
    [shield] = [a for a in captain.abilities if a.name == "Relic Shield"]
    assert shield.comes_with == [["Heavy Bolt Pistol", "Master-crafted power weapon"]]
    with_shield = loadout(captain, 1, {"Heavy Bolt Pistol": 1, "Master-crafted power weapon": 1})
    assert with_shield == keyed({"Heavy Bolt Pistol": 1, "Master-crafted power weapon": 1})
    assert "Relic Shield" in dict(sheet(captain, space_marines.id, with_shield).lines)
    assert "Relic Shield" not in dict(sheet(captain, space_marines.id, loadout(captain, 1, {})).lines)


def test_imported_text_has_no_markup_and_weapon_rules_stay_with_weapons(data):
    texts = [a.text for u in data.units.values() for a in u.abilities]
    texts += [r.text for f in data.factions for d in f.detachments for r in d.rules]
    texts += [e.text for f in data.factions for d in f.detachments for e in d.enhancements]
    texts += [r.text for f in data.factions for r in f.army_rules]
    assert texts and not [t for t in texts if "^^" in t or "**" in t]
    rhino = data.unit_named(data.faction("Space Marines"), "Rhino")
    assert "Transport" not in [a.name for a in rhino.abilities] and rhino.transport
    assert "Rapid Fire" not in rhino.rules and "Firing Deck" in rhino.rules


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler) is not installed")
def test_the_army_rules_page_renders(printed, tmp_path):
    pdf, _ = printed
    (tmp_path / "roster.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "2", "-l", "2", str(tmp_path / "roster.pdf"),
                    str(tmp_path / "page")], check=True)
    [png] = tmp_path.glob("page*.png")
    assert png.stat().st_size > 10_000  # a page of text, not a blank one

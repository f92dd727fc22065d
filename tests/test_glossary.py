"""The ability glossary (datasheets/<game>/abilities.yaml) explains every ability a datasheet or an
upgrade names, so the printed roster can say what each one does once instead of under every unit."""

import re
from dataclasses import replace

import pytest

from listbuilder.listengine.catalog import Catalog
from listbuilder.listengine.datasheet import Datasheet
from listbuilder.report.pdf.formations import weapon_abilities

GAME = "epic-armageddon"


def abilities_used(catalog: Catalog, game: str) -> dict[str, str]:
    """Every ability named in the game's data -> where it is named first."""
    used: dict[str, str] = {}
    for stem, sheet_file in sorted(catalog.datasheets.get(game, {}).items()):
        for sheet in sheet_file.units:
            for ability in sheet.abilities:
                used.setdefault(ability, f"datasheets/{game}/{stem}.yaml: {sheet.name}")
    for list_id, army in sorted(catalog.lists.get(game, {}).items()):
        for upgrade in army.upgrades:
            if upgrade.grants is not None:
                used.setdefault(upgrade.grants.ability, f"lists/{game}/{list_id}.yaml: upgrade {upgrade.name}")
    return used


def missing(catalog: Catalog, game: str) -> list[str]:
    return [f"{ability} ({where})" for ability, where in abilities_used(catalog, game).items()
            if catalog.ability(game, ability) is None]


def test_every_ability_in_the_data_is_in_the_glossary(catalog):
    assert abilities_used(catalog, GAME)
    assert missing(catalog, GAME) == []


def test_an_ability_the_glossary_lacks_is_reported(catalog):
    sheet_file = next(iter(catalog.datasheets[GAME].values()))
    invented = Datasheet(name="Test Unit", type="INF", abilities=["Reinforced Armour", "Made-up Ability (+2)"],
                         lines=[1])
    changed = replace(catalog, datasheets={GAME: {"test": sheet_file.model_copy(update={"units": [invented]})}})
    assert missing(changed, GAME) == ["Made-up Ability (+2) (datasheets/epic-armageddon/test.yaml: Test Unit)"]


@pytest.mark.parametrize("printed, entry", [("Augment Summoning (+2D3)", "Augment Summoning"),
                                            ("Sniper", "Sniper"), ("TK (D3)", "TK"), ("TK(2)", "TK")])
def test_printed_parameters_match_the_entry(catalog, printed, entry):
    assert catalog.ability(GAME, printed).name == entry


def test_weapon_abilities_are_read_from_firepower():
    assert weapon_abilities("MW2+, TK (D3), Fwd Arc") == ["MW", "TK", "Fwd Arc"]
    assert weapon_abilities("2 x MW2+ AND (15cm) Small Arms") == ["MW", "Small Arms"]
    assert weapon_abilities("2BP, Disrupt, Indirect") == ["2BP", "Disrupt", "Indirect"]


def test_every_entry_is_used_and_short(catalog):
    """No entry explains an ability nothing has, and each is a summary, not the rule text."""
    used = set(abilities_used(catalog, GAME))
    used |= {name for f in catalog.datasheets[GAME].values() for s in f.units for w in s.weapons
             for name in weapon_abilities(w.firepower)}
    matched = {catalog.ability(GAME, name).name for name in used if catalog.ability(GAME, name)}
    for entry in catalog.abilities[GAME].values():
        assert entry.name in matched, f"{entry.name} is used by no datasheet"
        assert len(entry.summary) <= 260, f"{entry.name}: keep the summary to one or two short sentences"
        assert re.match(r"\d+(\.\d+)* \w", entry.rule), f"{entry.name}: the rule starts with its section"

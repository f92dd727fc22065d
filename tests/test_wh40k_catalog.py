"""The 40k catalog model: lookups the rules pack relies on (made-up data, not the user's)."""

from listbuilder.games.wh40k10.catalog import (
    BattleSize,
    Faction,
    GameSystem,
    ImportSummary,
    ModelRange,
    Unit,
    UnitProfile,
    UnitSize,
    Wh40kCatalog,
)


def small_catalog() -> Wh40kCatalog:
    profile = UnitProfile(name="Trooper", movement='6"', toughness="4", save="3+", wounds="2",
                          leadership="6+", objective_control="2")
    squad = Unit(id="u1", name="Test Squad", keywords=["Infantry"], faction_keywords=["Testers"],
                 models=[ModelRange(name="Trooper", min=5, max=10)],
                 sizes=[UnitSize(models=n, points=80 if n < 6 else 160) for n in range(5, 11)],
                 profiles=[profile])
    return Wh40kCatalog(
        data_revision="test", system=GameSystem(name="test", revision=1,
                                                battle_sizes=[BattleSize(name="Strike Force", points=2000)]),
        factions=[Faction(id="f1", name="Test - Testers", faction_keyword="Testers", revision=1, units=["u1"])],
        units={"u1": squad}, summary=ImportSummary(catalogues=1, units=1))


def test_points_come_from_the_resolved_table():
    squad = small_catalog().units["u1"]
    assert (squad.min_models, squad.max_models) == (5, 10)
    assert [squad.points_for(n) for n in (4, 5, 6, 10, 11)] == [None, 80, 160, 160, None]


def test_a_faction_is_found_by_catalogue_name_or_keyword_and_lists_its_units():
    catalog = small_catalog()
    faction = catalog.faction("testers")
    assert faction is catalog.faction("Test - Testers") is catalog.faction("TESTERS") is not None
    assert catalog.unit_named(faction, "test squad").id == "u1"
    assert catalog.unit_named(faction, "Other") is None

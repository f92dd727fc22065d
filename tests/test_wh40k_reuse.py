"""What the engine found at a 40k roster's units, reused after an edit (battlescribe/reuse.py), is what
a check from scratch finds: for every example roster (a share by default, all under `-m slow`) and
edits of each kind the editor makes (models, wargear, a unit added or taken away, detachment, battle
size, Warlord, Leader, Enhancement), the findings after the edit with what the state before it kept
are those with nothing kept, and so are those of the state before, checked again after the edit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from listbuilder.games import validate
from listbuilder.games.wh40k10.catalog import GAME_ID
from listbuilder.games.wh40k10.roster import Wh40kRoster
from listbuilder.games.wh40k10.rules import find_faction
from listbuilder.listengine.catalog import Catalog
from listbuilder.rosters.batch import read_file

from .sampling import one_in

TESTS = Path(__file__).resolve().parent
ROSTERS = sorted((TESTS / "wh40k-rosters").rglob("*.yaml"))
LISTS = sorted(p for p in (TESTS / "wh40k-lists").rglob("*") if p.suffix in (".txt", ".ros", ".rosz"))


@pytest.fixture(scope="module")
def catalog(bsdata):
    return Catalog(installed={"wh40k-10e": bsdata.catalog})


def edits(roster: Wh40kRoster, catalog: Catalog) -> Iterator[tuple[str, Wh40kRoster]]:
    """The roster after one edit of each kind the editor makes, where it applies."""
    data = catalog.imported(GAME_ID, roster.faction)
    [faction] = find_faction(data, roster.faction)
    units = roster.units

    def with_units(changed: list) -> Wh40kRoster:
        return roster.model_copy(update={"units": changed})

    def unit_changed(index: int, **update: object) -> Wh40kRoster:
        return with_units([*units[:index], units[index].model_copy(update=update), *units[index + 1:]])

    for index in dict.fromkeys((0, len(units) // 2, len(units) - 1)):
        if index >= len(units):
            continue
        models = units[index].models or data.units[next(u for u in data.units if data.units[u].name.casefold()
                                                             == units[index].type.casefold())].min_models
        yield f"unit {index} models +1", unit_changed(index, models=models + 1)
        if models > 1:
            yield f"unit {index} models -1", unit_changed(index, models=models - 1)
        yield f"unit {index} taken away", with_units(units[:index] + units[index + 1:])
    if units:
        yield "a unit added", with_units([*units, units[len(units) // 2].model_copy(update={
            "label": None, "warlord": False, "enhancement": None, "leads": None, "embarked_in": None})])
    armed = next((i for i, u in enumerate(units) if u.wargear), None)
    if armed is not None:
        weapon, carried = next(iter(units[armed].wargear.items()))
        rest = {w: n for w, n in units[armed].wargear.items() if w != weapon}
        yield "a weapon taken away", unit_changed(armed, wargear=rest)
        if carried > 1:
            yield "a weapon's carriers -1", unit_changed(armed, wargear={**units[armed].wargear, weapon: carried - 1})
    warlord = next((i for i, u in enumerate(units) if u.warlord), None)
    if warlord is not None:
        yield "no Warlord", unit_changed(warlord, warlord=False)
        other = next((i for i in range(len(units)) if i != warlord), None)
        if other is not None:
            moved = [u.model_copy(update={"warlord": i == other}) for i, u in enumerate(units)]
            yield "another Warlord", with_units(moved)
    leader = next((i for i, u in enumerate(units) if u.leads), None)
    if leader is not None:
        yield "a Leader no longer leading", unit_changed(leader, leads=None)
    enhanced = next((i for i, u in enumerate(units) if u.enhancement), None)
    if enhanced is not None:
        yield "an Enhancement taken away", unit_changed(enhanced, enhancement=None)
    other_detachment = next((d.name for d in faction.detachments if d.name != roster.detachment), None)
    if other_detachment is not None:
        yield "another detachment", roster.model_copy(update={"detachment": other_detachment})
    other_size = next((s.name for s in data.system.battle_sizes if s.name != roster.battle_size), None)
    if other_size is not None:
        yield "another battle size", roster.model_copy(update={"battle_size": other_size})


def checked(roster: Wh40kRoster, catalog: Catalog, fresh: bool = False) -> tuple[object, ...]:
    """What a check finds, with what earlier checks kept (or, `fresh`, with nothing kept)."""
    data = catalog.imported(GAME_ID, roster.faction)
    [faction] = find_faction(data, roster.faction)
    engine = data.engine_data(faction)
    if fresh:
        engine.reuse.clear()
    result = validate(roster, catalog)
    return tuple(result.findings), tuple(u.points for u in result.units)


def assert_reuse_is_fresh(roster: Wh40kRoster, catalog: Catalog) -> None:
    before = checked(roster, catalog, fresh=True)
    assert checked(roster, catalog) == before  # the same state again: everything reused
    for what, edited in edits(roster, catalog):
        checked(roster, catalog, fresh=True)
        after = checked(edited, catalog)
        again = checked(roster, catalog)  # back: the first state, with both kept
        assert after == checked(edited, catalog, fresh=True), what
        assert again == before, f"back from: {what}"


@pytest.mark.parametrize("path", one_in(4, ROSTERS), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_findings_reused_after_an_edit_are_those_of_a_fresh_check(catalog, path):
    """Each faction's first example roster and one in four after it in the suite, all of them under
    `-m slow` (the suite's time)."""
    assert_reuse_is_fresh(read_file(path, catalog).roster, catalog)


@pytest.mark.slow
@pytest.mark.parametrize("path", LISTS, ids=lambda p: str(p.relative_to(TESTS / "wh40k-lists")))
def test_findings_reused_after_an_edit_of_a_list_are_those_of_a_fresh_check(catalog, path):
    assert_reuse_is_fresh(read_file(path, catalog).roster, catalog)


@pytest.fixture
def replayed(monkeypatch) -> list[str]:
    """The names of the units whose findings were reused."""
    from listbuilder.battlescribe.validate import Validator

    names: list[str] = []
    replay = Validator._replay

    def spied(self, found, places, force):
        if places:
            names.append(places[0].option.name)
        replay(self, found, places, force)

    monkeypatch.setattr(Validator, "_replay", spied)
    return names


def test_a_roster_wide_count_is_counted_again_at_a_reused_unit(catalog, replayed):
    """Artificer Armour twice breaks its max of one in the roster: the engine's finding is the
    Captain's place's (the first offering it), at the Lieutenant's. The Apothecary's taken away,
    the Captain and the Lieutenant are reused, their count done again: no finding. The Captain
    taken away, the Lieutenant's own place says it (a unit checked again: which ids the roster
    holds changed)."""
    roster = read_file(TESTS / "wh40k-rosters/space-marines/illegal-enhancements.yaml", catalog).roster

    def twice(result) -> list[tuple[str | int, ...]]:
        return [result.tree.place_of(e.path) for e in result.tree.editor.errors()
                if e.message == "Artificer Armour: at most 1 selection in the roster, 2 taken"]

    checked(roster, catalog, fresh=True)
    assert twice(validate(roster, catalog)) == [("units", 1, "enhancement")]
    apothecary = roster.units[2].model_copy(update={"enhancement": None})
    once = roster.model_copy(update={"units": [*roster.units[:2], apothecary, *roster.units[3:]]})
    replayed.clear()
    after = checked(once, catalog)
    assert {"Captain", "Lieutenant"} <= set(replayed)
    assert twice(validate(once, catalog)) == []
    assert after == checked(once, catalog, fresh=True)
    checked(roster, catalog, fresh=True)
    no_captain = roster.model_copy(update={"units": roster.units[1:]})
    replayed.clear()
    found = checked(no_captain, catalog)
    assert "Lieutenant" not in replayed
    assert twice(validate(no_captain, catalog)) == [("units", 0, "enhancement")]
    assert found == checked(no_captain, catalog, fresh=True)


def test_the_first_roster_checked_on_the_data_keeps_nothing_to_reuse(catalog, replayed, monkeypatch):
    """A check of one file checks no other roster, so the first checked on a faction's data records
    nothing (engine_roster); the second keeps what it found, which the third reuses."""
    roster = read_file(TESTS / "wh40k-rosters/space-marines/illegal-enhancements.yaml", catalog).roster
    data = catalog.imported(GAME_ID, roster.faction)
    [faction] = find_faction(data, roster.faction)
    engine = data.engine_data(faction)
    engine.reuse.clear()
    monkeypatch.setattr(engine, "checked", False)
    first = checked(roster, catalog)
    replayed.clear()
    assert checked(roster, catalog) == first
    assert replayed == []
    assert checked(roster, catalog) == first
    assert {"Captain", "Lieutenant"} <= set(replayed)

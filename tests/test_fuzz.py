"""Fuzzing the roster reader and the engine (issue 13): mutants of the example rosters, and
rosters built from the data's own names with hostile numbers and strings, for each game (Epic
Armageddon, Warhammer 40,000 on the BSData fixture, Epic Remastered), and mutants of the 40k list
text `export` writes as `import` reads it. Whatever the input, reading, checking, locating and
both reports end in a result or a LoadFailure: never another exception. A few hundred cases run
with the suite; `pytest -m fuzz` runs 10,000 of each."""

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from listbuilder.core.findings import LoadFailure
from listbuilder.games import summarise, system_for, validate
from listbuilder.games.epic_remastered.rules import data_of
from listbuilder.report.safe import printable_lines
from listbuilder.report.text import failure_text, roster_text
from listbuilder.rosters.batch import check_file
from listbuilder.rosters.files import locate_all, parse_roster
from listbuilder.rosters.lists import read_list_data

TESTS = Path(__file__).parent
EXAMPLES = [p.read_text() for p in sorted((TESTS / "rosters").rglob("*.yaml"))]
WH40K_EXAMPLES = sorted((TESTS / "wh40k-rosters").rglob("*.yaml"))
ER_EXAMPLES = [p.read_text() for p in sorted((TESTS / "epic-remastered-rosters").rglob("*.yaml"))]
HOSTILE_TEXT = ["[" * 30, "{" * 30, "&a", "*a", "!!omap", "!!python/object:os.system", "<<: *a", "---", "...",
                "\x00", "\x1b[2K", "\ud800", "\u202e", "9" * 400, "-1", "1e400", ".nan", "~", "? ", ": ", "- ",
                "\t", "\r\n", "\ufeff", "'", '"', "#", "|", ">", "%YAML 1.1", "0x1F", "0o17", "1_000"]
NUMBERS = st.one_of(st.integers(-3, 40), st.integers(-10**12, 10**12), st.sampled_from([0, 1, 500, 501, 10**9]))
COUNTS = st.one_of(st.integers(1, 20), st.integers(21, 10**12))  # read as counts: the engine gets them
FAST, THOROUGH = 150, 10_000


def _mutant(text: str, cut: int, length: int, insert: str) -> str:
    where = cut % (len(text) + 1)
    return text[:where] + insert + text[where + length:]


def _mutants(examples: list[str]):
    return st.builds(_mutant, st.sampled_from(examples), st.integers(0, 10_000), st.integers(0, 40),
                     st.one_of(st.sampled_from(HOSTILE_TEXT), st.text(max_size=20)))


mutants = _mutants(EXAMPLES)


def _names(catalog) -> list[str]:
    lists = catalog.lists["epic-armageddon"].values()
    return sorted({n for army in lists for n in (army.id, *(f.name for f in army.formations),
                                                   *(u.name for u in army.upgrades),
                                                   *(o.label for u in army.upgrades for o in u.options))})


def _rosters(names: list[str]):
    name = st.one_of(st.sampled_from(names), st.sampled_from(HOSTILE_TEXT), st.text(max_size=10))
    choice = st.one_of(st.booleans(), NUMBERS, name, st.dictionaries(name, NUMBERS, max_size=3),
                       st.fixed_dictionaries({"character": name, "joins": name}),
                       st.lists(st.fixed_dictionaries({"character": name, "joins": name}), max_size=2))
    formation = st.fixed_dictionaries({"type": name}, optional={
        "count": NUMBERS, "size": name, "faction": name, "label": name, "split": st.booleans(), "transport": name,
        "composition": st.dictionaries(name, NUMBERS, max_size=3),
        "upgrades": st.dictionaries(name, choice, max_size=4),
        "wargear": st.dictionaries(name, st.one_of(name, st.dictionaries(name, NUMBERS, max_size=2)), max_size=2)})
    return st.fixed_dictionaries({"game": st.just("epic-armageddon"), "army": st.sampled_from(names),
                                  "points": NUMBERS, "formations": st.lists(formation, max_size=6)},
                                 optional={"purchases": st.dictionaries(name, NUMBERS, max_size=2), "name": name})


def _other_name(pool: list[str]):
    """A name of the wrong kind (from `pool`), text or hostile text: rosters with a hostile name in
    every field are refused on reading, so that here it is one name in a few (the mutants go further)."""
    printable = st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=10)  # YAML refuses the others
    return st.one_of(st.sampled_from(pool), st.sampled_from(pool), printable, st.sampled_from(HOSTILE_TEXT))


def _mostly(pool: list[str], name):
    """A name of `pool` three times in four, else `name` (any name, hostile text)."""
    return st.one_of(st.sampled_from(pool), st.sampled_from(pool), st.sampled_from(pool), name)


def _pools_40k(catalog) -> dict[str, list[str]]:
    """Names of three factions of the BSData fixture, by what they name."""
    data = catalog.imported("wh40k-10e")
    factions = [f for f in data.factions if f.short_name in ("Space Marines", "Necrons", "T'au Empire")]
    units = [u for f in factions for u in data.units_of(f)]
    return {"faction": sorted({n for f in factions for n in (f.short_name, f.name)}),
            "battle_size": [b.name for b in data.system.battle_sizes],
            "detachment": sorted({d.name for f in factions for d in f.detachments}),
            "enhancement": sorted({e.name for f in factions for d in f.detachments for e in d.enhancements}),
            "unit": sorted({u.name for u in units}),
            "weapon": sorted({w.name for u in units for w in u.weapons})}


def _rosters_40k(pools: dict[str, list[str]]):
    name = _other_name(pools["unit"])
    unit = st.fixed_dictionaries({"type": _mostly(pools["unit"], name)}, optional={
        "label": name, "models": COUNTS, "wargear": st.dictionaries(_mostly(pools["weapon"], name), COUNTS, max_size=2),
        "enhancement": _mostly(pools["enhancement"], name), "warlord": st.booleans(), "leads": name,
        "embarked_in": name, "reserves": st.booleans()})
    return st.fixed_dictionaries({"game": st.just("wh40k-10e"), "faction": st.sampled_from(pools["faction"]),
                                  "battle_size": st.sampled_from(pools["battle_size"]),
                                  "detachment": _mostly(pools["detachment"], name),
                                  "units": st.lists(unit, max_size=8)},
                                 optional={"name": name})


def _pools_er(catalog) -> dict[str, list[str]]:
    lists = [er.army for er in data_of(catalog).armies.values()]
    entries = [e for a in lists for d in a.detachments for _, e in d.entries]
    return {"army": sorted({n for a in lists for n in (a.id, a.name)}),
            "detachment": sorted({d.name for a in lists for d in a.detachments}),
            "unit": sorted({e.unit for e in entries}), "upgrade": sorted({u.name for e in entries for u in e.upgrades}),
            "transport": sorted({t for e in entries for t in e.transports})}


def _rosters_er(pools: dict[str, list[str]]):
    name = _other_name(pools["unit"])
    unit = st.fixed_dictionaries({"unit": _mostly(pools["unit"], name)}, optional={
        "count": COUNTS, "upgrades": st.lists(_mostly(pools["upgrade"], name), max_size=2),
        "transport": st.fixed_dictionaries({"unit": _mostly(pools["transport"], name)}, optional={"count": COUNTS})})
    detachment = st.fixed_dictionaries({"type": _mostly(pools["detachment"], name)}, optional={
        "label": name, "hq": name, "units": st.lists(unit, max_size=5)})
    return st.fixed_dictionaries({"game": st.just("epic-remastered"), "army": st.sampled_from(pools["army"]),
                                  "detachments": st.lists(detachment, max_size=4)},
                                 optional={"name": name, "points": COUNTS})


def _check(catalog, text: str) -> None:
    try:
        roster_file = parse_roster(text, "fuzz.yaml", catalog)
    except LoadFailure as failure:
        assert failure.findings and all(f.location is not None and f.location.file == "fuzz.yaml"
                                        for f in failure.findings)
        printable_lines(failure_text(failure.findings)).encode()
        return
    result = validate(roster_file.roster, catalog)
    result.findings = locate_all(roster_file, result.findings)
    roster_text("fuzz.yaml", result).encode()
    printable_lines(json.dumps(summarise(result).json, ensure_ascii=False)).encode()
    write = system_for(roster_file.roster.game).list_text
    if write is not None:
        write(result, catalog, True).encode()


def _check_list_text(catalog, text: str) -> None:
    """A 40k list as `import` reads it: placed into a roster and checked, or refused, located."""
    try:
        imported = read_list_data(text.encode("utf-8", "surrogatepass"), "fuzz.txt", catalog)
    except LoadFailure as failure:
        assert failure.findings and all(f.location is not None and f.location.file == "fuzz.txt"
                                        for f in failure.findings)
        return
    result = validate(imported.roster, catalog)
    roster_text("fuzz.txt", result).encode()


def _fuzz(cases: int):
    return settings(max_examples=cases, deadline=None, database=None, derandomize=cases == FAST,
                    suppress_health_check=list(HealthCheck))


def _built(roster: dict) -> str:
    return json.dumps(roster, ensure_ascii=False)


@pytest.fixture(scope="session")
def all_games(catalog, bsdata):
    """The shipped data with the BSData fixture installed: every game's rosters can be checked."""
    return dataclasses.replace(catalog, installed={"wh40k-10e": bsdata.catalog}, load_installed=None)


# Each kind of case, a session fixture: (the data to check with, what to draw, the check). Only the
# 40k ones take the BSData fixture (they are skipped without ../shared).

@pytest.fixture(scope="session")
def epic_armageddon_mutants(catalog):
    return catalog, mutants, _check


@pytest.fixture(scope="session")
def epic_armageddon_built(catalog):
    return catalog, _rosters(_names(catalog)).map(_built), _check


@pytest.fixture(scope="session")
def epic_remastered(catalog):
    """Mutants of the examples, or rosters built from the lists' names."""
    return catalog, st.one_of(_mutants(ER_EXAMPLES), _rosters_er(_pools_er(catalog)).map(_built)), _check


@pytest.fixture(scope="session")
def wh40k(all_games):
    """Mutants of the examples, or rosters built from the BSData fixture's names."""
    examples = [p.read_text() for p in WH40K_EXAMPLES]
    return all_games, st.one_of(_mutants(examples), _rosters_40k(_pools_40k(all_games)).map(_built)), _check


@pytest.fixture(scope="session")
def wh40k_list_text(all_games):
    """The 40k example rosters as `export` writes them (plain and Markdown), mutated, as `import` reads them."""
    write = system_for("wh40k-10e").list_text
    results = [check_file(path, all_games) for path in WH40K_EXAMPLES]
    texts = [write(result, all_games, markdown) for result in results for markdown in (False, True)]
    return all_games, _mutants(texts), _check_list_text


CASES = ["epic_armageddon_mutants", "epic_armageddon_built", "epic_remastered", "wh40k", "wh40k_list_text"]


@pytest.mark.parametrize("case, examples", [*((case, FAST) for case in CASES),
                                            *(pytest.param(case, THOROUGH, marks=pytest.mark.fuzz) for case in CASES)])
def test_fuzz(request, case, examples):
    catalog, cases, check = request.getfixturevalue(case)

    @_fuzz(examples)
    @given(data=st.data())
    def run(data):
        check(catalog, data.draw(cases))

    run()

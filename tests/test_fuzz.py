"""Fuzzing the roster reader and the engine (issue 13): mutants of the example rosters, and
rosters built from the lists' own names with hostile numbers and strings. Whatever the input,
reading, checking, locating and both reports end in a result or a LoadFailure: never another
exception. A few hundred cases run with the suite; `pytest -m fuzz` runs 10,000."""

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from listbuilder.core.findings import LoadFailure
from listbuilder.report.safe import printable_lines
from listbuilder.report.summary import army_json
from listbuilder.report.text import failure_text, roster_text
from listbuilder.rosters.files import locate_all, parse_roster
from listbuilder.systems import validate

EXAMPLES = [p.read_text() for p in sorted((Path(__file__).parent / "rosters").rglob("*.yaml"))]
HOSTILE_TEXT = ["[" * 30, "{" * 30, "&a", "*a", "!!omap", "!!python/object:os.system", "<<: *a", "---", "...",
                "\x00", "\x1b[2K", "\ud800", "\u202e", "9" * 400, "-1", "1e400", ".nan", "~", "? ", ": ", "- ",
                "\t", "\r\n", "\ufeff", "'", '"', "#", "|", ">", "%YAML 1.1", "0x1F", "0o17", "1_000"]
NUMBERS = st.one_of(st.integers(-3, 40), st.integers(-10**12, 10**12), st.sampled_from([0, 1, 500, 501, 10**9]))
FAST, THOROUGH = 150, 10_000


def _mutant(text: str, cut: int, length: int, insert: str) -> str:
    where = cut % (len(text) + 1)
    return text[:where] + insert + text[where + length:]


mutants = st.builds(_mutant, st.sampled_from(EXAMPLES), st.integers(0, 10_000), st.integers(0, 40),
                    st.one_of(st.sampled_from(HOSTILE_TEXT), st.text(max_size=20)))


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
        "composition": st.dictionaries(name, NUMBERS, max_size=3), "upgrades": st.dictionaries(name, choice, max_size=4),
        "wargear": st.dictionaries(name, st.one_of(name, st.dictionaries(name, NUMBERS, max_size=2)), max_size=2)})
    return st.fixed_dictionaries({"game": st.just("epic-armageddon"), "army": st.sampled_from(names),
                                  "points": NUMBERS, "formations": st.lists(formation, max_size=6)},
                                 optional={"purchases": st.dictionaries(name, NUMBERS, max_size=2), "name": name})


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
    printable_lines(json.dumps(army_json(result), ensure_ascii=False)).encode()


def _fuzz(cases: int):
    return settings(max_examples=cases, deadline=None, database=None, derandomize=cases == FAST,
                    suppress_health_check=list(HealthCheck))


@_fuzz(FAST)
@given(text=mutants)
def test_mutants_of_the_example_rosters(catalog, text):
    _check(catalog, text)


@_fuzz(FAST)
@given(data=st.data())
def test_rosters_built_from_the_lists_names(catalog, data):
    _check(catalog, json.dumps(data.draw(_rosters(_names(catalog)))))


@pytest.mark.fuzz
@_fuzz(THOROUGH)
@given(text=mutants)
def test_many_mutants(catalog, text):
    _check(catalog, text)


@pytest.mark.fuzz
@_fuzz(THOROUGH)
@given(data=st.data())
def test_many_built_rosters(catalog, data):
    _check(catalog, json.dumps(data.draw(_rosters(_names(catalog)))))

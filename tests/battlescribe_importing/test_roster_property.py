"""Any roster dict of the dict form's shape survives write -> read unchanged (hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from listbuilder.battlescribe.importing import read_roster_xml, write_roster_xml

# Text XML can hold (no control characters, no lone surrogates); ids and names may be anything of it.
TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("\n\t\r"), max_size=12)
NUMBER = st.integers(-10_000, 10_000) | st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
COST = st.fixed_dictionaries({"name": TEXT, "typeId": TEXT, "value": NUMBER})
CHARACTERISTIC = st.fixed_dictionaries({"name": TEXT, "typeId": TEXT, "value": TEXT})
PROFILE = st.fixed_dictionaries({"id": TEXT, "name": TEXT, "hidden": st.booleans(), "typeId": TEXT},
                                optional={"characteristics": st.lists(CHARACTERISTIC, max_size=3)})
RULE = st.fixed_dictionaries({"id": TEXT, "name": TEXT}, optional={"description": TEXT, "hidden": st.booleans()})
CATEGORY = st.fixed_dictionaries({"id": TEXT, "name": TEXT, "entryId": TEXT, "primary": st.booleans()},
                                 optional={"customName": TEXT, "customNotes": TEXT})


def selection(children: st.SearchStrategy[list[dict[str, Any]]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"id": TEXT, "name": TEXT, "entryId": TEXT, "number": st.integers(0, 100), "type": TEXT},
        optional={"entryGroupId": TEXT, "customName": TEXT, "customNotes": TEXT, "selections": children,
                  "costs": st.lists(COST, max_size=2), "categories": st.lists(CATEGORY, max_size=2),
                  "profiles": st.lists(PROFILE, max_size=2), "rules": st.lists(RULE, max_size=2)})


SELECTIONS: st.SearchStrategy[list[dict[str, Any]]] = st.recursive(
    st.just([]), lambda children: st.lists(selection(children), max_size=3), max_leaves=8)
FORCE = st.fixed_dictionaries({"id": TEXT, "name": TEXT, "entryId": TEXT, "catalogueId": TEXT},
                              optional={"catalogueRevision": st.integers(0, 500), "selections": SELECTIONS,
                                        "categories": st.lists(CATEGORY, max_size=2), "customNotes": TEXT})
ROSTER = st.fixed_dictionaries(
    {"id": TEXT, "name": TEXT, "gameSystemId": TEXT, "battleScribeVersion": st.just("2.03"),
     "forces": st.lists(FORCE, max_size=2)},
    optional={"gameSystemName": TEXT, "gameSystemRevision": st.integers(0, 500), "costs": st.lists(COST, max_size=2),
              "costLimits": st.lists(COST, max_size=2), "customNotes": TEXT})


@settings(max_examples=150, deadline=None)
@given(ROSTER)
def test_write_then_read_gives_the_roster_back(roster: dict[str, Any]) -> None:
    written = write_roster_xml(roster)
    assert read_roster_xml(written) == roster
    assert write_roster_xml(read_roster_xml(written)) == written

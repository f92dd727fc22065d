"""Every root unit of a faction added alone, at its defaults, raises on itself only the findings
known_data_findings.yaml records, each with its reason, and no others."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.battlescribe_real.army import new_army
from tests.battlescribe_real.sweep import factions, known_findings, known_for, offered_units, unit_findings

SWEPT = ["Imperium - Adeptus Astartes - Space Marines", "Xenos - Necrons", "Xenos - T'au Empire", "Xenos - Aeldari"]


@pytest.mark.parametrize("faction", SWEPT)
def test_each_unit_alone_raises_only_the_known_findings(bundle: dict[str, Any], faction: str) -> None:
    assert Counter(unit_findings(bundle, faction)) == Counter(known_for(faction))


def test_every_known_finding_has_a_stated_reason() -> None:
    known = known_findings()
    reasons = set(known["reasons"])
    unexplained = [item for items in known["findings"].values() for item in items if item["reason"] not in reasons]
    assert unexplained == []


def test_the_sweep_has_units_to_add(bundle: dict[str, Any]) -> None:
    """A guard on the sweep itself: how many root units and models each swept faction offers."""
    offered = {faction: len(offered_units(*new_army(bundle, faction))) for faction in SWEPT}
    assert offered == {SWEPT[0]: 85, SWEPT[1]: 55, SWEPT[2]: 46, SWEPT[3]: 64}
    assert len(factions(bundle)) == 36


@pytest.mark.slow
def test_every_faction_raises_only_the_known_findings(bundle: dict[str, Any]) -> None:
    mismatched = {}
    for faction in factions(bundle):
        found, known = Counter(unit_findings(bundle, faction)), Counter(known_for(faction))
        if found != known:
            mismatched[faction] = {"new": sorted((found - known).elements()),
                                   "gone": sorted((known - found).elements())}
    assert mismatched == {}

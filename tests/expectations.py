"""How the hand-worked example rosters of every army are checked against their expectations.

A formation's expected values are (points, units, break point, half strength, may garrison,
derived transports). Activations default to one per formation; give `activations` when some
formation is not on the table (Baran Sappers shared out)."""

import pytest


def formation_values(result):
    return [(f.points, f.derived["units"], f.derived["break_point"], f.derived["half_strength"],
             f.derived["garrison"]["eligible"], f.derived["transports"]) for f in result.formations]


def assert_legal(result, expected):
    assert [f.message for f in result.findings] == []
    assert result.valid
    assert result.total == expected["total"]
    assert result.roster.points == expected["limit"]
    assert formation_values(result) == expected["formations"]
    assert result.derived["break_their_spirit"] == expected["bts"]
    assert result.derived["activations"] == expected.get("activations", len(expected["formations"]))
    assert [c.points for c in result.caps] == expected["caps"]


def assert_illegal(result, expected):
    assert not result.valid
    assert sorted(f.code for f in result.findings) == expected["codes"]
    assert result.total == expected["total"]
    assert formation_values(result) == expected["formations"]
    for finding in result.findings:
        assert finding.rule, finding
        assert finding.location and finding.location.line, finding


def message(result, code):
    return next(f for f in result.findings if f.code == code)


def roster_tests(army, legal, illegal):
    """The two tests every army's module runs over its example rosters, parametrised by file."""
    @pytest.mark.parametrize("name", sorted(legal))
    def test_legal_roster(check, name):
        assert_legal(check(f"{army}/{name}"), legal[name])

    @pytest.mark.parametrize("name", sorted(illegal))
    def test_illegal_roster(check, name):
        assert_illegal(check(f"{army}/{name}"), illegal[name])

    return test_legal_roster, test_illegal_roster

"""SVG snapshots of the editor's main screen and of the datasheet view, in an 80×24 terminal
(the smallest it supports) and a 120×40 one. Update with `pytest --snapshot-update` after
looking at the differences in the report."""

from __future__ import annotations

import pytest

from .test_tui import demo_app, settle

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.fixture(autouse=True)
def fixed_data_version(monkeypatch, catalog):
    """The title shows the data version, a hash of lists/ and datasheets/: fixed here, so that a
    change of data does not change these pictures."""
    monkeypatch.setattr(catalog, "data_version", "0123456789")


@pytest.mark.parametrize("size", SIZES)
def test_main_screen(snap_compare, catalog, size):
    """The demo roster: points bar and caps, formations, the first formation's settings, findings."""
    assert snap_compare(demo_app(catalog), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_main_screen_with_a_finding_and_a_setting_in_focus(snap_compare, catalog, size):
    """The Strike Cruiser removed (a Drop Pod finding on #2), then the finding chosen: the cursor
    lands on #2's transport setting, marked as the problem."""

    async def break_and_jump(pilot) -> None:
        for key in ["down"] * 5 + ["x", "f", "enter"]:
            await pilot.press(key)
            await settle(pilot)

    assert snap_compare(demo_app(catalog), terminal_size=size, run_before=break_and_jump)


@pytest.mark.parametrize("size", SIZES)
def test_datasheet_view(snap_compare, catalog, size):
    """The datasheets of #8 Warhound Titans: statistics, weapons, war engine values, abilities."""
    assert snap_compare(demo_app(catalog), press=["end", "v"], terminal_size=size)

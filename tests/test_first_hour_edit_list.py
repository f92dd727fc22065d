"""A newcomer's first hour: `edit` opens a list another tool wrote (.txt) the way `check` reads it,
leaves it as it is and saves the roster to a new .yaml beside it (the 40k app's text: needs the BSData
snapshot of ../shared, skipped without it)."""

import asyncio
import shutil
from pathlib import Path

from listbuilder.cli import main
from listbuilder.data.catalog import load_catalog
from listbuilder.rosters.files import read_roster
from listbuilder.tui.app import opened_app

LISTS = Path(__file__).resolve().parent / "wh40k-lists"


def test_edit_opens_a_list_text_and_saves_it_as_a_new_yaml_roster(bsdata_installed, tmp_path):
    catalog = load_catalog(use_cache=False)
    listed = tmp_path / "gladius.txt"
    shutil.copy(LISTS / "app-gladius-legal.txt", listed)
    text = listed.read_bytes()
    assert main(["check", str(listed)]) == 0  # check reads it: so does edit
    app = opened_app(catalog, listed)
    target = tmp_path / "gladius.yaml"
    assert app.path == target and app.dirty  # not on disk as a roster yet: quitting asks first
    shown: list[str] = []

    async def go() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            shown.extend(str(n.message) for n in app._notifications)
            await pilot.press("ctrl+s")
            await pilot.pause()

    asyncio.run(go())
    assert any("Opened gladius.txt, a list another tool wrote; it is left as it is: saving writes the roster to "
               "gladius.yaml" in message for message in shown)
    assert listed.read_bytes() == text  # the list itself untouched
    saved = read_roster(target, catalog)
    assert saved.roster.game == "wh40k-10e" and saved.roster.units
    assert main(["check", str(target)]) == 0


def test_edit_of_a_list_whose_yaml_exists_asks_where_to_save(bsdata_installed, tmp_path):
    catalog = load_catalog(use_cache=False)
    listed = tmp_path / "gladius.txt"
    shutil.copy(LISTS / "app-gladius-legal.txt", listed)
    (tmp_path / "gladius.yaml").write_text("# someone's own roster\n")
    app = opened_app(catalog, listed)
    assert app.path is None and "gladius.yaml exists: saving asks where" in (app.notice or "")

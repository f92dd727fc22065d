"""The suite keeps out of the user's folders (tests/conftest.py's own_home) and says what it skipped
for want of ../shared."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from listbuilder.data.catalog import cache_dir
from listbuilder.games.wh40k10.importing.installed import data_dir

from .conftest import SHARED, XDG_FOLDERS, skipped_for_shared


def test_each_test_has_a_home_and_xdg_folders_of_its_own(own_home, tmp_path):
    assert Path.home() == own_home and not own_home.is_relative_to(tmp_path)
    assert {os.environ[variable] for variable in XDG_FOLDERS} == {str(own_home / f) for f in XDG_FOLDERS.values()}
    assert cache_dir().is_relative_to(own_home) and data_dir().is_relative_to(own_home)


def test_the_processes_a_test_starts_have_its_home(own_home):
    run = subprocess.run([sys.executable, "-c", "from pathlib import Path; print(Path.home())"],
                         capture_output=True, text=True, check=True)
    assert run.stdout.strip() == str(own_home)


def skip(nodeid: str, reason: str) -> SimpleNamespace:
    return SimpleNamespace(nodeid=nodeid, longrepr=("tests/conftest.py", 1, f"Skipped: {reason}"))


def test_the_skips_for_want_of_shared_are_counted():
    reports = [skip("tests/test_bsdata_snapshot.py::test_a", f"{SHARED}/fixtures/bsdata/x.tar.xz is missing"),
               skip("tests/battlescribe_importing/test_roster_xml.py::test_b", "../shared/fixtures/x is absent"),
               skip("tests/test_tau.py::test_c", "the seed is not beside the project"),
               skip("tests/battlescribe/test_conformance.py::test_spec[no-specs]", f"{SHARED}/fixtures is absent"),
               skip("tests/test_pdf.py::test_d", "pdftoppm (poppler) is not installed")]
    assert skipped_for_shared(reports) == 4
    assert skipped_for_shared(reports, "tests/battlescribe/") == 3  # where its conftest reports them

"""The suite keeps out of the user's folders (tests/conftest.py's own_home)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from listbuilder.data.catalog import cache_dir
from listbuilder.games.wh40k10.importing.installed import data_dir

from .conftest import XDG_FOLDERS


def test_each_test_has_a_home_and_xdg_folders_of_its_own(own_home, tmp_path):
    assert Path.home() == own_home and not own_home.is_relative_to(tmp_path)
    assert {os.environ[variable] for variable in XDG_FOLDERS} == {str(own_home / f) for f in XDG_FOLDERS.values()}
    assert cache_dir().is_relative_to(own_home) and data_dir().is_relative_to(own_home)


def test_the_processes_a_test_starts_have_its_home(own_home):
    run = subprocess.run([sys.executable, "-c", "from pathlib import Path; print(Path.home())"],
                         capture_output=True, text=True, check=True)
    assert run.stdout.strip() == str(own_home)


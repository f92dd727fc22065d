"""The BSData 40k snapshot (../shared/fixtures/bsdata), compiled once per run for the engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from listbuilder.battlescribe.importing import compile_data
from tests.conftest import once_per_run


@pytest.fixture(scope="session")
def bundle(bsdata_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The game system and all 46 catalogues as compile_data gives them (skipped without ../shared)."""

    def compile_all(_: Path) -> dict[str, Any]:
        files = {path.name: path.read_bytes() for path in sorted(bsdata_folder.iterdir())
                 if path.suffix in (".gst", ".cat")}
        return compile_data(files)

    compiled: dict[str, Any] = once_per_run(tmp_path_factory, "bsdata-bundle", compile_all)
    return compiled

"""The BSData 40k snapshot (../shared/fixtures/bsdata), compiled once per run for the engine."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(scope="session")
def bundle(bsdata_bundle: dict[str, Any]) -> dict[str, Any]:
    """The game system and all 46 catalogues as compile_data gives them (skipped without ../shared)."""
    return bsdata_bundle

"""The default run's share of a sweep over every example file; `pytest -m slow` runs the rest too."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest


def one_in(every: int, paths: Iterable[str | Path]) -> list[Any]:
    """`paths` as pytest parameters: of each folder's (an army's or a faction's), the first and each
    `every`-th after it run by default, the others only under `-m slow`. Every folder keeps one."""
    seen: Counter[Path] = Counter()
    params = []
    for path in paths:
        place = seen[Path(path).parent]
        seen[Path(path).parent] += 1
        params.append(path if place % every == 0 else pytest.param(path, marks=pytest.mark.slow))
    return params

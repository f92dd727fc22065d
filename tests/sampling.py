"""The default run's share of a sweep over every example file; `pytest -m slow` runs the rest too."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any


def _kept(every: int, paths: Iterable[str | Path]) -> Iterator[tuple[str | Path, bool]]:
    """Each path, and whether it is its folder's first or an `every`-th after it."""
    seen: Counter[Path] = Counter()
    for path in paths:
        place = seen[Path(path).parent]
        seen[Path(path).parent] += 1
        yield path, place % every == 0


def one_in(every: int, paths: Iterable[str | Path]) -> list[Any]:
    """`paths` as pytest parameters: of each folder's (an army's or a faction's), the first and each
    `every`-th after it run by default, the others only under `-m slow`. Every folder keeps one."""
    import pytest

    return [path if kept else pytest.param(path, marks=pytest.mark.slow) for path, kept in _kept(every, paths)]


def each_folders_share(every: int, paths: Iterable[str | Path]) -> list[Any]:
    """The paths `one_in` runs by default: each folder's first and each `every`-th after it."""
    return [path for path, kept in _kept(every, paths) if kept]


def crossed(firsts: Iterable[Any], seconds: Iterable[Any]) -> list[Any]:
    """Every pair of a first and a second as pytest parameters, half of them by default (as the
    black squares of a chess board: each first and each second in the default run, each with
    another), the other half only under `-m slow`."""
    import pytest

    return [(first, second) if (i + j) % 2 == 0 else pytest.param(first, second, marks=pytest.mark.slow)
            for i, first in enumerate(firsts) for j, second in enumerate(list(seconds))]

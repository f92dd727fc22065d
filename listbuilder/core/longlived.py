"""Data that lives as long as the process (the game data, each faction's engine data), kept out of
the garbage collector's sight (docs/speed.md, "Start-up out of the garbage collector's way")."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def long_lived() -> Iterator[None]:
    """The collector off while the data is loaded, then everything alive frozen out of its sight
    (`gc.freeze`, as the gc docs advise before forking, which a folder's pool does): traced at
    each full pass, a few megabytes of data cost a check a tenth of its time and the editor a
    stutter. Nothing is collected first: that would trace it all once more to free very little."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off while a roster is checked, then on again as it was: the check builds tens
    of thousands of objects (the engine's selections, its caches) and leaves a few hundred in
    cycles; collected as they are built, the survivors were traced again and again (1% of a 40k
    check's instructions: docs/speed.md). Its cycles are left to the collector's next pass."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()

"""A progress bar for long checks, drawn on a terminal only (nothing when stderr is piped)."""

from __future__ import annotations

import time
from typing import TextIO

WIDTH = 30


class Progress:
    """Shown once a run has taken `after` seconds, redrawn at most ten times a second, and erased
    when done so that the report starts on a clean line."""

    def __init__(self, total: int, stream: TextIO, after: float = 0.5):
        self.total, self.stream = total, stream
        self.shown = stream.isatty()
        self.start, self.last = time.monotonic(), float("-inf")
        self.after = after
        self.drawn = False

    def step(self, done: int) -> None:
        now = time.monotonic()
        if not self.shown or now - self.start < self.after or (now - self.last < 0.1 and done < self.total):
            return
        self.last, self.drawn = now, True
        filled = WIDTH * done // max(self.total, 1)
        self.stream.write(f"\r[{'#' * filled}{'.' * (WIDTH - filled)}] {done:,}/{self.total:,} rosters checked")
        self.stream.flush()

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()

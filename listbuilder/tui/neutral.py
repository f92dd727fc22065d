"""The editor's last line of defence: every line any widget draws (the title bar, the roster, the
findings, the dialogs, the command palette, notifications, text fields) passes through `Neutral`,
which takes out control characters and bidi overrides (report.safe.neutral), so a name in a
stranger's roster cannot set the clipboard (OSC 52), retitle the terminal (OSC 0) or reorder what
is shown. Where the editor lists names (the title bar, the roster, the findings, a formation's
summary and border, 40k's units border) they are shown escaped before that (report.safe.printable),
as `check` prints them; elsewhere they are shown without them."""

from __future__ import annotations

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from ..report.safe import neutral


class Neutral(LineFilter):
    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if all(segment.text.isprintable() for segment in segments):  # nearly every line: as it is
            return segments
        return [segment if segment.control else Segment(neutral(segment.text), segment.style)
                for segment in segments]

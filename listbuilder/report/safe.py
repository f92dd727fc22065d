"""Text from roster files made safe to show: control characters (an ESC sequence in a roster's
name could erase the "ILLEGAL" line on an organiser's screen), bidirectional overrides and lone
surrogates (a file name that is not UTF-8) are shown as escapes instead (`printable`), or, on a
screen laid out cell by cell where an escape would not fit, taken out (`neutral`)."""

from __future__ import annotations

import functools
import re

UNSAFE = "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"


@functools.cache
def _unsafe() -> re.Pattern[str]:
    return re.compile(UNSAFE)  # compiled when first needed: its ranges cost a check's start-up 1.5 ms


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match[0]):04x}"


def printable(line: str) -> str:
    """One line of output with everything unsafe escaped (newlines too: one line stays one line)."""
    if line.isprintable():  # nothing unsafe is printable: most lines are left as they are at once
        return line
    return _unsafe().sub(_escape, line)


def printable_lines(text: str) -> str:
    """Several lines, each made printable; the line breaks between them are kept. Valid JSON stays
    valid JSON with the same meaning: JSON strings hold no raw line breaks and read `\\uXXXX`."""
    return "\n".join(printable(line) for line in text.split("\n"))


def _neutralised(match: re.Match[str]) -> str:
    return "\ufffd" if "\ud800" <= match[0] <= "\udfff" else ""


def neutral(text: str) -> str:
    """`text` with everything unsafe taken out and its width on a terminal kept: the controls and
    marks (zero cells wide) removed, a lone surrogate (one cell) shown as U+FFFD. For the editor,
    whose lines are laid out cell by cell before they are drawn."""
    if text.isprintable():
        return text
    return _unsafe().sub(_neutralised, text)

"""Epic Remastered's PDF: every game's document (document.py) with datasheet columns as wide as
their values. A data sheet has six narrow columns of short values ('10/20 cm', 'Macro-weapon',
'Assault') beside the unit's name: an even share split headings and values mid-word."""

from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import stringWidth

from .document import CELL_PADDING, RosterDocument, Text, printable


def _width(text: Text, words: bool) -> float:
    """The width of the text on one line, or of its longest word (`words`), in its cell's font."""
    style = text.style
    parts = printable(text.text).split() if words else [" ".join(printable(text.text).split())]
    return max((stringWidth(part, style.fontName, style.fontSize) for part in parts), default=0.0)


class ErDocument(RosterDocument):
    def sheet_widths(self, data: list[list[Text]]) -> list[float]:
        """Every column at least as wide as its longest word; then, from the narrowest need up, as
        wide as its longest value where the room allows; what is left goes to the column whose text
        is longest (the unit's name, a damage result), which wraps between words."""
        columns = list(zip(*data))
        pad = 2 * CELL_PADDING + 1  # a point to spare: reportlab breaks a line that fills its width exactly
        need = [max(_width(t, True) for t in column) + pad for column in columns]
        full = [max(_width(t, False) for t in column) + pad for column in columns]
        if sum(need) >= self.column:  # longer words than a column holds: share the room by need
            return [n * self.column / sum(need) for n in need]
        widths = list(need)
        widest = max(range(len(columns)), key=lambda c: full[c])
        for c in sorted(range(len(columns)), key=lambda c: full[c] - need[c]):
            if c != widest:
                widths[c] += min(full[c] - need[c], self.column - sum(widths))
        widths[widest] += self.column - sum(widths)
        return widths

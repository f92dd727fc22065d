"""The printable roster (reportlab platypus): what players bring to the table and organisers file.

Page 1 on: the verdict, the findings, the army totals and one row per formation. Then, in two
columns: the datasheet of every unit type used, once, and a glossary of the special abilities
that appear. Every page has a header with the roster, its points, the data version and "page x
of y". Black and white only: emphasis is bold type, rules and light grey fills.

Layout follows pretix's invoice renderer: a class of small hooks, named styles, tables of
Paragraphs (so cells wrap instead of running off the page), `repeatRows` and `KeepTogether`,
and the bytes handed back to the caller. Output is deterministic (reportlab's invariant mode).
Plain text that fits its cell on one line skips the Paragraph, which is most of the time a
print takes, and is drawn just where the Paragraph would draw it (`_table`).
"""

from __future__ import annotations

import html
import io
import unicodedata
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, NamedTuple

from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle, StyleSheet1
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus import Paragraph as ReportlabParagraph

from ... import __version__
from ...core.findings import Finding, finding_message
from ...core.names import plural
from ...core.system import SheetSummary
from ...games import summarise, system_for
from ...listengine.catalog import Catalog

# &, < and > for Paragraph markup, as xml.sax.saxutils.escape does, without its import of urllib
# (a tenth of a second of `listbuilder print` on a busy machine)
escape = partial(html.escape, quote=False)
PAPERS = {"a4": A4, "letter": LETTER}
MARGIN = 12 * mm
HEADER = 18 * mm  # room above the frame for the running header
GUTTER = 6 * mm  # between the two columns of the datasheet pages
CELL_PADDING = 2.5  # left and right of the text in a table cell
GREY = colors.Color(0.86, 0.86, 0.86)
RULE = colors.Color(0.45, 0.45, 0.45)
FONT, BOLD = "Helvetica", "Helvetica-Bold"
DASH = "—"


# Marks the standard fonts lack, drawn as the nearest they have (BattleScribe data lists with them).
SUBSTITUTES = str.maketrans({"■": "•", "➤": "›", "★": "*"})


def printable(text: str) -> str:
    """Text the standard (WinAnsi) fonts can draw: anything else becomes '?'."""
    text = unicodedata.normalize("NFKC", text).translate(SUBSTITUTES)
    if _encodable(text):  # as nearly all text is: no need to look at each letter
        return text
    return "".join(c if _encodable(c) else "?" for c in text)


MAX_TEXT = 1_000  # characters of one text; the longest in the game data is about 400


def clean(text: str) -> str:
    """User or data text made safe for Paragraph markup and the standard fonts, and cut short
    enough to fit a page (a 5,500-character label made a cell taller than the page; a long word
    costs reportlab time in the square of its length)."""
    return escape(printable(text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + "…"))


def _encodable(text: str) -> bool:
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return text.isprintable()


def _or_dash(value: Any) -> str:
    return DASH if value is None else str(value)


def stylesheet() -> StyleSheet1:
    sheet = StyleSheet1()
    base = ParagraphStyle("Normal", fontName=FONT, fontSize=8, leading=9.6)
    sheet.add(base)
    sheet.add(ParagraphStyle("Title", parent=base, fontName=BOLD, fontSize=15, leading=18, spaceAfter=1 * mm))
    sheet.add(ParagraphStyle("Subtitle", parent=base, fontSize=9, leading=11, spaceAfter=2 * mm))
    sheet.add(ParagraphStyle("Verdict", parent=base, fontName=BOLD, fontSize=10, leading=12.5))
    sheet.add(ParagraphStyle("Heading", parent=base, fontName=BOLD, fontSize=11, leading=13,
                             spaceBefore=3 * mm, spaceAfter=1.5 * mm, keepWithNext=1))
    sheet.add(ParagraphStyle("Cell", parent=base, fontSize=7.5, leading=9))
    sheet.add(ParagraphStyle("CellBold", parent=sheet["Cell"], fontName=BOLD))
    sheet.add(ParagraphStyle("CellRight", parent=sheet["Cell"], alignment=TA_RIGHT))
    sheet.add(ParagraphStyle("CellBoldRight", parent=sheet["CellBold"], alignment=TA_RIGHT))
    sheet.add(ParagraphStyle("CellHead", parent=sheet["Cell"], fontName=BOLD))
    sheet.add(ParagraphStyle("CellHeadRight", parent=sheet["CellHead"], alignment=TA_RIGHT))
    sheet.add(ParagraphStyle("SheetName", parent=base, fontName=BOLD, fontSize=9, leading=11))
    sheet.add(ParagraphStyle("Glossary", parent=base, fontSize=7.5, leading=9, spaceAfter=1.2 * mm))
    return sheet


def _grid(header_rows: int = 1) -> list[tuple[Any, ...]]:
    """The common look of every table: hairlines, a grey header, text at the top of its cell.
    Built fresh each time (reportlab changes a TableStyle while drawing with it)."""
    commands: list[tuple[Any, ...]] = [
        ("GRID", (0, 0), (-1, -1), 0.4, RULE),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    if header_rows:
        commands.append(("BACKGROUND", (0, 0), (-1, header_rows - 1), GREY))
    return commands


class Paragraph(ReportlabParagraph):
    """reportlab's Paragraph, its lines broken once for each width it is given: a table breaks
    every cell's lines when it sizes its rows and again when it draws them, and KeepTogether (a
    datasheet) once more, always at the same width. The lines are broken again if reportlab has
    dropped them since (as its split does)."""

    _wrapped: tuple[float, Any, tuple[float, float]] | None = None  # width, lines, size

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (reportlab's names)
        wrapped = self._wrapped
        if wrapped is None or wrapped[0] != availWidth or wrapped[1] is not getattr(self, "blPara", None):
            size = super().wrap(availWidth, availHeight)
            self._wrapped = wrapped = availWidth, getattr(self, "blPara", None), size
        return wrapped[2]


class Text(NamedTuple):
    """Plain text (no markup) for a table cell or a cell's list of flowables, in a cell style."""
    text: str
    style: ParagraphStyle


class Line(Flowable):
    """One line of plain text, drawn where reportlab draws a one-line Paragraph of it (the
    baseline one font size below the top: rl_config.paraFontSizeHeightOffset)."""

    def __init__(self, text: str, style: ParagraphStyle):
        super().__init__()
        self.text, self.style = text, style

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (reportlab's names)
        self.width = availWidth
        return availWidth, self.style.leading

    def draw(self) -> None:
        style, canvas = self.style, self.canv
        canvas.setFillColor(style.textColor)
        canvas.setFont(style.fontName, style.fontSize, style.leading)
        baseline = style.leading - style.fontSize
        if style.alignment == TA_RIGHT:
            canvas.drawRightString(self.width, baseline, self.text)
        else:  # left, as every other cell style is
            canvas.drawString(0, baseline, self.text)


def _table(rows: list[list[Any]], widths: list[float], commands: list[tuple[Any, ...]], repeat_rows: int = 0) -> Table:
    """A table of `commands` (_grid's look) whose Text, alone in a cell or in a cell's list, is
    drawn as it is when it fits on one line, else as a Paragraph that wraps. A Paragraph costs
    reportlab a markup parse and a line breaking at every wrap (most of the time a roster took to
    print); text alone in a cell is a string in its style's font, in a list a Line."""
    columns = len(widths)
    spanned = {(start[0] % columns, start[1] % len(rows)): sum(widths[start[0] % columns:end[0] % columns + 1])
               for operation, start, end, *_ in commands if operation == "SPAN"}
    styled = list(commands)
    cells = [[_cell(value, spanned.get((c, r), widths[c]) - 2 * CELL_PADDING, (c, r), styled)
              for c, value in enumerate(row)] for r, row in enumerate(rows)]
    table = Table(cells, colWidths=widths, repeatRows=repeat_rows)
    table.setStyle(TableStyle(styled))
    return table


def _one_line(text: Text, room: float) -> str | None:
    """The text as drawn, if a Paragraph would show it on one line as it is (no run of white
    space to collapse) within `room` points. Not an empty text: its Paragraph has no line at all."""
    style = text.style
    shown = printable(text.text) if 0 < len(text.text) <= MAX_TEXT else None
    if shown is None or " ".join(shown.split()) != shown or stringWidth(shown, style.fontName, style.fontSize) > room:
        return None
    return shown


def _cell(value: Any, room: float, at: tuple[int, int], commands: list[tuple[Any, ...]]) -> Any:
    """A cell's value for reportlab: Text that fits on one line a string, with the commands that
    set its font, else a Paragraph; no text an empty cell, which draws nothing, as an empty
    Paragraph does; each Text of a list of flowables a Line or a Paragraph."""
    if isinstance(value, list):
        return [_flowable(v, room) if isinstance(v, Text) else v for v in value]
    if not isinstance(value, Text):
        return value
    if not value.text:
        return []
    shown = _one_line(value, room)
    if shown is None:
        return Paragraph(clean(value.text), value.style)
    style = value.style
    commands.append(("FONT", at, at, style.fontName, style.fontSize, style.leading))
    if style.alignment == TA_RIGHT:
        commands.append(("ALIGN", at, at, "RIGHT"))
    return shown


def _flowable(text: Text, room: float) -> Flowable:
    """A Line for text that fits on one line, else a Paragraph."""
    shown = _one_line(text, room)
    return Paragraph(clean(text.text), text.style) if shown is None else Line(shown, text.style)


class RosterDocument:
    """One roster's PDF, from the summary its game system makes (core.system). Each part of the
    story is a method, so a game or a paper size can change one part without touching the others."""

    def __init__(self, result: Any, catalog: Catalog, pagesize: tuple[float, float], source: str | None):
        self.result = result
        self.summary = summarise(result)
        self.catalog = catalog
        self.game = result.roster.game
        self.pagesize = pagesize
        self.source = source
        self.styles = stylesheet()
        self.errors = [f for f in result.findings if f.severity == "error"]
        self.warnings = [f for f in result.findings if f.severity != "error"]
        self.width = pagesize[0] - 2 * MARGIN
        self.column = (self.width - GUTTER) / 2
        self.stamp = f"listbuilder {__version__}, data {self.summary.data_revision or catalog.data_version}"

    # --- document and pages -------------------------------------------------------------

    def render(self) -> bytes:
        buffer = io.BytesIO()
        document = BaseDocTemplate(
            buffer, pagesize=self.pagesize, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN + HEADER,
            bottomMargin=MARGIN, title=f"{self.summary.name or 'Roster'} ({self.summary.army})",
            author="listbuilder", subject="Army roster", creator=self.stamp, invariant=1)
        height = self.pagesize[1] - 2 * MARGIN - HEADER
        whole = Frame(MARGIN, MARGIN, self.width, height, id="whole", leftPadding=0, rightPadding=0,
                      topPadding=0, bottomPadding=0)
        columns = [Frame(MARGIN + i * (self.column + GUTTER), MARGIN, self.column, height, id=f"column{i}",
                         leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0) for i in range(2)]
        document.addPageTemplates([PageTemplate("roster", [whole]), PageTemplate("columns", columns)])
        document.build(self.story(), canvasmaker=self._canvas)
        return buffer.getvalue()

    def _canvas(self, *args: Any, **kwargs: Any) -> Canvas:
        return NumberedCanvas(self.draw_header, *args, **kwargs)

    def draw_header(self, canvas: Canvas, page: int, pages: int) -> None:
        """Roster, army, points, data version and 'page x of y' on every page."""
        summary = self.summary
        left, right = MARGIN, self.pagesize[0] - MARGIN
        top = self.pagesize[1] - MARGIN
        points = f"{summary.total:,} / {summary.limit:,} pts" if summary.priced else ""
        page_text = f"Page {page} of {pages}"
        canvas.saveState()
        first, second = top - 4 * mm, top - 9 * mm
        canvas.setFont(BOLD, 10)
        canvas.drawRightString(right, first, points)
        room = self.width - stringWidth(points, BOLD, 10) - 6 * mm
        _fitted(canvas, left, first, summary.name or "Unnamed roster", BOLD, 10, room)
        verdict = "ILLEGAL ROSTER: see the findings on page 1" if self.errors else ""
        canvas.setFont(FONT, 7.5)
        canvas.drawRightString(right, second, page_text)
        room = self.width - stringWidth(page_text, FONT, 7.5) - 6 * mm
        details = f"{summary.army}  ·  {self.stamp}"
        if verdict:
            canvas.setFont(BOLD, 7.5)
            canvas.drawString(left, second, verdict)
            shift = stringWidth(verdict, BOLD, 7.5) + 4 * mm
            _fitted(canvas, left + shift, second, details, FONT, 7.5, room - shift)
        else:
            _fitted(canvas, left, second, details, FONT, 7.5, room)
        canvas.setLineWidth(0.8)
        canvas.line(left, top - 11.5 * mm, right, top - 11.5 * mm)
        canvas.restoreState()

    # --- the story ----------------------------------------------------------------------

    def story(self) -> list[Flowable]:
        return self.list_story() + self.datasheets()

    def list_story(self) -> list[Flowable]:
        """The list itself: title, verdict, findings, the army's totals and its entries (an event
        pack prints this part of each roster, without the datasheets)."""
        parts: list[Flowable] = [*self.title(), self.verdict()]
        if self.result.findings:
            parts += self.findings()
        parts += self.totals()
        parts += self.entries()
        return parts

    def title(self) -> list[Flowable]:
        summary = self.summary
        game = self.catalog.games[self.game].name if self.game in self.catalog.games else summary.game
        about = [summary.army, game] + ([f"{summary.limit:,} points"] if summary.priced else [])
        if self.source:
            about.append(f"file {self.source}")
        return [Paragraph(clean(summary.name or "Unnamed roster"), self.styles["Title"]),
                Paragraph(clean("  ·  ".join(about)), self.styles["Subtitle"])]

    def verdict(self) -> Flowable:
        """LEGAL or ILLEGAL, boxed; an illegal roster's box is heavier and says why."""
        counts = ([plural(len(self.errors), "error")]
                  + ([plural(len(self.warnings), "warning")] if self.warnings else []))
        if self.errors:
            text = f"ILLEGAL: this roster breaks its army list ({', '.join(counts)}, listed below)."
        elif self.warnings:
            text = f"LEGAL, with {counts[-1]} (listed below)."
        else:
            text = "LEGAL: no rule of the army list is broken."
        table = Table([[Paragraph(clean(text), self.styles["Verdict"])]], colWidths=[self.width])
        table.setStyle(TableStyle([("BOX", (0, 0), (-1, -1), 2.0 if self.errors else 0.8, colors.black),
                                   ("TOPPADDING", (0, 0), (-1, -1), 3), ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
                                   ("LEFTPADDING", (0, 0), (-1, -1), 4)]))
        return table

    def findings(self) -> list[Flowable]:
        style = self.styles
        rows: list[list[Any]] = [[Text(h, style["CellHead"]) for h in ("#", "", "Where", "Finding", "Rule")]]
        for number, finding in enumerate(self.result.findings, 1):
            rows.append([Text(str(number), style["Cell"]),
                         Text(finding.severity.upper(), style["CellBold"]),
                         Text(self.where(finding), style["Cell"]),
                         Text(finding_message(finding), style["Cell"]),
                         Text(finding.rule, style["Cell"])])
        widths = _widths(self.width, [6 * mm, 15 * mm, 18 * mm, None, 0.24])
        return [Paragraph("Findings", style["Heading"]), _table(rows, widths, _grid(), repeat_rows=1)]

    def where(self, finding: Finding) -> str:
        """'line 12:5' when the finding lies in the printed roster's own file (named on top)."""
        location = finding.location
        if location is not None and location.file == self.source and location.line is not None:
            return "line " + ":".join(str(n) for n in (location.line, location.column) if n is not None)
        return finding.where

    def points_row(self) -> tuple[str, str]:
        total, limit = self.summary.total, self.summary.limit
        return ("Points", f"{total:,} of {limit:,} ({limit - total:,} left)" if total <= limit
                else f"{total:,} of {limit:,} ({total - limit:,} over)")

    def army_table(self, rows: list[tuple[str, str]]) -> list[Flowable]:
        style = self.styles
        data: list[list[Any]] = [[Text(k, style["CellBold"]), Text(v, style["Cell"])] for k, v in rows]
        commands = _grid(header_rows=0) + [("BACKGROUND", (0, 0), (0, -1), GREY)]
        table = _table(data, _widths(self.width, [0.3, None]), commands)
        return [Paragraph("Army", style["Heading"]), table]

    def totals(self) -> list[Flowable]:
        rows = [self.points_row()] if self.summary.priced else []
        for line in self.summary.army_lines:
            label, colon, text = line.partition(": ")
            rows.append((label[:1].upper() + label[1:], text) if colon else ("", line))
        return self.army_table(rows)

    def entries(self) -> list[Flowable]:
        """One row per entry of the roster, its lines under its title; a row never splits."""
        style, summary = self.styles, self.summary
        heads = ["#", summary.entry_kind[0], *(["Points"] if summary.priced else [])]  # no empty column unpriced
        rows: list[list[Any]] = [[Text(h, style["CellHeadRight" if i == 2 else "CellHead"])
                                  for i, h in enumerate(heads)]]
        by_entry = _findings_by_entry(summary.findings, system_for(self.result.roster.game).entries_field)
        for entry in summary.entries:
            cell = [Text(entry.title, style["CellBold"]), *(Text(line, style["Cell"]) for line in entry.lines)]
            if entry.index in by_entry:
                cell.append(Text(f"See finding {', '.join(map(str, by_entry[entry.index]))}", style["CellBold"]))
            rows.append([Text(str(entry.index + 1), style["CellBold"]), cell,
                         *([Text(f"{entry.points:,}", style["CellRight"])] if summary.priced else [])])
        if len(rows) == 1:
            return [Paragraph(summary.entry_kind[1], style["Heading"]),
                    Paragraph(f"No {summary.entry_kind[1].lower()}.", style["Normal"])]
        if summary.priced:
            rows.append([Text("", style["Cell"]), Text("Total", style["CellBold"]),
                         Text(f"{summary.total:,}", style["CellBoldRight"])])
        table = _table(rows, _widths(self.width, [7 * mm, None, 14 * mm][:len(heads)]), _grid(), repeat_rows=1)
        return [Paragraph(summary.entry_kind[1], style["Heading"]), table]

    def datasheets(self) -> list[Flowable]:
        if not self.summary.sheets:
            return []
        return [NextPageTemplate("columns"), PageBreak(), *self.army_rules(),
                Paragraph("Datasheets", self.styles["Heading"]),
                *(self.sheet_table(sheet) for sheet in self.summary.sheets)]

    def army_rules(self) -> list[Flowable]:
        """The rules the army plays by, printed before its datasheets, where a game's document says them."""
        return []

    def sheet_table(self, sheet: SheetSummary) -> Flowable:
        """A datasheet of the summary: its name, each profile table, then its lines."""
        style = self.styles
        parts: list[Flowable] = [Paragraph(f"{clean(sheet.name)}  <font name='{FONT}' size='7.5'>"
                                           f"{clean(sheet.subtitle)}</font>", style["SheetName"])]
        for headings, rows in sheet.tables:
            data = [[Text(h, style["CellHead"]) for h in headings]]
            data += [[Text(value, style["Cell"]) for value in row] for row in rows]
            parts.append(_table(data, self.sheet_widths(data), _grid(), repeat_rows=1))
        for label, text in sheet.lines:
            body = "<br/>".join(clean(line) for line in text.splitlines() if line.strip())  # the data's own lines
            parts.append(Paragraph(f"<b>{clean(label)}:</b> {body}" if label else body, style["Cell"]))
        return KeepTogether([*parts, Spacer(1, 2.5 * mm)])

    def sheet_widths(self, data: list[list[Text]]) -> list[float]:
        """A datasheet table's column widths: a third of the column for the first, the rest shared."""
        first, others = self.column * 0.34, len(data[0]) - 1
        return [first] + [(self.column - first) / max(1, others)] * others


def _findings_by_entry(findings: Iterable[Finding], entries_field: str) -> dict[int, list[int]]:
    """Entry index (a formation, a unit) -> the numbers (1-based, as printed) of the findings about it."""
    found: dict[int, list[int]] = {}
    for number, finding in enumerate(findings, 1):
        path = finding.path
        if len(path) >= 2 and path[0] == entries_field and isinstance(path[1], int):
            found.setdefault(path[1], []).append(number)
    return found


def _widths(total: float, parts: list[float | None]) -> list[float]:
    """Column widths: absolute lengths, fractions (< 1) of `total`, and one None for the rest."""
    fixed = [p if p is None or p >= 1 else p * total for p in parts]
    rest = total - sum(p for p in fixed if p is not None)
    return [rest if p is None else p for p in fixed]


def _fitted(canvas: Canvas, x: float, y: float, text: str, font: str, size: float, room: float) -> None:
    """Draw `text` within `room` points: smaller type first, then cut with an ellipsis."""
    text = printable(text)
    while size > 6 and stringWidth(text, font, size) > room:
        size -= 0.5
    if stringWidth(text, font, size) > room:  # the longest start that fits with an ellipsis, by halving
        low, high = 0, len(text)
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (middle, high) if stringWidth(text[:middle] + "…", font, size) <= room else (low, middle - 1)
        text = text[:low] + "…"
    canvas.setFont(font, size)
    canvas.drawString(x, y, text)


class NumberedCanvas(Canvas):
    """Holds every page back until the document ends, so each header can say 'page x of y'."""

    def __init__(self, draw_header: Callable[[Canvas, int, int], None], *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._draw_header = draw_header
        self._pages: list[dict[str, Any]] = []

    def showPage(self) -> None:  # noqa: N802 (reportlab's name)
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        for number, state in enumerate(self._pages, 1):
            self.__dict__.update(state)
            self._draw_header(self, number, len(self._pages))
            super().showPage()
        super().save()

"""The event pack as one PDF: a contents list, then each list on pages of its own, laid out by its
game's own roster document (document.py, or the one its system names) without the datasheets: the
title, the verdict, the findings, the army's totals and its entries.

One pass of reportlab: the contents rows are drawn before the lists are laid out, so their page
numbers are drawn when the document is saved (NumberedCanvas holds every page until then), where
each list's first page is known. Every page's header names the list on it."""

from __future__ import annotations

import io
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageBreak, PageTemplate, Spacer

from ... import __version__
from ...core.findings import finding_message
from ...core.names import plural
from ...games import game_name
from ...listengine.catalog import Catalog
from ..pack import PackedList
from ..stats import Stats
from ..submissions import LEGAL
from . import document_for
from .document import (
    BOLD,
    FONT,
    GREY,
    HEADER,
    MARGIN,
    PAPERS,
    RULE,
    NumberedCanvas,
    Paragraph,
    Text,
    _fitted,
    _grid,
    _table,
    _widths,
    clean,
    printable,
    stylesheet,
)

ROW = 11  # points: one contents row
CONTENTS_COLUMNS = (("#", 8 * mm), ("Roster", 0.22), ("File", 0.2), ("Army", None), ("Game", 0.13),
                    ("Points", 14 * mm), ("Verdict", 19 * mm), ("Page", 10 * mm))
RIGHT = {"#", "Points", "Page"}


class Pages:
    """What the pages hold, learnt as they are drawn: each list's first page, where each contents
    row wants its page number, and the list each page shows (for its header)."""

    def __init__(self) -> None:
        self.first: dict[int, int] = {}  # list number -> its first page
        self.rows: dict[int, list[tuple[int, float, float]]] = {}  # page -> (list number, x, y) of a page number
        self.showing: dict[int, int] = {}  # page -> the list number drawn on it last


class ListStart(Flowable):
    """Draws nothing: notes the page a list starts on."""

    def __init__(self, number: int, pages: Pages):
        super().__init__()
        self.number, self.pages = number, pages

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (reportlab's names)
        return 0, 0

    def draw(self) -> None:
        self.pages.first[self.number] = self.canv.getPageNumber()


class ContentsRow(Flowable):
    """One line of the contents: each cell fitted to its column; the page number left for the save."""

    def __init__(self, number: int, cells: list[str], widths: list[float], pages: Pages, head: bool = False):
        super().__init__()
        self.number, self.cells, self.widths, self.pages, self.head = number, cells, widths, pages, head

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (reportlab's names)
        self.width = availWidth
        return availWidth, ROW

    def draw(self) -> None:
        canvas = self.canv
        font = BOLD if self.head else FONT
        if self.head:
            canvas.setFillColor(GREY)
            canvas.rect(0, 0, self.width, ROW, stroke=0, fill=1)
            canvas.setFillColorRGB(0, 0, 0)
        canvas.setLineWidth(0.3)
        canvas.line(0, 0, self.width, 0)
        x = 0.0
        for (heading, _), cell, width in zip(CONTENTS_COLUMNS, self.cells, self.widths):
            if heading in RIGHT and cell:
                canvas.setFont(font, 8)
                canvas.drawRightString(x + width - 2, 3, cell)
            elif cell:
                shown = _tail(cell, font, width - 4) if heading == "File" and not self.head else cell
                _fitted(canvas, x + 2, 3, shown, font, 8, width - 4)
            x += width
        if not self.head:
            at = canvas.absolutePosition(self.width - 2, 3)
            self.pages.rows.setdefault(canvas.getPageNumber(), []).append((self.number, *at))


def _tail(path: str, font: str, room: float) -> str:
    """A file's path cut at its start, where it is too long for the contents (its name is at its end)."""
    path = printable(path)
    start = 0
    while start < len(path) and stringWidth(("…" if start else "") + path[start:], font, 6) > room:
        start += 1
    return ("…" if start else "") + path[start:]


class Bar(Flowable):
    """A bar as long as `share` (0 to 1) of its cell: the statistics' plots."""

    def __init__(self, share: float):
        super().__init__()
        self.share = share

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (reportlab's names)
        self.width = availWidth
        return availWidth, 7

    def draw(self) -> None:
        self.canv.setFillColor(RULE)
        self.canv.rect(0, 1, self.width * self.share, 6, stroke=0, fill=1)


class PackDocument:
    """The pack: its contents, then each list as its game's document lays it out, then the field's
    statistics (report/stats.py), where given."""

    def __init__(self, lists: list[PackedList], catalog: Catalog, paper: str, heading: str, provenance: str,
                 stats: Stats | None = None):
        if paper not in PAPERS:
            raise ValueError(f"unknown paper '{paper}' (known: {', '.join(PAPERS)})")
        self.lists, self.catalog, self.heading, self.provenance, self.stats = lists, catalog, heading, provenance, stats
        self.pagesize = PAPERS[paper]
        self.width = self.pagesize[0] - 2 * MARGIN
        self.styles = stylesheet()
        self.pages = Pages()

    def render(self) -> bytes:
        buffer = io.BytesIO()
        document = BaseDocTemplate(
            buffer, pagesize=self.pagesize, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN + HEADER,
            bottomMargin=MARGIN, title=self.heading, author="listbuilder", subject="Event pack",
            creator=f"listbuilder {__version__}", invariant=1)
        frame = Frame(MARGIN, MARGIN, self.width, self.pagesize[1] - 2 * MARGIN - HEADER, id="whole",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        document.addPageTemplates([PageTemplate("pack", [frame])])
        document.build(self.story(), canvasmaker=self._canvas)
        return buffer.getvalue()

    def _canvas(self, *args: Any, **kwargs: Any) -> Canvas:
        return NumberedCanvas(self.draw_page, *args, **kwargs)

    def story(self) -> list[Flowable]:
        story = self.contents()
        for number, packed in enumerate(self.lists, start=1):
            story += [PageBreak(), ListStart(number, self.pages), *self.list_story(packed)]
        if self.stats is not None:
            story += [PageBreak(), ListStart(len(self.lists) + 1, self.pages), *self.statistics(self.stats)]
        return story

    def statistics(self, stats: Stats) -> list[Flowable]:
        """What the field plays, game by game, drawn as bars: lists per army and detachment, each
        datasheet (formation, detachment list) by the lists taking it, points by category."""
        style = self.styles
        story: list[Flowable] = [Paragraph("Field statistics", style["Title"]),
                                 Paragraph(clean(f"{plural(stats['lists'], 'list')} counted"), style["Subtitle"])]
        for game in stats["games"]:
            armies = []
            for army in game["armies"]:
                armies.append((army["army"], army["lists"]))
                armies += [(f"    {d['detachment']}", d["lists"]) for d in army["detachments"]]
            entries = [(f"{e['entry']} ({e['army']})", e["lists"], e["copies"]) for e in game["entries"]]
            categories = [(c["category"], c["points"], f"{c['share']}%", c[game["counted"]])
                          for c in game["categories"]]
            story += [Paragraph(clean(f"{game['name']}: {plural(game['lists'], 'list')}"), style["Heading"]),
                      self.bars(["Army, detachment", "Lists"], armies),
                      Spacer(1, 2 * mm),
                      self.bars([f"{game['entry_kind'].capitalize()}", "Lists", "Copies"], entries),
                      Spacer(1, 2 * mm),
                      self.bars(["Category", "Points", "Share", game["counted"].capitalize()], categories),
                      Paragraph(clean("Per list (mean): " + ", ".join(f"{value:,} {what}" for what, value
                                                                       in game["mean"].items())), style["Cell"])]
        return story

    def bars(self, headings: list[str], rows: list[tuple[Any, ...]]) -> Flowable:
        """A table of names and figures, the first figure drawn as a bar too."""
        style = self.styles
        most = max((row[1] for row in rows), default=0) or 1
        data: list[list[Any]] = [[Text(h, style["CellHeadRight" if i else "CellHead"]) for i, h in enumerate(headings)]
                                 + [""]]
        data += [[Text(str(row[0]), style["Cell"]),
                  *(Text(f"{v:,}" if isinstance(v, int) else str(v), style["CellRight"]) for v in row[1:]),
                  [Bar(row[1] / most)]] for row in rows]
        widths = _widths(self.width, [0.45, *([16 * mm] * (len(headings) - 1)), None])
        return _table(data, widths, _grid(), repeat_rows=1)

    def contents(self) -> list[Flowable]:
        widths = _widths(self.width, [width for _, width in CONTENTS_COLUMNS])
        legal = sum(1 for p in self.lists if p.verdict == LEGAL)
        rows: list[Flowable] = [
            Paragraph(clean(self.heading), self.styles["Title"]),
            Paragraph(clean(f"{plural(len(self.lists), 'list')}, {legal} legal. {self.provenance}"),
                      self.styles["Subtitle"]),
            Paragraph("Contents", self.styles["Heading"]),
            ContentsRow(0, [heading for heading, _ in CONTENTS_COLUMNS], widths, self.pages, head=True)]
        for number, p in enumerate(self.lists, start=1):
            summary = p.summary
            game = game_name(self.catalog, p.result.roster.game) if p.result is not None else ""
            cells = [str(number), p.name, "" if p.name == p.file else p.file, p.army, game,
                     f"{summary.total:,}" if summary and summary.priced else "", p.verdict, ""]
            rows.append(ContentsRow(number, cells, widths, self.pages))
        return rows

    def list_story(self, packed: PackedList) -> list[Flowable]:
        if packed.result is None:
            return self.failure_story(packed)
        document = document_for(packed.result.roster.game)(packed.result, self.catalog, self.pagesize, packed.file)
        document.summary = packed.summary  # anonymised, its name is the list's number
        return document.list_story()

    def failure_story(self, packed: PackedList) -> list[Flowable]:
        """A file that could not be read: its name, its verdict and why."""
        style = self.styles
        rows: list[list[Any]] = [[Text(h, style["CellHead"]) for h in ("#", "Where", "Finding")]]
        rows += [[Text(str(n), style["Cell"]), Text(f.where, style["Cell"]), Text(finding_message(f), style["Cell"])]
                 for n, f in enumerate(packed.findings, start=1)]
        return [Paragraph(clean(packed.file), style["Title"]),
                Paragraph(clean(f"{packed.verdict}: this file could not be read as a roster."), style["Verdict"]),
                Paragraph("Findings", style["Heading"]),
                _table(rows, _widths(self.width, [6 * mm, 0.3, None]), _grid(), repeat_rows=1)]

    def draw_page(self, canvas: Canvas, page: int, pages: int) -> None:
        """The header (the event, the list on the page, 'page x of y') and the contents' page numbers."""
        first = self.pages.first
        shown = max((n for n, at in first.items() if at <= page), default=0)
        left, right, top = MARGIN, self.pagesize[0] - MARGIN, self.pagesize[1] - MARGIN
        page_text = f"Page {page} of {pages}"
        canvas.saveState()
        canvas.setFont(FONT, 7.5)
        canvas.drawRightString(right, top - 4 * mm, page_text)
        _fitted(canvas, left, top - 4 * mm, self.heading, BOLD, 10,
                self.width - stringWidth(page_text, FONT, 7.5) - 6 * mm)
        _fitted(canvas, left, top - 9 * mm, self.list_line(shown), BOLD, 8, self.width)
        canvas.setLineWidth(0.8)
        canvas.line(left, top - 11.5 * mm, right, top - 11.5 * mm)
        canvas.setFont(FONT, 8)
        for number, x, y in self.pages.rows.get(page, []):
            canvas.drawRightString(x, y, str(first.get(number, "")))
        canvas.restoreState()

    def list_line(self, number: int) -> str:
        """The header's second line: the list on the page, its army and points, its verdict."""
        if not number:
            return "Contents"
        if number > len(self.lists):
            return "Field statistics"
        packed = self.lists[number - 1]
        summary = packed.summary
        parts = [f"{number}. {packed.name or packed.file}"]
        if summary:
            parts.append(summary.army)
            if summary.priced:
                parts.append(f"{summary.total:,} / {summary.limit:,} pts")
        parts.append(packed.verdict)
        return "  ·  ".join(parts)


def pack_pdf(lists: list[PackedList], catalog: Catalog, heading: str, provenance: str, paper: str = "a4",
             stats: Stats | None = None) -> bytes:
    return PackDocument(lists, catalog, paper, heading, provenance, stats).render()

"""The top line: the roster's name, its army list, where it is saved, and the data it is checked
against. Drawn by the widget itself, so a new title repaints one line and moves nothing."""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content
from textual.widget import Widget

from ...report.safe import printable


@dataclass(frozen=True)
class Title:
    name: str  # the roster's
    army: str  # its army list's
    where: str  # the file's name, "demo" or "not saved yet"
    modified: bool
    data: str  # the data version


class TitleBar(Widget):
    """`Name · army · file · modified ... data abc123`: in a narrow terminal the army list's name
    is cut first, then the data version goes."""

    def __init__(self, title: Title | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.shown = title

    def show(self, title: Title) -> None:
        if title != self.shown:
            self.shown = title
            self.refresh()

    def render(self) -> Content:
        title, width = self.shown, self.size.width
        if title is None:
            return Content("")
        name = Content.styled(printable(title.name), "bold")  # a control character shown as its escape
        tail = Content.assemble(" · ", printable(title.where),
                                (" · modified", "bold $warning") if title.modified else "")
        data = Content.styled(f"data {title.data}", "$text-muted")
        for right in (data, Content("")):
            room = width - name.cell_length - tail.cell_length - right.cell_length - 4  # " · " and a gap
            if room >= min(12, len(title.army)):
                army = Content.styled(printable(title.army), "$text-muted").truncate(room, ellipsis=True)
                left = Content.assemble(name, " · ", army, tail)
                return Content.assemble(left, " " * (width - left.cell_length - right.cell_length), right)
        return Content.assemble(name, tail).truncate(width, ellipsis=True)

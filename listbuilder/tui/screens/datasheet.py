"""Full datasheets: a list of units on the left, the chosen unit's datasheet on the right."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ...listengine.catalog import Catalog
from ...listengine.datasheet import Datasheet
from ..widgets.datasheet import datasheet
from ..widgets.title_bar import Title, TitleBar


class DatasheetScreen(Screen[None]):
    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back", id="datasheets.back")]

    def __init__(self, catalog: Catalog, game: str, sections: list[tuple[str, list[Datasheet]]],
                 selected: str | None = None, title: Title | None = None) -> None:
        """`sections`: headed groups of units, e.g. ("In the formation", [...]), ("It may add", [...])."""
        super().__init__()
        self.catalog = catalog
        self.game = game
        self.sections = sections
        self.selected = selected
        self.title_shown = title
        self.sheets: list[Datasheet | None] = []  # one per line of the list; None for a heading

    def compose(self) -> ComposeResult:
        yield TitleBar(self.title_shown, id="title")
        with Horizontal(id="datasheets"):
            yield OptionList(id="units")
            with VerticalScroll(id="sheet"):
                yield Static(id="sheet-text")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        units = self.query_one("#units", OptionList)
        options: list[Option] = []
        for heading, sheets in self.sections:
            if not sheets:
                continue
            options.append(Option(Content.styled(heading, "bold"), disabled=True))
            self.sheets.append(None)
            for sheet in sheets:
                options.append(Option(Content(f"  {sheet.name}")))
                self.sheets.append(sheet)
        units.set_options(options)
        names = [s.name if s else None for s in self.sheets]
        units.highlighted = names.index(self.selected) if self.selected in names else 1
        units.border_title = "Units"
        units.focus()

    @on(OptionList.OptionHighlighted, "#units")
    def _show(self, event: OptionList.OptionHighlighted) -> None:
        sheet = self.sheets[event.option_index]
        if sheet is not None:
            self.query_one("#sheet-text", Static).update(datasheet(sheet, self.catalog, self.game))
            self.query_one("#sheet").border_title = Content(sheet.name)

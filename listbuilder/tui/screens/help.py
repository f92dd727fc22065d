"""Every key, gathered from the bindings themselves so that this screen cannot fall out of date."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,f1,question_mark", "dismiss", "Close", id="help.close")]

    def __init__(self, sections: list[tuple[str, list[Binding]]]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        table = Table(box=None, show_header=False, padding=(0, 2, 0, 0), expand=True)
        table.add_column("keys", style="bold", no_wrap=True, width=16)
        table.add_column("what", ratio=1)
        for title, bindings in self.sections:
            table.add_row(Text(f" {title} ", style="reverse"), "")
            for binding in bindings:
                keys = " / ".join(self.app.get_key_display(Binding(key, binding.action))
                                  for key in binding.key.split(","))
                what = Text(binding.description, style="bold")
                if binding.tooltip:
                    what.append(f"  {binding.tooltip}", style="dim")
                table.add_row(keys, what)
            table.add_row("", "")
        with Vertical(classes="dialog", id="help"):
            yield Label("Keys (Esc to close)", classes="dialog-title")
            with VerticalScroll():
                yield Static(table)

"""A searchable list: type to filter, arrows to move, Enter (or a click) to choose."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option


@dataclass(frozen=True)
class PickItem:
    value: Any
    prompt: Content | RenderableType
    name: str  # what filtering looks at first
    details: str = ""  # and then
    disabled: bool = False  # shown (dimmed) but not chosen


def rank(query: str, item: PickItem) -> int:
    """How well an item matches: 3 its name starts with the query, 2 every word of the query is
    in its name, 1 every word is in its name or details, 0 no match (case is ignored)."""
    words = query.casefold().split()
    name = item.name.casefold()
    if not words or name.startswith(" ".join(words)):
        return 3
    if all(word in name for word in words):
        return 2
    text = f"{name} {item.details.casefold()}"
    return 1 if all(word in text for word in words) else 0


class FilterInput(Input):
    """A filter box that passes the arrow keys on to the list it filters."""

    BINDINGS = [
        Binding("down", "move(1)", "Next", id="filter.next", show=False),
        Binding("up", "move(-1)", "Previous", id="filter.previous", show=False),
        Binding("pagedown", "move(10)", show=False),
        Binding("pageup", "move(-10)", show=False),
    ]

    class Move(Message):
        def __init__(self, offset: int) -> None:
            super().__init__()
            self.offset = offset

    def action_move(self, offset: int) -> None:
        self.post_message(self.Move(offset))


def move_highlight(options: OptionList, offset: int) -> None:
    if options.option_count:
        current = options.highlighted if options.highlighted is not None else -1
        options.highlighted = max(0, min(options.option_count - 1, current + offset))


class FilteredList(Vertical):
    """A filter box over a list of items; posts Chosen when one is picked."""

    class Chosen(Message):
        def __init__(self, item: PickItem) -> None:
            super().__init__()
            self.item = item

    def __init__(self, items: list[PickItem], selected: Any = None, placeholder: str = "Type to filter",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.items = items
        self.shown: list[PickItem] = []
        self.selected = selected
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        yield FilterInput(placeholder=self.placeholder, compact=True)
        yield OptionList()

    def on_mount(self) -> None:
        self.fill("")

    @property
    def highlighted(self) -> PickItem | None:
        index = self.query_one(OptionList).highlighted
        return self.shown[index] if index is not None and index < len(self.shown) else None

    def fill(self, query: str) -> None:
        options = self.query_one(OptionList)
        ranked = [(rank(query, item), i, item) for i, item in enumerate(self.items)]
        self.shown = [item for score, _, item in sorted(ranked, key=lambda r: (-r[0], r[1])) if score]
        if self.shown or not query:
            options.set_options(Option(item.prompt, disabled=item.disabled) for item in self.shown)
        else:
            options.set_options([Option(Content.styled(f"No matches for “{query}”", "italic $text-muted"),
                                        disabled=True)])
        values = [item.value for item in self.shown]
        if self.shown:
            # the best match while filtering; the current choice when the list opens
            options.highlighted = values.index(self.selected) if not query and self.selected in values else 0

    def replace(self, items: list[PickItem]) -> None:
        """Other items in the list: the filter typed kept, and the item highlighted where still shown."""
        kept = self.highlighted
        self.items = items
        self.fill(self.query_one(FilterInput).value)
        values = [item.value for item in self.shown]
        if kept is not None and kept.value in values:
            self.query_one(OptionList).highlighted = values.index(kept.value)

    @on(Input.Changed)
    def _filter(self, event: Input.Changed) -> None:
        self.fill(event.value)  # the event goes on up: a preview may have nothing to show now

    @on(FilterInput.Move)
    def _move(self, event: FilterInput.Move) -> None:
        move_highlight(self.query_one(OptionList), event.offset)

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        if self.highlighted is not None and self.highlighted.disabled:
            self.app.bell()  # dimmed: its reason is shown beside it
        elif self.highlighted is not None:
            self.post_message(self.Chosen(self.highlighted))

    @on(OptionList.OptionSelected)
    def _select(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Chosen(self.shown[event.option_index]))


UNSHOWN = object()  # no preview drawn yet


class PickScreen(ModalScreen[PickItem | None]):
    """Choose one item; dismisses with the item (its value may be None, e.g. 'no character').
    With `preview`, what the highlighted item is (a datasheet, a price) is shown under the list."""

    BINDINGS = [Binding("escape", "dismiss_none", "Cancel", id="pick.cancel")]

    def __init__(self, title: str, items: list[PickItem], selected: Any = None, hint: str = "",
                 tall: bool = False, preview: Callable[[Any], Content | None] | None = None) -> None:
        """`tall`: a full-height dialog that keeps its size while the list is filtered."""
        super().__init__()
        self.tall = tall
        self.title_text = title
        self.items = items
        self.selected = selected
        self.hint = hint
        self.preview = preview
        self.previewed: object = UNSHOWN  # the item the preview shows

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog picker" if self.tall else "dialog"):
            yield Label(Content(self.title_text), classes="dialog-title")
            yield FilteredList(self.items, self.selected)
            if self.preview is not None:
                yield Static(id="preview")
            yield Static(self.hint or "Enter choose · Esc cancel", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one(FilterInput).focus()
        self._preview()  # before the dialog is first painted, not after (its layout changes with it)

    @on(OptionList.OptionHighlighted)
    @on(Input.Changed)
    def _preview(self) -> None:
        item = self.query_one(FilteredList).highlighted
        if self.preview is None or item is self.previewed:
            return
        self.previewed = item
        shown = self.preview(item.value) if item is not None else None
        preview = self.query_one("#preview", Static)
        preview.update(shown or "")
        preview.display = shown is not None

    def on_filtered_list_chosen(self, event: FilteredList.Chosen) -> None:
        self.dismiss(event.item)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)

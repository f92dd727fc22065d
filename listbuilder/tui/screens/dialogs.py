"""Small dialogs: a path to open or save to, a question with a few answers, a line of text."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.validation import Integer
from textual.widgets import Button, DirectoryTree, Input, Label, Static

ROSTER_SUFFIXES = (".yaml", ".yml")


class RosterTree(DirectoryTree):
    """Folders and roster files only."""

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".") and (p.is_dir() or p.suffix in ROSTER_SUFFIXES)]


class PathScreen(ModalScreen[Path | None]):
    """Ask for a file path; with `browse`, a tree of roster files fills it in."""

    BINDINGS = [Binding("escape", "dismiss_none", "Cancel", id="path.cancel")]

    def __init__(self, title: str, suggested: Path | None, browse: bool = False, action: str = "Save") -> None:
        super().__init__()
        self.title_text = title
        self.suggested = suggested
        self.browse = browse
        self.action = action

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Content(self.title_text), classes="dialog-title")
            yield Input(str(self.suggested or ""), placeholder="path/to/file", id="path", compact=True)
            if self.browse:
                yield RosterTree(Path.cwd(), id="tree")
            yield Static("", id="problem", classes="dialog-problem")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.action, id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#path", Input).focus()

    @on(DirectoryTree.FileSelected)
    def _file(self, event: DirectoryTree.FileSelected) -> None:
        self.query_one("#path", Input).value = str(event.path)
        self._finish()

    @on(Input.Submitted, "#path")
    @on(Button.Pressed, "#ok")
    def _finish(self) -> None:
        text = self.query_one("#path", Input).value.strip()
        if not text:
            self.query_one("#problem", Static).update("Give a file name.")
            return
        path = Path(text).expanduser()
        if self.browse and not path.is_file():
            self.query_one("#problem", Static).update(Content(f"There is no file {path}."))
            return
        self.dismiss(path)

    @on(Button.Pressed, "#cancel")
    def action_dismiss_none(self) -> None:
        self.dismiss(None)


class AskScreen(ModalScreen[str | None]):
    """A question with answers (id, label, key); Escape answers None."""

    BINDINGS = [Binding("escape", "dismiss_none", "Cancel", id="ask.cancel")]

    def __init__(self, question: str, answers: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.question = question
        self.answers = answers

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Content(self.question), classes="dialog-question")
            with Horizontal(classes="dialog-buttons"):
                for i, (answer, label, key) in enumerate(self.answers):
                    yield Button(f"{label} ({key})", id=answer, variant="primary" if i == 0 else "default",
                                 compact=True)

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    def on_key(self, event) -> None:
        for answer, _, key in self.answers:
            if event.key == key:
                event.stop()
                self.dismiss(answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)


class RosterDetailsScreen(ModalScreen[tuple[str, int] | None]):
    """The roster's name and agreed points limit."""

    BINDINGS = [Binding("escape", "dismiss_none", "Cancel", id="details.cancel")]

    def __init__(self, name: str, points: int, allowed: tuple[int, int]) -> None:
        super().__init__()
        self.roster_name = name
        self.points = points
        self.allowed = allowed

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Roster name and points", classes="dialog-title")
            with Horizontal(classes="field"):
                yield Label("Name", classes="field-label")
                yield Input(self.roster_name, id="name", compact=True)
            with Horizontal(classes="field"):
                yield Label("Points", classes="field-label")
                yield Input(str(self.points), id="points", type="integer", compact=True,
                            validators=[Integer(minimum=1)])
            low, high = self.allowed
            yield Static(f"The lists are balanced for {low:,} to {high:,} points.", classes="dialog-hint")
            yield Static("", id="problem", classes="dialog-problem")
            with Horizontal(classes="dialog-buttons"):
                yield Button("OK", id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    @on(Input.Submitted)
    @on(Button.Pressed, "#ok")
    def _finish(self) -> None:
        points = self.query_one("#points", Input)
        if not points.is_valid or not points.value:
            self.query_one("#problem", Static).update("The points limit is a whole number above 0.")
            return
        self.dismiss((self.query_one("#name", Input).value, int(points.value)))

    @on(Button.Pressed, "#cancel")
    def action_dismiss_none(self) -> None:
        self.dismiss(None)


class TextScreen(ModalScreen[str | None]):
    """One line of text: a formation's label, a roster's new name."""

    BINDINGS = [Binding("escape", "dismiss_none", "Cancel", id="text.cancel")]

    def __init__(self, title: str, text: str, placeholder: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Content(self.title_text), classes="dialog-title")
            yield Input(self.text, placeholder=self.placeholder, compact=True)
            yield Static("Enter save · Esc cancel", classes="dialog-hint")

    @on(Input.Submitted)
    def _finish(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
